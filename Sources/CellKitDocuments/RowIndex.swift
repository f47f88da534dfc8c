// A sparse index of a data file's rows, built on a thread of its own: the byte offset and line
// of every `stride`-th row, so that a row far into a file is read by seeking to the nearest
// noted row and skipping at most `stride - 1` records. 10,000,000 rows at a stride of 1,024 are
// about 10,000 places (240 KB); the file is counted on the way.

import Foundation
import Synchronization

/// The rows of a data file counted and placed on a background thread (`cellkit browse`).
package final class RowIndex: Sendable {
    /// Where a row starts: it is row `row` (from 0), at byte `offset`, on line `line`.
    package struct Place: Sendable, Equatable, Codable {
        package var row: Int
        package var offset: Int
        package var line: Int

        /// Row `row` at byte `offset`, on line `line` (0: not known).
        package init(row: Int, offset: Int, line: Int) { (self.row, self.offset, self.line) = (row, offset, line) }
    }

    /// Rows between two places noted.
    package let stride: Int
    /// The file indexed.
    package let file: DataFile
    private struct State {
        var places: [Place] = []
        var rows = 0
        var count: Int?
        var error: DocumentError?
        var stopped = false
    }
    private let state = Mutex(State())

    /// An index of `file`, empty until `start()`.
    package init(_ file: DataFile, stride: Int = 1024) { (self.file, self.stride) = (file, max(1, stride)) }

    /// Starts counting and placing rows on a thread of its own.
    package func start() {
        let thread = Thread { [self] in build() }
        thread.name = "cellkit-row-index"
        thread.start()
    }

    /// Stops the thread at its next noted row.
    package func stop() { state.withLock { $0.stopped = true } }

    private func build() {
        do {
            let stream = try RowStream(file)
            let count = try stream.index(every: stride) { row, offset, line in
                #if DEBUG
                if let delay = Self.testDelay { usleep(delay) }
                #endif
                return state.withLock { s in
                    if row % stride == 0 { s.places.append(Place(row: row, offset: offset, line: line)) }
                    s.rows = row
                    return !s.stopped
                }
            }
            state.withLock { s in
                if let count { (s.count, s.rows) = (count, count) }
            }
        } catch {
            state.withLock { $0.error = error }
        }
    }

    #if DEBUG
    /// Tests only: microseconds the count waits at each place it notes, so that a view can be seen
    /// while its file is still counted (`cellkit browse`'s End before the count).
    static let testDelay = getenv("CELLKIT_TEST_SLOW_INDEX").flatMap { UInt32(String(cString: $0)) }
    #endif

    /// The rows counted so far, and the whole count once known.
    package var progress: (rows: Int, count: Int?) { state.withLock { ($0.rows, $0.count) } }

    /// The error that stopped the count (an unreadable file), if any.
    package var error: DocumentError? { state.withLock { $0.error } }

    /// The last place noted so far (where the count is, give or take `stride` rows); nil before the first.
    package var lastPlace: Place? { state.withLock { $0.places.last } }

    /// The noted place at or before row `row`, or nil when none is yet (read from the start).
    package func place(before row: Int) -> Place? {
        state.withLock { s in
            let k = min(row / stride, s.places.count - 1)
            return k >= 0 ? s.places[k] : nil
        }
    }
}
