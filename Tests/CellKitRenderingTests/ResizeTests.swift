// Layout under a change of width (issue 32): a reused cell shown at another width than it was
// laid out at never keeps the old width's frames. A subview with an autoresizing mask follows the
// content view (a right-aligned badge keeps its place against the right edge; a label across the
// row grows and shrinks), and `layoutSubviewsFor<Id>` runs so a hook can place views itself; a
// cell made at the new width, or shown again at the same one, is not laid out again.

import CellKitModel
import CellKitRendering
import CellKitRuntime
import CellKitTestSupport
import Foundation
import Testing

@Suite("Layout after a change of width")
struct ResizeTests {
    /// Badge: a 4-column count against the right edge, placed once in init (the pattern the guides
    /// show), flexible left margin; a title label across the row, flexible width. Placed: no mask,
    /// a layoutSubviews hook that moves its count against the right edge and counts its calls.
    static let plugin = """
        #include "cellkit.h"
        CK_PLUGIN("Resizing", "1.0.0", "cells laid out at one width, shown at another");
        static int layouts = 0;
        static ck_rect content(ck_cell *cell) {
            ck_rect r = {0, 0, 0, 0};
            cell->host->view_get_frame(cell->host->cell_part(cell, CK_PART_CONTENT_VIEW), &r);
            return r;
        }
        CK_EXPORT void initCellForBadge(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            ck_rect r = content(cell);
            ck_view *count = cell->host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){r.width - 5, 0, 4, 1}, 1);
            cell->host->view_set_int(count, CK_VIEW_AUTORESIZING_MASK, CK_AUTORESIZE_FLEXIBLE_LEFT_MARGIN);
            ck_set_text(count, "(42)");
            ck_view *title = cell->host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){1, 0, r.width - 7, 1}, 2);
            cell->host->view_set_int(title, CK_VIEW_AUTORESIZING_MASK, CK_AUTORESIZE_FLEXIBLE_WIDTH);
        }
        CK_EXPORT void customizeCellForBadge(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            ck_set_text(cell->host->view_with_tag(cell, 2), "Inbox");
        }
        CK_EXPORT void initCellForPlaced(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            ck_rect r = content(cell);
            ck_set_text(cell->host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){r.width - 5, 0, 4, 1}, 1), "(7)");
        }
        CK_EXPORT void customizeCellForPlaced(ck_cell *cell, ck_index_path ip) { (void)cell; (void)ip; }
        CK_EXPORT void layoutSubviewsForPlaced(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            layouts++;
            ck_rect r = content(cell);
            cell->host->view_set_frame(cell->host->view_with_tag(cell, 1), (ck_rect){r.width - 5, 0, 4, 1});
            char text[16];
            snprintf(text, sizeof text, "L%d", layouts);
            ck_set_text(ck_text_label(cell), text);
        }
        """

    /// Renders the table at each of `widths` in turn with one renderer (its cells reused, as
    /// `cellkit browse` redraws after a resize); the rows of each render.
    static func rows(at widths: [Int], name: String = #function) throws -> [[RowLayout]] {
        let folder = try Render.write(
            ["t.yaml": "style: plain\nsections:\n  - {cell: Badge, rows: 2}\n  - {cell: Placed, rows: 1}\n"],
            name: name)
        try Fixtures.compileC("#include <stdio.h>\n" + plugin, name: "resizing", in: folder)
        let registry = Fixtures.registry([folder])
        return try Render.rows(of: folder + "/t.yaml", registry: registry, widths: widths)
    }

    static func frame(_ row: RowLayout, tag: Int) -> Rect? { row.views.first { $0.tag == tag }?.frame }

