// `/` and `?` in `cellkit browse`: the rows' data searched on a thread of its own, with its own
// data file streams, while the view goes on answering keys. The view polls `state` (searching,
// found, not found, stopped) and cancels with Esc. What crosses between the threads is the
// document and the indexes (both Sendable) in, and numbers and text out, under one Mutex.
// A data file's records are first looked at as bytes (`RowPrefilter`): only those that may hold
// the text are parsed and matched. Back, a data file is read in windows of rows from the start
// row towards its first row (seeking through the index), the last match in a window the answer.

import CellKitDocuments
import CellKitModel
import CellKitTerminal
import Foundation
import Synchronization

/// A search of a table's rows' data for a text, ignoring case, on a background thread.
package final class BrowseSearch: Sendable {
    /// How the search stands.
    package enum State: Sendable, Equatable {
        /// Still searching; rows looked at so far.
        case searching(rows: Int)
        /// The row found (counted from 0 across sections).
        case found(Int)
        /// No row holds the text.
        case notFound
        /// Cancelled before it ended.
        case stopped
        /// A data file could not be read: the error's text.
        case failed(String)
    }

    /// The text searched for, as typed.
    package let query: String
    private let shared = Mutex(State.searching(rows: 0))
    private let cancelled = Atomic(false)
    /// The rows the thread looked at, once it has ended (-1 before): tests see a cancel stop it.
    let rowsLooked = Atomic(-1)
    /// A pipe the thread writes a byte to when the search ends, so that the view, which polls
    /// `ended`, draws the result at once (it looked every 0.1 s, which rounded each search up);
    /// (-1, -1) if no pipe could be made: the view then only looks every 0.1 s.
    private let signal: (read: Int32, write: Int32)

    /// Where a search starts and which way it goes: what the thread is given.
    struct Plan: Sendable {
        var document: TableDocument
        var indexes: [RowIndex?]
        /// The start row's section and row in it, and its number across sections.
        var section: Int, row: Int, number: Int
        var forward: Bool
        /// The rows of each section (counted).
        var counts: [Int]
        /// The data file streams' first buffer, in bytes (tests make it small, so that records
        /// cross its refills).
        var bufferSize = RowStream.initialBuffer
        /// The rows of a data file a backward search reads at a time (the last match in them wins);
        /// nil while a data file is still counted (the rows' numbers then come from reading them):
        /// the table is read forward from its start, as before there were windows.
        var window: Int? = 16 * 1024
        /// Whether records are looked at as bytes first (`RowPrefilter`); tests compare without.
        var prefilter = true
        /// Run on the search's thread before it reads a row: a test holds the search there until
        /// it has cancelled it, so that the cancel comes first whatever the machine's load.
        var gate: (@Sendable () -> Void)?
    }

    /// Starts searching: forward from `plan`'s row, wrapping around, for the first row whose data
    /// holds `query`; or back from it (the last such row at or before it, else the last one).
    init(_ query: String, _ plan: Plan) {
        self.query = query
        signal = wakeupPipe() ?? (-1, -1)
        let thread = Thread { [self] in run(plan) }
        thread.name = "cellkit-browse-search"
        thread.start()
    }

    deinit {  // after the thread's end: it holds the search
        if signal.read >= 0 { _ = (close(signal.read), close(signal.write)) }
    }

    /// How the search stands now.
    package var state: State { shared.withLock { $0 } }

    /// A descriptor that turns readable when the search ends (to poll beside the terminal).
    package var ended: Int32? { signal.read >= 0 ? signal.read : nil }

    /// Stops the search at its next 1,024 rows; `state` says `stopped` unless it had ended.
    package func cancel() {
        cancelled.store(true, ordering: .relaxed)
        shared.withLock { if case .searching = $0 { $0 = .stopped } }
    }

    private func finish(_ state: State) {
        shared.withLock { if case .searching = $0 { $0 = state } }
        var byte: UInt8 = 1
        if signal.write >= 0 { _ = write(signal.write, &byte, 1) }  // non-blocking: a full pipe has news already
    }

    private func run(_ plan: Plan) {
        plan.gate?()
        let needle = BrowseTable.searchable(query)
        var searcher = Searcher(plan: plan, needle: needle, search: self)
        do {
            let found = plan.forward ? try searcher.forward() : try searcher.backward()
            finish(found.map(State.found) ?? (cancelled.load(ordering: .relaxed) ? .stopped : .notFound))
        } catch {
            finish(.failed("\(error)"))
        }
        rowsLooked.store(searcher.looked, ordering: .releasing)
    }

    /// Notes `rows` looked at; false when the search is cancelled.
    fileprivate func progress(_ rows: Int) -> Bool {
        shared.withLock { if case .searching = $0 { $0 = .searching(rows: rows) } }
        return !cancelled.load(ordering: .relaxed)
    }
}

