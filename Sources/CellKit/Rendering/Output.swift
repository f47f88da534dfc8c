// Where rendered bytes go: a buffer flushed in large writes to standard output
// or to a file that appears only when complete (written aside, then renamed).

import Foundation

/// Bytes on their way out; flushed every 256 KiB, so memory stays flat.
public final class OutputBuffer {
    /// Written by one renderer at a time, so no runtime exclusivity checks (they cost ~10% here).
    @exclusivity(unchecked) public var bytes: [UInt8] = []
    private let sink: OutputSink
    static let flushSize = 1 << 18

    public init(_ sink: OutputSink) {
        self.sink = sink
        bytes.reserveCapacity(Self.flushSize + 4096)
    }

    @inline(__always)
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    @inline(__always)
    public func write(byte: UInt8) { bytes.append(byte) }

    /// Writes the buffer out if it is full.
    @inline(__always)
    public func flushIfFull() throws {
        if bytes.count >= Self.flushSize { try flush() }
    }

    public func flush() throws {
        try bytes.withUnsafeBufferPointer { try sink.write($0) }
        bytes.removeAll(keepingCapacity: true)
    }
}

/// A destination for rendered bytes.
public protocol OutputSink: AnyObject {
    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws
}

/// An error writing output, naming where.
public struct OutputError: Error, CustomStringConvertible {
    public let description: String
}

/// A file descriptor, such as standard output.
public final class DescriptorSink: OutputSink {
    let fd: Int32
    let name: String

    public init(fd: Int32 = 1, name: String = "standard output") { (self.fd, self.name) = (fd, name) }

    public func write(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        var offset = 0
        while offset < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw OutputError(description: "cannot write to \(name): \(String(cString: strerror(errno)))") }
            offset += n
        }
    }
}

/// A file written atomically: to a temporary file beside it, renamed into place by
/// `commit()`. Until then (or after `abort()`) the destination is untouched.
public final class AtomicFileSink: OutputSink {
    public let path: String
    private let temporary: String
    private let file: DescriptorSink
    private var finished = false

    public init(path: String) throws {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        var template = Array(((folder.isEmpty ? "." : folder) + "/.\((path as NSString).lastPathComponent).XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw OutputError(description: "cannot create a file in \(folder.isEmpty ? "." : folder) for \(path): \(String(cString: strerror(errno)))")
        }
        temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        fchmod(fd, 0o644)
        file = DescriptorSink(fd: fd, name: path)
    }

    deinit { abort() }

    public func write(_ bytes: UnsafeBufferPointer<UInt8>) throws { try file.write(bytes) }

    /// Makes the file durable and renames it over `path`.
    public func commit() throws {
        guard !finished else { return }
        finished = true
        defer { close(file.fd) }
        guard fsync(file.fd) == 0, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw OutputError(description: "cannot write \(path): \(reason)")
        }
    }

    /// Removes the temporary file; `path` keeps what it had.
    public func abort() {
        guard !finished else { return }
        finished = true
        close(file.fd)
        unlink(temporary)
    }
}
