// Where the terminal formats draw a table's sections and separators as UIKit's UITableView
// does (issue 26's divergences): each case checked in `text` and `ansi` (the same characters,
// the colour aside), with the HTML page's rule for the same case.

import CellKitTestSupport
import Foundation
import Testing

@Suite("Sections and separators follow UIKit's tables")
struct UIKitSectionTests {
    /// A table of `style`, 30 columns, drawn in `text`, `ansi` and `html`; `rows` are section 0's
    /// rows (YAML flow maps); a second section follows with one row.
    private static func draw(
        _ style: String, rows: [String], selected: String? = nil, name: String = #function
    ) throws -> (text: [String], ansi: String, html: String) {
        let table = """
            style: \(style)
            width: 30
            assets: assets.yaml
            \(selected.map { "selected: \($0)\n" } ?? "")sections:
              - header: Things
                rows:
            \(rows.map { "      - " + $0 }.joined(separator: "\n"))
              - header: More
                rows:
                  - {cell: Default, text: Alone}
            """
        let folder = try Render.write(
            ["t.yaml": table, "assets.yaml": "images:\n  star: {glyph: \"★\"}\n"], name: name)
        var outputs: [Render.Format: String] = [:]
        for format in [Render.Format.text, .ansi, .html] {
            let (output, warnings) = try Render.table(folder + "/t.yaml", format)
            #expect(warnings.isEmpty, "\(warnings)")
            outputs[format] = output
        }
        let text = outputs[.text]!, ansi = outputs[.ansi]!
        // ansi draws the same characters as text, but for text's selection marks
        #expect(Self.withoutSGR(ansi) == (selected == nil ? text : text.replacingOccurrences(of: "┃", with: " ")))
        return (text.components(separatedBy: "\n"), ansi, outputs[.html]!)
    }

    /// `ansi` without its SGR sequences.
    private static func withoutSGR(_ ansi: String) -> String {
        ansi.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    private static func rule(_ n: Int, inset: Int = 0) -> String {
        String(repeating: " ", count: inset) + String(repeating: "─", count: n - inset)
    }

    private static let imageRows = [
        "{cell: Default, text: Starred, image: star}", "{cell: Default, text: Plain}",
        "{cell: Subtitle, text: Last, detail: below, image: star}",
    ]

    @Test("a separator starts where its row's text starts: past the image, else at the margin (separatorInset)")
    func separatorInsetPastImage() throws {
        let (text, ansi, html) = try Self.draw("grouped", rows: Self.imageRows)
        let starred = try #require(text.firstIndex { $0.hasPrefix(" ★ Starred") })
        #expect(text[starred + 1] == Self.rule(30, inset: 3), "under the image row: from the text, past ★")
        #expect(text[starred + 2].hasPrefix(" Plain"))
        #expect(text[starred + 3] == Self.rule(30, inset: 1), "under a row without an image: from the margin")
        #expect(text[starred + 4].hasPrefix(" ★ Last") && text[starred + 5].hasPrefix("   below"))
        #expect(text[starred + 6] == Self.rule(30), "after the last row: the section's edge, not a separator")
        // ANSI: the inset is blank, the rule in the separator colour.
        #expect(ansi.contains("\u{1B}[0;38;2;198;198;200m   " + String(repeating: "─", count: 27) + "\u{1B}[0m\n"))
        // HTML: the same rule in CSS, a row with an image inset past it, none under the last row.
        #expect(
            html.contains(
                ".r:not(:last-child)::after,.bk:not(:last-child)>.r:last-child::after{content:\"\";position:absolute;inset-inline-start:calc(var(--in,16px) + var(--ind,var(--si,0px)))"
            ))
        #expect(html.contains(".r.im{--in:57px}"))
        #expect(html.contains(#"<li class="r im" data-ip="0.0">"#))
        #expect(html.contains(#"<li class="r" data-ip="0.1">"#))
    }

