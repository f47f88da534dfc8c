// The browse view's state machine: which rows are on screen, the row under the cursor, prompts,
// counts, the help screen and searches. No I/O: events go in (keys, a resize, a window drawn, the
// table's counts, a search's progress), effects come out (draw a window, wait for the count, start a
// search, select a row, quit), and a thin loop (`BrowseSession`) carries them out.

import CellKitModel
import CellKitTerminal

/// What the table behind the view says of itself: a snapshot, taken by the loop.
package struct BrowseTableStatus: Equatable, Sendable {
    /// Rows in the table (a lower bound while counting).
    package var rowCount = 0
    /// Whether a data file is still being counted.
    package var isCounting = false
    /// The first row whose number is an estimate (the last rows, read back from the end before the
    /// count); nil when every number is exact.
    package var estimatedFrom: Int?
    /// The rows from the first whose numbers are exact.
    package var exactRows = 0
    /// Rows in each section, and each section's header.
    package var sections: [(count: Int, header: String?)] = []
    /// The plugin faults so far and the last one's line.
    package var faults = 0
    /// The last plugin fault's line, if any.
    package var lastFault: String?
    /// Cells made and reused so far.
    package var statistics: (made: Int, reused: Int) = (0, 0)

    /// A table of `rowCount` rows in one section, counted, exact, with no faults.
    package init(rowCount: Int = 0, sections: [(count: Int, header: String?)]? = nil) {
        self.rowCount = rowCount
        self.exactRows = rowCount
        self.sections = sections ?? [(rowCount, nil)]
    }

    package static func == (a: Self, b: Self) -> Bool {
        a.rowCount == b.rowCount && a.isCounting == b.isCounting && a.estimatedFrom == b.estimatedFrom
            && a.exactRows == b.exactRows && a.faults == b.faults && a.lastFault == b.lastFault
            && a.statistics == b.statistics && a.sections.map(\.count) == b.sections.map(\.count)
            && a.sections.map(\.header) == b.sections.map(\.header)
    }

    /// The section row `row` is in, the row's index in it (both from 0), and the section's header.
    package func section(of row: Int) -> (index: Int, row: Int, header: String?)? {
        var rest = row
        for (s, section) in sections.enumerated() {
            if rest < section.count { return (s, rest, section.header) }
            rest -= section.count
        }
        return nil
    }
}

/// A window of rows to draw: rows `first` on (at most `rows` of them), `width` columns wide, with
/// row `selected` drawn selected.
package struct BrowseFetch: Equatable, Sendable {
    /// The first row, counted from 0 across sections.
    package var first: Int
    /// Rows at most.
    package var rows: Int
    /// Columns.
    package var width: Int
    /// The row drawn selected.
    package var selected: Int
    /// A fetch of these rows.
    package init(first: Int, rows: Int, width: Int, selected: Int) {
        (self.first, self.rows, self.width, self.selected) = (first, rows, width, selected)
    }
}

/// What must be so before a deferred move: the rows counted, or the last rows reachable.
package enum BrowseNeed: Equatable, Sendable {
    /// Every data file counted.
    case count
    /// The last rows drawable: read back from a JSON Lines file's end (`rows` of them), else counted.
    case end(rows: Int)
}

/// A move that waits for a `BrowseNeed`.
package enum BrowseDeferred: Equatable, Sendable {
    /// Row `row` (from 0) at the top of the screen.
    case goTo(Int)
    /// The last row.
    case last
    /// The search again from the cursor, its way (`reverse`: the other way).
    case search(reverse: Bool)
    /// The row a search found, about a third down the screen.
    case found(Int)
}

/// What the state machine is given.
package enum BrowseEvent: Sendable {
    /// A key pressed.
    case key(Key)
    /// The terminal's new size.
    case resized(columns: Int, lines: Int)
    /// The table's counts now, and the rows numbered anew since (the view's rows move with them).
    case table(BrowseTableStatus, renumbered: [Renumbering])
    /// The window `fetch` asked for, drawn; the table's counts after it and the rows numbered anew
    /// on the way (applied to the rows kept before the window is taken).
    case window(BrowseFetch, BrowseWindow, BrowseTableStatus, renumbered: [Renumbering])
    /// The loop waits for the count (`BrowseNeed`): say so.
    case waiting
    /// What a deferred move waited for is so: the table's counts now, then the move.
    case ready(BrowseDeferred, BrowseTableStatus, renumbered: [Renumbering])
    /// Rows looked at so far by the search running.
    case searchProgress(rows: Int)
    /// The search running ended.
    case searchEnded(BrowseSearch.State)
    /// The row selected (Enter) and its data as JSON.
    case selected(row: Int, json: String)
    /// Something the view asked for could not be done: the message to show; the view goes on.
    case failed(String)
    /// The table was opened again (`--watch`: a file it reads changed): its counts now, and what
    /// the status line says; the view stays where it was, as far as the rows still reach.
    case reloaded(BrowseTableStatus, note: String)
}

