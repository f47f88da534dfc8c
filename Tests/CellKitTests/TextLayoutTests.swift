// Text in character cells: widths against wcwidth, sanitizing, line breaking.

import CellKit
import Foundation
import Testing

@Suite("Text widths and line breaking")
struct TextLayoutTests {
    struct Case: Decodable, CustomTestStringConvertible {
        let text: String
        let width: Int
        var testDescription: String { "\(text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")) → \(width)" }
    }

    /// Widths recorded from the Python wcwidth package (WidthData/generate.py), an outside reference.
    static let cases: [Case] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("WidthData/widths.json")
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
        #expect(TextSanitizer.visible("x\u{9B}y\u{202E}z\u{7F}") == "x\u{FFFD}y\u{FFFD}z␡")
        #expect(TextSanitizer.visible("tab\there") == "tab here")
        #expect(TextSanitizer.visible("two\nlines", keepNewlines: true) == "two\nlines")
        #expect(TextSanitizer.visible("two\nlines") == "two␊lines")
        #expect(TextSanitizer.visible("plain … 日本") == "plain … 日本")
    }

    @Test("word wrap breaks at spaces, long words by glyph")
    func wordWrap() {
        let text = "No beer and no TV make Colin something something."
        #expect(TextLayout.lines(text, width: 16, maxLines: 10, mode: .wordWrap) == ["No beer and no", "TV make Colin", "something", "something."])
        #expect(TextLayout.lines("abcdefghij", width: 4, maxLines: 5, mode: .wordWrap) == ["abcd", "efgh", "ij"])
        #expect(TextLayout.lines(text, width: 16, maxLines: 2, mode: .wordWrap) == ["No beer and no", "TV make Colin"])
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
        #expect(TextLayout.lines("one two three four", width: 9, maxLines: 2, mode: .truncateTail) == ["one two", "three fo…"])
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
}
