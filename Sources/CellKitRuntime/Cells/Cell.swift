// A table cell: UITableViewCell's anatomy in character cells (seeds 000, 002, 003).

import CCellKit
import CProcess
import CellKitDiscovery
import CellKitModel
import Glibc
import Synchronization

/// A cell made by the cell-creation routine and configured by a plugin's hooks.
/// Cells are reused: a cell keeps what its hooks set until they set it again.
/// A cell belongs to one table's thread (see CellQueue), so its stored properties
/// skip the runtime exclusivity checks, which cost more than the hooks' work on them.
///
/// A Swift plugin sees a cell as `CellKitPlugin.Cell`, a handle valid during one hook: the same
/// name on each side of the C ABI, as UIKit's `UITableViewCell` is one name; no module imports both.
public final class Cell {
    // MARK: Identity

    /// The cell type this cell was made for.
    public let reuseIdentifier: CellIdentifier
    /// The pool this cell returns to (its type, style and selectability), or -1 for
    /// none: what recycling indexes by.
    /// The row width the cell was last laid out at (`CellQueue.rowWidth`); -1 before its first row.
    @usableFromInline @exclusivity(unchecked) var laidOutWidth = -1
    @usableFromInline let slot: Int
    /// The queue that made the cell (`CellQueue.id`), or 0 for a cell made by hand:
    /// a cell goes back only to the queue that made it.
    @usableFromInline let owner: Int
    /// The table's stylesheet and warnings.
    public let context: CellContext
    /// The file name of the plugin that provides the cell's type ("libfoo.so"), "built-in",
    /// or "a cell made by hand": how warnings about the values its hooks set name it.
    package let pluginFile: String

    // MARK: Appearance

    /// How the standard parts are laid out (`CK_CELL_STYLE`). Set from `dequeueCell`'s
    /// `style` when the cell is made; hooks may change it.
    @inlinable public var style: CellStyle {
        get { _style }
        set { _style = newValue }
    }
    @usableFromInline @exclusivity(unchecked) var _style: CellStyle
    /// How the row looks while selected (`CK_CELL_SELECTION_STYLE`); `.none` for a row
    /// that is not selectable.
    @inlinable public var selectionStyle: SelectionStyle {
        get { _selectionStyle }
        set { _selectionStyle = newValue }
    }
    @usableFromInline @exclusivity(unchecked) var _selectionStyle: SelectionStyle
    /// The standard glyph at the right edge (`CK_CELL_ACCESSORY_TYPE`); `.none` by default.
    @inlinable public var accessoryType: AccessoryType {
        get { _accessoryType }
        set { _accessoryType = newValue }
    }
    @usableFromInline @exclusivity(unchecked) var _accessoryType: AccessoryType = AccessoryType.none
    /// A custom accessory view, drawn instead of the accessory type's glyph.
    @inlinable public var accessoryView: View? { _accessoryView }
    @usableFromInline @exclusivity(unchecked) var _accessoryView: View?
    /// How many levels the content is indented (`CK_CELL_INDENTATION_LEVEL`): 0 by default,
    /// kept within 0...`PluginLimits.maxIndentation`. Each level is `indentationWidth` columns.
    @inlinable public var indentationLevel: Int {
        get { _indentationLevel }
        set { _indentationLevel = PluginLimits.clamp(newValue, max: PluginLimits.maxIndentation) }
    }
    @usableFromInline @exclusivity(unchecked) var _indentationLevel: Int = 0
    /// Columns per indentation level (`CK_CELL_INDENTATION_WIDTH`): 2 by default, kept
    /// within 0...`PluginLimits.maxIndentation`.
    @inlinable public var indentationWidth: Int {
        get { _indentationWidth }
        set { _indentationWidth = PluginLimits.clamp(newValue, max: PluginLimits.maxIndentation) }
    }
    @usableFromInline @exclusivity(unchecked) var _indentationWidth: Int = 2
    /// A row height that means as tall as the content (`CK_AUTOMATIC_DIMENSION`, UIKit's
    /// `automaticDimension`): a height hook's answer or `rowHeight`, over the table's.
    public static let automaticDimension = -1.0

