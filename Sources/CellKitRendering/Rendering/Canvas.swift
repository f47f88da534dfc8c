// A grid of character cells one row is painted into before it is written out.
// Reused from row to row, so drawing a row allocates nothing once warm.

import CellKitDocuments
import CellKitModel
import CellKitRuntime
import CellKitText

/// How a run of character cells is drawn in a terminal.
package struct TextStyle: Hashable, Sendable {
    package var foreground: Color?
    package var background: Color?
    package var bold = false
    package var dim = false

    package init(foreground: Color? = nil, background: Color? = nil, bold: Bool = false, dim: Bool = false) {
        (self.foreground, self.background, self.bold, self.dim) = (foreground, background, bold, dim)
    }
}

/// Lines of glyphs with a style per column. A class over raw memory: it is
/// repainted for every row, and array writes inside a struct checked bounds and
/// uniqueness on each column.
package final class Canvas {
    @exclusivity(unchecked) package private(set) var width = 0
    @exclusivity(unchecked) package private(set) var height = 0
    /// Per column: a scalar value; `continuation` for the right half of a wide glyph;
    /// `extraFlag | i` for a glyph of several scalars kept in `extraBytes` at `extraRanges[i]`.
    @exclusivity(unchecked) private var cells: UnsafeMutablePointer<UInt32>
    @exclusivity(unchecked) private var styleIndex: UnsafeMutablePointer<UInt16>
    @exclusivity(unchecked) private var capacity = 0
    /// Whether a wide glyph was painted since the last reset: only then can a write cut one in half.
    @exclusivity(unchecked) private var hasWideGlyphs = false
    /// Whether anything but ASCII was painted since the last reset: if not, a line is written as bytes straight.
    @exclusivity(unchecked) private var hasNonASCII = false
    /// The UTF-8 of glyphs of several scalars painted this row, and each one's [start, end) in it.
    @exclusivity(unchecked) private var extraBytes: [UInt8] = []
    @exclusivity(unchecked) private var extraRanges: [UInt64] = []
    /// Styles in use on this row; index 0 is the row's background.
    @exclusivity(unchecked) package private(set) var styles: [TextStyle] = []

    static let continuation: UInt32 = 0xFFFF_FFFF
    static let extraFlag: UInt32 = 0x8000_0000

    package init() {
        cells = .allocate(capacity: 0)
        styleIndex = .allocate(capacity: 0)
    }

    deinit {
        cells.deallocate()
        styleIndex.deallocate()
    }

    /// Empties the canvas to `width` × `height` spaces in `background`.
    package func reset(width: Int, height: Int, background: TextStyle) {
        let n = max(0, width) * max(0, height)
        if n > capacity {
            cells.deallocate()
            styleIndex.deallocate()
            (cells, styleIndex, capacity) = (.allocate(capacity: n), .allocate(capacity: n), n)
        }
        (self.width, self.height) = (max(0, width), max(0, height))
        cells.update(repeating: 0x20, count: n)
        styleIndex.update(repeating: 0, count: n)
        extraBytes.removeAllKeepingCapacity()
        extraRanges.removeAllKeepingCapacity()
        hasWideGlyphs = false
        hasNonASCII = false
        styles.removeAllKeepingCapacity()
        styles.append(background)
    }

    /// The index of `style` in this row's style table.
    package func index(of style: TextStyle) -> UInt16 {
        if let i = styles.firstIndex(of: style) { return UInt16(i) }
        styles.append(style)
        return UInt16(styles.count - 1)
    }

    // MARK: Painting

    /// Sets the style of a rectangle, keeping its glyphs.
    package func fill(_ rect: Rect, style: UInt16) {
        for y in max(0, rect.y)..<max(max(0, rect.y), min(height, rect.y + rect.height)) {
            for x in max(0, rect.x)..<max(max(0, rect.x), min(width, rect.x + rect.width)) {
                styleIndex[y * width + x] = style
            }
        }
    }

    /// The background style of column `x` on line `y` (to keep it under text painted there).
    package func style(atX x: Int, y: Int) -> TextStyle {
        guard x >= 0, x < width, y >= 0, y < height else { return styles[0] }
        return styles[Int(styleIndex[y * width + x])]
    }

    /// Whether column `x` of line `y` holds a space (nothing painted there); false outside the canvas.
    package func isBlank(atX x: Int, y: Int) -> Bool {
        guard x >= 0, x < width, y >= 0, y < height else { return false }
        return cells[y * width + x] == 0x20
    }

    /// Paints sanitized `text` from column `x` of line `y`, never past `limit`; returns the column after it.
    /// Text goes on in whole grapheme clusters: a wide one that would cross `limit` is left out (a space
    /// stays), as a terminal would cut it, and nothing after it shows. A cluster of no width (a mark with
    /// no base) joins the column before it, as a terminal draws it.
    @discardableResult
    package func put(_ text: String, x: Int, y: Int, limit: Int, style: UInt16) -> Int {
        text.withBorrowedUTF8 { put(bytes: $0, x: x, y: y, limit: limit, style: style) }
    }

    /// `put(_:x:y:limit:style:)` for a slice of text (a laid-out line).
    @discardableResult
    package func put(_ text: Substring, x: Int, y: Int, limit: Int, style: UInt16) -> Int {
        text.withBorrowedUTF8 { put(bytes: $0, x: x, y: y, limit: limit, style: style) }
    }

    /// `put(_:x:y:limit:style:)` for sanitized UTF-8 bytes (a laid-out line's, read in place).
    @discardableResult
    package func put(bytes all: UnsafeBufferPointer<UInt8>, x: Int, y: Int, limit: Int, style: UInt16) -> Int {
        guard y >= 0, y < height else { return x }
        let limit = min(limit, width)
        do {
            var column = x, i = 0
            let n = all.count
            // Printable ASCII, when no wide glyph can be cut: straight copies, a column a byte. The
            // last ASCII byte before other text may be the base of a cluster: the loop below paints it.
            if !hasWideGlyphs, column >= 0 {
                let ascii = UTF8Bytes.printableASCIIPrefix(all)
                let copied = ascii == n ? ascii : max(0, ascii - 1)
                let fits = min(copied, max(0, limit - column))
                let at = y * width + column
                // a local pointer: `cells[at + k]` checked `at + k` for overflow, which kept the loop from vectorizing
                let target = cells + at
                if fits > 0 { Self.widen(all.baseAddress!, into: target, count: fits) }
                styleIndex.advanced(by: at).update(repeating: style, count: fits)
                column += fits
                if fits < copied { return limit }  // cut at the limit: nothing after it shows
                i = copied
            }
            var pending = -1  // the start of marks with no column to join yet
            while i < n {
                let b = all[i]
                if pending < 0, b >= 0x20, b < 0x7F, i + 1 == n || all[i + 1] < 0x80 {  // ASCII: no cluster to find
                    guard column < limit else { return limit }
                    if column >= 0 { set(UInt32(b), x: column, y: y, style: style) }
                    column += 1
                    i += 1
                    continue
                }
                let (end, w) = TextWidth.nextCluster(all, from: i)
                if w == 0 {
                    if column > 0, column <= width {
                        attach(all, from: i, to: end, at: y * width + column - 1, row: y * width)
                    } else if pending < 0 {
                        pending = i
                    }
                    i = end
                    continue
                }
                guard column + w <= limit else { return limit }
                if column >= 0 {
                    let from = pending >= 0 ? pending : i
                    pending = -1
                    let (v, length) = TextWidth.decode(all, from)
                    place(
                        from + length == end ? v : extra(all, from: from, to: end), x: column, y: y, columns: w,
                        style: style)
                }
                column += w
                i = end
            }
            return column
        }
    }

    /// Keeps a cluster of several scalars in `extras`; returns the value that stands for it in a column.
    private func extra(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> UInt32 {
        let k = extraRanges.count
        let start = extraBytes.count
        extraBytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[from..<to]))
        extraRanges.append(UInt64(start) << 32 | UInt64(extraBytes.count))
        return Canvas.extraFlag | UInt32(k)
    }

    /// Adds the zero-width cluster `bytes[from..<to]` to the glyph in cell `i` (the head of a wide one).
    private func attach(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int, at i: Int, row: Int) {
        var i = i
        while i > row, cells[i] == Canvas.continuation { i -= 1 }
        let old = cells[i]
        let k = extraRanges.count
        let start = extraBytes.count
        if old & Canvas.extraFlag != 0 && old != Canvas.continuation {
            let range = extraRanges[Int(old & ~Canvas.extraFlag)]
            for b in Int(range >> 32)..<Int(range & 0xFFFF_FFFF) { extraBytes.append(extraBytes[b]) }
        } else if old != Canvas.continuation {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4) { p in
                extraBytes.append(
                    contentsOf: UnsafeBufferPointer(
                        start: p.baseAddress!, count: Self.encode(old, into: p.baseAddress!)))
            }
        }
        extraBytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[from..<to]))
        extraRanges.append(UInt64(start) << 32 | UInt64(extraBytes.count))
        cells[i] = Canvas.extraFlag | UInt32(k)
        hasNonASCII = true
    }

    /// Writes a glyph of `columns` columns at `x` (0 ≤ x < width, 0 ≤ y < height): its value, then
    /// `continuation` in the columns of its right part that are on the canvas (a cluster is two or,
    /// as wcswidth sums some, three columns wide); a wide glyph it cuts on either side is blanked.
    /// One call a glyph: setting each column on its own was a large part of painting CJK text
    /// (BENCHMARKS.md, "Measurements behind the code": Canvas.glyph).
    @inline(__always)
    private func place(_ value: UInt32, x: Int, y: Int, columns: Int, style: UInt16) {
        let row = y * width, last = min(x + columns, width) - 1
        if hasWideGlyphs {
            var k = row + x  // the left part of a glyph under the first column
            while k > row, cells[k] == Canvas.continuation {
                k -= 1
                if cells[k] != Canvas.continuation { cells[k] = 0x20 }
            }
            k = row + last + 1  // the right part of a glyph after the last column
            while k < row + width, cells[k] == Canvas.continuation {
                cells[k] = 0x20
                k += 1
            }
        }
        hasNonASCII = true
        cells[row + x] = value
        styleIndex[row + x] = style
        guard last > x else { return }
        hasWideGlyphs = true
        for k in row + x + 1...row + last {
            cells[k] = Canvas.continuation
            styleIndex[k] = style
        }
    }

    /// Writes one column (0 ≤ x < width, 0 ≤ y < height), repairing a wide glyph it cuts in half.
    @inline(__always)
    private func set(_ value: UInt32, x: Int, y: Int, style: UInt16) {
        let i = y * width + x
        if value >= 0x80 { hasNonASCII = true }  // continuations and glyph references too
        if value == Canvas.continuation { hasWideGlyphs = true }
        if hasWideGlyphs {
            // Blank the rest of a wide glyph this write cuts: its head, or its right part.
            var k = i, x0 = x
            while cells[k] == Canvas.continuation, x0 > 0 {
                k -= 1; x0 -= 1
                if cells[k] != Canvas.continuation { cells[k] = 0x20 }
            }
            if value != Canvas.continuation {
                var k = i + 1, x1 = x + 1
                while x1 < width, cells[k] == Canvas.continuation {
                    cells[k] = 0x20
                    k += 1; x1 += 1
                }
            }
        }
        cells[i] = value
        styleIndex[i] = style
    }

    // MARK: Reading back

    /// Calls `body` for each run of one style on line `y`, with the run's columns.
    package func forEachRun(line y: Int, _ body: (_ style: TextStyle, _ columns: Range<Int>) -> Void) {
        var x = 0
        while x < width {
            let s = styleIndex[y * width + x]
            var end = x
            while end < width, styleIndex[y * width + end] == s { end += 1 }
            body(styles[Int(s)], x..<end)
            x = end
        }
    }

    /// Writes the UTF-8 text of `columns` on line `y` to `out`; lines and columns
    /// outside the canvas write nothing.
    package func write(line y: Int, columns: Range<Int>, to out: OutputBuffer) {
        guard y >= 0, y < height else { return }
        let columns = columns.clamped(to: 0..<width)
        let row = cells + y * width
        let (from, to) = (columns.lowerBound, columns.upperBound)
        guard hasNonASCII else {
            out.append(atMost: to - from) { p in
                Self.narrow(row + from, into: p, count: to - from)
                return to - from
            }
            return
        }
        // One pass into room reserved for the worst case: four bytes a column, plus every glyph of
        // several scalars (each stands in one column only). A closure per run of ASCII was a noticeable
        // part of the wrapped table's time (BENCHMARKS.md, "Measurements behind the code": Canvas.runs).
        extraBytes.withUnsafeBufferPointer { extras in
            out.append(atMost: (to - from) * 4 + extras.count) { p in
                var k = 0, x = from
                while x < to {
                    if x &+ 8 <= to {  // eight ASCII columns at once
                        let s = row + x
                        if (s[0] | s[1] | s[2] | s[3] | s[4] | s[5] | s[6] | s[7]) < 0x80 {
                            Self.narrow(s, into: p + k, count: 8)
                            (k, x) = (k &+ 8, x &+ 8)
                            continue
                        }
                    }
                    let v = row[x]
                    x &+= 1
                    if v < 0x80 {
                        p[k] = UInt8(truncatingIfNeeded: v)
                        k &+= 1
                    } else if v == Canvas.continuation {
                        continue
                    } else if v & Canvas.extraFlag != 0 {
                        let range = extraRanges[Int(v & ~Canvas.extraFlag)]
                        let start = Int(range >> 32), n = Int(range & 0xFFFF_FFFF) - start
                        (p + k).update(from: extras.baseAddress! + start, count: n)
                        k &+= n
                    } else {
                        k &+= Self.encode(v, into: p + k)
                    }
                }
                return k
            }
        }
    }

    /// The UTF-8 of scalar `v` into `p`; returns its length.
    @inline(__always)
    private static func encode(_ v: UInt32, into p: UnsafeMutablePointer<UInt8>) -> Int {
        if v < 0x80 {
            p[0] = UInt8(v)
            return 1
        } else if v < 0x800 {
            p[0] = UInt8(0xC0 | v >> 6); p[1] = UInt8(0x80 | v & 0x3F)
            return 2
        } else if v < 0x10000 {
            p[0] = UInt8(0xE0 | v >> 12); p[1] = UInt8(0x80 | v >> 6 & 0x3F); p[2] = UInt8(0x80 | v & 0x3F)
            return 3
        }
        p[0] = UInt8(0xF0 | v >> 18); p[1] = UInt8(0x80 | v >> 12 & 0x3F)
        p[2] = UInt8(0x80 | v >> 6 & 0x3F); p[3] = UInt8(0x80 | v & 0x3F)
        return 4
    }

    /// Copies `count` columns of ASCII into bytes.
    @inline(__always)
    private static func narrow(_ source: UnsafePointer<UInt32>, into p: UnsafeMutablePointer<UInt8>, count: Int) {
        for k in 0..<count { p[k] = UInt8(truncatingIfNeeded: source[k]) }
    }

    /// Copies `count` bytes into columns, a byte to a scalar: out of line, where nothing
    /// else is in the loop, the compiler vectorizes it (inside `put`'s closure it did not).
    @inline(never)
    private static func widen(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt32>, count: Int) {
        for k in 0..<count { target[k] = UInt32(truncatingIfNeeded: source[k]) }
    }
}
