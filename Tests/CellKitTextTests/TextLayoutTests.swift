// Text in character cells: widths against wcwidth, sanitizing, line breaking.

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitText

@Suite("Text widths and line breaking")
struct TextLayoutTests {
    struct Case: Decodable, CustomTestStringConvertible {
        let text: String
        let width: Int
        var testDescription: String {
            "\(text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")) → \(width)"
        }
    }

    /// Widths recorded from the Python wcwidth package (WidthData/generate.py), an outside reference.
    static let cases: [Case] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "WidthData/widths.json")
        struct File: Decodable { let cases: [Case] }
        return (try? JSONDecoder().decode(File.self, from: Data(contentsOf: url)).cases) ?? []
    }()

    @Test("widths match wcwidth", arguments: cases)
    func widthMatchesWcwidth(_ c: Case) {
        #expect(TextWidth.columns(c.text) == c.width)
    }

    @Test func referenceDataIsThere() {
        #expect(Self.cases.count >= 40)
    }

    @Test("control characters and bidi overrides become visible")
    func sanitizer() {
        #expect(TextSanitizer.visible("a\u{1B}[31mred\u{7}") == "a␛[31mred␇")
        #expect(TextSanitizer.visible("x\u{9B}y\u{202E}z\u{7F}") == "x‹U+009B›y‹U+202E›z␡")
        #expect(TextSanitizer.visible("Evil\u{202E}txt.exe\u{2066}\u{2069}") == "Evil‹U+202E›txt.exe‹U+2066›‹U+2069›")
        #expect(TextSanitizer.visible("zero\u{200B}width\u{FEFF}\u{2060}") == "zero‹U+200B›width‹U+FEFF›‹U+2060›")
        #expect(
            TextSanitizer.visible("👩\u{200D}💻 ❤\u{FE0F} क्\u{200C}ष") == "👩\u{200D}💻 ❤\u{FE0F} क्\u{200C}ष",
            "joiners and selectors stay")
        #expect(TextSanitizer.visible("tab\there") == "tab here")
        #expect(TextSanitizer.visible("two\nlines", keepNewlines: true) == "two\nlines")
        #expect(TextSanitizer.visible("two\nlines") == "two␊lines")
        #expect(TextSanitizer.visible("plain … 日本") == "plain … 日本")
    }

    @Test("word wrap breaks at spaces, long words by glyph")
    func wordWrap() {
        let text = "No beer and no TV make Colin something something."
        #expect(
            TextLayout.lines(text, width: 16, maxLines: 10, mode: .wordWrap) == [
                "No beer and no", "TV make Colin", "something", "something.",
            ])
        #expect(TextLayout.lines("abcdefghij", width: 4, maxLines: 5, mode: .wordWrap) == ["abcd", "efgh", "ij"])
        #expect(TextLayout.lines(text, width: 16, maxLines: 2, mode: .wordWrap) == ["No beer and no", "TV make Colin"])
    }

    @Test("a line never starts with the space it broke at, before a CJK word or an emoji too")
    func noLeadingSpace() {
        #expect(TextLayout.lines("ipsum 日本語", width: 6, maxLines: 5, mode: .wordWrap) == ["ipsum", "日本語"])
        #expect(TextLayout.lines("lorem 👨‍👩‍👧 x", width: 6, maxLines: 5, mode: .wordWrap) == ["lorem", "👨‍👩‍👧 x"])
        #expect(
            TextLayout.lines("ab \u{301}cd", width: 2, maxLines: 5, mode: .wordWrap).first == "ab",
            "a space a mark joins is a cluster of its own kind, kept")
    }

    @Test("char wrap ignores word boundaries; wide glyphs never split")
    func charWrap() {
        #expect(TextLayout.lines("ab cdef", width: 3, maxLines: 5, mode: .charWrap) == ["ab", "cde", "f"])
        #expect(TextLayout.lines("日本語です", width: 5, maxLines: 5, mode: .charWrap) == ["日本", "語で", "す"])
    }

    @Test("truncation at head, middle and tail; clip")
    func truncation() {
        let text = "AmazingWhizBang"
        #expect(TextLayout.lines(text, width: 8, maxLines: 1, mode: .truncateTail) == ["Amazing…"])
        #expect(TextLayout.lines(text, width: 8, maxLines: 1, mode: .truncateHead) == ["…hizBang"])
        #expect(TextLayout.lines(text, width: 8, maxLines: 1, mode: .truncateMiddle) == ["Amaz…ang"])
        #expect(TextLayout.lines(text, width: 8, maxLines: 1, mode: .clip) == ["AmazingW"])
        #expect(
            TextLayout.lines("one two three four", width: 9, maxLines: 2, mode: .truncateTail) == [
                "one two", "three fo…",
            ])
    }

    @Test("every line fits its width", arguments: [5, 7, 12, 20])
    func linesFit(_ width: Int) {
        let text = "café ☕ 日本語 👨‍👩‍👧 flags 🇫🇷🇯🇵 e\u{301} and a longwordthatmustbreak"
        for mode in LineBreakMode.allCases {
            for line in TextLayout.lines(text, width: width, maxLines: 20, mode: mode) {
                #expect(TextWidth.columns(line) <= width, "\(mode): '\(line)'")
            }
        }
    }

    @Test("the direct table agrees with the range table for every scalar it holds")
    func directTable() {
        let disagree = (UInt32(0)..<0x20000).filter {
            !(0xD800...0xDFFF).contains($0) && TextWidth.properties($0) != TextWidth.rangeProperties($0)
        }
        #expect(disagree.isEmpty, "first: \(disagree.prefix(5).map { String($0, radix: 16) })")
        #expect(
            TextWidth.lookupWidth(0x65E5) == 2 && TextWidth.lookupWidth(0x301) == 0
                && TextWidth.lookupWidth(0x2713) == 1)
        #expect(TextWidth.lookupWidth(0x1F600) == 2 && TextWidth.lookupWidth(0xE0100) == 0, "above the BMP")
    }

    @Test("the eight-byte ASCII scan stops at the first byte that is not printable", arguments: 0..<20)
    func printablePrefix(position: Int) {
        for stop: UInt8 in [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xFF] {
            let bytes = Array(repeating: UInt8(ascii: "a"), count: position) + [stop] + Array(" ~}".utf8)
            #expect(
                bytes.withUnsafeBufferPointer { UTF8Bytes.printableASCIIPrefix($0) } == position,
                "0x\(String(stop, radix: 16)) at \(position)")
        }
        let all = (UInt8(0x20)...0x7E).map { $0 }
        #expect(all.withUnsafeBufferPointer { UTF8Bytes.printableASCIIPrefix($0) } == all.count)
    }

    /// Text known to be printable ASCII (a JSON Lines member the check flagged) is broken ahead
    /// without its bytes being looked at for that, into the lines the display units break it into
    /// (the code that lays out text with markers, written apart), as when they are looked at.
    @Test("lines of text known to be printable ASCII are the display units' lines")
    func knownASCIIBreaksAlike() {
        var random = SplitMix64(seed: 0xA5C11)
        let words = ["a", "to", "the", "lorem", "ipsum-dolor", "consectetur", "x-", "-y", "supercalifragilistic", "  "]
        var compared = 0
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...14, using: &random)).map { _ in words.randomElement(using: &random)! }
                .joined(separator: Bool.random(using: &random) ? " " : "  ")
            let width = Int.random(in: 1...45, using: &random), maxLines = Int.random(in: 1...6, using: &random)
            let mode = LineBreakMode.allCases.randomElement(using: &random)!
            // The oracle: the display units' breaking (the code that lays out text with markers), on its own.
            let bytes = Array(text.utf8)
            let display = bytes.withUnsafeBufferPointer { DisplayText($0, keepNewlines: true) }
            let units = DisplayUnits(display, width: width)
            let expected = units.count == 0 ? [] : units.lines(width: width, maxLines: maxLines, mode: mode)
            for known in [true, false] {
                var found: [String] = [], columns: [Int] = []
                let whole = bytes.withUnsafeBufferPointer { all in
                    TextLayout.lineRanges(all, width: width, maxLines: maxLines, mode: mode, isASCII: known) {
                        found.append(String(decoding: all[$0..<$1], as: UTF8.self))
                        columns.append($2)
                    }
                }
                guard whole else { continue }  // an ellipsis to add: the table's thread breaks those itself
                // (The units leave a line's trailing spaces out where `lineRanges` keeps them, on a text that
                // fits whole or a cut line: the terminal shows none either way, so they are left out here.)
                func trimmed(_ lines: [String]) -> [String] {
                    lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }
                }
                #expect(
                    trimmed(found) == trimmed(expected),
                    "\(text) at \(width), \(maxLines) lines, \(mode), known \(known)")
                #expect(columns == found.map { $0.utf8.count }, "ASCII: a column a byte")
                compared += 1
            }
        }
        #expect(compared > 4_000)
    }

    /// Printable ASCII is broken in C (`TextLayout.asciiLineRanges`, CScan's `ck_ascii_lines`), byte for
    /// byte as the Swift line breaker (`TextLayout.line`, which takes ASCII through `asciiLine`) breaks
    /// it: the same lines, trailing spaces and all, the same columns, the same answer on whether the
    /// lines show the whole text, in every mode, at every width and number of lines.
    @Test("printable ASCII is broken in C exactly as the Swift line breaker breaks it")
    func asciiLinesInCAsInSwift() {
        var random = SplitMix64(seed: 0xA5C12)
        let words = ["a", "to", "the", "lorem", "ipsum-dolor", "x-", "-y", "--", "supercalifragilistic", " ", "   "]
        var truncated = 0
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in words.randomElement(using: &random)! }
                .joined(separator: Bool.random(using: &random) ? " " : "")
            let bytes = Array(text.utf8)
            let width = Int.random(in: -1...30, using: &random), maxLines = Int.random(in: -1...7, using: &random)
            let mode = LineBreakMode.allCases.randomElement(using: &random)!
            let expected = Self.swiftLines(bytes, width: width, maxLines: maxLines, mode: mode)
            let room = max(1, min(maxLines, bytes.count))
            var out = [UInt32](repeating: 0xDEAD, count: 3 * room)
            let (whole, count) = bytes.withUnsafeBufferPointer { all in
                out.withUnsafeMutableBufferPointer {
                    TextLayout.asciiLineRanges(all, width: width, maxLines: maxLines, mode: mode, into: $0.baseAddress!)
                }
            }
            let found = (0..<count).map { [Int(out[3 * $0]), Int(out[3 * $0 + 1]), Int(out[3 * $0 + 2])] }
            #expect(whole == expected.whole, "\(text) at \(width), \(maxLines) lines, \(mode)")
            #expect(found == expected.lines, "\(text) at \(width), \(maxLines) lines, \(mode)")
            if !whole { truncated += 1 }
        }
        #expect(truncated > 1_000, "the truncating modes' answer is met often")
    }

    /// The lines `lineRanges` gave printable ASCII before it went to C: its loop over `TextLayout.line`.
    static func swiftLines(_ text: [UInt8], width: Int, maxLines: Int, mode: LineBreakMode) -> (
        whole: Bool, lines: [[Int]]
    ) {
        text.withUnsafeBufferPointer { bytes in
            let n = bytes.count
            guard width > 0, maxLines > 0, n > 0 else { return (true, []) }
            if n <= width { return (true, [[0, n, n]]) }
            let truncating = mode == .truncateTail || mode == .truncateHead || mode == .truncateMiddle
            if maxLines == 1 {
                switch mode {
                case .wordWrap:
                    let line = TextLayout.line(bytes, from: 0, width: width, byWord: true)
                    return (true, [[0, line.end, line.columns]])
                case .charWrap, .clip: return (true, [[0, width, width]])
                case .truncateTail, .truncateHead, .truncateMiddle: return (false, [])
                }
            }
            var lines: [[Int]] = [], start = 0
            while start < n, lines.count < maxLines {
                let line = TextLayout.line(bytes, from: start, width: width, byWord: mode != .charWrap)
                if truncating, lines.count == maxLines - 1, line.next < n { return (false, lines) }
                lines.append([start, line.end, line.columns])
                start = line.next
            }
            return (true, lines)
        }
    }
}
