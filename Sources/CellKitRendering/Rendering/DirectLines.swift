// Writing a row's lines straight from its laid-out text, without painting a canvas,
// when that gives the same bytes: the canvas exists to settle what overlapping views,
// colours, images and cut glyphs do to one another, and most rows have none of them.
// Painting and reading back the canvas was a large part of the wrapped table's time
// (BENCHMARKS.md, "Measurements behind the code": DirectLines).

import CellKitModel
import CellKitText

/// The text format's fast path for a row with no background to draw: its text views, left to
/// right, each line padded to its frame; with colour (ansi), each view's SGR sequence written where
/// the style changes, as the canvas's runs of one style are. A row qualifies when it has no image,
/// no view with a background (nor, with colour, a row background), no two views that draw on the
/// same columns of a line, and every
/// frame within the row; a line qualifies when each of its pieces fits its frame and has a width.
/// Otherwise the canvas draws it (the bytes are the same).
struct DirectLines {
    /// Rows with more views than this are painted: the overlap check compares every pair.
    static let maxViews = 16
    /// The row's text views by column (indices into `views`): inline, as arrays here cost a
    /// uniqueness check and a bounds check per append, per line (BENCHMARKS.md, "Measurements behind
    /// the code": DirectLines.order).
    private var order = InlineArray<16, Int>(repeating: 0)
    private var count = 0
    /// With colour: per view in `order`, its style's place in `styles`. Equal styles share a place
    /// (and so a run, as on the canvas); the first is the row's own (the gaps' and padding's).
    private var styleIDs = InlineArray<16, Int>(repeating: 0)
    /// Per view in `order`, the lines of the row it has text on: from `tops[n]` to before
    /// `bottoms[n]` (`noteSpans`).
    private var tops = InlineArray<16, Int>(repeating: 0), bottoms = InlineArray<16, Int>(repeating: 0)
    /// The styles seen, kept from row to row with their SGR bytes (made once each, not hashed
    /// per row), at most `maxStyles`: style `k`'s bytes are `sequences[sequenceEnds[k - 1]..<
    /// sequenceEnds[k]]` (from 0 for the first). In one array: an array a style, read per line,
    /// was retained and released each time (BENCHMARKS.md, "Measurements behind the code":
    /// DirectLines.colour).
    private var styles: [TextStyle] = [], sequences: [UInt8] = [], sequenceEnds: [Int] = []
    private static let maxStyles = 64
    private var coloured = false
    /// What the last `prepare` looked at, per view (`signature`, and with colour `style`), with its
    /// row's width and view count and its answer: a row that looks the same gets the same order
    /// (and styles) without the pairs compared again (rows of one cell type mostly do: BENCHMARKS.md, "Measurements behind the
    /// code": DirectLines.same).
    private var seen = InlineArray<112, Int>(repeating: 0)
    private var seenViews = -1, seenWidth = 0, seenAccepted = false, seenApart = false
    /// Whether the row `seen` describes was prepared with colour (its styles then in `styleIDs`).
    private var seenColoured = false
    /// How many of `seen`'s places a view takes (`signature`, and its text style).
    private static let signatureSize = 7

    /// The colours an ansi table is written in: what `TextFormat.sgr` makes a style's bytes for.
    struct Colours {
        var depth: ColorDepth, theme: TerminalTheme?
    }

    /// Whether `row` can be written line by line with `write`; keeps its text views in column order.
    /// With `colours`, a row with a background does not qualify, and each line is written in colour.
    /// (The colours as values, not a closure over the format: that copied the format on every row.)
    @inline(__always)
    mutating func prepare(_ row: RowLayout, colours: Colours? = nil) -> Bool {
        let withColour = colours != nil
        // With colour, a row with a background is painted (`prepareAnew`), and each style has its
        // place: a row's answer and styles hold for the next with the same views and text styles.
        if seenColoured == withColour, looksAsBefore(row), !withColour || stylesAsBefore(row) {
            coloured = withColour && seenAccepted
            return seenAccepted
        }
        let accepted = prepareAnew(row, colours: colours)
        seenColoured = withColour
        // Refused for its background, not for its views: not an answer for rows framed alike.
        if withColour, row.backgroundColor != nil { seenViews = -1 } else { remember(row, accepted: accepted) }
        return accepted
    }

    /// The fields of `view` that `prepareAnew` decides by: its columns (x, width), its lines (y,
    /// height, how many it has), and whether it draws only text (1) and has none (2). The lines
    /// are read in place: a copy of them retained their text.
    @inline(__always)
    private static func signature(_ view: UnsafePointer<PlacedView>) -> (Int, Int, Int, Int, Int, Int) {
        let f = view.pointee.frame
        let drawsAlone = view.pointee.imageName == nil && view.pointee.backgroundColor == nil
        let flags = (drawsAlone ? 1 : 0) | (view.pointee.laidOut.isEmpty ? 2 : 0)
        return (f.x, f.width, f.y, f.height, view.pointee.laidOut.count, flags)
    }

