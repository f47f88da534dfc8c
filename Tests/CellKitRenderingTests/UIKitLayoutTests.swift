// Where the layout follows UIKit's UITableViewCell (issue 26's divergences), one case each,
// checked on the laid-out rows themselves, whatever format draws them.

import CellKitDocuments
import CellKitModel
import CellKitRendering
import CellKitRuntime
import CellKitTestSupport
import Foundation
import Testing

@Suite("Layout follows UIKit's table cells")
struct UIKitLayoutTests {
    /// The rows of `yaml` (a table document) laid out `width` columns wide, with `plugin` (C source,
    /// if any) beside it; the context's warnings too.
    private func laidOut(
        _ yaml: String, plugin: String? = nil, width: Int = 40, selected: CellKitModel.IndexPath? = nil,
        name: String = #function
    ) throws -> (rows: [RowLayout], warnings: [String]) {
        let folder = try Render.write(["table.yaml": yaml], name: name)
        var paths = [Fixtures.buildDirectory]
        if let plugin {
            try Fixtures.compileC(plugin, name: "uikit", in: folder)
            paths.insert(folder, at: 0)
        }
        let registry = Fixtures.registry(paths)
        let document = try TableDocument(contentsOf: folder + "/table.yaml")
        let queue = CellQueue(registry: registry)
        let renderer = TableRenderer(queue: queue, layout: CellLayout(assets: document.assets), width: width)
        renderer.selected = selected
        var capture = CapturedRows()
        try renderer.render(
            DocumentTable(document, registry: registry), delegate: nil, format: &capture, to: OutputBuffer(StringSink())
        )
        return (capture.rows, queue.context.warnings)
    }

    private func view(_ row: RowLayout, _ role: PlacedView.Role) -> PlacedView? { row.views.first { $0.role == role } }

    @Test("value1: the detail gets the room the text leaves, not half the row (Settings' Wi-Fi row)")
    func value1FreeSpace() throws {
        let (rows, _) = try laidOut(
            "style: plain\nsections:\n  - cell: Value1\n    rows:\n      - {text: Wi-Fi, detail: MyHomeNetwork-5GHz-Upstairs}\n"
                + "      - {text: A rather long title here, detail: A rather long detail too}\n")
        #expect(view(rows[0], .detailTextLabel)?.lines == ["MyHomeNetwork-5GHz-Upstairs"])
        #expect(view(rows[0], .textLabel)?.lines == ["Wi-Fi"])
        // Both too wide: the detail keeps half the row, the text the rest; both truncated.
        let detail = try #require(view(rows[1], .detailTextLabel))
        let text = try #require(view(rows[1], .textLabel))
        #expect(detail.frame.width >= (rows[1].width - 2) / 2 - 1 && text.frame.width >= 10, "\(rows[1].views)")
        #expect(detail.frame.x > text.frame.x + text.frame.width)
    }

    static let multilineValue1 = """
        #include "cellkit.h"
        CK_PLUGIN("UIKitCases", "1.0.0", "layout cases");
        CK_EXPORT void initCellForNotes(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            cell->host->cell_set_int(cell, CK_CELL_STYLE, CK_STYLE_VALUE1);
            cell->host->view_set_int(ck_detail_text_label(cell), CK_VIEW_NUMBER_OF_LINES, 0);
        }
        CK_EXPORT void customizeCellForNotes(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            ck_set_text(ck_text_label(cell), "Notes");
            ck_set_text(ck_detail_text_label(cell), "one two three four five six seven eight nine ten eleven twelve");
        }
        CK_EXPORT void initCellForTall(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            cell->host->cell_set_double(cell, CK_CELL_ROW_HEIGHT, 3);
        }
        CK_EXPORT void customizeCellForTall(ck_cell *cell, ck_index_path ip) { (void)ip; ck_set_text(ck_text_label(cell), "t"); }
        CK_SIGNATURE(heightForCellForTall, "double (row)");
        CK_EXPORT double heightForCellForTall(int64_t row) { return row == 0 ? 0 : 2; }
        CK_EXPORT void customizeCellForBlue(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            cell->host->cell_set_int(cell, CK_CELL_SELECTION_STYLE, CK_SELECTION_BLUE);
            ck_set_accessory(cell, CK_ACCESSORY_CHECKMARK);
            ck_set_text(ck_text_label(cell), "chosen");
        }
        """

