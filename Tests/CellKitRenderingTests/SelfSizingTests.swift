// Self-sizing rows: a subview label of any number of lines (numberOfLines 0) grows to its text at
// its frame's width and the row grows to hold it, as a self-sizing UIKit cell does; a fixed row
// height still clips it; `rowHeight: automatic` in a section undoes the table's fixed height. In
// every format: the laid-out row carries the height (text lines, JSON, HTML all draw from it).

import CellKitDocuments
import CellKitRendering
import CellKitTestSupport
import Foundation
import Testing

@Suite("Self-sizing rows")
struct SelfSizingTests {
    /// A cell with a note under a one-line title: a label of any number of lines in a frame one
    /// line tall, 20 columns wide, at line 1; a badge (plain view) at line 0.
    static let plugin = """
        #include "cellkit.h"
        CK_PLUGIN("SelfSizing", "1.0.0", "self-sizing rows");
        CK_EXPORT void initCellForNote(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            ck_view *note = cell->host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){2, 1, 20, 1}, 7);
            cell->host->view_set_int(note, CK_VIEW_NUMBER_OF_LINES, 0);
            ck_view *fixed = cell->host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){24, 1, 10, 1}, 8);
            cell->host->view_set_int(fixed, CK_VIEW_NUMBER_OF_LINES, 1);
        }
        CK_SIGNATURE(customizeCellForNote, "void (cell, data)");
        CK_EXPORT void customizeCellForNote(ck_cell *cell, const ck_data *data) {
            const char *s = 0;
            if (cell->host->data_string(data, "text", &s) == CK_OK) ck_set_text(ck_text_label(cell), s);
            if (cell->host->data_string(data, "note", &s) == CK_OK)
                ck_set_text(cell->host->view_with_tag(cell, 7), s);
            ck_set_text(cell->host->view_with_tag(cell, 8), "one two three four five");
        }
        """

    /// Rendered as JSON: each row's height and its note's (tag 7) frame height and lines.
    static func rows(_ yaml: String, plugin: String = plugin, name: String = #function) throws
        -> [(height: Int, note: Int, lines: Int)]
    {
        let folder = try Render.write(["table.yaml": yaml], name: name)
        try Fixtures.compileC(plugin, name: "selfsizing", in: folder)
        let registry = Fixtures.registry([folder, Fixtures.buildDirectory])
        let output = try Render.table(folder + "/table.yaml", .json, width: 40, registry: registry).output
        let document = try JSONSerialization.jsonObject(with: Data(output.utf8)) as! [String: Any]
        let rows = (document["sections"] as! [[String: Any]]).flatMap { $0["rows"] as! [[String: Any]] }
        return rows.map { row in
            let views = row["views"] as! [[String: Any]]
            let note = views.first { $0["tag"] as? Int == 7 }
            let frame = note?["frame"] as? [String: Any]
            return (row["height"] as! Int, frame?["height"] as? Int ?? 0, (note?["lines"] as? [Any])?.count ?? 0)
        }
    }

    static let long = "a note long enough to wrap over four lines at twenty columns wide"

    @Test("a label of any number of lines grows to its text, and the row with it")
    func grows() throws {
        let rows = try Self.rows(
            "sections:\n  - cell: Note\n    rows:\n      - {text: Title, note: '\(Self.long)'}\n      - {text: T, note: short}\n"
        )
        #expect(rows[0].note == 4 && rows[0].lines == 4, "\(rows)")
        #expect(rows[0].height == 5, "the note from line 1, four lines: \(rows)")
        #expect(rows[1].note == 1 && rows[1].height == 2, "\(rows)")
    }

    @Test("a fixed height clips it; a section's rowHeight: automatic undoes the table's")
    func fixedAndAutomatic() throws {
        let rows = try Self.rows(
            "rowHeight: 2\nsections:\n  - cell: Note\n    rows: [{text: A, note: '\(Self.long)'}]\n"
                + "  - cell: Note\n    rowHeight: automatic\n    rows: [{text: B, note: '\(Self.long)'}]\n")
        #expect(rows[0].height == 2 && rows[0].note == 1, "clipped at the row: \(rows)")
        #expect(rows[1].height == 5 && rows[1].note == 4, "automatic: \(rows)")
    }

    @Test("rowHeight takes a number of lines or automatic, and says so otherwise")
    func documentValues() throws {
        let folder = try Render.write(["t.yaml": "rowHeight: tall\nsections: [{rows: 1, cell: Default}]\n"])
        #expect {
            _ = try TableDocument(contentsOf: folder + "/t.yaml")
        } throws: { "\($0)".contains("expected a number of lines or automatic") }
        let automatic = try Render.write(["t.yaml": "rowHeight: automatic\nsections: [{rows: 1, cell: Default}]\n"])
        #expect(try TableDocument(contentsOf: automatic + "/t.yaml").rowHeight == TableDocument.automaticRowHeight)
    }

