// The ranges the host keeps plugin values in (cellkit.h, LIMITS), the check that
// a host call comes from the thread running the cell's hook (cellkit.h, THREADS),
// and the warnings either produces. Clamping happens where a value is set (host
// calls, which are rare) or once per row with plain integer compares; messages
// are built only when a limit is hit, and then once per hook and limit.

import CCellKit
import CellKitDiscovery
import CellKitModel
import Glibc

/// The ranges the host keeps plugin values in, so that no plugin can make a table
/// trap, allocate without bound or stall (cellkit.h, LIMITS). A value a hook sets
/// outside its range is clamped to the nearest end, a double that is not finite is
/// ignored, and the table's context warns once per hook and limit, naming the plugin
/// file, the hook and the first row it happened at.
public enum PluginLimits {
    /// The shortest row, in lines.
    @inlinable public static var minRowHeight: Int { 1 }
    /// The tallest row, in lines (`CK_MAX_ROW_HEIGHT`, 200): a height hook's answer,
    /// `CK_CELL_ROW_HEIGHT` and a row as tall as its content are all cut to it.
    @inlinable public static var maxRowHeight: Int { Int(CK_MAX_ROW_HEIGHT) }
    /// How far a frame may reach, in columns and lines (`CK_MAX_FRAME_EXTENT`, 10,000):
    /// x and y lie in -10,000...10,000, width and height in 0...10,000. Frames are
    /// drawn clipped to the row.
    @inlinable public static var maxFrameExtent: Int { Int(CK_MAX_FRAME_EXTENT) }
    /// The deepest indentation level, and the widest indentation width in columns
    /// (`CK_MAX_INDENTATION`, 10,000); both are at least 0.
    @inlinable public static var maxIndentation: Int { Int(CK_MAX_INDENTATION) }
    /// The smallest font size a hook may set, in points.
    @inlinable public static var minFontSize: Double { 1 }
    /// The largest font size a hook may set, in points (`CK_MAX_FONT_SIZE`, 1,000).
    @inlinable public static var maxFontSize: Double { Double(CK_MAX_FONT_SIZE) }
    /// The most lines a label may ask for (`CK_MAX_NUMBER_OF_LINES`, 200, a row's
    /// tallest); 0 still means as many as fit.
    @inlinable public static var maxNumberOfLines: Int { Int(CK_MAX_NUMBER_OF_LINES) }
    /// The most bytes of a string a hook sets, a label's text or a name
    /// (`CK_MAX_TEXT_BYTES`, 64 KiB); a longer one is cut at a UTF-8 character boundary.
    @inlinable public static var maxTextBytes: Int { Int(CK_MAX_TEXT_BYTES) }
    /// The most subviews a cell may have (`CK_MAX_SUBVIEWS`, 256); `add_subview` past
    /// it fails with `CK_ERR_LIMIT`.
    @inlinable public static var maxSubviews: Int { Int(CK_MAX_SUBVIEWS) }

    /// `value` within `0...max`.
    @inlinable static func clamp(_ value: Int, max: Int) -> Int { value < 0 ? 0 : value > max ? max : value }

    /// `frame` with every field within the frame limits.
    @inlinable static func clamp(_ frame: Rect) -> Rect {
        let m = maxFrameExtent
        return Rect(
            x: frame.x < -m ? -m : frame.x > m ? m : frame.x, y: frame.y < -m ? -m : frame.y > m ? m : frame.y,
            width: clamp(frame.width, max: m), height: clamp(frame.height, max: m))
    }

    /// What `CK_VIEW_TEXT` and the other strings say about the budget in warnings.
    static let textRule = "texts are at most \(Int(CK_MAX_TEXT_BYTES)) bytes"
    static let rowHeightRule = "rows are 1 to \(Int(CK_MAX_ROW_HEIGHT)) lines tall"
    static let frameRule = "frames lie within ±\(Int(CK_MAX_FRAME_EXTENT)) columns and lines"

    /// A C string a hook passed, as a String of at most `maxTextBytes` bytes: a longer
    /// one is cut before the UTF-8 character that crosses the budget, without reading
    /// past it. `cut` is true if it was cut.
    static func string(_ text: UnsafePointer<CChar>) -> (string: String, cut: Bool) {
        let (bytes, cut) = budgeted(text)
        return (String(decoding: bytes, as: UTF8.self), cut)
    }

    /// `string(_:)` as the C string's own bytes, cut to the budget the same way.
    static func budgeted(_ text: UnsafePointer<CChar>) -> (bytes: UnsafeBufferPointer<UInt8>, cut: Bool) {
        let budget = maxTextBytes
        let length = strnlen(text, budget + 1)
        let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        guard length > budget else { return (UnsafeBufferPointer(start: bytes, count: length), false) }
        var end = budget
        while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }  // back to the character's first byte
        return (UnsafeBufferPointer(start: bytes, count: end), true)
    }

    static func describe(_ r: Rect) -> String { "x \(r.x), y \(r.y), width \(r.width), height \(r.height)" }
}

/// Which limit a warning is about: with the cell type and the hook, what a warning is recorded once for.
package enum PluginLimit: UInt8, Sendable {
    case rowHeight, frame, indentation, fontSize, numberOfLines, text, subviews, contentHeight
}

/// What the context records a limit warning once for: the cell type, the hook (nil
/// for the layout) and the limit. Plain fields: no message is built to look it up.
package struct LimitWarningKey: Hashable, Sendable {
    let identifier: String
    let hook: HookKind?
    let limit: PluginLimit
}

extension Cell {
    /// Warns, once per cell type, hook and limit, that the running hook hit `limit`:
    /// "libbig.so: customizeCellForBig set … at row 1.4 (indexPath [0, 3]); clamped to … (rule)".
    /// `what` and `outcome` are built only for the first warning.
    func warnLimit(_ limit: PluginLimit, _ what: @autoclosure () -> String, _ outcome: @autoclosure () -> String) {
        let hook = _hook
        context.warnOnce(LimitWarningKey(identifier: reuseIdentifier.name, hook: hook, limit: limit)) {
            "\(pluginFile): \(hook.symbol(for: reuseIdentifier)) \(what()) at \(RowName.forAuthor(indexPath)); \(outcome())"
        }
    }

    /// Warns, once per cell type, that its content makes it `lines` tall, taller than a row may be.
    package func warnContentHeight(_ lines: Int) {
        context.warnOnce(LimitWarningKey(identifier: reuseIdentifier.name, hook: nil, limit: .contentHeight)) {
            "\(pluginFile): a \(reuseIdentifier.name) cell is \(lines) lines tall by its content at \(RowName.forAuthor(indexPath)); drawn \(PluginLimits.maxRowHeight) lines tall (\(PluginLimits.rowHeightRule))"
        }
    }
}

// MARK: - Threads

/// Which thread may call the host for a cell: the one running its hook (cellkit.h, THREADS).
enum HostThread {
    /// What `last_error` returns on any other thread: static, as that thread may touch no cell.
    /// Computed: a StaticString's bytes are immortal, so every call returns the same pointer.
    static var wrongThreadMessage: UnsafePointer<CChar> {
        let text: StaticString =
            "CK_ERR_WRONG_THREAD: a plugin called the host from a thread that is not running one of this cell's hooks; a cell, its views and its row data may be used only by the thread running its hook, while it runs: finish the work of other threads inside the hook (join them) and make the host calls there"
        return UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
