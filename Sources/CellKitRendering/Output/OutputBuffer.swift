// Where rendered bytes go: a buffer flushed in large writes to standard output
// or to a file that appears only when complete (AtomicFileSink.swift).

import CellKitDocuments
import CellKitModel
import CellKitRuntime
import CellKitText
import Foundation

/// Bytes on their way out; flushed every 256 KiB, so memory stays flat.
/// Raw memory rather than an array: formats write a row byte by byte, and an
/// array checks capacity and uniqueness on every append.
public final class OutputBuffer {
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
    /// The bytes `storage` has room for (read by tests, to write up to its end).
    @exclusivity(unchecked) private(set) var capacity: Int
    /// Bytes waiting to be flushed.
    @exclusivity(unchecked) package private(set) var count = 0
    private let sink: OutputSink
    static let flushSize = 1 << 18
    /// Where `flushIfFull` flushes: `flushSize`, or what the owner of external memory chose.
    private let flushAt: Int

    /// An empty buffer that `flush()` writes to `sink`.
    public init(_ sink: OutputSink) {
        self.sink = sink
        capacity = Self.flushSize + 4096
        storage = .allocate(capacity: capacity)
        flushAt = Self.flushSize
    }

    /// An empty buffer over `capacity` bytes of memory at `storage` that it neither grows nor frees
    /// (memory shared with another process: Isolation/), flushed once `flushAt` bytes wait. A row
    /// longer than what is left past that stops the process.
    package init(_ sink: OutputSink, storage: UnsafeMutablePointer<UInt8>, capacity: Int, flushAt: Int) {
        self.sink = sink
        self.capacity = capacity
        self.storage = storage
        self.flushAt = min(flushAt, capacity)
        external = true
    }

    /// Whether `storage` belongs to someone else.
    private var external = false

    deinit { if !external { storage.deallocate() } }

    /// Drops every waiting byte.
    package func discard() { count = 0 }

    /// Drops the bytes written after the first `mark` waiting ones (a `count` read before them):
    /// nothing flushes between the two, so they are all still here.
    @inline(__always)
    func takeBack(to mark: Int) {
        precondition(mark <= count)
        count = mark
    }

    /// The bytes written after the first `mark` waiting ones (a `count` read before them), valid
    /// until the next write: nothing flushes between the two, so they are all still here.
    @inline(__always)
    func written(since mark: Int) -> UnsafeBufferPointer<UInt8> {
        precondition(mark <= count)
        return UnsafeBufferPointer(start: storage + mark, count: count &- mark)
    }

    /// The bytes waiting to be flushed, as an array (for reading back).
    package var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage, count: count)) }

    /// Appends `text` as UTF-8, as it is: a format sanitizes or escapes text before writing it.
    @inline(__always)
    public func write(_ text: String) {
        text.withBorrowedUTF8 { write($0) }
    }

    /// Appends `bytes`, copied; an empty buffer writes nothing. Up to 64 bytes (a label's line, a
    /// piece of markup) go in word moves rather than a call to `memcpy` (`ShortCopy`; BENCHMARKS.md,
    /// "Measurements behind the code": OutputBuffer.wordStores, ShortCopy).
    @inline(__always)
    package func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }  // an empty buffer may have no address
        reserve(bytes.count)
        ShortCopy.copy(storage + count, from: base, count: bytes.count)
        count &+= bytes.count
    }

    /// Appends `bytes`.
    @inline(__always)
    public func write(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { write($0) } }

    /// Appends one byte, such as a newline (0x0A).
    @inline(__always)
    public func write(byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    /// Appends `n` spaces (none when `n` is not positive), as `writeSpaces(_:at:)` writes them: in
    /// word stores, the last step's overshoot past the count left as slack the next write covers,
    /// where the buffer has room for it; else by `update(repeating:)`. A row's padding is many
    /// short runs, and a call to `memset` cost more than the run (BENCHMARKS.md, "Measurements
    /// behind the code": OutputBuffer.wordStores).
    @inline(__always)
    package func writeSpaces(_ n: Int) {
        var place = place()
        writeSpaces(n, at: &place)
        commit(place)
    }

    /// Where a writer that keeps its own place writes next (`place()`), and the end of the memory:
    /// a line written through it loads and stores the count once, not at each of its pieces
    /// (BENCHMARKS.md, "Measurements behind the code": DirectLines.place). Its bytes count once
    /// `commit` says so.
    package struct Place {
        fileprivate var next: UnsafeMutablePointer<UInt8>
        fileprivate let end: UnsafeMutablePointer<UInt8>
    }

    /// The place after the bytes waiting.
    @inline(__always)
    package func place() -> Place { Place(next: storage + count, end: storage + capacity) }

    /// The bytes written at `place` count from now on (a later `takeBack` can still drop them).
    @inline(__always)
    package func commit(_ place: Place) { count = place.next - storage }

    /// `writeSpaces(_:)` at `place`: thirty-two a step (a line's padding is often that long), the
    /// overshoot left as slack where the memory has room for it; else exactly `n`.
    @inline(__always)
    package func writeSpaces(_ n: Int, at place: inout Place) {
        guard n > 0 else { return }
        if _slowPath(place.end - place.next < n &+ 32) { return spacesNearEnd(n, at: &place) }
        let start = UnsafeMutableRawPointer(place.next), words: UInt64 = 0x2020_2020_2020_2020
        var at = 0
        repeat {
            start.storeBytes(of: words, toByteOffset: at, as: UInt64.self)
            start.storeBytes(of: words, toByteOffset: at &+ 8, as: UInt64.self)
            start.storeBytes(of: words, toByteOffset: at &+ 16, as: UInt64.self)
            start.storeBytes(of: words, toByteOffset: at &+ 24, as: UInt64.self)
            at &+= 32
        } while at < n
        place.next += n
    }

    /// `writeSpaces(_:at:)` with no room for its overshoot: the buffer grown if it must be (as
    /// `writeSpaces(_:)` grows it), the spaces written exactly.
    @inline(never)
    private func spacesNearEnd(_ n: Int, at place: inout Place) {
        if place.end - place.next < n { makeRoom(n, at: &place) }
        place.next.update(repeating: 0x20, count: n)
        place.next += n
    }

    /// `write(_:)` at `place`.
    @inline(__always)
    package func write(_ bytes: UnsafeBufferPointer<UInt8>, at place: inout Place) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        if _slowPath(place.end - place.next < bytes.count) { makeRoom(bytes.count, at: &place) }
        ShortCopy.copy(place.next, from: base, count: bytes.count)
        place.next += bytes.count
    }

    /// `write(byte:)` at `place`.
    @inline(__always)
    package func write(byte: UInt8, at place: inout Place) {
        if _slowPath(place.next == place.end) { makeRoom(1, at: &place) }
        place.next.pointee = byte
        place.next += 1
    }

    /// Room for `n` more bytes after what was written at `place`, which then counts (the buffer
    /// keeps only counted bytes when it grows).
    @inline(never)
    private func makeRoom(_ n: Int, at place: inout Place) {
        commit(place)
        reserve(n)
        place = self.place()
    }

    /// Lets `body` write at most `limit` bytes in place; it returns how many it wrote.
    @inline(__always)
    func append(atMost limit: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(limit)
        count += body(storage + count)
    }

    /// Room for `n` more bytes. A row longer than the slack past the flush size grows the buffer.
    @inline(__always)
    private func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    private func grow(_ needed: Int) {
        precondition(!external, "a row of \(needed) bytes does not fit the shared output buffer")
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: max(needed, capacity * 2))
        bigger.moveInitialize(from: storage, count: count)
        storage.deallocate()
        (storage, capacity) = (bigger, max(needed, capacity * 2))
    }

    /// Writes the buffer out if it is full.
    @inline(__always)
    func flushIfFull() throws {
        if count >= flushAt { try flush() }
    }

    /// Writes every waiting byte to the sink and empties the buffer. Call it once the table is rendered:
    /// nothing flushes it at the end. An error from the sink is thrown, and the bytes stay.
    public func flush() throws {
        try sink.write(UnsafeBufferPointer(start: storage, count: count))
        count = 0
    }
}

