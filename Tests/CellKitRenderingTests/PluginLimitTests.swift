import CellKitRuntime
import CellKitTestSupport
import Foundation
import Testing

/// A plugin whose every value is out of range: each identifier breaks one limit.
let bigPlugin = """
    #include <math.h>
    #include <stdint.h>
    #include <stdlib.h>
    #include <string.h>
    #include "cellkit.h"
    CK_PLUGIN("Big", "1.0.0", "values too big for any table");
    CK_EXPORT int row_height_status = -1, add_ok = 0, first_refused = -1, refused_status = -1;
    CK_EXPORT int indentation_status = -1, text_status = -1;
    CK_EXPORT char refused_message[256];
    CK_EXPORT int64_t text_length_read = -1;

    static void label(ck_cell *c) { ck_set_text(ck_text_label(c), "small"); }

    CK_EXPORT void customizeCellForHeightHuge(ck_cell *c, ck_index_path ip) { (void)ip; label(c); }
    CK_EXPORT double heightForCellForHeightHuge(ck_cell *c, ck_index_path ip) { (void)c; (void)ip; return 1e19; }
    CK_EXPORT void customizeCellForHeightInf(ck_cell *c, ck_index_path ip) { (void)ip; label(c); }
    CK_EXPORT double heightForCellForHeightInf(ck_cell *c, ck_index_path ip) { (void)c; (void)ip; return INFINITY; }
    CK_EXPORT void customizeCellForHeightNaN(ck_cell *c, ck_index_path ip) { (void)ip; label(c); }
    CK_EXPORT double heightForCellForHeightNaN(ck_cell *c, ck_index_path ip) { (void)c; (void)ip; return NAN; }

    CK_EXPORT void customizeCellForRowHeight(ck_cell *c, ck_index_path ip) {
        (void)ip;
        label(c);
        row_height_status = c->host->cell_set_double(c, CK_CELL_ROW_HEIGHT, 1e300);
    }

    CK_EXPORT void initCellForFrameHuge(ck_cell *c, ck_index_path ip) {
        (void)ip;
        ck_view *v = c->host->add_subview(c, CK_VIEW_LABEL, (ck_rect){0, 0, INT32_MAX, INT32_MAX}, 1);
        ck_set_text(v, "wide");
    }
    CK_EXPORT void initCellForFrameNegative(ck_cell *c, ck_index_path ip) {
        (void)ip;
        ck_view *v = c->host->add_subview(c, CK_VIEW_PLAIN, (ck_rect){INT32_MIN, INT32_MIN, INT32_MAX, INT32_MAX}, 1);
        v->host->view_set_int(v, CK_VIEW_BACKGROUND_COLOR, CK_RGB(255, 0, 0));
        label(c);
    }
    CK_EXPORT void customizeCellForImageHuge(ck_cell *c, ck_index_path ip) {
        (void)ip;
        ck_view *image = ck_image_view(c);
        ck_set_image(image, "star");
        image->host->view_set_frame(image, (ck_rect){INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX});
        label(c);
    }

    CK_EXPORT void customizeCellForLongText(ck_cell *c, ck_index_path ip) {
        (void)ip;
        size_t n = 10u << 20;
        char *text = malloc(n + 1);
        memset(text, 'a', n);
        text[n] = 0;
        /* an "é" (2 bytes) across the 64 KiB budget's end: the cut must not split it */
        text[65535] = (char)0xC3;
        text[65536] = (char)0xA9;
        text_status = ck_set_text(ck_text_label(c), text);
        free(text);
        const char *back = NULL;
        ck_view *l = ck_text_label(c);
        l->host->view_get_string(l, CK_VIEW_TEXT, &back);
        text_length_read = back ? (int64_t)strlen(back) : -1;
    }

    CK_EXPORT void initCellForManySubviews(ck_cell *c, ck_index_path ip) {
        (void)ip;
        for (int32_t tag = 1; tag <= 100000; tag++) {
            ck_view *v = c->host->add_subview(c, CK_VIEW_PLAIN, (ck_rect){0, 0, 1, 1}, tag);
            if (v) { add_ok++; continue; }
            if (first_refused < 0) {
                first_refused = tag;
                const char *why = c->host->last_error(c);
                strncpy(refused_message, why ? why : "(null)", sizeof refused_message - 1);
            }
        }
        label(c);
    }

    CK_EXPORT void customizeCellForIndented(ck_cell *c, ck_index_path ip) {
        (void)ip;
        label(c);
        indentation_status = c->host->cell_set_int(c, CK_CELL_INDENTATION_LEVEL, 1000000);
    }
    """

