// Right to left for plugin cells (issue 41, ABI 1.4): a hook reads its row's direction
// (CK_CELL_LAYOUT_DIRECTION, ck_cell_is_right_to_left); right to left the content view starts past
// the accessory on the left, a subview with an autoresizing mask is placed by its leading edge (its
// frame mirrored within the content view, as UIKit's leading and trailing constraints are), and one
// without keeps its frame in the content view. Nothing overwrites anything in text, ANSI or JSON; the
// table's header and footer and a plain section's header read from the right; `cellkit check` fails a
// row whose views overlap only right to left. (The same cells in Chromium: RightToLeftBrowserTests.)

import CellKitDiscovery
import CellKitModel
import CellKitRuntime
import CellKitTestSupport
import CellKitText
import Foundation
import Testing

@testable import CellKitRendering

@Suite("Right-to-left plugin cells")
struct RightToLeftPluginTests {
    /// Masked: a title across the row (flexible width) and a badge against the right edge (flexible
    /// left margin) that says which way its hook read the row, a chevron. Hand: one label placed by hand
    /// (no mask), a chevron. Probe: the direction as cell_get_int reads it, and what setting it answers.
    /// Half: a label by hand and a masked badge, which collide right to left. Indented: an indented text
    /// label over a subview placed by hand on the row's second line. Level: an indented text label and an
    /// accessory (a standard one, the disclosure indicator unless the row's data says).
    static let plugin = """
        #include <stdio.h>
        #include "cellkit.h"
        CK_PLUGIN("RightToLeftCells", "1.0.0", "plugin cells right to left");
        static ck_rect content(ck_cell *cell) {
            ck_rect r = {0, 0, 0, 0};
            cell->host->view_get_frame(cell->host->cell_part(cell, CK_PART_CONTENT_VIEW), &r);
            return r;
        }
        static const char *text(ck_cell *cell, const char *fallback) {
            const char *s = fallback;
            cell->host->data_string(cell->host->row_data(cell), "text", &s);
            return s;
        }
        CK_EXPORT void initCellForMasked(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            ck_set_accessory(cell, CK_ACCESSORY_DISCLOSURE_INDICATOR);
            ck_rect r = content(cell);
            ck_view *title = cell->host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){1, 0, r.width - 7, 1}, 1);
            cell->host->view_set_int(title, CK_VIEW_AUTORESIZING_MASK, CK_AUTORESIZE_FLEXIBLE_WIDTH);
            ck_view *badge = cell->host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){r.width - 5, 0, 4, 1}, 2);
            cell->host->view_set_int(badge, CK_VIEW_AUTORESIZING_MASK, CK_AUTORESIZE_FLEXIBLE_LEFT_MARGIN);
        }
        CK_EXPORT void customizeCellForMasked(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            ck_set_text(cell->host->view_with_tag(cell, 1), text(cell, "Mixed"));
            ck_set_text(cell->host->view_with_tag(cell, 2), ck_cell_is_right_to_left(cell) ? "(rt)" : "(lt)");
        }
        CK_EXPORT void initCellForHand(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            ck_set_accessory(cell, CK_ACCESSORY_DISCLOSURE_INDICATOR);
            cell->host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){1, 0, 10, 1}, 1);
        }
        CK_EXPORT void customizeCellForHand(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            ck_set_text(cell->host->view_with_tag(cell, 1), text(cell, "Mixed"));
        }
        CK_EXPORT void customizeCellForProbe(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            int64_t d = -1;
            cell->host->cell_set_int(cell, CK_CELL_STYLE, CK_STYLE_SUBTITLE);
            ck_set_text(ck_text_label(cell), text(cell, "probe"));
            ck_status got = cell->host->cell_get_int(cell, CK_CELL_LAYOUT_DIRECTION, &d);
            ck_status set = cell->host->cell_set_int(cell, CK_CELL_LAYOUT_DIRECTION, 0);
            char s[64];
            snprintf(s, sizeof s, "d=%lld got=%d set=%d rtl=%d", (long long)d, got, set, ck_cell_is_right_to_left(cell));
            ck_set_text(ck_detail_text_label(cell), s);
        }
        CK_EXPORT void initCellForHalf(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            ck_rect r = content(cell);
            cell->host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){1, 0, 20, 1}, 1);
            ck_view *badge = cell->host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){r.width - 5, 0, 4, 1}, 2);
            cell->host->view_set_int(badge, CK_VIEW_AUTORESIZING_MASK, CK_AUTORESIZE_FLEXIBLE_LEFT_MARGIN);
        }
        CK_EXPORT void customizeCellForHalf(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            ck_set_text(cell->host->view_with_tag(cell, 1), "Title");
            ck_set_text(cell->host->view_with_tag(cell, 2), "(42)");
        }
        CK_EXPORT void initCellForIndented(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            cell->host->cell_set_double(cell, CK_CELL_ROW_HEIGHT, 2);
            ck_set_text(cell->host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){1, 1, 12, 1}, 1), "Placed");
        }
        CK_EXPORT void customizeCellForIndented(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            double level = 0;
            cell->host->data_number(cell->host->row_data(cell), "level", &level);
            cell->host->cell_set_int(cell, CK_CELL_INDENTATION_LEVEL, (int64_t)level);
            ck_set_text(ck_text_label(cell), text(cell, "Indented"));
        }
        CK_EXPORT void customizeCellForLevel(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            double level = 0, accessory = CK_ACCESSORY_DISCLOSURE_INDICATOR;
            cell->host->data_number(cell->host->row_data(cell), "level", &level);
            cell->host->data_number(cell->host->row_data(cell), "accessory", &accessory);
            cell->host->cell_set_int(cell, CK_CELL_INDENTATION_LEVEL, (int64_t)level);
            ck_set_accessory(cell, (ck_accessory_type)accessory);
            ck_set_text(ck_text_label(cell), text(cell, "Level"));
        }
        """

