// The table of host functions every plugin reaches through `cell->host`.
// Each entry is a thin C shim: find the Swift object behind the handle, do the
// work in Swift, turn a failure into a status plus a message for last_error.
// Entries are appended, never changed or removed (cellkit.h's ABI rule).
// Every entry first checks that it runs on the thread running the cell's hook
// (cellkit.h, THREADS), and keeps the values it sets within PluginLimits.

import CCellKit
import CellKitModel
import Foundation
import Synchronization

enum HostTable {
    /// The one table, built once and never freed: plugins keep pointers to it.
    nonisolated(unsafe) static let pointer: UnsafePointer<ck_host> = {
        let table = UnsafeMutablePointer<ck_host>.allocate(capacity: 1)
        table.initialize(to: make())
        return UnsafePointer(table)
    }()

    // swift-format-ignore
    private static func make() -> ck_host {
        ck_host(
            abi_major: UInt32(CK_ABI_MAJOR), abi_minor: UInt32(CK_ABI_MINOR), size: UInt32(MemoryLayout<ck_host>.size),
            cell_set_int: { c, p, v in onCell("cell_set_int", c) { try $0.set(p, int: v) } },
            cell_get_int: { c, p, out in onCell("cell_get_int", c) { out?.pointee = try $0.int(p) } },
            cell_set_double: { c, p, v in onCell("cell_set_double", c) { try $0.set(p, double: v) } },
            cell_get_double: { c, p, out in onCell("cell_get_double", c) { out?.pointee = try $0.double(p) } },
            cell_set_string: { c, p, v in onCell("cell_set_string", c) { cell in try cell.set(p, string: budgeted(v, cell: cell, view: nil)) } },
            cell_get_string: { c, p, out in onCell("cell_get_string", c) { cell in out?.pointee = try cell.string(p).map(cell.cString) } },
            cell_part: { c, part in Cell.borrow(c) { $0.isOnHookThread ? $0.partHandle(part) : nil } ?? nil },
            set_accessory_view: { c, kind, frame in
                guard let cell = Cell.from(c), cell.isOnHookThread else { return nil }
                do {
                    let kind = try ViewKind(c: kind)
                    let view = cell.setAccessoryView(kind, frame: Rect(frame))
                    cell.checkFrame(frame, of: view)
                    return view.handle
                } catch {
                    cell.fail("set_accessory_view", "set_accessory_view: \(CellError(error).message)")
                    return nil
                }
            },
            add_subview: { c, kind, frame, tag in
                guard let cell = Cell.from(c), cell.isOnHookThread else { return nil }
                do {
                    let view = try cell.addSubview(try ViewKind(c: kind), frame: Rect(frame), tag: Int(tag))
                    cell.checkFrame(frame, of: view)
                    return view.handle
                } catch {
                    let failure = CellError(error)
                    if failure.status == CK_ERR_LIMIT {
                        cell.warnLimit(
                            .subviews, "added more than \(PluginLimits.maxSubviews) subviews",
                            "add_subview refused the rest with CK_ERR_LIMIT (a cell has at most \(PluginLimits.maxSubviews) subviews)")
                    }
                    cell.fail("add_subview", "add_subview: \(failure.message)")
                    return nil
                }
            },
            view_with_tag: { c, tag in
                // Borrowed, as the views are: a retain and a release of each per call were a large part of
                // it (BENCHMARKS.md, "Measurements behind the code": HostTable.borrow).
                Cell.borrow(c) { cell -> UnsafeMutablePointer<ck_view>? in
                    guard cell.isOnHookThread else { return nil }
                    if tag == 0 {
                        cell.fail("view_with_tag", "view_with_tag: \(Cell.tagZeroMessage)")
                        cell.context.tagZeroLookup?()
                    }
                    return cell.viewHandle(withTag: Int(tag))
                } ?? nil
            },
            view_set_int: { v, p, value in onView("view_set_int", v) { try $0.set(p, int: value) } },
            view_get_int: { v, p, out in onView("view_get_int", v) { out?.pointee = try $0.int(p) } },
            view_set_double: { v, p, value in onView("view_set_double", v) { try $0.set(p, double: value) } },
            view_get_double: { v, p, out in onView("view_get_double", v) { out?.pointee = try $0.double(p) } },
            view_set_string: { v, p, value in
                // A label's text goes in as bytes: no String made and checked per row.
                if p == CK_VIEW_TEXT, let value, let raw = v?.pointee.host_private { return setLabelText(raw, value) }
                return onView("view_set_string", v) { view in try view.set(p, string: budgeted(value, cell: nil, view: view)) }
            },
            view_get_string: { v, p, out in onView("view_get_string", v) { view in out?.pointee = try view.string(p).map(view.owner.cString) } },
            view_set_frame: { v, frame in onView("view_set_frame", v) { view in
                view.frame = Rect(frame)
                view.owner.checkFrame(frame, of: view)
            } },
            view_get_frame: { v, out in onView("view_get_frame", v) { view in
                // The content view's width is worked out when read (cellkit.h: the content view's frame).
                var frame = view.frame
                if view === view.owner.contentView {
                    frame.width = view.owner.subviewWidth(inRowWidth: view.owner.context.contentWidth)
                }
                out?.pointee = frame.c
            } },
            row_data: { c in c.map { OpaquePointer($0) } },
            row_position: { c, out in onCell("row_position", c) { cell in
                out?.pointee = ck_row_position(
                    section: Int64(cell.indexPath.section), row: Int64(cell.indexPath.row),
                    rows_in_section: Int64(cell.rowsInSection),
                    is_first: cell.indexPath.row == 0 ? 1 : 0, is_last: cell.indexPath.row == cell.rowsInSection - 1 ? 1 : 0)
            } },
            data_string: { d, path, out in
                // A JSON Lines text written plainly goes to the hook as its own bytes, no String between.
                let plain = Cell.borrow(d.map { UnsafeMutablePointer<ck_cell>($0) }) { cell in
                    out != nil && cell.isOnHookThread ? cell.plainDataString(at: path) : nil
                }
                if let out, let text = plain ?? nil {
                    out.pointee = text
                    return CK_OK
                }
                return onData("data_string", d, path) { cell, value in
                    guard case .string(let s) = value else { throw wrongType(value, "a string") }
                    out?.pointee = cell.cString(s)
                }
            },
            data_number: { d, path, out in onData("data_number", d, path) { _, value in
                guard case .number(let n) = value else { throw wrongType(value, "a number") }
                out?.pointee = n
            } },
            data_bool: { d, path, out in onData("data_bool", d, path) { cell, value in
                guard case .bool(let b) = value else { throw wrongType(value, "a bool") }
                if let out { writeBool(b, to: UnsafeMutableRawPointer(out), byte: cell.writesBoolByte) }
            } },
            data_count: { d, path, out in onData("data_count", d, path) { _, value in
                switch value {
                case .list(let items): out?.pointee = Int64(items.count)
                case .object(let fields): out?.pointee = Int64(fields.count)
                default: throw wrongType(value, "a list or an object")
                }
            } },
            last_error: { c in
                guard let cell = Cell.from(c) else { return nil }
                guard cell.isOnHookThread else { return HostThread.wrongThreadMessage }
                guard let message = cell.lastError else { return nil }
                return cell.cString(message)
            },
            view_apply_style: { v, name in onView("view_apply_style", v) { view in
                guard let name else { throw CellError(status: CK_ERR_INVALID_ARGUMENT, message: "view_apply_style: the style name is NULL") }
                let styleName = String(cString: name)
                do throws(CellError) { try view.owner.context.stylesheet.apply(styleName, to: view) } catch {
                    view.owner.context.warn("\(view.owner.reuseIdentifier): \(error.message)")
                    throw error
                }
            } },
            init_error: { _, message in InitMessages.record(message) },
            data_type: { d, path, out in onData("data_type", d, path) { _, value in out?.pointee = value.cType } },
            data_text: { d, path, out in onData("data_text", d, path) { cell, value in
                guard let text = value.text else { throw wrongType(value, "a string, a number or a bool") }
                out?.pointee = cell.cString(text)
            } },
            view_apply_optional_style: { v, name in
                // An answer, not a failure: a missing style sets last_error but is neither counted nor warned.
                let styleName = name.map { String(cString: $0) }
                return View.borrow(v) { view -> ck_status in
                    guard view.owner.isOnHookThread else { return CK_ERR_WRONG_THREAD }
                    guard let styleName else { return CK_ERR_INVALID_ARGUMENT }
                    guard view.owner.context.stylesheet.has(styleName) else {
                        view.owner._lastError = "no style '\(styleName)' (optional: not warned)"
                        return CK_ERR_NOT_FOUND
                    }
                    return onView("view_apply_optional_style", v) { view in
                        try view.owner.context.stylesheet.apply(styleName, to: view)
                    }
                } ?? CK_ERR_INVALID_ARGUMENT
            }
        )
    }
}