@Suite("Plugin values out of range: clamped, budgeted, reported")
struct PluginLimitTests {
    let folder: String
    let library: String
    let registry: CellRegistry

    init() throws {
        folder = try Fixtures.folder("limits")
        library = try Fixtures.compileC(bigPlugin, name: "big", in: folder, extraFlags: ["-lm"])
        registry = Fixtures.registry([folder])
    }

    /// One row of `cell` rendered as text 40 columns wide; the warnings, the output and how long it took.
    func render(_ cell: String, rows: Int = 1) throws -> (output: String, warnings: [String], seconds: Double) {
        let document = try Render.write(
            [
                "t.yaml": "width: 40\nassets: a.yaml\nsections:\n  - cell: \(cell)\n    rows: \(rows)\n",
                "a.yaml": "images:\n  star: {glyph: \"*\"}\n",
            ],
            name: "limits\(cell)")
        let start = ContinuousClock.now
        let (output, warnings) = try Render.table(document + "/t.yaml", .text, registry: registry)
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        // Several of these types have only an init hook on purpose: that warning is not what is tested.
        return (output, warnings.filter { !$0.contains("has no customizeCellFor") }, seconds)
    }

    func counter(_ name: String) -> Int32 { Fixtures.counter(name, in: library) }

    /// Lines the rendered (grouped) table has between its section's top and bottom edges: the
    /// full-width rules (separators between rows start past the margin).
    func rowLines(_ output: String) -> Int {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        func edge(_ line: Substring) -> Bool { !line.isEmpty && line.allSatisfy { $0 == "─" } }
        guard let top = lines.firstIndex(where: edge), let bottom = lines.lastIndex(where: edge), bottom > top
        else { return -1 }
        return bottom - top - 1
    }

