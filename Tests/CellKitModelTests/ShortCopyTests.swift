// ShortCopy against the byte-by-byte copy: every length from nothing to past the longest it moves
// in words, at every alignment of source and target, with guard bytes around the target.

import Testing

@testable import CellKitModel

@Suite("ShortCopy: short copies in word moves")
struct ShortCopyTests {
    @Test("every length 0–130 at every alignment copies exactly its bytes and writes nothing around them")
    func everyLength() {
        let source = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        var wrong: [String] = []
        for count in 0...130 {
            for from in 0..<8 {
                for to in 0..<8 {
                    var target = [UInt8](repeating: 0xEE, count: 16 + count + 16)
                    source.withUnsafeBytes { s in
                        target.withUnsafeMutableBytes { t in
                            ShortCopy.copy(t.baseAddress! + 8 + to, from: s.baseAddress! + from, count: count)
                        }
                    }
                    let inside = Array(target[(8 + to)..<(8 + to + count)])
                    let around = target[..<(8 + to)] + target[(8 + to + count)...]
                    if inside != Array(source[from..<(from + count)]) || around.contains(where: { $0 != 0xEE }),
                        wrong.count < 5
                    {
                        wrong.append("count \(count), source +\(from), target +\(to)")
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "first: \(wrong)")
        #expect(ShortCopy.longest == 64)
    }
}
