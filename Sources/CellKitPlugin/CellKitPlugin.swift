// Swift over cellkit.h, for plugins written in Swift. Everything goes through
// the host's function table; a plugin built with this module never links the host.
//
//     import CellKitPlugin
//
//     @_cdecl("customizeCellForGreeting")   // the C name the host looks for
//     public func customizeCellForGreeting(_ raw: UnsafeMutablePointer<ck_cell>?, _ indexPath: ck_index_path) {
//         let cell = Cell(raw)
//         cell.textLabel.text = "Hello, row \(indexPath.row)"
//     }
//
// `public` matters: an internal @_cdecl function is dropped from release builds.

@_exported import CCellKit

// MARK: - Cell

/// A cell handed to a hook. Valid only while the hook runs.
///
/// The host's own cell is `CellKitRuntime.Cell`; the names match on purpose, as UIKit's
/// `UITableViewCell` is one name to a plugin author. A module imports one or the other, never
/// both: a plugin links CellKitPlugin (the C ABI seen from Swift), the host links the runtime.
public struct Cell {
    /// The C handle, for cellkit.h's own functions (`ck_set_accessory(cell.raw, ...)`).
    public let raw: UnsafeMutablePointer<ck_cell>
    var host: ck_host { raw.pointee.host.pointee }

    /// Wraps the pointer a hook received. The host never passes NULL.
    public init(_ raw: UnsafeMutablePointer<ck_cell>?) {
        guard let raw else { preconditionFailure("CellKit passed a NULL cell") }
        self.raw = raw
    }

    // MARK: Parts

    /// The main label (`CK_PART_TEXT_LABEL`); every cell has one.
    public var textLabel: View { part(CK_PART_TEXT_LABEL)! }
    /// The second label (`CK_PART_DETAIL_TEXT_LABEL`), 12 points by default; the default style does not show it.
    public var detailTextLabel: View { part(CK_PART_DETAIL_TEXT_LABEL)! }
    /// The image at the left (`CK_PART_IMAGE_VIEW`); set its `imageName` to show one.
    public var imageView: View { part(CK_PART_IMAGE_VIEW)! }
    /// The view subviews go in (`CK_PART_CONTENT_VIEW`); its frame's width is the columns subviews show in:
    /// the cell's width less the right margin and the accessory as set when read (ABI 1.2).
    public var contentView: View { part(CK_PART_CONTENT_VIEW)! }
    /// The custom accessory view, if `setAccessoryView` made one.
    public var accessoryView: View? { part(CK_PART_ACCESSORY_VIEW) }

    private func part(_ p: ck_cell_part) -> View? { host.cell_part(raw, p).map(View.init) }

    // MARK: Properties

