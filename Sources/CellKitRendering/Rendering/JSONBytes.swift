// JSON written straight into an OutputBuffer as bytes: keys and punctuation copied
// from static strings, numbers written digit by digit, strings escaped by a scanner
// that copies runs of plain bytes eight at a time. No Encodable, no intermediate
// String, no key sorting: a million rows of JSON cost little more than the text.

import CScan
import CellKitModel
import CellKitText
import Foundation

extension OutputBuffer {
    /// Appends `text` (ASCII: keys, punctuation) as it is.
    @inline(__always)
    func raw(_ text: StaticString) {
        write(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `n` in decimal.
    @inline(__always)
    func decimal(_ n: Int) {
        append(atMost: 20) { p in JSONBytes.decimal(n, into: p) }
    }

    /// Appends `true` or `false`.
    @inline(__always)
    func boolean(_ value: Bool) { value ? raw("true") : raw("false") }

    /// Appends `"#rrggbbaa"`, the colour as `Color.description` writes it.
    func color(_ color: Color) {
        append(atMost: 11) { p in
            p[0] = 0x22
            p[1] = 0x23
            let hex: StaticString = "0123456789abcdef"
            for k in 0..<8 { p[2 + k] = hex.utf8Start[Int(color.rawValue >> UInt32(28 - 4 * k)) & 0xF] }
            p[10] = 0x22
            return 11
        }
    }

    /// Appends `text` as a JSON string (`JSONBytes.escape`).
    @inline(__always)
    func jsonString(_ text: String) { text.withBorrowedUTF8 { _ = jsonString($0) } }

    /// Appends UTF-8 `bytes` as a JSON string, quoted and escaped (`JSONBytes.escape`); returns
    /// whether any byte was escaped (false: the bytes went out as they are, and so would any run
    /// of whole characters of them). `clean`: the bytes are known clean (`TextBytes.isClean`),
    /// which lets the scan look for less; the same bytes go out.
    @discardableResult
    func jsonString(_ bytes: UnsafeBufferPointer<UInt8>, clean: Bool = false) -> Bool {
        if clean { return cleanJSONString(bytes) }
        write(byte: 0x22)
        var start = 0, escaped = false
        while start < bytes.count {
            // At most 4 KiB of input at a time, so a long text never needs more than ~24 KiB of room.
            let end = min(bytes.count, start + 4096)
            append(atMost: (end - start) * 6 + 24) { p in
                let (used, written) = JSONBytes.escape(bytes, from: start, to: end, into: p)
                escaped = escaped || written != used - start  // an escape is longer than what it stands for
                start = used
                return written
            }
        }
        write(byte: 0x22)
        return escaped
    }

    /// Appends a clean text (`TextBytes.isClean`: well-formed UTF-8 with no control character,
    /// DEL or hidden scalar) as a JSON string, as `jsonString` writes it: of what `escape` looks
    /// for, such a text can hold only `"`, `\` and U+2028/U+2029 (0xE2 0x80 0xA8/0xA9), so those
    /// are all it looks for, eight bytes at a time; the rest goes out in runs. Returns whether
    /// anything was escaped.
    private func cleanJSONString(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        write(byte: 0x22)
        guard let base = bytes.baseAddress else {
            write(byte: 0x22)
            return false
        }
        let n = bytes.count
        var run = 0, i = 0, escaped = false
        while i < n {
            i += ck_scan_json_clean_plain(base + i, n - i)  // sixteen bytes at a time (CScan)
            guard i < n else { break }
            let b = base[i]
            let separator = b == 0xE2 && i + 2 < n && base[i + 1] == 0x80 && base[i + 2] & 0xFE == 0xA8
            guard b == 0x22 || b == 0x5C || separator else {
                i += 1
                continue
            }
            write(UnsafeBufferPointer(start: base + run, count: i - run))
            if separator {
                raw(base[i + 2] == 0xA8 ? "\\u2028" : "\\u2029")
                i += 3
            } else {
                write(byte: 0x5C)
                write(byte: b)
                i += 1
            }
            (run, escaped) = (i, true)
        }
        write(UnsafeBufferPointer(start: base + run, count: n - run))
        write(byte: 0x22)
        return escaped
    }

    /// Appends `bytes`, which need no escape, quoted as a JSON string.
    @inline(__always)
    func plainJSONString(_ bytes: UnsafeBufferPointer<UInt8>) {
        write(byte: 0x22)
        write(bytes)
        write(byte: 0x22)
    }
}

/// The byte-level pieces of JSON writing (`OutputBuffer.jsonString`), on raw memory.
enum JSONBytes {
    /// Writes `n` in decimal at `p`; returns the bytes written (at most 20).
    @inline(__always)
    static func decimal(_ n: Int, into p: UnsafeMutablePointer<UInt8>) -> Int {
        if n >= 0, n < 10 {
            p[0] = 0x30 + UInt8(n)
            return 1
        }
        // A frame's numbers mostly: no loop (BENCHMARKS.md, "Measurements behind the code": JSONBytes.decimal).
        if n >= 10, n < 100 {
            (p[0], p[1]) = (0x30 + UInt8(n / 10), 0x30 + UInt8(n % 10))
            return 2
        }
        var value = n.magnitude, k = 0
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 20 digits, backwards
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[k] = 0x30 + UInt8(value % 10)
                value /= 10
                k += 1
            } while value > 0
        }
        var at = 0
        if n < 0 {
            p[0] = 0x2D
            at = 1
        }
        withUnsafeBytes(of: &digits) { d in
            while k > 0 {
                k -= 1
                p[at] = d[k]
                at += 1
            }
        }
        return at
    }

