// Memory that one thread writes row by row while another runs beside it (a data file's reader
// ahead of the table's thread) must not share a cache line with memory the other thread uses:
// each write takes the line from the other processor, and its next read of the line misses.
// malloc places small blocks side by side, so a reader's 64-byte index beside a cell's list of
// views cost one thread or the other a miss a row (BENCHMARKS.md, "Measurements behind the code":
// CacheLine).

/// The size and alignment that keeps memory in cache lines of its own.
package enum CacheLine {
    /// Two 64-byte lines: x86-64 processors fetch lines in adjacent pairs.
    package static let size = 128

    /// Memory for `count` elements of `T` (not initialized), aligned to `size` whose byte count is a
    /// multiple of it: no other block shares its lines. Free it with `deallocate()`.
    package static func allocate<T>(_: T.Type, capacity count: Int) -> UnsafeMutablePointer<T> {
        let bytes = (count * MemoryLayout<T>.stride + size - 1) & ~(size - 1)
        return UnsafeMutableRawPointer.allocate(byteCount: max(bytes, size), alignment: size)
            .bindMemory(to: T.self, capacity: count)
    }

    /// Stored first and last in a class whose fields one thread writes row by row: 128 bytes
    /// between those fields and the blocks malloc places on either side of the object (a class's
    /// stored properties are laid out in the order they are declared).
    package struct Padding {
        private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        private var more: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

        /// 128 bytes of nothing.
        package init() {}
    }
}
