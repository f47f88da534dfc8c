// `cellkit browse`'s search on its own thread finds what a plain loop over the rows' data finds:
// forward wrapping around, back (the last match at or before the start, else the last one),
// across inline rows, a data file and rows with no data; and a cancel stops it.

import CellKitDiscovery
import CellKitModel
import CellKitTestSupport
import Foundation
import Synchronization
import Testing

@testable import CellKitBrowse

@Suite("Browse searches in the background")
struct BrowseSearchTests {
    /// Inline rows, a data file of 3,000 rows, rows with no data, inline rows: a match every few rows.
    func table(name: String = #function) throws -> BrowseTable {
        let rows = (0..<3_000).map { "{\"text\": \"Item \($0)\", \"detail\": \"\($0 % 7 == 3 ? "match" : "no")\"}" }
        let folder = try Render.write(
            [
                "t.yaml": """
                sections:
                  - cell: Default
                    rows:
                      - {text: match first}
                      - {text: plain}
                  - {cell: Subtitle, rowsFrom: rows.jsonl}
                  - {cell: Default, rows: 4}
                  - cell: Default
                    rows:
                      - {text: plain}
                      - {text: MATCH last}
                      - {text: plain}

                """,
                "rows.jsonl": rows.joined(separator: "\n") + "\n",
            ], name: name)
        let table = try BrowseTable(
            path: folder + "/t.yaml", root: nil, discovery: DiscoveryOptions(searchPath: .custom([])), isolated: false)
        try table.finishCounting()
        return table
    }

    /// The search's outcome once it ends (within 20 s).
    func outcome(_ search: BrowseSearch) throws -> BrowseSearch.State {
        let deadline = Date().addingTimeInterval(20)
        while case .searching = search.state, Date() < deadline { usleep(1_000) }
        return search.state
    }

    @Test("forward and back from every kind of row: the rows a plain loop over the data finds")
    func sameAsLoop() throws {
        let table = try table()
        let count = table.rowCount
        #expect(count == 2 + 3_000 + 4 + 3)
        let matches = try (0..<count).filter { row in
            try table.data(of: row).map { BrowseTable.contains($0, "match") } ?? false
        }
        for start in [0, 1, 2, 500, 3_001, 3_002, 3_004, 3_007, count - 2, count - 1] {
            let forward = matches.first { $0 >= start } ?? matches.first
            let back = matches.last { $0 <= start } ?? matches.last
            let f = try #require(table.startSearch("MaTcH", from: start, forward: true))
            #expect(try outcome(f) == .found(forward!), "forward from \(start)")
            let b = try #require(table.startSearch("match", from: start, forward: false))
            #expect(try outcome(b) == .found(back!), "back from \(start)")
        }
        let none = try #require(table.startSearch("nowhere", from: 10, forward: true))
        #expect(try outcome(none) == .notFound)
        #expect(table.startSearch("", from: 0, forward: true) == nil)
    }

    @Test("a search sees text as it reads: case and the format characters not seen (SHY, ZWSP, WJ, BOM, RLM) aside")
    func unseenCharacters() {
        let data = RowValue.object([
            "text": .string("\u{FEFF}Donau\u{AD}dampf\u{AD}schiff\u{AD}fahrt"),
            "url": .string("https://example.org/\u{200B}very/\u{200B}long"), "n": .string("10\u{2060}000"),
            "he": .string("\u{05E9}\u{200F}\u{05DC}"),
        ])
        for needle in ["dampfschiff", "donaudampf", "org/very/long", "10000", "\u{05E9}\u{05DC}"] {
            #expect(BrowseTable.contains(data, BrowseTable.searchable(needle)), "\(needle)")
        }
        #expect(!BrowseTable.contains(data, "dampf schiff"))
        #expect(BrowseTable.searchable("ÄÖ\u{AD}Ü") == "äöü")
    }

    @Test("a cancel stops the search: stopped, not found, before it has read the table")
    func cancel() throws {
        let table = try table()
        // The search's thread waits at its gate until the cancel is made: under load, a search of
        // 3,000 rows sometimes ended (not found) before the test's cancel came.
        let gate = Gate()
        let search = try #require(
            table.startSearch("nowhere", from: 0, forward: true) {
                while !gate.isOpen.load(ordering: .acquiring) { usleep(1_000) }
            })
        search.cancel()
        gate.isOpen.store(true, ordering: .releasing)
        #expect(try outcome(search) == .stopped)
        let deadline = Date().addingTimeInterval(20)
        while search.rowsLooked.load(ordering: .acquiring) < 0, Date() < deadline { usleep(1_000) }
        let looked = search.rowsLooked.load(ordering: .acquiring)
        #expect(
            (0..<3_000).contains(looked),
            "the thread read \(looked) rows though cancelled before it began (the whole table is 3,005)")
    }

    /// Holds a search's thread until the test opens it.
    final class Gate: Sendable {
        let isOpen = Atomic(false)
    }
}
