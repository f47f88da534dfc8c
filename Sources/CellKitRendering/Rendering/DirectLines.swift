// Writing a row's lines straight from its laid-out text, without painting a canvas,
// when that gives the same bytes: the canvas exists to settle what overlapping views,
// colours, images and cut glyphs do to one another, and most rows have none of them.
// Painting and reading back the canvas was a third of the wrapped table's time.

import CellKitModel
import CellKitText

/// The text format's fast path for a row with no colour to draw: its text views, left to right,
/// each line padded to its frame. A row qualifies when it has no image, no two views that draw on
/// the same columns of a line, and every frame within the row; a line qualifies when each of its
/// pieces fits its frame and has a width. Otherwise the canvas draws it (the bytes are the same).
struct DirectLines {
    /// Rows with more views than this are painted: the overlap check compares every pair.
    static let maxViews = 16
    /// The row's text views by column (indices into `views`): inline, as arrays here cost a
    /// uniqueness check and a bounds check per append, per line (a tenth of writing a line).
    private var order = InlineArray<16, Int>(repeating: 0)
    private var count = 0
    /// Per view in `order`, for the line being written: its column (-1: nothing there) and width.
    private var xs = InlineArray<16, Int>(repeating: 0), widths = InlineArray<16, Int>(repeating: 0)

    /// Whether `row` can be written line by line with `write`; keeps its text views in column order.
    mutating func prepare(_ row: RowLayout) -> Bool {
        count = 0
        guard row.views.count <= Self.maxViews else { return false }
        return row.views.withUnsafeBufferPointer { views in
            for k in views.indices {
                let view = views.baseAddress! + k
                guard view.pointee.imageName == nil else { return false }
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
    }

    /// Writes line `y` of a row `prepare` accepted, `width` columns; false, writing nothing, when a
    /// piece of it does not fit its frame or takes no column (the canvas settles those).
    mutating func write(_ row: RowLayout, line y: Int, to out: OutputBuffer) -> Bool {
        row.views.withUnsafeBufferPointer { views in
            for n in 0..<count {
                let view = views.baseAddress! + order[n]
                let f = view.pointee.frame, i = y - f.y
                guard i >= 0, i < min(view.pointee.laidOut.count, f.height) else {
                    xs[n] = -1
                    continue
                }
                let w = view.pointee.laidOut.columns(i), empty = view.pointee.laidOut.isEmpty(i)
                let dx =
                    switch view.pointee.alignment {
                    case .center: max(0, (f.width - w) / 2)
                    case .right: max(0, f.width - w)
                    case .left, .natural: 0
                    }
                // A mark with no base before it (width 0) joins a column on the canvas.
                guard dx + w <= f.width, w > 0 || empty else { return false }
                (xs[n], widths[n]) = (f.x + dx, w)
            }
            var column = 0
            for n in 0..<count where xs[n] >= 0 {
                let view = views.baseAddress! + order[n]
                Self.spaces(xs[n] - column, out)
                out.write(view.pointee.laidOut.unsafeBytes(ofLine: y - view.pointee.frame.y))  // the row holds it
                column = xs[n] + widths[n]
            }
            Self.spaces(row.width - column, out)
            return true
        }
    }

    private static func spaces(_ n: Int, _ out: OutputBuffer) {
        guard n > 0 else { return }
        out.append(atMost: n) { p in
            p.update(repeating: 0x20, count: n)
            return n
        }
    }
}