// MARK: - Shims (file scope: a C closure may not capture even a metatype)

/// Runs `body` on the cell behind `handle`; a thrown CellError becomes its status and last_error,
/// and is counted against `function` (only then: the name is a constant until a call fails).
/// On any thread but the one running the cell's hook it touches nothing: CK_ERR_WRONG_THREAD.
private func onCell(
    _ function: StaticString, _ handle: UnsafeMutablePointer<ck_cell>?, _ body: (Cell) throws -> Void
) -> ck_status {
    Cell.borrow(handle) { cell in
        guard cell.isOnHookThread else { return CK_ERR_WRONG_THREAD }
        do { try body(cell) } catch let missing as MissingValue {
            cell._lastError = missing.message  // an answer, not a failure: not counted
            return CK_ERR_NOT_FOUND
        } catch {
            let failure = CellError(error)
            cell.fail(function, failure.message)
            return failure.status
        }
        return CK_OK
    } ?? CK_ERR_INVALID_ARGUMENT
}

private func onView(
    _ function: StaticString, _ handle: UnsafeMutablePointer<ck_view>?, _ body: (View) throws -> Void
) -> ck_status {
    View.borrow(handle) { view in
        // Borrowed: the cell holds its views, and a retain of it per view call cost more than the check.
        guard Unmanaged.passUnretained(view.owner)._withUnsafeGuaranteedRef({ $0.isOnHookThread }) else {
            return CK_ERR_WRONG_THREAD
        }
        do { try body(view) } catch {
            let failure = CellError(error)
            view.owner.fail(function, "\(view.name): \(failure.message)")
            return failure.status
        }
        return CK_OK
    } ?? CK_ERR_INVALID_ARGUMENT
}