    /// With colour, what `prepareAnew` gives a view a place in `styles` by: its text style (its
    /// colour as a `PieceMemo.Key` word, and bold above it).
    @inline(__always)
    private static func style(_ view: UnsafePointer<PlacedView>) -> Int {
        Int(truncatingIfNeeded: PieceMemo.Key.word(view.pointee.textColor)) | (view.pointee.bold ? 1 << 34 : 0)
    }

    /// Whether `row` has the views, by `signature`, and the width of the row the last `prepare`
    /// looked at: then its order and answer hold. When that row's views took columns
    /// apart from one another, their lines and rows do not matter (no two can overlap), and a
    /// label with more lines than the row before's still looks the same. (Mutating only so that
    /// `seen` is read in place: a closure over a copy of `self` copied it whole.)
    private mutating func looksAsBefore(_ row: RowLayout) -> Bool {
        guard seenViews == row.views.count, seenWidth == row.width else { return false }
        let vertical = !seenApart
        return row.views.withUnsafeBufferPointer { views in
            for k in views.indices {
                let (x, w, y, h, lines, flags) = Self.signature(views.baseAddress! + k)
                let i = k &* Self.signatureSize
                guard x == seen[unchecked: i], w == seen[unchecked: i &+ 1], flags == seen[unchecked: i &+ 5] else {
                    return false
                }
                if vertical,
                    y != seen[unchecked: i &+ 2] || h != seen[unchecked: i &+ 3] || lines != seen[unchecked: i &+ 4]
                {
                    return false
                }
            }
            return true
        }
    }

    /// With colour, whether `row` has no background and its views the text styles of the row the
    /// last `prepare` looked at (as `looksAsBefore` their frames): apart, so that the plain path
    /// stays as it was. (Mutating, as `looksAsBefore`, so that `seen` is read in place.)
    @inline(never)
    private mutating func stylesAsBefore(_ row: RowLayout) -> Bool {
        guard row.backgroundColor == nil else { return false }
        return row.views.withUnsafeBufferPointer { views in
            for k in views.indices
            where Self.style(views.baseAddress! + k) != seen[unchecked: k &* Self.signatureSize &+ 6] {
                return false
            }
            return true
        }
    }

    /// Notes what a `prepareAnew` of `row` looked at and answered (`looksAsBefore`; with colour,
    /// `stylesAsBefore`), and whether its views with lines take columns apart from one another.
    private mutating func remember(_ row: RowLayout, accepted: Bool) {
        guard row.views.count <= Self.maxViews else {
            seenViews = -1
            return
        }
        (seenViews, seenWidth, seenAccepted, seenApart) = (row.views.count, row.width, accepted, true)
        row.views.withUnsafeBufferPointer { views in
            for k in views.indices {
                let (x, w, y, h, lines, flags) = Self.signature(views.baseAddress! + k)
                let i = k &* Self.signatureSize
                (seen[unchecked: i], seen[unchecked: i &+ 1], seen[unchecked: i &+ 2]) = (x, w, y)
                (seen[unchecked: i &+ 3], seen[unchecked: i &+ 4], seen[unchecked: i &+ 5]) = (h, lines, flags)
                seen[unchecked: i &+ 6] = seenColoured ? Self.style(views.baseAddress! + k) : 0
                for j in 0..<k where flags & 2 == 0 && seen[unchecked: j &* Self.signatureSize &+ 5] & 2 == 0 {
                    let (u, v) = (
                        seen[unchecked: j &* Self.signatureSize], seen[unchecked: j &* Self.signatureSize &+ 1]
                    )
                    if x < u &+ v, u < x &+ w { seenApart = false }
                }
            }
        }
    }

