// The browse state machine without a terminal: key sequences in, positions, prompts, messages and
// effects out; windows drawn by a fake table; the view drawn on an in-memory screen.

import CellKitBrowse
import CellKitTerminal
import Foundation
import Testing

/// An in-memory screen: the lines written, and how many writes.
final class MemoryScreen: BrowseScreen {
    var size: (columns: Int, lines: Int)
    private(set) var lines: [ScreenLine]
    private(set) var writes = 0
    private(set) var clears = 0

    init(columns: Int, lines: Int) {
        size = (columns, lines)
        self.lines = Array(repeating: ScreenLine(""), count: lines)
    }

    func write(_ line: ScreenLine, at number: Int) {
        lines[number] = line
        writes += 1
    }

    func clear() {
        lines = Array(repeating: ScreenLine(""), count: size.lines)
        clears += 1
    }

    func flush() {}

    /// The lines' text, colour sequences taken out, trailing spaces removed.
    var text: [String] {
        lines.map { line in
            let plain = line.text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
            return String(plain.reversed().drop { $0 == " " }.reversed())
        }
    }
}

/// A table as the state machine sees it: `rows` rows of `rowLines` lines and a border line each,
/// the table's header (2 lines) above row 0; rows in `broken` cannot be read.
struct FakeTable {
    var rows: Int
    var rowLines = 2
    var broken: Set<Int> = []
    /// Plugin faults so far, and the last one's line.
    var faults = 0, lastFault: String?

    var status: BrowseTableStatus {
        var status = BrowseTableStatus(rowCount: rows, sections: [(rows, "Items")])
        (status.faults, status.lastFault) = (faults, lastFault)
        return status
    }

    func window(_ fetch: BrowseFetch) -> BrowseWindow {
        var window = BrowseWindow()
        guard rows > 0 else { return window }
        if fetch.first == 0 { window.lines += ["HEADER", ""] }
        for row in fetch.first..<min(rows, fetch.first + fetch.rows) {
            let start = window.lines.count
            if broken.contains(row) {
                window.lines.append("⚠ row \(row + 1) cannot be read")
                window.errors[row] = "rows.jsonl:\(row + 1):1: not JSON"
            } else {
                let mark = row == fetch.selected ? ">" : " "
                window.lines += ["\(mark)Item \(row)"] + Array(repeating: "  line", count: rowLines - 1) + ["-----"]
            }
            window.rows.append(.init(row: row, firstLine: start, lineCount: window.lines.count - start))
        }
        return window
    }
}

/// The state machine driven as the loop drives it, with a fake table answering its effects.
struct Driver {
    var state: BrowseState
    var table: FakeTable
    var searches: [(text: String, from: Int, forward: Bool)] = []
    var quit = false
    var suspended = false
    var fetches = 0

    init(rows: Int, columns: Int = 40, lines: Int = 24, rowLines: Int = 2, broken: Set<Int> = []) {
        table = FakeTable(rows: rows, rowLines: rowLines, broken: broken)
        state = BrowseState(table: table.status, columns: columns, lines: lines, title: "Test", fileName: "t.yaml")
        run(state.start())
    }

    mutating func send(_ event: BrowseEvent) { run(state.handle(event)) }

    mutating func keys(_ keys: Key...) { for key in keys { send(.key(key)) } }

    /// Types `text`: each character a key.
    mutating func type(_ text: String) { for c in text { send(.key(.character(c))) } }

    mutating func run(_ effects: [BrowseEffect]) {
        var queue = effects[...]
        while let effect = queue.popFirst() {
            switch effect {
            case .fetch(let fetch):
                fetches += 1
                queue += state.handle(.window(fetch, table.window(fetch), table.status, renumbered: []))
            case .prepare(_, let then): queue += state.handle(.ready(then, table.status, renumbered: []))
            case .startSearch(let text, let from, let forward): searches.append((text, from, forward))
            case .cancelSearch: break
            case .select(let row): queue += state.handle(.selected(row: row, json: "{\"row\":\(row)}"))
            case .suspend: suspended = true
            case .quit: quit = true
            }
        }
    }

