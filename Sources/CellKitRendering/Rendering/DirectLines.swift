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
    /// The row's text views by column (indices into `views`); the same memory row after row.
    private var order: [Int] = []
    /// Per view in `order`, for the line being written: its column and width (-1: nothing there).
    private var pieces: [(x: Int, width: Int)] = []
    /// Rows with more views than this are painted: the overlap check compares every pair.
    static let maxViews = 16

    /// Whether `row` can be written line by line with `write`; keeps its text views in column order.
    mutating func prepare(_ row: RowLayout) -> Bool {
        order.removeAllKeepingCapacity()
        guard row.views.count <= Self.maxViews else { return false }
        return row.views.withUnsafeBufferPointer { views in
            for k in views.indices {
                let view = views.baseAddress! + k
                guard view.pointee.imageName == nil else { return false }
                if view.pointee.laidOut.isEmpty { continue }
                let f = view.pointee.frame
                guard f.x >= 0, f.width > 0, f.x + f.width <= row.width else { return false }
                let bottom = f.y + min(view.pointee.laidOut.count, f.height)
                var at = order.count  // where it goes, by column
                for (n, j) in order.enumerated() {
                    let g = views[j].frame
                    let gBottom = g.y + min(views[j].laidOut.count, g.height)
                    if f.x < g.x + g.width, g.x < f.x + f.width, f.y < gBottom, g.y < bottom { return false }
                    if at == order.count, f.x < g.x { at = n }
                }
                order.insert(k, at: at)
            }
            return true
        }
    }

    /// Writes line `y` of a row `prepare` accepted, `width` columns; false, writing nothing, when a
    /// piece of it does not fit its frame or takes no column (the canvas settles those).
    mutating func write(_ row: RowLayout, line y: Int, to out: OutputBuffer) -> Bool {
        pieces.removeAllKeepingCapacity()
        return row.views.withUnsafeBufferPointer { views in
            for k in order {
                let view = views.baseAddress! + k
                let f = view.pointee.frame, i = y - f.y
                guard i >= 0, i < min(view.pointee.laidOut.count, f.height) else {
                    pieces.append((-1, -1))
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
                pieces.append((f.x + dx, w))
            }
            var column = 0
            for (n, k) in order.enumerated() where pieces[n].width >= 0 {
                let view = views.baseAddress! + k
                Self.spaces(pieces[n].x - column, out)
                view.pointee.laidOut.withBytes(ofLine: y - view.pointee.frame.y) { out.write($0) }
                column = pieces[n].x + pieces[n].width
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
