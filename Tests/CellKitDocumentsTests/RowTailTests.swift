// A JSON Lines file read back from its end finds the records a forward read finds, in the
// same order: blank lines, CR LF and CR-only line ends, no final line end, records longer
// than a block, one row, an empty file.

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDocuments

@Suite("Data files read back from the end")
struct RowTailTests {
    /// The data file of a one-section document over `rows.jsonl` holding `text`.
    func file(_ text: String, name: String = #function) throws -> DataFile {
        let folder = try Render.write(
            ["table.yaml": "sections:\n  - {cell: Default, rowsFrom: rows.jsonl}\n", "rows.jsonl": text], name: name)
        let document = try TableDocument(contentsOf: folder + "/table.yaml")
        guard case .file(let file) = document.sections[0].rows else { throw Failure("no data file") }
        return file
    }

    struct Failure: Error { let message: String; init(_ message: String) { self.message = message } }

    /// The rows' data read forward, as the table reads them.
    func forward(_ file: DataFile) throws -> [RowValue] {
        let stream = try RowStream(file)
        var rows: [RowValue] = []
        while let row = try stream.next() { rows.append(row.data.rowValue) }
        return rows
    }

    /// The file read back `step` records at a time in blocks of `block` bytes: each record's data,
    /// read forward from the offset found, in file order.
    func backward(_ file: DataFile, step: Int, block: Int) throws -> [RowValue] {
        let tail = try RowTail(file, blockSize: block)
        var offsets: [Int] = []
        while !tail.reachedStart {
            let more = try tail.previous(step)
            #expect(more.count == step || tail.reachedStart, "fewer records than asked before the start")
            offsets = more + offsets
        }
        #expect(try tail.previous(step).isEmpty)
        return try offsets.map { offset in
            let stream = try RowStream(file)
            try stream.seek(toOffset: offset, line: 0, rows: 0)
            return try #require(try stream.next()).data.rowValue
        }
    }

    /// Row `n`'s line: a few lengths, one far longer than the smallest blocks.
    static func record(_ n: Int) -> String {
        let text = n % 17 == 5 ? String(repeating: "long ", count: 400) : String(repeating: "x", count: n % 9)
        return "{\"n\": \(n), \"text\": \"\(text)\"}"
    }

    @Test(
        "the records back from the end are the forward read's, whatever the line ends and blank lines",
        arguments: ["\n", "\r\n", "\r"], [true, false])
    func sameAsForward(lineEnd: String, finalLineEnd: Bool) throws {
        var text = ""
        for n in 0..<200 {
            if n % 23 == 0 { text += lineEnd + " \t" + lineEnd }  // blank lines, one with blanks
            text += Self.record(n) + (n == 199 && !finalLineEnd ? "" : lineEnd)
        }
        if finalLineEnd, lineEnd != "\r" { text += "  " + lineEnd + lineEnd }  // blank lines at the end too
        let name = "same-\(lineEnd.utf8.count)-\(lineEnd.utf8.first!)-\(finalLineEnd)"
        let file = try file(text, name: name)
        let expected = try forward(file)
        #expect(expected.count == 200)
        for (step, block) in [(1, 7), (3, 64), (40, 1 << 16), (1_000, 3)] {
            #expect(try backward(file, step: step, block: block) == expected, "step \(step), block \(block)")
        }
    }

    @Test("the last records first: previous(2) gives the last two, then the two before")
    func lastFirst() throws {
        let file = try file((0..<5).map(Self.record).joined(separator: "\n") + "\n")
        let tail = try RowTail(file, blockSize: 16)
        let last = try tail.previous(2)
        let before = try tail.previous(2)
        #expect(!tail.reachedStart)
        let rest = try tail.previous(2)
        #expect(tail.reachedStart && rest == [0])
        let all = before + last
        #expect(all == all.sorted() && all.count == 4)
        #expect(tail.size == (0..<5).map { Self.record($0).utf8.count + 1 }.reduce(0, +))
    }

    @Test("a file of one row, with and without its line end; an empty file; a file of blank lines")
    func small() throws {
        for (k, text) in ["{\"n\": 1}", "{\"n\": 1}\n", "\n\n{\"n\": 1}\r\n\n"].enumerated() {
            let tail = try RowTail(try file(text, name: "one-\(k)"))
            let offsets = try tail.previous(10)
            #expect(offsets == [text.hasPrefix("\n") ? 2 : 0] && tail.reachedStart, "\(text.debugDescription)")
        }
        for (k, text) in ["", "\n", " \r\n\t\n"].enumerated() {
            let tail = try RowTail(try file(text, name: "empty-\(k)"))
            #expect(try tail.previous(10).isEmpty && tail.reachedStart, "\(text.debugDescription)")
        }
    }
}
