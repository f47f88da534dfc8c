// The `html` format: one standalone page laid out by the browser, the way iOS draws a table.
// No script, no network: a small inline style sheet (light and dark palettes), the
// accessories as inline SVG symbols, images inlined once each as data URIs (an SVG `<image>` the
// rows `<use>`: valid HTML, where a `<style>` between rows is not). Each section
// is a plain list (`<ul>`, named by its header): the page has no script, so its rows are read, not
// operated — no tab stops, no listbox that arrow keys would not move in. The selected row is
// `aria-current`, a checkmark an image named "checked"; an image is named by its asset's `label`
// or hidden as decorative; a drawn row's views are written in reading order (top to bottom, then
// from the row's leading side). A row set to a height keeps it and clips its content, as UIKit does;
// a row is a flex box: image, labels placed by the cell's style, accessory. A row whose
// views have frames of their own (plugin-drawn) places them on a CSS grid made from the
// row's columns and lines. Labels carry their whole text; the browser wraps it and cuts it
// (ellipsis at the tail, head or middle, line clamp, clip), so copy and screen readers get every
// character. A cell's own text colour is lightened under the dark palette to keep 4.5:1. Bytes are
// written and escaped straight into the output buffer: rows stream.

import CScan
import CellKitDocuments
import CellKitModel
import CellKitRuntime
import CellKitText
import Foundation

/// Writes a self-contained HTML page, row by row.
public struct HTMLFormat: RowFormat {
    /// The catalog whose image files are inlined and whose emoji stand for images without one.
    let assets: AssetCatalog
    private var style = TableStyle.grouped
    private var sections = 0
    /// Whether the section being written has its rows in blocks (`blockRows`).
    private var blocked = false
    /// Whether the page or the current section may read right to left (`dir` other than ltr): an
    /// unmirrored row there says `dir="ltr"`, or it would inherit the other direction.
    private var mayInheritRightToLeft = (page: false, section: false)
    /// Image names seen so far → the id of the SVG `<image>` holding their file ("" for none), and
    /// likewise for files drawn as a row's background (stretched). Named by a hash of the image's
    /// name, not by a count: a render worker started again after a fault writes the rows after the
    /// last one delivered with a new format, and its ids must mean what the first worker's meant.
    private var imageClasses: [String: String] = [:], backgroundClasses: [String: String] = [:]
    /// The openings of the labels last written at each place of a row, for the next row's labels
    /// that open alike; the two parts of a row's opening, before and after its index path (`open`).
    private var openings = PieceMemo(places: 16), rowOpenings = PieceMemo(places: 2)
    /// The frames of the last drawn row in reading order, for the next row's (`ReadingOrderMemo`).
    private var inOrder = ReadingOrderMemo()

    /// How many pieces of rows were written from the bytes kept of earlier rows' (for tests).
    var piecesReplayed: Int { openings.replayed + rowOpenings.replayed }

    /// A page drawing images from `assets` (usually the document's `assets`).
    public init(assets: AssetCatalog) { self.assets = assets }

    /// As `TextFormat`'s: rows are laid out (and plugin frames given) in the terminal's columns.
    public func contentWidth(tableWidth: Int, style: TableStyle) -> Int {
        TextFormat().contentWidth(tableWidth: tableWidth, style: style)
    }

    /// Writes the page's head, style sheet and accessory symbols, then the title (also the page's
    /// `<title>`) and the table header. The page grows with the window up to about 11 px a column.
    public mutating func begin(_ table: TableInfo, width: Int, to out: OutputBuffer) throws {
        (style, sections, imageClasses, backgroundClasses) = (table.style, 0, [:], [:])
        mayInheritRightToLeft = (table.direction != .ltr, false)
        // A BCP 47 tag the document reader checked; without one the language is not invented: "und"
        // (undetermined), so that a screen reader keeps the reader's own voice.
        out.put("<!DOCTYPE html>\n<html lang=\"")
        out.putText(table.language ?? "und")
        out.put("\"")
        if table.direction == .rtl { out.put(" dir=\"rtl\"") }
        out.put("><head><meta charset=\"utf-8\">\n")
        out.put("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        out.put("<meta name=\"color-scheme\" content=\"light dark\">\n<title>")
        out.putText(table.title ?? "CellKit table")
        out.put("</title>\n<style>\n")
        out.put(HTMLStyleSheet.css)
        out.put(".tb{max-width:")
        out.put(max(390, 11 * width))
        out.put("px}\n</style></head>\n<body class=\"")
        out.write(table.style.rawValue)
        out.put("\">\n")
        out.put(HTMLStyleSheet.symbols)
        out.put("<main class=\"tb\">\n")
        if let title = table.title { out.element("h1", title) }
        if let header = table.header { out.element("p class=\"th\"", header, close: "p") }
    }

    /// Opens the section and its list, labelled by the section's header.
    public mutating func beginSection(_ section: SectionInfo, index: Int, to out: OutputBuffer) throws {
        sections += 1
        blocked = section.rowsShown > Self.blockRows
        mayInheritRightToLeft.section = section.direction != .ltr
        // Its header and footer read as its rows do (auto: the browser's first strong character).
        switch section.direction {
        case .ltr: out.put(mayInheritRightToLeft.page ? "<section dir=\"ltr\">\n" : "<section>\n")
        case .rtl: out.put("<section dir=\"rtl\">\n")
        case .auto: out.put("<section dir=\"auto\">\n")
        }
        if let header = section.header {
            out.put("<h2 id=\"s")
            out.put(index)
            out.put("\">")
            out.putText(header)
            out.put(
                blocked
                    ? "</h2>\n<div class=\"ul\" role=\"list\" aria-labelledby=\"s" : "</h2>\n<ul aria-labelledby=\"s")
            out.put(index)
            out.put("\">\n")
        } else {
            out.put(blocked ? "<div class=\"ul\" role=\"list\">\n" : "<ul>\n")
        }
    }