    @Test("at widths 30 to 100 a wrapping subview shows its whole text in text, ANSI and JSON")
    func everyWidth() throws {
        let folder = try Render.write([
            "t.yaml": "sections:\n  - cell: Note\n    rows: [{note: '\(Self.long)'}]\n"
        ])
        try Fixtures.compileC(Self.plugin, name: "selfsizing", in: folder)
        let registry = Fixtures.registry([folder, Fixtures.buildDirectory])
        let words = Self.long.split(separator: " ").map(String.init)
        for width in stride(from: 30, through: 100, by: 10) {
            let json = try Render.table(folder + "/t.yaml", .json, width: width, registry: registry).output
            let document = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
            let row = ((document["sections"] as! [[String: Any]])[0]["rows"] as! [[String: Any]])[0]
            let note = (row["views"] as! [[String: Any]]).first { $0["tag"] as? Int == 7 }
            let lines = (note?["lines"] as? [String]) ?? []
            #expect(
                lines.joined(separator: " ").split(separator: " ").map(String.init) == words,
                "json at \(width): \(lines)")
            for format in [Render.Format.text, .ansi] {
                let drawn = try Render.table(folder + "/t.yaml", format, width: width, registry: registry).output
                let plain = drawn.replacing(/\x1B\[[0-9;]*m/, with: "")
                let shown = plain.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "│" || $0 == "─" })
                    .map(String.init).filter { words.contains($0) }
                #expect(Set(shown) == Set(words), "\(format) at \(width): \(plain)")
            }
        }
    }

    /// Cells that ask for their own height: a height hook answering `CK_AUTOMATIC_DIMENSION`
    /// (HookAuto), the row height set to it (PropertyAuto); both with Note's views.
    static let automaticPlugin =
        plugin.replacingOccurrences(of: "CK_PLUGIN(\"SelfSizing\"", with: "CK_PLUGIN(\"Automatic\"")
            + """
            CK_EXPORT void initCellForHookAuto(ck_cell *cell, ck_index_path ip) { initCellForNote(cell, ip); }
            CK_SIGNATURE(customizeCellForHookAuto, "void (cell, data)");
            CK_EXPORT void customizeCellForHookAuto(ck_cell *cell, const ck_data *data) { customizeCellForNote(cell, data); }
            CK_EXPORT double heightForCellForHookAuto(ck_cell *cell, ck_index_path ip) {
                (void)cell; (void)ip;
                return CK_AUTOMATIC_DIMENSION;
            }
            CK_EXPORT void initCellForPropertyAuto(ck_cell *cell, ck_index_path ip) {
                initCellForNote(cell, ip);
                cell->host->cell_set_double(cell, CK_CELL_ROW_HEIGHT, CK_AUTOMATIC_DIMENSION);
            }
            CK_SIGNATURE(customizeCellForPropertyAuto, "void (cell, data)");
            CK_EXPORT void customizeCellForPropertyAuto(ck_cell *cell, const ck_data *data) {
                customizeCellForNote(cell, data);
            }
            """

    @Test("CK_AUTOMATIC_DIMENSION from a height hook or as the row height wins over the table's fixed height")
    func automaticDimension() throws {
        let rows = try Self.rows(
            "rowHeight: 2\nsections:\n  - cell: HookAuto\n    rows: [{text: A, note: '\(Self.long)'}]\n"
                + "  - cell: PropertyAuto\n    rows: [{text: B, note: '\(Self.long)'}]\n"
                + "  - cell: Note\n    rows: [{text: C, note: '\(Self.long)'}]\n",
            plugin: Self.automaticPlugin)
        #expect(rows.map(\.height) == [5, 5, 2], "\(rows)")
        #expect(rows.map(\.note) == [4, 4, 1], "\(rows)")
    }

    @Test("a plugin built against the 1.2 header keeps -1's old meaning: ignored, with a warning")
    func olderHeaderKeepsMeaning() throws {
        // The descriptor CK_PLUGIN writes, with minor 2.
        let older = Self.automaticPlugin.replacingOccurrences(
            of: "CK_PLUGIN(\"Automatic\", \"1.0.0\", \"self-sizing rows\");",
            with: "CK_EXPORT const ck_plugin_descriptor cellkit_plugin = "
                + "{{'C','K','P','L','U','G','I','N'}, 1, 2, \"Older\", \"1.0.0\", \"a 1.2 plugin\"};")
        #expect(older != Self.automaticPlugin)
        let folder = try Render.write([
            "t.yaml": "rowHeight: 2\nsections:\n  - cell: HookAuto\n    rows: [{text: A, note: '\(Self.long)'}]\n"
                + "  - cell: PropertyAuto\n    rows: [{text: B, note: '\(Self.long)'}]\n"
        ])
        try Fixtures.compileC(older, name: "older", in: folder)
        let registry = Fixtures.registry([folder, Fixtures.buildDirectory])
        let (output, warnings) = try Render.table(folder + "/t.yaml", .json, width: 40, registry: registry)
        let heights = try Self.heights(output)
        #expect(heights == [2, 2], "the table's height: \(heights)")
        #expect(
            warnings.contains { $0.contains("heightForCellForHookAuto returned a row height of -1.0") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("set a row height of -1.0") }, "\(warnings)")
    }

    @Test("a row's own rowHeight wins over its section's and the table's, and is not row data")
    func rowLevel() throws {
        let rows = try Self.rows(
            "rowHeight: 2\nsections:\n  - cell: Note\n    rows:\n"
                + "      - {text: A, note: '\(Self.long)', rowHeight: automatic}\n"
                + "      - {text: B, note: '\(Self.long)'}\n"
                + "  - cell: Note\n    rowHeight: automatic\n    rows:\n"
                + "      - {text: C, note: '\(Self.long)', rowHeight: 3}\n"
                + "      - {text: D, note: '\(Self.long)'}\n")
        #expect(rows.map(\.height) == [5, 2, 3, 5], "\(rows)")
        let folder = try Render.write(["t.yaml": "sections:\n  - cell: Default\n    rows: [{text: A, rowHeight: 0}]\n"])
        #expect {
            _ = try TableDocument(contentsOf: folder + "/t.yaml")
        } throws: { "\($0)".contains("t.yaml:3") }
        let document = try TableDocument(
            contentsOf: try Render.write([
                "t.yaml": "sections:\n  - cell: Default\n    rows: [{text: A, rowHeight: 4}]\n"
            ])
                + "/t.yaml")
        guard case .inline(let inline) = document.sections[0].rows else { Issue.record("inline rows"); return }
        #expect(inline[0].rowHeight == 4 && inline[0].data.value(at: "rowHeight") == nil)
        // Spelt otherwise, it is the row's data, as any key: said, with its place.
        let typo = try TableDocument(
            contentsOf: try Render.write([
                "t.yaml": "sections:\n  - cell: Default\n    rows:\n      - {text: A, rowheight: 4}\n"
            ])
                + "/t.yaml")
        #expect(
            typo.warnings.contains {
                $0.hasSuffix("t.yaml:4:19: the row key 'rowheight' is row data; did you mean 'rowHeight'?")
            },
            "\(typo.warnings)")
    }

    /// Each row's height in the JSON `output`.
    static func heights(_ output: String) throws -> [Int] {
        let document = try JSONSerialization.jsonObject(with: Data(output.utf8)) as! [String: Any]
        return (document["sections"] as! [[String: Any]]).flatMap { $0["rows"] as! [[String: Any]] }
            .map { $0["height"] as! Int }
    }
}
