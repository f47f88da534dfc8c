// Rendering text of every script: borders stay put, nothing is dropped.

import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitRendering
@testable import CellKitText

@Suite("Rendering clusters")
struct ClusterRenderTests {
    static let pieces = [
        "a", "Zebra", " ", " ", "-", "well-known", "日本", "語", "👍", "👍🏽", "a🏽", "👨\u{200D}👩\u{200D}👧", "🇫🇷",
        "1\u{FE0F}\u{20E3}", "❤\u{FE0F}", "e\u{301}", "\u{301}", "कि", "क्ष", "हिन्दी", "বাংলা", "தமிழ்", "กำ", "น้ำ",
        "\u{1100}\u{1161}", "\u{1161}", "ｶﾞ", "\u{3099}", "\u{200D}👍", "\u{200C}", "〜", "\u{FE0F}",
    ]

    @Test("seeded random rows: every line of the box is as wide as its border", arguments: [24, 41])
    func bordersHold(width: Int) throws {
        var rng = SplitMix64(seed: UInt64(width))
        func text() -> String {
            (0..<Int.random(in: 1...14, using: &rng)).map { _ in Self.pieces.randomElement(using: &rng)! }.joined()
        }
        var rows: [[String: String]] = []
        for _ in 0..<150 { rows.append(["text": text(), "detail": text()]) }
        let sections: [[String: Any]] = ["subtitle", "value1", "default"].map {
            ["cell": "Subtitle", "style": $0, "header": text(), "rows": rows]
        }
        for style in ["insetGrouped", "grouped", "plain"] {
            let document: [String: Any] = ["style": style, "sections": sections]
            let folder = try Render.write(
                ["t.json": String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)],
                name: "bordersHold\(width)\(style)")
            let output = try Render.table(folder + "/t.json", .text, width: width).output
            let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let boxed = lines.filter { $0.contains("│") || $0.contains("╭") || $0.contains("├") }
            if style == "insetGrouped" { #expect(boxed.count > 300) }
            for line in lines where !line.isEmpty {
                let w = TextWidth.columns(line)
                if style == "insetGrouped" && boxed.contains(line) {  // the right margin is not written
                    #expect(w == width - 2, "\(style): \(w) columns: '\(line)'")
                } else {
                    #expect(w <= width, "\(style): \(w) columns: '\(line)'")
                }
            }
        }
    }

    @Test("clusters with no base and leading joiners are painted, not dropped")
    func nothingDropped() {
        func paint(_ text: String) -> String {
            let canvas = Canvas()
            canvas.reset(width: 8, height: 1, background: TextStyle())
            canvas.put("│", x: 0, y: 0, limit: 8, style: 0)
            canvas.put(text, x: 1, y: 0, limit: 7, style: 0)
            canvas.put("│", x: 7, y: 0, limit: 8, style: 0)
            let out = OutputBuffer(DescriptorSink(fd: -1))
            canvas.write(line: 0, columns: 0..<8, to: out)
            return String(decoding: out.bytes, as: UTF8.self)
        }
        #expect(paint("\u{301}ab") == "│\u{301}ab    │", "a leading combining mark")
        #expect(paint("\u{1161}x") == "│\u{1161}x     │", "a lone Hangul jamo vowel")
        #expect(paint("\u{3099}") == "│\u{3099}      │", "a lone U+3099")
        #expect(paint("\u{200D}👍") == "│\u{200D}👍    │", "a leading ZWJ and the emoji after it")
        #expect(paint("a🏽b") == "│a🏽b  │", "a skin tone after a letter is two more columns")
        #expect(paint("कि हि") == "│कि हि │", "spacing vowel signs take their column")
        for s in ["\u{301}ab", "\u{1161}x", "\u{3099}", "\u{200D}👍", "a🏽b", "कि हि", "ｶﾞｶﾞ"] {
            #expect(TextWidth.columns(paint(s)) == 8, "\(s)")
        }
    }

    @Test("a plain section header longer than the table wraps")
    func plainHeaderWraps() throws {
        let folder = try Render.write(
            [
                "t.yaml": """
                style: plain
                width: 20
                sections:
                  - header: A header far longer than twenty columns
                    cell: Default
                    rows: [one]
                """
            ])
        let output = try Render.table(folder + "/t.yaml", .text).output
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix(" A header far") }, "\(output)")
        #expect(lines.allSatisfy { TextWidth.columns($0) <= 20 }, "\(output)")
    }
}