    /// Whether any of the 8 bytes of `w` needs a look of its own: below 0x20, 0x7F and above, `"`, `\`
    /// (`ByteWord`'s tests, exact for "any").
    @inline(__always)
    static func needsLook(_ w: UInt64) -> Bool {
        let w = ByteWord(w)
        return w.highFlags | w.flags(below: 0x20) | w.flags(equalTo: 0x22) | w.flags(equalTo: 0x5C)
            | w.flags(equalTo: 0x7F) != 0
    }

    /// Escapes `bytes[from..<to]` (UTF-8; a sequence starting before `to` is taken whole) into `p`;
    /// returns where it stopped in `bytes` and the bytes written (at most 6 per byte read).
    ///
    /// The rule: `"` and `\` are escaped; newline, tab, carriage return, backspace and form feed take
    /// their short escapes; every other C0 control, DEL, every C1 control, the invisible format
    /// and bidirectional control characters (`UTF8Bytes.isHidden`: soft hyphen, ZWSP, LRM/RLM,
    /// the embeddings, overrides and isolates, BOM…) and U+2028/U+2029 are written `\uXXXX`, so JSON
    /// printed on a terminal is inert and nothing is lost; any other character (non-BMP ones
    /// included) is written as its UTF-8. A byte that is not well-formed UTF-8 becomes `\ufffd`.
    static func escape(
        _ bytes: UnsafeBufferPointer<UInt8>, from: Int, to end: Int, into p: UnsafeMutablePointer<UInt8>
    ) -> (Int, Int) {
        let base = bytes.baseAddress!
        var i = from, out = 0, run = from
        @inline(__always) func flush(_ upTo: Int) {
            if upTo > run { (p + out).update(from: base + run, count: upTo - run) }
            out += upTo - run
        }
        while i < end {
            if i + 8 <= end, !needsLook(ByteWord(loading: base + i).bits) {
                i += 8
                continue
            }
            let b = base[i]
            if b >= 0x20, b < 0x7F, b != 0x22, b != 0x5C {
                i += 1
                continue
            }
            if b >= 0x80 {
                if let length = plainSequence(bytes, at: i) {  // CJK, emoji, most letters: kept as they are
                    i += length
                    continue
                }
                guard let (value, length) = UTF8Bytes.decode(bytes, at: i) else {
                    flush(i)
                    out += unicode(0xFFFD, into: p + out)
                    i += 1
                    run = i
                    continue
                }
                if value <= 0x9F || UTF8Bytes.isHidden(value) || value == 0x2028 || value == 0x2029 {
                    flush(i)
                    out += unicode(value, into: p + out)
                    run = i + length
                }
                i += length
                continue
            }
            flush(i)
            out += short(b, into: p + out)
            i += 1
            run = i
        }
        flush(i)
        return (i, out)
    }

    /// The length of the well-formed sequence at `i` when its lead byte cannot start a character
    /// `escape` writes as `\uXXXX` (those start with C2, D8, E0, E1, E2, ED or EF), else nil: the
    /// sequence is then decoded and looked up. Decoding every character of CJK or emoji text was
    /// a large part of the JSON format's time (BENCHMARKS.md, "Measurements behind the code":
    /// JSONBytes.decode).
    @inline(__always)
    static func plainSequence(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        let lead = bytes[i], n = bytes.count
        @inline(__always) func continued(_ k: Int) -> Bool { i + k < n && bytes[i + k] & 0xC0 == 0x80 }
        switch lead {
        case 0xC3...0xD7, 0xD9...0xDF: return continued(1) ? 2 : nil
        case 0xE3...0xEC, 0xEE: return continued(1) && continued(2) ? 3 : nil
        case 0xF1...0xF3: return continued(1) && continued(2) && continued(3) ? 4 : nil
        case 0xF0: return continued(1) && bytes[i + 1] >= 0x90 && continued(2) && continued(3) ? 4 : nil
        case 0xF4: return continued(1) && bytes[i + 1] < 0x90 && continued(2) && continued(3) ? 4 : nil
        default: return nil
        }
    }

    /// `\"`, `\\`, `\n`…, or `\u00XX` for byte `b` (ASCII); the bytes written.
    @inline(__always)
    private static func short(_ b: UInt8, into p: UnsafeMutablePointer<UInt8>) -> Int {
        let letter: UInt8? =
            switch b {
            case 0x22: 0x22
            case 0x5C: 0x5C
            case 0x0A: 0x6E  // n
            case 0x09: 0x74  // t
            case 0x0D: 0x72  // r
            case 0x08: 0x62  // b
            case 0x0C: 0x66  // f
            default: nil
            }
        guard let letter else { return unicode(UInt32(b), into: p) }
        p[0] = 0x5C
        p[1] = letter
        return 2
    }

    /// `\uXXXX` (lower-case hex) for a BMP scalar; the 6 bytes written.
    @inline(__always)
    private static func unicode(_ value: UInt32, into p: UnsafeMutablePointer<UInt8>) -> Int {
        let hex: StaticString = "0123456789abcdef"
        p[0] = 0x5C
        p[1] = 0x75
        for k in 0..<4 { p[2 + k] = hex.utf8Start[Int(value >> UInt32(12 - 4 * k)) & 0xF] }
        return 6
    }
}