    /// The cursor's row's first line on the screen (the title line is line 0), if it is on screen.
    var cursorLine: Int? {
        guard let span = state.window.rows.first(where: { $0.row == state.cursor }) else { return nil }
        let line = span.firstLine - state.lineOffset
        return line < state.bodyLines ? line + (state.showsTitle ? 1 : 0) : nil
    }
}

@Suite("browse's state machine: keys, positions, resizes, searches and errors without a terminal")
struct BrowseStateTests {
    @Test("j, k and counts move the cursor; G the last row, g the first; 50G and :50 row 50 (from 1) at the top")
    func moving() {
        var d = Driver(rows: 300)
        #expect(d.state.cursor == 0 && d.state.top == 0)
        #expect(d.state.status.hasPrefix("row 1 of 300"))
        d.keys(.character("j"))
        #expect(d.state.cursor == 1)
        d.type("10j")
        #expect(d.state.cursor == 11)
        d.type("3k")
        #expect(d.state.cursor == 8)
        d.keys(.down, .up, .up)
        #expect(d.state.cursor == 7)
        d.keys(.character("G"))
        #expect(d.state.cursor == 299)
        #expect(d.state.status.hasPrefix("row 300 of 300"))
        #expect(d.state.fullyShown.contains(299))
        #expect(d.state.fullyShown.count > 3, "the last row at the bottom: the screen full")
        d.keys(.character("g"))
        #expect(d.state.cursor == 0 && d.state.top == 0)
        d.type("50G")
        #expect(d.state.cursor == 49 && d.state.top == 49)
        #expect(d.state.status.hasPrefix("row 50 of 300"))
        d.keys(.home)
        d.type(":120")
        #expect(d.state.prompt == .row("120"))
        #expect(d.state.status == ":120")
        d.keys(.enter)
        #expect(d.state.cursor == 119 && d.state.top == 119 && d.state.prompt == nil)
        d.type("9999G")
        #expect(d.state.cursor == 299, "a count past the end: the last row")
        d.type("7g")
        #expect(d.state.cursor == 6)
        d.type(":x")
        d.keys(.enter)
        #expect(d.state.message == "not a row number: x" && d.state.cursor == 6)
    }

    @Test(
        "a table opened again (--watch) keeps the view's place, or its last row if it shrank; the note goes with a key")
    func reloaded() {
        var d = Driver(rows: 300)
        d.type("120G")
        let (top, fetches) = (d.state.top, d.fetches)
        d.send(.reloaded(d.table.status, note: "reloaded at 12:00:00"))
        #expect(d.fetches == fetches + 1, "the window drawn again")
        #expect(d.state.cursor == 119 && d.state.top == top)
        #expect(d.state.status.hasPrefix("row 120 of 300") && d.state.status.hasSuffix("reloaded at 12:00:00"))
        d.keys(.character("j"))
        #expect(!d.state.status.contains("reloaded"))
        d.table.rows = 50
        d.send(.reloaded(d.table.status, note: "reloaded at 12:00:05"))
        #expect(d.state.cursor == 49 && d.state.status.hasPrefix("row 50 of 50"), "\(d.state.status)")
        #expect(d.state.fullyShown.contains(49))
    }

