// `cellkit browse` on a data file still being counted, in tmux: End reads the last rows back from
// the file's end and shows them at once, numbered "≈" until the count comes; ↑ and PgUp from
// there read further back; a search runs in the background while keys move the cursor, and Esc
// stops it. The count is slowed (CELLKIT_TEST_SLOW_INDEX, debug builds) so that it is seen going on.

import CellKitTestSupport
import Foundation
import Testing

@Suite(
    "cellkit browse before its data file is counted",
    .enabled(if: Tmux.available, "tmux is not installed (apt-get install tmux); CI installs it"))
struct BrowseEndTests {
    static let rows = 200_000

    /// A table over `rows` JSON Lines rows ("Item N", "code-Nx"), browsed with the count slowed to
    /// about 3 s.
    static func browse(_ rows: Int = rows) throws -> Tmux {
        let folder = try Fixtures.folder()
        var text = ""
        for i in 0..<rows { text += "{\"text\": \"Item \(i)\", \"detail\": \"code-\(i)x\"}\n" }
        try text.write(toFile: folder + "/rows.jsonl", atomically: false, encoding: .utf8)
        try "title: Counted late\nsections:\n  - {header: Items, cell: Subtitle, rowsFrom: rows.jsonl}\n"
            .write(toFile: folder + "/t.yaml", atomically: true, encoding: .utf8)
        return try Tmux("CELLKIT_TEST_SLOW_INDEX=15000 " + BrowseTests.line("'\(folder)/t.yaml'"))
    }

    /// The item numbers on screen, and the selected row's (its background: a screen read with
    /// `marking`).
    static func items(_ lines: [String]) -> (all: [Int], selected: Int?) {
        func item(_ line: String) -> Int? {
            guard let range = line.range(of: "Item ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        return (lines.compactMap(item), lines.first { $0.hasPrefix(Tmux.background) && item($0) != nil }.flatMap(item))
    }

    @Test("End while counting shows the last rows at once (≈), ↑ and PgUp read further back, the count numbers them")
    func endBeforeCount() throws {
        let tmux = try Self.browse()
        try tmux.wait("the first screen, counting", marking: true) { BrowseTests.status($0).contains("row 1 of ≥") }
        try tmux.keys("G")
        var lines = try tmux.wait("the last rows, read back", marking: true) {
            BrowseTests.status($0).contains("last rows, counting") && Self.items($0).selected == Self.rows - 1
        }
        #expect(BrowseTests.status(lines).contains("row ≈"), "\(lines.joined(separator: "\n"))")
        try tmux.keys("k")
        try tmux.wait("k, a row up", marking: true) { Self.items($0).selected == Self.rows - 2 }
        // More pages up than the rows read back at first (two screens): read further back.
        for _ in 0..<12 { try tmux.keys("PageUp") }
        lines = try tmux.wait("twelve pages up", marking: true) { Self.items($0).selected ?? Int.max < Self.rows - 80 }
        let (shown, selected) = Self.items(lines)
        #expect(BrowseTests.status(lines).contains("counting"), "pages up before the count: \(lines)")
        #expect(shown == Array(shown.first!..<(shown.first! + shown.count)), "rows in order: \(shown)")
        let row = try #require(selected)
        lines = try tmux.wait("the count numbering the rows", marking: true) {
            BrowseTests.status($0).contains("row \(row + 1) of \(Self.rows) ")
        }
        #expect(Self.items(lines).selected == row)
        try tmux.keys("G")
        lines = try tmux.wait("End once counted", marking: true) {
            BrowseTests.status($0).contains("row \(Self.rows) of \(Self.rows) ")
        }
        #expect(Self.items(lines).selected == Self.rows - 1)
        try tmux.keys("q")
        try tmux.wait("the exit", marking: true) { $0.contains("EXIT=0") && $0.contains("DONE") }
    }

    @Test("End in a CSV file being counted waits for the count: a quoted field may hold a line end")
    func csvWaits() throws {
        let folder = try Fixtures.folder()
        var text = "text,detail\n"
        for i in 0..<Self.rows { text += "Item \(i),\"code-\(i)x\nsecond line\"\n" }
        try text.write(toFile: folder + "/rows.csv", atomically: false, encoding: .utf8)
        try "title: CSV\nsections:\n  - {header: Items, cell: Subtitle, rowsFrom: rows.csv}\n"
            .write(toFile: folder + "/t.yaml", atomically: true, encoding: .utf8)
        let tmux = try Tmux("CELLKIT_TEST_SLOW_INDEX=15000 " + BrowseTests.line("'\(folder)/t.yaml'"))
        try tmux.wait("the first screen, counting", marking: true) { BrowseTests.status($0).contains("row 1 of ≥") }
        try tmux.keys("G")
        // Not read back ("≈"): the view says it waits for the count, then shows the exact last row.
        try tmux.wait("End waiting for the count", marking: true) {
            BrowseTests.status($0).contains("counting the rows…")
        }
        let lines = try tmux.wait("the end, counted", marking: true) {
            BrowseTests.status($0).contains("row \(Self.rows) of \(Self.rows) ")
        }
        #expect(Self.items(lines).selected == Self.rows - 1)
        try tmux.keys("q")
        try tmux.wait("the exit", marking: true) { $0.contains("EXIT=0") && $0.contains("DONE") }
    }

    @Test("a search runs in the background: j moves the cursor meanwhile, Esc stops it, a match moves the cursor")
    func backgroundSearch() throws {
        let tmux = try Self.browse()
        try tmux.wait("the first screen", marking: true) { BrowseTests.status($0).contains("row 1 of") }
        try tmux.type("/no such text")
        try tmux.keys("Enter")
        try tmux.wait("the search saying how far it is", marking: true) {
            BrowseTests.status($0).contains("searching… ")
        }
        try tmux.keys("j")
        try tmux.keys("j")
        var lines = try tmux.wait("j twice while it searches", marking: true) {
            BrowseTests.status($0).contains("searching… ") && BrowseTests.status($0).contains("row 3 of")
        }
        #expect(Self.items(lines).selected == 2)
        try tmux.keys("Escape")
        lines = try tmux.wait("the search stopped", marking: true) { BrowseTests.status($0).contains("search stopped") }
        #expect(!BrowseTests.status(lines).contains("searching"))
        try tmux.type("/code-60000x")
        try tmux.keys("Enter")
        lines = try tmux.wait("the match", marking: true) { BrowseTests.status($0).contains("row 60001 of") }
        #expect(Self.items(lines).selected == 60000)
        try tmux.type("/code-7x")
        try tmux.keys("Enter")
        try tmux.wait("a match, wrapping around", marking: true) { BrowseTests.status($0).contains("row 8 of") }
        try tmux.keys("q")
        try tmux.wait("the exit", marking: true) { $0.contains("EXIT=0") && $0.contains("DONE") }
    }
}
