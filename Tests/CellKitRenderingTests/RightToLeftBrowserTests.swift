// Right to left in Chromium (issue 41): a plugin cell with masked subviews mirrors whole and nothing
// overlaps; indentation goes on the leading side (the right, right to left) and moves the labels only,
// never the subviews a hook placed; the chevron and the detail disclosure button point left;
// insetGrouped's section headers and footers stay inside the card's insets. Measured by
// Scripts/html-measure.js at 390 px, left to right beside right to left.

import CellKitTestSupport
import Foundation
import Testing

extension HTMLBrowserTests {
    /// RightToLeftPluginTests' cells in `direction`'s table: masked, hand-placed, indented rows; an
    /// `auto` section with a Hebrew header and an English row, and an `ltr` section.
    static func rightToLeftPage(_ direction: String) throws -> String {
        let yaml = """
            title: RTL
            style: insetGrouped
            direction: \(direction)
            sections:
              - header: "\u{05E8}\u{05D0}\u{05E9}\u{05D9}"
                footer: "\u{05D4}\u{05E2}\u{05E8}\u{05D4} \u{05D1}\u{05EA}\u{05D7}\u{05EA}\u{05D9}\u{05EA}"
                rows:
                  - {cell: Masked, text: "\u{05D3}\u{05D5}\u{05D7}"}
                  - {cell: Hand}
              - header: Indentation
                footer: Levels 0, 1 and 2; a subview placed by hand at levels 0 and 2.
                rows:
                  - {cell: Level, level: 0}
                  - {cell: Level, level: 1}
                  - {cell: Level, level: 2}
                  - {cell: Indented, level: 0}
                  - {cell: Indented, level: 2}
                  - {cell: Level, text: More, accessory: 4}
              - header: "\u{05DE}\u{05E2}\u{05D5}\u{05E8}\u{05D1}"
                direction: auto
                rows:
                  - {cell: Level, text: English}
                  - {cell: Level, text: "\u{05E2}\u{05D1}\u{05E8}\u{05D9}\u{05EA}"}
              - header: Left to right
                direction: ltr
                rows:
                  - {cell: Level, text: English}
            """
        let folder = try Render.write(["t.yaml": yaml], name: "rtlbrowser" + direction)
        try Fixtures.compileC(RightToLeftPluginTests.plugin, name: "rtlcells", in: folder)
        let registry = Fixtures.registry([folder, Fixtures.buildDirectory])
        let (html, _) = try Render.table(folder + "/t.yaml", .html, registry: registry)
        return try page(html, "rtl-" + direction)
    }

