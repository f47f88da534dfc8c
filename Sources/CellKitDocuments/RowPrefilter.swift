// `cellkit browse`'s search, first on bytes: which records of a data file may hold the needle,
// decided on the record's raw bytes without parsing it, so that only those records are parsed and
// matched exactly (`BrowseTable.contains`). It must never turn away a record the exact match finds.

import CellKitModel

/// Which records of a data file may hold a search's needle, decided on their raw bytes.
///
/// The exact match looks for the needle (lower case, hidden scalars taken out) Character by
/// Character, canonical equivalence included, in every string value lowercased with its hidden
/// scalars (`UTF8Bytes.isHidden`) taken out, and in every number as `RowValue.jsonNumber` writes it.
/// The prefilter takes the needle's longest run of printable ASCII Characters (not `"`, `\` or
/// `/`, which JSON or CSV may write escaped or doubled) and admits a record that holds the run, ASCII
/// case ignored, or holds anything that can put a match out of a byte search's sight:
/// - a `\u` escape (it can spell any scalar: an uppercase letter, a hidden one);
/// - a hidden scalar (it may sit between the run's letters), or a scalar whose lowercase or
///   canonical equivalent is one of the run's characters (`specials`: K for the Kelvin sign);
/// - for a needle a number can hold (digits, `.`, `+`, `-`, `e`, or part of `null`), a number that
///   JSON may write otherwise than `jsonNumber` (a fraction, an exponent, 16 digits or more).
/// A needle with no such run (all non-ASCII, say) has no prefilter: its search parses every row.
package struct RowPrefilter: Sendable {
    /// The run searched for, lower case, and per byte 0x20 where it is a letter (ASCII case folds
    /// by that bit: `b | 0x20` is the letter's lower case for either case, and nothing else's).
    let run: [UInt8], folds: [UInt8]
    /// Per byte value, what a record holding it needs looked at: `backslash`, `lead` (a scalar of
    /// two bytes or more that may be hidden or special) or `digit` (a number, for a numeric needle).
    let triggers: [UInt8]
    /// The non-ASCII scalars that read as one of the run's characters (lowercased or equivalent).
    let specials: [UInt32]
    /// Whether digits are triggers (a needle a number can hold).
    let numeric: Bool
    /// The kinds of trigger, bits of `triggers`' entries.
    static let backslash: UInt8 = 1, lead: UInt8 = 2, digit: UInt8 = 4

    /// Non-ASCII scalars whose lowercase holds an ASCII character, or that are canonically
    /// equivalent to one, with that character: İ lowercases to i and U+0307; the Kelvin sign is
    /// K; the Greek question mark is `;`; the Greek varia is a backtick.
    /// `BrowsePrefilterTests.lookalikesWhole` checks the list against every scalar.
    package static let asciiLookalikes: [(scalar: UInt32, ascii: UInt8)] = [
        (0x130, UInt8(ascii: "i")), (0x212A, UInt8(ascii: "k")), (0x37E, UInt8(ascii: ";")),
        (0x1FEF, UInt8(ascii: "`")),
    ]

    /// The lead bytes of the hidden scalars' UTF-8 (C2, D8, E1, E2, EF today), found once.
    static let hiddenLeads: [Bool] = {
        var leads = [Bool](repeating: false, count: 256)
        for v in UInt32(0x80)...0x10FFFF where UTF8Bytes.isHidden(v) {
            if let scalar = Unicode.Scalar(v) { leads[Int(String(scalar).utf8.first!)] = true }
        }
        return leads
    }()

    /// A prefilter for `needle` (lower case, hidden scalars taken out, as the exact match takes it);
    /// nil when it has no run of ASCII Characters to look for.
    package init?(needle: String) {
        var best: [UInt8] = [], current: [UInt8] = []
        for c in needle {
            if let b = c.asciiValue, c.unicodeScalars.count == 1, b >= 0x20, b < 0x7F,
                b != UInt8(ascii: "\""), b != UInt8(ascii: "\\"), b != UInt8(ascii: "/")
            {
                current.append(b)
                if current.count > best.count { best = current }
            } else {
                current = []
            }
        }
        guard !best.isEmpty else { return nil }
        let run = best.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        self.run = run
        folds = run.map { $0 >= 0x61 && $0 <= 0x7A ? 0x20 : 0 }
        let specials = Self.asciiLookalikes.filter { run.contains($0.ascii) }.map(\.scalar)
        self.specials = specials
        var triggers = [UInt8](repeating: 0, count: 256)
        triggers[Int(UInt8(ascii: "\\"))] = Self.backslash
        for b in 0..<256 where Self.hiddenLeads[b] { triggers[b] |= Self.lead }
        for v in specials { triggers[Int(String(Unicode.Scalar(v)!).utf8.first!)] |= Self.lead }
        let numberText = Set("0123456789.+-e")
        numeric = needle.allSatisfy(numberText.contains) || "null".contains(needle)
        if numeric {
            for b in UInt8(ascii: "0")...UInt8(ascii: "9") { triggers[Int(b)] |= Self.digit }
        }
        self.triggers = triggers
    }

    /// The ASCII run the prefilter looks for (lower case).
    package var text: String { String(decoding: run, as: UTF8.self) }

    /// Whether the record `bytes` (one line of JSON Lines, or one CSV record) may hold the needle.
    package func admits(_ bytes: some Collection<UInt8>) -> Bool {
        Array(bytes).withUnsafeBufferPointer { admits($0) }
    }

    /// Whether the record may hold the needle: it holds the run, or something that may hide it.
    func admits(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        holdsRun(bytes) || mayHide(bytes)
    }

    /// Whether `bytes` holds the run, ASCII case ignored.
    func holdsRun(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let m = run.count, n = bytes.count
        guard n >= m, let base = bytes.baseAddress else { return false }
        return run.withUnsafeBufferPointer { run in
            folds.withUnsafeBufferPointer { folds in
                let first = run[0], fold = folds[0], last = n - m
                let foldWord = ByteWord.repeating(fold)
                var i = 0
                while i <= last {
                    // Eight bytes at a time past those none of which is the run's first (folded).
                    if i + 8 <= n, !ByteWord(ByteWord(loading: base + i).bits | foldWord).hasByte(first) {
                        i += 8
                        continue
                    }
                    // Raw pointers, not the buffer's subscript: this loop is the search's inner loop.
                    if base[i] | fold == first {
                        var j = 1
                        while j < m, base[i + j] | folds[j] == run[j] { j += 1 }
                        if j == m { return true }
                    }
                    i += 1
                }
                return false
            }
        }
    }

    /// Whether `bytes` holds a `\u` escape, a hidden or special scalar (or bytes that are not
    /// UTF-8), or, for a numeric needle, a number JSON may write otherwise than `jsonNumber` does.
    func mayHide(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = bytes.count
        guard let base = bytes.baseAddress else { return false }
        return triggers.withUnsafeBufferPointer { triggers in
            var i = 0
            while i < n {
                // Eight bytes at a time past ASCII with no backslash (digits are looked at one by one).
                if !numeric, i + 8 <= n {
                    let word = ByteWord(loading: base + i)
                    if !word.hasHigh, !word.hasByte(UInt8(ascii: "\\")) {
                        i += 8
                        continue
                    }
                }
                let kind = triggers[Int(bytes[i])]
                if kind == 0 {
                    i += 1
                    continue
                }
                if kind & Self.backslash != 0 {
                    if i + 1 < n, bytes[i + 1] == UInt8(ascii: "u") { return true }
                    // An escape of one character: `\\` must not be read as the start of another
                    // (a CSV backslash is no escape: a non-ASCII byte after it is looked at).
                    i += i + 1 < n && bytes[i + 1] < 0x80 ? 2 : 1
                    continue
                }
                if kind & Self.lead != 0 {
                    guard let (value, length) = UTF8Bytes.decode(bytes, at: i) else { return true }
                    if UTF8Bytes.isHidden(value) || specials.contains(value) { return true }
                    i += length
                    continue
                }
                // A digit of a numeric needle: the number's digits, then what follows them.
                var j = i
                while j < n, bytes[j] >= 0x30, bytes[j] <= 0x39 { j += 1 }
                if j - i >= 16 { return true }
                if j < n, bytes[j] == UInt8(ascii: ".") || bytes[j] | 0x20 == UInt8(ascii: "e") { return true }
                i = j
            }
            return false
        }
    }
}