    /// Rows a block holds. A section showing more rows than this writes them in blocks the browser
    /// skips (`content-visibility: auto`) until they scroll near: a 50,000-row page paints in about
    /// the time it takes to parse, not to lay out every row (HTMLBrowserTests.bigPage). A `<ul>`
    /// may hold only `<li>`s, so such a section is a `<div role="list">` of `<div role="listitem">`
    /// rows, its blocks plain `<div>`s: screen readers read one list of every row, as for a `<ul>`.
    static let blockRows = 200

    /// Writes the row as a list item: its views, its background, its selected and checked state; in
    /// a big section, opens and closes its blocks. Blocks follow the row's index in its section (and
    /// the window's start), so a worker started again after a fault continues them.
    public mutating func row(_ row: RowLayout, isFirst: Bool, isLast: Bool, to out: OutputBuffer) throws {
        let r = row.indexPath.row, block = Self.blockRows
        if blocked, r % block == 0 || isFirst {
            if !isFirst { out.put("</div>\n") }
            // Its size until drawn: the first row's height for each of its rows (`auto` keeps the size
            // once drawn).
            out.put("<div class=\"bk\" style=\"contain-intrinsic-size:auto ")
            out.put(block * max(44, 22 * max(1, row.height) + 22))
            out.put("px\">\n")
        }
        defer { if blocked, isLast { out.put("</div>\n") } }
        openings.startRow()
        rowOpenings.startRow()
        row.views.withUnsafeBufferPointer { views in
            let new = newImages(views, row: row)
            var drawn = false
            for k in views.indices where views[k].hasOwnFrame || views[k].role == .subview { drawn = true }
            open(row, views, drawn: drawn, out)
            if drawn { gridRow(row, views, out) } else { styledRow(row, views, out) }
            // After the row's content (a row's first child is its image: `.r>.iv:first-child`): the image
            // files it shows first, and its background image.
            define(new, out)
            if let name = row.background.imageName, let file = backgroundClasses[name], !file.isEmpty {
                out.put("<svg class=\"bg\" aria-hidden=\"true\"><use href=\"#")
                out.write(file)
                out.put("\"/></svg>")
            }
            out.put(blocked ? "</div>\n" : "</li>\n")
        }
    }

    /// Closes the list, then writes the section's footer.
    public mutating func endSection(_ section: SectionInfo, index: Int, to out: OutputBuffer) throws {
        out.put(blocked ? "</div>\n" : "</ul>\n")
        if let footer = section.footer { out.element("p class=\"f\"", footer, close: "p") }
        out.put("</section>\n")
    }

    /// Writes the table footer and closes the page.
    public mutating func end(_ table: TableInfo, to out: OutputBuffer) throws {
        if let footer = table.footer { out.element("p class=\"f tf\"", footer, close: "p") }
        out.put("</main></body></html>\n")
    }

    // MARK: Rows

    fileprivate typealias Views = UnsafeBufferPointer<PlacedView>

    /// `<li …>`: classes for the image inset and the selection, the state, the height and background.
    /// `drawn`: the row's views are on a grid (`gridRow`), where the labels' frames hold the indentation.
    private mutating func open(_ row: RowLayout, _ views: Views, drawn: Bool, _ out: OutputBuffer) {
        var images = 0
        for k in views.indices where views[k].role == .imageView && !views[k].hasOwnFrame { images += 1 }
        let background = row.backgroundColor
        let gray = row.isSelected && background == CellLayout.Palette.selectedGray
        let blue = row.isSelected && background == CellLayout.Palette.tint
        var backgroundImage = false
        if let name = row.background.imageName, let file = backgroundClasses[name], !file.isEmpty {
            backgroundImage = true
        }
        let inherits = mayInheritRightToLeft.page || mayInheritRightToLeft.section
        // Each flag a bit, the images' count above them: the key of the part before the index path.
        let bit = PieceMemo.Key.bit
        let head =
            UInt64(images) << 8 | bit(blocked, 0) | bit(gray, 1) | bit(blue, 2) | bit(row.fixedHeight, 3)
            | bit(backgroundImage, 4) | bit(row.isRightToLeft, 5) | bit(inherits, 6) | bit(row.isSelected, 7)
        let headKey = PieceMemo.Key(PieceMemo.Key.flag | head)
        var mark = out.count
        if !rowOpenings.replay(headKey, out) {
            out.put(blocked ? "<div role=\"listitem\" class=\"r" : "<li class=\"r")
            for _ in 0..<images { out.put(" im") }
            if gray { out.put(" sel") } else if blue { out.put(" blu") }
            if row.fixedHeight { out.put(" fh") }
            if backgroundImage { out.put(" bgi") }
            out.put("\"")
            // Right to left: the row's flex order, its alignment and its insets mirror (CSS follows `dir`).
            if row.isRightToLeft {
                out.put(" dir=\"rtl\"")
            } else if inherits {
                out.put(" dir=\"ltr\"")
            }
            if row.isSelected { out.put(" aria-current=\"true\"") }
            out.put(" data-ip=\"")
            rowOpenings.keep(headKey, since: mark, out)
        }
        out.put(row.indexPath.section)
        out.put(".")
        out.put(row.indexPath.row)
        let (height, indentation) = (row.height, row.indentation)
        let fill = background != nil && !gray && !blue ? background : nil
        let tail = PieceMemo.Key(
            PieceMemo.Key.flag | (drawn ? 1 : 0), PieceMemo.Key.word(height), PieceMemo.Key.word(indentation),
            PieceMemo.Key.word(fill))
        mark = out.count
        if !rowOpenings.replay(tail, out) {
            out.put("\"")
            var styles = StyleAttribute()
            if height > 1 {
                styles.next(out)
                out.put("--h:")
                out.put(height)
            }
            if indentation > 0 {
                // UIKit indents by indentationLevel × indentationWidth points, 10 at the default width of
                // 2 columns: 5 px a column. It indents the image and the labels, not the subviews a hook
                // placed: on a grid the labels' frames hold it already, so only the separator and a
                // styled image take it (`--si`); otherwise the row's leading padding (`--ind`).
                styles.next(out)
                out.put(drawn ? "--si:" : "--ind:")
                out.put(indentation * 5)
                out.put("px")
            }
            if let fill {
                styles.next(out)
                out.put("background:")
                out.put(color: fill)
            }
            styles.close(out)
            out.put(">")
            rowOpenings.keep(tail, since: mark, out)
        }
    }

