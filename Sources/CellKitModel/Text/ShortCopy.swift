// Copies of a few dozen bytes in word moves, inline: a row's texts are copied about a dozen
// times on their way to the output (to a hook, into a label, out to the buffer), most of them
// 64 bytes or fewer, and a call to `memcpy` (its jump through the PLT, its dispatch on the size)
// cost more than moving the bytes (BENCHMARKS.md, "Measurements behind the code": ShortCopy).

import Glibc

/// Short copies without a call. Its member is for CellKit's own modules (`package`); the type is
/// public only because Swift does not inline an `@inlinable` member of a non-public type into
/// another module, and the copies run per text.
public enum ShortCopy {
    /// The longest copy made in word moves; a longer one is `memcpy`'s.
    @inlinable @inline(__always)
    package static var longest: Int { 64 }

    /// Copies `count` bytes from `source` to `target`, which do not overlap: up to `longest` in
    /// eight-byte moves (the last ones overlapping the ones before, within the bytes), more by `memcpy`.
    @inlinable @inline(__always)
    package static func copy(_ target: UnsafeMutableRawPointer, from source: UnsafeRawPointer, count n: Int) {
        assert(target + n <= source || source + n <= target, "ShortCopy.copy: the ranges overlap")
        @inline(__always) func word(_ at: Int) {
            target.storeBytes(
                of: source.loadUnaligned(fromByteOffset: at, as: UInt64.self), toByteOffset: at, as: UInt64.self)
        }
        @inline(__always) func half(_ at: Int) {
            target.storeBytes(
                of: source.loadUnaligned(fromByteOffset: at, as: UInt32.self), toByteOffset: at, as: UInt32.self)
        }
        if n >= 16 {
            guard n <= longest else {
                memcpy(target, source, n)
                return
            }
            var at = 0
            repeat {
                word(at)
                word(at &+ 8)
                at &+= 16
            } while at &+ 16 < n
            word(n &- 16)
            word(n &- 8)
        } else if n >= 8 {
            word(0)
            word(n &- 8)
        } else if n >= 4 {
            half(0)
            half(n &- 4)
        } else {
            for k in 0..<n {
                target.storeBytes(of: source.load(fromByteOffset: k, as: UInt8.self), toByteOffset: k, as: UInt8.self)
            }
        }
    }
}
