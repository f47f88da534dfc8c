// The seeded generator every randomized test uses, so that a failure reproduces.

/// SplitMix64: a small, fast generator whose sequence is fixed by its seed.
public struct SplitMix64: RandomNumberGenerator {
    /// The generator's state; the seed to begin with.
    public var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SplitMix64 {
    /// `count` random texts of 0 to 70 bytes for a byte scan's tests, drawn mostly from around the
    /// bytes it stops at (`near`): one byte in eight any value, a third of the rest from `near`,
    /// the others `a`.
    public static func texts(seed: UInt64, count: Int = 100_000, near: [UInt8]) -> [[UInt8]] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            (0..<Int(rng.next() % 71)).map { _ in
                rng.next() % 8 == 0
                    ? UInt8(truncatingIfNeeded: rng.next())
                    : rng.next() % 3 == 0 ? near[Int(rng.next() % UInt64(near.count))] : 0x61
            }
        }
    }
}
