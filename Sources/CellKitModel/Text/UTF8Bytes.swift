// The one UTF-8 reader below every module: validation, the printable-ASCII fast
// path, and borrowed access to a string's bytes. Text widths, JSON Lines and the
// host's data strings all go through it.

/// Scans over UTF-8 bytes: a namespace whose members are for CellKit's own modules
/// (`package`). The namespace itself is public only because Swift does not inline an
/// `@inlinable` member of a non-public type into another module, and these run per byte.
public enum UTF8Bytes {
    /// How many bytes at the start of `bytes` are printable ASCII (0x20...0x7E):
    /// eight at a time, as most text is.
    @inlinable @inline(__always)
    package static func printableASCIIPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let n = bytes.count
        var i = 0
        while i + 8 <= n, isPrintableASCII(ByteWord(loading: base + i).bits) { i += 8 }
        while i < n, base[i] >= 0x20, base[i] < 0x7F { i += 1 }
        return i
    }

    /// Whether all eight bytes of `word` are printable ASCII: none is 0x7F or more, or below 0x20
    /// (`ByteWord`'s tests, exact for "any").
    @inlinable @inline(__always)
    package static func isPrintableASCII(_ word: UInt64) -> Bool {
        let word = ByteWord(word)
        return word.flags(atLeast: 0x7F) | word.flags(below: 0x20) == 0
    }

    /// Whether `bytes` is well-formed UTF-8 (RFC 3629: no overlong forms, surrogates
    /// or values past U+10FFFF).
    /// Checked by the lead byte's table of RFC 3629 (the second byte's range for E0, ED, F0 and
    /// F4), not by decoding: text of CJK or emoji is checked much faster (BENCHMARKS.md, "Measurements
    /// behind the code": UTF8Bytes).
    @inlinable
    package static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { check(bytes).valid }

    /// Whether `bytes` is well-formed UTF-8 (`isValid`) and, in the same pass, whether it is
    /// clean: no C0 control, DEL or hidden scalar (`isHidden`), nothing `TextSanitizer` changes.
    @inlinable
    package static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> (valid: Bool, clean: Bool) {
        var i = printableASCIIPrefix(bytes), clean = true
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                if b < 0x20 || b == 0x7F { clean = false }
                i += 1
                continue
            }
            guard let length = multiByteScalar(bytes, at: i, clean: &clean) else { return (false, false) }
            i += length
        }
        return (true, clean)
    }

    /// The length of the well-formed scalar of two to four bytes at `i` (its lead byte 0x80 or
    /// above), by the lead byte's table of RFC 3629; `clean` set to false if the scalar is hidden
    /// (`isHidden`: decoded only after a lead that can start one, C2, D8, E1, E2 or EF). Nil where the
    /// bytes are not well-formed UTF-8. Shared by `check` and the JSON Lines check of a text.
    @inlinable @inline(__always)
    package static func multiByteScalar(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int, clean: inout Bool) -> Int? {
        let b = bytes[i], n = bytes.count
        @inline(__always) func continuation(_ k: Int) -> Bool { bytes[k] & 0xC0 == 0x80 }
        if b < 0xC2 { return nil }  // a continuation byte, or an overlong lead
        if b < 0xE0 {
            guard i + 1 < n, continuation(i + 1) else { return nil }
            let second = bytes[i + 1]
            // C1 controls, the soft hyphen, U+061C
            if b == 0xC2 && (second < 0xA0 || second == 0xAD) || b == 0xD8 && second == 0x9C { clean = false }
            return 2
        }
        if b < 0xF0 {
            guard i + 2 < n, continuation(i + 1), continuation(i + 2) else { return nil }
            let second = bytes[i + 1]
            if b == 0xE0 && second < 0xA0 || b == 0xED && second >= 0xA0 { return nil }  // overlong; surrogate
            if b == 0xE1 || b == 0xE2 || b == 0xEF, let (v, _) = decode(bytes, at: i), isHidden(v) { clean = false }
            return 3
        }
        guard b < 0xF5, i + 3 < n, continuation(i + 1), continuation(i + 2), continuation(i + 3) else { return nil }
        let second = bytes[i + 1]
        if b == 0xF0 && second < 0x90 || b == 0xF4 && second >= 0x90 { return nil }  // overlong; past U+10FFFF
        return 4
    }

    /// Whether a scalar above ASCII would act on the terminal or the text's order
    /// instead of showing: C1 controls, bidirectional controls, invisible format characters.
    @inlinable @inline(__always)
    package static func isHidden(_ v: UInt32) -> Bool {
        switch v {
        case 0x80...0x9F, 0xAD, 0x61C, 0x180E, 0x200B, 0x200E, 0x200F, 0x202A...0x202E, 0x2060...0x2064,
            0x2066...0x206F, 0xFEFF, 0xFFF9...0xFFFB:
            true
        default: false
        }
    }

    /// The scalar value starting at `i` and its length in bytes, or nil where the
    /// bytes there are not well-formed UTF-8.
    @inlinable @inline(__always)
    package static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (value: UInt32, length: Int)? {
        let lead = bytes[i]
        if lead < 0x80 { return (UInt32(lead), 1) }
        let (length, smallest): (Int, UInt32) =
            lead & 0xE0 == 0xC0
            ? (2, 0x80) : lead & 0xF0 == 0xE0 ? (3, 0x800) : lead & 0xF8 == 0xF0 ? (4, 0x10000) : (0, 0)
        guard length > 0, i + length <= bytes.count else { return nil }
        var value = UInt32(lead) & (0x7F >> UInt32(length))
        for k in 1..<length {
            guard bytes[i + k] & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(bytes[i + k] & 0x3F)
        }
        guard value >= smallest, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return nil }
        return (value, length)
    }
}

extension String {
    /// `body` over the string's UTF-8 bytes, borrowed: `withUTF8` is mutating, and the
    /// `var` copy it needs retains and releases a string's storage on every call.
    @inlinable @inline(__always)
    package func withBorrowedUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self  // bridged or foreign storage: made contiguous first
        return copy.withUTF8(body)
    }

    /// The text as Swift would write it inside quotes (`a\nb`), for quoting names in messages.
    package var debugDescriptionEscaped: String { String(debugDescription.dropFirst().dropLast()) }

    /// The text padded on the left with `pad` to `width` characters.
    package func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}

extension Substring {
    /// `body` over the slice's UTF-8 bytes, borrowed (see `String.withBorrowedUTF8`).
    @inlinable @inline(__always)
    package func withBorrowedUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = String(self)  // bridged or foreign storage: made contiguous first
        return copy.withUTF8(body)
    }
}
