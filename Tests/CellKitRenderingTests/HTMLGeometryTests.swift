// The HTML format's geometry in Chromium at 390 px (issue 32): where labels sit and what of their
// text shows, row heights, insets, the footer, the focus ring, print breaks and the dark palette,
// each against what UIKit draws (and the iOS-like anchor in the research notes). Measured by
// Scripts/html-measure.js's boxes; run with the browser tests (HTMLBrowserTests).

import CellKitTestSupport
import Foundation
import Testing

extension HTMLBrowserTests {
    /// A C plugin for the geometry cases: LinesCells' texts, lines, break mode and accessory, and an
    /// indentation level (0 unless given).
    static let geometryPlugin = """
        #include "cellkit.h"
        CK_PLUGIN("GeometryCells", "1.0.0", "HTML geometry cases");
        CK_SIGNATURE(customizeCellForShape, "void (cell, data)");
        CK_EXPORT void customizeCellForShape(ck_cell *cell, const ck_data *data) {
            const char *s = 0; double n = 1, mode = 4, accessory = 0, indent = 0;
            if (cell->host->data_string(data, "text", &s) == CK_OK) ck_set_text(ck_text_label(cell), s);
            if (cell->host->data_string(data, "detail", &s) == CK_OK) ck_set_text(ck_detail_text_label(cell), s);
            cell->host->data_number(data, "lines", &n);
            cell->host->data_number(data, "mode", &mode);
            ck_view *labels[2] = {ck_text_label(cell), ck_detail_text_label(cell)};
            for (int i = 0; i < 2; i++) {
                labels[i]->host->view_set_int(labels[i], CK_VIEW_NUMBER_OF_LINES, (int64_t)n);
                labels[i]->host->view_set_int(labels[i], CK_VIEW_LINE_BREAK_MODE, (int64_t)mode);
            }
            if (cell->host->data_number(data, "accessory", &accessory) == CK_OK)
                ck_set_accessory(cell, (ck_accessory_type)accessory);
            cell->host->data_number(data, "indent", &indent);  /* set on every row: cells are reused */
            cell->host->cell_set_int(cell, CK_CELL_INDENTATION_LEVEL, (int64_t)indent);
        }
        """

    static let hebrew =
        "\u{05D4}\u{05EA}\u{05D7}\u{05DC}\u{05D4} "
        + String(repeating: "\u{05E9}\u{05DC}\u{05D5}\u{05DD} \u{05E2}\u{05D5}\u{05DC}\u{05DD} ", count: 8)
        + "\u{05E1}\u{05D5}\u{05E3}"

    /// The geometry cases, one defect a row (its index path in the comment).
    static func geometry(style: String) -> String {
        """
        title: Geometry (\(style))
        style: \(style)
        width: 64
        footer: The table's footer, below the last row.
        sections:
          - header: Value1 and value2
            rows:
              - {cell: Value1, text: Only a label}                                      # 0.0
              - {cell: Value2, text: Alone}                                             # 0.1
              - {cell: Value1, text: "A label long enough to want most of the row", detail: "On"}  # 0.2
          - header: Indentation
            rows:
              - {cell: Shape, text: Level 0}                                            # 1.0
              - {cell: Shape, text: Level 1, indent: 1}                                 # 1.1
              - {cell: Shape, text: Level 2, indent: 2}                                 # 1.2
          - header: A set height
            rowHeight: 2
            rows:
              - {cell: Shape, text: "\(paragraph)", lines: 0}                           # 2.0
          - header: One line
            rows:
              - {cell: Shape, text: "\(paragraph)", mode: 5}                            # 3.0 middle
              - {cell: Shape, text: "\(hebrew)", mode: 3}                               # 3.1 head, Hebrew
              - {cell: Shape, text: "\(paragraph)", mode: 3}                            # 3.2 head
              - {cell: Shape, text: "\(paragraph)", mode: 2}                            # 3.3 clip
              - {cell: Shape, text: "a    b"}                                           # 3.4 spaces
              - {cell: Shape, text: "First line\\nSecond line"}                         # 3.5 a line break
              - {cell: Shape, text: More, accessory: 4}                                 # 3.6
        """
    }