    /// How the standard labels are placed (`CK_CELL_STYLE`).
    public var style: ck_cell_style {
        get { ck_cell_style(UInt32(truncatingIfNeeded: int(CK_CELL_STYLE))) }
        nonmutating set { setInt(CK_CELL_STYLE, newValue.rawValue) }
    }
    /// How the row looks when selected (`CK_CELL_SELECTION_STYLE`); `CK_SELECTION_NONE` draws no selection.
    public var selectionStyle: ck_selection_style {
        get { ck_selection_style(UInt32(truncatingIfNeeded: int(CK_CELL_SELECTION_STYLE))) }
        nonmutating set { setInt(CK_CELL_SELECTION_STYLE, newValue.rawValue) }
    }
    /// The standard accessory at the right (`CK_CELL_ACCESSORY_TYPE`); a custom accessory view replaces it.
    public var accessoryType: ck_accessory_type {
        get { ck_accessory_type(UInt32(truncatingIfNeeded: int(CK_CELL_ACCESSORY_TYPE))) }
        nonmutating set { setInt(CK_CELL_ACCESSORY_TYPE, newValue.rawValue) }
    }
    /// How many levels the content is indented (`CK_CELL_INDENTATION_LEVEL`), 0 or more.
    public var indentationLevel: Int {
        get { Int(int(CK_CELL_INDENTATION_LEVEL)) }
        nonmutating set { setInt(CK_CELL_INDENTATION_LEVEL, newValue) }
    }
    /// Columns per indentation level (`CK_CELL_INDENTATION_WIDTH`), 0 or more.
    public var indentationWidth: Int {
        get { Int(int(CK_CELL_INDENTATION_WIDTH)) }
        nonmutating set { setInt(CK_CELL_INDENTATION_WIDTH, newValue) }
    }
    /// A `rowHeight` (or a height hook's answer) for a row as tall as its content, as UIKit's
    /// `automaticDimension` (`CK_AUTOMATIC_DIMENSION`, ABI 1.3): labels of 0 lines grow to their text.
    public static let automaticDimension: Double = CK_AUTOMATIC_DIMENSION
    /// The row's height in lines (`CK_CELL_ROW_HEIGHT`); 0 = the table's default;
    /// `automaticDimension`: as tall as the content.
    public var rowHeight: Double {
        get { var v = 0.0; _ = host.cell_get_double(raw, CK_CELL_ROW_HEIGHT, &v); return v }
        nonmutating set { _ = host.cell_set_double(raw, CK_CELL_ROW_HEIGHT, newValue) }
    }
    /// The row's background colour (`CK_CELL_BACKGROUND_COLOR`); `CK_COLOR_NONE` (0) for none.
    public var backgroundColor: ck_color {
        get { ck_color(truncatingIfNeeded: int(CK_CELL_BACKGROUND_COLOR)) }
        nonmutating set { setInt(CK_CELL_BACKGROUND_COLOR, newValue) }
    }
    /// The background colour when selected (`CK_CELL_SELECTED_BACKGROUND_COLOR`);
    /// `CK_COLOR_NONE` (0) for the selection style's.
    public var selectedBackgroundColor: ck_color {
        get { ck_color(truncatingIfNeeded: int(CK_CELL_SELECTED_BACKGROUND_COLOR)) }
        nonmutating set { setInt(CK_CELL_SELECTED_BACKGROUND_COLOR, newValue) }
    }
    /// The name of an asset-catalog image drawn as the row's background (`CK_CELL_BACKGROUND_IMAGE`);
    /// nil for none.
    public var backgroundImage: String? {
        get { string(CK_CELL_BACKGROUND_IMAGE) }
        nonmutating set { _ = host.cell_set_string(raw, CK_CELL_BACKGROUND_IMAGE, newValue) }
    }
    /// The background image when selected (`CK_CELL_SELECTED_BACKGROUND_IMAGE`); nil for none.
    public var selectedBackgroundImage: String? {
        get { string(CK_CELL_SELECTED_BACKGROUND_IMAGE) }
        nonmutating set { _ = host.cell_set_string(raw, CK_CELL_SELECTED_BACKGROUND_IMAGE, newValue) }
    }
    /// Whether the cell's row reads right to left (`CK_CELL_LAYOUT_DIRECTION`, read-only, ABI 1.4;
    /// false on an older host). Right to left, a subview with an autoresizing mask is placed by its
    /// leading edge (mirrored); one without keeps its frame (cellkit.h, RIGHT TO LEFT).
    public var isRightToLeft: Bool { ck_cell_is_right_to_left(raw) != 0 }
    /// The cell type's identifier, as the table names it (`CK_CELL_REUSE_IDENTIFIER`, read-only).
    public var reuseIdentifier: String { string(CK_CELL_REUSE_IDENTIFIER) ?? "" }

    private func int(_ p: ck_cell_property) -> Int64 { var v: Int64 = 0; _ = host.cell_get_int(raw, p, &v); return v }
    private func setInt(_ p: ck_cell_property, _ v: some BinaryInteger) {
        _ = host.cell_set_int(raw, p, Int64(truncatingIfNeeded: v))
    }
    private func string(_ p: ck_cell_property) -> String? {
        var out: UnsafePointer<CChar>?
        guard host.cell_get_string(raw, p, &out) == CK_OK, let out else { return nil }
        return String(cString: out)
    }

    // MARK: Subviews

    /// Adds a subview to the content view; nil (see `lastError`) for tag 0 or a tag in use.
    @discardableResult
    public func addSubview(_ kind: ck_view_kind, frame: ck_rect, tag: Int32) -> View? {
        host.add_subview(raw, kind, frame, tag).map(View.init)
    }

    /// The subview with `tag`, or nil.
    public func view(withTag tag: Int32) -> View? { host.view_with_tag(raw, tag).map(View.init) }

    /// Makes the custom accessory view.
    @discardableResult
    public func setAccessoryView(_ kind: ck_view_kind, frame: ck_rect) -> View? {
        host.set_accessory_view(raw, kind, frame).map(View.init)
    }

