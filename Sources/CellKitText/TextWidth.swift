// How many terminal columns text takes, and how it splits into glyphs.
//
// A glyph is a base scalar with everything a terminal draws on top of it:
// combining marks, variation selectors, emoji modifiers and whatever follows a
// zero-width joiner. Its width follows the wcwidth package (tested against its
// values): East Asian wide and emoji take two columns, marks none, U+FE0F makes
// a narrow emoji wide, and a ZWJ sequence is as wide as its first emoji.

import CellKitModel

/// Column widths of text, for laying it out in character cells: a namespace whose
/// members are for CellKit's own modules (`package`). Public only because Swift does
/// not inline an `@inlinable` member of a non-public type into another module, and
/// the renderer measures and paints through these per glyph.
public enum TextWidth {
    /// The columns `text` takes once sanitized (see `TextSanitizer`).
    @inlinable
    package static func columns(_ text: String) -> Int {
        if let fast = simpleWidth(text) { return fast }
        var total = 0
        forEachGlyph(in: text) { _, _, width in total += width }
        return total
    }

    /// The width of text whose every scalar is its own glyph (no controls, newlines,
    /// zero-width marks, joiners, selectors, modifiers or flags), or nil: one pass over
    /// the UTF-8, no String indices. Most text, including CJK, takes this path.
    @inlinable
    package static func simpleWidth(_ text: String) -> Int? {
        return text.withBorrowedUTF8 { bytes in
            let ascii = UTF8Bytes.printableASCIIPrefix(bytes)  // one column a byte
            guard ascii < bytes.count else { return ascii }
            return forEachSimpleScalar(UnsafeBufferPointer(rebasing: bytes[ascii...])) { _, _ in }.map { $0 + ascii }
        }
    }

    /// Calls `body(scalar, width)` for each scalar of `bytes` and returns the total width,
    /// or returns nil (maybe after some calls) as soon as a scalar is not a glyph of its own.
    @inlinable @inline(__always)
    package static func forEachSimpleScalar(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UInt32, Int) -> Void) -> Int?
    {
        var i = 0, total = 0
        let n = bytes.count
        while i < n {
            let b0 = UInt32(bytes[i])
            var v: UInt32
            if b0 < 0x80 {
                guard b0 >= 0x20, b0 != 0x7F else { return nil }
                body(b0, 1); total += 1; i += 1
                continue
            } else if b0 < 0xE0 {
                guard i + 1 < n else { return nil }
                v = (b0 & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F); i += 2
            } else if b0 < 0xF0 {
                guard i + 2 < n else { return nil }
                v = (b0 & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F); i += 3
            } else {
                guard i + 3 < n else { return nil }
                v =
                    (b0 & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6
                    | UInt32(bytes[i + 3] & 0x3F);
                i += 4
            }
            if v < 0xA0 || v == 0xFE0F || v == 0x200D || (0x1F1E6...0x1F1FF).contains(v)
                || (0x1F3FB...0x1F3FF).contains(v)
            {
                return nil
            }
            let w = lookupWidth(v)
            guard w > 0 else { return nil }
            body(v, w)
            total += w
        }
        return total
    }

    /// Calls `body(start, end, width)` for each glyph of `text`, in order; start and
    /// end are unicode-scalar indices. Zero-width scalars with no base form a glyph of width 0.
    @usableFromInline
    package static func forEachGlyph(
        in text: String, _ body: (String.UnicodeScalarView.Index, String.UnicodeScalarView.Index, Int) -> Void
    ) {
        let scalars = text.unicodeScalars
        var i = scalars.startIndex
        while i < scalars.endIndex {
            let start = i
            var width = scalarWidth(scalars[i])
            var previous = scalars[i]
            var regional = isRegionalIndicator(previous.value) ? 1 : 0
            i = scalars.index(after: i)
            // Attach what a terminal draws onto the base.
            while i < scalars.endIndex {
                let s = scalars[i].value
                if s == 0xFE0F {
                    if width == 1, contains(UnicodeWidthTables.vs16Wide, previous.value) { width = 2 }
                } else if previous.value == 0x200D || (0x1F3FB...0x1F3FF).contains(s) {
                    // after a joiner, or a skin-tone modifier: part of the emoji
                } else if regional == 1, isRegionalIndicator(s) {
                    regional = 2  // a flag: two indicators, one glyph
                } else if s != 0x200D, scalarWidth(scalars[i]) != 0 {
                    break
                }
                previous = scalars[i]
                i = scalars.index(after: i)
            }
            body(start, i, width)
        }
    }

    /// Columns of one scalar on its own: 2 for wide, 0 for marks and format characters, else 1.
    @inlinable @inline(__always)
    package static func scalarWidth(_ scalar: Unicode.Scalar) -> Int { lookupWidth(scalar.value) }

    /// `scalarWidth` of a scalar value: a table lookup in the Basic Multilingual Plane,
    /// a binary search of the range tables above it.
    @inlinable @inline(__always)
    package static func lookupWidth(_ v: UInt32) -> Int {
        if v < 0x300 { return 1 }  // Latin, and controls (drawn as pictures)
        if v < 0x10000 { return Int(bmpWidths[Int(v)]) }
        return tableWidth(v)
    }

    @usableFromInline package static func tableWidth(_ v: UInt32) -> Int {
        if contains(UnicodeWidthTables.zero, v) { return 0 }
        return contains(UnicodeWidthTables.wide, v) ? 2 : 1
    }

    /// The width of every BMP scalar (64 KiB, made once from the range tables): CJK
    /// and other non-Latin text measured by two binary searches a scalar was most of
    /// the cost of such rows. Raw memory, so the hot loops skip bounds checks.
    @usableFromInline nonisolated(unsafe) package static let bmpWidths: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 0x10000)
        table.initialize(repeating: 1, count: 0x10000)
        // Zero after wide: `tableWidth` looks in the zero table first.
        for (ranges, width) in [(UnicodeWidthTables.wide, UInt8(2)), (UnicodeWidthTables.zero, 0)] {
            for k in stride(from: 0, to: ranges.count, by: 2) where ranges[k] < 0x10000 {
                for v in Int(ranges[k])...Int(min(ranges[k + 1], 0xFFFF)) { table[v] = width }
            }
        }
        return UnsafePointer(table)
    }()

    package static func isRegionalIndicator(_ v: UInt32) -> Bool { (0x1F1E6...0x1F1FF).contains(v) }

    /// Binary search of a sorted [first, last, first, last, ...] range table.
    package static func contains(_ table: [UInt32], _ v: UInt32) -> Bool {
        var low = 0, high = table.count / 2 - 1
        guard high >= 0, v >= table[0], v <= table[table.count - 1] else { return false }
        while low <= high {
            let mid = (low + high) / 2
            if v < table[2 * mid] {
                high = mid - 1
            } else if v > table[2 * mid + 1] {
                low = mid + 1
            } else {
                return true
            }
        }
        return false
    }
}
