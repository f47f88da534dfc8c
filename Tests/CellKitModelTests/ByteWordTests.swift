// The eight-bytes-at-a-time tests every byte scan shares, held to the byte-by-byte rule: every
// byte value in every lane, beside neighbours chosen to make borrows and carries cross lanes,
// and random words.

import CellKitModel
import CellKitTestSupport
import Testing

@Suite("ByteWord: eight bytes tested at once")
struct ByteWordTests {
    /// Lane `k` of `word` (byte `k` in memory).
    static func lane(_ word: UInt64, _ k: Int) -> UInt8 { UInt8(truncatingIfNeeded: word >> (8 * k)) }

    /// The flags a test should give lane by lane: 0x80 in each lane that `rule` holds for.
    static func exact(_ word: UInt64, _ rule: (UInt8) -> Bool) -> UInt64 {
        (0..<8).reduce(0) { flags, k in rule(lane(word, k)) ? flags | 0x80 << (8 * k) : flags }
    }

    /// Whether `flags` answer `rule` on `word`: lane by lane when `laneByLane`; otherwise only high
    /// bits, none if the rule holds for no lane, and the lowest on the first lane it holds for (a
    /// borrow or carry may change the flags above it), so that "any" and the lowest lane are exact.
    static func agrees(_ flags: UInt64, _ word: UInt64, laneByLane: Bool, _ rule: (UInt8) -> Bool) -> Bool {
        let expected = exact(word, rule)
        if laneByLane { return flags == expected }
        guard flags & ~ByteWord.highs == 0, expected != 0 else { return flags == expected }
        return flags != 0 && ByteWord.firstLane(flags) == ByteWord.firstLane(expected)
    }

    /// Words for a test about `subject` (a byte or a bound): every value in every lane, the other
    /// lanes drawn from the subject's neighbours and the edges (so that borrows and carries cross
    /// lanes), then random words and words of neighbours only.
    static func words(around subject: UInt8, _ rng: inout SplitMix64) -> [UInt64] {
        let near: [UInt8] = [subject &- 1, subject, subject &+ 1, subject ^ 1, 0, 1, 0x7E, 0x7F, 0x80, 0x81, 0xFF]
        func neighbour() -> UInt64 {
            rng.next() % 8 == 0 ? rng.next() & 0xFF : UInt64(near[Int(rng.next() % UInt64(near.count))])
        }
        func word(_ fixed: Int?, _ value: UInt8) -> UInt64 {
            (0..<8).reduce(0) { w, k in w | (k == fixed ? UInt64(value) : neighbour()) << (8 * k) }
        }
        var words: [UInt64] = []
        for k in 0..<8 {
            for v in 0...255 { words.append(word(k, UInt8(v))) }
        }
        for _ in 0..<200 { words.append(rng.next()) }
        for _ in 0..<600 { words.append(word(nil, 0)) }
        return words
    }

    /// Counts the words of `words(around:)` for each subject where `check` fails (recording the first few).
    static func failures(_ subjects: ClosedRange<Int>, seed: UInt64, _ check: (UInt8, UInt64) -> Bool) -> Int {
        var rng = SplitMix64(seed: seed), failed = 0
        for s in subjects {
            for w in words(around: UInt8(s), &rng) where !check(UInt8(s), w) {
                if failed < 5 { Issue.record("subject 0x\(String(s, radix: 16)), word 0x\(String(w, radix: 16))") }
                failed += 1
            }
        }
        return failed
    }

    @Test func equalTo() {
        let failed = Self.failures(0...255, seed: 0xB17E) { b, w in
            let word = ByteWord(w)
            return Self.agrees(word.flags(equalTo: b), w, laneByLane: false) { $0 == b }
                && word.hasByte(b) == (Self.exact(w) { $0 == b } != 0)
        }
        #expect(failed == 0)
    }

    @Test func exactlyEqualTo() {
        let failed = Self.failures(0...255, seed: 0xE9A1) { b, w in
            Self.agrees(ByteWord(w).exactFlags(equalTo: b), w, laneByLane: true) { $0 == b }
        }
        #expect(failed == 0)
    }

    @Test func below() {
        let failed = Self.failures(0...0x80, seed: 0x10E5) { bound, w in
            let word = ByteWord(w)
            return Self.agrees(word.flags(below: bound), w, laneByLane: false) { $0 < bound }
                && word.hasLess(than: bound) == (Self.exact(w) { $0 < bound } != 0)
        }
        #expect(failed == 0)
    }

    @Test func atLeast() {
        let failed = Self.failures(1...0x80, seed: 0xA7E5) { bound, w in
            Self.agrees(ByteWord(w).flags(atLeast: bound), w, laneByLane: false) { $0 >= bound }
        }
        #expect(failed == 0)
    }

    @Test func highBits() {
        let failed = Self.failures(0x80...0x80, seed: 0x8080) { _, w in
            let word = ByteWord(w)
            return Self.agrees(word.highFlags, w, laneByLane: true) { $0 >= 0x80 }
                && word.hasHigh == (Self.exact(w) { $0 >= 0x80 } != 0)
        }
        #expect(failed == 0)
    }

    /// A word loaded at any offset holds the bytes there, the first in lane 0; `repeating` fills every lane.
    @Test func loadsAndLanes() {
        var rng = SplitMix64(seed: 0x10AD)
        let bytes = (0..<64).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        bytes.withUnsafeBytes { raw in
            for offset in 0...56 {
                let word = ByteWord(loading: raw.baseAddress! + offset).bits
                #expect((0..<8).allSatisfy { Self.lane(word, $0) == bytes[offset + $0] }, "offset \(offset)")
            }
        }
        for b in 0...255 {
            #expect((0..<8).allSatisfy { Self.lane(ByteWord.repeating(UInt8(b)), $0) == UInt8(b) })
        }
        for k in 0..<8 { #expect(ByteWord.firstLane(0x80 << (8 * k) | 0x8000_0000_0000_0000) == k) }
    }
}
