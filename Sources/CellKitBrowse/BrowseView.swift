// The browse view's state and keys: which rows are on screen, the row under the cursor, the
// prompt for `:` and searches, and the frame written to the terminal.

import CellKitDocuments
import CellKitModel
import CellKitRendering
import CellKitRuntime
import CellKitSupervision
import CellKitTerminal
import CellKitText
import Foundation

/// The full-screen view of `cellkit browse`: draws windows of a `BrowseTable` and answers keys.
package struct BrowseView {
    package enum Outcome: Equatable {
        case quit
        case picked(String)
    }
    private enum Prompt {
        case row, search(forward: Bool)
    }

    let table: BrowseTable
    let screen: TerminalScreen
    let file: String
    let pick: Bool
    let stats: Bool
    /// The first row on screen and the row under the cursor (drawn selected), across sections.
    private(set) var top = 0
    private(set) var cursor = 0
    private var window = BrowseWindow(lines: [], rows: [])
    private var prompt: (kind: Prompt, text: String)?
    private var message: String?
    private var query: (text: String, forward: Bool)?
    /// The search running on its own thread, if any (`/`, `?`, n, N).
    private var search: BrowseSearch?
    /// Plugin faults shown in the status line so far.
    private var faultsShown = 0

    static let minimumColumns = 20
    static let minimumLines = 3

    package init(table: BrowseTable, screen: TerminalScreen, file: String, pick: Bool, stats: Bool) {
        (self.table, self.screen, self.file, self.pick, self.stats) = (table, screen, file, pick, stats)
    }

    private var bodyLines: Int { max(1, screen.size.lines - 2) }
    private var width: Int { screen.size.columns }
    private var isTooSmall: Bool {
        screen.size.columns < Self.minimumColumns || screen.size.lines < Self.minimumLines
    }

    /// Answers events until q, Esc or (with `pick`) Enter.
    package mutating func run() throws -> Outcome {
        try draw()
        while true {
            // While a data file is counted or a search runs, the status line follows them.
            let timeout = search != nil ? 0.1 : table.isCounting ? 0.2 : nil
            switch try screen.next(timeout: timeout) {
            case .timeout:
                let changed = try table.refresh()
                try takeRenumberings()
                if changed || search != nil {
                    try searchEnded()
                    try draw()
                }
            case .resized, .resumed:
                try settle()
                try draw()
            case .keys(let keys):
                for key in keys {
                    if let outcome = try handle(key) { return outcome }
                }
                try searchEnded()
                try draw()
            }
        }
    }

    // MARK: Keys

    private mutating func handle(_ key: Key) throws -> Outcome? {
        if prompt != nil { return try handlePrompt(key) }
        message = nil
        faultsShown = table.faults.count  // a fault line stays until the next key
        if key == .escape, let running = search {  // Esc stops a search first
            running.cancel()
            search = nil
            message = "search stopped"
            return nil
        }
        switch key {
        case .character("q"), .escape, .character("\u{03}"): return .quit  // Ctrl-C too: raw mode reads it
        case .character("\u{1A}"): screen.suspend()  // Ctrl-Z
        case .up, .character("k"): try move(to: cursor - 1)
        case .down, .character("j"): try move(to: cursor + 1)
        case .pageDown, .character(" "), .character("f"): try page(1)
        case .pageUp, .character("b"): try page(-1)
        case .home, .character("g"): try move(to: 0)
        case .end, .character("G"):
            // While counting, the last rows of a JSON Lines file are read back from its end;
            // otherwise the last row counted so far is not the last row: wait for the count.
            if table.isCounting, try !table.readEnd(rows: 2 * bodyLines + 16) { try waitForCount() }
            try move(to: table.rowCount - 1)
        case .wheelDown: try scroll(3)
        case .wheelUp: try scroll(-3)
        case .character(":"): prompt = (.row, "")
        case .character("/"): prompt = (.search(forward: true), "")
        case .character("?"): prompt = (.search(forward: false), "")
        case .character("n"): try searchAgain(reverse: false)
        case .character("N"): try searchAgain(reverse: true)
        case .enter: return try select()
        default: break
        }
        return nil
    }

    private mutating func handlePrompt(_ key: Key) throws -> Outcome? {
        guard let (kind, text) = prompt else { return nil }
        switch key {
        case .escape: prompt = nil
        case .backspace:
            if text.isEmpty { prompt = nil } else { prompt = (kind, String(text.dropLast())) }
        case .enter:
            prompt = nil
            switch kind {
            case .row:
                guard let n = Int(text.trimmingCharacters(in: .whitespaces)), n >= 1 else {
                    message = "not a row number: \(text)"
                    return nil
                }
                if table.isEstimated, n > table.exactRows { try waitForCount() }  // its number must be exact
                try move(to: min(n, table.rowCount) - 1, toTop: true)
            case .search(let forward):
                if !text.isEmpty { query = (text, forward) }
                try searchAgain(reverse: false)
            }
        case .character(let c) where !c.isASCII || c.asciiValue! >= 0x20:
            if text.count < 200 { prompt = (kind, text + String(c)) }
        default: break
        }
        return nil
    }

    private mutating func select() throws -> Outcome? {
        guard table.rowCount > 0 else { return nil }
        let json = try table.data(of: cursor).map(RowJSON.text) ?? "null"
        if pick { return .picked(json) }
        message = "selected row \(cursor + 1): \(json)"
        return nil
    }

    /// Starts the search again from the cursor (n, N, or a new query): on a thread of its own,
    /// the view going on meanwhile; `searchEnded` moves the cursor once it ends.
    private mutating func searchAgain(reverse: Bool) throws {
        guard let query else {
            message = "no search yet: / searches forward, ? back"
            return
        }
        search?.cancel()
        // The rows read back from the end are numbered from an estimate: the search needs the count.
        if table.isEstimated { try waitForCount() }
        let forward = query.forward != reverse
        let start = forward ? cursor + 1 : cursor - 1
        let wrapped = forward ? (start >= table.rowCount ? 0 : start) : (start < 0 ? table.rowCount - 1 : start)
        search = table.startSearch(query.text, from: wrapped, forward: forward)
    }

    /// Takes the search's outcome once it has one: the cursor on the row found, or a message.
    private mutating func searchEnded() throws {
        guard let running = search else { return }
        switch running.state {
        case .searching: return
        case .found(let row):
            search = nil
            if table.isEstimated || row >= table.rowCount { try waitForCount() }
            try move(to: row)
        case .notFound:
            search = nil
            message = "not found: \(running.query)"
        case .stopped:
            search = nil
            message = "search stopped"
        case .failed(let error):
            search = nil
            message = "search failed: \(error)"
        }
    }

    /// Waits for the rows to be counted, saying so (a row number past those counted, or a search).
    private mutating func waitForCount() throws {
        guard table.isCounting else { return }
        message = "counting the rows…"
        try draw()
        message = nil
        try table.finishCounting()
        try takeRenumberings()
    }

    /// Moves the rows kept (top, cursor) as the table numbered its rows anew (the count replacing
    /// the estimate of the rows read back from the end).
    private mutating func takeRenumberings() throws {
        let changes = table.takeRenumberings()
        guard !changes.isEmpty else { return }
        for change in changes { (top, cursor) = (change.apply(top), change.apply(cursor)) }
        (top, cursor) = (min(max(0, top), max(0, table.rowCount - 1)), min(max(0, cursor), max(0, table.rowCount - 1)))
        window = BrowseWindow()
    }

    // MARK: Moving

    /// Puts the cursor on `row` (clamped) and scrolls so it is on screen; `toTop` puts it first.
    private mutating func move(to row: Int, toTop: Bool = false) throws {
        guard table.rowCount > 0 else { return }
        cursor = min(max(0, row), table.rowCount - 1)
        if toTop || cursor < top { top = cursor }
        try settle()
    }

    /// A page forward (1) or back (-1): by the rows fully on screen.
    private mutating func page(_ direction: Int) throws {
        let rows = max(1, fullyShown.count)
        guard table.rowCount > 0 else { return }
        if direction > 0 {
            let last = table.rowCount - 1
            guard top + rows <= last else { return try move(to: last) }
            top += rows
            cursor = min(last, cursor + rows)
        } else {
            top = max(0, top - rows)
            cursor = max(0, cursor - rows)
        }
        try settle()
    }

    /// Scrolls by `rows` without moving the cursor unless it would leave the screen.
    private mutating func scroll(_ rows: Int) throws {
        guard table.rowCount > 0 else { return }
        top = min(max(0, top + rows), table.rowCount - 1)
        cursor = min(max(cursor, top), table.rowCount - 1)
        try render()
        let shown = fullyShown
        if let last = shown.last, cursor > last { cursor = last }
        try render()
    }

    /// The rows whose lines are all on screen (the border line below a row aside).
    private var fullyShown: [Int] {
        window.rows.filter { $0.firstLine + max(1, $0.lineCount - 1) <= bodyLines }.map(\.row)
    }

    /// Draws the window from `top` and, when the cursor's row is below the screen, moves `top` down
    /// until it is on (its last lines included, when the row fits on the screen at all).
    private mutating func settle() throws {
        guard !isTooSmall, table.rowCount > 0 else { return }
        try render()
        if fullyShown.contains(cursor) || cursor == top { return }
        // Fill from the bottom: the rows before the cursor that fit above it.
        let from = max(top, cursor - bodyLines + 1)
        let w = try table.window(first: from, maxLines: cursor - from + 1, width: width, selected: cursor)
        let moved = table.takeRenumberings()
        for change in moved { (top, cursor) = (change.apply(top), change.apply(cursor)) }
        if let end = w.rows.last.map({ $0.firstLine + max(1, $0.lineCount - 1) }) {
            top = w.rows.first(where: { end - $0.firstLine <= bodyLines })?.row ?? cursor
        } else {
            top = cursor
        }
        try render()
        while !fullyShown.contains(cursor), top < cursor {
            top += 1
            try render()
        }
    }

    private mutating func render() throws {
        window = try table.window(first: top, maxLines: bodyLines, width: width, selected: cursor)
        for change in table.takeRenumberings() { (top, cursor) = (change.apply(top), change.apply(cursor)) }
    }

    // MARK: Drawing

    /// Writes the whole screen: header, rows, status line.
    mutating func draw() throws {
        var frame = screen.capability("sgr0")
        let el = screen.capability("el")
        if isTooSmall {
            frame += screen.capability("clear")
            let text =
                "too small (\(screen.size.columns)×\(screen.size.lines)): "
                + "browse needs \(Self.minimumColumns)×\(Self.minimumLines)"
            frame += Array(
                TextLayout.lines(text, width: max(1, width - 1), maxLines: 1, mode: .truncateTail)
                    .first.map(String.init)?.utf8 ?? "".utf8)
            return screen.write(frame)
        }
        if window.rows.isEmpty, table.rowCount > 0 { try render() }
        frame += screen.move(line: 0, column: 0) + styled(header, bold: true) + el
        for line in 0..<bodyLines {
            frame += screen.move(line: line + 1, column: 0)
            if line < window.lines.count { frame += Array(window.lines[line].utf8) }
            frame += screen.capability("sgr0") + el
        }
        frame += screen.move(line: bodyLines + 1, column: 0) + styled(status, bold: false) + el
        screen.write(frame)
    }

    /// `text` cut to the width less one column (the last column of the last line would scroll some
    /// terminals), padded, in reverse video.
    private func styled(_ text: String, bold: Bool) -> [UInt8] {
        let room = max(1, width - 1)
        let cut =
            TextLayout.lines(TextSanitizer.visible(text), width: room, maxLines: 1, mode: .truncateTail)
            .first.map(String.init) ?? ""
        let padded = cut + String(repeating: " ", count: max(0, room - TextWidth.columns(cut)))
        return screen.capability("rev") + (bold ? screen.capability("bold") : []) + Array(padded.utf8)
            + screen.capability("sgr0")
    }

    private var header: String {
        let title = table.document.title ?? (file as NSString).lastPathComponent
        let pad = max(0, (width - 1 - TextWidth.columns(title)) / 2)
        return String(repeating: " ", count: pad) + title
    }

    private var status: String {
        if let (kind, text) = prompt {
            switch kind {
            case .row: return ":" + text
            case .search(let forward): return (forward ? "/" : "?") + text
            }
        }
        if let message { return message }
        if table.faults.count > faultsShown, let line = table.faults.last { return "⚠ " + line }
        var parts: [String] = []
        if let search, case .searching(let rows) = search.state {
            parts.append("searching… \(rows) rows (Esc stops)")
        }
        if table.isEstimated(cursor) {  // the last rows, read back from the end before the count
            parts.append("row ≈\(cursor + 1) of ≈\(table.rowCount), last rows, counting")
        } else {
            let of = table.isCounting ? "of ≥ \(table.rowCount), counting" : "of \(table.rowCount)"
            parts.append(table.rowCount == 0 ? "no rows" : "row \(cursor + 1) \(of)")
        }
        if let section = table.section(of: cursor) {
            parts.append(section.header ?? "section \(section.index + 1)")
        }
        parts.append((file as NSString).lastPathComponent)
        if stats {
            let s = table.statistics
            parts.append("cells made \(s.made), reused \(s.reused)")
        }
        return parts.joined(separator: " · ")
    }
}
