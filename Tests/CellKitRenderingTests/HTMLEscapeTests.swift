// HTML and clean JSON text are scanned sixteen bytes at a time where they are plain: the scans
// must stop exactly where the byte tests would.

import CScan
import CellKitModel
import CellKitTestSupport
import Testing

@testable import CellKitRendering

@Suite("Escaping, sixteen bytes at a time (CScan)")
struct EscapeScanTests {
    /// Random texts of 0 to 70 bytes, drawn mostly from around the bytes a scan stops at.
    static func texts(seed: UInt64, near: [UInt8]) -> [[UInt8]] { SplitMix64.texts(seed: seed, near: near) }

    /// The bytes HTML text escapes, or looks at again: the C0 controls, `" & ' < >`, DEL, and 0xC2
    /// (which may start a C1 control). The oracle the scan is held to.
    static func htmlSpecial(_ b: UInt8) -> Bool {
        b < 0x20 || b == 0x22 || b == 0x26 || b == 0x27 || b == 0x3C || b == 0x3E || b == 0x7F || b == 0xC2
    }

    /// `ck_scan_html_plain` stops at the first byte `htmlSpecial` takes, wherever it lies in a
    /// block of sixteen or in the tail, and only there.
    @Test func htmlStopsAtTheFirstSpecialByte() {
        let near: [UInt8] = [
            0x00, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x25, 0x26, 0x27, 0x28, 0x3B, 0x3C, 0x3D, 0x3E, 0x3F, 0x7E, 0x7F,
            0x80, 0xC1, 0xC2, 0xC3, 0xE2, 0xFF,
        ]
        for text in Self.texts(seed: 0x5AFE, near: near) {
            let expected = text.firstIndex { Self.htmlSpecial($0) } ?? text.count
            let scanned = text.withUnsafeBufferPointer { ck_scan_html_plain($0.baseAddress, $0.count) }
            #expect(scanned == expected, "\(text)")
        }
    }

    /// `ck_scan_json_clean_plain` stops at the first `"`, `\` or 0xE2, and only there.
    @Test func jsonCleanStopsAtTheFirstQuoteBackslashOrE2() {
        let near: [UInt8] = [0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0xE1, 0xE2, 0xE3, 0x80, 0xA8, 0xA9]
        for text in Self.texts(seed: 0x15_0E, near: near) {
            let expected = text.firstIndex { $0 == 0x22 || $0 == 0x5C || $0 == 0xE2 } ?? text.count
            let scanned = text.withUnsafeBufferPointer { ck_scan_json_clean_plain($0.baseAddress, $0.count) }
            #expect(scanned == expected, "\(text)")
        }
    }
}

@Suite("JSON escaping's quick way past characters it keeps")
struct JSONPlainSequenceTests {
    /// Wherever `plainSequence` takes a sequence, it is well-formed UTF-8 of that length and a
    /// character `escape` writes as it is: 300,000 random places in random bytes.
    @Test func onlyWellFormedKeptCharacters() {
        var rng = SplitMix64(seed: 0x1503)
        let leads: [UInt8] = [
            0xC2, 0xC3, 0xD7, 0xD8, 0xDF, 0xE0, 0xE1, 0xE2, 0xE3, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF3, 0xF4, 0xF5,
        ]
        var taken = 0
        for _ in 0..<300_000 {
            var bytes = [leads[Int(rng.next() % UInt64(leads.count))]]
            for _ in 0..<Int(rng.next() % 4) {
                bytes.append(
                    rng.next() % 4 == 0 ? UInt8(truncatingIfNeeded: rng.next()) : 0x80 | UInt8(rng.next() % 64))
            }
            bytes.withUnsafeBufferPointer { buffer in
                guard let length = JSONBytes.plainSequence(buffer, at: 0) else { return }
                taken += 1
                let decoded = UTF8Bytes.decode(buffer, at: 0)
                #expect(decoded?.length == length, "\(bytes)")
                if let value = decoded?.value {
                    #expect(
                        value > 0x9F && !UTF8Bytes.isHidden(value) && value != 0x2028 && value != 0x2029, "\(bytes)")
                }
            }
        }
        #expect(taken > 10_000)
    }
}

@Suite("JSON strings of clean text")
struct CleanJSONStringTests {
    /// `jsonString(_:clean:)` writes a clean text byte for byte as without `clean`, and says whether it
    /// escaped anything: 2,000 random clean texts of quotes, backslashes, line and paragraph
    /// separators, CJK, emoji and runs of ASCII.
    @Test func sameBytesAsTheEscaper() throws {
        var rng = SplitMix64(seed: 0xC1EA)
        let pieces = [
            "a", " ", "\"", "\\", "é", "日", "😀", "\u{2028}", "\u{2029}", "abcdefgh", "👨‍👩‍👧", "❤️", "\u{2027}", "—",
        ]
        for _ in 0..<2_000 {
            let text = (0..<Int(rng.next() % 40)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            let bytes = TextBytes(text)
            #expect(bytes.isClean)
            let (clean, general) = (StringSink(), StringSink())
            let (a, b) = (OutputBuffer(clean), OutputBuffer(general))
            let escaped = bytes.withBytes { a.jsonString($0, clean: true) }
            let escapedToo = bytes.withBytes { b.jsonString($0) }
            try a.flush()
            try b.flush()
            #expect(clean.text == general.text, "\(text)")
            #expect(escaped == escapedToo, "\(text)")
        }
    }
}
