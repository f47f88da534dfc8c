// End before a data file is counted (`cellkit browse`): the file's last records are found back
// from its end (`RowTail`) and drawn at once. Their row numbers are not known until the count is
// done, so they are numbered from an estimate (the bytes per row counted so far): the section
// counts `estimate` rows, its last `offsets.count` being the records read back. Once the count
// comes, the rows are numbered anew (`Renumbering`) and the view moves its rows with them.
//
// Rows just above those read back (↑, PgUp) are read back too; a row far above them is drawn
// from the index when it is counted, and waits for the count when it is not. Only JSON Lines is
// read back (a CSV line end may be inside quotes), and only when one data file is still counted.

import CellKitDocuments
import Foundation

/// The last rows of a data file still being counted, read back from its end.
struct BrowseTail {
    /// The file's section.
    let section: Int
    /// The reader, where it stopped: the records before `offsets` come next.
    let reader: RowTail
    /// Where the records read back start, in file order.
    var offsets: [Int]
    /// The section's rows as estimated; the records at `offsets` are numbered as its last ones.
    var estimate: Int
    /// The first record read back's row in the section.
    var start: Int { estimate - offsets.count }
}

/// Rows numbered anew: those at or after `from` moved by `by`.
package struct Renumbering: Sendable, Equatable {
    /// The first row moved (in the old numbers).
    package var from: Int
    /// How far the rows moved.
    package var by: Int
    /// The rows from `from` moved by `by`.
    package init(from: Int, by: Int) { (self.from, self.by) = (from, by) }
    /// `row` in the new numbers.
    package func apply(_ row: Int) -> Int { row >= from ? row + by : row }
}

extension BrowseTable {
    /// Rows above those read back that are read back too when asked (rather than waiting for the count).
    static let readBackLimit = 4096

    /// Whether the last rows are read back and numbered from an estimate (End before the count).
    package var isEstimated: Bool { tail != nil }

    /// Whether row `row`'s number is an estimate: one of the rows read back, or after them.
    package func isEstimated(_ row: Int) -> Bool {
        guard let tail else { return false }
        return row >= rowsBefore(section: tail.section) + tail.start
    }

    /// The rows numbered anew since the last call, oldest first: apply them to rows kept.
    package func takeRenumberings() -> [Renumbering] {
        defer { renumberings.removeAll() }
        return renumberings
    }

    /// End while a data file is counted: reads the last `rows` records of the file back from its
    /// end, so that the last row (`rowCount - 1`, numbered from an estimate) can be drawn at once.
    /// False when that cannot be done (a CSV file, more than one file counted, a file shorter than
    /// `rows`): End must wait for the count then. True, doing nothing, when they are read already.
    package func readEnd(rows: Int) throws -> Bool {
        guard tail == nil else { return true }
        let counting = indexes.indices.filter { indexes[$0].map { $0.progress.count == nil } ?? false }
        guard isCounting, counting.count == 1, let s = counting.first, let index = indexes[s],
            index.file.format == .jsonLines
        else { return false }
        let reader = try RowTail(index.file)
        let offsets = try reader.previous(max(1, rows))
        guard !reader.reachedStart, let first = offsets.first else { return false }
        // The rows before the first record read back, at the bytes per row counted so far.
        let counted = index.progress.rows
        var before = counted
        if let place = index.lastPlace, place.row > 0, place.offset > 0 {
            before = place.row + Int(Double(first - place.offset) * Double(place.row) / Double(place.offset))
        }
        tail = BrowseTail(
            section: s, reader: reader, offsets: offsets,
            estimate: max(before, counted + Self.readBackLimit) + offsets.count)
        renumbered()
        return true
    }

    /// The rows before section `section`.
    func rowsBefore(section: Int) -> Int { sectionCounts[..<section].reduce(0, +) }

    /// Where a data file's row starts: a record read back, else a place the index noted.
    func place(section: Int, row: Int) -> RowIndex.Place? {
        if let tail, tail.section == section, row >= tail.start {
            // Its line is not known: 0 (an error in it is reported once counted, `window`).
            return RowIndex.Place(
                row: row, offset: tail.offsets[min(row - tail.start, tail.offsets.count - 1)], line: 0)
        }
        return indexes[section]?.place(before: row)
    }

    /// Row `row` made one that can be read (see `window`); the row in the numbers it has then.
    func reach(_ row: Int) throws -> Int {
        guard let tail else { return row }
        let r = row - rowsBefore(section: tail.section)
        guard r >= 0, r < tail.start else { return row }
        if tail.start - r <= Self.readBackLimit { return try readBack(tail.start - r + 64, row: row) }
        if r < indexes[tail.section]!.progress.rows { return row }
        let mark = renumberings.count
        try finishCounting()
        return moved(row, since: mark)
    }

    /// Reads `count` more records back (row `row` among them); the estimate grows when the rows read
    /// back would reach the rows counted. Row `row` in the numbers it has then.
    private func readBack(_ count: Int, row: Int) throws -> Int {
        guard var tail else { return row }
        let more = try tail.reader.previous(count)
        if tail.reader.reachedStart {  // the whole file read back: the count is near (or done)
            let mark = renumberings.count
            try finishCounting()
            return moved(row, since: mark)
        }
        tail.offsets = more + tail.offsets
        let raise = max(0, indexes[tail.section]!.progress.rows + Self.readBackLimit - tail.start)
        tail.estimate += raise
        self.tail = tail
        if raise > 0 { renumberings.append(Renumbering(from: row, by: raise)) }
        renumbered()
        return row + raise
    }

    /// The count of the file read back came: its rows numbered by it, and the tail let go.
    func endTail(count: Int, rowsBefore: Int) {
        guard let tail else { return }
        renumberings.append(Renumbering(from: rowsBefore + tail.start, by: count - tail.estimate))
        self.tail = nil
        renumbered()
    }

    /// The counts after the tail changed, and the files open closed (a row may be another record now).
    private func renumbered() {
        if let tail {
            sectionCounts[tail.section] = tail.estimate
            source.setCount(tail.estimate, section: tail.section)
            rowCount = sectionCounts.reduce(0, +)
        }
        numbering += 1
        source.closeStreams()
    }

    /// Closes the files open when the rows read move between those read back and the rest.
    func enterRegion(of row: Int) {
        guard isEstimated(row) != readingTail else { return }
        readingTail.toggle()
        numbering += 1
        source.closeStreams()
    }

    /// `row` moved by the renumberings after the first `mark`.
    func moved(_ row: Int, since mark: Int) -> Int {
        renumberings[mark...].reduce(row) { $1.apply($0) }
    }
}

extension BrowseTable {
    /// The rows from the first whose numbers are exact: every row, unless the last ones are read
    /// back (then the rows before the tail's section and those counted in it).
    package var exactRows: Int {
        guard let tail, let index = indexes[tail.section] else { return rowCount }
        return rowsBefore(section: tail.section) + min(index.progress.rows, tail.start)
    }
}