    /// A row whose views the cell's style placed: image, labels side by side or stacked, accessory.
    private mutating func styledRow(_ row: RowLayout, _ views: Views, _ out: OutputBuffer) {
        for k in views.indices where views[k].role == .imageView { image(views.baseAddress! + k, row, nil, out) }
        out.put("<div class=\"c c")
        out.put(Int(row.cellStyle.rawValue))
        out.put("\">")
        for k in views.indices where views[k].role == .textLabel || views[k].role == .detailTextLabel {
            label(views.baseAddress! + k, row, area: nil, out)
        }
        out.put("</div>")
        accessory(row, views, out)
    }

    /// The columns of a drawn row's grid: between a styled image and the accessory. Right to left
    /// the grid's columns count from its right edge, as CSS lays a grid out under `dir="rtl"`.
    struct Grid {
        var left: Int, right: Int
        var rightToLeft = false
        /// The view's place in the cell's own order, when reading order moved it: it keeps painting
        /// where UIKit paints it (a later subview on top).
        var layer: Int?
        var columns: Int { max(1, right - left) }
    }

    /// A row whose views have frames of their own: a grid of the row's columns (fractions of the row's
    /// width) and lines (22 px each), each view on the cells its frame covers.
    private mutating func gridRow(_ row: RowLayout, _ views: Views, _ out: OutputBuffer) {
        var grid = Grid(left: 1, right: row.width - 1, rightToLeft: row.isRightToLeft)
        for k in views.indices {
            let f = views[k].frame
            // Right to left (the row mirrored) the image is on the right and the accessory on the left.
            if views[k].role == .imageView, !views[k].hasOwnFrame {
                image(views.baseAddress! + k, row, nil, out)
                if row.isRightToLeft { grid.right = f.x - 1 } else { grid.left = f.x + f.width + 1 }
            } else if views[k].role == .accessory {
                if row.isRightToLeft { grid.left = f.x + f.width + 1 } else { grid.right = f.x - 1 }
            }
        }
        grid.right = max(grid.right, grid.left + 1)
        out.put("<div class=\"g\" style=\"--c:")
        out.put(grid.columns)
        out.put("\">")
        // Most cells add their views in reading order: then no order is made (no allocation a row).
        if let moved = inOrder.readingOrder(views, rightToLeft: row.isRightToLeft) {
            for k in moved {
                grid.layer = k
                place(views.baseAddress! + k, row, grid, out)
            }
        } else {
            for k in views.indices where Self.onGrid(views[k]) { place(views.baseAddress! + k, row, grid, out) }
        }
        out.put("</div>")
        accessory(row, views, out)
    }

    /// One view on a drawn row's grid: an image, a label, or a plain view (its background).
    private mutating func place(_ view: UnsafePointer<PlacedView>, _ row: RowLayout, _ grid: Grid, _ out: OutputBuffer)
    {
        if view.pointee.imageName != nil {
            image(view, row, grid, out)
        } else if view.pointee.fullText.bytes != nil || !view.pointee.laidOut.isEmpty {
            label(view, row, area: grid, out)
        } else {
            out.put("<span class=\"v\" style=\"")
            Self.area(view.pointee.frame, grid, out)
            if let c = view.pointee.backgroundColor {
                out.put(";background:")
                out.put(color: c)
            }
            out.put("\"></span>")
        }
    }

    /// Whether `view` goes on a drawn row's grid: neither the accessory nor a styled image.
    fileprivate static func onGrid(_ view: PlacedView) -> Bool {
        switch view.role {
        case .accessory: false
        case .imageView where !view.hasOwnFrame: false
        default: true
        }
    }

    /// Views a row puts in reading order: past this many, the cell's order is kept (the check is
    /// quadratic in the views).
    static let readingOrderViews = 64

