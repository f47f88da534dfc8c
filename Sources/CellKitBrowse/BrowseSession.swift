// `cellkit browse`'s loop: terminal events into the state machine (`BrowseState`), its effects
// carried out on the table (`BrowseTable`: windows drawn by the worker, the count, searches), and the
// view (`BrowseView`) drawn after each round. Nothing is decided here.

import CellKitDocuments
import CellKitModel
import CellKitRendering
import CellKitTerminal
import Foundation

/// The full-screen view of `cellkit browse` on a terminal: a `BrowseState` driven by keys and by
/// a `BrowseTable`, drawn by a `BrowseView`.
package struct BrowseSession {
    /// How the view ended.
    package enum Outcome: Equatable {
        /// q (or Ctrl-C).
        case quit
        /// Enter with `pick`: the row's data as a JSON line.
        case picked(String)
    }

    /// The table shown: the one opened last (`--watch` opens it again when a file changes).
    package private(set) var table: BrowseTable
    let screen: TerminalScreen
    let pick: Bool
    private(set) var state: BrowseState
    private var view = BrowseView()
    /// The search running on its own thread, if any.
    private var search: BrowseSearch?
    /// With `--watch`: the files the table reads, and how to open it again when one changes.
    private var watch: (files: FileWatch, reopen: () throws -> BrowseTable)?

    /// Seconds between looks at the watched files: a change shows within a second, settle included.
    static let watchInterval = 0.25

    /// A view of `table` (opened from `file`) on `screen`; `pick`: Enter ends it with the row's data;
    /// `stats`: the status line counts cells made and reused.
    package init(table: BrowseTable, screen: TerminalScreen, file: String, pick: Bool, stats: Bool) {
        (self.table, self.screen, self.pick) = (table, screen, pick)
        let name = (file as NSString).lastPathComponent
        state = BrowseState(
            table: table.status, columns: screen.size.columns, lines: screen.size.lines,
            title: table.document.title ?? name, fileName: name, stats: stats)
    }

    /// Opens the table again with `reopen` (a new worker, the plugins loaded anew) whenever a file
    /// it reads changes (`BrowseTable.watchedPaths`); the view stays where it was.
    package mutating func watching(reopen: @escaping () throws -> BrowseTable) {
        watch = (FileWatch(paths: table.watchedPaths), reopen)
    }

    /// Answers events until q, Ctrl-C or (with `pick`) Enter.
    package mutating func run() throws -> Outcome {
        if let outcome = try perform(state.start()) { return outcome }
        view.draw(state, on: screen)
        while true {
            // While a data file is counted or a search runs, the status line follows them.
            let timeout = search != nil ? 0.1 : table.isCounting ? 0.2 : watch != nil ? Self.watchInterval : nil
            var events: [BrowseEvent] = []
            switch try screen.next(timeout: timeout, watching: search?.ended) {
            case .timeout: break
            case .resized:
                events.append(.resized(columns: screen.size.columns, lines: screen.size.lines))
            case .resumed:
                view.invalidate()
                events.append(.resized(columns: screen.size.columns, lines: screen.size.lines))
            case .keys(let keys): events += keys.map(BrowseEvent.key)
            }
            for event in events {
                if let outcome = try send(event) { return outcome }
            }
            if let outcome = try poll() { return outcome }
            if let outcome = try reloadIfChanged() { return outcome }
            view.draw(state, on: screen)
        }
    }

    /// With `--watch`, when a watched file has changed: the table opened again, its old worker
    /// ended, and the view drawn at the same place; an error (a document that no longer reads)
    /// shown in the status line, the old table kept, the watch going on.
    private mutating func reloadIfChanged() throws -> Outcome? {
        guard let reopen = watch?.reopen, var files = watch?.files else { return nil }
        defer { watch = (files, reopen) }  // what the watch has seen, kept for its next look
        guard files.changed() else { return nil }
        search?.cancel()
        search = nil
        let time = StatusClock.now()
        do {
            table = try reopen()
            files = FileWatch(paths: table.watchedPaths, settle: files.settle)
            return try send(.reloaded(table.status, note: "reloaded at \(time)"))
        } catch {
            return try send(.failed("reload at \(time) failed: \(error)"))
        }
    }

    /// The table's counts and the search's progress, taken.
    private mutating func poll() throws -> Outcome? {
        let changed = try table.refresh()
        let renumbered = table.takeRenumberings()
        if changed || !renumbered.isEmpty || table.status != state.table {
            if let outcome = try send(.table(table.status, renumbered: renumbered)) { return outcome }
        }
        guard let running = search else { return nil }
        if case .searching(let rows) = running.state { return try send(.searchProgress(rows: rows)) }
        search = nil
        return try send(.searchEnded(running.state))
    }

    private mutating func send(_ event: BrowseEvent) throws -> Outcome? {
        try perform(state.handle(event))
    }

    /// Carries out `effects`, and those of the events they bring, in order.
    private mutating func perform(_ effects: [BrowseEffect]) throws -> Outcome? {
        var queue = effects[...]
        while let effect = queue.popFirst() {
            var answers: [BrowseEvent] = []
            switch effect {
            case .quit: return .quit
            case .suspend:
                screen.suspend()
                view.invalidate()
                answers.append(.resized(columns: screen.size.columns, lines: screen.size.lines))
            case .fetch(let fetch):
                do {
                    let window = try table.window(
                        first: fetch.first, maxLines: fetch.rows, width: fetch.width, selected: fetch.selected)
                    answers.append(.window(fetch, window, table.status, renumbered: table.takeRenumberings()))
                } catch {
                    answers.append(.failed("cannot draw the rows: \(error)"))
                }
            case .prepare(let need, let then):
                let reachable: Bool
                switch need {
                case .count: reachable = !table.isCounting
                case .end(let rows): reachable = try !table.isCounting || table.readEnd(rows: rows)
                }
                if !reachable {
                    _ = state.handle(.waiting)
                    view.draw(state, on: screen)
                    try table.finishCounting()
                }
                answers.append(.ready(then, table.status, renumbered: table.takeRenumberings()))
            case .startSearch(let text, let from, let forward):
                search?.cancel()
                search = table.startSearch(text, from: from, forward: forward)
                if search == nil { answers.append(.searchEnded(.notFound)) }
            case .cancelSearch:
                search?.cancel()
                search = nil
            case .select(let row):
                do {
                    let json = try table.data(of: row).map(RowJSON.text) ?? "null"
                    if pick { return .picked(json) }
                    answers.append(.selected(row: row, json: json))
                } catch {
                    answers.append(.failed("\(RowName.across(row)): \(error)"))
                }
            }
            for answer in answers { queue += state.handle(answer) }
        }
        return nil
    }
}

extension BrowseTable {
    /// The table's counts, numbering and faults now, for the state machine.
    package var status: BrowseTableStatus {
        var status = BrowseTableStatus(rowCount: rowCount)
        status.isCounting = isCounting
        status.exactRows = exactRows
        if let tail { status.estimatedFrom = rowsBefore(section: tail.section) + tail.start }
        status.sections = sectionCounts.enumerated().map { ($0.element, document.sections[$0.offset].header) }
        status.faults = faults.count
        status.lastFault = faults.last
        status.statistics = statistics
        return status
    }
}
