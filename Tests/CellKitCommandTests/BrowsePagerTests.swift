// `cellkit browse`'s keys as `less` has them, in tmux (the terminal itself: keys sent, the screen
// read): help, q and Esc, counts, half pages, n and N, where a match is put, a malformed record, a
// low window; and the row numbers `render --rows` and `--select` share with the status line. Each
// wait polls the screen until it shows what is waited for; its deadline only fails a hung test.

import CellKitTestSupport
import Foundation
import Testing

@Suite(
    "cellkit browse's keys, as less has them, in tmux",
    .enabled(if: Tmux.available, "tmux is not installed (apt-get install tmux); CI installs it"))
struct BrowsePagerTests {
    /// The line of the screen that shows item `n` of the numbered table, if any.
    static func line(of n: Int, in lines: [String]) -> Int? { lines.firstIndex { BrowseTests.item($0) == n } }

    @Test("? and h show the help screen, any key returns; Esc does not quit (it says how), q does")
    func helpAndQuit() throws {
        let tmux = try Tmux(BrowseTests.line("'\(try BrowseTests.numbered(300))'"))
        try tmux.wait("the first screen") { BrowseTests.status($0).contains("row 1 of 300") }
        try tmux.keys("?")
        try tmux.wait("the help screen") { $0.joined().contains("half a page") && $0.joined().contains("any key") }
        try tmux.keys("j")
        // The whole screen drawn again, not only its status line (a capture can fall between them).
        try tmux.wait("the rows again") {
            BrowseTests.status($0).contains("row 1 of 300") && !$0.joined().contains("half a page")
        }
        try tmux.keys("h")
        try tmux.wait("the help screen with h") { $0.joined().contains("half a page") }
        try tmux.keys("Escape")
        try tmux.wait("the rows again after Esc") { BrowseTests.status($0).contains("row 1 of 300") }
        try tmux.keys("Escape")
        try tmux.wait("Esc saying how to quit") { BrowseTests.status($0).contains("q quits") }
        #expect(try tmux.alternateScreen(), "Esc did not quit")
        try tmux.type("/code")
        try tmux.wait("the prompt") { BrowseTests.status($0).hasPrefix("/code") }
        try tmux.keys("Escape")
        try tmux.wait("the prompt cancelled") { BrowseTests.status($0).contains("row 1 of 300") }
        try tmux.keys("q")
        try tmux.wait("the exit") { $0.contains("EXIT=0") && $0.contains("DONE") }
    }

    @Test("counts: 50G row 50 at the top, 10j and 10k ten rows, G alone the last row, g the first; Esc drops a count")
    func counts() throws {
        let tmux = try Tmux(BrowseTests.line("'\(try BrowseTests.numbered(300))'"))
        try tmux.wait("the first screen") { BrowseTests.status($0).contains("row 1 of 300") }
        try tmux.type("50G")
        var lines = try tmux.wait("50G") { BrowseTests.status($0).contains("row 50 of 300") }
        #expect(lines.compactMap(BrowseTests.item).first == 49, "\(lines.joined(separator: "\n"))")
        try tmux.type("10j")
        try tmux.wait("10j") { BrowseTests.status($0).contains("row 60 of 300") }
        try tmux.type("10k")
        try tmux.wait("10k") { BrowseTests.status($0).contains("row 50 of 300") }
        try tmux.type("12")
        try tmux.wait("the count shown") { BrowseTests.status($0).hasPrefix("12 · row 50") }
        try tmux.keys("Escape")
        try tmux.wait("the count dropped") { BrowseTests.status($0).hasPrefix("row 50") }
        try tmux.keys("G")
        lines = try tmux.wait("G") { BrowseTests.status($0).contains("row 300 of 300") }
        #expect(lines.compactMap(BrowseTests.item).last == 299)
        try tmux.keys("g")
        lines = try tmux.wait("g") { BrowseTests.status($0).contains("row 1 of 300") }
        #expect(lines.compactMap(BrowseTests.item).first == 0)
        try tmux.keys("q")
        try tmux.wait("the exit") { $0.contains("EXIT=0") && $0.contains("DONE") }
    }