    /// The grid's views in reading order, or nil when the cell's order is that already. A view reads
    /// before another it is wholly above (their columns overlapping) or wholly on the leading side
    /// of (their lines overlapping); views neither above nor beside each other keep the cell's
    /// order (a logo column beside a description stays after it). A contact's photo, drawn left of
    /// the name the cell added first, is read first.
    fileprivate static func readingOrder(_ views: Views, rightToLeft: Bool) -> [Int]? {
        /// Whether view `a` reads before view `b`.
        func before(_ a: Int, _ b: Int) -> Bool {
            let (p, q) = (views[a].frame, views[b].frame)
            let columns = p.x < q.x + q.width && q.x < p.x + p.width
            let lines = p.y < q.y + max(1, q.height) && q.y < p.y + max(1, p.height)
            if columns { return p.y + max(1, p.height) <= q.y }
            guard lines else { return false }
            return rightToLeft ? p.x >= q.x + q.width : p.x + p.width <= q.x
        }
        guard views.count > 1, views.count <= readingOrderViews else { return nil }
        var inOrder = true  // checked in place: most rows allocate nothing here
        for a in views.indices where inOrder && onGrid(views[a]) {
            for b in (a + 1)..<views.count where onGrid(views[b]) && before(b, a) {
                inOrder = false
                break
            }
        }
        if inOrder { return nil }
        let placed = views.indices.filter { onGrid(views[$0]) }
        // Kahn's order, the cell's first among the views nothing unread must precede.
        var order: [Int] = [], left = placed
        while !left.isEmpty {
            let next = left.firstIndex { b in !left.contains { a in a != b && before(a, b) } } ?? 0
            order.append(left.remove(at: next))
        }
        return order
    }

    /// `grid-area` for `frame`: its lines and its columns within the grid (clamped to it), and its
    /// layer when reading order moved it.
    fileprivate static func area(_ frame: Rect, _ grid: Grid, _ out: OutputBuffer) {
        let start = min(max(frame.x, grid.left), grid.right - 1)
        let end = max(start + 1, min(frame.x + frame.width, grid.right))
        // In one piece of room: put by put, checking for room at each (BENCHMARKS.md, "Measurements
        // behind the code": HTMLFormat.area).
        let column = grid.rightToLeft ? grid.right - end + 1 : start - grid.left + 1
        out.append(atMost: 10 + 6 + 12 + 20 * 4) { p in
            func literal(_ text: StaticString, at k: Int) -> Int {
                (p + k).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
                return k + text.utf8CodeUnitCount
            }
            var k = literal("grid-area:", at: 0)
            k += JSONBytes.decimal(frame.y + 1, into: p + k)
            k = literal("/", at: k)
            k += JSONBytes.decimal(column, into: p + k)
            k = literal("/span ", at: k)
            k += JSONBytes.decimal(max(1, frame.height), into: p + k)
            k = literal("/span ", at: k)
            return k + JSONBytes.decimal(end - start, into: p + k)
        }
        if let layer = grid.layer {
            out.put(";z-index:")
            out.put(layer)
        }
    }

    // MARK: Views

    /// A label with its whole text; CSS wraps and cuts it as its number of lines and break mode say.
    /// In a grid, `area` places it and its frame's lines bound its lines. The view is read in place:
    /// a copy retained its strings and arrays.
    private mutating func label(
        _ v: UnsafePointer<PlacedView>, _ row: RowLayout, area grid: Grid?, _ out: OutputBuffer
    ) {
        let cut = Cut(v, grid: grid, selfSizing: !row.fixedHeight, rowLines: row.height)
        let color = textColor(v, row)
        let opening = Opening(
            cut: cut, role: v.pointee.role, small: v.pointee.small, bold: v.pointee.bold, color: color,
            dark: color.flatMap { darkColor($0, v, row) }, background: v.pointee.backgroundColor,
            alignment: v.pointee.alignment, defaultAlignment: defaultAlignment(v, row), grid: grid,
            frame: v.pointee.frame)
        let (key, mark) = (opening.key, out.count)
        if !openings.replay(key, out) {
            opening.write(to: out)
            openings.keep(key, since: mark, out)
        }
        cut.write(v, out)
        out.put("</div>")
    }

    /// What a label's opening tag (`<div class="l …" style="…">`) is made from: its cut, role,
    /// flags, colours and alignments, and its frame on the grid that places it (nil: the cell's
    /// style places it).
    struct Opening {
        var cut: Cut
        var role: PlacedView.Role
        var small: Bool, bold: Bool
        var color: Color?, dark: Color?, background: Color?
        var alignment: TextAlignment, defaultAlignment: TextAlignment
        var grid: Grid?
        var frame: Rect

        /// What decides the tag's bytes, in words (`PieceMemo.Key`); the frame only on a grid (it is
        /// written only there).
        var key: PieceMemo.Key {
            typealias K = PieceMemo.Key
            let shape: UInt64 =
                switch cut.shape {
                case .whole: 0
                case .head(let rtl): rtl ? 1 : 2
                case .middle(let rtl): rtl ? 3 : 4
                case .firstLine: 5
                }
            let roleCode = role.keyCode
            var kinds =
                K.flag | UInt64(UInt8(truncatingIfNeeded: cut.mode.rawValue)) | shape << 8 | roleCode << 16
                | K.bit(small, 24) | K.bit(bold, 25)
                | UInt64(UInt8(truncatingIfNeeded: alignment.rawValue)) << 32
                | UInt64(UInt8(truncatingIfNeeded: defaultAlignment.rawValue)) << 40
            guard let grid else { return K(kinds, K.word(cut.lines), K.word(color), K.word(dark), K.word(background)) }
            kinds |= 1 << 26 | K.bit(grid.rightToLeft, 27) | K.bit(grid.layer != nil, 28)
            return K(
                kinds, K.word(cut.lines), K.word(color), K.word(dark), K.word(background), K.word(grid.left),
                K.word(grid.right), K.word(grid.layer ?? 0), K.word(frame.x), K.word(frame.y), K.word(frame.width),
                K.word(frame.height))
        }