    // MARK: The row

    /// The row's data.
    public var data: RowData { RowData(raw: host.row_data(raw)!, host: raw.pointee.host) }

    /// Where the row stands in its section.
    public var position: ck_row_position {
        var p = ck_row_position()
        _ = host.row_position(raw, &p)
        return p
    }

    /// The message of the last host call that failed on this cell.
    public var lastError: String? { host.last_error(raw).map { String(cString: $0) } }
}

// MARK: - View

/// A part or subview of a cell. Label properties apply to label views only.
///
/// The host's own view is `CellKitRuntime.View`: the same name on the plugin's side of the C ABI,
/// as with `Cell`.
public struct View {
    /// The C handle, for cellkit.h's own functions (`ck_set_font(view.raw, ...)`).
    public let raw: UnsafeMutablePointer<ck_view>
    var host: ck_host { raw.pointee.host.pointee }

    /// Wraps a view pointer from the C API, such as `ck_text_label(cell.raw)`. It must not be NULL.
    public init(_ raw: UnsafeMutablePointer<ck_view>) { self.raw = raw }

    /// The label's text, UTF-8 (`CK_VIEW_TEXT`); nil for none.
    public var text: String? {
        get { string(CK_VIEW_TEXT) }
        nonmutating set { _ = host.view_set_string(raw, CK_VIEW_TEXT, newValue) }
    }
    /// The image view's image, a name from the asset catalog (`CK_VIEW_IMAGE_NAME`); nil for none.
    public var imageName: String? {
        get { string(CK_VIEW_IMAGE_NAME) }
        nonmutating set { _ = host.view_set_string(raw, CK_VIEW_IMAGE_NAME, newValue) }
    }
    /// The label's font size in points (`CK_VIEW_FONT_SIZE`), 17 by default; under 14 draws as small text.
    public var fontSize: Double {
        get { var v = 0.0; _ = host.view_get_double(raw, CK_VIEW_FONT_SIZE, &v); return v }
        nonmutating set { _ = host.view_set_double(raw, CK_VIEW_FONT_SIZE, newValue) }
    }
    /// The label's font weight (`CK_VIEW_FONT_WEIGHT`); a terminal draws semibold and bold as bold.
    public var fontWeight: ck_font_weight {
        get { ck_font_weight(UInt32(truncatingIfNeeded: int(CK_VIEW_FONT_WEIGHT))) }
        nonmutating set { setInt(CK_VIEW_FONT_WEIGHT, newValue.rawValue) }
    }
    /// The label's text colour (`CK_VIEW_TEXT_COLOR`); `CK_COLOR_NONE` (0) for the style's.
    public var textColor: ck_color {
        get { ck_color(truncatingIfNeeded: int(CK_VIEW_TEXT_COLOR)) }
        nonmutating set { setInt(CK_VIEW_TEXT_COLOR, newValue) }
    }
    /// The label's text colour when the row is selected (`CK_VIEW_HIGHLIGHTED_TEXT_COLOR`);
    /// `CK_COLOR_NONE` (0) for white.
    public var highlightedTextColor: ck_color {
        get { ck_color(truncatingIfNeeded: int(CK_VIEW_HIGHLIGHTED_TEXT_COLOR)) }
        nonmutating set { setInt(CK_VIEW_HIGHLIGHTED_TEXT_COLOR, newValue) }
    }
    /// The label's horizontal alignment (`CK_VIEW_ALIGNMENT`); `CK_ALIGN_NATURAL` for the style's.
    public var alignment: ck_text_alignment {
        get { ck_text_alignment(UInt32(truncatingIfNeeded: int(CK_VIEW_ALIGNMENT))) }
        nonmutating set { setInt(CK_VIEW_ALIGNMENT, newValue.rawValue) }
    }
    /// What the label does with text that does not fit (`CK_VIEW_LINE_BREAK_MODE`).
    public var lineBreakMode: ck_line_break_mode {
        get { ck_line_break_mode(UInt32(truncatingIfNeeded: int(CK_VIEW_LINE_BREAK_MODE))) }
        nonmutating set { setInt(CK_VIEW_LINE_BREAK_MODE, newValue.rawValue) }
    }
    /// The most lines the label shows (`CK_VIEW_NUMBER_OF_LINES`); 0 = as many as fit.
    public var numberOfLines: Int {
        get { Int(int(CK_VIEW_NUMBER_OF_LINES)) }
        nonmutating set { setInt(CK_VIEW_NUMBER_OF_LINES, newValue) }
    }
    /// How the view follows the content view's width when its cell is shown at another width
    /// (`CK_VIEW_AUTORESIZING_MASK`, ABI 1.3); none by default. From ABI 1.4 a subview with a mask is
    /// placed by its leading edge: right to left its frame mirrors within the content view.
    public var autoresizingMask: AutoresizingMask {
        get { AutoresizingMask(rawValue: Int32(truncatingIfNeeded: int(CK_VIEW_AUTORESIZING_MASK))) }
        nonmutating set { setInt(CK_VIEW_AUTORESIZING_MASK, newValue.rawValue) }
    }
    /// Whether the view is left out of drawing (`CK_VIEW_HIDDEN`).
    public var isHidden: Bool {
        get { int(CK_VIEW_HIDDEN) != 0 }
        nonmutating set { _ = host.view_set_int(raw, CK_VIEW_HIDDEN, newValue ? 1 : 0) }
    }
    /// The view's background colour (`CK_VIEW_BACKGROUND_COLOR`); `CK_COLOR_NONE` (0) for none.
    public var backgroundColor: ck_color {
        get { ck_color(truncatingIfNeeded: int(CK_VIEW_BACKGROUND_COLOR)) }
        nonmutating set { setInt(CK_VIEW_BACKGROUND_COLOR, newValue) }
    }
    /// Where the view sits in the content view: x and width in columns, y and height in lines.
    /// A part left at all zeros is placed by the cell's style.
    public var frame: ck_rect {
        get { var r = ck_rect(); _ = host.view_get_frame(raw, &r); return r }
        nonmutating set { _ = host.view_set_frame(raw, newValue) }
    }
    /// The tag given by `addSubview` (`CK_VIEW_TAG`, read-only); 0 for the parts.
    public var tag: Int32 { Int32(truncatingIfNeeded: int(CK_VIEW_TAG)) }

