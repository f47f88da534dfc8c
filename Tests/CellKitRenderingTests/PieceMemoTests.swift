// HTML and JSON write the pieces of a row that look as the row before's (a label's opening tag,
// a view's frame) from the bytes they kept of it (`PieceMemo`). These tests hold every row so
// written to the bytes a format that has seen no row before writes for it.

import CellKitModel
import CellKitTestSupport
import Testing

@testable import CellKitDocuments
@testable import CellKitRendering
@testable import CellKitText

@Suite("Pieces of rows written from the row before's")
struct PieceMemoTests {
    static let colours: [Color?] = [
        nil, Color(red: 0, green: 0x7A, blue: 0xFF), Color(red: 0x8E, green: 0x8E, blue: 0x93),
        Color(red: 255, green: 255, blue: 255), CellLayout.Palette.selectedGray, CellLayout.Palette.tint,
    ]
    static let texts = ["Item", "Lorem ipsum dolor", "日本語 テスト", "a < b & c", "line\nbreak", "שלום עולם", ""]

    /// A random view: any role, frame, text or image, colour, flag, alignment, line limit and mode.
    static func view(_ rng: inout SplitMix64) -> PlacedView {
        let role = [PlacedView.Role.textLabel, .detailTextLabel, .subview, .subview, .imageView, .accessory]
            .randomElement(using: &rng)!
        let x = Int.random(in: 0...30, using: &rng), y = Int.random(in: 0...2, using: &rng)
        let frame = Rect(
            x: x, y: y, width: Int.random(in: 1...(40 - x), using: &rng), height: Int.random(in: 1...3, using: &rng))
        var v = PlacedView(role: role, frame: frame)
        if role == .imageView || (role == .accessory && Bool.random(using: &rng)) {
            v.imageName = ["photo", "star"].randomElement(using: &rng)!
            v.missingImage = Bool.random(using: &rng)
        }
        retext(&v, &rng)
        v.tag = Int.random(in: 0...3, using: &rng)
        v.alignment = [.left, .center, .right].randomElement(using: &rng)!
        (v.bold, v.small) = (Bool.random(using: &rng), Bool.random(using: &rng))
        v.textColor = colours.randomElement(using: &rng)!
        v.backgroundColor = Int.random(in: 0..<4, using: &rng) == 0 ? colours.randomElement(using: &rng)! : nil
        v.numberOfLines = Int.random(in: 0...3, using: &rng)
        v.lineBreakMode = LineBreakMode.allCases.randomElement(using: &rng)!
        v.hasOwnFrame = Bool.random(using: &rng)
        return v
    }

    /// A new text (and its first line) for a view with no image.
    static func retext(_ v: inout PlacedView, _ rng: inout SplitMix64) {
        guard v.imageName == nil else { return }
        let text = texts.randomElement(using: &rng)!
        v.laidOut = LaidOutText(lines: text.isEmpty ? [] : [Substring(text.prefix(while: { $0 != "\n" }))])
        v.fullText = FullText(text.isEmpty ? nil : TextBytes(text))
    }