/// `view_set_string` of a label's text (`CK_VIEW_TEXT`), as `onView` runs it, written out: a hook
/// sets texts on every row, and through `onView`'s closures the call was about 120 instructions
/// before the text was looked at (BENCHMARKS.md, "Measurements behind the code": HostTable.setLabelText).
private func setLabelText(_ raw: UnsafeMutableRawPointer, _ text: UnsafePointer<CChar>) -> ck_status {
    let view = Unmanaged<View>.fromOpaque(raw)
    guard view._withUnsafeGuaranteedRef({ $0.owner.isOnHookThread }) else { return CK_ERR_WRONG_THREAD }
    return view._withUnsafeGuaranteedRef { view in
        do throws(CellError) { try view.setText(cString: text) } catch {
            view.owner.fail("view_set_string", "\(view.name): \(error.message)")
            return error.status
        }
        return CK_OK
    }
}

/// `row_data` hands out the cell's own handle as the opaque `ck_data *`.
private func onData(
    _ function: StaticString, _ handle: OpaquePointer?, _ keyPath: UnsafePointer<CChar>?,
    _ body: (Cell, RowValue) throws -> Void
) -> ck_status {
    let cellHandle = handle.map { UnsafeMutablePointer<ck_cell>($0) }
    return onCell(function, cellHandle) { cell in
        let path = keyPath.map { String(cString: $0) } ?? ""
        cell.context.keysRead?.note(path)
        guard let value = cell.dataValue(at: path) else {
            throw MissingValue(message: "the row's data has no value at '\(path.debugDescriptionEscaped)'")
        }
        do { try body(cell, value) } catch let error as WrongType {
            throw CellError(
                status: CK_ERR_WRONG_TYPE,
                message:
                    "expected \(error.expected) at '\(path.debugDescriptionEscaped)' in \(RowName.forAuthor(cell.indexPath)), found \(error.found)"
                    + (error.found == RowValue.number(0).typeName ? " (data_text reads it as text)" : ""))
        }
    }
}

