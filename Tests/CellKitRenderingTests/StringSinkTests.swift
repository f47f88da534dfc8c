// StringSink, the public sink that keeps a render in memory: the bytes a plain appending sink
// collects, as text and as Data, for every bundled table.

import CellKitRendering
import CellKitTestSupport
import Foundation
import Testing

@Suite("StringSink")
struct StringSinkTests {
    /// The sink the tests used before StringSink: every byte appended, nothing else.
    final class AppendingSink: OutputSink {
        var bytes: [UInt8] = []
        func write(_ bytes: UnsafeBufferPointer<UInt8>) throws { self.bytes.append(contentsOf: bytes) }
    }

    @Test("a bundled table rendered into StringSink is what an appending sink collects", arguments: RenderTests.tables)
    func sameBytes(_ name: String) throws {
        for format in [Render.Format.text, .json, .html] {
            let sink = StringSink()
            let reference = AppendingSink()
            try Render.run(Render.manifest(name + ".yaml"), format, into: sink)
            try Render.run(Render.manifest(name + ".yaml"), format, into: reference)
            #expect(!sink.bytes.isEmpty)
            #expect(sink.bytes == reference.bytes)
            #expect(sink.data == Data(reference.bytes))
            #expect(sink.text == String(decoding: reference.bytes, as: UTF8.self))
        }
    }

    @Test("writes in pieces are kept in order; removeAll empties it")
    func pieces() throws {
        let sink = StringSink()
        let out = OutputBuffer(sink)
        out.write("╭─ a table")
        try out.flush()
        out.write(byte: 0x0A)
        try out.flush()
        try out.flush()  // nothing waiting: an empty write
        #expect(sink.text == "╭─ a table\n")
        #expect(sink.data == Data("╭─ a table\n".utf8))
        sink.removeAll()
        #expect(sink.bytes.isEmpty && sink.text.isEmpty)
    }
}
