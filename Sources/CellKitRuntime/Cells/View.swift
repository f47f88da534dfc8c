// A view in a cell: one of its standard parts or a subview of its content view.

import CCellKit
import CellKitModel
import Synchronization

/// A label, image or plain view, with a frame in character cells.
/// Label properties are kept on every kind but only drawn for labels.
/// Like its cell, a view is used by one table's thread only, so its stored
/// properties skip the runtime exclusivity checks: these cost more than the
/// layout's own work on them.
///
/// A Swift plugin sees a view as `CellKitPlugin.View`, a handle through the C ABI: the same name
/// on each side, as UIKit's `UIView` is one name; no module imports both.
public final class View {
    // MARK: Identity

    /// What the view draws: a label, an image or only its background (`CK_VIEW_KIND`, read-only).
    public let kind: ViewKind
    /// 0 for the standard parts; 1 or more for subviews (0 is every view's default tag, seed 003).
    @inlinable public var tag: Int { _tag }
    @usableFromInline @exclusivity(unchecked) var _tag: Int
    /// The cell this view belongs to, or nil once that cell is gone: a view kept
    /// after its cell is freed is orphaned, and setting its properties changes
    /// nothing anyone draws.
    public var cell: Cell? { isOrphaned ? nil : owner }
    /// The cell, unretained: it holds this view, and marks it orphaned as it goes
    /// (`orphan()`), so the host reads it only while `isOrphaned` is false. Unretained
    /// because a view reached per row would otherwise cost a retain and release.
    @usableFromInline unowned(unsafe) let owner: Cell
    /// The selection style of the cell (nil once it is gone), read without retaining the cell.
    package var cellSelectionStyle: SelectionStyle? { isOrphaned ? nil : owner.selectionStyle }
    /// Set by the cell's deinit; from then on `owner` must not be read.
    @inlinable public var isOrphaned: Bool { _isOrphaned }
    @usableFromInline @exclusivity(unchecked) var _isOrphaned: Bool = false

    // MARK: Style stamp

    /// A number no view has had before, taken anew whenever a property a label's look is drawn from
    /// changes value (colours, font, alignment, line break mode, number of lines; not its text or
    /// frame): a layout that finds a row's place for this view styled under the same stamp keeps
    /// that style rather than working it out again (`CellLayout`'s subviews; BENCHMARKS.md,
    /// "Measurements behind the code": CellLayout.styleStamp). Never 0: a 64-bit count; the layout
    /// keeps its low 61 bits, which a billion changes a second would take 73 years to use up.
    @inlinable package var styleStamp: UInt64 { _styleStamp }
    @usableFromInline @exclusivity(unchecked) var _styleStamp: UInt64 = View.newStyleStamp()
    /// The stamps handed out so far, across all threads: one counter, so that no two views, nor a
    /// view before and after a change, share a stamp (a view freed and another made at its address
    /// do not either).
    private static let stamps = Atomic<UInt64>(0)
    /// A stamp not handed out before.
    @usableFromInline static func newStyleStamp() -> UInt64 {
        stamps.wrappingAdd(1, ordering: .relaxed).newValue
    }
    /// What each style property's setter does: `value` stored in `field` and a new `stamp` taken
    /// when it differs from the value there; nothing when it is the same.
    @inlinable @inline(__always)
    static func restyle<Value: Equatable>(_ field: inout Value, to value: Value, stamp: inout UInt64) {
        if value != field { (field, stamp) = (value, newStyleStamp()) }
    }

    // MARK: Geometry and visibility

    /// Where the view sits in its cell's content view; `.zero` for parts the layout places by style.
    /// Kept within the frame limits (`PluginLimits.maxFrameExtent`), and drawn clipped to the row.
    @inlinable public var frame: Rect {
        get { _frame }
        set { _frame = PluginLimits.clamp(newValue) }
    }
    @usableFromInline @exclusivity(unchecked) var _frame: Rect
    /// A hidden view is not drawn (`CK_VIEW_HIDDEN`); false by default.
    @inlinable public var isHidden: Bool {
        get { _isHidden }
        set { _isHidden = newValue }
    }
    @usableFromInline @exclusivity(unchecked) var _isHidden: Bool = false
    /// The colour filled under the view's frame (`CK_VIEW_BACKGROUND_COLOR`); nil for none.
    @inlinable public var backgroundColor: Color? {
        get { _backgroundColor }
        set { View.restyle(&_backgroundColor, to: newValue, stamp: &_styleStamp) }
    }
    @usableFromInline @exclusivity(unchecked) var _backgroundColor: Color?

    // MARK: Label properties