        /// Writes the tag: its classes, then its place on the grid, its lines, colours and alignment.
        func write(to out: OutputBuffer) {
            out.put("<div class=\"l")
            switch role {
            case .textLabel: out.put(" t")
            case .detailTextLabel: out.put(" d")
            default: break
            }
            cut.classes(out)
            if small { out.put(" s") }
            if bold { out.put(" b") }
            if dark != nil { out.put(" dk") }
            out.put("\"")
            var styles = StyleAttribute()
            if let grid {
                styles.next(out)
                HTMLFormat.area(frame, grid, out)
            }
            if cut.countsLines {
                styles.next(out)
                out.put("--n:")
                out.put(cut.lines)
            }
            styles.color("color:", color, out)
            styles.color("--dk:", dark, out)
            styles.color("background:", background, out)
            if alignment != defaultAlignment {
                styles.next(out)
                out.put(
                    alignment == .center
                        ? "text-align:center" : alignment == .right ? "text-align:right" : "text-align:left")
                if case .middle = cut.shape, alignment != .left {  // the halves are flex items
                    out.put(alignment == .center ? ";justify-content:center" : ";justify-content:flex-end")
                }
            }
            styles.close(out)
            out.put(">")
        }
    }

    /// How CSS wraps and cuts a label: its lines (0: as many as it takes; in a grid, at most its
    /// frame's, unless the row sizes itself: there a label of 0 lines takes as many as the browser's
    /// font needs and its grid rows grow), with an ellipsis or not, and how a one-line label's text
    /// is written.
    struct Cut {
        var lines: Int
        let mode: LineBreakMode
        var shape = Shape.whole

        /// How the text is written.
        enum Shape {
            /// As it is.
            case whole
            /// One line cut at its head: the block's direction the opposite of the text's, so that
            /// the text overflows (and the ellipsis goes) on the side where it starts; isolated in a <bdi>.
            case head(rightToLeft: Bool)
            /// One line cut in the middle: two halves side by side, the first with an ellipsis at its
            /// tail, the second cut at its head; both shrink as the label narrows.
            case middle(rightToLeft: Bool)
            /// One line of a text with a line break: the first line shows (with the truncation mark
            /// when the mode truncates, as UILabel draws it); the rest is visually hidden, there for
            /// screen readers and in the page's text.
            case firstLine
        }

        init(_ v: UnsafePointer<PlacedView>, grid: Grid?, selfSizing: Bool, rowLines: Int) {
            (lines, mode) = (v.pointee.numberOfLines, v.pointee.lineBreakMode)
            let height = max(1, grid == nil ? rowLines : v.pointee.frame.height)
            // In a grid, at most its frame's lines; in a row of a set height, at most the row's (as the
            // terminal cuts it, with its ellipsis; the row's other labels are clipped by `.fh>.c`).
            if grid != nil || !selfSizing, lines != 0 || !selfSizing {
                lines = lines == 0 ? height : min(lines, height)
            }
            guard lines == 1, let text = v.pointee.unretainedFullText else { return }
            text._withUnsafeGuaranteedRef { bytes in  // the row holds it (see `unretainedFullText`)
                if bytes.withBytes({ $0.contains(0x0A) }) {
                    shape = .firstLine
                } else if mode == .truncateHead {
                    shape = .head(rightToLeft: Self.rightToLeft(bytes))
                } else if mode == .truncateMiddle {
                    shape = .middle(rightToLeft: Self.rightToLeft(bytes))
                }
            }
        }

        /// Whether text that does not fit ends with an ellipsis (else it is cut at a line or clipped).
        var truncates: Bool { mode != .wordWrap && mode != .charWrap && mode != .clip }
        /// Whether lines break at words or characters (else one line is cut, or a last line truncated).
        var wraps: Bool { mode == .wordWrap || mode == .charWrap }
        /// Whether the style sets `--n`, the lines the class keeps.
        var countsLines: Bool { lines > 1 || (lines == 1 && wraps) }

        /// n1: one line, cut with an ellipsis (cp: clipped at a character; hd: at the head; mk: the
        /// mark after the first line); md: the middle; nn: a line clamp; cl: lines cut, no ellipsis.
        func classes(_ out: OutputBuffer) {
            switch shape {
            case .head(let rtl): out.put(rtl ? " n1" : " n1 hd")
            case .middle(let rtl): out.put(rtl ? " md rt" : " md")
            case .firstLine, .whole:
                if lines == 1 {
                    out.put(wraps ? " cl" : mode == .clip ? " n1 cp" : " n1")
                    if case .firstLine = shape, truncates { out.put(" mk") }
                } else if lines > 0 {
                    out.put(truncates ? " nn" : " cl")
                }
            }
            if mode == .charWrap { out.put(" cw") }
        }

        /// The label's text, written as `shape` says.
        func write(_ v: UnsafePointer<PlacedView>, _ out: OutputBuffer) {
            switch shape {
            case .whole: return HTMLFormat.text(v, out)  // the common case, before the text is retained
            case .head:
                out.put("<bdi>")
                HTMLFormat.text(v, out)
                out.put("</bdi>")
                return
            case .firstLine, .middle: break
            }
            guard let bytes = v.pointee.fullText.bytes else { return HTMLFormat.text(v, out) }
            switch shape {
            case .whole, .head: break
            case .firstLine:
                let string = bytes.string
                let cut = string.utf8.firstIndex(of: 0x0A) ?? string.endIndex
                out.put("<span class=\"l1\">")
                out.putText(String(string[..<cut]))
                out.put("</span><span class=\"vh\">")
                out.putText(String(string[cut...]))
                out.put("</span>")
            case .middle:
                let string = bytes.string
                let half = string.index(string.startIndex, offsetBy: string.count / 2)
                out.put("<span class=\"m1\">")
                out.putText(String(string[..<half]))
                out.put("</span><span class=\"m2\"><bdi>")
                out.putText(String(string[half...]))
                out.put("</bdi></span>")
            }
        }

