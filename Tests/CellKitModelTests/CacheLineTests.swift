// Memory a reader ahead of the table writes row by row keeps to cache lines of its own.

import Testing

@testable import CellKitModel

@Suite("CacheLine: memory in lines of its own")
struct CacheLineTests {
    /// Blocks of every small size start on a 128-byte boundary (their ends are rounded to one).
    @Test func blocksStartOnALine() {
        for count in [1, 3, 16, 31, 32, 33, 64, 100, 1000] {
            let words = CacheLine.allocate(UInt32.self, capacity: count)
            #expect(Int(bitPattern: words) % CacheLine.size == 0, "\(count) words")
            words.deallocate()
        }
    }

    /// Pages mapped for a buffer start on a page (so on a line), hold what is written to their
    /// last byte, and go back whole.
    @Test func pagesOfTheirOwn() {
        for byteCount in [16, 4_096, 65_536, 1 << 20] {
            let memory = CacheLine.allocatePages(byteCount: byteCount)
            #expect(Int(bitPattern: memory) % 4_096 == 0, "\(byteCount) bytes")
            memory.storeBytes(of: 0x5A, toByteOffset: byteCount - 1, as: UInt8.self)
            #expect(memory.load(fromByteOffset: byteCount - 1, as: UInt8.self) == 0x5A)
            CacheLine.deallocatePages(memory, byteCount: byteCount)
        }
    }

    /// The padding a class puts first and last is a pair of lines.
    @Test func paddingIsALinePair() {
        #expect(MemoryLayout<CacheLine.Padding>.size == CacheLine.size)
    }
}
