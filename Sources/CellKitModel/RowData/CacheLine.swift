// Memory that one thread writes row by row while another runs beside it (a data file's reader
// ahead of the table's thread) must not share a cache line with memory the other thread uses:
// each write takes the line from the other processor, and its next read of the line misses.
// malloc places small blocks side by side, so a reader's 64-byte index beside a cell's list of
// views cost one thread or the other a miss a row (BENCHMARKS.md, "Measurements behind the code":
// CacheLine).

import Glibc

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

    /// `byteCount` bytes in pages of their own, mapped for the caller and unmapped by
    /// `deallocatePages`: for a large buffer a thread fills row by row (a data file's read buffer,
    /// a batch of rows read ahead). Not from malloc: an aligned block of a megabyte came from the
    /// heap of the thread that asked, and stayed there once freed (a table of ten data files grew
    /// from 21 to 33 MiB: BENCHMARKS.md, "Measurements behind the code": CacheLine).
    package static func allocatePages(byteCount: Int) -> UnsafeMutableRawPointer {
        let memory = mmap(nil, max(byteCount, 1), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let memory, memory != MAP_FAILED else {
            fatalError("cannot map \(byteCount) bytes: \(String(cString: strerror(errno)))")  // as malloc's failure
        }
        return memory
    }

    /// Gives back memory `allocatePages` mapped, `byteCount` bytes as asked.
    package static func deallocatePages(_ memory: UnsafeMutableRawPointer, byteCount: Int) {
        munmap(memory, max(byteCount, 1))
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
