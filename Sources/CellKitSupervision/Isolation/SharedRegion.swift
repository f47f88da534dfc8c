// The memory a render worker shares with its supervisor: the progress record
// (HookProgress) at the start, the worker's output buffer after it. Backed by a
// memfd (a file with no name), sparse: only the pages written take memory.

import CellKitRendering
import CellKitRuntime
import Foundation

/// One mapping of the shared memory, in the supervisor or in the worker.
package final class SharedRegion: @unchecked Sendable {  // the memory is written by one process at a time
    /// Where the output buffer starts, past the progress record.
    static let outputOffset = 1 << 20
    /// The output buffer's size: the flush size and the longest row, with room to spare. Pages
    /// never written take no memory.
    static let outputCapacity = 255 << 20
    static let size = outputOffset + outputCapacity

    /// The memory's name (a memfd's), which a worker checks it inherited (`WorkerRole.isSharedMemory`).
    static let name = "cellkit-render"

    /// The descriptor of the memory (close-on-exec in the supervisor).
    package let fd: Int32
    let base: UnsafeMutableRawPointer

    /// Where a worker's warning journal is (`WarningJournal`): past the progress record, its
    /// `capacity` ending where the output buffer starts.
    static let journalOffset = HookProgress.size

    /// The worker's warning journal's area.
    package var journal: UnsafeMutableRawPointer { base + Self.journalOffset }

    /// The progress record at the start.
    package var record: UnsafeMutablePointer<HookProgress.Header> {
        base.assumingMemoryBound(to: HookProgress.Header.self)
    }
    /// Copies `bytes` to the start of the output buffer (a document read from standard input, for
    /// an exec'd worker that cannot read it again); returns how many were copied.
    func leave(_ bytes: [UInt8]) -> Int {
        let count = min(bytes.count, Self.outputCapacity)
        bytes.withUnsafeBufferPointer { output.update(from: $0.baseAddress!, count: count) }
        return count
    }

    /// The first `count` bytes of the output buffer (what `leave(_:)` put there).
    func bytes(count: Int) -> [UInt8] {
        Array(UnsafeBufferPointer(start: output, count: min(max(count, 0), Self.outputCapacity)))
    }

    /// The output buffer.
    var output: UnsafeMutablePointer<UInt8> { (base + Self.outputOffset).assumingMemoryBound(to: UInt8.self) }

    /// New shared memory, zeroed.
    package init() throws {
        var fd: Int32 = -1
        if let create = Self.memfdCreate { fd = create(Self.name, 1) }  // MFD_CLOEXEC
        if fd < 0 {  // no memfd: an unlinked temporary file
            var template = Array((NSTemporaryDirectory() + "/\(Self.name).XXXXXX").utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            }
        }
        guard fd >= 0, ftruncate(fd, off_t(Self.size)) == 0 else {
            throw OutputError(
                description: "cannot make memory for the render worker: \(String(cString: strerror(errno)))")
        }
        self.fd = fd
        base = try Self.map(fd)
    }

    /// The memory behind `fd`, which a supervisor passed on; `fd` is closed once mapped (a plugin
    /// writing to every descriptor must not reach the progress record through it).
    package init(attaching fd: Int32) throws {
        base = try Self.map(fd)
        close(fd)
        self.fd = -1
    }

    deinit {
        munmap(base, Self.size)
        if fd >= 0 { close(fd) }
    }

    private static func map(_ fd: Int32) throws -> UnsafeMutableRawPointer {
        let address = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard let address, address != MAP_FAILED else {
            throw OutputError(description: "cannot map the render worker's memory: \(String(cString: strerror(errno)))")
        }
        return address
    }

    /// Prepares the progress record for a new worker: zeroed if a worker wrote to it (new memory is
    /// zero already, and zeroing its 128 pages by hand faulted every one of them in).
    func resetRecord(written: Bool) {
        if written { base.initializeMemory(as: UInt8.self, repeating: 0, count: HookProgress.size) }
        record.initialize(to: HookProgress.Header())
        WarningJournal.clear(journal)  // a worker that dies before it writes one leaves none
    }

    /// A sealed-size memory file named `name` holding `bytes`, at offset 0, close-on-exec: how an
    /// exec'd worker gets its plan (and key) without an environment variable, which a plugin could
    /// read back from `/proc/self/environ`. Nil if it cannot be made.
    package static func memoryFile(named name: String, holding bytes: [UInt8]) -> Int32? {
        guard let create = memfdCreate else { return nil }
        let fd = create(name, 1)  // MFD_CLOEXEC
        guard fd >= 0 else { return nil }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                close(fd)
                return nil
            }
            written += n
        }
        lseek(fd, 0, SEEK_SET)
        return fd
    }

    /// Every byte of `fd` from where it stands (a memory file a worker inherits), up to `limit`.
    package static func readAll(_ fd: Int32, atMost limit: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while bytes.count < limit {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += buffer[..<n]
        }
        return bytes
    }

    /// `memfd_create`, looked up at run time (the C library's header hides it from Swift).
    private static let memfdCreate: (@convention(c) (UnsafePointer<CChar>, UInt32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "memfd_create") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafePointer<CChar>, UInt32) -> Int32).self)
    }()
}
