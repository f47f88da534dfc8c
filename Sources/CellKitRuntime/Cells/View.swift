// A view in a cell: one of its standard parts or a subview of its content view.

import CCellKit
import CellKitModel

/// A label, image or plain view, with a frame in character cells.
/// Label properties are kept on every kind but only drawn for labels.
/// Like its cell, a view is used by one table's thread only, so its stored
/// properties skip the runtime exclusivity checks: these cost more than the
/// layout's own work on them.
public final class View {
    // MARK: Identity

    public let kind: ViewKind
    /// 0 for the standard parts; 1 or more for subviews (0 is every view's default tag, seed 003).
    @exclusivity(unchecked) public internal(set) var tag: Int
    /// The cell this view belongs to; a view never outlives its cell.
    public unowned(unsafe) let cell: Cell

    // MARK: Geometry and visibility

    /// Where the view sits in its cell's content view; `.zero` for parts the layout places by style.
    @exclusivity(unchecked) public var frame: Rect
    @exclusivity(unchecked) public var isHidden = false
    @exclusivity(unchecked) public var backgroundColor: Color?

    // MARK: Label properties

    @exclusivity(unchecked) public var text: String?
    @exclusivity(unchecked) public var fontSize = 17.0
    @exclusivity(unchecked) public var fontWeight = FontWeight.regular
    @exclusivity(unchecked) public var textColor: Color?
    /// The text colour while the row is selected.
    @exclusivity(unchecked) public var highlightedTextColor: Color?
    @exclusivity(unchecked) public var alignment = TextAlignment.natural
    @exclusivity(unchecked) public var lineBreakMode = LineBreakMode.truncateTail
    /// 0 = as many lines as fit in the frame.
    @exclusivity(unchecked) public var numberOfLines = 1

    // MARK: Image properties

    /// A name from the asset catalog.
    @exclusivity(unchecked) public var imageName: String?

    // MARK: Lifecycle

    /// The handle plugins see; freed with the view.
    let handle: UnsafeMutablePointer<ck_view>

    init(kind: ViewKind, frame: Rect = .zero, tag: Int = 0, cell: Cell) {
        self.kind = kind
        self.frame = frame
        self.tag = tag
        self.cell = cell
        handle = .allocate(capacity: 1)
        handle.initialize(to: ck_view(host: HostTable.pointer, host_private: nil))
        handle.pointee.host_private = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit { handle.deallocate() }

    /// The view behind a handle a plugin passed back, or nil for NULL.
    static func from(_ handle: UnsafeMutablePointer<ck_view>?) -> View? {
        guard let raw = handle?.pointee.host_private else { return nil }
        return Unmanaged<View>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Runs `body` on the view behind `handle` without retaining it: its cell holds
    /// it, and the routine holds the cell while any hook runs. Nil for NULL.
    static func borrow<R>(_ handle: UnsafeMutablePointer<ck_view>?, _ body: (View) -> R) -> R? {
        guard let raw = handle?.pointee.host_private else { return nil }
        return Unmanaged<View>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
    }

    /// How this view is named in messages: "the text label", "subview tag 3 (image)".
    var name: String {
        if tag != 0 { return "subview tag \(tag) (\(kind))" }
        if self === cell.textLabel { return "the text label" }
        if self === cell.detailTextLabel { return "the detail text label" }
        if self === cell.imageView { return "the image view" }
        if self === cell.contentView { return "the content view" }
        return "the accessory view"
    }
}