    /// Changes one field a piece's key holds: of a view (each field of the label's opening, a JSON
    /// view's head and tail) or of the row (its opening, JSON's members before its views).
    static func change(_ r: inout RowLayout, _ rng: inout SplitMix64) {
        let k = Int.random(in: 0..<r.views.count, using: &rng)
        switch Int.random(in: 0..<30, using: &rng) {
        case 0: r.views[k].frame.x = max(0, r.views[k].frame.x - 1)
        case 1: r.views[k].frame.y = (r.views[k].frame.y + 1) % 3
        case 2: r.views[k].frame.width = max(1, r.views[k].frame.width - 1)
        case 3: r.views[k].frame.height = r.views[k].frame.height % 3 + 1
        case 4: r.views[k].role = [.textLabel, .detailTextLabel, .subview].randomElement(using: &rng)!
        case 5: r.views[k].tag = Int.random(in: 0...3, using: &rng)
        case 6: r.views[k].small.toggle()
        case 7: r.views[k].bold.toggle()
        case 8: r.views[k].alignment = [.left, .center, .right].randomElement(using: &rng)!
        case 9: r.views[k].textColor = colours.randomElement(using: &rng)!
        case 10: r.views[k].backgroundColor = colours.randomElement(using: &rng)!
        case 11: r.views[k].numberOfLines = Int.random(in: 0...3, using: &rng)
        case 12: r.views[k].lineBreakMode = LineBreakMode.allCases.randomElement(using: &rng)!
        case 13: r.views[k].hasOwnFrame.toggle()
        case 14: r.height = Int.random(in: 1...5, using: &rng)
        case 15: r.isSelected.toggle()
        case 16: r.cellStyle = CellStyle.allCases.randomElement(using: &rng)!
        case 17: r.fixedHeight.toggle()
        case 18: r.indentation = [0, 2, 4].randomElement(using: &rng)!
        case 19: r.isRightToLeft.toggle()
        case 20: r.position = [.top, .middle, .bottom, .single].randomElement(using: &rng)!
        case 21: r.identifier = ["Subtitle", "Columns", "Value1"].randomElement(using: &rng)!
        case 22: r.backgroundColor = colours.randomElement(using: &rng)!
        case 23: r.background = Fill(color: colours.randomElement(using: &rng)!)
        case 24: r.background = Fill(imageName: Bool.random(using: &rng) ? "paper" : nil)
        case 25: r.width = [40, 42].randomElement(using: &rng)!
        case 26: r.accessoryType = AccessoryType.allCases.randomElement(using: &rng)!
        case 27: r.selectionStyle = SelectionStyle.allCases.randomElement(using: &rng)!
        case 28: r.views.append(view(&rng))
        default: r.views[k].imageName = r.views[k].imageName == nil ? "photo" : nil
        }
    }

    /// Rows in runs of alike rows: each row of a run has new texts, and now and then one field
    /// changed (`change`).
    static func rows(seed: UInt64, count: Int) -> [RowLayout] {
        var rng = SplitMix64(seed: seed)
        var rows: [RowLayout] = []
        while rows.count < count {
            var r = RowLayout(
                indexPath: IndexPath(section: 0, row: rows.count), identifier: "Subtitle", width: 40,
                height: Int.random(in: 1...5, using: &rng), position: .middle, isSelected: false, background: Fill(),
                backgroundColor: nil, views: (0..<Int.random(in: 1...5, using: &rng)).map { _ in view(&rng) })
            for _ in 0..<Int.random(in: 1...12, using: &rng) where rows.count < count {
                (r.indexPath.row, r.tableIndex) = (rows.count, rows.count)
                for k in r.views.indices { retext(&r.views[k], &rng) }
                if Int.random(in: 0..<2, using: &rng) == 0 { change(&r, &rng) }
                rows.append(r)
            }
        }
        return rows
    }

    /// Each row's bytes written by `make()`'s format after the rows before it, and by a new one;
    /// returns the format that saw them all.
    @discardableResult
    static func expectSameBytes<F: RowFormat>(
        _ rows: [RowLayout], table: TableInfo, section: SectionInfo, _ make: () -> F
    ) throws -> F {
        var seeing = make()
        let out = OutputBuffer(DescriptorSink(fd: -1))
        try seeing.begin(table, width: 42, to: out)
        try seeing.beginSection(section, index: 0, to: out)
        var differing = 0
        for (k, row) in rows.enumerated() {
            let (first, last) = (k == 0, k == rows.count - 1)
            let mark = out.count
            try seeing.row(row, isFirst: first, isLast: last, to: out)
            let written = Array(out.written(since: mark))
            var fresh = make()
            let alone = OutputBuffer(DescriptorSink(fd: -1))
            try fresh.begin(table, width: 42, to: alone)
            try fresh.beginSection(section, index: 0, to: alone)
            let start = alone.count
            try fresh.row(row, isFirst: first, isLast: last, to: alone)
            let expected = Array(alone.written(since: start))
            // An image file is defined in the page where it first shows: in the fresh page's row
            // always, in the seeing page's only the first time. The rest must be the same.
            if Self.withoutDefinitions(written) != Self.withoutDefinitions(expected) {
                differing += 1
                if differing == 1 {
                    let (a, b) = (String(decoding: written, as: UTF8.self), String(decoding: expected, as: UTF8.self))
                    Issue.record("row \(k) differs:\n\(a)\nalone:\n\(b)")
                }
            }
        }
        #expect(differing == 0)
        return seeing
    }

