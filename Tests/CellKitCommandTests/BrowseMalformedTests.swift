// Issue 41: browse could not get past a malformed record in a file of more than about 4,000
// rows: a worker's window read the rows ahead on a helper thread, which met the record past
// the window first, so that rows near it could not be drawn ("cannot draw the rows"), NG was
// refused and the view skipped rows. Each case here walks across bad records with every key:
// 1,000 to 10,000,000 rows; bad records at the start, the end, on either side of the index's
// stride (1,024 rows), several in a row.

import CellKitTestSupport
import Foundation
import Testing

@Suite(
    "cellkit browse past malformed records, in files of any size",
    .serialized, .enabled(if: Tmux.available, "tmux is not installed (apt-get install tmux); CI installs it"))
struct BrowseMalformedTests {
    /// A table of `count` rows `Item 00000001`… from a JSON Lines file in which the records on the
    /// lines `bad` (from 1) are cut short. Written in chunks: 10,000,000 rows are 230 MB.
    static func table(_ count: Int, bad: Set<Int>) throws -> String {
        let dir = try Fixtures.folder("malformed-\(count)")
        let path = dir + "/rows.jsonl"
        guard FileManager.default.createFile(atPath: path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var chunk: [UInt8] = []
        chunk.reserveCapacity(1 << 22)
        for n in 1...count {
            if bad.contains(n) {
                chunk += Array("{\"text\": \"Item \(n)\", \"x\": \n".utf8)
            } else {
                chunk += Array("{\"text\": \"Item ".utf8)
                chunk += Array(Self.eight(n).utf8)
                chunk += Array("\"}\n".utf8)
            }
            if chunk.count >= 1 << 22 {
                try handle.write(contentsOf: chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: chunk)
        try "title: Big\nsections:\n  - {cell: Default, rowsFrom: rows.jsonl}\n"
            .write(toFile: dir + "/table.yaml", atomically: true, encoding: .utf8)
        return dir + "/table.yaml"
    }

    /// `n` in eight digits, zeros first.
    static func eight(_ n: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// The row the status line is at ("row N of …"), or 0.
    static func row(_ lines: [String]) -> Int {
        let status = BrowseTests.status(lines)
        guard let range = status.range(of: "row ") else { return 0 }
        return Int(status[range.upperBound...].prefix { $0.isNumber }) ?? 0
    }

    /// The item numbers on screen, in order.
    static func items(_ lines: [String]) -> [Int] {
        lines.compactMap { line in
            guard let range = line.range(of: "Item ") else { return nil }
            return Int(line[range.upperBound...].prefix(8))
        }
    }

    /// Checks a screen: no window failed, the rows shown are consecutive but for the bad ones
    /// (each drawn as its error row), and the status line is at `row`.
    static func check(_ lines: [String], at row: Int, of count: Int, bad: Set<Int>, _ what: String) {
        let shown = lines.joined(separator: "\n")
        #expect(!shown.contains("cannot draw the rows"), "\(what):\n\(shown)")
        #expect(BrowseTests.status(lines).contains("row \(row) of \(count)"), "\(what):\n\(shown)")
        let items = items(lines)
        guard let first = items.first, let last = items.last else { return }
        let expected = (first...last).filter { !bad.contains($0) }
        #expect(items == expected, "\(what): rows skipped or repeated:\n\(shown)")
        for b in bad where b > first && b < last {
            #expect(shown.contains("⚠ row \(b) cannot be read"), "\(what): the error row \(b):\n\(shown)")
        }
    }

    @Test(
        "every key crosses a bad record: j/k, Ctrl-D/U, f/b, NG, g/G and search both ways",
        arguments: [
            (1_000, [500]), (5_000, [2_491]), (5_000, [1, 1_025, 1_026, 1_027, 5_000]),
            (100_000, [1, 1_024, 1_025, 50_001, 100_000]), (200_000, [100_001]), (10_000_000, [5_000_001]),
        ])
    func crossing(count: Int, badRows: [Int]) throws {
        let bad = Set(badRows)
        let table = try Self.table(count, bad: bad)
        let tmux = try Tmux(BrowseTests.line("'\(table)'"), columns: 80, lines: 24)
        var at = 1
        func wait(_ row: Int, _ what: String) throws {
            let lines = try tmux.wait(what) { BrowseTests.status($0).contains("row \(row) of \(count)") }
            Self.check(lines, at: row, of: count, bad: bad, what)
            at = row
        }
        try wait(1, "the first screen")
        for b in badRows.sorted() {
            let before = max(1, b - 3)
            try tmux.type("\(before)G")
            try wait(before, "\(before)G, above the bad row \(b)")
            for step in 1...min(6, count - before) {
                try tmux.keys("j")
                try wait(before + step, "j onto and past row \(b)")
            }
            for step in 1...min(4, at - 1) {
                try tmux.keys("k")
                try wait(at - 1, "k back over row \(b) (\(step))")
            }
            try tmux.type("\(b)G")
            let lines = try tmux.wait("\(b)G onto the bad row") { BrowseTests.status($0).contains("row \(b) of") }
            #expect(BrowseTests.status(lines).contains("rows.jsonl:\(b):"), "\(lines.joined(separator: "\n"))")
            at = b
        }
        // Paging across the first bad row away from the ends: Ctrl-D/U and f/b land where they say.
        if let b = badRows.sorted().first(where: { $0 > 40 && $0 < count - 40 }) {
            try tmux.type("\(b - 15)G")
            try wait(b - 15, "a screen above row \(b)")
            try tmux.keys("C-d")
            let down = try tmux.wait("Ctrl-D") { !BrowseTests.status($0).contains("row \(b - 15) of") }
            Self.check(down, at: Self.row(down), of: count, bad: bad, "Ctrl-D across")
            try tmux.keys("C-u")
            try wait(b - 15, "Ctrl-U back")
            try tmux.keys("f")
            let forward = try tmux.wait("f") { !BrowseTests.status($0).contains("row \(b - 15) of") }
            Self.check(forward, at: Self.row(forward), of: count, bad: bad, "f across")
            // b pages back by lines: with error rows (one line each) in between, it may land a row
            // off where f started; what matters is that no row is skipped.
            try tmux.keys("b")
            let back = try tmux.wait("b") { Self.row($0) < Self.row(forward) && Self.row($0) > 0 }
            Self.check(back, at: Self.row(back), of: count, bad: bad, "b back across")
            at = Self.row(back)
            // Search forward from above the bad rows to a row below them; then back, match by match
            // (every readable row matches "Item "), over them.
            let readable = { (r: Int) in !bad.contains(r) }
            let target = ((b + 2)...).first(where: readable)!
            try tmux.type("/Item \(Self.eight(target))")
            try tmux.keys("Enter")
            try wait(target, "a search forward across row \(b)")
            try tmux.type("/Item ")
            try tmux.keys("Enter")
            try wait(((target + 1)...).first(where: readable)!, "a search for every row")
            for _ in 0..<4 {
                try tmux.keys("N")
                try wait(stride(from: at - 1, through: 1, by: -1).first(where: readable)!, "N back across row \(b)")
            }
        }
        try tmux.keys("G")
        try wait(count, "G")
        try tmux.keys("g")
        try wait(1, "g")
        try tmux.keys("q")
        try tmux.wait("the exit, status 0") { $0.contains("EXIT=0") && $0.contains("DONE") }
    }
}
