// The `lstat`s of a folder's files, read by two threads: a helper reads them from the last
// file backwards while the walk reads its own from the first forwards and works on each as it
// goes. With many plugins installed the stats are a large part of the walk, and the helper
// shortens discovery markedly (BENCHMARKS.md, "Measurements behind the code": StatAhead).
//
// Each file is claimed by one side only, Dekker's way: a side publishes how far it wants to
// go, then reads how far the other side went; with both sequentially consistent, two sides
// cannot both win a file (both may lose one: the walk then reads it itself). Files are claimed
// eight at a time: each claim moves a cache line between the two processors, which made claiming
// one file at a time dear (BENCHMARKS.md, "Measurements behind the code": StatAhead.chunk). The
// helper is joined before anything it wrote is read and before the walk goes on to another
// folder, so no thread outlives a folder's walk: a render worker forks only while
// single-threaded.

import Foundation
import Synchronization

/// The `lstat` of each of a folder's files, by index, read ahead on a helper thread. Not
/// `Sendable`: one walk uses it from one thread; what it shares with its helper is `Shared`.
final class StatAhead {
    /// Below this many files a helper thread costs more than it saves: a thread start costs as much
    /// as many stats (BENCHMARKS.md, "Measurements behind the code": StatAhead.minimumFiles).
    static let minimumFiles = 64
    /// Files claimed at once by either side.
    static let chunk = 8

    private let shared: Shared
    private var thread: pthread_t?
    /// The walk has claimed every file below this.
    private var claimed = 0
    /// After the join: the first file the helper read; those before it (from where the walk
    /// stopped) the walk reads itself.
    private(set) var helperFirst = Int.max

    /// Starts reading the `lstat`s of the files named `names` (NUL-terminated, relative to the
    /// open folder `folder`) on a helper thread; nil when there are too few to pay for one or
    /// the thread cannot start (the walk then stats each file itself).
    init?(folder: Int32, names: [UnsafePointer<CChar>]) {
        guard folder >= 0, names.count >= Self.minimumFiles else { return nil }
        shared = Shared(folder: folder, names: names)
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, 64 << 10)  // a loop of system calls: not the default 8 MiB
        var started = pthread_t()
        let context = Unmanaged.passRetained(shared).toOpaque()
        guard pthread_create(&started, &attributes, { Shared.helperMain($0) }, context) == 0 else {
            Unmanaged<Shared>.fromOpaque(context).release()
            return nil
        }
        thread = started
    }

    deinit { finish() }

    /// The `lstat` of file `index` (asked for in increasing order from 0), into `info`; false if
    /// it failed. Read here unless the helper has it: then the helper is waited for.
    func lstat(_ index: Int, into info: inout stat) -> Bool {
        if thread != nil {
            if index < claimed { return shared.read(index, into: &info) }
            let wanted = min(index + Self.chunk, shared.names.count)
            shared.front.store(wanted, ordering: .sequentiallyConsistent)
            if shared.back.load(ordering: .sequentiallyConsistent) >= wanted {
                claimed = wanted
                return shared.read(index, into: &info)
            }
            finish()
        }
        guard index >= helperFirst else { return shared.read(index, into: &info) }
        info = shared.results[index]
        return shared.succeeded[index]
    }

    /// Waits for the helper to end (at once if it has): call it before the names' memory goes.
    func finish() {
        guard let started = thread else { return }
        pthread_join(started, nil)
        thread = nil
        helperFirst = shared.helperFirst
    }

    /// What the walk and its helper share: the names, one result slot each, and the two claims.
    private final class Shared: @unchecked Sendable {
        // @unchecked: `results` and `succeeded` are written at an index only by the side that
        // claimed it, and read by the walk only after the join; `names` and `folder` never change.
        let folder: Int32
        let names: [UnsafePointer<CChar>]
        let results: UnsafeMutableBufferPointer<stat>
        let succeeded: UnsafeMutableBufferPointer<Bool>
        /// The walk has claimed (or tried to claim) every file below `front`; the helper every
        /// file from `back` on.
        let front = Atomic(0), back: Atomic<Int>
        /// The helper's first file, written by it before it ends (read after the join).
        var helperFirst = 0

        init(folder: Int32, names: [UnsafePointer<CChar>]) {
            (self.folder, self.names) = (folder, names)
            results = .allocate(capacity: names.count)
            succeeded = .allocate(capacity: names.count)
            succeeded.initialize(repeating: false)
            back = Atomic(names.count)
        }

        deinit {
            results.deallocate()
            succeeded.deallocate()
        }

        /// Reads file `index`'s `lstat` into `info` (the walk's own files).
        func read(_ index: Int, into info: inout stat) -> Bool {
            fstatat(folder, names[index], &info, AT_SYMLINK_NOFOLLOW) == 0
        }

        /// The helper: claims files from the last backwards, eight at a time, until it meets the walk.
        static func helperMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
            let shared = Unmanaged<Shared>.fromOpaque(context!).takeRetainedValue()
            var done = shared.names.count  // the first file read so far
            while done > 0 {
                let low = max(done - StatAhead.chunk, 0)
                shared.back.store(low, ordering: .sequentiallyConsistent)
                if shared.front.load(ordering: .sequentiallyConsistent) > low { break }
                for index in (low..<done).reversed() {
                    let slot = shared.results.baseAddress! + index
                    shared.succeeded[index] =
                        fstatat(shared.folder, shared.names[index], slot, AT_SYMLINK_NOFOLLOW) == 0
                }
                done = low
            }
            shared.helperFirst = done
            return nil
        }
    }
}