    @Test("value1: a wrapping detail is measured at its own width, so none of it is cut")
    func value1Wraps() throws {
        let (rows, _) = try laidOut("sections:\n  - {cell: Notes, rows: 1}\n", plugin: Self.multilineValue1)
        let detail = try #require(view(rows[0], .detailTextLabel))
        #expect(detail.lines.joined(separator: " ").hasSuffix("eleven twelve"), "\(detail.lines)")
        #expect(rows[0].height == detail.lines.count)
    }

    @Test("a height hook answering 0 leaves the cell's own rowHeight, as UIKit's automatic dimension")
    func heightZeroKeepsCellHeight() throws {
        let (rows, _) = try laidOut("sections:\n  - {cell: Tall, rows: 2}\n", plugin: Self.multilineValue1)
        #expect(rows.map(\.height) == [3, 2])
    }

    @Test("the default selection is UIKit's grey (iOS 7 on), and text on it keeps its colour")
    func greySelection() throws {
        let (rows, _) = try laidOut(
            "sections:\n  - cell: Default\n    rows: [{text: picked, accessory: checkmark}]\n",
            selected: CellKitModel.IndexPath(section: 0, row: 0))
        #expect(rows[0].isSelected)
        #expect(rows[0].backgroundColor == Color(red: 0xD1, green: 0xD1, blue: 0xD6))
        #expect(view(rows[0], .textLabel)?.textColor != Color(red: 255, green: 255, blue: 255))
        #expect(view(rows[0], .accessory)?.textColor == Color(red: 0x00, green: 0x7A, blue: 0xFF))  // visible on grey
    }

    @Test("on the blue selection text and a checkmark turn white: never tint on tint")
    func blueSelection() throws {
        let (rows, _) = try laidOut(
            "sections:\n  - {cell: Blue, rows: 1}\n", plugin: Self.multilineValue1,
            selected: CellKitModel.IndexPath(section: 0, row: 0))
        let white = Color(red: 255, green: 255, blue: 255)
        #expect(rows[0].backgroundColor == Color(red: 0x00, green: 0x7A, blue: 0xFF))
        #expect(view(rows[0], .textLabel)?.textColor == white)
        #expect(view(rows[0], .accessory)?.textColor == white)
    }

    @Test("detailDisclosureButton draws the info button and the chevron; an unknown name warns with the list")
    func accessories() throws {
        let (rows, warnings) = try laidOut(
            "sections:\n  - cell: Default\n    rows: [{text: a, accessory: detailDisclosureButton},"
                + " {text: b, accessory: chevron}, {text: c, accessory: chevron}]\n"
        )
        #expect(view(rows[0], .accessory)?.lines == ["ⓘ›"])
        #expect(view(rows[1], .accessory) == nil)
        // Once, at the first row that gives it.
        let said = warnings.filter { $0.contains("the accessory 'chevron'") }
        #expect(
            said == [
                "Default rows: the accessory 'chevron' is not one of: none, disclosureIndicator, checkmark,"
                    + " detailButton, detailDisclosureButton; drawn with none (first at row 1.2)"
            ], "\(warnings)")
    }

    @Test("a list or a mapping where a built-in cell wants one value warns instead of vanishing")
    func listWhereOneValue() throws {
        let (rows, warnings) = try laidOut(
            "sections:\n  - cell: Default\n    rows: [{text: [a, b], accessory: [checkmark]}, {text: {x: 1}}]\n")
        #expect(view(rows[0], .accessory) == nil)
        #expect(warnings.contains { $0.contains("Default rows: 'accessory' is a list, not drawn") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("Default rows: 'text' is a list, not drawn") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("Default rows: 'text' is a mapping, not drawn") }, "\(warnings)")
    }
}
