// A placed view is copied and moved several times a row; its size decides how.

import CellKitModel
import Testing

@testable import CellKitRendering

@Suite("Placed views")
struct PlacedViewTests {
    /// At most 128 bytes: a copy or move of a larger one is a call to memcpy, not inline moves (at
    /// 138 bytes the wrapped table made 63 memcpy calls a row, 28 at 120).
    @Test func fitsAnInlineCopy() {
        #expect(MemoryLayout<PlacedView>.size <= 128)
    }

    /// `tag` and `numberOfLines` are stored in 4 bytes: every value a C int can hold reads back.
    @Test func tagAndLinesRoundTrip() {
        var view = PlacedView(role: .subview, frame: .zero)
        for value in [0, 1, -7, Int(Int32.max), Int(Int32.min)] {
            (view.tag, view.numberOfLines) = (value, value)
            #expect(view.tag == value && view.numberOfLines == value)
        }
        view.tag = Int(Int32.max) + 1  // beyond a C int: held at the nearest one
        #expect(view.tag == Int(Int32.max))
    }
}