    @Test("Ctrl-D and Ctrl-U move half a page, the screen and the cursor alike")
    func halfPages() throws {
        let tmux = try Tmux(BrowseTests.line("'\(try BrowseTests.numbered(300))'"))
        let lines = try tmux.wait("the first screen") { BrowseTests.status($0).contains("row 1 of 300") }
        let half = lines.compactMap(BrowseTests.code).count / 2
        #expect(half >= 3)
        try tmux.keys("C-d")
        var after = try tmux.wait("Ctrl-D") { BrowseTests.status($0).contains("row \(half + 1) of 300") }
        #expect(after.compactMap(BrowseTests.item).first == half, "\(after.joined(separator: "\n"))")
        try tmux.keys("C-d")
        try tmux.wait("Ctrl-D again") { BrowseTests.status($0).contains("row \(2 * half + 1) of 300") }
        try tmux.keys("C-u")
        after = try tmux.wait("Ctrl-U") { BrowseTests.status($0).contains("row \(half + 1) of 300") }
        #expect(after.compactMap(BrowseTests.item).first == half)
        try tmux.keys("q")
        try tmux.wait("the exit") { $0.contains("EXIT=0") && $0.contains("DONE") }
    }

    @Test("a match is put about a third down the screen, not at its bottom; n the next match, N the previous")
    func matches() throws {
        let tmux = try Tmux(BrowseTests.line("'\(try BrowseTests.numbered(300))'"))
        try tmux.wait("the first screen") { BrowseTests.status($0).contains("row 1 of 300") }
        try tmux.type("/code-150x")
        try tmux.keys("Enter")
        let lines = try tmux.wait("the match far down") { BrowseTests.status($0).contains("row 151 of 300") }
        // 24 lines: the title, 22 of rows, the status line. A third down: line 8 or so, not 20.
        let line = try #require(Self.line(of: 150, in: lines), "\(lines.joined(separator: "\n"))")
        #expect((4...11).contains(line), "the match on line \(line):\n\(lines.joined(separator: "\n"))")
        try tmux.type("/code-2")
        try tmux.keys("Enter")
        try tmux.wait("code-2 after row 151") { BrowseTests.status($0).contains("row 201 of 300") }
        try tmux.keys("n")
        try tmux.wait("n") { BrowseTests.status($0).contains("row 202 of 300") }
        try tmux.keys("N")
        try tmux.wait("N") { BrowseTests.status($0).contains("row 201 of 300") }
        try tmux.keys("N")  // none before row 201: round to the last match, and the status line says so
        try tmux.wait("N again, wrapping around") {
            BrowseTests.status($0).contains("row 300 of 300 · search wrapped to the bottom")
        }
        try tmux.keys("n")  // on from the last row: round to the first match
        try tmux.wait("n, wrapping around") {
            BrowseTests.status($0).contains("row 201 of 300 · search wrapped to the top")
        }
        try tmux.keys("j")  // the note goes with the next key
        try tmux.wait("j") { BrowseTests.status($0).contains("row 202 of 300") && !$0.joined().contains("wrapped") }
        try tmux.keys("q")
        try tmux.wait("the exit") { $0.contains("EXIT=0") && $0.contains("DONE") }
    }

    @Test("a malformed record scrolled into view is an error row, the status line names file:line, the view goes on")
    func malformedRecord() throws {
        let dir = try Fixtures.folder()
        var rows = (0..<100).map { String(format: "{\"text\": \"Item %03d\", \"detail\": \"code-%03dx\"}", $0, $0) }
        rows[40] = "{\"text\": \"Item 040\", \"detail\": "  // line 41: cut short
        try (rows.joined(separator: "\n") + "\n").write(toFile: dir + "/rows.jsonl", atomically: true, encoding: .utf8)
        try "title: Broken\nsections:\n  - {header: Items, cell: Subtitle, rowsFrom: rows.jsonl}\n"
            .write(toFile: dir + "/table.yaml", atomically: true, encoding: .utf8)
        let tmux = try Tmux(BrowseTests.line("'\(dir)/table.yaml'"))
        try tmux.wait("the first screen") { BrowseTests.status($0).contains("row 1 of 100") }
        try tmux.type("36G")
        var lines = try tmux.wait("the error row on screen") {
            BrowseTests.status($0).contains("row 36 of 100") && $0.joined().contains("row 41 cannot be read")
        }
        #expect(BrowseTests.status(lines).contains("rows.jsonl:41:"), "\(lines.joined(separator: "\n"))")
        #expect(lines.contains { BrowseTests.item($0) == 41 }, "the rows after it drawn too")
        try tmux.type("5j")
        lines = try tmux.wait("the cursor on it") { BrowseTests.status($0).contains("row 41 of 100") }
        #expect(BrowseTests.status(lines).contains("rows.jsonl:41:"))
        try tmux.keys("Enter")
        try tmux.wait("Enter on it: a message") { BrowseTests.status($0).contains("row 41: ") }
        try tmux.keys("j")
        try tmux.wait("the view going on") { BrowseTests.status($0).contains("row 42 of 100") }
        try tmux.keys("G")
        lines = try tmux.wait("the end") { BrowseTests.status($0).contains("row 100 of 100") }
        #expect(!BrowseTests.status(lines).contains("⚠"))
        try tmux.keys("q")
        try tmux.wait("the exit, status 0") { $0.contains("EXIT=0") && $0.contains("DONE") }
    }