/// Writes `value` where `data_bool`'s caller wants it (cellkit.h, `ck_data_bool_out`): one byte,
/// 0 or 1, to a plugin that declares ABI 1.4 or later (`byte`), whose `bool` may sit beside other
/// variables; all four bytes of an `int32_t` to an older one, whose variable may not be zeroed.
package func writeBool(_ value: Bool, to out: UnsafeMutableRawPointer, byte: Bool) {
    if byte {
        out.storeBytes(of: value ? 1 : 0, as: UInt8.self)
    } else {
        out.storeBytes(of: value ? 1 : 0, as: Int32.self)
    }
}

/// A data lookup that found no value at its key path: `CK_ERR_NOT_FOUND`, but plugins ask for
/// optional keys, so it is an answer rather than a failed call and is not counted.
private struct MissingValue: Error {
    let message: String
}

/// A data read that found a value of another type; `onData` names the key in its message.
/// The messages `init_error` records, by the thread running a plugin's `cellkit_plugin_init`:
/// a thread has an entry only while it runs one, so a call from anywhere else records nothing.
enum InitMessages {
    private static let pending = Mutex<[UInt: String]>([:])
    /// The most of a message kept, in bytes (cellkit.h: init_error).
    static let limit = 512

    /// Runs `body` (a plugin's init) with a slot for its message; returns the message it recorded.
    static func collecting<T>(_ body: () -> T) -> (T, String?) {
        let me = UInt(pthread_self())
        pending.withLock { $0[me] = "" }
        let result = body()
        let message = pending.withLock { $0.removeValue(forKey: me) }
        return (result, message.flatMap { $0.isEmpty ? nil : $0 })
    }

    static func record(_ message: UnsafePointer<CChar>?) -> ck_status {
        let me = UInt(pthread_self())
        let text = message.map(kept) ?? ""
        return pending.withLock { slots in
            guard slots[me] != nil else { return CK_ERR_WRONG_THREAD }
            slots[me] = text.isEmpty ? "(an empty message)" : text
            return CK_ERR_REFUSED
        }
    }

