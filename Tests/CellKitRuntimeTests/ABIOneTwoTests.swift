// ABI 1.2: a refusal with a message, typed data reads, optional styles, the content view's
// width without the accessory; and a plugin built against the 1.1 header still loads.

import CCellKit
import CellKitTestSupport
import Foundation
import Testing

@Suite("ABI 1.2: what cellkit.h added, and 1.1 plugins unchanged")
struct ABIOneTwoTests {
    let command = CellKitTool()

    /// `source` built as libabi.so beside table.yaml (`table`, YAML) and styles.yaml (`styles`).
    private func setUp(
        _ source: String, table: String, styles: String? = nil, header: String? = nil,
        test: String = #function
    ) throws -> String {
        let folder = try Fixtures.folder(test)
        if let header {  // a quoted #include finds the source's own folder first
            try FileManager.default.copyItem(atPath: header, toPath: folder + "/cellkit.h")
        }
        try Fixtures.compileC(source, name: "abi", in: folder)
        try table.write(toFile: folder + "/table.yaml", atomically: true, encoding: .utf8)
        try styles?.write(toFile: folder + "/styles.yaml", atomically: true, encoding: .utf8)
        return folder
    }

    private func render(_ folder: String, _ extra: [String] = []) throws -> (Int32, String) {
        try command.cellkit(
            ["render", folder + "/table.yaml", "--plugin-path", folder, "--format", "text", "--width", "40"] + extra)
    }

    @Test("init_error: render and check say why cellkit_plugin_init refused; outside init it is refused")
    func initError() throws {
        let source = """
            #include "cellkit.h"
            CK_PLUGIN("Refuser", "1.0.0", "refuses to start");
            CK_EXPORT ck_status cellkit_plugin_init(const ck_host *host, void **context) {
                (void)context;
                return ck_init_fail(host, "needs libfoo.so.3: apt-get install libfoo3");
            }
            CK_EXPORT void customizeCellForRefused(ck_cell *cell, ck_index_path ip) { (void)cell; (void)ip; }
            """
        let folder = try setUp(source, table: "sections:\n  - {cell: Refused, rows: 1}\n")
        let expected = "cellkit_plugin_init refused to start: needs libfoo.so.3: apt-get install libfoo3"
        let (status, text) = try render(folder)
        #expect(status != 0)
        #expect(text.contains(expected), "\(text)")
        let (checked, report) = try command.cellkit(["check", "Refused", "--plugin-path", folder])
        #expect(checked != 0)
        #expect(report.contains(expected), "\(report)")

        let outside = """
            #include <stdio.h>
            #include "cellkit.h"
            CK_PLUGIN("Outside", "1.0.0", "calls init_error from a hook");
            CK_EXPORT void customizeCellForOutside(ck_cell *cell, ck_index_path ip) {
                char text[32];
                (void)ip;
                snprintf(text, sizeof text, "status %d", (int)cell->host->init_error(cell->host, "late"));
                ck_set_text(ck_text_label(cell), text);
            }
            """
        let late = try setUp(outside, table: "sections:\n  - {cell: Outside, rows: 1}\n", test: "initErrorOutside")
        let (lateStatus, lateText) = try render(late)
        #expect(lateStatus == 0, "\(lateText)")
        #expect(lateText.contains("status \(CK_ERR_WRONG_THREAD.rawValue)"), "\(lateText)")
    }