    /// The label's text (`CK_VIEW_TEXT`); nil draws nothing.
    public var text: String? {
        get { _textBytes?.string }
        set {
            guard let newValue else {
                _textBytes = nil
                return
            }
            newValue.withBorrowedUTF8 { setText($0) }  // into the same buffer, as a hook's text goes
        }
    }
    /// The text as the view keeps it: UTF-8 bytes checked as they were set, in a buffer reused
    /// row after row (see `setText(_:)`).
    @inlinable package var textBytes: TextBytes? { _textBytes }
    @usableFromInline @exclusivity(unchecked) var _textBytes: TextBytes?
    /// The text's identity, nil when there is none (an empty text has one): to tell, without
    /// retaining it, whether the text is one a reader already holds.
    @inlinable package var textIdentity: ObjectIdentifier? {
        guard _textBytes != nil else { return nil }
        return ObjectIdentifier(_textBytes.unsafelyUnwrapped)
    }
    /// The text unretained, nil when there is none or it is empty: for a reader that uses it only
    /// while the view holds it (the layout measuring a row), and so spares a retain and release.
    @inlinable package var unretainedTextBytes: Unmanaged<TextBytes>? {
        guard _textBytes != nil else { return nil }
        let text = Unmanaged.passUnretained(_textBytes.unsafelyUnwrapped)
        return text._withUnsafeGuaranteedRef { $0.byteCount > 0 } ? text : nil
    }

    /// The buffer of the text before the last, kept to write a text after next into (`ownsTextBuffer`).
    @usableFromInline @exclusivity(unchecked) var _otherTextBytes: TextBytes?

    /// Sets the text from UTF-8 bytes (invalid ones replaced), into a buffer of an earlier text when
    /// nothing else holds it: a hook's text for every row costs no allocation. Lines laid out
    /// from an earlier text keep theirs (the buffer is shared then, and another is used).
    package func setText(_ bytes: UnsafeBufferPointer<UInt8>) {
        if ownsTextBuffer() {
            _textBytes!.assign(bytes)
        } else {
            _textBytes = TextBytes(bytes)
        }
    }

    /// `setText(_:)` of bytes `UTF8Bytes.check` found valid, and clean or not: not checked again.
    @inline(__always)
    package func setText(checked bytes: UnsafeBufferPointer<UInt8>, isClean: Bool) {
        if !ownsTextBuffer() { _textBytes = TextBytes(capacity: bytes.count) }
        // Borrowed: the view holds it, and a call on the stored reference retained it per text.
        Unmanaged.passUnretained(_textBytes!)._withUnsafeGuaranteedRef { $0.assign(checked: bytes, isClean: isClean) }
    }

    /// Whether `_textBytes` is, or has been made by a swap, a buffer nothing else holds, to write the
    /// next text into: the buffer of the text before the last (swapped in), else the last text's.
    /// When neither is free the last is kept as the other, free by the text after next. Two, as a
    /// layout keeps a row's views, and with them the last text's lines, until it lays out the next
    /// row over them (`RowLayout.views`): by then it has let go of the text before. (Letting go of
    /// the last text after each row cost a release a label, and an emptied line list's;
    /// BENCHMARKS.md, "Measurements behind the code": RowLayout.views.)
    ///
    /// The other buffer is tried first because on a table's rows the last one is held and the other
    /// free: the last first took two uniqueness checks a text where this takes one (BENCHMARKS.md,
    /// "Measurements behind the code": View.otherBufferFirst).
    @inline(__always)
    private func ownsTextBuffer() -> Bool {
        if isKnownUniquelyReferenced(&_otherTextBytes) {
            swap(&_textBytes, &_otherTextBytes)
            return true
        }
        if isKnownUniquelyReferenced(&_textBytes) { return true }
        swap(&_textBytes, &_otherTextBytes)  // the text held kept as the other, free by the text after next
        return false
    }
    /// The font size in points (`CK_VIEW_FONT_SIZE`): 17 by default (12 for the detail
    /// label); below 14 the label is drawn as small text. Hooks may set only finite values above 0.
    @inlinable public var fontSize: Double {
        get { _fontSize }
        set { View.restyle(&_fontSize, to: newValue, stamp: &_styleStamp) }
    }
    @usableFromInline @exclusivity(unchecked) var _fontSize: Double = 17.0
    /// The font weight (`CK_VIEW_FONT_WEIGHT`); `.regular` by default.
    @inlinable public var fontWeight: FontWeight {
        get { _fontWeight }
        set { View.restyle(&_fontWeight, to: newValue, stamp: &_styleStamp) }
    }
    @usableFromInline @exclusivity(unchecked) var _fontWeight: FontWeight = FontWeight.regular
    /// The text colour (`CK_VIEW_TEXT_COLOR`); nil for the colour the cell style gives the label.
    @inlinable public var textColor: Color? {
        get { _textColor }
        set { View.restyle(&_textColor, to: newValue, stamp: &_styleStamp) }
    }
    @usableFromInline @exclusivity(unchecked) var _textColor: Color?
    /// The text colour while the row is selected.
    @inlinable public var highlightedTextColor: Color? {
        get { _highlightedTextColor }
        set { View.restyle(&_highlightedTextColor, to: newValue, stamp: &_styleStamp) }
    }
    @usableFromInline @exclusivity(unchecked) var _highlightedTextColor: Color?
    /// Where the text sits in the frame (`CK_VIEW_ALIGNMENT`); `.natural` by default.
    @inlinable public var alignment: TextAlignment {
        get { _alignment }
        set { View.restyle(&_alignment, to: newValue, stamp: &_styleStamp) }
    }
    @usableFromInline @exclusivity(unchecked) var _alignment: TextAlignment = TextAlignment.natural
    /// How text that does not fit is wrapped or cut (`CK_VIEW_LINE_BREAK_MODE`);
    /// `.truncateTail` by default.
    @inlinable public var lineBreakMode: LineBreakMode {
        get { _lineBreakMode }
        set { View.restyle(&_lineBreakMode, to: newValue, stamp: &_styleStamp) }
    }
    @usableFromInline @exclusivity(unchecked) var _lineBreakMode: LineBreakMode = LineBreakMode.truncateTail
    /// 0 = as many lines as fit in the frame; kept within 0...`PluginLimits.maxNumberOfLines`.
    @inlinable public var numberOfLines: Int {
        get { _numberOfLines }
        set {
            View.restyle(
                &_numberOfLines, to: PluginLimits.clamp(newValue, max: PluginLimits.maxNumberOfLines),
                stamp: &_styleStamp)
        }
    }
    @usableFromInline @exclusivity(unchecked) var _numberOfLines: Int = 1