        /// Whether the text's first strong character is right to left (the Hebrew, Arabic and other
        /// right-to-left blocks; RLM, ALM), as a bidi paragraph's direction is found (rule P2).
        static func rightToLeft(_ text: TextBytes) -> Bool {
            for scalar in text.string.unicodeScalars {
                switch scalar.value {
                case 0x200F, 0x061C, 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFE, 0x10800...0x10FFF,
                    0x1E800...0x1EFFF:
                    return true
                case 0x200E: return false
                default: if scalar.properties.isAlphabetic { return false }
                }
            }
            return false
        }
    }

    /// The view's whole text, escaped; its laid-out lines when it keeps no text (glyphs, placeholders).
    fileprivate static func text(_ v: UnsafePointer<PlacedView>, _ out: OutputBuffer) {
        if let text = v.pointee.unretainedFullText {
            // Only text that is not clean can hold a byte order mark (`TextBytes.isClean`).
            text._withUnsafeGuaranteedRef { bytes in
                if bytes.isClean { bytes.withBytes { out.putEscaped($0) } } else { out.putText(bytes.string) }
            }
            return
        }
        for i in 0..<v.pointee.laidOut.count {
            if i > 0 { out.write(byte: 0x0A) }
            out.putEscaped(v.pointee.laidOut.unsafeBytes(ofLine: i))
        }
    }

    /// The alignment a label has when nothing sets it: right for value1's detail and value2's label.
    private func defaultAlignment(_ v: UnsafePointer<PlacedView>, _ row: RowLayout) -> TextAlignment {
        switch (row.cellStyle, v.pointee.role) {
        case (.value1, .detailTextLabel), (.value2, .textLabel): .right
        default: .left
        }
    }

    /// The label's colour for CSS: nil for the page's text colour (also on a grey selection, which
    /// keeps dark text, as UIKit does); the palette's own colours are drawn from the page's palette.
    private func textColor(_ v: UnsafePointer<PlacedView>, _ row: RowLayout) -> Color? {
        guard let c = v.pointee.textColor else { return nil }
        if row.isSelected, c == Color(red: 255, green: 255, blue: 255),
            row.backgroundColor == CellLayout.Palette.selectedGray
        {
            return nil
        }
        return c
    }

    /// The colour `c` takes under the dark palette, when the label is drawn on the page's cell colour
    /// (or the grey selection) and has less than 4.5:1 against it there: mixed with white until it has;
    /// nil to keep `c` (the palette's own colours follow the dark palette already).
    private func darkColor(_ c: Color, _ v: UnsafePointer<PlacedView>, _ row: RowLayout) -> Color? {
        if v.pointee.backgroundColor != nil || c == CellLayout.Palette.secondaryText || c == CellLayout.Palette.tint {
            return nil
        }
        let gray = row.isSelected && row.backgroundColor == CellLayout.Palette.selectedGray
        if row.backgroundColor != nil, !gray { return nil }
        let behind = gray ? CellLayout.Palette.darkSelectedGray : CellLayout.Palette.darkBackground
        return Self.legible(c, on: behind)
    }

    /// `c` moved towards white (the more readable on a dark background) until it has a contrast
    /// ratio of 4.5 or more against `background` (`Contrast.readable`); nil when `c` has it already.
    static func legible(_ c: Color, on background: Color) -> Color? {
        let moved = Contrast.readable(c, on: background)
        return moved == c ? nil : moved
    }

    /// An image: its file (a CSS class holding the data URI) or its emoji, named for screen readers by
    /// its asset's `label` (an asset key is not a text alternative), else hidden from them.
    private func image(_ view: UnsafePointer<PlacedView>, _ row: RowLayout, _ grid: Grid?, _ out: OutputBuffer) {
        let v = view.pointee
        let name = v.imageName ?? ""
        let file = imageClasses[name] ?? ""
        out.put(v.role == .accessory ? "<span class=\"iv av" : "<span class=\"iv")
        if v.missingImage { out.put(" x") }

        if let label = assets.image(named: name)?.label, !v.missingImage {
            out.put("\" role=\"img\" aria-label=\"")
            out.putEscaped(label)
            out.put("\"")
        } else {
            out.put("\" aria-hidden=\"true\"")  // decorative: its asset has no label
        }
        var styles = StyleAttribute()
        if let grid {
            styles.next(out)
            Self.area(v.frame, grid, out)
        }
        if let c = v.backgroundColor {
            styles.next(out)
            out.put("background-color:")
            out.put(color: c)
        }
        if file.isEmpty, let behind = v.backgroundColor ?? ownBackground(row) {
            // A glyph on a colour of the cell's own: black or white, whichever reads (not the page's text
            // colour, which follows the palette the cell's colour does not).
            styles.color("color:", Contrast.plainText(on: behind), out)
        }
        styles.close(out)
        out.put(">")
        if !file.isEmpty {
            out.put("<svg class=\"ii\"><use href=\"#")
            out.write(file)
            out.put("\"/></svg>")
        } else {
            let emoji = assets.image(named: name)?.emoji ?? (v.missingImage ? AssetCatalog.placeholder.glyph : nil)
            if let emoji {
                out.put("<span>")
                out.putEscaped(emoji)
                out.put("</span>")
            } else if !v.laidOut.isEmpty {
                out.put("<span>")
                out.putEscaped(v.laidOut.unsafeBytes(ofLine: 0))
                out.put("</span>")
            }
        }
        out.put("</span>")
    }

    /// The row's background when the cell chose it (not the page's cell colour nor a selection's).
    private func ownBackground(_ row: RowLayout) -> Color? {
        guard let c = row.backgroundColor else { return nil }
        let selection = row.isSelected && (c == CellLayout.Palette.selectedGray || c == CellLayout.Palette.tint)
        return selection ? nil : c
    }