/// What the state machine asks the loop to do.
package enum BrowseEffect: Equatable, Sendable {
    /// Draw the window and answer `.window` (or `.failed`).
    case fetch(BrowseFetch)
    /// Make `need` so (sending `.waiting` first when that means waiting), then answer `.ready(then)`.
    case prepare(BrowseNeed, then: BrowseDeferred)
    /// Start a search of the rows' data for `text` from row `from`, its way.
    case startSearch(String, from: Int, forward: Bool)
    /// Stop the search running.
    case cancelSearch
    /// Row `row` selected (Enter): with `--pick` the view ends with its data; else answer `.selected`.
    case select(row: Int)
    /// Suspend the process (Ctrl-Z); draw everything again when it resumes.
    case suspend
    /// End the view.
    case quit
}

/// The prompt in the status line, if any.
package enum BrowsePrompt: Equatable, Sendable {
    /// `:` and a row number.
    case row(String)
    /// `/` and a text to search for.
    case search(String)
}

/// The browse view as a value: positions, prompts, messages, the search; `handle` answers an event
/// with the effects the loop carries out. No I/O.
package struct BrowseState {
    /// Where a move puts the cursor's row.
    package enum Placement: Equatable, Sendable {
        /// Where it is, scrolled the least to be on screen.
        case keep
        /// First on the screen.
        case top
        /// About a third down the screen (a match).
        case third
    }

    /// What the window awaited is for.
    private enum Phase: Equatable {
        /// Shown as it comes.
        case show
        /// Shown; the cursor's row must be on it (`placed`: `top` was placed from below once).
        case check(placed: Bool)
        /// Rows up to the cursor's, to choose `top` from: the cursor's row last on screen, or a third down.
        case place(third: Bool)
        /// Shown after a wheel turn: the cursor moved onto the rows shown if it left them.
        case scrolled
    }

    /// Columns and lines of the screen.
    package private(set) var size: (columns: Int, lines: Int)
    /// The table's counts as last told.
    package private(set) var table: BrowseTableStatus
    /// The first row on screen.
    package private(set) var top = 0
    /// The row under the cursor (drawn selected).
    package private(set) var cursor = 0
    /// The window on screen: rows from `top`.
    package private(set) var window = BrowseWindow()
    /// The prompt being typed, if any.
    package private(set) var prompt: BrowsePrompt?
    /// The digits of a count typed so far (`50` of `50G`).
    package private(set) var count = ""
    /// A message in the status line until the next key.
    package private(set) var message: String?
    /// Beside the cursor's place until the next key: the search went past an end and went on
    /// from the other ("search wrapped to the top", as less says it).
    package private(set) var wrapNote: String?
    /// Where the running search started, and which way it goes: to tell when it wraps.
    private var searchStart: (row: Int, forward: Bool)?
    /// Whether the help screen is shown.
    package private(set) var showsHelp = false
    /// The last search's text.
    package private(set) var query: String?
    /// Rows looked at by the search running; nil when none runs.
    package private(set) var searching: Int?
    /// Whether the status line shows cells made and reused.
    package let stats: Bool
    /// The document's title (else the file's name) and the file's name, for the header and status lines.
    package let title: String, fileName: String
    private var phase: Phase?
    private var awaited: BrowseFetch?
    private var faultsShown = 0
    /// When the table was last opened again (`--watch`): "reloaded at 13:58:26", in the status
    /// line after where the cursor is, until the next key.
    package private(set) var reloadNote: String?

    /// The narrowest and lowest screen the view draws rows on.
    package static let minimumColumns = 20
    /// The lowest screen the view draws rows on: one row and the status line.
    package static let minimumLines = 2

    /// A view of `table` on a screen `columns` by `lines`.
    package init(
        table: BrowseTableStatus, columns: Int, lines: Int, title: String, fileName: String, stats: Bool = false
    ) {
        (self.table, self.size, self.title, self.fileName, self.stats) =
            (table, (columns, lines), title, fileName, stats)
    }

    // MARK: Layout

    /// Whether the title line is drawn: not on a screen of fewer than 5 lines.
    package var showsTitle: Bool { size.lines >= 5 }
    /// Whether the status line is drawn.
    package var showsStatus: Bool { size.lines >= Self.minimumLines }
    /// Lines for rows.
    package var bodyLines: Int { max(1, size.lines - (showsTitle ? 1 : 0) - (showsStatus ? 1 : 0)) }
    /// Whether the screen is too small for rows.
    package var isTooSmall: Bool { size.columns < Self.minimumColumns || size.lines < Self.minimumLines }

    /// The window's first line drawn: 0, unless the cursor's row is first and its lines would not
    /// all be on screen below the lines above it (the table's and section's headers on a low screen).
    package var lineOffset: Int {
        guard let span = window.rows.first, span.row == cursor else { return 0 }
        let end = span.firstLine + max(1, span.lineCount - 1)
        return max(0, min(span.firstLine, end - bodyLines))
    }

    /// The rows whose lines are all on screen (the border line below a row aside).
    package var fullyShown: [Int] {
        let offset = lineOffset
        return window.rows.filter { $0.firstLine + max(1, $0.lineCount - 1) - offset <= bodyLines }.map(\.row)
    }

    /// The lines of the window on screen.
    package var shownLines: ArraySlice<String> {
        let offset = min(lineOffset, window.lines.count)
        return window.lines[offset..<min(window.lines.count, offset + bodyLines)]
    }

    // MARK: Events

    /// The effects of starting: the first window.
    package mutating func start() -> [BrowseEffect] { settle(.keep) }

    /// Answers `event`: the state moves on, and the effects say what the loop does next.
    package mutating func handle(_ event: BrowseEvent) -> [BrowseEffect] {
        switch event {
        case .key(let key): return handle(key)
        case .resized(let columns, let lines):
            size = (columns, lines)
            return settle(.keep)
        case .table(let status, let renumbered):
            // Rows counted since: drawn when the window reached the last row counted before.
            let grew = status.rowCount > table.rowCount && window.rows.last?.row == table.rowCount - 1
            take(status, renumbered)
            if !renumbered.isEmpty || (window.rows.isEmpty && table.rowCount > 0) || (grew && phase == nil) {
                return settle(.keep)
            }
            return []
        case .window(let fetch, let drawn, let status, let renumbered):
            take(status, renumbered)
            return arrived(fetch, drawn)
        case .waiting:
            message = "counting the rows…"
            return []
        case .ready(let deferred, let status, let renumbered):
            if message == "counting the rows…" { message = nil }
            take(status, renumbered)
            return resume(deferred)
        case .searchProgress(let rows):
            if searching != nil { searching = rows }
            return []
        case .searchEnded(let state):
            return searchEnded(state)
        case .selected(let row, let json):
            message = "selected \(RowName.across(row)): \(json)"
            return []
        case .failed(let text):
            (message, phase, awaited) = (text, nil, nil)
            return []
        case .reloaded(let status, let note):
            table = status
            let last = max(0, status.rowCount - 1)
            (top, cursor) = (min(top, last), min(cursor, last))
            (message, reloadNote, faultsShown) = (nil, note, 0)  // the new table's faults are new
            (phase, awaited, window) = (nil, nil, BrowseWindow())
            return settle(.keep)
        }
    }

    private mutating func take(_ status: BrowseTableStatus, _ renumbered: [Renumbering]) {
        table = status
        guard !renumbered.isEmpty else { return }
        for change in renumbered { (top, cursor) = (change.apply(top), change.apply(cursor)) }
        let last = max(0, table.rowCount - 1)
        (top, cursor) = (min(max(0, top), last), min(max(0, cursor), last))
    }

    // MARK: Keys

    private mutating func handle(_ key: Key) -> [BrowseEffect] {
        if showsHelp {  // any key returns from the help screen
            showsHelp = false
            return []
        }
        if prompt != nil { return handlePrompt(key) }
        (message, wrapNote) = (nil, nil)
        faultsShown = table.faults  // a fault line stays until the next key
        reloadNote = nil
        if case .character(let c) = key, let digit = c.wholeNumberValue, c.isASCII {
            if count.count < 12, !(count.isEmpty && digit == 0) { count.append(c) }
            return []
        }
        let n = Int(count)
        count = ""
        switch key {
        case .escape:  // cancels; never quits
            if searching != nil {
                (searching, message) = (nil, "search stopped")
                return [.cancelSearch]
            }
            if n == nil { message = "q quits; ? or h shows the keys" }
            return []
        case .character("q"), .character("\u{03}"): return [.quit]  // Ctrl-C too: raw mode reads it
        case .character("\u{1A}"): return [.suspend]  // Ctrl-Z
        case .character("?"), .character("h"):
            showsHelp = true
            return []
        case .up, .character("k"): return move(to: cursor - (n ?? 1))
        case .down, .character("j"): return move(to: cursor + (n ?? 1))
        case .pageDown, .character(" "), .character("f"): return page(1, rows: max(1, fullyShown.count))
        case .pageUp, .character("b"): return page(-1, rows: max(1, fullyShown.count))
        case .character("\u{04}"): return page(1, rows: n ?? max(1, fullyShown.count / 2))  // Ctrl-D
        case .character("\u{15}"): return page(-1, rows: n ?? max(1, fullyShown.count / 2))  // Ctrl-U
        case .home, .character("g"):
            if let n { return goTo(n) }
            return move(to: 0)
        case .end, .character("G"):
            if let n { return goTo(n) }
            return end()
        case .wheelDown: return scroll(3)
        case .wheelUp: return scroll(-3)
        case .character(":"):
            prompt = .row(n.map(String.init) ?? "")
            return []
        case .character("/"):
            prompt = .search("")
            return []
        case .character("n"): return searchAgain(reverse: false)
        case .character("N"): return searchAgain(reverse: true)
        case .enter: return table.rowCount > 0 ? [.select(row: cursor)] : []
        default: return []
        }
    }

    private mutating func handlePrompt(_ key: Key) -> [BrowseEffect] {
        guard let prompt else { return [] }
        var text: String
        switch prompt {
        case .row(let t), .search(let t): text = t
        }
        func with(_ new: String) -> BrowsePrompt {
            switch prompt {
            case .row: .row(new)
            case .search: .search(new)
            }
        }
        switch key {
        case .escape: self.prompt = nil
        case .backspace:
            if text.isEmpty { self.prompt = nil } else { self.prompt = with(String(text.dropLast())) }
        case .enter:
            self.prompt = nil
            switch prompt {
            case .row:
                guard let n = Int(text.filter { $0 != " " }), n >= 1 else {
                    message = "not a row number: \(text)"
                    return []
                }
                return goTo(n)
            case .search:
                if !text.isEmpty { query = text }
                return searchAgain(reverse: false)
            }
        case .character(let c) where !c.isASCII || c.asciiValue! >= 0x20:
            if text.count < 200 {
                text.append(c)
                self.prompt = with(text)
            }
        default: break
        }
        return []
    }

    /// Row `n` (counted from 1) at the top; its number must be exact first.
    private mutating func goTo(_ n: Int) -> [BrowseEffect] {
        guard table.rowCount > 0 else { return [] }
        if table.estimatedFrom != nil || (table.isCounting && n > table.rowCount), n > table.exactRows {
            return [.prepare(.count, then: .goTo(n - 1))]
        }
        return move(to: min(n, table.rowCount) - 1, placement: .top)
    }

    /// The last row: while counting, read back from a JSON Lines file's end (or waited for).
    private mutating func end() -> [BrowseEffect] {
        guard table.rowCount > 0 else { return [] }
        if table.isCounting { return [.prepare(.end(rows: 2 * bodyLines + 16), then: .last)] }
        return move(to: table.rowCount - 1)
    }

    private mutating func resume(_ deferred: BrowseDeferred) -> [BrowseEffect] {
        switch deferred {
        case .goTo(let row): return move(to: min(row, table.rowCount - 1), placement: .top)
        case .last: return move(to: table.rowCount - 1)
        case .search(let reverse): return searchAgain(reverse: reverse, counted: true)
        case .found(let row): return move(to: row, placement: .third)
        }
    }

    // MARK: Searching

    /// Starts the search again from the cursor (n, N, or a new query); `searchEnded` moves the cursor.
    private mutating func searchAgain(reverse: Bool, counted: Bool = false) -> [BrowseEffect] {
        guard let query else {
            message = "no search yet: / searches"
            return []
        }
        guard table.rowCount > 0 else { return [] }
        // The rows read back from the end are numbered from an estimate: the search needs the count.
        if !counted, table.estimatedFrom != nil { return [.prepare(.count, then: .search(reverse: reverse))] }
        let forward = !reverse
        let start = forward ? cursor + 1 : cursor - 1
        let wrapped = forward ? (start >= table.rowCount ? 0 : start) : (start < 0 ? table.rowCount - 1 : start)
        let cancel: [BrowseEffect] = searching != nil ? [.cancelSearch] : []
        searching = 0
        searchStart = (start, forward)
        return cancel + [.startSearch(query, from: wrapped, forward: forward)]
    }

    private mutating func searchEnded(_ state: BrowseSearch.State) -> [BrowseEffect] {
        guard searching != nil else { return [] }
        switch state {
        case .searching(let rows):
            searching = rows
            return []
        case .found(let row):
            searching = nil
            if let (start, forward) = searchStart, forward ? row < start : row > start {
                wrapNote = forward ? "search wrapped to the top" : "search wrapped to the bottom"
            }
            if table.estimatedFrom != nil || row >= table.rowCount { return [.prepare(.count, then: .found(row))] }
            return move(to: row, placement: .third)
        case .notFound:
            (searching, message) = (nil, "not found: \(query ?? "")")
        case .stopped:
            (searching, message) = (nil, "search stopped")
        case .failed(let error):
            (searching, message) = (nil, "search failed: \(error)")
        }
        return []
    }

    // MARK: Moving

    /// Puts the cursor on `row` (clamped) and the screen where `placement` says.
    private mutating func move(to row: Int, placement: Placement = .keep) -> [BrowseEffect] {
        guard table.rowCount > 0 else { return [] }
        cursor = min(max(0, row), table.rowCount - 1)
        return settle(placement)
    }

    /// Forward (1) or back (-1) by `rows`, the screen and the cursor alike.
    private mutating func page(_ direction: Int, rows: Int) -> [BrowseEffect] {
        guard table.rowCount > 0 else { return [] }
        let last = table.rowCount - 1
        if direction > 0 {
            guard top + rows <= last else { return move(to: last) }
            top += rows
            cursor = min(last, cursor + rows)
        } else {
            top = max(0, top - rows)
            cursor = max(0, cursor - rows)
        }
        return settle(.keep)
    }

    /// Scrolls by `rows` without moving the cursor unless it would leave the screen.
    private mutating func scroll(_ rows: Int) -> [BrowseEffect] {
        guard table.rowCount > 0 else { return [] }
        top = min(max(0, top + rows), table.rowCount - 1)
        cursor = min(max(cursor, top), table.rowCount - 1)
        return fetch(from: top, phase: .scrolled)
    }

    /// Draws the rows from `top`, the cursor's row placed on screen as `placement` says.
    private mutating func settle(_ placement: Placement) -> [BrowseEffect] {
        guard !isTooSmall, table.rowCount > 0 else {
            (phase, awaited) = (nil, nil)
            return []
        }
        switch placement {
        case .keep:
            if cursor < top { top = cursor }
            return fetch(from: top, phase: .check(placed: false))
        case .top:
            top = cursor
            return fetch(from: top, phase: .check(placed: false))
        case .third:
            let from = max(0, cursor - bodyLines / 3)
            return fetch(from: from, rows: cursor - from + 1, phase: .place(third: true))
        }
    }

    private mutating func fetch(from first: Int, rows: Int? = nil, phase: Phase) -> [BrowseEffect] {
        let request = BrowseFetch(first: first, rows: rows ?? bodyLines, width: size.columns, selected: cursor)
        (self.phase, awaited) = (phase, request)
        return [.fetch(request)]
    }

    /// A window came: shown, or used to place `top`, and the next window asked for if needed.
    private mutating func arrived(_ fetch: BrowseFetch, _ drawn: BrowseWindow) -> [BrowseEffect] {
        guard let phase, fetch == awaited else { return [] }  // one asked for before something else
        (self.phase, awaited) = (nil, nil)
        switch phase {
        case .show:
            window = drawn
        case .check(let placed):
            window = drawn
            if fullyShown.contains(cursor) || cursor <= top { return [] }
            if placed {
                top += 1
                return self.fetch(from: top, phase: .check(placed: true))
            }
            let from = max(top, cursor - bodyLines + 1)
            return self.fetch(from: from, rows: cursor - from + 1, phase: .place(third: false))
        case .place(let third):
            guard let span = drawn.rows.first(where: { $0.row == cursor }) else {
                top = cursor
                return self.fetch(from: top, phase: .check(placed: true))
            }
            let end = span.firstLine + max(1, span.lineCount - 1)
            let room = bodyLines / 3
            top =
                drawn.rows.first(where: {
                    third ? span.firstLine - $0.firstLine <= room : end - $0.firstLine <= bodyLines
                })?
                .row ?? cursor
            return self.fetch(from: top, phase: .check(placed: true))
        case .scrolled:
            window = drawn
            if let last = fullyShown.last, cursor > last {
                cursor = last
                return self.fetch(from: top, phase: .show)
            }
        }
        return []
    }

    // MARK: Lines

    /// The status line's text: the prompt, a message, a fault, else where the cursor is.
    package var status: String {
        if let prompt {
            switch prompt {
            case .row(let text): return ":" + text
            case .search(let text): return "/" + text
            }
        }
        if let message { return message }
        if table.faults > faultsShown, let line = table.lastFault { return "⚠ " + line }
        var parts: [String] = []
        if !count.isEmpty { parts.append(count) }
        if let searching { parts.append("searching… \(searching) rows (Esc stops)") }
        if let from = table.estimatedFrom, cursor >= from {  // the last rows, read back before the count
            parts.append("\(RowName.across(cursor, approximate: true)) of ≈\(table.rowCount), last rows, counting")
        } else {
            let of = table.isCounting ? "of ≥ \(table.rowCount), counting" : "of \(table.rowCount)"
            // With sections, also as section.row, the form `--select` takes and messages name a row by
            // (issue 41: a crash line's `row 2.100` was 102G here, left to the reader to add up).
            let place =
                table.sections.count < 2
                ? nil
                : table.section(of: cursor).map {
                    " (\(RowName.of(IndexPath(section: $0.index, row: $0.row))))"
                }
            parts.append(table.rowCount == 0 ? "no rows" : "\(RowName.across(cursor)) \(of)" + (place ?? ""))
        }
        if let wrapNote { parts.append(wrapNote) }
        if let error = window.errors[cursor] ?? fullyShown.lazy.compactMap({ window.errors[$0] }).first {
            parts.append("⚠ " + error)
        }
        if let section = table.section(of: cursor) {
            parts.append(section.header ?? "section \(section.index + 1)")
        }
        parts.append(fileName)
        // A fault's line stays until a key; then this, so that the placeholder rows keep a reason.
        if table.faults > 0 { parts.append(table.faults == 1 ? "⚠ 1 plugin fault" : "⚠ \(table.faults) plugin faults") }
        if let reloadNote { parts.append(reloadNote) }
        // Rows are drawn one at a time: a cell is made once a type, then reused row after row (a
        // UIKit table keeps a screen's worth; the count surprised its users, issue 41).
        if stats {
            parts.append("cells made \(table.statistics.made) (one per cell type), reused \(table.statistics.reused)")
        }
        return parts.joined(separator: " · ")
    }

    /// The help screen's lines.
    package static let help = [
        "cellkit browse: keys (rows are numbered from 1)",
        "",
        "  j ↓          next row          k ↑         previous row",
        "  f space PgDn a page forward    b PgUp      a page back",
        "  Ctrl-D       half a page on    Ctrl-U      half a page back",
        "  g Home       first row         G End       last row",
        "  NG Ng :N     row N             Nj Nk       N rows down, up",
        "  /text        search the data   n N         next, previous match",
        "  Enter        select the row    the wheel   scrolls",
        "  Esc          cancels a prompt, a count or a search",
        "  ? h          this help         q Ctrl-C    quit",
        "",
        "any key returns",
    ]
}