    // MARK: Layout

    /// How the view follows the content view's width when a reused cell is shown at another width
    /// (`CK_VIEW_AUTORESIZING_MASK`, UIKit's values): none by default. A subview with a mask is placed
    /// by its leading edge: when its row reads right to left (`Cell.isRightToLeft`) the layout mirrors
    /// its frame within the content view (a flexible left margin then acts as a flexible right one);
    /// one without keeps its frame.
    public var autoresizingMask: AutoresizingMask = []

    // MARK: Image properties

    /// A name from the asset catalog.
    @inlinable public var imageName: String? {
        get { _imageName }
        set { _imageName = newValue }
    }
    @usableFromInline @exclusivity(unchecked) var _imageName: String?

    // MARK: Lifecycle

    /// The handle plugins see; freed with the view.
    let handle: UnsafeMutablePointer<ck_view>

    init(kind: ViewKind, frame: Rect = .zero, tag: Int = 0, cell: Cell) {
        self.kind = kind
        _frame = PluginLimits.clamp(frame)
        self._tag = tag
        owner = cell
        handle = .allocate(capacity: 1)
        handle.initialize(to: ck_view(host: HostTable.pointer, host_private: nil))
        handle.pointee.host_private = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit { handle.deallocate() }

    /// Called by the cell as it is freed: the view no longer reaches it, and a
    /// plugin that kept the view's handle gets CK_ERR_INVALID_ARGUMENT.
    func orphan() {
        _isOrphaned = true
        handle.pointee.host_private = nil
    }

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
        if isOrphaned { return "a view whose cell is gone" }
        let cell = owner
        if self === cell.textLabel { return "the text label" }
        if self === cell.detailTextLabel { return "the detail text label" }
        if self === cell.imageView { return "the image view" }
        if self === cell.contentView { return "the content view" }
        return "the accessory view"
    }
}

/// How a subview follows the content view's width (`ck_autoresizing`, UIKit's autoresizing mask).
///
/// `CellKitPlugin.AutoresizingMask` is the plugin side's copy, with the same bits: a plugin does not
/// link the runtime.
public struct AutoresizingMask: OptionSet, Sendable, Hashable {
    /// The mask's bits, as C has them.
    public let rawValue: Int32
    /// The mask with `rawValue`'s bits.
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// The space left of the view grows and shrinks (a right-aligned badge).
    public static let flexibleLeftMargin = AutoresizingMask(rawValue: 1)
    /// The view's width grows and shrinks (a label across the row).
    public static let flexibleWidth = AutoresizingMask(rawValue: 2)
    /// The space right of the view grows and shrinks.
    public static let flexibleRightMargin = AutoresizingMask(rawValue: 4)

    /// `frame` moved for a content view whose width went from `old` to `new`: the change goes to
    /// the flexible parts (left margin, width, right margin) in proportion to their sizes, or in
    /// equal shares when they are all 0, as UIKit resizes; the width never below 0.
    package func resize(_ frame: Rect, from old: Int, to new: Int) -> Rect {
        let delta = new - old
        guard delta != 0, !isEmpty else { return frame }
        let parts = [
            (contains(.flexibleLeftMargin), max(0, frame.x)), (contains(.flexibleWidth), max(0, frame.width)),
            (contains(.flexibleRightMargin), max(0, old - frame.x - frame.width)),
        ]
        let flexible = parts.filter(\.0)
        let total = flexible.reduce(0) { $0 + $1.1 }
        var shares = parts.map { part -> Int in
            guard part.0 else { return 0 }
            return total > 0 ? delta * part.1 / total : delta / flexible.count
        }
        // What integer division left goes to the first flexible part, so the shares add up to delta.
        if let first = shares.indices.first(where: { parts[$0].0 }) { shares[first] += delta - shares.reduce(0, +) }
        var moved = frame
        moved.x += shares[0]
        moved.width = max(0, frame.width + shares[1])
        return moved
    }
}