    @Test("insetGrouped and plain inset their separators the same way; plain has no section edges")
    func separatorInsetOtherStyles() throws {
        let inset = try Self.draw("insetGrouped", rows: Self.imageRows).text
        let starred = try #require(inset.firstIndex { $0.hasPrefix("  │ ★ Starred") })
        #expect(inset[starred + 1] == "  │   " + String(repeating: "─", count: 21) + "┤")
        #expect(inset[starred + 3] == "  │ " + String(repeating: "─", count: 23) + "┤")
        #expect(inset[starred + 6] == "  ╰" + String(repeating: "─", count: 24) + "╯")
        let plain = try Self.draw("plain", rows: Self.imageRows).text
        let row = try #require(plain.firstIndex { $0.hasPrefix(" ★ Starred") })
        #expect(plain[row - 1].hasPrefix(" Things"), "no rule above a plain section: its header band")
        #expect(plain[row + 1] == Self.rule(30, inset: 3) && plain[row + 3] == Self.rule(30, inset: 1))
        #expect(plain[row + 6].hasPrefix(" More"), "no rule after a plain section's last row")
        #expect(!plain.joined().contains("│") && !plain.joined().contains("╭"))
    }

    @Test("grouped sections run edge to edge: full-width rules above and below, no sides, no corners")
    func groupedEdgeToEdge() throws {
        let (text, _, html) = try Self.draw(
            "grouped", rows: ["{cell: Value1, text: Wi-Fi, detail: Home}", "{cell: Default, text: Off}"])
        for glyph in ["│", "╭", "╮", "╰", "╯", "├", "┤"] { #expect(!text.joined().contains(glyph), "\(glyph)") }
        let header = try #require(text.firstIndex(of: " THINGS"))
        #expect(text[header + 1] == Self.rule(30), "the section's top edge spans the table")
        // The cell spans the table too: value1's detail ends at the right margin, 30 columns in all.
        #expect(text[header + 2] == " Wi-Fi" + String(repeating: " ", count: 19) + "Home ")
        #expect(text[header + 5] == Self.rule(30), "the bottom edge")
        #expect(text[header + 6] == "" && text[header + 7] == " MORE" && text[header + 8] == Self.rule(30))
        // HTML: grouped lists have a top and bottom hairline and no radius; insetGrouped ones are inset and round.
        #expect(html.contains("<body class=\"grouped\">"))
        #expect(html.contains(".grouped :is(ul,.ul){border-block:1px solid var(--sep)}"))
        #expect(html.contains(".insetGrouped :is(ul,.ul){margin:0 20px;border-radius:10px;overflow:hidden}"))
        #expect(!html.contains(".grouped ul{margin") && !html.contains(".grouped ul{border-radius"))
    }

    @Test("insetGrouped sections stay boxes inset from the sides, with rounded corners")
    func insetGroupedBoxes() throws {
        let text = try Self.draw("insetGrouped", rows: ["{cell: Default, text: One}", "{cell: Default, text: Two}"])
            .text
        let top = try #require(text.firstIndex { $0.hasPrefix("  ╭") })
        #expect(text[top] == "  ╭" + String(repeating: "─", count: 24) + "╮")
        #expect(text[top + 1] == "  │ One" + String(repeating: " ", count: 20) + "│")
        #expect(text[top + 4] == "  ╰" + String(repeating: "─", count: 24) + "╯")
    }

    @Test("a selected grouped row: its background in ansi; without colour, heavy marks in its margins")
    func groupedSelection() throws {
        let (text, ansi, _) = try Self.draw(
            "grouped", rows: ["{cell: Default, text: One}", "{cell: Default, text: Two}"],
            selected: "{section: 0, row: 1}")
        #expect(text.contains("┃Two" + String(repeating: " ", count: 25) + "┃"), "the marks in its margin columns")
        #expect(!ansi.contains("┃"), "ansi shows the selection by its background")
        #expect(ansi.contains("48;2;209;209;214m Two"))
    }
}