    /// `prepare` without the last row's answer.
    private mutating func prepareAnew(_ row: RowLayout, colours: Colours?) -> Bool {
        (count, coloured) = (0, false)
        guard row.views.count <= Self.maxViews else { return false }
        if colours != nil, row.backgroundColor != nil { return false }
        let accepted = row.views.withUnsafeBufferPointer { views in
            for k in views.indices {
                let view = views.baseAddress! + k
                guard view.pointee.imageName == nil else { return false }
                // A view's background fills its whole frame on the canvas, blanking what it covers.
                guard view.pointee.backgroundColor == nil else { return false }
                if view.pointee.laidOut.isEmpty { continue }
                let f = view.pointee.frame
                guard f.x >= 0, f.width > 0, f.x + f.width <= row.width else { return false }
                let bottom = f.y + min(view.pointee.laidOut.count, f.height)
                var at = count  // where it goes, by column
                for n in 0..<count {
                    let g = views[order[n]].frame
                    let gBottom = g.y + min(views[order[n]].laidOut.count, g.height)
                    if f.x < g.x + g.width, g.x < f.x + f.width, f.y < gBottom, g.y < bottom { return false }
                    if at == count, f.x < g.x { at = n }
                }
                var n = count
                while n > at { order[n] = order[n - 1]; n -= 1 }
                order[at] = k
                count += 1
            }
            return true
        }
        guard accepted, let colours else { return accepted }
        func keep(_ style: TextStyle) {
            styles.append(style)
            sequences.append(contentsOf: TextFormat.sgr(style, depth: colours.depth, theme: colours.theme).utf8)
            sequenceEnds.append(sequences.count)
        }
        // The styles the canvas would paint: the row's own, then each view's text style.
        if styles.isEmpty || styles.count + count > Self.maxStyles {
            (styles, sequences, sequenceEnds) = ([], [], [])
            keep(TextStyle())
        }
        row.views.withUnsafeBufferPointer { views in
            for n in 0..<count {
                let view = views.baseAddress! + order[n]
                let style = TextStyle(foreground: view.pointee.textColor, bold: view.pointee.bold)
                if let known = styles.firstIndex(of: style) {
                    styleIDs[n] = known
                } else {
                    styleIDs[n] = styles.count
                    keep(style)
                }
            }
        }
        coloured = true
        return true
    }

    /// Writes the lines of a row `prepare` accepted from line `first` on, each with its line end,
    /// until one cannot be written directly (`write(_:line:to:)`): the line it stopped at, the row's
    /// height when it wrote them all. One call a row, not one a line (BENCHMARKS.md, "Measurements
    /// behind the code": DirectLines.onePass).
    mutating func writeLines(_ row: RowLayout, from first: Int, to out: OutputBuffer) -> Int {
        var y = first
        if coloured {
            while y < row.height, writeInColour(row, line: y, to: out) {
                out.write(byte: 0x0A)
                y &+= 1
            }
            return y
        }
        row.views.withUnsafeBufferPointer { views in
            noteSpans(views)
            while y < row.height, writePlain(views, width: row.width, line: y, lineEnd: true, to: out) { y &+= 1 }
        }
        return y
    }

    /// Writes line `y` of a row `prepare` accepted, `width` columns; false, writing nothing, when a
    /// piece of it does not fit its frame or takes no column (the canvas settles those).
    mutating func write(_ row: RowLayout, line y: Int, to out: OutputBuffer) -> Bool {
        if coloured { return writeInColour(row, line: y, to: out) }
        return row.views.withUnsafeBufferPointer { views in
            noteSpans(views)
            return writePlain(views, width: row.width, line: y, lineEnd: false, to: out)
        }
    }

    /// Notes, per view in `order`, the row's lines it has text on (`tops`, `bottoms`): once a row in
    /// `writeLines`, not read through the view on each line. (`write(_:line:)`, which a boxed
    /// table calls for each line, notes them for each: a pass over the views a line. Noted in
    /// `prepare` instead, the unboxed row paid 13 instructions more.)
    @inline(__always)
    private mutating func noteSpans(_ views: UnsafeBufferPointer<PlacedView>) {
        for n in 0..<count {
            let view = views.baseAddress! + order[unchecked: n]
            let top = view.pointee.frame.y
            tops[unchecked: n] = top
            bottoms[unchecked: n] = top &+ min(view.pointee.laidOut.count, view.pointee.frame.height)
        }
    }

    /// Line `y` of `views` (a row `prepare` accepted, its spans noted), and with `lineEnd` its line
    /// end; false, writing nothing, when a piece does not fit (see `write`). Checked and written in
    /// one pass over the views: a piece that fails its check takes back what the line wrote (the
    /// buffer flushes only between rows). Two passes, the second over columns kept by the first,
    /// were about a third more of this function (BENCHMARKS.md, "Measurements behind the code":
    /// DirectLines.onePass). Written at a place of its own, counted once at the end
    /// (BENCHMARKS.md, "Measurements behind the code": DirectLines.place). The inline arrays are
    /// read unchecked: `n < count <= maxViews` (BENCHMARKS.md, "Measurements behind the code":
    /// DirectLines.unchecked). (Mutating only so that the inline arrays are read in place: read
    /// through a copy of `self`, each read copied them.)
    @inline(__always)
    private mutating func writePlain(
        _ views: UnsafeBufferPointer<PlacedView>, width: Int, line y: Int, lineEnd: Bool, to out: OutputBuffer
    ) -> Bool {
        let mark = out.count
        var place = out.place(), column = 0
        for n in 0..<count where y >= tops[unchecked: n] && y < bottoms[unchecked: n] {
            let view = views.baseAddress! + order[unchecked: n]
            let f = view.pointee.frame
            let (bytes, w) = view.pointee.laidOut.unsafePiece(ofLine: y &- f.y)
            let x = f.x &+ Self.offset(view.pointee.alignment, width: w, in: f.width)
            guard Self.fits(bytes, columns: w, offset: x &- f.x, in: f.width) else {
                out.takeBack(to: mark)  // what a full buffer had counted of the line
                return false
            }
            // word stores (BENCHMARKS.md, "Measurements behind the code": OutputBuffer.wordStores)
            out.writeSpaces(x &- column, at: &place)
            out.write(bytes, at: &place)  // the row holds it
            column = x &+ w
        }
        out.writeSpaces(width &- column, at: &place)
        if lineEnd { out.write(byte: 0x0A, at: &place) }
        out.commit(place)
        return true
    }

