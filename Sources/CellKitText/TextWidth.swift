// How many terminal columns text takes, and where its grapheme clusters end.
//
// Text is split into extended grapheme clusters by the rules of UAX #29 (Unicode
// 17.0.0, including GB9c for Indic conjuncts and GB11 for emoji ZWJ sequences),
// working on UTF-8 bytes. A cluster's width is what the wcwidth package's
// `wcswidth` (0.7.0) gives for that cluster on its own: wide and emoji scalars take
// two columns, marks none, a spacing mark after a base one more, U+FE0F widens a
// narrow emoji, a skin tone after an emoji nothing, two regional indicators one flag.

import CellKitModel

/// Column widths of text, for laying it out in character cells: a namespace whose
/// members are for CellKit's own modules (`package`). Public only because Swift does
/// not inline an `@inlinable` member of a non-public type into another module, and
/// the renderer measures and paints through these per cluster.
public enum TextWidth {
    // MARK: Properties of a scalar (packed as generate.py writes them)

    /// Grapheme_Cluster_Break values, as packed in bits 2–5.
    @usableFromInline static let gcbCR: UInt16 = 1, gcbLF: UInt16 = 2, gcbControl: UInt16 = 3, gcbExtend: UInt16 = 4
    @usableFromInline static let gcbZWJ: UInt16 = 5, gcbRI: UInt16 = 6, gcbPrepend: UInt16 = 7,
        gcbSpacingMark: UInt16 = 8
    @usableFromInline static let gcbL: UInt16 = 9, gcbV: UInt16 = 10, gcbT: UInt16 = 11, gcbLV: UInt16 = 12
    @usableFromInline static let gcbLVT: UInt16 = 13

    /// The packed properties of scalar `v`: bits 0–1 width, 2–5 Grapheme_Cluster_Break,
    /// 6 Extended_Pictographic, 7–8 InCB (1 Linker, 2 Consonant, 3 Extend), 9 Mc,
    /// 10 ISC consonant, 11 virama, 12 widened by U+FE0F.
    @inlinable @inline(__always)
    package static func properties(_ v: UInt32) -> UInt16 {
        properties(v, in: directProperties)
    }

    /// `properties(_:)` with `directProperties` already loaded: a loop that looks up many scalars loads the
    /// table once, as each read of the lazily made global calls `swift_once` (a large part of the
    /// clusters' cost: BENCHMARKS.md, "Measurements behind the code": TextWidth.once).
    @inlinable @inline(__always)
    package static func properties(_ v: UInt32, in table: UnsafePointer<UInt16>) -> UInt16 {
        v < 0x20000 ? table[Int(v)] : rangeProperties(v)
    }

    /// Columns of one scalar on its own, as `wcwidth` gives them (controls 0: text is
    /// sanitized before it is measured).
    @inlinable @inline(__always)
    package static func lookupWidth(_ v: UInt32) -> Int { Int(properties(v) & 3) }

    /// Properties of the first two planes, one load each (256 KiB, made once from the ranges).
    @usableFromInline nonisolated(unsafe) package static let directProperties: UnsafePointer<UInt16> = {
        let table = UnsafeMutablePointer<UInt16>.allocate(capacity: 0x20000)
        table.initialize(repeating: 1, count: 0x20000)
        let ranges = UnicodeWidthTables.ranges
        for k in stride(from: 0, to: ranges.count, by: 3) where ranges[k] < 0x20000 {
            for v in Int(ranges[k])...Int(min(ranges[k + 1], 0x1FFFF)) { table[v] = UInt16(ranges[k + 2]) }
        }
        return UnsafePointer(table)
    }()

    /// Properties of a scalar from the range table: a binary search.
    @usableFromInline package static func rangeProperties(_ v: UInt32) -> UInt16 {
        let ranges = UnicodeWidthTables.ranges
        var low = 0, high = ranges.count / 3 - 1
        while low <= high {
            let mid = (low + high) / 2
            if v < ranges[3 * mid] {
                high = mid - 1
            } else if v > ranges[3 * mid + 1] {
                low = mid + 1
            } else {
                return UInt16(ranges[3 * mid + 2])
            }
        }
        return 1
    }

    // MARK: Whole texts

    /// The columns `text` takes once sanitized (see `TextSanitizer`).
    @inlinable
    package static func columns(_ text: String) -> Int {
        text.withBorrowedUTF8 { columns($0) }
    }

    /// The columns a slice of sanitized text takes.
    @inlinable
    package static func columns(_ text: Substring) -> Int {
        text.withBorrowedUTF8 { columns($0) }
    }

