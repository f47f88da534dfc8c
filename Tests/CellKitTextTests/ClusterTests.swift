// Grapheme clusters and their widths against the pinned wcwidth package (WidthData/generate.py),
// and line breaking that never cuts a cluster.

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitText

/// The oracle files in WidthData/, written by generate.py from wcwidth 0.7.0.
enum Oracle {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("WidthData")

    static func lines(_ name: String) -> [Substring] {
        let text = (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }
    }

    /// Each string split by wcwidth.iter_graphemes, with wcswidth of each cluster.
    static let graphemes: [[(text: String, width: Int)]] = lines("graphemes.txt").map { line in
        line.split(separator: "|").map { cluster in
            let parts = cluster.split(separator: ":")
            var scalars = String.UnicodeScalarView()
            for hex in parts[0].split(separator: "+") { scalars.append(Unicode.Scalar(UInt32(hex, radix: 16)!)!) }
            return (String(scalars), Int(parts[1])!)
        }
    }
}

/// The clusters of `text` as CellKitText finds them, with their widths; both ways of finding
/// them (the line breaker's, with its quick path for CJK, and the general one) must agree.
func clusters(_ text: String) -> [(text: String, width: Int)] {
    text.withBorrowedUTF8 { bytes in
        var out: [(String, Int)] = []
        var i = 0
        while i < bytes.count {
            let (end, width) = TextWidth.nextCluster(bytes, from: i)
            let quick = TextWidth.nextCluster(bytes, from: i, table: TextWidth.directProperties)
            #expect(quick == (end, width), "the quick path differs at byte \(i) of '\(text)'")
            out.append((String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<end]), as: UTF8.self), width))
            i = end
        }
        return out
    }
}

/// Byte offsets of the cluster boundaries of `text`.
func boundaries(_ text: String) -> Set<Int> {
    var set: Set<Int> = [0]
    var offset = 0
    for c in clusters(text) {
        offset += c.text.utf8.count
        set.insert(offset)
    }
    return set
}

/// Whether `line` is a run of whole clusters of `text`, or runs of them around an ellipsis.
func isWholeClusters(_ line: String, of text: String) -> Bool {
    if !text.contains(TextLayout.ellipsis), line.contains(TextLayout.ellipsis) {
        return line.components(separatedBy: TextLayout.ellipsis).allSatisfy { isWholeClusters($0, of: text) }
    }
    let piece = Array(line.utf8)
    if piece.isEmpty { return true }
    let bytes = Array(text.utf8), cuts = boundaries(text)
    guard bytes.count >= piece.count else { return false }
    for start in 0...(bytes.count - piece.count) where cuts.contains(start) && cuts.contains(start + piece.count) {
        if Array(bytes[start..<start + piece.count]) == piece { return true }
    }
    return false
}

@Suite("Grapheme clusters and widths against wcwidth 0.7.0")
struct ClusterTests {
    @Test("every code point's width is wcwidth's (controls, which are sanitized first, aside)")
    func everyCodePoint() {
        let runs = Oracle.lines("codepoint-widths.txt")
        #expect(runs.count > 500)
        var wrong: [String] = []
        for run in runs {
            let f = run.split(separator: " ")
            let (first, last, width) = (UInt32(f[0], radix: 16)!, UInt32(f[1], radix: 16)!, Int(f[2])!)
            for v in first...last where !(0xD800...0xDFFF).contains(v) {
                if TextWidth.lookupWidth(v) != max(0, width), wrong.count < 5 { wrong.append(String(v, radix: 16)) }
            }
        }
        #expect(wrong.isEmpty, "first: \(wrong)")
    }

    @Test("cluster boundaries are iter_graphemes', cluster widths wcswidth's")
    func oracleStrings() {
        #expect(Oracle.graphemes.count > 3000)
        var failures = 0
        for expected in Oracle.graphemes {
            let text = expected.map(\.text).joined()
            let got = clusters(text)
            let same =
                got.count == expected.count
                && zip(got, expected).allSatisfy { $0.text == $1.text && $0.width == $1.width }
            if !same, failures < 10 {
                failures += 1
                Issue.record(
                    "\(expected.map { "\($0.text.unicodeScalars.map { String($0.value, radix: 16) }):\($0.width)" }) ≠ \(got.map { "\($0.text.unicodeScalars.map { String($0.value, radix: 16) }):\($0.width)" })"
                )
            }
        }
    }