/// The search thread's reading: sections in order, rows numbered as it reads them.
private struct Searcher {
    let plan: Plan
    let needle: String
    let search: BrowseSearch
    /// What a data file's records are looked at for first; nil: every row is parsed and matched
    /// (a needle with no ASCII run to look for, see `RowPrefilter`, or a test's exact scan).
    let filter: RowPrefilter?
    var looked = 0
    /// Each data file section's stream, kept to seek in from window to window.
    var streams: [Int: RowStream] = [:]
    typealias Plan = BrowseSearch.Plan

    init(plan: Plan, needle: String, search: BrowseSearch) {
        (self.plan, self.needle, self.search) = (plan, needle, search)
        filter = plan.prefilter ? RowPrefilter(needle: needle) : nil
    }

    /// The first match from the start row to the end, then from row 0 to the start row.
    mutating func forward() throws -> Int? {
        let sections = plan.document.sections.count
        var base = plan.number - plan.row
        for s in plan.section..<sections {
            let first = s == plan.section ? plan.row : 0
            var found: Int?
            let rows = try each(s, from: first, upTo: nil) { r in
                found = base + r
                return false
            }
            guard rows != nil else { return found }
            base += rows!
        }
        base = 0
        for s in 0...plan.section {
            var found: Int?
            let rows = try each(s, from: 0, upTo: s == plan.section ? plan.row : nil) { r in
                found = base + r
                return false
            }
            guard rows != nil else { return found }
            base += rows!
        }
        return nil
    }

    /// The last match at or before the start row, nearest first (a data file read back from the
    /// start row in windows of rows), else the last match after it (read back from the table's end).
    mutating func backward() throws -> Int? {
        guard let window = plan.window else { return try backwardFromStart() }
        var base = plan.number - plan.row
        for s in stride(from: plan.section, through: 0, by: -1) {
            if s < plan.section { base -= plan.counts[s] }
            switch try last(s, from: 0, upTo: s == plan.section ? plan.row + 1 : plan.counts[s], window: window) {
            case .found(let r): return base + r
            case .stopped: return nil
            case .none: continue
            }
        }
        base = plan.counts.reduce(0, +)
        for s in stride(from: plan.counts.count - 1, through: plan.section, by: -1) {
            base -= plan.counts[s]
            switch try last(s, from: s == plan.section ? plan.row + 1 : 0, upTo: plan.counts[s], window: window) {
            case .found(let r): return base + r
            case .stopped: return nil
            case .none: continue
            }
        }
        return nil
    }

    /// `backward()` while a data file is counted: the rows up to the start row read from the table's
    /// start (numbered as they are read), the last match kept; else the last match after it.
    mutating func backwardFromStart() throws -> Int? {
        var base = 0
        var best: Int?
        for s in 0...plan.section {
            let rows = try each(s, from: 0, upTo: s == plan.section ? plan.row + 1 : nil) { r in
                best = base + r
                return true
            }
            guard let rows else { return nil }
            base += rows
        }
        if best != nil { return best }
        base = plan.number - plan.row
        for s in plan.section..<plan.document.sections.count {
            let rows = try each(s, from: s == plan.section ? plan.row + 1 : 0, upTo: nil) { r in
                best = base + r
                return true
            }
            guard let rows else { return nil }
            base += rows
        }
        return best
    }

    /// How a look for the last match in some rows ended.
    enum Last { case found(Int), none, stopped }

    /// The last row from `lo` to before `hi` of section `s` whose data holds the needle: a data
    /// file with an index read in windows of `window` rows from `hi` back, others forward.
    private mutating func last(_ s: Int, from lo: Int, upTo hi: Int, window: Int) throws -> Last {
        var top = hi
        let windowed = plan.indexes.indices.contains(s) && plan.indexes[s] != nil
        while top > lo {
            let bottom = windowed ? max(lo, top - window) : lo
            var found: Int?
            let rows = try each(s, from: bottom, upTo: top) { r in
                found = r
                return true
            }
            guard rows != nil else { return .stopped }
            if let found { return .found(found) }
            top = bottom
        }
        return .none
    }

