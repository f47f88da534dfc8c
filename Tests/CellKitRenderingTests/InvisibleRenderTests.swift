// The text policy for invisible characters end to end: one small table with soft hyphens,
// zero-width spaces, word joiners, RLM, a byte order mark, an override and isolates, rendered
// to text, ANSI, HTML and JSON.

import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitText

@Suite("Invisible characters in every format")
struct InvisibleRenderTests {
    static let table = """
        title: "Invisible\\u00ADcharacters\\uFEFF"
        style: plain
        width: 48
        rowHeight: 3
        stylesheet: Stylesheets/projects.yaml
        sections:
          - header: "Com\\u00ADpounds and URLs"
            cell: Project
            rows:
              - project: "Donau\\u00ADdampf\\u00ADschiff"
                description: "Die Donau\\u00ADdampf\\u00ADschiff\\u00ADfahrts\\u00ADgesellschaft sucht https://ex.com/\\u200Bdocs"
          - rows:
              - {cell: Subtitle, text: "10\\u2060000 \\u200F\\u05E9\\u05DC\\u05D5\\u05DD\\u200F", detail: "invoice\\u202Etxt.scr\\uFEFF \\u2066iso\\u2069"}
        """

    static func render(_ format: Render.Format) throws -> String {
        let sheet = try String(contentsOfFile: Render.manifest("Stylesheets/projects.yaml"), encoding: .utf8)
        let folder = try Render.write(["t.yaml": table, "Stylesheets/projects.yaml": sheet])
        return try Render.table(folder + "/t.yaml", format, width: 48).output
    }

    /// No placeholder for a character that belongs to text, none of them raw where they must not be,
    /// every marker whole.
    static func expectTerminalPolicy(_ output: String, _ format: Render.Format) {
        for bad in ["‹U+00AD", "‹U+200B", "‹U+2060", "‹U+200F", "‹U+FEFF"] {
            #expect(!output.contains(bad), "\(format): \(bad)")
        }
        #expect(
            !output.unicodeScalars.contains {
                [0xAD, 0x200B, 0x2060, 0xFEFF, 0x202E, 0x2066, 0x2069].contains($0.value)
            },
            "\(format): nothing the terminal would hide or reorder is printed raw")
        let rest = output.replacingOccurrences(of: "‹U\\+[0-9A-F]{4}›", with: "", options: .regularExpression)
        #expect(!rest.contains("‹") && !rest.contains("›"), "\(format): every marker whole")
        #expect(output.contains("Invisiblecharacters"), "\(format): the title with no byte order mark or soft hyphen")
        #expect(output.contains("Die Donaudampfschifffahrts-"), "\(format): '-' where the line breaks at a soft hyphen")
        #expect(output.contains("gesellschaft sucht"), "\(format)")
        #expect(output.contains("Donaudampfschiff"), "\(format): no hyphen where it does not break")
        #expect(output.contains("10000 \u{200F}שלום\u{200F}"), "\(format): WJ left out, RLM kept")
        #expect(output.contains("invoice‹U+202E›txt.scr ‹U+2066›iso‹U+2069›"), "\(format): bidi controls neutralised")
    }

    @Test("text and ANSI: the policy, and every line of the table as wide as the table")
    func terminal() throws {
        for format in [Render.Format.text, .ansi] {
            var output = try Self.render(format)
            output = output.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
            Self.expectTerminalPolicy(output, format)
            let rows = output.split(separator: "\n").filter { $0.contains("Donau") || $0.contains("10000") }
            #expect(rows.count >= 2)
            for line in rows { #expect(TextWidth.columns(line) == 48, "\(format): '\(line)'") }
        }
    }

    @Test("HTML keeps the characters (isolated), leaves out the byte order mark, shows no placeholder")
    func html() throws {
        let page = try Self.render(.html)
        #expect(
            page.contains(
                "Donau\u{AD}dampf\u{AD}schiff\u{AD}fahrts\u{AD}gesellschaft sucht https://ex.com/\u{200B}docs"))
        #expect(page.contains("10\u{2060}000 \u{200F}שלום\u{200F}"))
        #expect(page.contains("invoice\u{202E}txt.scr \u{2066}iso\u{2069}"), "kept for the browser, no byte order mark")
        #expect(page.contains("Invisible\u{AD}characters"))
        #expect(!page.contains("\u{FEFF}"), "no byte order mark")
        #expect(!page.contains("‹U+"), "no placeholder")
        #expect(page.contains("unicode-bidi:isolate"), "each label, header and footer isolated")
    }

    @Test("JSON: the raw text escaped, the drawn lines by the policy")
    func json() throws {
        let output = try Self.render(.json)
        #expect(
            output.contains(
                #""text":"Die Donau\u00addampf\u00adschiff\u00adfahrts\u00adgesellschaft sucht https://ex.com/\u200bdocs""#
            ))
        #expect(output.contains(#""text":"invoice\u202etxt.scr\ufeff \u2066iso\u2069""#), "the byte order mark kept")
        #expect(output.contains(#""Die Donaudampfschifffahrts-""#), "the drawn line")
        #expect(output.contains(#""invoice‹U+202E›txt.scr ‹U+2066›iso‹U+2069›""#))
        #expect(output.contains(#""10000 \u200fשלום\u200f""#))
        #expect(!output.contains("‹U+00AD") && !output.contains("‹U+200B") && !output.contains("‹U+FEFF"))
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        #expect(object?["title"] as? String == "Invisible\u{AD}characters\u{FEFF}", "the title raw")
    }
}