    /// Whether the cell's plugin was built against a header that has `CK_AUTOMATIC_DIMENSION`
    /// (1.3 on): for the others -1 keeps its old meaning, ignored with a warning.
    package let knowsAutomaticDimension: Bool
    /// Whether `data_bool` writes one byte (a `bool`: the plugin declares ABI 1.4 or later) or the
    /// four of an `int32_t` (1.0 to 1.3), as cellkit.h's `ck_data_bool_out` says.
    package let writesBoolByte: Bool
    /// What this host's own header makes `ck_data_bool_out`: a cell made without a plugin's
    /// descriptor is written as a plugin built against it would be.
    package static let hostWritesBoolByte = CK_ABI_MINOR >= CK_DATA_BOOL_BYTE_MINOR

    /// The row's height in lines; nil = the table's default (or the height hook's answer);
    /// `automaticDimension`: as tall as the content, whatever the table says. Hooks can set only
    /// 1...`PluginLimits.maxRowHeight` or that; the renderer cuts any other value to that range.
    @inlinable public var rowHeight: Double? {
        get { _rowHeight }
        set { _rowHeight = newValue }
    }
    @usableFromInline @exclusivity(unchecked) var _rowHeight: Double?
    /// The row's background colour and image (`CK_CELL_BACKGROUND_COLOR`,
    /// `CK_CELL_BACKGROUND_IMAGE`); empty by default.
    @inlinable public var background: Fill {
        get { _background }
        set { _background = newValue }
    }
    @usableFromInline @exclusivity(unchecked) var _background: Fill = Fill()
    /// Stores `background` in `fill` unless it holds that already: reading it out and storing it
    /// retained its image name twice and released it once, a row (the layout keeps one `fill`;
    /// BENCHMARKS.md, "Measurements behind the code": Cell.background).
    package func background(into fill: inout Fill) {
        if _background.imageName == nil, fill.imageName == nil {  // compared, the name was retained
            fill.color = _background.color
        } else if fill != _background {
            fill = _background
        }
    }
    /// Replaces `background` while the row is selected.
    @inlinable public var selectedBackground: Fill {
        get { _selectedBackground }
        set { _selectedBackground = newValue }
    }
    @usableFromInline @exclusivity(unchecked) var _selectedBackground: Fill = Fill()

    // MARK: Parts

    /// The main label (`CK_PART_TEXT_LABEL`). Never nil once the cell is made.
    @inlinable public var textLabel: View! { _textLabel }
    @usableFromInline @exclusivity(unchecked) var _textLabel: View!
    /// The secondary label, 12 points by default (`CK_PART_DETAIL_TEXT_LABEL`); the
    /// `default` style does not show it. Never nil once the cell is made.
    @inlinable public var detailTextLabel: View! { _detailTextLabel }
    @usableFromInline @exclusivity(unchecked) var _detailTextLabel: View!
    /// The image before the labels (`CK_PART_IMAGE_VIEW`). Never nil once the cell is made.
    @inlinable public var imageView: View! { _imageView }
    @usableFromInline @exclusivity(unchecked) var _imageView: View!
    /// The view between the image and the accessory; custom subviews live here.
    @inlinable public var contentView: View! { _contentView }
    @usableFromInline @exclusivity(unchecked) var _contentView: View!
    /// Columns kept clear at each side of a row: the layout's margin.
    public static let margin = 1

    /// The columns subviews show in, from the row's left edge, in a row `width` columns wide: the width
    /// less the right margin and the accessory as set now (a standard one takes its glyph's columns, an
    /// accessory view its width, at most a third of the row). What hooks read as the content view's frame.
    package func subviewWidth(inRowWidth width: Int) -> Int {
        var taken = Self.margin
        if let view = accessoryView, !view.isHidden {
            taken += min(view.frame.width, width / 3)
        } else {
            taken += accessoryType.columns
        }
        return max(0, width - taken)
    }

    /// Whether the row the cell shows reads right to left (`CK_CELL_LAYOUT_DIRECTION`): its context's
    /// `direction` is `rtl`, or `auto` and the text label's text, as it is now, reads right to left
    /// (`TextDirection.isRightToLeft(_:)`). Right to left, the layout mirrors the standard parts and
    /// the content view, and places a subview with an autoresizing mask by its leading edge.
    public var isRightToLeft: Bool {
        switch context.direction {
        case .ltr: false
        case .rtl: true
        case .auto: textLabel.text.map { TextDirection.isRightToLeft($0) } == true
        }
    }