    /// The columns UTF-8 `bytes` take: printable ASCII eight bytes at a time, the rest cluster by cluster.
    @inlinable
    package static func columns(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let ascii = UTF8Bytes.printableASCIIPrefix(bytes)
        guard ascii < bytes.count else { return ascii }
        // The last ASCII byte may be the base of a cluster that goes on: measure it with the rest.
        var i = max(0, ascii - 1), total = i
        while i < bytes.count {
            let (end, width) = nextCluster(bytes, from: i)
            total += width
            i = end
        }
        return total
    }

    // MARK: Clusters

    /// The scalar at `i` of well-formed UTF-8 and its length in bytes.
    @inlinable @inline(__always)
    package static func decode(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> (UInt32, Int) {
        let b0 = UInt32(p[i])
        if b0 < 0x80 { return (b0, 1) }
        if b0 < 0xE0 { return ((b0 & 0x1F) << 6 | UInt32(p[i + 1] & 0x3F), 2) }
        if b0 < 0xF0 {
            return ((b0 & 0x0F) << 12 | UInt32(p[i + 1] & 0x3F) << 6 | UInt32(p[i + 2] & 0x3F), 3)
        }
        let v =
            (b0 & 0x07) << 18 | UInt32(p[i + 1] & 0x3F) << 12 | UInt32(p[i + 2] & 0x3F) << 6 | UInt32(p[i + 3] & 0x3F)
        return (v, 4)
    }

    /// The end (a byte offset) and the width of the grapheme cluster that starts at byte
    /// `i` of well-formed UTF-8 `bytes`, `i` being a cluster boundary.
    @inlinable @inline(__always)
    package static func nextCluster(_ bytes: UnsafeBufferPointer<UInt8>, from i: Int) -> (end: Int, width: Int) {
        let b = bytes[i]
        // ASCII followed by ASCII (or the end) is a cluster of its own: nearly all text.
        if b >= 0x20, b < 0x7F, i + 1 == bytes.count || bytes[i + 1] < 0x80 { return (i + 1, 1) }
        return cluster(bytes, from: i)
    }

    /// `nextCluster(_:from:)` with the property table loaded once by the caller (`directProperties`:
    /// each read of the lazily made global calls `swift_once`), and, inline, `cluster`'s quick ways
    /// through the commonest text beyond ASCII: first a plain wide scalar (`isPlainWide`: CJK
    /// ideographs, Hangul syllables, kana) before ASCII, the end or another, told by its bytes with
    /// no lookup; printable ASCII before a scalar that does not join it (a space before a CJK
    /// word); any three-byte scalar but a Prepend before ASCII or the end; any other three-byte
    /// scalar that joins what follows only as an Extend, ZWJ, SpacingMark or Hangul V or T would,
    /// followed by a three-byte scalar that is none of those; a four-byte scalar (an emoji) but a
    /// Prepend before ASCII, the end or a plain wide scalar. The same rules as `cluster`'s: the
    /// cluster tests hold the two to each other on every oracle string and on every scalar of
    /// three and four bytes before ASCII, CJK, Hangul and kana. A line of CJK is broken at a
    /// fraction of the cost (BENCHMARKS.md, "Measurements behind the code": TextWidth.cjk,
    /// TextWidth.emoji); two-byte scalars measured slower this way.
    @inlinable @inline(__always)
    package static func nextCluster(
        _ bytes: UnsafeBufferPointer<UInt8>, from i: Int, table: UnsafePointer<UInt16>
    ) -> (end: Int, width: Int) {
        let b = bytes[i], n = bytes.count
        // A plain wide scalar (`isPlainWide`) before ASCII, the end or another: two columns, its own
        // cluster, told by its bytes alone (BENCHMARKS.md, "Measurements behind the code":
        // TextWidth.plainWide).
        if b &- 0xE3 <= 0xED &- 0xE3, i &+ 3 <= n, isPlainWide(b, bytes[i &+ 1], bytes[i &+ 2]) {
            let j = i &+ 3
            if j == n || bytes[j] < 0x80 || (j &+ 3 <= n && isPlainWide(bytes[j], bytes[j &+ 1], bytes[j &+ 2])) {
                return (j, 2)
            }
        }
        if b >= 0x20, b < 0x7F {
            if i + 1 == n || bytes[i + 1] < 0x80 { return (i + 1, 1) }
            // Before a scalar beyond ASCII (a space before a CJK word): its own cluster unless
            // that scalar joins it (no ASCII scalar is a Prepend, a control here, or one GB7 or GB8
            // concerns).
            let next = properties(decode(bytes, i + 1).0, in: table) >> 2 & 15
            if next != gcbExtend, next != gcbZWJ, next != gcbSpacingMark { return (i + 1, 1) }
            return cluster(bytes, from: i)
        }
        if b & 0xF0 == 0xE0, i + 3 <= n {
            let p = properties(decode(bytes, i).0, in: table), g = p >> 2 & 15
            let j = i + 3
            // Before ASCII or the end, only a Prepend joins what follows (GB9b), as `cluster` has it:
            // a pictograph (✅) too is its own cluster there.
            if g != gcbPrepend, j == n || bytes[j] < 0x80 { return (j, Int(p & 3)) }
            let alone =
                p & 0x40 == 0 && p >> 7 & 3 != 2 && g != gcbCR && g != gcbLF && g != gcbControl && g != gcbRI
                && g != gcbPrepend && g != gcbL
            if alone, bytes[j] & 0xF0 == 0xE0, j + 3 <= n {
                let next = properties(decode(bytes, j).0, in: table) >> 2 & 15
                if next != gcbExtend, next != gcbZWJ, next != gcbSpacingMark, next != gcbV, next != gcbT {
                    return (j, Int(p & 3))
                }
            }
        }
        // A four-byte scalar (mostly an emoji) before ASCII, the end or a plain wide scalar: its own
        // cluster unless it is a Prepend (GB9b). Nothing else joins what follows unless that is an
        // Extend, ZWJ or SpacingMark (GB9, GB9a), a regional indicator (GB12, GB13) or, after a
        // Hangul jamo or syllable, a jamo or syllable (GB6 to GB8), or a consonant after an Indic
        // consonant and a linker (GB9c). ASCII is none of those, a plain wide scalar none but a
        // Hangul syllable, and no four-byte scalar is Hangul or leaves a linker before it
        // (BENCHMARKS.md, "Measurements behind the code": TextWidth.emoji).
        if b & 0xF8 == 0xF0, i &+ 4 <= n {
            let p = properties(decode(bytes, i).0, in: table), g = p >> 2 & 15, j = i &+ 4
            if g != gcbPrepend,
                j == n || bytes[j] < 0x80 || (j &+ 3 <= n && isPlainWide(bytes[j], bytes[j &+ 1], bytes[j &+ 2]))
            {
                return (j, Int(p & 3))
            }
        }
        return cluster(bytes, from: i)
    }

    /// Whether the three-byte scalar `b0 b1 b2` (well-formed UTF-8) is a plain wide one: a CJK
    /// unified ideograph (U+4E00–U+9FFF), a Hangul syllable (U+AC00–U+D7A3) or kana (U+3041–U+3096,
    /// U+30A1–U+30FF). Each is two columns and no pictograph, Indic consonant,
    /// Prepend or jamo, so it joins nothing that follows but an Extend, ZWJ, SpacingMark or jamo V
    /// or T, none of which is plain wide (ClusterTests.plainWide holds the table to this for every
    /// such scalar).
    @inlinable @inline(__always)
    package static func isPlainWide(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8) -> Bool {
        switch b0 {
        case 0xE5...0xE9, 0xEB, 0xEC: true
        case 0xE4: b1 >= 0xB8
        case 0xEA: b1 >= 0xB0
        case 0xED: b1 < 0x9E || (b1 == 0x9E && b2 <= 0xA3)
        case 0xE3: (b1 == 0x81 && b2 >= 0x81) || (b1 == 0x82 && (b2 <= 0x96 || b2 >= 0xA1)) || b1 == 0x83
        default: false
        }
    }

    /// `nextCluster` for anything but plain ASCII: the UAX #29 rules, then the width.
    @usableFromInline
    package static func cluster(_ bytes: UnsafeBufferPointer<UInt8>, from i: Int) -> (end: Int, width: Int) {
        let n = bytes.count
        let table = directProperties
        let (v0, l0) = decode(bytes, i)
        let p0 = properties(v0, in: table)
        let g0 = p0 >> 2 & 15
        var j = i + l0
        if g0 == gcbCR {  // GB3: CR LF; GB4: nothing else after a control
            if j < n, bytes[j] == 0x0A { j += 1 }
            return (j, 0)
        }
        if g0 == gcbLF || g0 == gcbControl { return (j, Int(p0 & 3)) }
        // Fast: only a Prepend joins what follows whatever it is (GB9b); no ASCII scalar is one
        // that joins what precedes it (Extend, ZWJ, SpacingMark, Hangul V or T, pictograph, RI).
        if j == n || bytes[j] < 0x80, g0 != gcbPrepend { return (j, Int(p0 & 3)) }
        // Fast: most CJK, kana and Hangul syllables — a scalar that is no pictograph, Indic
        // consonant, regional indicator, Prepend or jamo L joins only Extend, ZWJ, SpacingMark (GB9,
        // GB9a) and Hangul V or T (GB7, GB8); anything else after it starts a new cluster.
        if p0 & 0x40 == 0, p0 >> 7 & 3 != 2, g0 != gcbRI, g0 != gcbPrepend, g0 != gcbL {
            let g = properties(decode(bytes, j).0, in: table) >> 2 & 15
            if g != gcbExtend, g != gcbZWJ, g != gcbSpacingMark, g != gcbV, g != gcbT { return (j, Int(p0 & 3)) }
        }
        var previous = g0
        // GB11: 1 after an Extended_Pictographic (and Extends), 2 after its ZWJ.
        var emoji: UInt8 = p0 & 0x40 != 0 ? 1 : 0
        // GB9c: 1 after an InCB consonant (and Extends), 2 once a Linker followed.
        var conjunct: UInt8 = p0 >> 7 & 3 == 2 ? 1 : 0
        var regional = g0 == gcbRI ? 1 : 0
        var single = true
        while j < n {
            let (v, l) = decode(bytes, j)
            let p = properties(v, in: table)
            let g = p >> 2 & 15
            let incb = p >> 7 & 3
            let join: Bool
            if g == gcbCR || g == gcbLF || g == gcbControl {
                join = false  // GB5
            } else if previous == gcbL {
                join =
                    g == gcbL || g == gcbV || g == gcbLV || g == gcbLVT || g == gcbExtend || g == gcbZWJ
                    || g == gcbSpacingMark  // GB6, GB9, GB9a
            } else if g == gcbExtend || g == gcbZWJ || g == gcbSpacingMark {
                join = true  // GB9, GB9a
            } else if previous == gcbPrepend {
                join = true  // GB9b
            } else if (previous == gcbLV || previous == gcbV) && (g == gcbV || g == gcbT) {
                join = true  // GB7
            } else if (previous == gcbLVT || previous == gcbT) && g == gcbT {
                join = true  // GB8
            } else if incb == 2 && conjunct == 2 {
                join = true  // GB9c
            } else if previous == gcbZWJ && p & 0x40 != 0 && emoji == 2 {
                join = true  // GB11
            } else if g == gcbRI && regional & 1 == 1 {
                join = true  // GB12, GB13
            } else {
                join = false  // GB999
            }
            if !join { break }
            single = false
            emoji = p & 0x40 != 0 ? 1 : (g == gcbExtend && emoji == 1) ? 1 : (g == gcbZWJ && emoji == 1) ? 2 : 0
            conjunct = incb == 2 ? 1 : (incb == 1 && conjunct >= 1) ? 2 : (incb == 3 && conjunct >= 1) ? conjunct : 0
            regional = g == gcbRI ? regional + 1 : 0
            previous = g
            j += l
        }
        if single { return (j, Int(p0 & 3)) }
        return (j, clusterWidth(bytes, from: i, to: j))
    }

    /// The width of the cluster `bytes[from..<to]` as wcwidth's `wcswidth` measures it.
    @usableFromInline
    package static func clusterWidth(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        var total = 0, i = from
        var measured: UInt16? = nil  // properties of the last scalar measured, for U+FE0F
        var lastMeasured: UInt16 = 0  // properties of the last scalar measured or paired, for skin tones
        var virama = false, conjunctPending = false
        var regionalRun = 0  // regional indicators right before `i`
        let table = directProperties
        while i < to {
            let (v, l) = decode(bytes, i)
            let p = properties(v, in: table)
            let isRegional = p >> 2 & 15 == gcbRI
            defer { regionalRun = isRegional ? regionalRun + 1 : 0 }
            if v == 0x200D {
                i += l
                // wcswidth skips the scalar after a joiner, unless the joiner follows a virama.
                if !virama, i < to { i += decode(bytes, i).1 }
                continue
            }
            i += l
            if v == 0xFE0F, let m = measured {
                if m & 0x1000 != 0 { total += 1 }
                measured = nil
                continue
            }
            if isRegional, regionalRun & 1 == 1 {
                lastMeasured = p
                continue
            }
            if (0x1F3FB...0x1F3FF).contains(v), lastMeasured & 0x40 != 0 || lastMeasured >> 2 & 15 == gcbRI {
                continue
            }
            if virama, p & 0x400 != 0 {
                (measured, lastMeasured, virama, conjunctPending) = (p, p, false, true)
                continue
            }
            let w = Int(p & 3)
            if w > 0 {
                if conjunctPending { total += 1 }
                total += w
                (measured, lastMeasured, virama, conjunctPending) = (p, p, false, false)
            } else if measured != nil, p & 0x200 != 0 {
                total += 1
                (measured, virama, conjunctPending) = (nil, false, false)
            } else {
                virama = p & 0x800 != 0
            }
        }
        return conjunctPending ? total + 1 : total
    }
}
