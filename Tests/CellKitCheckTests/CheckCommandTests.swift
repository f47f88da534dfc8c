// `cellkit check`: a clean plugin exits 0; plugins that crash, hang or exit() are
// findings named by hook and row while the parent lives on; a reuse-unsafe plugin is
// reported with the property, both values and the rows; --json parses.

import CellKitTestSupport
import Foundation
import Testing

@Suite("cellkit check: plugins vetted in a worker process")
struct CheckCommandTests {
    let command = CellKitTool()
    /// Spawns cellkit with a cleared signal mask and default signal actions (see CellKitTool.start).
    let spawner = CellKitTool()

    func plugin(_ name: String, _ body: String) throws -> String {
        try Fixtures.compileC(
            "#include <stdlib.h>\n#include <stddef.h>\n#include \"cellkit.h\"\nCK_PLUGIN(\"\(name)\", \"0.1.0\", \"a test plugin\");\n"
                + body, name: name.lowercased(), in: try Fixtures.folder(name))
    }

    @Test("the package's FoobarCells plugin is clean: exit 0, every type checked, hooks timed")
    func foobarIsClean() throws {
        let (status, text) = try command.cellkit(["check", Fixtures.buildDirectory + "/libFoobarCells.so"])
        #expect(status == 0, "\(text)")
        #expect(text.contains("Clean: 2 cell types checked."))
        #expect(!text.contains("FAIL"))
        #expect(text.contains("customizeCellForBar"), "Bar's declared-list hooks are timed too")
        #expect(text.contains("time per call (median, p99):"))
        let (withTable, tableText) = try command.cellkit([
            "check", "Bar", "--table", Render.manifest("seed-004-foobar.yaml"),
        ])
        #expect(withTable == 0, "\(tableText)")
        #expect(
            tableText.contains("18 samples;"),
            "the table's 3 Bar rows, the 8 built-in samples but typical data, the plugin's 5 previews of Bar, 2 that vary the key Bar reads"
        )
        #expect(tableText.contains(#"typical data: the plugin's previews ("title", "empty", "long", "rtl", "cjk")"#))
    }

    @Test("check --table on a long table times the reading apart: no hook blamed for it, its seconds printed")
    func longTable() throws {
        let folder = try Render.write(
            ["t.yaml": "sections:\n  - cell: Bar\n    rowsFrom: rows.jsonl\n"], name: "longtable")
        var rows = ""
        for n in 0..<20_000 { rows += #"{"title":"row \#(n)"}"# + "\n" }
        try rows.write(toFile: folder + "/rows.jsonl", atomically: true, encoding: .utf8)
        // A hook timeout far below the table's reading time (a pass over 20,000 rows, about 2 s in a debug build).
        let (status, text) = try command.cellkit([
            "check", "Bar", "--table", folder + "/t.yaml", "--hook-timeout", "0.2",
        ])
        #expect(!text.contains("cellkit_plugin_init"), "the table's time is not the plugin's loading:\n\(text)")
        #expect(!text.contains("did not return"), "\(text)")
        #expect(text.contains("--table read in "), "\(text)")
        #expect(status == 0, "\(text)")
    }

    @Test("a SIGSEGV in customize is a finding naming the hook and row; the parent goes on and exits 1")
    func crash() throws {
        let path = try plugin(
            "Crashy",
            """
            CK_EXPORT void customizeCellForCrashy(ck_cell *cell, ck_index_path ip) {
                if (ip.row == 2) { volatile int *p = NULL; *p = 1; }
                ck_set_text(ck_text_label(cell), "fine");
            }
            """)
        let (ending, text) = try spawner.run(["check", path])
        #expect(ending == .exited(1), "\(text)")
        #expect(
            text.contains(
                "FAIL customizeCellForCrashy crashed with SIGSEGV (signal 11) at sample \"typical data\" on a new cell"
            ),
            "\(text)")
        #expect(
            text.contains("64 of 65 units run, 1 faulted in 3 workers"),
            "the check went on after the crash (the key probe crashed first)")
        #expect(!text.contains("tag 0"), "no tag 0 was looked up:\n\(text)")
    }

    @Test("check --table whose rows use another plugin's type: found with --plugin-path, else it says to pass it")
    func tableWithForeignTypes() throws {
        let checked = try plugin("Alpha", "CK_CUSTOMIZE_CELL_FOR(Alpha) { ck_set_text(ck_text_label(cell), \"a\"); }\n")
        let other = try plugin("Beta", "CK_CUSTOMIZE_CELL_FOR(Beta) { ck_set_text(ck_text_label(cell), \"b\"); }\n")
        let folder = try Render.write(
            ["t.yaml": "sections:\n  - rows:\n      - {cell: Alpha}\n      - {cell: Beta}\n      - {cell: Subtitle}\n"],
            name: "foreign")
        let (status, text) = try command.cellkit(["check", checked, "--table", folder + "/t.yaml"])
        #expect(status == 2, "\(text)")
        #expect(
            text.contains("uses cell type 'Beta', which no plugin on the search path provides (searched: \(checked), "),
            "\(text)")
        #expect(text.contains("pass the folder of the plugin that provides it with --plugin-path DIR"), "\(text)")
        #expect(!text.contains("Did you mean"), "no suggestion of another type:\n\(text)")
        let folderOfOther = (other as NSString).deletingLastPathComponent
        let (found, foundText) = try command.cellkit([
            "check", checked, "--table", folder + "/t.yaml", "--plugin-path", folderOfOther,
        ])
        #expect(found == 0, "\(foundText)")
        #expect(foundText.contains("Clean: 1 cell type checked."), "\(foundText)")

        // A type named only in a data file's rows does not stop the check: the rows of the type
        // checked are its samples, and the others are not needed.
        let rows = try Render.write(
            [
                "rows.yaml": "sections:\n  - rowsFrom: rows.jsonl\n",
                "rows.jsonl": "{\"cell\": \"Alpha\"}\n{\"cell\": \"Beta\"}\n",
            ], name: "foreignrows")
        let (late, lateText) = try command.cellkit(["check", checked, "--table", rows + "/rows.yaml"])
        #expect(late == 0, "\(lateText)")
    }

    @Test("a crash right after a lookup of tag 0 is explained: view_with_tag(cell, 0) returns NULL")
    func tagZeroCrash() throws {
        let path = try plugin(
            "TagZero",
            """
            CK_CUSTOMIZE_CELL_FOR(TagZero) {
                ck_set_text(ck_text_label(cell), "fine");
                if (indexPath.row != 2) return;
                ck_view *title = cell->host->view_with_tag(cell, 0);
                title->host->view_set_string(title, CK_VIEW_TEXT, "title");  /* NULL: crashes */
            }
            """)
        let (ending, text) = try spawner.run(["check", path])
        #expect(ending == .exited(1), "\(text)")
        #expect(
            text.contains(
                "FAIL customizeCellForTagZero crashed with SIGSEGV (signal 11) at sample \"typical data\" on a new cell; "
                    + "it looked up tag 0 just before: view_with_tag(cell, 0) returns NULL"),
            "\(text)")
        // The same lookup through the helper does not crash: the failed call is the finding.
        let safe = try plugin(
            "TagZeroSafe",
            """
            CK_CUSTOMIZE_CELL_FOR(TagZeroSafe) {
                ck_set_text(ck_text_label(cell), "fine");
                if (indexPath.row == 2) ck_set_text(cell->host->view_with_tag(cell, 0), "title");
            }
            """)
        let (safeEnding, safeText) = try spawner.run(["check", safe])
        #expect(safeEnding == .exited(1), "\(safeText)")
        #expect(!safeText.contains("crashed"), "\(safeText)")
        #expect(safeText.contains("view_with_tag: tag 0 refused"), "\(safeText)")
    }

    @Test("an endless loop is killed after --hook-timeout and named by hook and row")
    func hang() throws {
        let path = try plugin(
            "Hang",
            """
            CK_EXPORT void customizeCellForHang(ck_cell *cell, ck_index_path ip) {
                if (ip.row == 1) for (volatile int i = 0;; i++) {}
                ck_set_text(ck_text_label(cell), "fine");
            }
            """)
        let start = Date()
        let (ending, text) = try spawner.run(["check", path, "--hook-timeout", "1"], timeout: 60)
        #expect(ending == .exited(1), "\(text)")
        #expect(
            text.contains(
                "FAIL customizeCellForHang did not return within 1 s at sample \"an empty object\" on a new cell; its worker was killed"
            ), "\(text)")
        #expect(Date().timeIntervalSince(start) < 30)
    }

    @Test("exit(3) in a height hook is a finding; the parent's own status is 1, not 3")
    func exitCall() throws {
        let path = try plugin(
            "Quitter",
            """
            CK_EXPORT void customizeCellForQuitter(ck_cell *cell, ck_index_path ip) { (void)ip; ck_set_text(ck_text_label(cell), "fine"); }
            CK_EXPORT double heightForCellForQuitter(ck_cell *cell, ck_index_path ip) { (void)cell; if (ip.row == 3) exit(3); return 1; }
            """)
        let (ending, text) = try spawner.run(["check", path])
        #expect(ending == .exited(1), "\(text)")
        #expect(
            text.contains(
                "FAIL heightForCellForQuitter called exit(3) at sample \"very long texts\" on a new cell: a plugin must return, never end the process"
            ), "\(text)")
    }

    @Test("a checkmark and red text set on row 0 only: each property with both values and the rows")
    func reuseUnsafe() throws {
        let path = try plugin(
            "Stale",
            """
            CK_EXPORT void customizeCellForStale(ck_cell *cell, ck_index_path ip) {
                ck_set_text(ck_text_label(cell), "a row");
                if (ip.row == 0) {
                    ck_set_accessory(cell, CK_ACCESSORY_CHECKMARK);
                    ck_set_text_color(ck_text_label(cell), CK_RGB(255, 0, 0));
                }
            }
            """)
        let (status, text) = try command.cellkit(["check", path])
        #expect(status == 1, "\(text)")
        #expect(
            text.contains(
                "FAIL customizeCellForStale leaves accessoryType = checkmark from sample \"empty data\" on sample \"an empty object\" (a new cell has none): reset it in customizeCellForStale or in prepareCellForReuseForStale"
            ), "\(text)")
        #expect(
            text.contains(
                "FAIL customizeCellForStale leaves textLabel.textColor = #ff0000ff from sample \"empty data\" on sample \"an empty object\" (a new cell has none)"
            ), "\(text)")
    }

    @Test("--json parses: findings with kind, hook and row; clean and status")
    func json() throws {
        let path = try plugin(
            "Crashy",
            """
            CK_EXPORT void customizeCellForCrashy(ck_cell *cell, ck_index_path ip) {
                if (ip.row == 2) { volatile int *p = NULL; *p = 1; }
                ck_set_text(ck_text_label(cell), "fine");
            }
            """)
        let (ending, text) = try spawner.run(["check", path, "--json"])
        #expect(ending == .exited(1))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
        #expect(json["clean"] as? Bool == false)
        #expect(json["status"] as? Int == 1)
        let types = try #require(json["cellTypes"] as? [[String: Any]])
        let findings = try #require(types.first?["findings"] as? [[String: Any]])
        #expect(findings.first?["kind"] as? String == "crash")
        #expect(findings.first?["hook"] as? String == "customizeCellForCrashy")
        #expect(findings.first?["row"] as? String == "sample \"typical data\"")
        let (clean, foobar) = try command.cellkit(["check", "Foobar", "--json"])
        #expect(clean == 0)
        let parsed = try JSONSerialization.jsonObject(with: Data(foobar.utf8)) as? [String: Any]
        #expect(parsed?["clean"] as? Bool == true)
    }
}