    @Test("a flexible left margin keeps a badge against the right edge; a flexible width follows the row")
    func masks() throws {
        let renders = try Self.rows(at: [100, 50, 100])
        for rows in renders {
            let width = rows[0].width
            let badge = try #require(Self.frame(rows[0], tag: 1)), title = try #require(Self.frame(rows[0], tag: 2))
            #expect(badge.x == width - 1 - 5 && badge.width == 4, "at \(width): \(badge)")
            #expect(title.x == 1 && title.width == width - 1 - 7, "at \(width): \(title)")
            #expect(rows[0].views.contains { $0.tag == 1 && $0.lines == ["(42)"] }, "the count is drawn at \(width)")
        }
    }

    @Test("layoutSubviewsFor runs when, and only when, a reused cell's width changed")
    func hook() throws {
        let renders = try Self.rows(at: [80, 80, 60, 60, 90])
        let placed = renders.map { $0[2] }
        let texts = placed.map { row in row.views.first { $0.role == .textLabel }?.lines.first ?? "" }
        // A new cell at 80 (no call), reused at 80 (no call), at 60 (1), at 60 (none), at 90 (2).
        #expect(texts == ["", "", "L1", "L1", "L2"], "\(texts)")
        for row in placed { #expect(Self.frame(row, tag: 1)?.x == row.width - 1 - 5, "\(row.width)") }
    }

    @Test("the mask's arithmetic: shares in proportion, the remainder to the first flexible part")
    func arithmetic() {
        let frame = Rect(x: 10, y: 0, width: 20, height: 1)
        #expect(AutoresizingMask.flexibleLeftMargin.resize(frame, from: 50, to: 30).x == -10)
        #expect(AutoresizingMask.flexibleWidth.resize(frame, from: 50, to: 70).width == 40)
        let both: AutoresizingMask = [.flexibleLeftMargin, .flexibleWidth, .flexibleRightMargin]
        let grown = both.resize(frame, from: 50, to: 100)  // parts 10, 20, 20 of 50: +10, +20, +20
        #expect(grown.x == 20 && grown.width == 40)
        #expect(AutoresizingMask().resize(frame, from: 50, to: 10) == frame)
        #expect(AutoresizingMask.flexibleWidth.resize(frame, from: 50, to: 20).width == 0, "never below 0")
    }

    @Test("check shows reused cells at other widths: a badge placed once without a mask is a FAIL, with one clean")
    func check() throws {
        for (mask, clean) in [("0", false), ("CK_AUTORESIZE_FLEXIBLE_LEFT_MARGIN", true)] {
            let folder = try Fixtures.folder("resizecheck\(clean)")
            let source = """
                #include "cellkit.h"
                CK_PLUGIN("Badges", "1.0.0", "a badge against the right edge");
                CK_EXPORT void initCellForBadge(ck_cell *cell, ck_index_path ip) {
                    (void)ip;
                    ck_rect r = {0, 0, 0, 0};
                    cell->host->view_get_frame(cell->host->cell_part(cell, CK_PART_CONTENT_VIEW), &r);
                    ck_view *v = cell->host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){r.width - 5, 0, 4, 1}, 1);
                    cell->host->view_set_int(v, CK_VIEW_AUTORESIZING_MASK, \(mask));
                }
                CK_EXPORT void customizeCellForBadge(ck_cell *cell, ck_index_path ip) {
                    (void)ip;
                    ck_set_text(cell->host->view_with_tag(cell, 1), "(42)");
                }
                """
            try Fixtures.compileC(source, name: "badges", in: folder)
            let result = try Fixtures.execute(
                Fixtures.cellkit, ["check", folder + "/libbadges.so", "--sandbox", "off"])
            let text = result.output + result.errors
            if clean {
                #expect(result.status == 0 && text.contains("Clean"), "\(text)")
            } else {
                #expect(result.status == 1, "\(text)")
                #expect(text.contains("keeps subview tag 1 at x 52, width 4, outside its content view"), "\(text)")
                #expect(text.contains("CK_VIEW_AUTORESIZING_MASK) or place it in layoutSubviewsForBadge"), "\(text)")
            }
        }
    }
}
