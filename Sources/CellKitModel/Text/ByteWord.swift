// Eight bytes tested at once in one UInt64 (SWAR): the scans of HTML and JSON escaping, the
// JSON parser, the printable-ASCII prefix, browse's prefilter and the registry cache's text
// checks all use these few tests, so each is written, documented and tested once
// (ByteWordTests holds each to the byte-by-byte rule).

/// Eight bytes in one word, tested all at once. Its members are for CellKit's own modules
/// (`package`); the type is public only because Swift does not inline an `@inlinable` member of a
/// non-public type into another module, and these run per byte.
///
/// A test returns flags: the high bit (0x80) of each byte, or *lane*, it marks, nothing else.
/// Byte 0 of memory is lane 0, the lowest byte (little-endian, as every machine CellKit runs on).
/// Tests that subtract or add may get a lane *above* the lowest lane marked rightly wrong (a borrow
/// or carry crossing into it), never a lane below: their flags are exact for "any lane"
/// (flags != 0) and for the lowest lane (`firstLane`), not lane by lane. Each test says which it is.
public struct ByteWord {
    /// The eight bytes, byte 0 of memory in the lowest lane.
    @usableFromInline package var bits: UInt64

    /// The word of these bits.
    @inlinable @inline(__always)
    package init(_ bits: UInt64) { self.bits = bits }

    /// The eight bytes at `p` (any alignment).
    @inlinable @inline(__always)
    package init(loading p: UnsafeRawPointer) { bits = p.loadUnaligned(as: UInt64.self) }

    /// 0x01 in every lane.
    @inlinable @inline(__always)
    package static var ones: UInt64 { 0x0101_0101_0101_0101 }

    /// 0x80 in every lane: the bits flags are made of.
    @inlinable @inline(__always)
    package static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// `byte` in every lane.
    @inlinable @inline(__always)
    package static func repeating(_ byte: UInt8) -> UInt64 { UInt64(byte) &* ones }

    /// The lane of the lowest flag of `flags` (not zero): the first such byte in memory.
    @inlinable @inline(__always)
    package static func firstLane(_ flags: UInt64) -> Int { flags.trailingZeroBitCount &>> 3 }

    /// Flags of the lanes of 0x80 or more (their own high bits): exact lane by lane.
    @inlinable @inline(__always)
    package var highFlags: UInt64 { bits & Self.highs }

    /// Whether a lane is 0x80 or more: exact.
    @inlinable @inline(__always)
    package var hasHigh: Bool { highFlags != 0 }

    /// Flags of the lanes equal to `byte` (any value), by the classic zero-byte test on the word
    /// XORed with it. A borrow may also mark a lane holding `byte ^ 1` above a marked one: exact
    /// for "any" and for the lowest lane.
    @inlinable @inline(__always)
    package func flags(equalTo byte: UInt8) -> UInt64 {
        let x = bits ^ Self.repeating(byte)
        return (x &- Self.ones) & ~x & Self.highs
    }

    /// Flags of the lanes equal to `byte`, exact lane by lane (no borrow or carry crosses lanes:
    /// one more operation than `flags(equalTo:)`, for counting the marks).
    @inlinable @inline(__always)
    package func exactFlags(equalTo byte: UInt8) -> UInt64 {
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let x = bits ^ Self.repeating(byte)
        return ~(((x & lows) &+ lows) | x | lows)
    }

    /// Flags of the lanes below `bound` (at most 0x80). A borrow may also mark a lane equal to
    /// `bound` above a marked one (and, for 0x80, miss a zero lane there): exact for "any" and for
    /// the lowest lane.
    @inlinable @inline(__always)
    package func flags(below bound: UInt8) -> UInt64 {
        (bits &- Self.repeating(bound)) & ~bits & Self.highs
    }

    /// Flags of the lanes of `bound` (1 to 0x80) or more. A carry (out of a lane of 0x80 + `bound`
    /// or more, itself marked) may also mark a lane equal to `bound - 1` above it: exact for "any"
    /// and for the lowest lane.
    @inlinable @inline(__always)
    package func flags(atLeast bound: UInt8) -> UInt64 {
        (bits | (bits &+ Self.repeating(0x80 &- bound))) & Self.highs
    }

    /// Whether a lane equals `byte`: exact.
    @inlinable @inline(__always)
    package func hasByte(_ byte: UInt8) -> Bool { flags(equalTo: byte) != 0 }

    /// Whether a lane is below `bound` (at most 0x80): exact.
    @inlinable @inline(__always)
    package func hasLess(than bound: UInt8) -> Bool { flags(below: bound) != 0 }
}