    /// The geometry cases in `style`, as a page.
    static func geometryPage(_ style: String) throws -> String {
        let plugins = try Fixtures.folder("geometry")
        try Fixtures.compileC(geometryPlugin, name: "GeometryCells", in: plugins)
        let registry = Fixtures.registry([Fixtures.buildDirectory, plugins])
        let folder = try Render.write(["g.yaml": geometry(style: style)], name: "geometry" + style)
        let (html, _) = try Render.table(folder + "/g.yaml", .html, registry: registry)
        return try page(html, "geometry-\(style)")
    }

    @Test(
        "at 390 px: labels at the leading inset, indented, value1's text beside its detail, a set height kept",
        .enabled(if: available, "chromium is not installed (apt-get install chromium); CI installs it"))
    func rowGeometry() throws {
        let reports = try Self.measure([
            Job(page: try Self.geometryPage("insetGrouped"), width: 390),
            Job(page: try Self.geometryPage("plain"), width: 390),
        ])
        try #require(reports.count == 2)
        for report in reports {
            #expect(report.failures.isEmpty, "\(report.failures)")
            let row = try report.row("0.0"), label = try report.label("0.0")
            // A value1 or value2 row without a detail: the text at the leading inset (was centred).
            #expect(label.left - row.left == 16, "value1 alone: \(label.left - row.left) px in")
            let alone = try report.label("0.1").left - report.row("0.1").left
            #expect(alone == 16, "value2 alone: \(alone) px in")
            // value1's text takes the room its short detail leaves (was capped at 70 %, 88 px apart).
            let text = try report.label("0.2", "t"), detail = try report.label("0.2", "d")
            #expect(detail.left - text.right <= 9, "\(detail.left - text.right) px between value1's labels")
            #expect(detail.shown == "On")
            // Indentation: 10 px a level at the default width (was 16 px at every level).
            for (level, ip) in ["1.0", "1.1", "1.2"].enumerated() {
                let inset = try report.label(ip).left - report.row(ip).left
                #expect(inset == Double(16 + 10 * level), "level \(level): \(inset) px")
            }
            // A set height of 2 lines is the row's height (was a minimum: 100 px), its text clipped.
            let fixed = try report.row("2.0")
            #expect(fixed.height == 66, "a 2-line row \(fixed.height) px tall")
        }
        // In plain style the table's footer is below the last row (was drawn over it).
        let plain = reports[1]
        let footer = try #require(plain.tableFooter), last = try #require(plain.rowBoxes.last)
        #expect(footer.top >= last.bottom, "the footer at \(footer.top), the last row ends at \(last.bottom)")
    }

    @Test(
        "at 390 px: one-line labels cut at the tail, head (either direction), middle and by clipping; spaces kept",
        .enabled(if: available, "chromium is not installed (apt-get install chromium); CI installs it"))
    func oneLineCuts() throws {
        let reports = try Self.measure([
            Job(page: try Self.geometryPage("insetGrouped"), width: 390),
            Job(page: try Self.geometryPage("insetGrouped"), width: 390, dark: true),
        ])
        try #require(reports.count == 2)
        let report = reports[0]
        #expect(report.failures.isEmpty, "\(report.failures)")
        // truncateMiddle: the start and the end show (was cut at the tail).
        let middle = try report.label("3.0")
        #expect(middle.full == Self.paragraph)
        #expect(middle.shown.hasPrefix("A paragraph") && middle.shown.hasSuffix("in the page."), "\(middle.shown)")
        #expect(middle.lines == 1 && middle.shown.count < Self.paragraph.count)
        // truncateHead: the end shows and the start is cut, in Hebrew too (its end was cut).
        let head = try report.label("3.1")
        #expect(head.shown.hasSuffix("\u{05E1}\u{05D5}\u{05E3}"), "\(head.shown)")
        #expect(!head.shown.hasPrefix("\u{05D4}\u{05EA}\u{05D7}"), "\(head.shown)")
        let latin = try report.label("3.2")
        #expect(latin.shown.hasSuffix("in the page.") && !latin.shown.hasPrefix("A paragraph"), "\(latin.shown)")
        // clip: one line cut at the label's edge, whatever the character (was cut at a word, wrapped).
        let clip = try report.label("3.3")
        #expect(clip.overflows && clip.lines == 1 && clip.height == 22, "\(clip)")
        // Runs of spaces are kept (were collapsed to one).
        #expect(try report.label("3.4").shown == "a    b")
        // A line break in a one-line label: the first line, then the truncation mark (the lines were joined).
        let broken = try report.label("3.5")
        #expect(broken.shown == "First line", "\(broken.shown)")
        #expect(broken.mark.contains("\u{2026}"), "\(broken.mark)")
        #expect(broken.full == "First line\nSecond line")
        // The detail disclosure button's chevron follows the palette (was #bcbcc0 in dark too).
        #expect(report.moreChevron == "rgb(188, 188, 192)")
        #expect(reports[1].moreChevron == "rgb(90, 90, 95)", "\(reports[1].moreChevron)")
    }

