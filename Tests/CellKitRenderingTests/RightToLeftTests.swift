// Right to left: `direction: rtl` (table or section) mirrors a row's standard parts as UIKit
// mirrors a cell under a right-to-left layout — the image to the right, the accessory to the left
// with its chevron pointing left, value1's detail to the left of its text, indentation counted
// from the right — in the laid-out row (so in every format), its separator inset from the right,
// the section's header against the right edge; `auto` mirrors the rows whose text reads right to
// left. JSON says `"direction":"rtl"` on a mirrored row.

import CellKitModel
import CellKitRendering
import CellKitTestSupport
import Foundation
import Testing

@Suite("Right-to-left tables")
struct RightToLeftTests {
    static let plugin = """
        #include "cellkit.h"
        CK_PLUGIN("Indented", "1.0.0", "an indented row");
        CK_SIGNATURE(customizeCellForIndented, "void (cell, data)");
        CK_EXPORT void customizeCellForIndented(ck_cell *cell, const ck_data *data) {
            const char *s = 0;
            if (cell->host->data_string(data, "text", &s) == CK_OK) ck_set_text(ck_text_label(cell), s);
            cell->host->cell_set_int(cell, CK_CELL_INDENTATION_LEVEL, 2);
        }
        """

    static let document = """
        direction: auto
        sections:
          - header: Value1
            cell: Value1
            rows:
              - {text: שלום עולם, detail: פרטים, accessory: disclosureIndicator}
              - {text: Hello, detail: World, accessory: disclosureIndicator}
          - header: מימין
            cell: Default
            direction: rtl
            rows:
              - {text: מרחבא, accessory: detailDisclosureButton}
              - {cell: Indented, text: שתיים}
              - {cell: Indented, text: two}
        """

    /// The rows as JSON objects, and the text output.
    static func render(name: String = #function) throws -> (rows: [[String: Any]], text: String) {
        let folder = try Render.write(["t.yaml": document], name: name)
        try Fixtures.compileC(plugin, name: "indented", in: folder)
        let registry = Fixtures.registry([folder, Fixtures.buildDirectory])
        let json = try Render.table(folder + "/t.yaml", .json, width: 40, registry: registry).output
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
        let rows = (parsed["sections"] as! [[String: Any]]).flatMap { $0["rows"] as! [[String: Any]] }
        let text = try Render.table(folder + "/t.yaml", .text, width: 40, registry: registry).output
        return (rows, text)
    }

    /// Row `row`'s view of `role`: its x and its lines.
    static func view(_ row: [String: Any], _ role: String) -> (x: Int, width: Int, lines: [String])? {
        guard let v = (row["views"] as! [[String: Any]]).first(where: { $0["role"] as? String == role }) else {
            return nil
        }
        let frame = v["frame"] as! [String: Int]
        return (frame["x"]!, frame["width"]!, v["lines"] as? [String] ?? [])
    }

    @Test("value1 mirrored under auto for a Hebrew row, not for an English one")
    func value1() throws {
        let (rows, _) = try Self.render()
        let hebrew = rows[0], english = rows[1]
        #expect(hebrew["direction"] as? String == "rtl" && english["direction"] == nil)
        let (text, detail) = (
            try #require(Self.view(hebrew, "textLabel")), try #require(Self.view(hebrew, "detailTextLabel"))
        )
        let accessory = try #require(Self.view(hebrew, "accessory"))
        #expect(accessory.x < detail.x && detail.x < text.x, "accessory, detail, text from the left")
        #expect(accessory.lines == ["‹"])
        #expect(text.x + text.width == 39, "the text against the right inset")
        let englishText = try #require(Self.view(english, "textLabel"))
        #expect(englishText.x == 1 && Self.view(english, "accessory")?.lines == ["›"])
    }

    @Test("an rtl section mirrors every row, its indentation from the right, the chevron pointing left")
    func section() throws {
        let (rows, text) = try Self.render()
        #expect(Self.view(rows[2], "accessory")?.lines == ["‹ⓘ"] && Self.view(rows[2], "accessory")?.x == 1)
        let indented = try #require(Self.view(rows[3], "textLabel")),
            english = try #require(Self.view(rows[4], "textLabel"))
        #expect(rows[4]["direction"] as? String == "rtl", "rtl, whatever the text")
        #expect(indented.x + indented.width < 39 && english.x + english.width == indented.x + indented.width)
        let lines = text.components(separatedBy: "\n")
        let header = try #require(lines.first { $0.contains("מימין") })
        #expect(header.hasSuffix("מימין") && header.hasPrefix("   "), "the header against the right: \(header)")
        let row = try #require(lines.firstIndex { $0.contains("מרחבא") })
        #expect(lines[row + 1].hasPrefix("─") && lines[row + 1].hasSuffix(" "), "separator inset from the right")
    }

    @Test("in a card the mirrored separator joins the left border (├) and leaves the right one plain (│)")
    func cardSeparator() throws {
        let folder = try Render.write([
            "t.yaml": "style: insetGrouped\nsections:\n  - direction: rtl\n    cell: Default\n"
                + "    rows: [שלום, עולם]\n  - cell: Default\n    rows: [one, two]\n"
        ])
        let lines = try Render.table(folder + "/t.yaml", .text, width: 30).output.components(separatedBy: "\n")
        let rules = lines.filter { $0.contains("─") && !$0.contains("╭") && !$0.contains("╰") }
        try #require(rules.count == 2, "\(lines)")
        let (mirrored, plain) = (
            rules[0].trimmingCharacters(in: .whitespaces), rules[1].trimmingCharacters(in: .whitespaces)
        )
        #expect(mirrored.hasPrefix("├─") && mirrored.hasSuffix(" │"), "\(mirrored)")
        #expect(plain.hasPrefix("│ ") && plain.hasSuffix("─┤"), "\(plain)")
    }

    @Test("the first strong character decides auto")
    func firstStrong() {
        #expect(TextDirection.isRightToLeft("שלום"))
        #expect(TextDirection.isRightToLeft("مرحبا"))
        #expect(TextDirection.isRightToLeft("12 - שלום abc"))
        #expect(!TextDirection.isRightToLeft("abc שלום"))
        #expect(!TextDirection.isRightToLeft("123"))
        #expect(!TextDirection.isRightToLeft(""))
    }

    @Test("HTML: the page's lang from the document and dir for a right-to-left table; dir on each mirrored row")
    func html() throws {
        let rtl = "lang: he\n" + Self.document.replacingOccurrences(of: "auto", with: "rtl")
        let folder = try Render.write(["t.yaml": rtl])
        try Fixtures.compileC(Self.plugin, name: "indented", in: folder)
        let registry = Fixtures.registry([folder, Fixtures.buildDirectory])
        let page = try Render.table(folder + "/t.yaml", .html, width: 40, registry: registry).output
        #expect(page.contains("<html lang=\"he\" dir=\"rtl\">"))
        #expect(page.components(separatedBy: "dir=\"rtl\" data-ip=\"").count - 1 == 5, "every row mirrored")
        // Without `lang` the page says the language is undetermined rather than claim English (issue 41).
        let unsaid = try Render.table(
            Render.write(["u.yaml": rtl.replacingOccurrences(of: "lang: he\n", with: "")]) + "/u.yaml",
            .html, width: 40, registry: registry
        ).output
        #expect(unsaid.contains("<html lang=\"und\" dir=\"rtl\">"))
        let ltr = try Render.table(Render.manifest("showcase.yaml"), .html).output
        #expect(ltr.contains("<html lang=\"en\">") && !ltr.contains("dir=\"rtl\""))
    }
}