    /// The masked, hand-placed and probe rows, in a table of `direction`.
    static func document(_ direction: String, style: String = "plain") -> String {
        """
        title: RTL
        style: \(style)
        direction: \(direction)
        header: "\u{05DB}\u{05D5}\u{05EA}\u{05E8}\u{05EA}"
        footer: "\u{05E1}\u{05D5}\u{05E3}"
        sections:
          - header: "\u{05E8}\u{05D0}\u{05E9}\u{05D9}"
            rows:
              - {cell: Masked, text: "\u{05D3}\u{05D5}\u{05D7}"}
              - {cell: Hand}
              - {cell: Probe}
          - header: Auto
            direction: auto
            rows:
              - {cell: Probe, text: "\u{05E9}\u{05DC}\u{05D5}\u{05DD}"}
              - {cell: Probe, text: Hello}
        """
    }

    /// The plugin built into a new folder with a table of `direction`; the folder and a registry.
    static func setUp(_ direction: String, style: String = "plain", name: String = #function) throws -> (
        String, CellRegistry
    ) {
        let folder = try Render.write(["t.yaml": document(direction, style: style)], name: name + direction + style)
        try Fixtures.compileC(plugin, name: "rtlcells", in: folder)
        return (folder, Fixtures.registry([folder, Fixtures.buildDirectory]))
    }

    /// The rows of `direction`'s table as laid out at `width` (each render one renderer, cells reused).
    static func rows(_ direction: String, widths: [Int] = [40], name: String = #function) throws -> [[RowLayout]] {
        let (folder, registry) = try setUp(direction, name: name)
        return try Render.rows(of: folder + "/t.yaml", registry: registry, widths: widths)
    }

    static func overlap(_ a: Rect, _ b: Rect) -> Bool {
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    }

