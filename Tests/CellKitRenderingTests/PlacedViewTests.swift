// A placed view is copied and moved several times a row; its size decides how.

import CellKitModel
import CellKitText
import Testing

@testable import CellKitRendering

@Suite("Placed views")
struct PlacedViewTests {
    /// At most 128 bytes: a copy or move of a larger one is a call to memcpy, not inline moves (at
    /// 138 bytes the wrapped table made 63 memcpy calls a row, 28 at 120).
    @Test func fitsAnInlineCopy() {
        #expect(MemoryLayout<PlacedView>.size <= 128, "\(MemoryLayout<PlacedView>.size) bytes")
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

    /// A label's whole text and an image's name share one field (`extra`): the whole text is not
    /// held again when it is the text the lines index, reads back either way, and is compared by
    /// its bytes; an image's name and a label's text do not clear each other by a nil.
    @Test func wholeTextAndImageNameShareAField() {
        let text = TextBytes("A label long enough to be cut")
        var view = PlacedView(role: .textLabel, frame: .zero, laidOut: LaidOutText(text, lines: []))
        view.fullText = FullText(text)
        #expect(view.fullText.bytes === text && view.imageName == nil)
        guard case .laidOutText = view.extra else {
            Issue.record("the whole text held twice: \(view.extra)")
            return
        }
        // Lines of a copy (one with an ellipsis): the whole text held apart, equal by its bytes.
        var cut = PlacedView(
            role: .textLabel, frame: .zero, laidOut: LaidOutText(TextBytes("A label long…"), lines: []))
        cut.fullText = FullText(TextBytes("A label long enough to be cut"))
        guard case .text = cut.extra else {
            Issue.record("the whole text not held: \(cut.extra)")
            return
        }
        cut.laidOut = view.laidOut
        #expect(cut == view, "the same whole text, by its bytes")
        cut.imageName = nil  // a label's text stays
        #expect(cut.fullText.bytes?.string == "A label long enough to be cut")
        var image = PlacedView(role: .imageView, frame: .zero)
        image.imageName = "star"
        image.fullText = FullText()  // an image's name stays
        #expect(image.imageName == "star" && image.fullText.bytes == nil && image != view)
    }
}

@Suite("A row's fault")
struct RowFaultLifetimeTests {
    /// A placeholder's fault stays on the row until the renderer recycles it for the next row, and
    /// goes then (`recycleViews` tests the reference the fault is held by); set again, or to nil,
    /// the row reads back what it was given.
    @Test func faultGoesWhenTheRowIsRecycled() {
        var row = RowLayout(
            indexPath: IndexPath(section: 0, row: 0), identifier: "", width: 0, height: 0, position: .single,
            isSelected: false, background: Fill(), backgroundColor: nil, views: [])
        row.recycleViews()
        #expect(row.fault == nil && row.faultBox == nil)
        row.fault = RowFault(message: "the plugin crashed")
        #expect(row.fault?.message == "the plugin crashed" && row.faultBox != nil)
        row.recycleViews()
        #expect(row.fault == nil && row.faultBox == nil)
        row.fault = RowFault(message: "again")
        row.fault = nil
        #expect(row.faultBox == nil)
    }
}