    /// Applies a style from the table's stylesheet (ABI 1.1); false if the style is unknown
    /// or the host is older.
    @discardableResult
    public func applyStyle(_ name: String) -> Bool { ck_apply_style(raw, name) == CK_OK }

    /// Applies a style the stylesheet may not have (ABI 1.2): false, with no warning, if it has none.
    /// On an older host it is `applyStyle`.
    @discardableResult
    public func applyOptionalStyle(_ name: String) -> Bool { ck_apply_optional_style(raw, name) == CK_OK }

    private func int(_ p: ck_view_property) -> Int64 { var v: Int64 = 0; _ = host.view_get_int(raw, p, &v); return v }
    private func setInt(_ p: ck_view_property, _ v: some BinaryInteger) {
        _ = host.view_set_int(raw, p, Int64(truncatingIfNeeded: v))
    }
    private func string(_ p: ck_view_property) -> String? {
        var out: UnsafePointer<CChar>?
        guard host.view_get_string(raw, p, &out) == CK_OK, let out else { return nil }
        return String(cString: out)
    }
}

// MARK: - Row data

/// The row's data, read by dot-separated key path ("logos.0"). Missing or
/// mistyped values read as nil.
public struct RowData {
    let raw: OpaquePointer
    let host: UnsafePointer<ck_host>

    /// The data `raw` (a `ck_data` from `row_data`), read through `host`.
    init(raw: OpaquePointer, host: UnsafePointer<ck_host>) { (self.raw, self.host) = (raw, host) }