    /// Calls `match` with each row (in the section) of section `s` from `first` (to `end`, else its
    /// last) whose data holds the needle, until it returns false; the rows in the section, or nil
    /// when stopped (by `match` or a cancel).
    private mutating func each(_ s: Int, from first: Int, upTo end: Int?, match: (Int) -> Bool) throws -> Int? {
        switch plan.document.sections[s].rows {
        case .inline(let rows):
            for r in stride(from: first, to: min(end ?? rows.count, rows.count), by: 1) {
                guard try look(rows[r].data, r, match) else { return nil }
            }
            return rows.count
        case .count(let n):
            return n  // rows with no data
        case .file(let file):
            let stream = try stream(s, file, from: first, upTo: end)
            while end.map({ stream.rowsRead < $0 }) ?? true {
                // 1,024 rows at most between looks at a cancel; the prefilter's rejects unparsed.
                let stop = min(end ?? .max, stream.rowsRead + 1024), before = stream.rowsRead
                let row: StreamedRow?
                do {
                    row = try stream.next(admittedBy: filter, before: stop)
                } catch {
                    // A malformed record is no match (browse draws it as its error row): past it.
                    guard stream.malformedRow == stream.rowsRead - 1 else { throw error }
                    guard note(stream.rowsRead - before) else { return nil }
                    continue
                }
                if let row, BrowseTable.contains(row.data.rowValue, needle), !match(stream.rowsRead - 1) {
                    return nil
                }
                guard note(stream.rowsRead - before) else { return nil }
                if row == nil, stream.rowsRead < stop { break }  // the end of the file
            }
            return stream.rowsRead
        }
    }

    /// Section `s`'s stream (`file`) at row `first`: sought to through the index's place before it
    /// (and read no further than the place at `end`, when the index has one there), else read from
    /// the file's start.
    private mutating func stream(_ s: Int, _ file: DataFile, from first: Int, upTo end: Int?) throws -> RowStream {
        let index = plan.indexes.indices.contains(s) ? plan.indexes[s] : nil
        let stream: RowStream
        if let place = index?.place(before: first) {
            stream = try streams[s] ?? RowStream(file, bufferSize: plan.bufferSize)
            let stop = end.flatMap { index?.place(before: $0) }.flatMap { $0.row == end ? $0.offset : nil }
            try stream.seek(toOffset: place.offset, line: place.line, rows: place.row, readingUpTo: stop ?? .max)
        } else {
            stream = try RowStream(file, bufferSize: plan.bufferSize)
        }
        streams[s] = stream
        try stream.skip(first - stream.rowsRead)
        return stream
    }

    /// Adds `rows` looked at; false when the search is cancelled (asked every 1,024 rows).
    private mutating func note(_ rows: Int) -> Bool {
        let before = looked
        looked += rows
        return looked / 1024 == before / 1024 || search.progress(looked)
    }

    /// Whether to go on after row `r` with `data`: a match `match` declines stops, and so does a
    /// cancel (asked every 1,024 rows).
    private mutating func look(_ data: RowValue, _ r: Int, _ match: (Int) -> Bool) throws -> Bool {
        guard note(1) else { return false }
        return !BrowseTable.contains(data, needle) || match(r)
    }
}

extension BrowseTable {
    /// Starts a search of the rows' data for `query` (ignoring case) on a thread of its own: forward
    /// from row `start`, wrapping around, or back from it (`forward` false); nil for no rows or an
    /// empty query. Counted rows only: with the last rows read back, wait for the count first.
    package func startSearch(
        _ query: String, from start: Int, forward: Bool, gate: (@Sendable () -> Void)? = nil
    ) -> BrowseSearch? {
        guard rowCount > 0, !query.isEmpty, let path = indexPath(of: min(max(0, start), rowCount - 1)) else {
            return nil
        }
        var plan = BrowseSearch.Plan(
            document: document, indexes: indexes, section: path.section, row: path.row,
            number: min(max(0, start), rowCount - 1), forward: forward, counts: sectionCounts)
        if indexes.contains(where: { $0 != nil && $0!.progress.count == nil }) { plan.window = nil }
        plan.gate = gate
        return BrowseSearch(query, plan)
    }
}
