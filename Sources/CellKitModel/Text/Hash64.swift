// One 64-bit hash for the checks against damage CellKit keeps: the registry cache's folder
// listings and records, and the tags of a worker's frames (seeded with the render's key).

/// A 64-bit hash of bytes, eight at a time (a multiply and a shift each): a check against
/// damage and blind forgery, not a cryptographic MAC.
package enum Hash64 {
    /// The hash of `bytes` under `seed`.
    package static func of(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
        let prime: UInt64 = 0x9E37_79B9_7F4A_7C15
        var h = (seed ^ UInt64(bytes.count)) &* prime
        var i = 0
        while i + 8 <= bytes.count {
            h =
                (h ^ UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + i).loadUnaligned(as: UInt64.self)))
                &* prime
            h ^= h >> 29
            i += 8
        }
        while i < bytes.count {
            h = (h ^ UInt64(bytes[i])) &* prime
            h ^= h >> 29
            i += 1
        }
        return h
    }

    /// The hash of `bytes` under `seed`.
    package static func of<Bytes: Collection<UInt8>>(_ bytes: Bytes, seed: UInt64) -> UInt64 {
        Array(bytes).withUnsafeBufferPointer { of($0, seed: seed) }
    }

    /// `value` as 16 lowercase hexadecimal digits.
    package static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
