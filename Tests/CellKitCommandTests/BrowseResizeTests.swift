// Issue 32 in the terminal: `cellkit browse` of cells that place a count against the right edge
// once, in init (a badge), then resized 100 → 50 → 100 columns in tmux. Reused cells must show
// the count on every row at every width: one plugin follows with an autoresizing mask, one places
// it again in layoutSubviewsFor<Id>. The laid-out rows are tested in ResizeTests; this is the
// terminal itself, with the worker and its cells kept across windows.

import CellKitTestSupport
import Foundation
import Testing

@Suite("cellkit browse after a resize", .enabled(if: Tmux.available, "tmux is missing (apt-get install tmux)"))
struct BrowseResizeTests {
    static let plugin = """
        #include "cellkit.h"
        CK_PLUGIN("Badges", "1.0.0", "counts against the right edge, placed in init");
        static ck_rect content(ck_cell *cell) {
            ck_rect r = {0, 0, 0, 0};
            cell->host->view_get_frame(cell->host->cell_part(cell, CK_PART_CONTENT_VIEW), &r);
            return r;
        }
        static void count(ck_cell *cell, int64_t mask) {
            ck_rect r = content(cell);
            ck_view *v = cell->host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){r.width - 5, 0, 4, 1}, 1);
            cell->host->view_set_int(v, CK_VIEW_AUTORESIZING_MASK, mask);
        }
        static void text(ck_cell *cell, const char *count) {
            const char *s = 0;
            if (cell->host->data_string(cell->host->row_data(cell), "text", &s) == CK_OK)
                ck_set_text(ck_text_label(cell), s);
            ck_set_text(cell->host->view_with_tag(cell, 1), count);
        }
        CK_EXPORT void initCellForMasked(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            count(cell, CK_AUTORESIZE_FLEXIBLE_LEFT_MARGIN);
        }
        CK_EXPORT void customizeCellForMasked(ck_cell *cell, ck_index_path ip) { (void)ip; text(cell, "[m7]"); }
        CK_EXPORT void initCellForHooked(ck_cell *cell, ck_index_path ip) { (void)ip; count(cell, 0); }
        CK_EXPORT void customizeCellForHooked(ck_cell *cell, ck_index_path ip) { (void)ip; text(cell, "[h7]"); }
        CK_EXPORT void layoutSubviewsForHooked(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            ck_rect r = content(cell);
            cell->host->view_set_frame(cell->host->view_with_tag(cell, 1), (ck_rect){r.width - 5, 0, 4, 1});
        }
        """

    /// Twelve rows of each type, the table as wide as the terminal.
    static func table() throws -> String {
        let rows = (1...12).map { "{text: \"Mail \($0)\"}" }.joined(separator: ", ")
        let folder = try Render.write([
            "t.yaml":
                "style: plain\nsections:\n  - {cell: Masked, rows: [\(rows)]}\n"
                + "  - {cell: Hooked, rows: [\(rows)]}\n"
        ])
        try Fixtures.compileC(plugin, name: "badges", in: folder)
        return folder
    }

    /// The screen's rows that show "Mail N", and whether each ends with its count at the right edge.
    static func counted(_ lines: [String], width: Int, count: String) -> (rows: Int, counted: Int) {
        let rows = lines.filter { $0.contains("Mail ") }
        // The count's last column is the content view's (width less the 1-column margin), 1 column in.
        let counted = rows.filter { $0.hasSuffix(count) && $0.count == width - 2 }
        return (rows.count, counted.count)
    }

    @Test("100 → 50 → 100 columns: the count on every row, with a mask and with layoutSubviewsFor")
    func resizes() throws {
        let folder = try Self.table()
        for (section, count, jump) in [(1, "[m7]", ""), (2, "[h7]", "13G")] {
            let tmux = try Tmux(
                BrowseTests.line("'\(folder)/t.yaml' --plugin-path '\(folder)'"), columns: 100, lines: 20)
            try tmux.wait("the first screen") { BrowseTests.status($0).contains("of 24") }
            if !jump.isEmpty { try tmux.type(jump) }
            for width in [100, 50, 100] {
                try tmux.run(["resize-window", "-t", "main", "-x", "\(width)", "-y", "20"])
                let lines = try tmux.wait("section \(section) at \(width) columns") {
                    let seen = Self.counted($0, width: width, count: count)
                    return seen.rows >= 5 && seen.rows == seen.counted
                }
                let seen = Self.counted(lines, width: width, count: count)
                #expect(seen.rows >= 5 && seen.rows == seen.counted, "\(count) at \(width): \(lines)")
            }
            try tmux.keys("q")
            try tmux.wait("the exit") { $0.contains("EXIT=0") && $0.contains("DONE") }
        }
    }
}
