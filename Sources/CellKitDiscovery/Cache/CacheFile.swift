// The registry cache file as discovery reads it: its first line and the entries' first lines
// (the heads: path, key, kind, identifiers, and how long the entry's record is) read into
// memory; the records, which follow all the heads and are four fifths of the file, read one at
// a time when a plugin is decoded. Reading the whole file cost a fresh process page faults on
// all its new memory, for a render that decodes two records (BENCHMARKS.md, "Measurements
// behind the code": CacheFile).
//
// Not mapped: a file cut short while mapped (by anything but our writers, which rename a new
// file over it) would end the process with SIGBUS on the next read. Not kept open either: a
// forked render worker closes its close-on-exec descriptors, and a later open could reuse the
// number. A record is read by opening the file again, and only from the version read (same
// device, inode, size, and modification and change times); from any other it is unavailable,
// and the plugin file is read instead. Saving reads every record still to copy at once, and
// keeps them: the save renames a new file over this one, whose records are then gone.

import Foundation
import Synchronization

extension RegistryCache {
    /// The first line and the heads of a cache file of this format, read into memory that is not
    /// zeroed first, and where the file is, to read records from it.
    final class CacheFile: @unchecked Sendable {  // immutable once read
        /// The first line and the heads, each line with its newline.
        let bytes: UnsafeBufferPointer<UInt8>
        /// Where the heads start in `bytes` (after the first line).
        let headsStart: Int
        /// Whether `bytes` were mapped (`allocate`).
        private let mapped: Bool
        /// The file's path and its key when it was read: records are read from that version only.
        let path: String
        let key: FileKey
        /// The file's size when it was read.
        var size: Int { Int(key.size) }
        /// Everything after the heads, once read for a save: later reads and saves take it from here.
        private let kept = Mutex<[UInt8]?>(nil)

        /// Reads the first line and the heads of the file at `path`, open as `fd`, whose `stat` is
        /// `info`; nil if the first line is not this format's or names more heads than the file holds.
        init?(fd: Int32, path: String, info: stat) {
            guard let key = FileKey(info), key.size > 0 else { return nil }
            // The first line: the format, and how many bytes of heads follow it.
            let first = [UInt8](unsafeUninitializedCapacity: min(Int(key.size), 4096)) { buffer, count in
                count = Self.read(fd, into: UnsafeMutableRawBufferPointer(buffer), at: 0) ? buffer.count : 0
            }
            guard let newline = first.firstIndex(of: 0x0A), let heads = Self.headBytes(inFirstLine: first[..<newline]),
                heads <= Int(key.size) - newline - 1
            else { return nil }
            let total = newline + 1 + heads
            let (memory, mapped) = Self.allocate(total)
            let copied = min(first.count, total)
            first.withUnsafeBytes { memory.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[..<copied])) }
            guard Self.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: memory[copied...]), at: copied) else {
                Self.deallocate(memory, mapped: mapped)
                return nil
            }
            bytes = UnsafeBufferPointer(memory.bindMemory(to: UInt8.self))
            (headsStart, self.path, self.key, self.mapped) = (newline + 1, path, key, mapped)
        }

        deinit {
            Self.deallocate(UnsafeMutableRawBufferPointer(mutating: UnsafeRawBufferPointer(bytes)), mapped: mapped)
        }

        /// Memory for `count` bytes of heads, its pages made present at once (MAP_POPULATE): touching
        /// each new page cost a fault, where populating them costs a fraction of that (BENCHMARKS.md,
        /// "Measurements behind the code": CacheFile.populate). Not the file mapped: see above.
        /// Whether it was mapped (else allocated, if mapping failed).
        private static func allocate(_ count: Int) -> (UnsafeMutableRawBufferPointer, mapped: Bool) {
            let memory = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0)
            guard let memory, memory != MAP_FAILED else {
                return (UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 1), false)
            }
            return (UnsafeMutableRawBufferPointer(start: memory, count: count), true)
        }

        /// Gives back memory from `allocate`.
        private static func deallocate(_ memory: UnsafeMutableRawBufferPointer, mapped: Bool) {
            if mapped { munmap(memory.baseAddress, memory.count) } else { memory.deallocate() }
        }

        /// How many bytes of heads the first line says follow it, if it is this format's first line.
        private static func headBytes(inFirstLine line: ArraySlice<UInt8>) -> Int? {
            let prefix = RegistryCache.headerPrefix.utf8, suffix = RegistryCache.headerSuffix.utf8
            guard line.count > prefix.count + suffix.count, line.starts(with: prefix),
                line.suffix(suffix.count).elementsEqual(suffix)
            else { return nil }
            let digits = line.dropFirst(prefix.count).dropLast(suffix.count)
            guard (1...9).contains(digits.count), digits.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else {
                return nil
            }
            return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }

        /// Fills `buffer` from `fd` at `offset`; false if the file ends first or cannot be read.
        private static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool {
            var done = 0
            while done < buffer.count {
                let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }

        /// The bytes at `range` of the file, if it is still the version read or they were kept; nil otherwise.
        func read(_ range: Range<Int>) -> [UInt8]? {
            guard range.upperBound <= size else { return nil }
            if range.lowerBound >= bytes.count, let kept = kept.withLock({ $0 }) {
                return Array(kept[range.lowerBound - bytes.count..<range.upperBound - bytes.count])
            }
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, FileKey(info) == key else { return nil }
            var complete = false
            let bytes = [UInt8](unsafeUninitializedCapacity: range.count) { buffer, count in
                complete = Self.read(fd, into: UnsafeMutableRawBufferPointer(buffer), at: range.lowerBound)
                count = complete ? range.count : 0
            }
            return complete ? bytes : nil
        }

        /// The file's records and what ends it (everything after the heads), and where they start
        /// in the file; read once (if the file is still the version read), then kept.
        func tails() -> (bytes: [UInt8], start: Int)? {
            if let kept = kept.withLock({ $0 }) { return (kept, bytes.count) }
            guard let read = read(bytes.count..<size) else { return nil }
            kept.withLock { $0 = read }
            return (read, bytes.count)
        }
    }
}