    /// At most `limit` bytes of `message`, cut back to a whole character, invalid UTF-8 replaced.
    private static func kept(_ message: UnsafePointer<CChar>) -> String {
        var bytes = Array(UnsafeRawBufferPointer(start: message, count: strnlen(message, limit)))
        if bytes.count == limit, let lead = bytes.lastIndex(where: { $0 & 0xC0 != 0x80 }), bytes[lead] >= 0xC0 {
            bytes.removeSubrange(lead...)  // a character the cut split
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

private struct WrongType: Error {
    let expected: String
    let found: String
}

extension RowValue {
    /// The value's `ck_data_type`, as `data_type` answers it.
    fileprivate var cType: Int32 {
        let type: ck_data_type
        switch self {
        case .null: type = CK_DATA_NULL
        case .bool: type = CK_DATA_BOOL
        case .number: type = CK_DATA_NUMBER
        case .string: type = CK_DATA_STRING
        case .list: type = CK_DATA_LIST
        case .object: type = CK_DATA_OBJECT
        }
        return Int32(type.rawValue)
    }
}

private func wrongType(_ value: RowValue, _ expected: String) -> WrongType {
    WrongType(expected: expected, found: value.typeName)
}

// MARK: - Cell properties, by C code

extension Cell {
    func set(_ p: ck_cell_property, int v: Int64) throws(CellError) {
        switch p {
        case CK_CELL_STYLE: style = try enumValue(v, "style")
        case CK_CELL_SELECTION_STYLE: selectionStyle = try enumValue(v, "selection style")
        case CK_CELL_ACCESSORY_TYPE: accessoryType = try enumValue(v, "accessory type")
        case CK_CELL_INDENTATION_LEVEL:
            indentationLevel = clamped(
                v, max: PluginLimits.maxIndentation, .indentation, "an indentation level",
                rule: "indentation levels are 0 to \(PluginLimits.maxIndentation)")
        case CK_CELL_INDENTATION_WIDTH:
            indentationWidth = clamped(
                v, max: PluginLimits.maxIndentation, .indentation, "an indentation width",
                rule: "indentation widths are 0 to \(PluginLimits.maxIndentation) columns")
        case CK_CELL_BACKGROUND_COLOR: background.color = Color(c: v)
        case CK_CELL_SELECTED_BACKGROUND_COLOR: selectedBackground.color = Color(c: v)
        case CK_CELL_LAYOUT_DIRECTION:
            throw CellError(
                status: CK_ERR_READ_ONLY,
                message: "the layout direction is read-only: the table's or section's direction sets it")
        default: throw propertyError(p.rawValue, "an int")
        }
    }

    func int(_ p: ck_cell_property) throws(CellError) -> Int64 {
        switch p {
        case CK_CELL_STYLE: Int64(style.rawValue)
        case CK_CELL_SELECTION_STYLE: Int64(selectionStyle.rawValue)
        case CK_CELL_ACCESSORY_TYPE: Int64(accessoryType.rawValue)
        case CK_CELL_INDENTATION_LEVEL: Int64(indentationLevel)
        case CK_CELL_INDENTATION_WIDTH: Int64(indentationWidth)
        case CK_CELL_BACKGROUND_COLOR: Int64(background.color?.rawValue ?? 0)
        case CK_CELL_SELECTED_BACKGROUND_COLOR: Int64(selectedBackground.color?.rawValue ?? 0)
        case CK_CELL_LAYOUT_DIRECTION: Int64(isRightToLeft ? CK_LAYOUT_RIGHT_TO_LEFT.rawValue : 0)
        default: throw propertyError(p.rawValue, "an int")
        }
    }

    func set(_ p: ck_cell_property, double v: Double) throws(CellError) {
        guard p == CK_CELL_ROW_HEIGHT else { throw propertyError(p.rawValue, "a double") }
        let maximum = Double(PluginLimits.maxRowHeight)
        if v == Cell.automaticDimension, knowsAutomaticDimension { rowHeight = v; return }
        guard v.isFinite, v >= 0 else {
            let why = v.isFinite ? "it is negative" : "it is not a finite number"
            warnLimit(.rowHeight, "set a row height of \(v)", "ignored, as \(why) (\(PluginLimits.rowHeightRule))")
            throw CellError(
                status: CK_ERR_INVALID_ARGUMENT,
                message:
                    "row height \(v) is not a finite number >= 0 (0: the table's default; rows are 1 to \(PluginLimits.maxRowHeight) lines tall)"
            )
        }
        if v == 0 { rowHeight = nil; return }
        let lines = min(max(v, 1), maximum)
        if lines != v {
            warnLimit(
                .rowHeight, "set a row height of \(v)",
                "clamped to \(Int(lines)) \(lines == 1 ? "line" : "lines") (\(PluginLimits.rowHeightRule))")
        }
        rowHeight = lines
    }

    func double(_ p: ck_cell_property) throws(CellError) -> Double {
        guard p == CK_CELL_ROW_HEIGHT else { throw propertyError(p.rawValue, "a double") }
        return rowHeight ?? 0
    }

    func set(_ p: ck_cell_property, string v: String?) throws(CellError) {
        switch p {
        case CK_CELL_BACKGROUND_IMAGE: background.imageName = v
        case CK_CELL_SELECTED_BACKGROUND_IMAGE: selectedBackground.imageName = v
        case CK_CELL_REUSE_IDENTIFIER:
            throw CellError(status: CK_ERR_READ_ONLY, message: "the reuse identifier is read-only")
        default: throw propertyError(p.rawValue, "a string")
        }
    }

    func string(_ p: ck_cell_property) throws(CellError) -> String? {
        switch p {
        case CK_CELL_BACKGROUND_IMAGE: background.imageName
        case CK_CELL_SELECTED_BACKGROUND_IMAGE: selectedBackground.imageName
        case CK_CELL_REUSE_IDENTIFIER: reuseIdentifier.name
        default: throw propertyError(p.rawValue, "a string")
        }
    }

    /// The handle of part `p`, read without retaining the part (`cell_part` runs per row).
    func partHandle(_ p: ck_cell_part) -> UnsafeMutablePointer<ck_view>? {
        switch p {
        case CK_PART_TEXT_LABEL: textLabel.handle
        case CK_PART_DETAIL_TEXT_LABEL: detailTextLabel.handle
        case CK_PART_IMAGE_VIEW: imageView.handle
        case CK_PART_CONTENT_VIEW: contentView.handle
        default: part(p)?.handle
        }
    }

    func part(_ p: ck_cell_part) -> View? {
        switch p {
        case CK_PART_TEXT_LABEL: return textLabel
        case CK_PART_DETAIL_TEXT_LABEL: return detailTextLabel
        case CK_PART_IMAGE_VIEW: return imageView
        case CK_PART_CONTENT_VIEW: return contentView
        case CK_PART_ACCESSORY_VIEW: return accessoryView
        default:
            fail("cell_part", "cell_part: unknown part \(p.rawValue)")
            return nil
        }
    }
}

// MARK: - View properties, by C code

extension View {
    func set(_ p: ck_view_property, int v: Int64) throws(CellError) {
        switch p {
        case CK_VIEW_TAG, CK_VIEW_KIND:
            throw CellError(
                status: CK_ERR_READ_ONLY, message: "property \(p.rawValue) is read-only (a tag is given by add_subview)"
            )
        case CK_VIEW_HIDDEN: isHidden = v != 0
        case CK_VIEW_BACKGROUND_COLOR: backgroundColor = Color(c: v)
        case CK_VIEW_FONT_WEIGHT: try label(); fontWeight = try enumValue(v, "font weight")
        case CK_VIEW_TEXT_COLOR: try label(); textColor = Color(c: v)
        case CK_VIEW_HIGHLIGHTED_TEXT_COLOR: try label(); highlightedTextColor = Color(c: v)
        case CK_VIEW_ALIGNMENT: try label(); alignment = try enumValue(v, "alignment")
        case CK_VIEW_LINE_BREAK_MODE: try label(); lineBreakMode = try enumValue(v, "line break mode")
        case CK_VIEW_AUTORESIZING_MASK:
            guard (0...7).contains(v) else {
                throw CellError(
                    status: CK_ERR_INVALID_ARGUMENT,
                    message:
                        "autoresizing mask \(v) has bits ck_autoresizing does not "
                        + "(0 to 7: left margin 1, width 2, right margin 4)")
            }
            autoresizingMask = AutoresizingMask(rawValue: Int32(v))
        case CK_VIEW_NUMBER_OF_LINES:
            try label()
            numberOfLines = owner.clamped(
                v, max: PluginLimits.maxNumberOfLines, .numberOfLines, "a number of lines", on: " on \(name)",
                rule: "labels have 0 to \(PluginLimits.maxNumberOfLines) lines, 0 for as many as fit")
        default: throw propertyError(p.rawValue, "an int")
        }
    }

    func int(_ p: ck_view_property) throws(CellError) -> Int64 {
        switch p {
        case CK_VIEW_TAG: Int64(tag)
        case CK_VIEW_KIND: Int64(kind.rawValue)
        case CK_VIEW_HIDDEN: isHidden ? 1 : 0
        case CK_VIEW_BACKGROUND_COLOR: Int64(backgroundColor?.rawValue ?? 0)
        case CK_VIEW_FONT_WEIGHT: Int64(fontWeight.rawValue)
        case CK_VIEW_TEXT_COLOR: Int64(textColor?.rawValue ?? 0)
        case CK_VIEW_HIGHLIGHTED_TEXT_COLOR: Int64(highlightedTextColor?.rawValue ?? 0)
        case CK_VIEW_ALIGNMENT: Int64(alignment.rawValue)
        case CK_VIEW_LINE_BREAK_MODE: Int64(lineBreakMode.rawValue)
        case CK_VIEW_NUMBER_OF_LINES: Int64(numberOfLines)
        case CK_VIEW_AUTORESIZING_MASK: Int64(autoresizingMask.rawValue)
        default: throw propertyError(p.rawValue, "an int")
        }
    }

    func set(_ p: ck_view_property, double v: Double) throws(CellError) {
        guard p == CK_VIEW_FONT_SIZE else { throw propertyError(p.rawValue, "a double") }
        try label()
        guard v.isFinite else {
            let rule = Self.fontSizeRule
            owner.warnLimit(
                .fontSize, "set a font size of \(v) on \(name)", "ignored, as it is not a finite number (\(rule))")
            throw CellError(status: CK_ERR_INVALID_ARGUMENT, message: "font size \(v) is not a finite number (\(rule))")
        }
        let size = min(max(v, PluginLimits.minFontSize), PluginLimits.maxFontSize)
        if size != v {
            let rule = Self.fontSizeRule
            owner.warnLimit(.fontSize, "set a font size of \(v) on \(name)", "clamped to \(Int(size)) (\(rule))")
        }
        fontSize = size
    }

    static let fontSizeRule =
        "font sizes are \(Int(PluginLimits.minFontSize)) to \(Int(PluginLimits.maxFontSize)) points"

    func double(_ p: ck_view_property) throws(CellError) -> Double {
        guard p == CK_VIEW_FONT_SIZE else { throw propertyError(p.rawValue, "a double") }
        return fontSize
    }

    func set(_ p: ck_view_property, string v: String?) throws(CellError) {
        switch p {
        case CK_VIEW_TEXT: try label(); text = v
        case CK_VIEW_IMAGE_NAME:
            guard kind == .image else { throw wrongKind("CK_VIEW_IMAGE_NAME", "image") }
            imageName = v
        default: throw propertyError(p.rawValue, "a string")
        }
    }

    /// `CK_VIEW_TEXT` from a C string: its bytes, cut to the text budget (with a warning), checked
    /// as the view stores them. Inline into the host call, with `setText(checked:isClean:)`: the
    /// two calls' entries and exits, three labels a row, were about 50 instructions (BENCHMARKS.md,
    /// "Measurements behind the code": Cell.viewHandleInline).
    @inline(__always)
    func setText(cString text: UnsafePointer<CChar>) throws(CellError) {
        try label()
        // The cell, borrowed (it holds this view): reading `owner` strongly retained it per call.
        if let handed = Unmanaged.passUnretained(owner)._withUnsafeGuaranteedRef({ $0.handedText(text) }) {
            return setText(checked: handed.bytes, isClean: handed.isClean)
        }
        let (bytes, cut) = PluginLimits.budgeted(text)
        setText(bytes)
        if cut { warnCut(bytes.count, cell: nil, view: self) }
    }

    func string(_ p: ck_view_property) throws(CellError) -> String? {
        switch p {
        case CK_VIEW_TEXT: text
        case CK_VIEW_IMAGE_NAME: imageName
        default: throw propertyError(p.rawValue, "a string")
        }
    }

    /// Throws unless this is a label. The test inline, the error made apart: called per label
    /// text, the check was a call of its own.
    @inline(__always)
    private func label() throws(CellError) {
        guard kind == .label else { throw notALabel() }
    }

    @inline(never)
    private func notALabel() -> CellError { wrongKind("label properties", "label") }

    private func wrongKind(_ what: String, _ needed: String) -> CellError {
        CellError(status: CK_ERR_UNKNOWN_PROPERTY, message: "\(what) apply to \(needed) views; this is a \(kind) view")
    }
}

// MARK: - Value checks

extension ViewKind {
    /// The kind a plugin passed, or an error naming the bad value.
    init(c kind: ck_view_kind) throws(CellError) {
        guard let k = ViewKind(rawValue: Int32(bitPattern: kind.rawValue)) else {
            throw CellError(status: CK_ERR_INVALID_ARGUMENT, message: "unknown view kind \(kind.rawValue)")
        }
        self = k
    }
}

private func enumValue<E: RawRepresentable<Int32> & CaseIterable>(_ v: Int64, _ what: String) throws(CellError) -> E {
    guard let raw = Int32(exactly: v), let value = E(rawValue: raw) else {
        throw CellError(status: CK_ERR_INVALID_ARGUMENT, message: "\(v) is not a \(what) (0...\(E.allCases.count - 1))")
    }
    return value
}

extension Cell {
    /// `v` within 0...`max`; a value outside is clamped, with a warning naming `what` and the `rule`.
    /// The texts are autoclosures: nothing is built unless the value is out of range.
    fileprivate func clamped(
        _ v: Int64, max: Int, _ limit: PluginLimit, _ what: StaticString,
        on view: @autoclosure () -> String = "", rule: @autoclosure () -> String
    ) -> Int {
        if v >= 0, v <= Int64(max) { return Int(v) }
        let value = v < 0 ? 0 : max
        warnLimit(limit, "set \(what) of \(v)\(view())", "clamped to \(value) (\(rule()))")
        return value
    }

    /// A frame a hook passed, checked after the view took it (clamped): warns if it did not fit the limits.
    func checkFrame(_ frame: ck_rect, of view: View) {
        let asked = Rect(frame)
        guard view.frame != asked else { return }
        warnLimit(
            .frame, "gave \(view.name) a frame of \(PluginLimits.describe(asked))",
            "clamped to \(PluginLimits.describe(view.frame)) (\(PluginLimits.frameRule))")
    }
}

private func propertyError(_ raw: UInt32, _ type: String) -> CellError {
    CellError(
        status: CK_ERR_UNKNOWN_PROPERTY,
        message: "property \(raw) is not one this target has as \(type) (is the plugin newer than the host?)")
}

/// A C string a hook passed, cut to the text budget; a cut is warned about on the cell
/// (or `view`'s cell), which is reached only then.
private func budgeted(_ text: UnsafePointer<CChar>?, cell: Cell?, view: View?) -> String? {
    guard let text else { return nil }
    let (string, cut) = PluginLimits.string(text)
    if cut { warnCut(string.utf8.count, cell: cell, view: view) }
    return string
}

/// Warns on the cell (or `view`'s cell) that a text was cut to `bytes` bytes.
private func warnCut(_ bytes: Int, cell: Cell?, view: View?) {
    guard let owner = cell ?? view?.owner else { return }
    owner.warnLimit(
        .text, "set a text of more than \(PluginLimits.maxTextBytes) bytes on \(view?.name ?? "the cell")",
        "cut to \(bytes) bytes, at a character boundary (\(PluginLimits.textRule))")
}