    @Test("data_type and data_text read any value as text; a wrong-type read names the key and the row")
    func typedData() throws {
        let source = """
            #include <stdio.h>
            #include "cellkit.h"
            CK_PLUGIN("Typed", "1.0.0", "typed reads");
            static const char *text(ck_cell *c, const char *key) {
                const char *out = NULL;
                return ck_data_text(c, key, &out) == CK_OK ? out : "-";
            }
            CK_EXPORT void customizeCellForTyped(ck_cell *cell, ck_index_path ip) {
                char line[160];
                ck_data_type n = CK_DATA_NULL, l = CK_DATA_NULL;
                const char *wrong = NULL;
                (void)ip;
                ck_status missing = ck_data_type_of(cell, "nowhere", &n);
                ck_data_type_of(cell, "n", &n);
                ck_data_type_of(cell, "l", &l);
                cell->host->data_string(cell->host->row_data(cell), "n", &wrong);
                snprintf(line, sizeof line, "%d %d %d|%s|%s|%s|%s|%s|%s", (int)missing, (int)n, (int)l,
                         text(cell, "n"), text(cell, "i"), text(cell, "b"), text(cell, "s"), text(cell, "l"),
                         text(cell, "z"));
                ck_set_text(ck_text_label(cell), line);
            }
            """
        let folder = try setUp(
            source,
            table: "sections:\n  - cell: Typed\n    rows:\n      - {n: 4.5, i: 42, b: true, s: hé, l: [1], z: null}\n")
        let (status, text) = try render(folder, ["--width", "60"])
        #expect(status == 0, "\(text)")
        let types = "\(CK_ERR_NOT_FOUND.rawValue) \(CK_DATA_NUMBER.rawValue) \(CK_DATA_LIST.rawValue)"
        #expect(text.contains("\(types)|4.5|42|true|hé|-|-"), "\(text)")
        // The failed data_string is reported with its key and row; data_type of a missing key is not.
        #expect(
            text.contains(
                "expected a string at 'n' in row 1.1 (indexPath [0, 0]), found a number (data_text reads it as text)"),
            "\(text)"
        )
        #expect(!text.contains("nowhere"), "\(text)")
    }

    @Test("view_apply_optional_style: a missing style is no warning, a present one applies")
    func optionalStyle() throws {
        let source = """
            #include <stdio.h>
            #include "cellkit.h"
            CK_PLUGIN("Styled", "1.0.0", "optional styles");
            CK_EXPORT void customizeCellForStyled(ck_cell *cell, ck_index_path ip) {
                char line[64];
                (void)ip;
                ck_view *tag = cell->host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){0, 0, 4, 1}, 1);
                if (!tag) tag = cell->host->view_with_tag(cell, 1);
                ck_set_text(tag, "MOVE");
                int missing = ck_apply_optional_style(ck_text_label(cell), "absent");
                int present = ck_apply_optional_style(tag, "moved");
                snprintf(line, sizeof line, "missing %d present %d", missing, present);
                ck_set_text(ck_text_label(cell), line);
            }
            """
        let folder = try setUp(
            source, table: "stylesheet: styles.yaml\nsections:\n  - {cell: Styled, rows: 1}\n",
            styles: "styles:\n  moved: {left: 30}\n")
        let (status, text) = try render(folder)
        #expect(status == 0, "\(text)")
        #expect(text.contains("missing \(CK_ERR_NOT_FOUND.rawValue) present 0"), "\(text)")
        #expect(!text.contains("warning") && !text.contains("absent"), "no warning for an optional style:\n\(text)")
        let row = text.split(separator: "\n").first { $0.contains("MOVE") }.map(String.init) ?? ""
        #expect(
            row.firstRange(of: "MOVE").map { row.distance(from: row.startIndex, to: $0.lowerBound) } ?? 0 > 29,
            "\(text)")
    }

    @Test("the content view's width leaves out the margin and the accessory: a flush subview is whole")
    func contentWidth() throws {
        let source = """
            #include "cellkit.h"
            CK_PLUGIN("Flush", "1.0.0", "a label flush right");
            CK_EXPORT void customizeCellForFlush(ck_cell *cell, ck_index_path ip) {
                ck_rect frame;
                ck_set_accessory(cell, ip.row == 0 ? CK_ACCESSORY_CHECKMARK : CK_ACCESSORY_NONE);
                cell->host->view_get_frame(cell->host->cell_part(cell, CK_PART_CONTENT_VIEW), &frame);
                ck_view *end = cell->host->view_with_tag(cell, 7);
                if (!end) end = cell->host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){0, 0, 3, 1}, 7);
                cell->host->view_set_frame(end, (ck_rect){frame.width - 3, 0, 3, 1});
                ck_set_text(end, "END");
            }
            """
        let folder = try setUp(source, table: "style: plain\nsections:\n  - {cell: Flush, rows: 2}\n")
        let (status, text) = try render(folder)
        #expect(status == 0, "\(text)")
        let rows = text.split(separator: "\n").filter { $0.contains("EN") }
        #expect(rows.count == 2, "\(text)")
        #expect(rows.allSatisfy { $0.contains("END") }, "both rows show the whole label:\n\(text)")
        #expect(rows.first?.contains("END✓") == true, "flush against the checkmark:\n\(text)")
    }

    @Test("a plugin built against the 1.1 header loads, lists and renders unchanged")
    func oldPlugin() throws {
        let header = Render.root + "/Tests/CellKitRuntimeTests/Fixtures/cellkit-1.1.h"
        let source = """
            #include "cellkit.h"
            _Static_assert(CK_ABI_MINOR == 1, "built against the 1.1 header");
            CK_PLUGIN("Old", "1.1.0", "built against ABI 1.1");
            CK_EXPORT void customizeCellForOld(ck_cell *cell, ck_index_path ip) {
                const char *name = NULL;
                (void)ip;
                cell->host->data_string(cell->host->row_data(cell), "name", &name);
                ck_set_text(ck_text_label(cell), name ? name : "?");
                ck_apply_style(ck_text_label(cell), "plain");
            }
            """
        let folder = try setUp(
            source, table: "stylesheet: styles.yaml\nsections:\n  - {cell: Old, rows: [{name: still here}]}\n",
            styles: "styles:\n  plain: {numberOfLines: 1}\n", header: header)
        let (listed, list) = try command.cellkit(["list", "--plugin-path", folder])
        #expect(listed == 0 && list.contains("Old"), "\(list)")
        #expect(list.contains("1.1"), "list shows the ABI the plugin was built for:\n\(list)")
        let (status, text) = try render(folder)
        #expect(status == 0 && text.contains("still here"), "\(text)")
    }
}