    /// `bytes` without the image files a page defines where they first show (`<svg class="ds" …>`).
    static func withoutDefinitions(_ bytes: [UInt8]) -> String {
        var text = String(decoding: bytes, as: UTF8.self)
        while let open = text.range(of: "<svg class=\"ds\""),
            let close = text.range(of: "</svg>", range: open.upperBound..<text.endIndex)
        {
            text.removeSubrange(open.lowerBound..<close.upperBound)
        }
        return text
    }

    /// A catalog whose images the rows name have files (a small SVG each), so that HTML writes them
    /// as classes: a view's image and a row's background image (`bgi`).
    static let catalogWithFiles: AssetCatalog = {
        let svg = Array("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\"/>".utf8)
        var catalog = AssetCatalog()
        for name in ["photo", "paper"] {
            var image = AssetCatalog.Image(glyph: "▣", label: name == "photo" ? "A photo" : nil)
            image.inline = InlineImage(mediaType: "image/svg+xml", bytes: svg)
            catalog.images[name] = image
        }
        return catalog
    }()

    /// The pages the rows are written on: a section of more rows than a block (rows in blocks),
    /// and a short one of a right-to-left table whose rows say their direction.
    static let pages: [(table: TableInfo, section: SectionInfo)] = {
        var blocks = SectionInfo(header: "Rows")
        blocks.rowsShown = 1_000
        var rightToLeft = TableInfo(title: "Memo", style: .grouped)
        rightToLeft.direction = .rtl
        var short = SectionInfo(header: "Rows")
        (short.rowsShown, short.direction) = (150, .auto)
        return [(TableInfo(title: "Memo", style: .grouped), blocks), (rightToLeft, short)]
    }()

    @Test(
        "HTML: every row's bytes as a page that saw no row before writes them",
        arguments: [(0, false), (1, false), (0, true)])
    func html(page: Int, files: Bool) throws {
        let (table, section) = Self.pages[page]
        let format = try Self.expectSameBytes(
            Self.rows(seed: 3 + UInt64(page), count: 1_000), table: table, section: section
        ) {
            HTMLFormat(assets: files ? Self.catalogWithFiles : AssetCatalog())
        }
        #expect(format.piecesReplayed > 1_000, "pieces written from kept bytes: \(format.piecesReplayed)")
    }

    @Test("JSON and JSON Lines: every row's bytes as a new format writes them", arguments: [false, true])
    func json(lines: Bool) throws {
        let (table, section) = Self.pages[0]
        let format = try Self.expectSameBytes(Self.rows(seed: 7, count: 1_000), table: table, section: section) {
            JSONFormat(jsonLines: lines)
        }
        #expect(format.piecesReplayed > 1_000, "pieces written from kept bytes: \(format.piecesReplayed)")
    }

    @Test("rows alike write their pieces from the row before's; a longer piece is written each time")
    func alikeRowsTakeTheKeptBytes() {
        var memo = PieceMemo(places: 3)
        let out = OutputBuffer(DescriptorSink(fd: -1))
        var calls = 0
        func piece(_ key: PieceMemo.Key, _ text: String) {
            let mark = out.count
            guard !memo.replay(key, out) else { return }
            calls += 1
            out.write(text)
            memo.keep(key, since: mark, out)
        }
        let long = String(repeating: "x", count: PieceMemo.longest + 1)
        for k in 0..<4 {
            memo.startRow()
            piece(PieceMemo.Key(PieceMemo.Key.flag | 1, 7), "<a>")
            piece(PieceMemo.Key(PieceMemo.Key.flag | 2, PieceMemo.Key.word(k / 2)), "<b \(k / 2)>")
            piece(PieceMemo.Key(PieceMemo.Key.flag | 3), long)
            piece(PieceMemo.Key(PieceMemo.Key.flag | 4), "<past the places>")
        }
        // The first piece is written once; the second when its key changes (rows 0 and 2); the long
        // one and the one past the places every row.
        #expect(calls == 1 + 2 + 4 + 4)
        #expect(memo.replayed == 3 + 2)
        let row = { (n: Int) in "<a><b \(n)>" + long + "<past the places>" }
        #expect(String(decoding: out.bytes, as: UTF8.self) == row(0) + row(0) + row(1) + row(1))
    }
}
