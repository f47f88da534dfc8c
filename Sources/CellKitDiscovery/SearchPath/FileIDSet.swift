// The files one discovery has met, by device and inode, so that a file reached twice (a
// symlink, a hard link) counts once. Open addressing with linear probing and a multiplicative
// hash: a `Set` of such pairs hashed each with SipHash and grew, far dearer per plugin
// (BENCHMARKS.md, "Measurements behind the code": FileIDSet). Inode numbers are not chosen by
// whoever can write a plugin folder, and a worst case costs only probes, never a wrong answer.

/// A set of (device, inode) pairs.
struct FileIDSet {
    /// Device and inode of each slot, side by side; a slot is taken when its `taken` byte is set.
    private var slots: [UInt64] = []
    private var taken: [Bool] = []
    /// How many pairs the set holds.
    private(set) var count = 0

    init() {}

    /// Makes room for `count` pairs in all, so that adding them grows the set at most once.
    mutating func reserve(_ count: Int) {
        guard count * 2 > taken.count else { return }
        var capacity = 64
        while capacity < count * 2 { capacity *= 2 }
        grow(to: capacity)
    }

    /// Adds the pair; true if it was not there yet. The probe runs on the arrays' memory: indexing
    /// them checked each access and the writes' uniqueness, a large part of an insert's cost
    /// (BENCHMARKS.md, "Measurements behind the code": FileIDSet.insert).
    mutating func insert(device: UInt64, inode: UInt64) -> Bool {
        if (count + 1) * 2 > taken.count { grow() }
        let mask = taken.count - 1
        let start = Self.hash(device: device, inode: inode) & mask
        let inserted = taken.withUnsafeMutableBufferPointer { taken in
            slots.withUnsafeMutableBufferPointer { slots in
                var slot = start
                while taken[slot] {
                    if slots[2 * slot] == device, slots[2 * slot + 1] == inode { return false }
                    slot = (slot + 1) & mask
                }
                (taken[slot], slots[2 * slot], slots[2 * slot + 1]) = (true, device, inode)
                return true
            }
        }
        if inserted { count += 1 }
        return inserted
    }

    /// Whether the pair is in the set.
    func contains(device: UInt64, inode: UInt64) -> Bool {
        guard !taken.isEmpty else { return false }
        let mask = taken.count - 1
        var slot = Self.hash(device: device, inode: inode) & mask
        while taken[slot] {
            if slots[2 * slot] == device, slots[2 * slot + 1] == inode { return true }
            slot = (slot + 1) & mask
        }
        return false
    }

    /// A slot number for the pair, before masking: the high bits of a multiplicative hash,
    /// rotated down, so that inodes allocated one after another spread.
    private static func hash(device: UInt64, inode: UInt64) -> Int {
        let mixed = (inode ^ (device &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 31))
    }

    /// Twice the slots (at least 64), every pair placed again.
    private mutating func grow() { grow(to: max(64, taken.count * 2)) }

    /// `capacity` slots (a power of two), every pair placed again.
    private mutating func grow(to capacity: Int) {
        let old = (slots, taken)
        (slots, taken, count) = (Array(repeating: 0, count: 2 * capacity), Array(repeating: false, count: capacity), 0)
        for slot in old.1.indices where old.1[slot] {
            _ = insert(device: old.0[2 * slot], inode: old.0[2 * slot + 1])
        }
    }
}
