// OutputBuffer's word stores: a line's padding 16 or 32 spaces a step and a short piece in two
// overlapping word copies must write exactly what a byte-by-byte append writes, whatever the
// length and wherever the buffer's end is (near it they fall back to the plain copy).

import CellKitTestSupport
import Testing

@testable import CellKitRendering

@Suite("OutputBuffer: padding and short pieces written a word at a time")
struct OutputBufferTests {
    final class AppendingSink: OutputSink {
        var bytes: [UInt8] = []
        func write(_ bytes: UnsafeBufferPointer<UInt8>) throws { self.bytes.append(contentsOf: bytes) }
    }

    /// Runs of 0 to 40 spaces and pieces of 0 to 40 bytes after 0 to 23 marker bytes, in a buffer of
    /// its own memory and in an external one just big enough (so that short runs fall back to the
    /// plain copy), written by the buffer's count and at a `Place` (counted once, as a line of
    /// `DirectLines` is): the bytes flushed are the markers, the spaces, the piece, nothing else.
    @Test(arguments: [false, true]) func spacesAndPiecesAsWritten(atPlace: Bool) throws {
        let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: 128)
        defer { memory.deallocate() }
        for external in [false, true] {
            for offset in 0..<24 {
                for n in -1...40 {
                    let sink = AppendingSink(), piece = (0..<max(n, 0)).map { UInt8(0x41 + $0 % 26) }
                    memory.update(repeating: 0xEE, count: 128)  // what lies past the count shows if written
                    let out =
                        external
                        ? OutputBuffer(sink, storage: memory, capacity: offset + 2 * max(n, 0) + 1, flushAt: 128)
                        : OutputBuffer(sink)
                    out.write([UInt8](repeating: 0x2E, count: offset))
                    if atPlace {
                        var place = out.place()
                        out.writeSpaces(n, at: &place)
                        piece.withUnsafeBufferPointer { out.write($0, at: &place) }
                        out.write(byte: 0x0A, at: &place)
                        out.commit(place)
                    } else {
                        out.writeSpaces(n)
                        piece.withUnsafeBufferPointer { out.write($0) }
                        out.write(byte: 0x0A)
                    }
                    try out.flush()
                    let expected =
                        [UInt8](repeating: 0x2E, count: offset) + [UInt8](repeating: 0x20, count: max(n, 0)) + piece + [
                            0x0A
                        ]
                    #expect(sink.bytes == expected, "external \(external), offset \(offset), n \(n)")
                    if external {  // nothing written past the buffer's end
                        let end = offset + 2 * max(n, 0) + 1
                        #expect(UnsafeBufferPointer(start: memory + end, count: 128 - end).allSatisfy { $0 == 0xEE })
                    }
                }
            }
        }
    }

    /// A line written at a `Place` that runs past the end of the buffer's own memory: the buffer
    /// grows under it (the part written so far counted first, and kept), the line's bytes are all
    /// there after `commit`; a line refused after the buffer grew under it is taken back whole.
    @Test func placeGrowsTheBuffer() throws {
        let sink = AppendingSink(), out = OutputBuffer(sink)
        let piece = (0..<50).map { UInt8(0x61 + $0 % 26) }
        var expected: [UInt8] = []
        for round in 0..<2 {
            let filler = [UInt8](repeating: 0x2E, count: out.capacity - out.count - 3)
            out.write(filler)
            let (capacity, mark) = (out.capacity, out.count)
            var place = out.place()
            out.writeSpaces(40, at: &place)
            piece.withUnsafeBufferPointer { out.write($0, at: &place) }
            out.write(byte: 0x0A, at: &place)
            #expect(out.capacity > capacity, "round \(round): the buffer grew")
            if round == 0 {
                out.commit(place)
                expected += filler + [UInt8](repeating: 0x20, count: 40) + piece + [0x0A]
            } else {
                out.takeBack(to: mark)  // refused: what the growth counted goes too
                expected += filler
            }
            #expect(out.count == expected.count)
        }
        try out.flush()
        #expect(sink.bytes == expected)
    }
}