    @Test("a window 25×4 shows a row and the status line (no title line); j moves on")
    func tinyWindow() throws {
        let tmux = try Tmux(BrowseTests.line("'\(try BrowseTests.numbered(50))'"), columns: 25, lines: 4)
        var lines = try tmux.wait("a row") {
            BrowseTests.status($0).contains("row 1 of 50") && $0.contains { BrowseTests.item($0) == 0 }
        }
        try tmux.keys("j")
        lines = try tmux.wait("the next row") {
            BrowseTests.status($0).contains("row 2 of 50") && $0.contains { BrowseTests.item($0) == 1 }
        }
        #expect(!lines.joined().contains("too small"))
        try tmux.keys("q")
        try tmux.wait("the exit") { $0.joined().contains("EXIT=0") }
    }

    @Test("the status line, render --rows and --select number rows alike, from 1: 50G shows what --rows 50.. draws")
    func numbering() throws {
        let table = try BrowseTests.numbered(300)
        let render = try BrowseTests.rendered(table, width: 80, select: "1.50", rows: "50..52")
        #expect(render.compactMap(BrowseTests.item).first == 49, "\(render.joined(separator: "\n"))")
        let tmux = try Tmux(BrowseTests.line("'\(table)'"))
        try tmux.wait("the first screen") { BrowseTests.status($0).contains("row 1 of 300") }
        try tmux.type("50G")
        let lines = try tmux.wait("50G", marking: true) { BrowseTests.status($0).contains("row 50 of 300") }
        #expect(lines.compactMap(BrowseTests.item).first == 49)
        #expect(
            lines.first { $0.hasPrefix(Tmux.background) }.flatMap(BrowseTests.item) == 49,
            "selected: \(lines.joined(separator: "\n"))")
        try tmux.keys("q")
        try tmux.wait("the exit") { $0.contains("EXIT=0") && $0.contains("DONE") }
    }
}

@Suite("cellkit render --rows and --select, counted from 1")
struct RenderRowsTests {
    static func table(footer: String) throws -> String {
        let dir = try Fixtures.folder()
        let rows = (0..<5).map { "      - {text: Row \($0)}" }.joined(separator: "\n")
        try "sections:\n  - header: Top\n    footer: \(footer)\n    cell: Default\n    rows:\n\(rows)\n"
            .write(toFile: dir + "/t.yaml", atomically: true, encoding: .utf8)
        return dir + "/t.yaml"
    }

    @Test("a window ending mid-section draws no section footer; one reaching the section's end does")
    func footer() throws {
        let table = try Self.table(footer: "The end of Top")
        let middle = try Fixtures.output(Fixtures.cellkit, ["render", table, "--format", "text", "--rows", "1..2"])
        #expect(middle.contains("Row 0") && middle.contains("Row 1") && !middle.contains("Row 2"), "\(middle)")
        #expect(!middle.contains("The end of Top"), "\(middle)")
        let end = try Fixtures.output(Fixtures.cellkit, ["render", table, "--format", "text", "--rows", "4..5"])
        #expect(end.contains("Row 4") && end.contains("The end of Top"), "\(end)")
        let all = try Fixtures.output(Fixtures.cellkit, ["render", table, "--format", "text"])
        #expect(all.contains("The end of Top"))
    }

    @Test("--rows 1..1 is the first row, --select 1.1 the first row of the first section; 0 is refused")
    func fromOne() throws {
        let table = try Self.table(footer: "F")
        let first = try Fixtures.output(Fixtures.cellkit, ["render", table, "--format", "text", "--rows", "1..1"])
        #expect(first.contains("Row 0") && !first.contains("Row 1"), "\(first)")
        let json = try Fixtures.output(
            Fixtures.cellkit, ["render", table, "--format", "json", "--select", "1.2", "--rows", "2..2"])
        #expect(json.contains("\"selected\":true") || json.contains("\"selected\": true"), "\(json)")
        let zero = try Fixtures.execute(Fixtures.cellkit, ["render", table, "--rows", "0..3"])
        #expect(zero.status != 0 && zero.errors.contains("from 1"), "\(zero.errors)")
        let select = try Fixtures.execute(Fixtures.cellkit, ["render", table, "--select", "0.0"])
        #expect(select.status != 0 && select.errors.contains("counted from 1"), "\(select.errors)")
    }
}