/// A destination for rendered bytes: where an `OutputBuffer` flushes, and what
/// `DocumentRender.run(to:report:)` and `runInProcess(to:)` write the table to.
///
/// The library ships `DescriptorSink` (a file descriptor, standard output by default),
/// `AtomicFileSink` (a file that appears only when complete) and `StringSink` (memory). A sink of
/// your own implements one method, ``write(_:)``:
///
/// - **When.** `OutputBuffer.flush()` calls it: about every 256 KiB while a table renders, and once
///   more when the owner flushes at the end. An isolated render (`run(to:report:)`) calls it as
///   whole rows arrive from the worker. A table's bytes therefore arrive in several calls, cut at
///   any byte (even inside a UTF-8 sequence): concatenate them, in order, to get the output.
/// - **With what.** A buffer that is valid only during the call (copy what you keep); it may be
///   empty.
/// - **Threads.** It is called on the thread that renders (the one that called `flush()`, `run` or
///   `runInProcess`), never on two threads at once for one render. A sink shared between renders
///   on several threads must guard itself.
/// - **Errors.** Write every byte or throw. The error ends the render and is rethrown to whoever
///   called `flush()`, `run` or `runInProcess` (the sinks here throw an `OutputError` naming
///   where). The buffer keeps bytes the sink refused.
///
/// A sink that counts lines instead of keeping them:
///
/// ```swift
/// final class LineCounter: OutputSink {
///     var lines = 0
///     func write(_ bytes: UnsafeBufferPointer<UInt8>) throws {
///         lines += bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
///     }
/// }
/// ```
public protocol OutputSink: AnyObject {
    /// Writes all of `bytes`, in order after those of earlier calls, or throws (an `OutputError`
    /// naming where, for the sinks here). `bytes` is valid only during the call.
    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws
}

/// An error writing output, naming where.
public struct OutputError: Error, Codable, CustomStringConvertible {
    /// What failed and why, with the path or "standard output": "cannot write out.html: No space left on device".
    public let description: String

    /// An error that says `description`.
    package init(description: String) { self.description = description }
}

/// A file descriptor, such as standard output.
public final class DescriptorSink: OutputSink {
    let fd: Int32
    let name: String

    /// A sink writing to the open descriptor `fd` (standard output by default), which it never closes.
    /// `name` says where in errors.
    public init(fd: Int32 = 1, name: String = "standard output") { (self.fd, self.name) = (fd, name) }

    /// Writes all of `bytes`, retrying short and interrupted writes; throws an `OutputError` on failure.
    public func write(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        var offset = 0
        while offset < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                throw OutputError(description: "cannot write to \(name): \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }
}