    @Test("A height hook answering 1e19 is clamped to 200 lines")
    func heightHookHuge() throws {
        let (output, warnings, seconds) = try render("HeightHuge")
        #expect(
            warnings == [
                "libbig.so: heightForCellForHeightHuge returned a row height of 1e+19 at row 1.1 (indexPath [0, 0]); clamped to 200 lines (rows are 1 to 200 lines tall)"
            ])
        #expect(rowLines(output) == 200)
        #expect(seconds < 60, "a hang guard, not a speed target")
    }

    @Test("A height hook answering +inf or NaN is ignored: the row is as tall as its content")
    func heightHookNotFinite() throws {
        for (cell, value) in [("HeightInf", "inf"), ("HeightNaN", "nan")] {
            let (output, warnings, seconds) = try render(cell)
            #expect(
                warnings == [
                    "libbig.so: heightForCellFor\(cell) returned a row height of \(value) at row 1.1 (indexPath [0, 0]); ignored, as it is not a finite number (rows are 1 to 200 lines tall)"
                ])
            #expect(rowLines(output) == 1)
            #expect(seconds < 60, "a hang guard, not a speed target")
        }
    }

    @Test("CK_CELL_ROW_HEIGHT set to 1e300 is clamped to 200 lines, and the call succeeds")
    func rowHeightHuge() throws {
        let (output, warnings, _) = try render("RowHeight")
        #expect(
            warnings == [
                "libbig.so: customizeCellForRowHeight set a row height of 1e+300 at row 1.1 (indexPath [0, 0]); clamped to 200 lines (rows are 1 to 200 lines tall)"
            ])
        #expect(counter("row_height_status") == 0)
        #expect(rowLines(output) == 200)
    }

    @Test("A subview frame of 2^31-1 is clamped to 10,000 and the row to 200 lines; nothing giant is allocated")
    func frameHuge() throws {
        let (output, warnings, seconds) = try render("FrameHuge")
        #expect(
            warnings == [
                "libbig.so: initCellForFrameHuge gave subview tag 1 (label) a frame of x 0, y 0, width 2147483647, height 2147483647 at row 1.1 (indexPath [0, 0]); clamped to x 0, y 0, width 10000, height 10000 (frames lie within ±10000 columns and lines)",
                "libbig.so: a FrameHuge cell is 10000 lines tall by its content at row 1.1 (indexPath [0, 0]); drawn 200 lines tall (rows are 1 to 200 lines tall)",
            ])
        #expect(rowLines(output) == 200)
        #expect(output.contains("wide"))
        #expect(seconds < 60, "a hang guard, not a speed target")
    }

    @Test("A subview frame at -2^31 is clamped to -10,000 and clipped to the row")
    func frameNegative() throws {
        let (output, warnings, seconds) = try render("FrameNegative")
        #expect(
            warnings == [
                "libbig.so: initCellForFrameNegative gave subview tag 1 (plain) a frame of x -2147483648, y -2147483648, width 2147483647, height 2147483647 at row 1.1 (indexPath [0, 0]); clamped to x -10000, y -10000, width 10000, height 10000 (frames lie within ±10000 columns and lines)"
            ])
        #expect(rowLines(output) == 1)
        #expect(output.contains("small"))
        #expect(seconds < 60, "a hang guard, not a speed target")
    }

    @Test("An image view frame of 2^31-1 is clamped, then clipped to the row")
    func imageFrameHuge() throws {
        let (output, warnings, seconds) = try render("ImageHuge")
        #expect(
            warnings == [
                "libbig.so: customizeCellForImageHuge gave the image view a frame of x 2147483647, y 2147483647, width 2147483647, height 2147483647 at row 1.1 (indexPath [0, 0]); clamped to x 10000, y 10000, width 10000, height 10000 (frames lie within ±10000 columns and lines)"
            ])
        #expect(rowLines(output) == 1)
        #expect(seconds < 60, "a hang guard, not a speed target")
    }

    @Test("A 10 MB label text is cut to 64 KiB at a UTF-8 boundary")
    func longText() throws {
        let (output, warnings, seconds) = try render("LongText", rows: 3)
        #expect(
            warnings == [
                "libbig.so: customizeCellForLongText set a text of more than 65536 bytes on the text label at row 1.1 (indexPath [0, 0]); cut to 65535 bytes, at a character boundary (texts are at most 65536 bytes)"
            ])
        #expect(counter("text_status") == 0)
        #expect(Fixtures.counter64("text_length_read", in: library) == 65535)
        #expect(output.components(separatedBy: "aaaa").count > 3)
        #expect(seconds < 60, "a hang guard, not a speed target")
    }

    @Test("100,000 add_subview calls: the first 256 succeed, the rest fail fast with CK_ERR_LIMIT")
    func manySubviews() throws {
        let (output, warnings, seconds) = try render("ManySubviews")
        #expect(
            warnings == [
                "libbig.so: initCellForManySubviews added more than 256 subviews at row 1.1 (indexPath [0, 0]); add_subview refused the rest with CK_ERR_LIMIT (a cell has at most 256 subviews)",
                // The failed host calls follow the warnings, as `cellkit render` prints them.
                "libbig.so: initCellForManySubviews: 99,744 host calls failed; the first: add_subview: the cell already has 256 subviews, the most a cell may have (CK_MAX_SUBVIEWS); add fewer, or reuse them by tag",
            ])
        #expect(counter("add_ok") == 256)
        #expect(counter("first_refused") == 257)
        #expect(
            Fixtures.string("refused_message", in: library)
                == "add_subview: the cell already has 256 subviews, the most a cell may have (CK_MAX_SUBVIEWS); add fewer, or reuse them by tag"
        )
        #expect(output.contains("small"))
        #expect(seconds < 60, "a hang guard, not a speed target")
    }

    @Test("An indentation level of 1e6 is clamped to 10,000, and the call succeeds")
    func indentation() throws {
        let (output, warnings, seconds) = try render("Indented")
        #expect(
            warnings == [
                "libbig.so: customizeCellForIndented set an indentation level of 1000000 at row 1.1 (indexPath [0, 0]); clamped to 10000 (indentation levels are 0 to 10000)"
            ])
        #expect(counter("indentation_status") == 0)
        #expect(output.contains("small"))
        #expect(seconds < 60, "a hang guard, not a speed target")
    }

    @Test("A plugin that is wrong on every row warns once, not once per row")
    func oncePerHook() throws {
        let (output, warnings, _) = try render("HeightHuge", rows: 50)
        #expect(warnings.count == 1)
        #expect(rowLines(output) >= 50 * 200)
    }
}

extension Fixtures {
    /// Reads an `int64_t` global a test plugin exports (it must already be loaded).
    static func counter64(_ name: String, in library: String) -> Int64 {
        guard let handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD) else { return -1 }
        defer { dlclose(handle) }
        return dlsym(handle, name)?.load(as: Int64.self) ?? -1
    }

    /// Reads a `char[]` global a test plugin exports.
    static func string(_ name: String, in library: String) -> String? {
        guard let handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD) else { return nil }
        defer { dlclose(handle) }
        return dlsym(handle, name).map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
    }
}