    /// The accessory: a standard one as an inline SVG symbol (a checkmark named "checked" for screen
    /// readers, the others hidden: they only say a row leads somewhere), or the cell's accessory view.
    private func accessory(_ row: RowLayout, _ views: Views, _ out: OutputBuffer) {
        for k in views.indices where views[k].role == .accessory {
            let view = views.baseAddress! + k
            if let symbol = Self.symbol(row.accessoryType) {
                out.put("<svg class=\"a ")
                out.put(symbol)
                out.put(
                    row.accessoryType == .checkmark ? "\" role=\"img\" aria-label=\"checked" : "\" aria-hidden=\"true")
                out.put("\"><use href=\"#ck-")
                out.put(symbol)
                out.put("\"/></svg>")
            } else if view.pointee.imageName != nil {
                image(view, row, nil, out)
            } else {
                let dark = view.pointee.textColor.flatMap { darkColor($0, view, row) }
                out.put(dark == nil ? "<span class=\"av l n1\"" : "<span class=\"av l n1 dk\"")
                var styles = StyleAttribute()
                styles.color("color:", view.pointee.textColor, out)
                styles.color("--dk:", dark, out)
                styles.color("background:", view.pointee.backgroundColor, out)
                styles.close(out)
                out.put(">")
                Self.text(view, out)
                out.put("</span>")
            }
        }
    }

    /// The symbol (and class) of a standard accessory.
    private static func symbol(_ type: AccessoryType) -> StaticString? {
        switch type {
        case .none: nil
        case .disclosureIndicator: "chev"
        case .checkmark: "check"
        case .detailButton: "info"
        case .detailDisclosureButton: "more"
        }
    }

    // MARK: Images

    /// An image file to write into the page: its id, whether a background (stretched), its bytes.
    private struct NewImage {
        let id: String
        let stretched: Bool
        let inline: InlineImage
    }

    /// The image files the row shows for the first time, each given an id: a file is in the page
    /// once however many rows show it.
    private mutating func newImages(_ views: Views, row: RowLayout) -> [NewImage] {
        var new: [NewImage] = []
        if let name = row.background.imageName, backgroundClasses[name] == nil {
            backgroundClasses[name] =
                file(name, prefix: "b").map { id, inline in
                    new.append(NewImage(id: id, stretched: true, inline: inline))
                    return id
                } ?? ""
        }
        for k in views.indices {
            guard let name = views[k].imageName, imageClasses[name] == nil else { continue }
            imageClasses[name] =
                file(name, prefix: "i").map { id, inline in
                    new.append(NewImage(id: id, stretched: false, inline: inline))
                    return id
                } ?? ""
        }
        return new
    }

    /// The id and bytes of image `name`'s file, or nil to draw its emoji or glyph.
    private func file(_ name: String, prefix: String) -> (String, InlineImage)? {
        // The bytes checked when the catalog loaded (a PNG, or a self-contained SVG, within the size limits);
        // a catalog built in code has its file checked the same way now. Anything else draws the emoji or glyph.
        guard let image = assets.image(named: name),
            let inline = image.inline ?? image.file.flatMap({ try? ImageFile.load($0, name: $0).get() })
        else { return nil }
        return (prefix + Hash64.hex(Hash64.of(Array(name.utf8), seed: 0)), inline)
    }

    /// Writes `new` inside the row as SVG `<image>` elements the row and later ones `<use>`: sized to
    /// the box that uses them, kept in proportion (as `contain`) or stretched (a background).
    private func define(_ new: [NewImage], _ out: OutputBuffer) {
        guard !new.isEmpty else { return }
        out.put("<svg class=\"ds\" aria-hidden=\"true\">")
        for image in new {
            out.put("<image id=\"")
            out.write(image.id)
            out.put(image.stretched ? "\" preserveAspectRatio=\"none" : "")
            out.put("\" width=\"100%\" height=\"100%\" href=\"data:")
            out.write(image.inline.mediaType)
            out.put(";base64,")
            out.write(Data(image.inline.bytes).base64EncodedString())
            out.put("\"/>")
        }
        out.put("</svg>")
    }
}

/// A `style` attribute written as its declarations come: opened before the first, `;` between.
private struct StyleAttribute {
    /// Whether a declaration was written (the attribute opened). The buffer goes to each call rather
    /// than into the struct: held there, strongly or unowned, it was retained around each call, four
    /// times a label (BENCHMARKS.md, "Measurements behind the code": HTMLFormat.unretained).
    var started = false

    /// Before a declaration.
    mutating func next(_ out: OutputBuffer) {
        out.put(started ? ";" : " style=\"")
        started = true
    }

    /// A colour declaration (`property` ends in a colon), when there is a colour.
    mutating func color(_ property: StaticString, _ color: Color?, _ out: OutputBuffer) {
        guard let color else { return }
        next(out)
        out.put(property)
        out.put(color: color)
    }

    /// After the last.
    func close(_ out: OutputBuffer) { if started { out.put("\"") } }
}

// MARK: - Writing bytes