    @Test("the defects: spacing vowel signs, skin tone after a letter, conjuncts, kana voiced marks")
    func widths() {
        #expect(TextWidth.columns("कि") == 2, "Devanagari i sign (U+093F) after a consonant is a column")
        #expect(TextWidth.columns("হিন্দি") > 0 && TextWidth.columns("বা") == 2 && TextWidth.columns("கி") == 2)
        #expect(TextWidth.columns("a🏽") == 3, "as wcswidth sums it")
        #expect(clusters("ｶﾞ").count == 1 && TextWidth.columns("ｶﾞ") == 2)
        #expect(clusters("กำ").count == 1 && TextWidth.columns("กำ") == 2)
        #expect(clusters("क्ष").count == 1, "GB9c: a conjunct is one cluster")
        #expect(clusters("\u{200D}👍").map(\.width) == [0, 2], "a leading joiner does not swallow the emoji")
    }

    @Test("a plain wide scalar, told by its bytes, is two columns and joins nothing plain wide or ASCII")
    func plainWide() {
        var wrong: [String] = [], plain = 0
        for v in UInt32(0x800)...0xFFFF where !(0xD800...0xDFFF).contains(v) {
            let bytes = Array(String(Unicode.Scalar(v)!).utf8)
            let inRanges =
                (0x4E00...0x9FFF).contains(v) || (0xAC00...0xD7A3).contains(v) || (0x3041...0x3096).contains(v)
                || (0x30A1...0x30FF).contains(v)
            if TextWidth.isPlainWide(bytes[0], bytes[1], bytes[2]) != inRanges, wrong.count < 5 {
                wrong.append("range \(String(v, radix: 16))")
            }
            guard TextWidth.isPlainWide(bytes[0], bytes[1], bytes[2]) else { continue }
            plain += 1
            let p = TextWidth.properties(v), gcb = p >> 2 & 15
            // two columns; Other, LV or LVT; no pictograph; no InCB
            let fine = p & 3 == 2 && (gcb == 0 || gcb == 12 || gcb == 13) && p & 0x40 == 0 && p >> 7 & 3 == 0
            if !fine, wrong.count < 5 { wrong.append(String(v, radix: 16)) }
        }
        #expect(wrong.isEmpty, "first: \(wrong)")
        #expect(plain == (0x9FFF - 0x4E00 + 1) + (0xD7A3 - 0xAC00 + 1) + (0x3096 - 0x3041 + 1) + (0x30FF - 0x30A1 + 1))
        // Each beside what joins it and what does not: the quick way and the rules agree (`clusters`).
        for wide in ["日", "中", "하", "한", "か", "テ", "ー", "鿿", "힣"] {
            for next in [
                "", "a", " ", "\n", "日", "한", "テ", "\u{3099}", "\u{309A}", "\u{1161}", "\u{11A8}", "\u{301}",
                "\u{200D}", "\u{FE0F}", "\u{93F}", "👍", "\u{4DC0}", "\u{30A0}", "\u{D7A4}", "\u{D7B0}", "\u{D7CB}",
            ] {
                let text = wide + next + wide
                let widths = clusters(text).map(\.width)
                // Marks join anything (GB9, GB9a); an LV syllable joins a jamo V or T (GB7), an LVT a T (GB8).
                let joins =
                    ["\u{3099}", "\u{309A}", "\u{301}", "\u{200D}", "\u{FE0F}", "\u{93F}"].contains(next)
                    || wide == "하" && ["\u{1161}", "\u{D7B0}", "\u{11A8}", "\u{D7CB}"].contains(next)
                    || (wide == "한" || wide == "힣") && ["\u{11A8}", "\u{D7CB}"].contains(next)
                if joins {
                    #expect(widths.first! >= 2 && clusters(text).first!.text != wide, "'\(text)'")
                } else {
                    #expect(clusters(text).first!.text == wide && widths.first! == 2, "'\(text)'")
                }
            }
        }
    }

    @Test(
        "the quick way and the rules agree on each scalar near the plain wide ranges, alone, before ASCII and doubled")
    func plainWideNeighbours() {
        var scalars = 0
        for range in [0x3000...0x30FF, 0x4D00...0xA0FF, 0xA900...0xA9FF, 0xAB00...0xD7FF] {
            for v in range {
                let s = String(Unicode.Scalar(UInt32(v))!)
                for text in [s, s + "a", s + s] { _ = clusters(text) }  // `clusters` compares the two ways
                scalars += 1
            }
        }
        #expect(scalars > 30_000)
    }