    /// The two pages measured at 390 px: left to right, right to left.
    static func rightToLeftReports() throws -> (ltr: Report, rtl: Report) {
        let reports = try measure([
            Job(page: try rightToLeftPage("ltr"), width: 390), Job(page: try rightToLeftPage("rtl"), width: 390),
        ])
        try #require(reports.count == 2)
        for report in reports { #expect(report.failures.isEmpty, "\(report.failures)") }
        return (reports[0], reports[1])
    }

    /// Whether two boxes share any area (touching edges do not).
    static func overlap(_ a: Box, _ b: Box) -> Bool {
        a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5
    }

    @Test(
        "a plugin cell's masked subviews and chevron mirror whole right to left, nothing overlapping",
        .enabled(if: available, "chromium is not installed (apt-get install chromium); CI installs it"))
    func rightToLeftSubviews() throws {
        let (ltr, rtl) = try Self.rightToLeftReports()
        for (name, report) in [("ltr", ltr), ("rtl", rtl)] {
            for ip in ["0.0", "0.1"] {
                let boxes =
                    (report.gridBoxes ?? []).filter { $0.ip == ip }
                    + (report.accessoryBoxes ?? []).filter { $0.ip == ip }
                #expect(boxes.count == (ip == "0.0" ? 3 : 2), "\(name) \(ip): \(boxes)")
                for a in boxes.indices {
                    for b in boxes.indices where b > a {
                        #expect(!Self.overlap(boxes[a], boxes[b]), "\(name) \(ip): \(boxes[a]) over \(boxes[b])")
                    }
                }
            }
        }
        // Mirrored: each view of the masked row where its left-to-right box is, reflected in the row.
        let row = try rtl.row("0.0")
        let before =
            (ltr.gridBoxes ?? []).filter { $0.ip == "0.0" } + (ltr.accessoryBoxes ?? []).filter { $0.ip == "0.0" }
        let after =
            (rtl.gridBoxes ?? []).filter { $0.ip == "0.0" } + (rtl.accessoryBoxes ?? []).filter { $0.ip == "0.0" }
        try #require(before.count == after.count)
        for (l, r) in zip(before, after) {
            #expect(abs(r.left - (row.left + row.right - l.right)) <= 1, "\(l) mirrored is \(r)")
            #expect(abs(r.width - l.width) <= 1, "\(l) and \(r)")
        }
        let badge = try #require(after.first { $0.full == "(rt)" }), chevron = try #require(after.last)
        #expect(chevron.right <= badge.left && abs(chevron.left - row.left - 16) <= 1, "the chevron at the left")
        // The hand-placed label keeps its place in the content view, past the chevron on the left.
        let hand = try #require(rtl.gridBoxes?.first { $0.ip == "0.1" }), handChevron = try rtl.accessory("0.1")
        #expect(hand.left >= handChevron.right, "\(hand) past \(handChevron)")
    }

    @Test(
        "indentation on the leading side, the labels only: right to left from the right; placed subviews stay",
        .enabled(if: available, "chromium is not installed (apt-get install chromium); CI installs it"))
    func rightToLeftIndentation() throws {
        let (ltr, rtl) = try Self.rightToLeftReports()
        for (level, ip) in ["1.0", "1.1", "1.2"].enumerated() {
            let row = try rtl.row(ip), label = try rtl.label(ip), chevron = try rtl.accessory(ip)
            // The text moves in from the right; the chevron stays at the left inset (it moved in, the text stayed).
            #expect(abs(row.right - label.right - Double(16 + 10 * level)) <= 1, "level \(level): \(label) in \(row)")
            #expect(abs(chevron.left - row.left - 16) <= 1, "level \(level): the chevron at \(chevron.left - row.left)")
            let l = try ltr.row(ip), lLabel = try ltr.label(ip)
            #expect(abs(lLabel.left - l.left - Double(16 + 10 * level)) <= 1, "ltr level \(level): \(lLabel)")
        }
        for (name, report) in [("ltr", ltr), ("rtl", rtl)] {
            // A subview a hook placed is where it is at level 0 whatever the level; the text label moves in.
            let placed0 = try #require(report.gridBoxes?.first { $0.ip == "1.3" && $0.full == "Placed" })
            let placed2 = try #require(report.gridBoxes?.first { $0.ip == "1.4" && $0.full == "Placed" })
            #expect(abs(placed0.left - placed2.left) <= 0.5 && abs(placed0.right - placed2.right) <= 0.5, "\(name)")
            let text0 = try report.label("1.3", "t"), text2 = try report.label("1.4", "t")
            let inward = name == "ltr" ? text2.left - text0.left : text0.right - text2.right
            #expect(inward >= 8, "\(name): the label moved \(inward) px in at level 2")
        }
    }

    @Test(
        "right to left the chevron and the detail disclosure button are mirrored (pointing left), not left to right",
        .enabled(if: available, "chromium is not installed (apt-get install chromium); CI installs it"))
    func rightToLeftAccessories() throws {
        let (ltr, rtl) = try Self.rightToLeftReports()
        for ip in ["1.0", "1.5"] {
            let (mirrored, plain) = (try rtl.accessory(ip), try ltr.accessory(ip))
            #expect(mirrored.transform.hasPrefix("matrix(-1, 0, 0, 1"), "\(mirrored)")
            #expect(plain.transform == "none", "\(plain)")
        }
        let more = try rtl.accessory("1.5"), row = try rtl.row("1.5")
        #expect(more.className.contains("more") && abs(more.left - row.left - 16) <= 1, "\(more)")
    }

    @Test(
        "insetGrouped: section headers and footers inside the card's 16 px insets, both directions",
        .enabled(if: available, "chromium is not installed (apt-get install chromium); CI installs it"))
    func rightToLeftCardInsets() throws {
        let (ltr, rtl) = try Self.rightToLeftReports()
        for (name, report) in [("ltr", ltr), ("rtl", rtl)] {
            let card = try #require(report.lists.first)
            let texts = (report.headerBoxes ?? []) + (report.footerBoxes ?? [])
            #expect(texts.count == 6, "\(name): \(texts)")
            for text in texts {
                #expect(
                    text.right <= card.right - 16 + 0.5, "\(name): \(text.full) ends at \(text.right), card \(card)")
                #expect(text.left >= card.left + 16 - 0.5, "\(name): \(text.full) starts at \(text.left), card \(card)")
            }
            let header = try #require(report.headerBoxes?.first)
            if name == "rtl" { #expect(abs(header.right - (card.right - 16)) <= 0.5, "against the right inset") }
        }
    }
}

extension HTMLBrowserTests {
    @Test(
        "a row left unmirrored reads left to right under a right-to-left page or an auto section's Hebrew header",
        .enabled(if: available, "chromium is not installed (apt-get install chromium); CI installs it"))
    func rightToLeftInherited() throws {
        let (ltr, rtl) = try Self.rightToLeftReports()
        for (name, report) in [("ltr", ltr), ("rtl", rtl)] {
            // auto: the English row's chevron on the right, the Hebrew row's on the left, whatever the header.
            for (ip, right) in [("2.0", true), ("2.1", false), ("3.0", true)] {
                let row = try report.row(ip), chevron = try report.accessory(ip)
                let side = right ? row.right - chevron.right : chevron.left - row.left
                #expect(abs(side - 16) <= 1, "\(name) \(ip): the chevron \(side) px from its edge in \(row)")
            }
        }
        // The ltr section's header under the right-to-left page reads from the left.
        let card = try #require(rtl.lists.last), header = try #require(rtl.headerBoxes?.last)
        #expect(abs(header.left - card.left - 16) <= 0.5, "\(header) in \(card)")
    }
}

extension HTMLBrowserTests.Report {
    /// The standard accessory of row `ip`.
    func accessory(_ ip: String) throws -> HTMLBrowserTests.Box {
        try #require(accessoryBoxes?.first { $0.ip == ip }, "no accessory in row \(ip)")
    }
}
