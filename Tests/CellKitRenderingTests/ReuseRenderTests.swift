// Whole tables whose sections share an identifier but not a style or
// selectability: each row must be drawn as its own section asks.

import CellKitTestSupport
import Testing

/// Text and detail from the row's data; the style is whatever the cell was made with.
let detailedPlugin = """
    #include "cellkit.h"
    CK_PLUGIN("Detailed", "1.0.0", "text and detail from the row");
    CK_EXPORT void customizeCellForDetailed(ck_cell *cell, ck_index_path ip) {
        (void)ip;
        const ck_data *data = cell->host->row_data(cell);
        const char *text = NULL, *detail = NULL;
        cell->host->data_string(data, "text", &text);
        cell->host->data_string(data, "detail", &detail);
        ck_set_text(ck_text_label(cell), text);
        ck_set_text(ck_detail_text_label(cell), detail);
    }
    """

@Suite("Reuse across sections in rendered tables")
struct ReuseRenderTests {
    @Test("One identifier in default, subtitle and value1 sections: every row drawn in its section's style")
    func stylesPerSection() throws {
        let plugins = try Fixtures.folder()
        try Fixtures.compileC(detailedPlugin, name: "detailed", in: plugins)
        let folder = try Render.write([
            "table.yaml": """
            width: 40
            sections:
              - {cell: Detailed, style: default, rows: [{text: one, detail: first}]}
              - {cell: Detailed, style: subtitle, rows: [{text: two, detail: second}]}
              - {cell: Detailed, style: value1, rows: [{text: three, detail: third}]}
            """
        ])
        let registry = Fixtures.registry([plugins])
        let (text, warnings) = try Render.table(folder + "/table.yaml", .text, registry: registry)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(!text.contains("first"), "the default style shows no detail")
        #expect(lines.contains { $0.hasPrefix(" second") }, "subtitle: the detail on its own line, left\n\(text)")
        #expect(
            lines.contains { $0.hasPrefix(" three") && $0.hasSuffix("third ") },
            "value1: the detail on the right\n\(text)")
        #expect(warnings.isEmpty)
    }

    @Test(
        "A built-in row in a non-selectable section is never drawn selected, after a selectable section used its type")
    func selectabilityPerSection() throws {
        let folder = try Render.write([
            "table.yaml": """
            width: 40
            selected: {section: 1, row: 0}
            sections:
              - rows: [{cell: Default, text: A}]
              - selectable: false
                rows: [{cell: Default, text: B}]
            """
        ])
        let (json, _) = try Render.table(folder + "/table.yaml", .json)
        #expect(json.contains(#""section":1,"row":0,"#) && json.contains(#""selectionStyle":"none""#))
        #expect(!json.contains(#""selected":true"#))
    }
}