    @Test(
        "the quick ways and the rules agree on every scalar of three and four bytes (planes 0 to 1, tags), alone, before ASCII, before CJK, Hangul and kana"
    )
    func multiByteNeighbours() {
        var scalars = 0, prepends = 0
        let ranges = [0x800...0xD7FF, 0xE000...0xFFFF, 0x10000...0x1FFFF, 0xE0000...0xE01EF]
        for range in ranges {
            for v in range {
                guard let scalar = Unicode.Scalar(UInt32(v)) else { continue }
                let s = String(scalar)
                // `clusters` compares the two ways
                for text in [s, s + "a", s + "日", s + "가", s + "あ"] { _ = clusters(text) }
                if clusters(s + "a").count == 1 { prepends += 1 }  // a Prepend joins the letter after it
                scalars += 1
            }
        }
        #expect(scalars > 120_000)
        #expect(prepends > 5, "Prepends of three and four bytes: \(prepends)")
    }

    static let pieces = [
        "a", "w", "Z", " ", " ", "-", "word", "日本", "語", "👍", "👍🏽", "a🏽", "👨\u{200D}👩\u{200D}👧", "🇫🇷", "1\u{FE0F}\u{20E3}",
        "❤\u{FE0F}", "e\u{301}", "\u{301}", "कि", "क्ष", "हिन्दी", "বাংলা", "தமிழ்", "กำ", "น้ำ", "\u{1100}\u{1161}",
        "\u{1161}", "ｶﾞ", "\u{3099}", "\u{200D}👍", "\u{200C}", "〜", "well-known",
    ]

    @Test(
        "seeded random strings: every line fits and is whole clusters, in every mode", arguments: [1, 2, 3, 5, 8, 13])
    func randomLines(width: Int) {
        var rng = SplitMix64(seed: UInt64(width))
        for _ in 0..<300 {
            let text = (0..<Int.random(in: 1...12, using: &rng)).map { _ in Self.pieces.randomElement(using: &rng)! }
                .joined()
            for mode in LineBreakMode.allCases {
                for maxLines in [1, 3, 100] {
                    let laidOut = TextLayout.laidOut(text, width: width, maxLines: maxLines, mode: mode)
                    #expect(
                        laidOut.lines.map(\.columns) == laidOut.strings.map { TextWidth.columns($0) },
                        "\(mode) \(maxLines): '\(text)'")
                    for line in laidOut.strings.map({ String($0) }) {
                        let w = TextWidth.columns(line)
                        // One cluster wider than the line is shown whole.
                        #expect(w <= width || clusters(line).count == 1, "\(mode) \(maxLines): '\(line)' of '\(text)'")
                        #expect(isWholeClusters(line, of: text), "\(mode) \(maxLines): '\(line)' cuts '\(text)'")
                    }
                }
            }
        }
    }

    @Test("truncation and wrapping keep clusters whole")
    func wholeClusters() {
        #expect(TextLayout.lines("ｶﾞｶﾞｶﾞ", width: 3, maxLines: 1, mode: .clip) == ["ｶﾞ"])
        #expect(TextLayout.lines("กำกำกำ", width: 5, maxLines: 1, mode: .truncateTail) == ["กำกำ…"])
        #expect(TextLayout.lines("नमस्ते", width: 3, maxLines: 1, mode: .truncateHead) == ["…स्ते"])
        #expect(TextLayout.lines("a🏽b", width: 2, maxLines: 5, mode: .charWrap) == ["a🏽", "b"])
    }

    @Test("word wrap with one line shows whole words only")
    func oneLineWholeWords() {
        let text = "The quick brown fox jumps over the lazy dog"
        #expect(
            TextLayout.lines(text, width: 36, maxLines: 1, mode: .wordWrap) == ["The quick brown fox jumps over the"])
        #expect(TextLayout.lines("Supercalifragilistic", width: 5, maxLines: 1, mode: .wordWrap) == ["Super"])
    }

    @Test("word wrap breaks after a hyphen inside a word, and between wide clusters")
    func hyphens() {
        #expect(
            TextLayout.lines("a well-known fact", width: 8, maxLines: 5, mode: .wordWrap) == [
                "a well-", "known", "fact",
            ])
        #expect(TextLayout.lines("x -5 y", width: 3, maxLines: 5, mode: .wordWrap) == ["x", "-5", "y"])
        #expect(TextLayout.lines("日本語です", width: 5, maxLines: 5, mode: .wordWrap) == ["日本", "語で", "す"])
        // Before a wide cluster that does not fit, not at the last space (seen before only when no space came first).
        #expect(TextLayout.lines("a b日本", width: 4, maxLines: 5, mode: .wordWrap) == ["a b", "日本"])
        #expect(TextLayout.lines("see 東京 now", width: 6, maxLines: 5, mode: .wordWrap) == ["see 東", "京 now"])
    }
}