    /// The content view's subviews, in the order they were added (later ones draw on top).
    @inlinable public var subviews: [View] { _subviews }
    @usableFromInline @exclusivity(unchecked) var _subviews: [View] = []
    /// `subviews`' storage, neither it nor the views retained, for a reader that calls no hook and
    /// changes no subview while it reads (the layout): valid until `subviews` changes. Read through
    /// `withUnsafeBufferPointer` the storage was retained and released around each read, twice a row
    /// (BENCHMARKS.md, "Measurements behind the code": Cell.unretainedSubviews).
    package var unretainedSubviews: UnsafeBufferPointer<View> { _subviews.withUnsafeBufferPointer { $0 } }

    // MARK: The row it is showing

    /// The row the cell is showing.
    @inlinable public var indexPath: IndexPath { shownIndexPath }
    /// How many rows the cell's section has.
    @inlinable public var rowsInSection: Int { shownRowsInSection }
    // Stored apart from the public getters so that the routine, inlined into
    // callers in other modules, may set them (see `show`).
    @usableFromInline @exclusivity(unchecked) var shownIndexPath = IndexPath(section: 0, row: 0)
    @usableFromInline @exclusivity(unchecked) var shownRowsInSection = 1
    /// The row's data, as the data source gave it.
    public var data: RowValue { dataBox.pointee.rowValue }
    /// The row's data when it is a JSON Lines record (for lines worked out ahead, `LinePlan`),
    /// unretained: for a reader done with it before the cell shows another row (the layout).
    package var unretainedRecord: JSONRecord.Unretained? { RowData.unretainedRecord(in: dataBox) }
    // Out of line: replacing a value stored in the class frees the old one while
    // the compiler holds an extra reference to the cell (an atomic pair per row);
    // a store through a raw pointer needs no reference to the cell at all.
    @usableFromInline let dataBox: UnsafeMutablePointer<RowData>
    /// Set by the table while it draws a selected row.
    @inlinable public var isSelected: Bool {
        get { _isSelected }
        set { _isSelected = newValue }
    }
    @usableFromInline @exclusivity(unchecked) var _isSelected: Bool = false
    /// Where the row stands in its section (inlinable: the layout reads it once a row).
    @inlinable public var position: RowPosition { RowPosition(row: indexPath.row, rowsInSection: rowsInSection) }

    // MARK: Errors

    /// The message of the last failed host call, as `host->last_error` returns it.
    @inlinable public var lastError: String? { _lastError }
    @usableFromInline @exclusivity(unchecked) var _lastError: String?

    /// A host call of `function` failed, on the hook's thread: `message` becomes `last_error`,
    /// and the context counts the failure against the plugin and the running hook
    /// (`CellContext.failedHostCalls`). Out of line: only failing calls come here.
    @inline(never)
    func fail(_ function: StaticString, _ message: String) {
        _lastError = message
        context.countFailure(
            FailedHostCalls.Key(pluginFile: pluginFile, identifier: reuseIdentifier, hook: _hook), function: function,
            message: message)
    }

    // MARK: Threads

    /// The thread running (or that last ran) one of the cell's hooks, as `pthread_self()`:
    /// host calls from any other thread are refused (cellkit.h, THREADS). Atomic, as
    /// such a thread reads it while the hook's thread may set it for the next row.
    @usableFromInline let hookThread: Atomic<UInt>
    /// The hook running (or last run): warnings about the values it set name it. Read
    /// only on the hook's thread.
    @usableFromInline @exclusivity(unchecked) var _hook = HookKind.customizeCell

    /// Records that `hook` is about to run on this thread. Two stores, no lock.
    @inlinable @inline(__always)
    func enterHook(_ hook: HookKind) {
        hookThread.store(UInt(pthread_self()), ordering: .relaxed)
        _hook = hook
        if let progress { HookProgress.enter(progress, hook, poolSlot: slot, indexPath: shownIndexPath) }
    }

    /// Records that the hook entered last returned (see `HookProgress`): one store. A child that
    /// the hook forked (in a worker, `WorkerRole`) ends here, before it draws or says anything;
    /// a worker told to check its channels after every hook does it here.
    @inlinable @inline(__always)
    func leaveHook() {
        let flags = ck_process_after_hook()
        if flags != 0 { Self.afterHook(flags) }
        if let progress { HookProgress.leave(progress) }
    }

