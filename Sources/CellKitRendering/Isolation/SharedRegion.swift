// The memory a render worker shares with its supervisor: the progress record
// (HookProgress) at the start, the worker's output buffer after it. Backed by a
// memfd (a file with no name), sparse: only the pages written take memory.

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

    /// The descriptor of the memory (close-on-exec in the supervisor).
    package let fd: Int32
    let base: UnsafeMutableRawPointer

    /// The progress record at the start.
    package var record: UnsafeMutablePointer<HookProgress.Header> {
        base.assumingMemoryBound(to: HookProgress.Header.self)
    }
    /// Text a worker leaves at the start of the output buffer for its last message (warnings, an
    /// error), cut to the buffer's size.
    func leave(_ text: String) -> Int {
        let bytes = Array(text.utf8.prefix(Self.outputCapacity))
        bytes.withUnsafeBufferPointer { output.update(from: $0.baseAddress!, count: $0.count) }
        return bytes.count
    }

    /// The text a worker left at the start of the output buffer (`leave(_:)`).
    func text(count: Int) -> String {
        String(
            decoding: UnsafeBufferPointer(start: output, count: min(max(count, 0), Self.outputCapacity)), as: UTF8.self)
    }

    /// The output buffer.
    var output: UnsafeMutablePointer<UInt8> { (base + Self.outputOffset).assumingMemoryBound(to: UInt8.self) }

    /// New shared memory, zeroed.
    package init() throws {
        var fd: Int32 = -1
        if let create = Self.memfdCreate { fd = create("cellkit-render", 1) }  // MFD_CLOEXEC
        if fd < 0 {  // no memfd: an unlinked temporary file
            var template = Array((NSTemporaryDirectory() + "/cellkit-render.XXXXXX").utf8CString)
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

    /// The memory behind `fd`, which a supervisor passed on.
    package init(attaching fd: Int32) throws {
        self.fd = fd
        base = try Self.map(fd)
    }

    deinit {
        munmap(base, Self.size)
        close(fd)
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
    }

    /// `memfd_create`, looked up at run time (the C library's header hides it from Swift).
    private static let memfdCreate: (@convention(c) (UnsafePointer<CChar>, UInt32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "memfd_create") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafePointer<CChar>, UInt32) -> Int32).self)
    }()
}

/// What a worker tells its supervisor, one fixed-size message at a time over a pipe (atomic writes).
struct WorkerMessage {
    enum Kind: UInt64 {
        /// `bytes` bytes at the start of the output buffer are ready; the worker waits for an
        /// acknowledgement before it writes there again.
        case chunk = 1
        /// The table is complete (its last chunk sent); `bytes` bytes at the start of the output
        /// buffer are its warnings, one a line. The worker exits 0.
        case done = 2
        /// The render failed; `bytes` bytes at the start of the output buffer are the error's
        /// message. The worker exits 1.
        case failed = 3
    }

    var kind: Kind
    var bytes: Int = 0

    static let size = 16

    var encoded: (UInt64, UInt64) { (kind.rawValue, UInt64(bytes)) }

    init(kind: Kind, bytes: Int = 0) { (self.kind, self.bytes) = (kind, bytes) }

    init?(_ raw: (UInt64, UInt64)) {
        guard let kind = Kind(rawValue: raw.0) else { return nil }
        (self.kind, bytes) = (kind, Int(raw.1))
    }
}
