// `/` and `?` in `cellkit browse`: the rows' data searched on a thread of its own, with its own
// data file streams, while the view goes on answering keys. The view polls `state` (searching,
// found, not found, stopped) and cancels with Esc. What crosses between the threads is the
// document and the indexes (both Sendable) in, and numbers and text out, under one Mutex.

import CellKitDocuments
import CellKitModel
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

    /// Where a search starts and which way it goes: what the thread is given.
    struct Plan: Sendable {
        var document: TableDocument
        var indexes: [RowIndex?]
        /// The start row's section and row in it, and its number across sections.
        var section: Int, row: Int, number: Int
        var forward: Bool
    }

    /// Starts searching: forward from `plan`'s row, wrapping around, for the first row whose data
    /// holds `query`; or back from it (the last such row at or before it, else the last one).
    init(_ query: String, _ plan: Plan) {
        self.query = query
        let thread = Thread { [self] in run(plan) }
        thread.name = "cellkit-browse-search"
        thread.start()
    }

    /// How the search stands now.
    package var state: State { shared.withLock { $0 } }

    /// Stops the search at its next 1,024 rows; `state` says `stopped` unless it had ended.
    package func cancel() {
        cancelled.store(true, ordering: .relaxed)
        shared.withLock { if case .searching = $0 { $0 = .stopped } }
    }

    private func finish(_ state: State) {
        shared.withLock { if case .searching = $0 { $0 = state } }
    }

    private func run(_ plan: Plan) {
        let needle = BrowseTable.searchable(query)
        var searcher = Searcher(plan: plan, needle: needle, search: self)
        do {
            let found = plan.forward ? try searcher.forward() : try searcher.backward()
            finish(found.map(State.found) ?? (cancelled.load(ordering: .relaxed) ? .stopped : .notFound))
        } catch {
            finish(.failed("\(error)"))
        }
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
    var looked = 0
    typealias Plan = BrowseSearch.Plan

    init(plan: Plan, needle: String, search: BrowseSearch) {
        (self.plan, self.needle, self.search) = (plan, needle, search)
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

    /// The last match at or before the start row (the rows up to it read from the table's start: a
    /// data file is read forward only), else the last match after it.
    mutating func backward() throws -> Int? {
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
            let stream = try RowStream(file)
            if first > 0, let place = plan.indexes[s]?.place(before: first) {
                try stream.seek(toOffset: place.offset, line: place.line, rows: place.row)
            }
            try stream.skip(first - stream.rowsRead)
            while end.map({ stream.rowsRead < $0 }) ?? true, let row = try stream.next() {
                guard try look(row.data.rowValue, stream.rowsRead - 1, match) else { return nil }
            }
            return stream.rowsRead
        }
    }

    /// Whether to go on after row `r` with `data`: a match `match` declines stops, and so does a
    /// cancel (asked every 1,024 rows).
    private mutating func look(_ data: RowValue, _ r: Int, _ match: (Int) -> Bool) throws -> Bool {
        looked += 1
        if looked % 1024 == 0, !search.progress(looked) { return false }
        return !BrowseTable.contains(data, needle) || match(r)
    }
}

extension BrowseTable {
    /// Starts a search of the rows' data for `query` (ignoring case) on a thread of its own: forward
    /// from row `start`, wrapping around, or back from it (`forward` false); nil for no rows or an
    /// empty query. Counted rows only: with the last rows read back, wait for the count first.
    package func startSearch(_ query: String, from start: Int, forward: Bool) -> BrowseSearch? {
        guard rowCount > 0, !query.isEmpty, let path = indexPath(of: min(max(0, start), rowCount - 1)) else {
            return nil
        }
        let plan = BrowseSearch.Plan(
            document: document, indexes: indexes, section: path.section, row: path.row,
            number: min(max(0, start), rowCount - 1), forward: forward)
        return BrowseSearch(query, plan)
    }
}
