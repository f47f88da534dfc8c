// Rendered bytes kept in memory, for a program that wants the table as a `String` or `Data`
// rather than on standard output or in a file.

import Foundation

/// A sink that keeps every byte written to it in memory: render into it, then read ``text`` or
/// ``data``.
///
/// ```swift
/// let sink = StringSink()
/// _ = try DocumentRender(documentPath: "table.yaml").runInProcess(to: sink)
/// let table: String = sink.text
/// ```
///
/// Writing never fails. Like any sink it is used by one thread at a time; read it once the
/// render has returned (an `OutputBuffer` must have been flushed).
public final class StringSink: OutputSink {
    /// Every byte written so far, in order.
    public private(set) var bytes: [UInt8] = []

    /// An empty sink.
    public init() {}

    /// The bytes written so far, as UTF-8 text (every format writes UTF-8; an invalid sequence
    /// would read as U+FFFD).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The bytes written so far, as `Data`.
    public var data: Data { Data(bytes) }

    /// Appends a copy of `bytes`; never throws.
    public func write(_ bytes: UnsafeBufferPointer<UInt8>) throws { self.bytes.append(contentsOf: bytes) }

    /// Forgets every byte written, to render into the sink again.
    public func removeAll() { bytes.removeAll(keepingCapacity: true) }
}