    /// What `ck_process_after_hook()`'s flags ask for after a hook: a forked child ends; a worker
    /// checking its channels after every hook checks them (while the record still names the hook).
    @usableFromInline @inline(never)
    static func afterHook(_ flags: Int32) {
        if flags & 1 != 0 { _exit(0) }
        ck_process_run_hook_check()
    }

    /// The process's progress record when the cell was made (`HookProgress.record`), or nil:
    /// hooks record where they run before they start, for a crash report or a supervisor.
    @usableFromInline let progress: UnsafeMutablePointer<HookProgress.Header>?

    /// Whether the calling thread is the one running the cell's hooks.
    var isOnHookThread: Bool { hookThread.load(ordering: .relaxed) == UInt(pthread_self()) }

    // MARK: Lifecycle

    /// The handle hooks receive; valid as long as the cell. Freed with it.
    @usableFromInline package let handle: UnsafeMutablePointer<ck_cell>
    /// C strings handed to a hook; let go when the cell is next handed out.
    @exclusivity(unchecked) var scratch = CStringArena()
    /// The plain data text last handed to a hook (see `handedText`); its record is the row's data.
    @exclusivity(unchecked) var lastPlainCopy: PlainCopy?
    /// Whether hooks were handed C strings that wait to be let go: a stored flag,
    /// so that `recycle` tests one byte of the cell.
    @usableFromInline @exclusivity(unchecked) var hasScratch = false

    /// A new, blank cell. Use a `CellQueue` to get cells with their hooks run.
    package convenience init(
        reuseIdentifier: CellIdentifier, style: CellStyle, selectionStyle: SelectionStyle = .default
    ) {
        self.init(
            reuseIdentifier: reuseIdentifier, owner: 0, slot: -1, style: style, selectionStyle: selectionStyle,
            context: CellContext(), pluginFile: "a cell made by hand")
    }

    init(
        reuseIdentifier: CellIdentifier, owner: Int, slot: Int, style: CellStyle, selectionStyle: SelectionStyle,
        context: CellContext, pluginFile: String, knowsAutomaticDimension: Bool = true,
        writesBoolByte: Bool = Cell.hostWritesBoolByte
    ) {
        self.knowsAutomaticDimension = knowsAutomaticDimension
        self.writesBoolByte = writesBoolByte
        self.reuseIdentifier = reuseIdentifier
        self.context = context
        self.pluginFile = pluginFile
        hookThread = Atomic(UInt(pthread_self()))
        progress = HookProgress.record
        self.owner = owner
        self.slot = slot
        _style = style
        _selectionStyle = selectionStyle
        dataBox = .allocate(capacity: 1)
        dataBox.initialize(to: .value(.null))
        handle = .allocate(capacity: 1)
        handle.initialize(to: ck_cell(host: HostTable.pointer, host_private: nil))
        handle.pointee.host_private = Unmanaged.passUnretained(self).toOpaque()
        _textLabel = View(kind: .label, cell: self)
        _detailTextLabel = View(kind: .label, cell: self)
        detailTextLabel.fontSize = 12
        _imageView = View(kind: .image, cell: self)
        _contentView = View(kind: .plain, frame: Rect(x: 0, y: 0, width: context.contentWidth, height: 0), cell: self)
    }

    deinit {
        // Views the program still holds must not reach this cell once it is freed.
        for view in [textLabel, detailTextLabel, imageView, contentView, accessoryView] { view?.orphan() }
        for view in subviews { view.orphan() }
        freeScratch()
        handle.deallocate()
        dataBox.deinitialize(count: 1)
        dataBox.deallocate()
    }