    @Test(
        "the showcase against the iOS anchor: subtitle rows, insets, images; focus, print, dark colours",
        .enabled(if: available, "chromium is not installed (apt-get install chromium); CI installs it"))
    func anchor() throws {
        let showcase = try Self.page(try Render.table(Render.manifest("showcase.yaml"), .html).output, "anchor")
        let foobar = try Self.page(try Render.table(Render.manifest("seed-004-foobar.yaml"), .html).output, "foobar")
        let reports = try Self.measure([
            Job(page: showcase, width: 390),
            Job(page: showcase, width: 390, media: "print"),
            Job(page: foobar, width: 390, dark: true),
            Job(page: foobar, width: 390),
        ])
        try #require(reports.count == 4)
        let (light, print, dark, foobarLight) = (reports[0], reports[1], reports[2], reports[3])
        // The subtitle row: 11 px above and below its two lines (was 56 px; the anchor's is 65).
        let subtitle = try light.row("0.1")
        #expect(subtitle.height >= 63 && subtitle.height <= 67, "a subtitle row \(subtitle.height) px tall")
        // insetGrouped's cards 20 px in at 390 px, as iOS's layout margins (were 16).
        let card = try #require(light.lists.first)
        #expect(card.left == 20 && card.right == 370, "a card from \(card.left) to \(card.right)")
        // The image 20 px wide (was 28), the text 57 px past the row's edge, as the anchor's.
        let image = try #require(light.imageBoxes.first { $0.ip == "0.0" })
        #expect(image.width == 20 && image.left - subtitle.left == 20, "\(image)")
        #expect(try light.label("0.0").left - subtitle.left == 57)
        // The page has no script: rows are read, never a tab stop that would do nothing (issue 41).
        #expect(light.rowBoxes.allSatisfy { $0.tabindex == nil }, "\(light.rowBoxes.map(\.tabindex))")
        #expect(dark.rowBoxes.allSatisfy { $0.tabindex == nil })
        // Printed, rows are not split across pages.
        #expect(print.rowBoxes.allSatisfy { $0.breakInside == "avoid" })
        // A cell's own text colour keeps 4.5:1 on the dark palette (Foobar's blue had 1.98:1), as it was in light.
        let blue = try #require(dark.labelBoxes.first { $0.full == "Row: 0" })
        #expect(blue.contrast >= 4.5, "Foobar's blue at \(blue.contrast):1 in dark")
        let lightBlue = try #require(foobarLight.labelBoxes.first { $0.full == "Row: 0" })
        #expect(lightBlue.color == "rgb(0, 0, 255)" || lightBlue.contrast >= 4.5, "\(lightBlue.color)")
    }
}

extension HTMLBrowserTests.Report {
    /// The row at index path `ip` ("section.row").
    func row(_ ip: String) throws -> HTMLBrowserTests.Box {
        try #require(rowBoxes.first { $0.ip == ip }, "no row \(ip)")
    }

    /// The first label of row `ip`, or its label of role `role` ("t" text, "d" detail).
    func label(_ ip: String, _ role: String? = nil) throws -> HTMLBrowserTests.Box {
        let found = labelBoxes.first { box in
            box.ip == ip && (role.map { box.className.split(separator: " ").contains(Substring($0)) } ?? true)
        }
        return try #require(found, "no label in row \(ip)")
    }
}