    /// Where a piece `width` columns wide starts in a frame `frameWidth` wide, as `alignment` puts it.
    @inline(__always)
    private static func offset(_ alignment: TextAlignment, width: Int, in frameWidth: Int) -> Int {
        switch alignment {
        case .center: max(0, (frameWidth &- width) / 2)
        case .right: max(0, frameWidth &- width)
        case .left, .natural: 0
        }
    }

    /// Whether a line's piece of `bytes`, `columns` wide at `dx` in its frame, is written as it is:
    /// it fits the frame, takes a column unless empty, and does not start with a mark with no base
    /// before it (width 0), which joins a column on the canvas: alone, or at the start of the line
    /// (it joins the column before the piece, in that column's style).
    @inline(__always)
    private static func fits(_ bytes: UnsafeBufferPointer<UInt8>, columns: Int, offset dx: Int, in width: Int) -> Bool {
        guard dx &+ columns <= width else { return false }
        return bytes.isEmpty || (columns > 0 && !startsWithMark(bytes))
    }

    /// `write` with colour: each style's sequence where the style changes (as the canvas's runs),
    /// then a reset; checked and written in one pass, as `writePlain` is (BENCHMARKS.md, "Measurements
    /// behind the code": DirectLines.onePass, DirectLines.colour). Apart, so that the plain path
    /// stays as small as it was. (`sequence` changes nothing: no run-time exclusivity check, as
    /// DirectLines.exclusivity found for a nested function that did.)
    @inline(never)
    private mutating func writeInColour(_ row: RowLayout, line y: Int, to out: OutputBuffer) -> Bool {
        let mark = out.count, width = row.width
        return row.views.withUnsafeBufferPointer { views in
            sequences.withUnsafeBufferPointer { sgr in
                sequenceEnds.withUnsafeBufferPointer { ends in
                    /// Style `id`'s sequence.
                    func sequence(_ id: Int) -> UnsafeBufferPointer<UInt8> {
                        let start = id == 0 ? 0 : ends[id &- 1]
                        return UnsafeBufferPointer(rebasing: sgr[start..<ends[id]])
                    }
                    var column = 0, current = -1  // the style written last (-1: none yet on this line)
                    for n in 0..<count {  // unchecked, as in `writePlain`: `n < count <= maxViews`
                        let view = views.baseAddress! + order[unchecked: n]
                        let f = view.pointee.frame, i = y &- f.y
                        guard i >= 0, i < min(view.pointee.laidOut.count, f.height) else { continue }
                        let (bytes, w) = view.pointee.laidOut.unsafePiece(ofLine: i)
                        let dx = Self.offset(view.pointee.alignment, width: w, in: f.width)
                        guard Self.fits(bytes, columns: w, offset: dx, in: f.width) else {
                            out.takeBack(to: mark)
                            return false
                        }
                        let x = f.x &+ dx
                        if x > column, current != 0 { (current, _) = (0, out.write(sequence(0))) }
                        out.writeSpaces(x &- column)
                        let id = styleIDs[unchecked: n]
                        if w > 0, current != id { (current, _) = (id, out.write(sequence(id))) }
                        out.write(bytes)  // the row holds it
                        column = x &+ w
                    }
                    if width > column, current != 0 { out.write(sequence(0)) }
                    out.writeSpaces(width &- column)
                    out.raw("\u{1B}[0m")
                    return true
                }
            }
        }
    }

    /// Whether a line starts with a cluster of no width (a mark with no base): the first byte is
    /// tested first, as nearly every line starts with ASCII; then whether it starts with a plain
    /// wide scalar (CJK, kana, Hangul: none is a mark), told by its bytes, as asking the width table
    /// was a call a line of CJK (BENCHMARKS.md, "Measurements behind the code": DirectLines.cjkStart).
    @inline(__always)
    private static func startsWithMark(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes[0] >= 0x80 else { return false }
        if bytes.count >= 3, TextWidth.isPlainWide(bytes[0], bytes[1], bytes[2]) { return false }
        return TextWidth.nextCluster(bytes, from: 0, table: TextWidth.directProperties).width == 0
    }
}
