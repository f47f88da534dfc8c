// The text format writes most rows without painting a canvas; these tests hold it to
// writing exactly the bytes the canvas writes, on random rows made to trip it.

import CellKitDocuments
import CellKitModel
import CellKitTestSupport
import Testing

@testable import CellKitRendering
@testable import CellKitText

@Suite("Rows written without the canvas")
struct DirectLinesTests {
    /// `rows` through a text format, painted on the canvas when `painted`, else directly where it can.
    static func render(_ rows: [RowLayout], style: TableStyle, painted: Bool, color: Bool = false) throws -> String {
        var format = TextFormat()
        format.paintsEveryRow = painted
        (format.color, format.colorDepth) = (color, .truecolor)
        let out = OutputBuffer(DescriptorSink(fd: -1))
        let width = rows.first?.width ?? 40
        try format.begin(TableInfo(style: style), width: width + (style == .plain ? 0 : 2), to: out)
        for (k, row) in rows.enumerated() {
            try format.row(row, isFirst: k == 0, isLast: k == rows.count - 1, to: out)
        }
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// Random rows of two to five views: text of every script from `ClusterRenderTests.pieces`
    /// (marks with no base, joiners, wide clusters), laid out at a width that may exceed the
    /// frame, frames that may overlap or reach the row's edge, any alignment, now and then an image.
    static func randomRows(seed: UInt64, count: Int) -> [RowLayout] {
        var rng = SplitMix64(seed: seed)
        func text() -> String {
            (0..<Int.random(in: 0...8, using: &rng)).map { _ in
                ClusterRenderTests.pieces.randomElement(using: &rng)!
            }.joined()
        }
        let alignments: [TextAlignment] = [.left, .center, .right, .natural]
        return (0..<count).map { k in
            let width = 40, height = Int.random(in: 1...4, using: &rng)
            var views: [PlacedView] = []
            for _ in 0..<Int.random(in: 2...5, using: &rng) {
                let x = Int.random(in: 0...34, using: &rng), w = Int.random(in: 1...(width - x), using: &rng)
                let y = Int.random(in: 0..<height, using: &rng), h = Int.random(in: 1...(height - y), using: &rng)
                var view = PlacedView(role: .subview, frame: Rect(x: x, y: y, width: w, height: h))
                if Int.random(in: 0..<12, using: &rng) == 0 {
                    view.imageName = "photo"
                    view.laidOut = LaidOutText(lines: ["▣"])
                } else {
                    let layoutWidth = w + Int.random(in: -1...2, using: &rng)
                    view.laidOut = TextLayout.laidOut(
                        TextSanitizer.visible(text()), width: max(1, layoutWidth), maxLines: h,
                        mode: Bool.random(using: &rng) ? .wordWrap : .charWrap)
                    view.laidOut.keepFirst(h)
                }
                view.alignment = alignments.randomElement(using: &rng)!
                // Colours for the ansi runs: three text colours (equal styles share a run), bold, and
                // now and then a background, which sends the row to the canvas.
                let colours = [nil, Color(red: 0, green: 0x7A, blue: 0xFF), Color(red: 0x8E, green: 0x8E, blue: 0x93)]
                view.textColor = colours.randomElement(using: &rng)!
                view.bold = Int.random(in: 0..<4, using: &rng) == 0
                if Int.random(in: 0..<30, using: &rng) == 0 {
                    view.backgroundColor = Color(red: 0xD1, green: 0xD1, blue: 0xD6)
                }
                views.append(view)
            }
            let background = Int.random(in: 0..<20, using: &rng) == 0 ? Color(red: 0, green: 0x7A, blue: 0xFF) : nil
            return RowLayout(
                indexPath: IndexPath(section: 0, row: k), identifier: "Random", width: width, height: height,
                position: .middle, isSelected: false, background: Fill(), backgroundColor: background, views: views)
        }
    }

    /// `rows` (3,000) written directly where they can be give the bytes of painting every one; and
    /// both paths ran (the comparison means something only then): the direct one took 10 % to 90 %.
    static func expectSameBytes(_ rows: [RowLayout], style: TableStyle) throws {
        let direct = try render(rows, style: style, painted: false)
        let painted = try render(rows, style: style, painted: true)
        #expect(direct == painted)
        var format = DirectLines()
        let written = rows.filter { format.prepare($0) }.count
        #expect(written > 300 && written < 2_700, "rows the direct path took: \(written) of 3,000")
    }

    @Test("random rows: the same bytes as painting every row", arguments: [TableStyle.grouped, .plain])
    func sameBytes(style: TableStyle) throws {
        let rows = Self.randomRows(seed: style == .plain ? 7 : 11, count: 3_000)
        try Self.expectSameBytes(rows, style: style)
    }

    @Test(
        "random rows in colour (ansi): the same bytes as painting every row", arguments: [TableStyle.grouped, .plain])
    func sameBytesInColour(style: TableStyle) throws {
        let rows = Self.randomRows(seed: style == .plain ? 17 : 19, count: 3_000)
        let direct = try Self.render(rows, style: style, painted: false, color: true)
        let painted = try Self.render(rows, style: style, painted: true, color: true)
        #expect(direct == painted)
        if direct != painted {  // the first line that differs, to read
            let (a, b) = (direct.split(separator: "\n"), painted.split(separator: "\n"))
            if let k = a.indices.first(where: { $0 >= b.count || a[$0] != b[$0] }) {
                Issue.record("line \(k):\n\(a[k])\n\(b[k])")
            }
        }
        var format = DirectLines()
        let written = rows.filter { format.prepare($0, colours: DirectLines.Colours(depth: .truecolor, theme: nil)) }
            .count
        #expect(written > 300 && written < 2_700, "rows the direct path took: \(written) of 3,000")
        #expect(direct.contains("\u{1B}[0;38;2;"), "colours were written")
    }

    /// Rows in runs of 20 with the same frames (one cell type's rows), their texts (and so their
    /// lines, some empty) drawn for each row: `prepare` reuses the order of the row before for a row
    /// that looks the same, and a row whose lines now reach another view's must not be written
    /// directly. With `colour`, now and then a view's text colour or weight changes within a run, or
    /// the row has a background, which the row before's styles and answer must not cover.
    /// `manyColours`: a hundred text colours, so that the styles kept outgrow `DirectLines.maxStyles`
    /// and are made again.
    static func rowsAlike(style: TableStyle, colour: Bool = false, manyColours: Bool = false) -> [RowLayout] {
        var rng = SplitMix64(seed: style == .plain ? 23 : 29)
        let template = Self.randomRows(seed: style == .plain ? 31 : 37, count: 150)
        let colours: [Color?] =
            manyColours
            ? (0..<100).map { Color(red: UInt8($0), green: 0x40, blue: UInt8(255 - $0)) }
            : [nil, Color(red: 0, green: 0x7A, blue: 0xFF), Color(red: 0xFF, green: 0x3B, blue: 0x30)]
        var rows: [RowLayout] = []
        for base in template {
            for _ in 0..<20 {
                var row = base
                for k in row.views.indices where row.views[k].imageName == nil {
                    let f = row.views[k].frame
                    let words = (0..<Int.random(in: 0...12, using: &rng)).map { _ in
                        ClusterRenderTests.pieces.randomElement(using: &rng)!
                    }
                    row.views[k].laidOut = TextLayout.laidOut(
                        TextSanitizer.visible(words.joined(separator: " ")), width: f.width,
                        maxLines: Int.random(in: 1...4, using: &rng), mode: .wordWrap)
                    if colour, Int.random(in: 0..<8, using: &rng) == 0 {
                        row.views[k].textColor = colours.randomElement(using: &rng)!
                        row.views[k].bold = Bool.random(using: &rng)
                    }
                }
                if colour, Int.random(in: 0..<10, using: &rng) == 0 { row.backgroundColor = colours[1] }
                row.height = max(row.height, row.views.map { $0.frame.y + $0.laidOut.count }.max() ?? 1)
                rows.append(row)
            }
        }
        return rows
    }

    @Test("rows alike in runs: the same bytes as painting every row", arguments: [TableStyle.grouped, .plain])
    func sameBytesRowsAlike(style: TableStyle) throws {
        try Self.expectSameBytes(Self.rowsAlike(style: style), style: style)
    }

    @Test(
        "rows alike in runs, in colour (ansi): the same bytes as painting every row; with more styles than kept",
        arguments: [(TableStyle.grouped, false), (.plain, false), (.grouped, true)])
    func sameBytesRowsAlikeInColour(style: TableStyle, manyColours: Bool) throws {
        let rows = Self.rowsAlike(style: style, colour: true, manyColours: manyColours)
        let direct = try Self.render(rows, style: style, painted: false, color: true)
        #expect(direct == (try Self.render(rows, style: style, painted: true, color: true)))
        var format = DirectLines()
        let written = rows.filter { format.prepare($0, colours: DirectLines.Colours(depth: .truecolor, theme: nil)) }
            .count
        #expect(written > 300 && written < 2_700, "rows the direct path took: \(written) of 3,000")
    }

    @Test("a wrapped table's row is written directly: the bytes of its lines, padded")
    func wrappedRow() throws {
        var views: [PlacedView] = []
        for (x, w, text) in [(1, 12, "lorem ipsum dolor sit"), (14, 10, "日本語 👍🏽 東京")] {
            var view = PlacedView(role: .subview, frame: Rect(x: x, y: 0, width: w, height: 2))
            view.laidOut = TextLayout.laidOut(text, width: w, maxLines: 2, mode: .wordWrap)
            views.append(view)
        }
        let row = RowLayout(
            indexPath: IndexPath(section: 0, row: 0), identifier: "W", width: 26, height: 2, position: .single,
            isSelected: false, background: Fill(), backgroundColor: nil, views: views)
        var direct = DirectLines()
        let accepted = direct.prepare(row)
        #expect(accepted)
        let output = try Self.render([row], style: .plain, painted: false)
        #expect(output.hasPrefix(" lorem ipsum  日本語 👍🏽   \n dolor sit    東京        \n"), "\(output)")
        #expect(output == (try Self.render([row], style: .plain, painted: true)))
    }
}
