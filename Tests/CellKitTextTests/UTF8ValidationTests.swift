// The UTF-8 check every plain JSON string passes before a plugin sees it, against the
// standard library's validating decoder on edge cases and random bytes.

import CellKitModel
import CellKitTestSupport
import CellKitText
import Testing

@Suite("UTF-8 validation against the standard library")
struct UTF8ValidationTests {
    static func agrees(_ bytes: [UInt8]) -> Bool {
        let ours = bytes.withUnsafeBufferPointer { UTF8Bytes.isValid($0) }
        let valid = String(validating: bytes, as: UTF8.self)
        // The check a label's text gets as it is set: the same answer, and clean exactly when
        // the sanitizer would leave the text as it is.
        let checked = bytes.withUnsafeBufferPointer { UTF8Bytes.check($0) }
        let clean = valid.map { TextSanitizer.visible($0) == $0 && !$0.utf8.contains(0x0A) }
        return ours == (valid != nil) && checked.valid == ours && (!ours || checked.clean == clean)
    }

    @Test("edge cases: overlong forms, surrogates, past U+10FFFF, truncated sequences")
    func edges() {
        let cases: [[UInt8]] = [
            [], [0x41], [0x7F], [0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xC2, 0x80], [0xDF, 0xBF], [0xDF],
            [0xE0, 0x9F, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBF],
            [0xE3, 0x81], [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xF0, 0x9F, 0x91],
            [0x61, 0xE6, 0x97, 0xA5, 0x80],
            // hidden scalars and controls: valid, not clean; their neighbours: clean
            [0xC2, 0x85], [0xC2, 0xAD], [0xC2, 0xA0], [0xD8, 0x9C], [0xD8, 0x9B], [0xE1, 0xA0, 0x8E],
            [0xE2, 0x80, 0x8B], [0xE2, 0x80, 0x8D], [0xE2, 0x80, 0xAE], [0xE2, 0x81, 0xA6], [0xEF, 0xBB, 0xBF],
            [0xEF, 0xBF, 0xBB], [0xEF, 0xBF, 0xBD], [0x1B, 0x5B], [0x09], [0x7F],
        ]
        for bytes in cases { #expect(Self.agrees(bytes), "\(bytes)") }
    }

    @Test("a JSON Lines text is found plain and clean, as it is checked, exactly when UTF8Bytes.check says so")
    func jsonText() throws {
        var rng = SplitMix64(seed: 31)
        let pool: [UInt8] = [
            0x41, 0x20, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE3, 0xED, 0xEF,
            0xF0, 0xF4, 0xF5, 0xFF, 0x7F, 0xAD, 0xD8, 0x9C, 0xE1, 0xE2, 0x81, 0x8B, 0x8E, 0xAA, 0xBB, 0x0A,
        ]
        var plain = 0
        for _ in 0..<50_000 {
            let text = (0..<Int.random(in: 0...12, using: &rng)).map { _ in pool.randomElement(using: &rng)! }
            let line = Array(#"{"k": ""#.utf8) + text + Array(#"", "n": 1}"#.utf8)
            guard let record = try? line.withUnsafeBufferPointer({ try JSONRecord(checking: $0) }) else {
                #expect(text.contains(0x0A), "only a raw control character makes the line no JSON")
                continue
            }
            let got = record.plainString(at: "k").map { (Array($0.bytes), $0.isClean) }
            let (valid, clean) = text.withUnsafeBufferPointer { UTF8Bytes.check($0) }
            #expect(got?.0 == (valid ? text : nil) && got?.1 == (valid ? clean : nil), "\(text)")
            if got != nil { plain += 1 }
        }
        #expect(plain > 2_000, "texts found plain: \(plain)")
    }

    @Test("random bytes, biased towards lead and continuation bytes")
    func random() {
        var rng = SplitMix64(seed: 29)
        let pool: [UInt8] = [
            0x41, 0x20, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE3, 0xED, 0xEF,
            0xF0, 0xF4, 0xF5, 0xFF,
            // controls, and the leads and bytes of hidden scalars (U+00AD, U+061C, U+180E, U+200B, U+FEFF ...)
            0x0A, 0x1B, 0x7F, 0xAD, 0xD8, 0x9C, 0xE1, 0xE2, 0x81, 0x8B, 0x8E, 0xAA, 0xBB,
        ]
        for _ in 0..<200_000 {
            let bytes = (0..<Int.random(in: 1...12, using: &rng)).map { _ in pool.randomElement(using: &rng)! }
            #expect(Self.agrees(bytes), "\(bytes)")
        }
    }
}