    @Test("a plugin's fault: its line until a key, then a count of faults that stays in the status line")
    func faultStays() {
        var d = Driver(rows: 30)
        (d.table.faults, d.table.lastFault) = (1, "libx.so: customizeCellForX crashed (SIGSEGV) at row 2")
        d.send(.table(d.table.status, renumbered: []))
        #expect(d.state.status == "⚠ libx.so: customizeCellForX crashed (SIGSEGV) at row 2")
        d.keys(.character("j"))
        #expect(
            d.state.status.hasPrefix("row 2 of 30") && d.state.status.hasSuffix("⚠ 1 plugin fault"), "\(d.state.status)"
        )
        d.table.faults = 2
        d.send(.table(d.table.status, renumbered: []))
        d.keys(.character("k"))
        #expect(d.state.status.hasSuffix("⚠ 2 plugin faults"), "\(d.state.status)")
    }

    @Test("a count shows in the status line while typed; Esc drops it")
    func countShown() {
        var d = Driver(rows: 300)
        d.type("42")
        #expect(d.state.count == "42")
        #expect(d.state.status.hasPrefix("42 · row 1 of 300"))
        d.keys(.escape)
        #expect(d.state.count.isEmpty && !d.quit)
        d.keys(.character("G"))
        #expect(d.state.cursor == 299, "the count was dropped: G alone")
    }

    @Test("PgDn, space and f a page (the rows fully shown); b and PgUp back; Ctrl-D and Ctrl-U half a page")
    func pages() {
        var d = Driver(rows: 300)
        let page = d.state.fullyShown.count
        #expect(page >= 5)
        d.keys(.pageDown)
        #expect(d.state.top == page && d.state.cursor == page)
        d.keys(.character(" "), .character("f"))
        #expect(d.state.top == 3 * page)
        d.keys(.character("b"), .pageUp)
        #expect(d.state.top == page && d.state.cursor == page)
        let half = d.state.fullyShown.count / 2
        d.keys(.character("\u{04}"))
        #expect(d.state.top == page + half && d.state.cursor == page + half)
        d.keys(.character("\u{15}"), .character("\u{15}"))
        #expect(d.state.top == page - half && d.state.cursor == page - half)
        d.type("3\u{04}")
        #expect(d.state.top == page - half + 3, "a count: that many rows")
    }

    @Test("the cursor moved below the screen scrolls it just enough: its row last, wholly shown")
    func scrollsToCursor() {
        var d = Driver(rows: 300)
        let shown = d.state.fullyShown
        for _ in 0...shown.count { d.keys(.character("j")) }
        #expect(d.state.cursor == shown.count + 1)
        #expect(d.state.top == 2)
        #expect(d.state.fullyShown.last == d.state.cursor)
    }

    @Test("q quits; Esc never does: it cancels a prompt, a count or a search, and else says how to quit")
    func escapeAndQuit() {
        var d = Driver(rows: 10)
        d.keys(.escape)
        #expect(!d.quit)
        #expect(d.state.message == "q quits; ? or h shows the keys")
        d.type("/abc")
        #expect(d.state.prompt == .search("abc"))
        d.keys(.escape)
        #expect(d.state.prompt == nil && !d.quit)
        d.type("/abc")
        d.keys(.enter)
        #expect(d.state.searching == 0)
        d.keys(.escape)
        #expect(d.state.searching == nil && d.state.message == "search stopped" && !d.quit)
        d.keys(.character("q"))
        #expect(d.quit)
        var c = Driver(rows: 10)
        c.keys(.character("\u{03}"))
        #expect(c.quit, "Ctrl-C")
    }

    @Test("? and h show the help screen; any key returns to the rows, doing nothing else")
    func help() {
        var d = Driver(rows: 30)
        let screen = MemoryScreen(columns: 70, lines: 24)
        var view = BrowseView()
        d.state = BrowseState(table: d.table.status, columns: 70, lines: 24, title: "Test", fileName: "t.yaml")
        d.run(d.state.start())
        for key in [Key.character("?"), .character("h")] {
            d.keys(key)
            #expect(d.state.showsHelp)
            view.draw(d.state, on: screen)
            #expect(screen.text.contains { $0.contains("half a page") }, "\(screen.text)")
            d.keys(.character("q"))
            #expect(!d.state.showsHelp && !d.quit, "the key only returns")
            view.draw(d.state, on: screen)
            #expect(screen.text.contains { $0.contains("Item 0") })
        }
    }

    @Test("a search: / and the text start it from the row after the cursor; the match a third down; n and N")
    func search() {
        var d = Driver(rows: 300, lines: 31)
        d.type("/code-150")
        #expect(d.state.status == "/code-150")
        d.keys(.enter)
        #expect(d.searches.count == 1)
        #expect(d.searches.last! == ("code-150", 1, true))
        #expect(d.state.status.hasPrefix("searching… 0 rows (Esc stops)"))
        d.send(.searchProgress(rows: 1024))
        #expect(d.state.status.hasPrefix("searching… 1024 rows"))
        d.send(.searchEnded(.found(150)))
        #expect(d.state.cursor == 150 && d.state.searching == nil)
        // 29 lines of rows, 3 lines a row: the match's row starts about a third down, not at the bottom.
        let line = try! #require(d.cursorLine)
        #expect((7...12).contains(line), "the match on line \(line)")
        d.keys(.character("n"))
        #expect(d.searches.last! == ("code-150", 151, true))
        d.send(.searchEnded(.notFound))
        #expect(d.state.message == "not found: code-150")
        d.keys(.character("N"))
        #expect(d.searches.last! == ("code-150", 149, false))
        d.send(.searchEnded(.found(3)))
        #expect(d.state.cursor == 3 && d.state.top == 0, "near the start: from the first row")
        var fresh = Driver(rows: 10)
        fresh.keys(.character("n"))
        #expect(fresh.state.message == "no search yet: / searches" && fresh.searches.isEmpty)
    }

    @Test("a resize keeps the cursor's row on screen, at the new width")
    func resize() {
        var d = Driver(rows: 300)
        d.type("20j")
        d.send(.resized(columns: 60, lines: 10))
        #expect(d.state.size == (60, 10) || (d.state.size.columns == 60 && d.state.size.lines == 10))
        #expect(d.state.fullyShown.contains(20))
        d.send(.resized(columns: 10, lines: 10))
        #expect(d.state.isTooSmall)
        let screen = MemoryScreen(columns: 10, lines: 10)
        var view = BrowseView()
        view.draw(d.state, on: screen)
        #expect(screen.text[0].hasPrefix("too smal"))
        d.send(.resized(columns: 60, lines: 20))
        #expect(!d.state.isTooSmall && d.state.fullyShown.contains(20))
    }

    @Test("a window 25×4 still shows a row: no title line, the row's lines from the top")
    func tinyWindow() {
        var d = Driver(rows: 50, columns: 25, lines: 4)
        #expect(!d.state.showsTitle && d.state.showsStatus && d.state.bodyLines == 3)
        let screen = MemoryScreen(columns: 25, lines: 4)
        var view = BrowseView()
        view.draw(d.state, on: screen)
        #expect(screen.text[0..<3].contains(" Item 0") || screen.text[0..<3].contains(">Item 0"), "\(screen.text)")
        #expect(screen.text[3].hasPrefix("row 1 of 50"))
        d.keys(.character("j"))
        view.draw(d.state, on: screen)
        #expect(screen.text.contains { $0.contains("Item 1") }, "\(screen.text)")
        var low = Driver(rows: 50, columns: 25, lines: 2)
        view = BrowseView()
        let two = MemoryScreen(columns: 25, lines: 2)
        view.draw(low.state, on: two)
        #expect(two.text[0].contains("Item 0") && two.text[1].hasPrefix("row 1 of 50"), "\(two.text)")
        low.keys(.character("G"))
        view.draw(low.state, on: two)
        #expect(two.text[0].contains("Item 49"), "\(two.text)")
    }

    @Test("a row that cannot be read is drawn as an error line, the status line names file:line, the view goes on")
    func malformedRecord() {
        var d = Driver(rows: 300, broken: [30])
        d.type("30G")
        #expect(d.state.cursor == 29)
        #expect(d.state.status.contains("rows.jsonl:31:1: not JSON"), "\(d.state.status)")
        d.keys(.character("j"))
        #expect(d.state.cursor == 30)
        #expect(d.state.status.hasPrefix("row 31 of 300 · ⚠ rows.jsonl:31:1: not JSON"), "\(d.state.status)")
        d.send(.failed("row 31: rows.jsonl:31:1: not JSON"))
        #expect(d.state.message == "row 31: rows.jsonl:31:1: not JSON" && !d.quit)
        d.keys(.character("j"))
        #expect(d.state.cursor == 31 && !d.quit)
        d.type("100G")
        #expect(!d.state.status.contains("⚠"), "off screen: no error named")
    }

    @Test("Enter selects the row: its data in the status line, numbered from 1")
    func select() {
        var d = Driver(rows: 10)
        d.keys(.character("j"), .enter)
        #expect(d.state.message == "selected row 2: {\"row\":1}")
    }

    @Test("while counting, G reads the end (or waits); a row past those counted waits for the count")
    func counting() {
        var d = Driver(rows: 100)
        var status = d.table.status
        status.isCounting = true
        d.send(.table(status, renumbered: []))
        #expect(d.state.status.hasPrefix("row 1 of ≥ 100, counting"))
        let effects = d.state.handle(.key(.character("G")))
        guard case .prepare(.end, then: .last) = effects.first else {
            Issue.record("G while counting: \(effects)")
            return
        }
        #expect(d.state.handle(.waiting).isEmpty)
        #expect(d.state.status == "counting the rows…")
        d.table.rows = 500
        d.run(d.state.handle(.ready(.last, d.table.status, renumbered: [])))
        #expect(d.state.cursor == 499 && d.state.message == nil)
        d.send(.table(status, renumbered: []))
        let far =
            d.state.handle(.key(.character(":"))) + d.state.handle(.key(.character("9")))
            + d.state.handle(.key(.character("9"))) + d.state.handle(.key(.character("9")))
            + d.state.handle(.key(.enter))
        #expect(far == [.prepare(.count, then: .goTo(998))])
    }

    @Test("rows numbered anew move the cursor with them")
    func renumbered() {
        var d = Driver(rows: 100)
        d.type("60G")
        d.table.rows = 140
        d.send(.table(d.table.status, renumbered: [Renumbering(from: 50, by: 40)]))
        #expect(d.state.cursor == 99 && d.state.top == 99)
    }

    @Test("the view writes only the lines that changed: a j rewrites the rows' lines it moved and the status")
    func drawsOnlyChanges() {
        var d = Driver(rows: 300)
        let screen = MemoryScreen(columns: 40, lines: 24)
        var view = BrowseView()
        view.draw(d.state, on: screen)
        #expect(view.lastWritten == 24 && screen.clears == 1)
        view.draw(d.state, on: screen)
        #expect(view.lastWritten == 0, "nothing changed")
        d.keys(.character("j"))
        view.draw(d.state, on: screen)
        #expect(view.lastWritten == 3, "two rows' first lines and the status line")
        #expect(screen.text.last!.hasPrefix("row 2 of 300"))
        #expect(screen.text[0] == "                 Test")
        #expect(screen.lines[0].style == .title && screen.lines[23].style == .status)
        #expect(screen.text.contains(">Item 1"))
        view.invalidate()
        view.draw(d.state, on: screen)
        #expect(view.lastWritten == 24 && screen.clears == 2)
    }

    @Test("the wheel scrolls three rows, the cursor kept on screen")
    func wheel() {
        var d = Driver(rows: 300)
        d.keys(.wheelDown)
        #expect(d.state.top == 3 && d.state.cursor == 3)
        d.keys(.wheelUp)
        #expect(d.state.top == 0 && d.state.cursor == 3)
    }
}

@Suite("browse's status line names a row both ways")
struct BrowseStatusNamingTests {
    @Test("with sections, the row across the table and as section.row (what --select and messages use)")
    func bothWays() {
        let table = BrowseTableStatus(rowCount: 10, sections: [(4, "A"), (6, "B")])
        var state = BrowseState(table: table, columns: 60, lines: 24, title: "Test", fileName: "t.yaml")
        _ = state.start()
        #expect(state.status.hasPrefix("row 1 of 10 (row 1.1) · A"), "\(state.status)")
        _ = state.handle(.key(.character("6")))
        _ = state.handle(.key(.character("G")))
        #expect(state.status.hasPrefix("row 6 of 10 (row 2.2) · B"), "\(state.status)")
        // One section: the row once, as before.
        var single = BrowseState(
            table: BrowseTableStatus(rowCount: 10, sections: [(10, "A")]), columns: 60, lines: 24, title: "T",
            fileName: "t.yaml")
        _ = single.start()
        #expect(single.status.hasPrefix("row 1 of 10 · A"), "\(single.status)")
    }
}
