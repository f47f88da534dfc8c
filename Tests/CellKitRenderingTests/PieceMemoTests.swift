// HTML and JSON write the pieces of a row that look as the row before's (a label's opening tag,
// a view's frame) from the bytes they kept of it (`PieceMemo`). These tests hold every row so
// written to the bytes a format that has seen no row before writes for it.

import CellKitDocuments
import CellKitModel
import CellKitTestSupport
import Testing

@testable import CellKitRendering
@testable import CellKitText

@Suite("Pieces of rows written from the row before's")
struct PieceMemoTests {
    /// Rows in runs of alike rows (most fields kept, one or two changed now and then), with the
    /// fields the formats' pieces are made of varied: roles, frames, own frames, colours, flags,
    /// alignments, line limits and break modes, selection, height, indentation, direction.
    static func rows(seed: UInt64, count: Int) -> [RowLayout] {
        var rng = SplitMix64(seed: seed)
        func pick<T>(_ values: [T]) -> T { values.randomElement(using: &rng)! }
        let colours: [Color?] = [
            nil, Color(red: 0, green: 0x7A, blue: 0xFF), Color(red: 0x8E, green: 0x8E, blue: 0x93),
            Color(red: 255, green: 255, blue: 255), CellLayout.Palette.selectedGray, CellLayout.Palette.tint,
        ]
        let texts = ["Item", "Lorem ipsum dolor", "日本語 テスト", "a < b & c", "line\nbreak", "שלום עולם", ""]
        func view() -> PlacedView {
            let role = pick([PlacedView.Role.textLabel, .detailTextLabel, .subview, .subview, .imageView, .accessory])
            let x = Int.random(in: 0...30, using: &rng), y = Int.random(in: 0...2, using: &rng)
            var v = PlacedView(
                role: role,
                frame: Rect(
                    x: x, y: y, width: Int.random(in: 1...(40 - x), using: &rng),
                    height: Int.random(in: 1...3, using: &rng)))
            let text = pick(texts)
            v.laidOut = LaidOutText(lines: text.isEmpty ? [] : [Substring(text.prefix(while: { $0 != "\n" }))])
            if role == .imageView || (role == .accessory && Bool.random(using: &rng)) {
                v.imageName = pick(["photo", "star"])
            } else if !text.isEmpty {
                v.fullText = FullText(TextBytes(text))
            }
            v.tag = Int.random(in: 0...3, using: &rng)
            v.alignment = pick([.left, .center, .right])
            v.bold = Bool.random(using: &rng)
            v.small = Bool.random(using: &rng)
            v.textColor = pick(colours)
            v.backgroundColor = Int.random(in: 0..<4, using: &rng) == 0 ? pick(colours) : nil
            v.numberOfLines = Int.random(in: 0...3, using: &rng)
            v.lineBreakMode = pick(LineBreakMode.allCases)
            v.hasOwnFrame = Bool.random(using: &rng)
            v.missingImage = v.imageName != nil && Bool.random(using: &rng)
            return v
        }
        func row(_ k: Int) -> RowLayout {
            var r = RowLayout(
                indexPath: IndexPath(section: 0, row: k), identifier: pick(["Subtitle", "Columns"]), width: 40,
                height: Int.random(in: 1...5, using: &rng), position: pick([.top, .middle, .bottom, .single]),
                isSelected: Int.random(in: 0..<5, using: &rng) == 0, background: Fill(),
                backgroundColor: Int.random(in: 0..<4, using: &rng) == 0 ? pick(colours) : nil,
                views: (0..<Int.random(in: 1...5, using: &rng)).map { _ in view() })
            r.cellStyle = pick(CellStyle.allCases)
            r.fixedHeight = Bool.random(using: &rng)
            r.indentation = pick([0, 0, 2, 4])
            r.isRightToLeft = Int.random(in: 0..<4, using: &rng) == 0
            r.tableIndex = k
            return r
        }
        var rows: [RowLayout] = []
        while rows.count < count {
            var r = row(rows.count)
            for _ in 0..<Int.random(in: 1...8, using: &rng) where rows.count < count {
                // The next row of the run: a new index and texts, and now and then a field changed.
                r.indexPath.row = rows.count
                r.tableIndex = rows.count
                for k in r.views.indices where r.views[k].imageName == nil {
                    let text = pick(texts)
                    r.views[k].laidOut = LaidOutText(lines: text.isEmpty ? [] : [Substring(text.prefix(2))])
                    r.views[k].fullText = FullText(text.isEmpty ? nil : TextBytes(text))
                }
                if Int.random(in: 0..<3, using: &rng) == 0, !r.views.isEmpty {
                    let k = Int.random(in: 0..<r.views.count, using: &rng)
                    switch Int.random(in: 0..<8, using: &rng) {
                    case 0: r.views[k].frame.x = max(0, r.views[k].frame.x - 1)
                    case 1: r.views[k].textColor = pick(colours)
                    case 2: r.views[k].alignment = pick([.left, .center, .right])
                    case 3: r.views[k].numberOfLines = Int.random(in: 0...3, using: &rng)
                    case 4: r.height = Int.random(in: 1...5, using: &rng)
                    case 5: r.isSelected.toggle()
                    case 6: r.views[k].bold.toggle()
                    default: r.views.append(view())
                    }
                }
                rows.append(r)
            }
        }
        return rows
    }

    /// Each row's bytes written by `make()`'s format after the rows before it, and by a new one.
    static func expectSameBytes<F: RowFormat>(_ rows: [RowLayout], _ make: () -> F) throws {
        let table = TableInfo(title: "Memo", style: .grouped)
        var section = SectionInfo(header: "Rows")
        section.rowsShown = rows.count
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
            if written != Array(alone.written(since: start)) {
                differing += 1
                if differing == 1 {
                    Issue.record(
                        "row \(k) differs:\n\(String(decoding: written, as: UTF8.self))\nalone:\n\(String(decoding: Array(alone.written(since: start)), as: UTF8.self))"
                    )
                }
            }
        }
        #expect(differing == 0)
    }

    @Test("HTML: every row's bytes as a page that saw no row before writes them", arguments: [1, 2, 3] as [UInt64])
    func html(seed: UInt64) throws {
        try Self.expectSameBytes(Self.rows(seed: seed, count: 600)) { HTMLFormat(assets: AssetCatalog()) }
    }

    @Test("JSON and JSON Lines: every row's bytes as a new format writes them", arguments: [false, true])
    func json(lines: Bool) throws {
        try Self.expectSameBytes(Self.rows(seed: 7, count: 600)) { JSONFormat(jsonLines: lines) }
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
        let row = { (n: Int) in "<a><b \(n)>" + long + "<past the places>" }
        #expect(String(decoding: out.bytes, as: UTF8.self) == row(0) + row(0) + row(1) + row(1))
    }
}