    /// The text at `keyPath` (`data_string`); nil if missing or not text.
    public func string(_ keyPath: String) -> String? {
        var out: UnsafePointer<CChar>?
        guard host.pointee.data_string(raw, keyPath, &out) == CK_OK, let out else { return nil }
        return String(cString: out)
    }
    /// The number at `keyPath` (`data_number`); nil if missing or not a number.
    public func number(_ keyPath: String) -> Double? {
        var out = 0.0
        return host.pointee.data_number(raw, keyPath, &out) == CK_OK ? out : nil
    }
    /// The bool at `keyPath` (`data_bool`); nil if missing or not a bool.
    public func bool(_ keyPath: String) -> Bool? {
        // A zeroed word: right whether the header makes `ck_data_bool_out` a bool or an int32_t
        // and whether the host writes one byte of it or four.
        var word: UInt32 = 0
        let status = withUnsafeMutableBytes(of: &word) { bytes in
            Self.callBool(bytes.baseAddress!) { host.pointee.data_bool(raw, keyPath, $0) }
        }
        return status == CK_OK ? word != 0 : nil
    }
    private static func callBool<Out>(
        _ place: UnsafeMutableRawPointer, _ call: (UnsafeMutablePointer<Out>?) -> ck_status
    ) -> ck_status {
        call(place.bindMemory(to: Out.self, capacity: 1))
    }
    /// How many elements the list, or members the object, at `keyPath` has (`data_count`);
    /// nil if missing or neither.
    public func count(_ keyPath: String) -> Int? {
        var out: Int64 = 0
        return host.pointee.data_count(raw, keyPath, &out) == CK_OK ? Int(out) : nil
    }
    /// The type of the value at `keyPath` (`data_type`, ABI 1.2); nil if there is none or the host is older.
    public func type(_ keyPath: String) -> ck_data_type? {
        guard hostHas(host, \.data_type), let read = host.pointee.data_type else { return nil }
        var out: Int32 = 0
        return read(raw, keyPath, &out) == CK_OK ? ck_data_type(rawValue: UInt32(out)) : nil
    }
    /// The string, number or bool at `keyPath` as text (`data_text`, ABI 1.2: numbers as JSON writes
    /// them); nil if missing, null, a list or an object, or if the host is older.
    public func text(_ keyPath: String) -> String? {
        guard hostHas(host, \.data_text), let read = host.pointee.data_text else { return nil }
        var out: UnsafePointer<CChar>?
        guard read(raw, keyPath, &out) == CK_OK, let out else { return nil }
        return String(cString: out)
    }
}

// MARK: - Loading

/// For a plugin's `cellkit_plugin_init`: refuses to load, saying why (ABI 1.2's `init_error`; an older
/// host shows only the status). Return what it returns:
///
///     @_cdecl("cellkit_plugin_init")
///     public func initialize(_ host: UnsafePointer<ck_host>?, _ context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?)
///         -> ck_status
///     {
///         refuseToLoad(host, "no config at ~/.config/foo.yaml: run `foo --init`")
///     }
public func refuseToLoad(_ host: UnsafePointer<ck_host>?, _ message: String) -> ck_status {
    guard let host else { return CK_ERR_REFUSED }
    return ck_init_fail(host, message)
}

/// Whether the host's table reaches `entry` (CK_HOST_HAS in cellkit.h): it may be older than the header.
func hostHas<T>(_ host: UnsafePointer<ck_host>, _ entry: KeyPath<ck_host, T>) -> Bool {
    guard let offset = MemoryLayout<ck_host>.offset(of: entry) else { return false }
    return Int(host.pointee.size) >= offset + MemoryLayout<T>.size
}

// MARK: - Colours

/// An opaque colour from 8-bit components, as CK_RGB does.
public func rgb(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> ck_color {
    ck_color(red) << 24 | ck_color(green) << 16 | ck_color(blue) << 8 | 0xFF
}

/// How a subview follows the content view's width (`ck_autoresizing`, UIKit's values): the change
/// in width goes to the flexible parts in proportion to their sizes.
///
/// The plugin's copy of the host's `CellKitRuntime.AutoresizingMask`, with the same bits: a plugin
/// does not link the runtime, so the type is declared on each side of the C ABI.
public struct AutoresizingMask: OptionSet, Sendable {
    /// The bits, as `ck_autoresizing` has them.
    public let rawValue: Int32
    /// The mask with `rawValue`'s bits.
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// The space left of the view grows and shrinks: a count against the right edge.
    public static let flexibleLeftMargin = AutoresizingMask(
        rawValue: Int32(CK_AUTORESIZE_FLEXIBLE_LEFT_MARGIN.rawValue))
    /// The view's width grows and shrinks: a title across the row.
    public static let flexibleWidth = AutoresizingMask(rawValue: Int32(CK_AUTORESIZE_FLEXIBLE_WIDTH.rawValue))
    /// The space right of the view grows and shrinks.
    public static let flexibleRightMargin = AutoresizingMask(
        rawValue: Int32(CK_AUTORESIZE_FLEXIBLE_RIGHT_MARGIN.rawValue))
}
