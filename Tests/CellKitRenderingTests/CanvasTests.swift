// The character-cell canvas the text format paints rows on.

import Testing

@testable import CellKitRendering

@Suite("Canvas")
struct CanvasTests {
    @Test("painting ASCII straight gives what painting scalar by scalar gives")
    func canvasPut() {
        func paint(_ steps: [(String, Int, Int)]) -> String {
            let canvas = Canvas()
            canvas.reset(width: 10, height: 1, background: TextStyle())
            let ends = steps.map { canvas.put($0.0, x: $0.1, y: 0, limit: $0.2, style: 0) }
            let out = OutputBuffer(DescriptorSink(fd: -1))
            canvas.write(line: 0, columns: 0..<10, to: out)
            return String(decoding: out.bytes, as: UTF8.self) + "|" + ends.map(String.init).joined(separator: ",")
        }
        #expect(paint([("abcdefghijkl", 0, 10)]) == "abcdefghij|10", "cut at the canvas edge")
        #expect(paint([("abcdef", 2, 5)]) == "  abc     |5", "cut at the limit")
        #expect(paint([("abcdef", -2, 10)]) == "cdef      |4", "starting left of the canvas")
        #expect(paint([("abce\u{301}x", 0, 10)]) == "abce\u{301}x     |5", "a mark after ASCII joins its glyph")
        #expect(
            paint([("日本", 0, 10), ("ab", 1, 10)]) == " ab       |4,3",
            "ASCII over halves of wide glyphs blanks their other halves")
        #expect(paint([("ab日本", 6, 10)]) == "      ab日|10", "a wide glyph after ASCII that does not fit is left out")
    }
}

@Suite("Bounds on buffers and positions")
struct BoundsTests {
    @Test("An empty buffer, even one with no address, writes nothing")
    func emptyWrites() throws {
        let out = OutputBuffer(DescriptorSink(fd: -1))
        out.write(UnsafeBufferPointer<UInt8>(start: nil, count: 0))
        out.write([UInt8]())
        out.write("")
        #expect(out.count == 0)
        out.write("ok")
        #expect(out.bytes == Array("ok".utf8))
    }

    @Test("Lines and columns outside the canvas write nothing and read nothing")
    func canvasBounds() {
        let canvas = Canvas()
        canvas.reset(width: 4, height: 1, background: TextStyle())
        canvas.put("abcd", x: 0, y: 0, limit: 4, style: 0)
        let out = OutputBuffer(DescriptorSink(fd: -1))
        canvas.write(line: 1, columns: 0..<4, to: out)
        canvas.write(line: -1, columns: 0..<4, to: out)
        canvas.write(line: 5_000_000, columns: 0..<4, to: out)
        #expect(out.count == 0)
        canvas.write(line: 0, columns: -3..<100, to: out)
        #expect(String(decoding: out.bytes, as: UTF8.self) == "abcd")
    }
}
