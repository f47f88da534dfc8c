// Memory for the C strings a cell hands its hooks (data_string, the getters, last_error),
// kept from row to row.

import CellKitModel

/// The C strings a cell hands its hooks, in blocks it keeps: a string is a copy at the end of
/// the current block; a full block stays where it is (hooks may still hold its strings) until the
/// cell is recycled, when only the current block is kept for the next row. A `malloc` and a
/// `free` for each string were a large part of the wrapped table's host calls (BENCHMARKS.md,
/// "Measurements behind the code": CStringArena).
struct CStringArena: ~Copyable {
    private var block: UnsafeMutableRawPointer?
    private var used = 0, capacity = 0
    private var full: [UnsafeMutableRawPointer] = []

    init() {}

    deinit {
        for b in full { b.deallocate() }
        block?.deallocate()
    }

    /// `bytes` and a NUL after them, in memory that stays valid until `forgetAll`.
    mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeMutablePointer<CChar> {
        let n = bytes.count + 1
        if used + n > capacity { grow(n) }
        let p = block! + used
        // Most are 64 bytes or fewer: word moves inline (`ShortCopy`).
        if let source = bytes.baseAddress { ShortCopy.copy(p, from: source, count: bytes.count) }
        p.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self)
        used += n
        return p.assumingMemoryBound(to: CChar.self)
    }

    /// A new current block of at least `n` bytes; the full one is kept until `forgetAll`.
    private mutating func grow(_ n: Int) {
        if let block { full.append(block) }
        capacity = max(n, capacity * 2, 512)
        block = .allocate(byteCount: capacity, alignment: 1)
        used = 0
    }

    /// Lets every string go (no hook holds one any more): full blocks are freed, the current one
    /// is kept for the next row's strings.
    mutating func forgetAll() {
        used = 0
        while let b = full.popLast() { b.deallocate() }
    }
}
