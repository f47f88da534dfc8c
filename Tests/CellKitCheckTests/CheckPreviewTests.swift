// `cellkit check` runs the hooks over the samples a plugin ships (CK_PREVIEW, its preview file)
// as typical data, says so in its report, and falls back to CellKit's own when it ships none.

import CellKitTestSupport
import Foundation
import Testing

@Suite("cellkit check: the plugin's previews as typical data")
struct CheckPreviewTests {
    let command = CellKitTool()

    /// A plugin whose `Picky` type crashes on the text "boom" only, with `previews` in its source and `yaml` beside it.
    private func picky(_ previews: String, yaml: String? = nil) throws -> String {
        let dir = try Fixtures.folder()
        let source = """
            #include <string.h>
            #include "cellkit.h"
            CK_PLUGIN("Picky", "0.1.0", "crashes on one text only");
            CK_CUSTOMIZE_CELL_FOR(Picky) {
                const char *text = NULL;
                if (cell->host->data_string(cell->host->row_data(cell), "text", &text) != CK_OK) text = NULL;
                if (text && strcmp(text, "boom") == 0) {
                    volatile int *p = NULL;
                    *p = 1;
                }
                ck_set_text(ck_text_label(cell), text ? text : "");
            }
            \(previews)
            """
        let path = try Fixtures.compileC(source, name: "picky", in: dir)
        if let yaml { try yaml.write(toFile: dir + "/libpicky.preview.yaml", atomically: true, encoding: .utf8) }
        return path
    }

    @Test("a crash on a shipped sample only is found, named by the sample; the report says whose typical data ran")
    func runsTheShippedSamples() throws {
        let path = try picky(
            #"CK_PREVIEW(Picky, calm, "{\"text\": \"hello\"}"); CK_PREVIEW(Picky, boom, "{\"text\": \"boom\"}");"#,
            yaml: "Picky:\n  rtl: {text: \"שלום\"}\n  bad: [1]\n")
        let (status, text) = try command.cellkit(["check", path])
        #expect(status == 1, "\(text)")
        #expect(text.contains(#"  typical data: the plugin's previews ("calm", "boom", "rtl")"#), "\(text)")
        #expect(
            text.contains(
                #"FAIL customizeCellForPicky crashed with SIGSEGV (signal 11) at sample "boom" on a new cell"#
            ), "\(text)")
        #expect(
            text.contains("  preview warnings (those samples are not run):\n    \(path): preview Picky \"bad\""),
            "\(text)")
        let (_, json) = try command.cellkit(["check", "--json", path])
        let report = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let type = (report?["cellTypes"] as? [[String: Any]])?.first
        #expect(type?["previews"] as? [String] == ["calm", "boom", "rtl"], "in the order the plugin declares them")
        #expect((report?["previewWarnings"] as? [String])?.count == 1)
    }

    @Test("without previews check runs CellKit's typical data and says how to ship some")
    func fallsBackToItsOwn() throws {
        let path = try picky("")
        let (status, text) = try command.cellkit(["check", path])
        #expect(status == 0, "\(text)")
        #expect(
            text.contains(
                "  typical data: CellKit's own; the plugin ships no preview of Picky (CK_PREVIEW, or libpicky.preview.yaml)"
            ),
            "\(text)")
        #expect(text.contains("11 samples;"), "the 9 built-in samples, typical data among them, and 2 that vary 'text'")
    }

    @Test("a read of the wrong type on a shipped sample is a FAIL, as on typical data")
    func wrongTypeOnASampleFails() throws {
        let dir = try Fixtures.folder()
        let source = """
            #include "cellkit.h"
            CK_PLUGIN("Typed", "0.1.0", "reads count as a text");
            CK_CUSTOMIZE_CELL_FOR(Typed) {
                const char *s = NULL;
                if (cell->host->data_string(cell->host->row_data(cell), "count", &s) != CK_OK) s = "?";
                ck_set_text(ck_text_label(cell), s);
            }
            CK_PREVIEW(Typed, three, "{\\"count\\": 3}");
            """
        let path = try Fixtures.compileC(source, name: "typed", in: dir)
        let (status, text) = try command.cellkit(["check", path])
        #expect(status == 1, "\(text)")
        #expect(
            text.contains(
                #"FAIL customizeCellForTyped read the row's data as the wrong type at sample "three": expected a string at 'count'"#
            ), "\(text)")
    }
}