    @Test("masked subviews and the accessory mirror whole: each at the row's width less its left-to-right end")
    func maskedMirror() throws {
        let ltr = try Self.rows("ltr")[0][0], rtl = try Self.rows("rtl")[0][0]
        #expect(!ltr.isRightToLeft && rtl.isRightToLeft)
        try #require(ltr.views.count == 3 && rtl.views.count == 3, "\(rtl.views.map(\.role))")
        for (l, r) in zip(ltr.views, rtl.views) {
            #expect(l.role == r.role && l.tag == r.tag)
            #expect(r.frame.x == 40 - l.frame.x - l.frame.width && r.frame.width == l.frame.width, "\(l.role) \(l.tag)")
        }
        let badge = try #require(rtl.views.first { $0.tag == 2 }), accessory = try #require(rtl.views.last)
        #expect(accessory.frame.x == 1 && badge.frame.x == 3 && accessory.lines == ["‹"])
        #expect(badge.lines == ["(rt)"] && ltr.views.first { $0.tag == 2 }?.lines == ["(lt)"], "the hook read it")
        let title = try #require(rtl.views.first { $0.tag == 1 })
        #expect(title.alignment == .right, "natural alignment is the leading edge")
        for a in rtl.views.indices {
            for b in rtl.views.indices where b > a {
                #expect(
                    !Self.overlap(rtl.views[a].frame, rtl.views[b].frame), "\(rtl.views[a].role) \(rtl.views[b].role)")
            }
        }
    }

    @Test("a subview placed by hand keeps its frame in the content view, which starts past the mirrored accessory")
    func handPlaced() throws {
        let ltr = try Self.rows("ltr")[0][1], rtl = try Self.rows("rtl")[0][1]
        let l = try #require(ltr.views.first { $0.tag == 1 }), r = try #require(rtl.views.first { $0.tag == 1 })
        #expect(l.frame.x == 1 && r.frame.x == 2 + 1, "the content view starts at column 2: \(r.frame)")
        let accessory = try #require(rtl.views.last)
        #expect(accessory.role == .accessory && accessory.frame.x + accessory.frame.width <= r.frame.x)
    }

    @Test("shown at another width right to left, a flexible left margin acts as the right one: the badge stays left")
    func resized() throws {
        let renders = try Self.rows("rtl", widths: [40, 60, 30])
        for rows in renders {
            let row = rows[0], width = rows[0].width
            let badge = try #require(row.views.first { $0.tag == 2 }),
                title = try #require(row.views.first { $0.tag == 1 })
            #expect(badge.frame.x == 3 && badge.frame.width == 4, "at \(width): \(badge.frame)")
            #expect(title.frame.x + title.frame.width == width - 1, "at \(width): \(title.frame)")
            #expect(!Self.overlap(badge.frame, title.frame))
        }
    }

    @Test("hooks read the direction: rtl, ltr, and in an auto section the text label's as they set it; read-only")
    func probe() throws {
        let rtl = try Self.rows("rtl")[0], ltr = try Self.rows("ltr")[0]
        func detail(_ row: RowLayout) -> String? {
            row.views.first { $0.role == .detailTextLabel }?.lines.first.map(String.init)
        }
        #expect(detail(rtl[2])?.hasPrefix("d=1 got=0 set=7 rtl=1") == true, "\(detail(rtl[2]) ?? "")")
        #expect(detail(ltr[2])?.hasPrefix("d=0 got=0 set=7 rtl=0") == true, "\(detail(ltr[2]) ?? "")")
        #expect(detail(ltr[3])?.hasPrefix("d=1") == true && detail(ltr[4])?.hasPrefix("d=0") == true, "auto")
        #expect(ltr[3].isRightToLeft && !ltr[4].isRightToLeft)
    }

    /// Row lines of `output` (colours taken out) that hold `text`.
    static func line(_ output: String, _ text: String) throws -> String {
        let plain = output.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        return try #require(plain.components(separatedBy: "\n").first { $0.contains(text) }, "\(text) in \(plain)")
    }

    @Test("text and ANSI: the chevron, the badge and the labels side by side, none overwriting another")
    func textAndANSI() throws {
        let (folder, registry) = try Self.setUp("rtl")
        for format in [Render.Format.text, .ansi] {
            let output = try Render.table(folder + "/t.yaml", format, width: 40, registry: registry).output
            let masked = try Self.line(output, "\u{05D3}\u{05D5}\u{05D7}")
            #expect(
                masked.hasPrefix(" ‹ (rt)") && masked.hasSuffix("\u{05D3}\u{05D5}\u{05D7} "), "\(format): \(masked)")
            let hand = try Self.line(output, "ixed")
            #expect(hand.hasPrefix(" ‹") && hand.contains(" Mixed") && !hand.contains("‹ixed"), "\(format): \(hand)")
        }
        let (ltrFolder, ltrRegistry) = try Self.setUp("ltr")
        let ltr = try Render.table(ltrFolder + "/t.yaml", .text, width: 40, registry: ltrRegistry).output
        let masked = try Self.line(ltr, "\u{05D3}\u{05D5}\u{05D7}")
        #expect(masked.hasPrefix(" \u{05D3}\u{05D5}\u{05D7}") && masked.hasSuffix("(lt) › "), "\(masked)")
    }

    @Test("JSON: the mirrored row says so, its frames mirrored, the badge as its hook set it")
    func json() throws {
        let (folder, registry) = try Self.setUp("rtl")
        let output = try Render.table(folder + "/t.yaml", .json, width: 40, registry: registry).output
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let rows = (parsed["sections"] as! [[String: Any]]).flatMap { $0["rows"] as! [[String: Any]] }
        #expect(rows[0]["direction"] as? String == "rtl")
        let views = rows[0]["views"] as! [[String: Any]]
        let frames = views.map { ($0["tag"] as? Int ?? 0, ($0["frame"] as! [String: Int])["x"]!) }
        #expect(frames.map(\.1) == [8, 3, 1], "title, badge, accessory: \(frames)")
        #expect(views[1]["lines"] as? [String] == ["(rt)"])
    }

    @Test("text: the table's header and footer and a plain section's header against the right edge")
    func headersFromTheRight() throws {
        let (folder, registry) = try Self.setUp("rtl")
        let output = try Render.table(folder + "/t.yaml", .text, width: 40, registry: registry).output
        for text in [
            "\u{05DB}\u{05D5}\u{05EA}\u{05E8}\u{05EA}", "\u{05E1}\u{05D5}\u{05E3}", "\u{05E8}\u{05D0}\u{05E9}\u{05D9}",
        ] {
            let line = try Self.line(output, text)
            #expect(line.hasPrefix("     ") && line.trimmingCharacters(in: .whitespaces) == text, "\(line)")
            #expect(TextWidth.columns(line) - line.reversed().prefix { $0 == " " }.count >= 37, "\(line)")
        }
        let (ltrFolder, ltrRegistry) = try Self.setUp("ltr")
        let ltr = try Render.table(ltrFolder + "/t.yaml", .text, width: 40, registry: ltrRegistry).output
        #expect(try Self.line(ltr, "\u{05DB}\u{05D5}\u{05EA}\u{05E8}\u{05EA}").hasPrefix(" \u{05DB}"))
    }

    @Test("a plugin built against an older header (ABI 1.2) loads and draws right to left, with no warning")
    func olderPlugin() throws {
        let source = """
            #include "cellkit.h"
            #undef CK_ABI_MINOR
            #define CK_ABI_MINOR 2
            CK_PLUGIN("Older", "1.0.0", "built against ABI 1.2");
            CK_EXPORT void customizeCellForOlder(ck_cell *cell, ck_index_path ip) {
                (void)ip;
                ck_set_text(ck_text_label(cell), "\u{05D9}\u{05E9}\u{05DF}");
                ck_set_accessory(cell, CK_ACCESSORY_DISCLOSURE_INDICATOR);
            }
            """
        let folder = try Render.write(["t.yaml": "direction: rtl\nsections:\n  - {cell: Older, rows: 1}\n"])
        try Fixtures.compileC(source, name: "older", in: folder)
        let registry = Fixtures.registry([folder])
        #expect(try PluginFile.read(path: folder + "/libolder.so").get().descriptor.abiMinor == 2)
        #expect(try registry.cellType(named: "Older").pluginPath.hasSuffix("libolder.so"))
        let (output, warnings) = try Render.table(folder + "/t.yaml", .text, width: 30, registry: registry)
        #expect(warnings.isEmpty, "\(warnings)")
        let line = try Self.line(output, "\u{05D9}\u{05E9}\u{05DF}")
        #expect(line.hasPrefix(" ‹") && line.hasSuffix("\u{05D9}\u{05E9}\u{05DF} "), "\(line)")
    }

    @Test("what check fails: views overlapping or a subview cut only right to left; what overlaps both ways is not")
    func problems() {
        func row(_ views: [(PlacedView.Role, Int, Int, Int)]) -> RowLayout {
            RowLayout(
                indexPath: IndexPath(section: 0, row: 0), identifier: "T", width: 40, height: 2, position: .single,
                isSelected: false, background: Fill(), backgroundColor: nil,
                views: views.map { role, tag, x, width in
                    var view = PlacedView(role: role, frame: Rect(x: x, y: 0, width: width, height: 1))
                    view.tag = tag
                    return view
                })
        }
        // Tags 1 and 2 apart, then overlapping; 3 over 4 both ways (a sticker on a photo); 5 cut from 10 to 4.
        let ltr = row([
            (.subview, 1, 1, 20), (.subview, 2, 30, 4), (.subview, 3, 22, 2), (.subview, 4, 21, 6),
            (.subview, 5, 28, 10), (.accessory, 0, 38, 1),
        ])
        let rtl = row([
            (.subview, 1, 3, 20), (.subview, 2, 6, 4), (.subview, 3, 25, 2), (.subview, 4, 24, 6),
            (.subview, 5, 36, 4), (.accessory, 0, 1, 1),
        ])
        let (overlaps, clipped) = RowLayout.rightToLeftProblems(ltr: ltr, rtl: rtl)
        #expect(overlaps == [["subview tag 1 (x 3, width 20)", "subview tag 2 (x 6, width 4)"]], "\(overlaps)")
        #expect(clipped == ["subview tag 5 (10 columns left to right, 4 at x 36 right to left)"], "\(clipped)")
        let same = RowLayout.rightToLeftProblems(ltr: ltr, rtl: ltr)
        #expect(same.overlaps.isEmpty && same.clipped.isEmpty)
    }

    @Test("check fails subviews that overlap only right to left, naming the type and tags; masked ones are clean")
    func check() throws {
        let folder = try Fixtures.folder("rtlcheck")
        try Fixtures.compileC(Self.plugin, name: "rtlcells", in: folder)
        let half = try Fixtures.execute(
            Fixtures.cellkit, ["check", "Half", "--plugin-path", folder, "--sandbox", "off"])
        let text = half.output + half.errors
        #expect(half.status == 1, "\(text)")
        #expect(text.contains("right to left (direction: rtl), cell type Half's subview tag 1"), "\(text)")
        #expect(text.contains("overlaps subview tag 2"), "\(text)")
        #expect(text.contains("give every subview of the row an autoresizing mask (CK_VIEW_AUTORESIZING_MASK"))
        for clean in ["Masked", "Hand"] {
            let result = try Fixtures.execute(
                Fixtures.cellkit, ["check", clean, "--plugin-path", folder, "--sandbox", "off"])
            #expect(result.status == 0 && !(result.output + result.errors).contains("right to left"), "\(clean)")
        }
    }
}