extension OutputBuffer {
    /// Appends a literal's bytes (markup: never escaped).
    @inline(__always)
    fileprivate func put(_ literal: StaticString) {
        write(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends `n` in decimal (`JSONBytes.decimal`).
    @inline(__always)
    fileprivate func put(_ n: Int) {
        append(atMost: 20) { JSONBytes.decimal(n, into: $0) }
    }

    /// Appends `c` as CSS: the page palette's variable for UIKit's grey and tint (so that they follow
    /// the dark palette), else `#rrggbb`, or `rgba(…)` when not opaque.
    fileprivate func put(color c: Color) {
        if c == CellLayout.Palette.secondaryText { return put("var(--fg2)") }
        if c == CellLayout.Palette.tint { return put("var(--tint)") }
        guard c.alpha == 255 else { return write(c.css) }
        let hex: StaticString = "0123456789abcdef"
        let digits = hex.utf8Start
        append(atMost: 7) { p in
            p[0] = 0x23
            for (i, component) in [c.red, c.green, c.blue].enumerated() {
                p[1 + 2 * i] = digits[Int(component >> 4)]
                p[2 + 2 * i] = digits[Int(component & 15)]
            }
            return 7
        }
    }

    /// `<tag>text</close>` with the text escaped and without byte order marks.
    fileprivate func element(_ tag: String, _ text: String, close: String? = nil) {
        write("<" + tag + ">")
        putText(text)
        write("</" + (close ?? tag) + ">\n")
    }

    /// Appends `text` escaped (`putEscaped(_:)` of its bytes).
    fileprivate func putEscaped(_ text: String) {
        text.withBorrowedUTF8 { putEscaped($0) }
    }

    /// Appends a table's text escaped, without its byte order marks (U+FEFF), which the text policy
    /// leaves out of every format but JSON (ARCHITECTURE.md, "Text").
    fileprivate func putText(_ text: String) {
        guard text.unicodeScalars.contains("\u{FEFF}") else { return putEscaped(text) }
        putEscaped(String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\u{FEFF}" })))
    }

    /// Appends UTF-8 `bytes` safe inside HTML elements and attribute values: `& < > " '` as
    /// references; C0 controls (but newline) as their control pictures (␛), a tab as a space, DEL
    /// as ␡, C1 controls as U+FFFD. Everything else is kept as it is, format characters included (soft hyphens, zero-width spaces, word joiners, LRM/RLM/ALM,
    /// the embeddings, overrides and isolates work in the browser, and cannot reach past a label:
    /// every label, header and footer is bidi-isolated by the style sheet). Runs of plain bytes are
    /// copied whole.
    fileprivate func putEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        let n = bytes.count
        var run = 0, i = 0
        while i < n {
            // Plain bytes sixteen at a time: byte by byte, the branch on each was a noticeable part of
            // an HTML table's time (BENCHMARKS.md, "Measurements behind the code": HTMLFormat.escape, CScan).
            i += ck_scan_html_plain(base + i, n - i)
            guard i < n else { break }
            let b = base[i]  // one `ck_scan_html_plain` stops at: a C0 control, `" & ' < >`, DEL or 0xC2
            if b == 0xC2, i + 1 < n, base[i + 1] >= 0xA0 || base[i + 1] < 0x80 {
                i += 1  // a lead byte of U+00A0…U+00BF: plain
                continue
            }
            write(UnsafeBufferPointer(start: base + run, count: i - run))
            i += 1
            switch b {
            case 0x26: put("&amp;")
            case 0x3C: put("&lt;")
            case 0x3E: put("&gt;")
            case 0x22: put("&quot;")
            case 0x27: put("&#39;")
            case 0x0A: write(byte: 0x0A)
            case 0x09: write(byte: 0x20)
            case 0x7F: put("\u{2421}")
            case 0xC2:  // a C1 control (U+0080…U+009F): two bytes
                put("\u{FFFD}")
                i += 1
            default: write([0xE2, 0x90, 0x80 + b])  // U+2400 + b, the control's picture
            }
            run = i
        }
        write(UnsafeBufferPointer(start: base + run, count: n - run))
    }
}

/// The frames of the last drawn row's views that `HTMLFormat.readingOrder` found in reading order
/// already, with which of them are on the grid: a row whose views are framed alike is in reading
/// order too, without its pairs compared again (rows of one cell type mostly are: BENCHMARKS.md,
/// "Measurements behind the code": PieceMemo).
private struct ReadingOrderMemo {
    /// Per view: its frame's x, y, width and height, and 1 when it is on the grid.
    private var seen: [Int] = []
    private var rightToLeft = false
    private var holds = false

    /// `HTMLFormat.readingOrder` of `views`, answered from the last row's when its views were framed alike.
    mutating func readingOrder(_ views: UnsafeBufferPointer<PlacedView>, rightToLeft: Bool) -> [Int]? {
        if holds, rightToLeft == self.rightToLeft, looksAsBefore(views) { return nil }
        let order = HTMLFormat.readingOrder(views, rightToLeft: rightToLeft)
        holds = order == nil && views.count <= HTMLFormat.readingOrderViews
        if holds {
            self.rightToLeft = rightToLeft
            seen.removeAll(keepingCapacity: true)
            for k in views.indices {
                let f = views[k].frame
                seen.append(f.x)
                seen.append(f.y)
                seen.append(f.width)
                seen.append(f.height)
                seen.append(HTMLFormat.onGrid(views[k]) ? 1 : 0)
            }
        }
        return order
    }

    private func looksAsBefore(_ views: UnsafeBufferPointer<PlacedView>) -> Bool {
        guard seen.count == views.count &* 5 else { return false }
        return seen.withUnsafeBufferPointer { seen in
            for k in views.indices {
                let f = views[k].frame, i = k &* 5
                let grid = HTMLFormat.onGrid(views[k]) ? 1 : 0
                if f.x != seen[i] || f.y != seen[i &+ 1] || f.width != seen[i &+ 2] || f.height != seen[i &+ 3]
                    || grid != seen[i &+ 4]
                {
                    return false
                }
            }
            return true
        }
    }
}