    /// The cell behind a handle a plugin passed back, or nil for NULL.
    static func from(_ handle: UnsafeMutablePointer<ck_cell>?) -> Cell? {
        guard let raw = handle?.pointee.host_private else { return nil }
        return Unmanaged<Cell>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Runs `body` on the cell behind `handle` without retaining it: the routine
    /// holds the cell for as long as any hook runs. Nil for NULL.
    static func borrow<R>(_ handle: UnsafeMutablePointer<ck_cell>?, _ body: (Cell) -> R) -> R? {
        guard let raw = handle?.pointee.host_private else { return nil }
        return Unmanaged<Cell>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
    }

    // MARK: Subviews

    /// The subview with `tag`, or nil. Tag 0 finds nothing: it is every view's default.
    public func view(withTag tag: Int) -> View? {
        tag == 0 ? nil : subviews.first { $0.tag == tag }
    }

    /// The handle of the subview with `tag` (`view(withTag:)`), found without retaining the views.
    /// Tags are unique and fixed (`addSubview`), and most cells number their subviews from 1 in
    /// order: the view at `tag - 1` is looked at first (BENCHMARKS.md, "Measurements behind the
    /// code": Cell.tagAtIndex). Inline into the host call: called apart, 54 instructions a row of
    /// three lookups, 18 inline (BENCHMARKS.md, "Measurements behind the code": Cell.viewHandleInline).
    @inline(__always)
    func viewHandle(withTag tag: Int) -> UnsafeMutablePointer<ck_view>? {
        guard tag != 0 else { return nil }
        return _subviews.withUnsafeBufferPointer { views in
            /// View `k`'s handle if it has the tag.
            func handle(_ k: Int) -> UnsafeMutablePointer<ck_view>? {
                Unmanaged.passUnretained(views[k])._withUnsafeGuaranteedRef { $0.tag == tag ? $0.handle : nil }
            }
            if tag > 0, tag <= views.count, let guess = handle(tag &- 1) { return guess }
            for k in views.indices { if let found = handle(k) { return found } }
            return nil
        }
    }

    /// Adds a subview to the content view, its frame kept within the frame limits
    /// (`PluginLimits.maxFrameExtent`). Throws for tag 0, a tag already in use, or a cell
    /// that already has `PluginLimits.maxSubviews` subviews (`CK_ERR_LIMIT`).
    @discardableResult
    public func addSubview(_ kind: ViewKind, frame: Rect, tag: Int) throws(CellError) -> View {
        guard _subviews.count < PluginLimits.maxSubviews else { throw Self.subviewLimitError }
        guard tag != 0 else { throw CellError(status: CK_ERR_TAG_ZERO, message: Self.tagZeroMessage) }
        guard tag > 0 else {
            throw CellError(status: CK_ERR_INVALID_ARGUMENT, message: "tag \(tag) is negative; use tags from 1")
        }
        guard view(withTag: tag) == nil else {
            throw CellError(
                status: CK_ERR_DUPLICATE_TAG,
                message:
                    "the cell already has a subview with tag \(tag); add each subview once, in initCellFor, and find it by tag in customizeCellFor"
            )
        }
        let view = View(kind: kind, frame: frame, tag: tag, cell: self)
        _subviews.append(view)
        return view
    }

    /// Makes (or replaces) the custom accessory view.
    @discardableResult
    public func setAccessoryView(_ kind: ViewKind, frame: Rect) -> View {
        let view = View(kind: kind, frame: frame, cell: self)
        _accessoryView = view
        return view
    }

    static let subviewLimitError = CellError(
        status: CK_ERR_LIMIT,
        message:
            "the cell already has \(PluginLimits.maxSubviews) subviews, the most a cell may have (CK_MAX_SUBVIEWS); add fewer, or reuse them by tag"
    )

    static let tagZeroMessage =
        "tag 0 refused: 0 is every view's default tag, so view_with_tag(0) could never find this view; number subviews from 1"

    // MARK: Hand-out

    /// Points the cell at a row, before its customize hook runs. Plain stores
    /// only: a call that might free memory here makes the compiler retain and
    /// release the cell around it, two atomics per row.
    @inlinable @inline(__always)
    func show(_ indexPath: IndexPath, rowsInSection: Int, data: consuming RowData) {
        shownIndexPath = indexPath
        shownRowsInSection = rowsInSection
        // A move: copying a RowValue is an outlined copy and a retain per row. The
        // old value needs freeing only if it holds storage; most rows replace null.
        switch dataBox.pointee {
        case .value(.null), .value(.bool), .value(.number): dataBox.initialize(to: consume data)
        default: replaceData(with: consume data)
        }
    }

    /// Frees the previous row's value and stores the next one; out of line so the
    /// routine's common path needs fewer registers saved.
    @usableFromInline @inline(never)
    func replaceData(with data: consuming RowData) {
        lastPlainCopy = nil  // it points into the record being freed (set only while a record is the data)
        dataBox.pointee = consume data
    }

    /// The row's value at a dot-separated key path, decoding only that value.
    func dataValue(at keyPath: String) -> RowValue? { dataBox.pointee.value(at: keyPath) }

    /// The row's text at a key path as a C string, copied straight from a JSON Lines
    /// record when the text there has no escapes and is valid UTF-8; else nil.
    func plainDataString(at keyPath: UnsafePointer<CChar>?) -> UnsafePointer<CChar>? {
        // The key's bytes as the hook passed them: a String of it was a large part of this call
        // (BENCHMARKS.md, "Measurements behind the code": Cell.plainDataString).
        guard let keyPath, let record = RowData.unretainedRecord(in: dataBox),  // the cell holds the record
            let text = record.plainString(
                at: UnsafeRawBufferPointer(start: keyPath, count: strlen(keyPath)).bindMemory(to: UInt8.self))
        else { return nil }
        let copy = scratch.copy(text.bytes)
        hasScratch = true
        lastPlainCopy = PlainCopy(
            pointer: copy, count: text.bytes.count, isClean: text.isClean, source: text.bytes.baseAddress!)
        return UnsafePointer(copy)
    }

    /// A plain data text handed to a hook (see `handedText`).
    struct PlainCopy {
        /// The copy the hook was handed, NUL-terminated.
        let pointer: UnsafeMutablePointer<CChar>
        /// Its bytes, the NUL left out.
        let count: Int
        /// Whether the text is clean (`UTF8Bytes.check`).
        let isClean: Bool
        /// The bytes it was copied from, in the row's record, which the cell holds.
        let source: UnsafePointer<UInt8>
    }

    /// The bytes `text` points to, and whether they are clean, when it is the text `data_string`
    /// last handed to a hook on this row, unchanged (the same length and bytes as in the row's
    /// record, which the cell holds): known valid without checking them again. The usual hook
    /// passes a data text straight to `set_text`, and checking it twice was a noticeable part of its
    /// time (BENCHMARKS.md, "Measurements behind the code": Cell.handedText).
    func handedText(_ text: UnsafePointer<CChar>) -> (bytes: UnsafeBufferPointer<UInt8>, isClean: Bool)? {
        // The copy is the record's bytes, which hold no NUL (a plain text has none), and a NUL: equal to
        // them and ending where they end, it is a C string of that length. (A `strnlen` first was a
        // tenth of the call: BENCHMARKS.md, "Measurements behind the code": Cell.handedText.)
        guard let copy = lastPlainCopy, UnsafePointer(copy.pointer) == text, copy.count <= PluginLimits.maxTextBytes,
            memcmp(text, copy.source, copy.count) == 0, text[copy.count] == 0
        else { return nil }
        return (UnsafeRawBufferPointer(start: text, count: copy.count).bindMemory(to: UInt8.self), copy.isClean)
    }

    /// Copies `text` into memory that stays valid until the cell is recycled.
    func cString(_ text: String) -> UnsafePointer<CChar> {
        hasScratch = true
        return UnsafePointer(text.withBorrowedUTF8 { scratch.copy($0) })
    }

    /// Lets go of the C strings hooks were handed (when the cell goes back to its pool).
    @usableFromInline func freeScratch() {
        scratch.forgetAll()
        (hasScratch, lastPlainCopy) = (false, nil)
    }
}

/// A host call that failed; its status goes back to the plugin, its message to `last_error`.
public struct CellError: Error, CustomStringConvertible {
    /// What the host function returns to the plugin: a `CK_ERR_…` constant of cellkit.h, never `CK_OK`.
    public let status: ck_status
    /// One line saying what went wrong and how to fix it; `host->last_error(cell)` returns it.
    public let message: String
    /// `message`: printing the error prints what `last_error` returns.
    public var description: String { message }

    init(status: ck_status, message: String) { (self.status, self.message) = (status, message) }

    /// Any error as a CellError; only CellErrors are ever thrown inside the host table.
    init(_ error: any Error) {
        self = error as? CellError ?? CellError(status: CK_ERR_INVALID_ARGUMENT, message: "\(error)")
    }
}