extension HTMLBrowserTests {
    @Test(
        "at 390 px right to left: the accessory on the left, value1's detail left of its text, the text at the right inset",
        .enabled(if: available, "chromium is not installed (apt-get install chromium); CI installs it"))
    func rightToLeft() throws {
        let yaml = """
            title: ימין לשמאל
            direction: rtl
            lang: he
            style: insetGrouped
            sections:
              - cell: Value1
                header: "\u{05DB}\u{05D5}\u{05EA}\u{05E8}\u{05EA}"
                rows:
                  - {text: "\u{05E9}\u{05DC}\u{05D5}\u{05DD}", detail: "\u{05E4}\u{05E8}\u{05D8}", accessory: disclosureIndicator}
                  - {text: "\u{05E2}\u{05D5}\u{05DC}\u{05DD}"}
            """
        let folder = try Render.write(["rtl.yaml": yaml], name: "geometryrtl")
        let (html, _) = try Render.table(folder + "/rtl.yaml", .html)
        let reports = try Self.measure([Job(page: try Self.page(html, "geometry-rtl"), width: 390)])
        let report = try #require(reports.first)
        #expect(report.failures.isEmpty, "\(report.failures)")
        let row = try report.row("0.0"), text = try report.label("0.0", "t"), detail = try report.label("0.0", "d")
        let accessory = try #require(
            report.accessoryBoxes?.first { $0.ip == "0.0" },
            "the accessory's box")
        #expect(accessory.right <= detail.left, "the accessory \(accessory.right) left of the detail \(detail.left)")
        #expect(detail.right <= text.left, "the detail \(detail.right) left of the text \(text.left)")
        #expect(abs(row.right - text.right - 16) <= 1, "the text \(row.right - text.right) px from the right edge")
        // The separator under the first row is inset from the right and reaches the left edge.
        let separator = try #require(report.separators?.first { $0.ip == "0.0" }, "the separator's box")
        #expect(abs(separator.left - row.left) <= 1, "the separator from the left edge: \(separator)")
        #expect(abs(row.right - separator.right - 16) <= 1, "inset 16 px from the right: \(separator) in \(row)")
        // The section's header reads from the right, as its rows do.
        let header = try #require(report.headerBoxes?.first, "the section header's box")
        #expect(header.left > row.left + row.width / 2, "the header against the right: \(header) over \(row)")
        #expect(abs(header.right - text.right) <= 24, "near the text's edge: \(header), text \(text)")
    }
}

extension HTMLBrowserTests {
    @Test(
        "self-sizing in the browser: at widths 30 to 100 the wrapping subview shows its whole text, inside its row",
        .enabled(if: available, "chromium is not installed (apt-get install chromium); CI installs it"))
    func selfSizing() throws {
        let folder = try Render.write([
            "t.yaml": "sections:\n  - cell: Note\n    rows: [{text: Title, note: '\(SelfSizingTests.long)'}]\n"
        ])
        try Fixtures.compileC(SelfSizingTests.plugin, name: "selfsizing", in: folder)
        let registry = Fixtures.registry([folder, Fixtures.buildDirectory])
        let widths = Array(stride(from: 30, through: 100, by: 10))
        let jobs = try widths.map { width in
            let (html, _) = try Render.table(folder + "/t.yaml", .html, width: width, registry: registry)
            // The page as wide as the table's columns at the page's 9 px a column, and at a phone's 390 px.
            return [
                Job(page: try Self.page(html, "selfsizing-\(width)"), width: max(390, width * 9)),
                Job(page: try Self.page(html, "selfsizing-\(width)"), width: 390),
            ]
        }.flatMap { $0 }
        let reports = try Self.measure(jobs)
        try #require(reports.count == jobs.count)
        for (report, job) in zip(reports, jobs) {
            let note = try #require(report.labelBoxes.first { $0.full == SelfSizingTests.long }, "\(job.page)")
            let row = try report.row("0.0")
            // Compared without spaces: the measuring script reads lines' text, and a wrap eats its space.
            let (shown, full) = (note.shown.filter { !$0.isWhitespace }, note.full.filter { !$0.isWhitespace })
            #expect(shown == full && note.mark.isEmpty, "\(job.page) at \(job.width) px: \(note)")
            #expect(!report.truncated.contains(SelfSizingTests.long), "\(job.page) at \(job.width) px")
            #expect(note.bottom <= row.bottom + 0.5, "\(job.page) at \(job.width) px: \(note) below \(row)")
        }
    }
}
