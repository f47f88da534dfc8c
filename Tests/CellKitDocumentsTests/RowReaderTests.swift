// A long data file read ahead on a helper thread gives exactly what the stream
// gives read on the table's thread: every row, error and end in the file's order.

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDocuments
@testable import CellKitText

@Suite("Data files read ahead")
struct RowReaderTests {
    /// `rows` random JSON Lines rows: plain and escaped cell names (more than `KnownCells` keeps),
    /// none, blank lines, CRLF, non-Latin text, nested values, and one record larger than a batch's
    /// first memory. `bad`: the row (from 0) written as broken JSON instead.
    static func lines(_ rows: Int, seed: UInt64, bad: Int? = nil) -> String {
        var random = SplitMix64(seed: seed)
        var text = ""
        for r in 0..<rows {
            if r == bad {
                text += "{\"cell\": \"Default\", \"text\": tru}\n"
                continue
            }
            if random.next() % 50 == 0 { text += random.next() % 2 == 0 ? "\n" : "  \t\n" }
            let cell: String =
                switch random.next() % 6 {
                case 0: ""
                case 1: "\"cell\": \"Def\\u0061ult\", "
                default: "\"cell\": \"Cell\(random.next() % 24)\", "
                }
            let words = ["日本語", "naïve", "👨‍👩‍👧", "\\\"quoted\\\"", "plain", "हिन्दी"]
            var body = (0..<Int(random.next() % 12)).map { _ in words[Int(random.next() % 6)] }.joined(separator: " ")
            if r == 3_000 { body = String(repeating: "long ", count: 30_000) }
            text += "{\(cell)\"text\": \"\(body)\", \"n\": \(r), \"nested\": {\"a\": [1, 2, {\"b\": null}]}}"
            text += random.next() % 7 == 0 ? "\r\n" : "\n"
        }
        return text
    }

    /// The data file of a one-section document over `rows.jsonl` (or `rows.csv`) holding `text`.
    func file(_ text: String, csv: Bool = false, name: String = #function) throws -> DataFile {
        let data = csv ? "rows.csv" : "rows.jsonl"
        let folder = try Render.write(["table.yaml": "sections:\n  - rowsFrom: \(data)\n", data: text], name: name)
        let document = try TableDocument(contentsOf: folder + "/table.yaml")
        guard case .file(let file) = document.sections[0].rows else { throw Failure("no data file") }
        return file
    }

    struct Failure: Error { let message: String; init(_ message: String) { self.message = message } }

    /// One thing a reader gives: a row (its cell, place and decoded data), the end, or an error.
    enum Read: Equatable {
        case row(cell: String?, line: Int, column: Int, data: RowValue)
        case end
        case error(String)

        /// The row's decoded data; nil for the end or an error.
        var rowData: RowValue? {
            if case .row(_, _, _, let data) = self { data } else { nil }
        }
    }

    /// What `next` gives until the end or an error.
    func drain(_ next: () throws(DocumentError) -> StreamedRow?) -> [Read] {
        var seen: [Read] = []
        do {
            while let row = try next() {
                seen.append(.row(cell: row.cell, line: row.line, column: row.column, data: row.data.rowValue))
            }
            seen.append(.end)
        } catch { seen.append(.error("\(error)")) }
        return seen
    }

    /// The first place `a` and `b` differ, or nil (a failure prints one row, not thousands).
    func firstDifference(_ a: [Read], _ b: [Read]) -> Int? {
        a.indices.first { $0 >= b.count || a[$0] != b[$0] } ?? (a.count == b.count ? nil : a.count)
    }

    @Test("rows, errors and the end come as the stream gives them, read ahead or not", arguments: [nil, 0, 4_321])
    func sameAsStream(bad: Int?) throws {
        let file = try file(Self.lines(6_000, seed: 7 + UInt64(bad ?? 1), bad: bad), name: "same-\(bad ?? -1)")
        let stream = try RowStream(file)
        let expected = drain { () throws(DocumentError) in try stream.next() }
        for readAhead in [true, false] {
            let reader = try RowReader(file, skipping: 0, rows: 6_000, readAhead: readAhead)
            #expect(reader.readsAhead == readAhead)
            let got = drain { () throws(DocumentError) in try reader.next() }
            #expect(got.count == expected.count)
            #expect(firstDifference(got, expected) == nil)
        }
        #expect(expected.count == (bad ?? 6_000) + 1)
        if bad == nil {
            #expect(expected.last == .end)
        } else {
            guard case .error(let message)? = expected.last else { Issue.record("no error"); return }
            #expect(message.contains("rows.jsonl:") && message.contains("JSON: expected true"))
        }
    }

    /// The column of a row's cell name (what an error about its cell type names) counts scalars
    /// from 1, whatever comes before it: the usual `{"cell": ` told by two words of printable
    /// ASCII (8 to 16 bytes before it), and the cases that quick test must leave to the count: a
    /// tab in the first word or only in the second, a scalar beyond ASCII within 16 bytes, more
    /// than 16 bytes before it.
    @Test func cellNameColumns() throws {
        let records: [(String, Int)] = [
            (#"{"cell": "A"}"#, 10), (#"{"cell":"A"}"#, 9), ("{\t\"cell\": \"A\"}", 11), ("{\"cell\":\t\"A\"}", 10),
            (#"{ "cell" :  "A"}"#, 13), (#"{"é":1,"cell":"A"}"#, 15), (#"{"é": 1, "cell": "A"}"#, 18),
            (#"{"x": 1, "cell": "A"}"#, 18), (#"{"long key here": 1, "cell": "A"}"#, 30),
            (#"{"n": "日本語", "cell": "A"}"#, 22),
        ]
        let text = records.map { $0.0 + "\n" }.joined()
        let stream = try RowStream(try file(text))
        for (record, column) in records {
            let row = try #require(try stream.next())
            #expect(row.cell == "A" && row.column == column, "\(record): column \(row.column)")
        }
    }

    /// Rows name their cell types as written, whatever the names' lengths (0 to 20 bytes, compared
    /// in words and halves and bytes, or by `memcmp`), in runs and switching, more kinds than
    /// `KnownCells` keeps.
    @Test func cellNamesAsWritten() throws {
        var random = SplitMix64(seed: 0xCE11)
        let names =
            (0...20).map { String(repeating: "n", count: $0) } + (0..<20).map { "Kind\($0)" }
            + (0..<12).map { "Kind of cell \($0)" }
        var written: [String] = []
        for _ in 0..<3_000 {
            let name = random.next() % 3 == 0 ? written.last ?? "A" : names[Int(random.next() % UInt64(names.count))]
            written.append(name)
        }
        let stream = try RowStream(try file(written.map { "{\"cell\": \"\($0)\", \"x\": 1}\n" }.joined()))
        for (k, name) in written.enumerated() {
            let row = try #require(try stream.next())
            #expect(row.cell == name, "row \(k)")
        }
    }

    /// Counted in two halves at once, a file has the rows counted in one pass: wherever its middle
    /// falls (in a record, on a line end, in a run of blank lines), with LF, CRLF or CR line ends,
    /// with or without a last line end, and one long record across the middle.
    @Test func countInHalvesSameAsOnePass() throws {
        var random = SplitMix64(seed: 0xC0_417)
        for trial in 0..<120 {
            var text = ""
            let lineEnd = ["\n", "\r\n", "\r"][trial % 3]
            for r in 0..<Int(random.next() % 9) {
                if random.next() % 3 == 0 { text += random.next() % 2 == 0 ? lineEnd : "  \t" + lineEnd }
                let body = String(repeating: "x", count: Int(random.next() % (trial % 10 == 0 ? 400 : 12)))
                text += "{\"cell\": \"C\", \"n\": \(r), \"t\": \"\(body)\"}" + lineEnd
            }
            if trial % 4 == 1, !text.isEmpty { text.removeLast(lineEnd.count) }  // no last line end
            let file = try file(text, name: "halves-\(trial)")
            let onePass = try RowStream.count(file, halvingFrom: .max)
            let halves = try RowStream.count(file, halvingFrom: 0)
            #expect(halves == onePass, "trial \(trial): \(text.debugDescription)")
            #expect(onePass == RowStream.count(text, lineEnd: lineEnd), "trial \(trial)")
        }
    }

    /// A record too long to read fails the halved count as it fails one pass: the same message,
    /// naming its true line (a half counted from the middle knew no line number), whichever half
    /// holds it ("second": 20 MiB of short lines put the middle before it).
    @Test func countInHalvesFailsAsOnePass() throws {
        let long = "{\"t\": \"" + String(repeating: "x", count: RowStream.longestRecord + 1) + "\"}\n"
        let short = String(repeating: "{\"t\": \"short\"}\n", count: 3_000)
        let many = String(repeating: "{\"t\": \"short\"}\n", count: (RowStream.longestRecord + (4 << 20)) / 15)
        let cases = [("first", long + short), ("second", many + long), ("both", long + many + long)]
        for (name, text) in cases {
            let file = try file(text, name: "halves-fail-\(name)")
            var errors: [String] = []
            for threshold in [Int.max, 0] {
                do throws(DocumentError) {
                    _ = try RowStream.count(file, halvingFrom: threshold)
                    errors.append("no error")
                } catch { errors.append("\(error)") }
            }
            #expect(errors[0] == errors[1], "\(name): \(errors)")
            #expect(errors[0].contains("longer than"), "\(name): \(errors[0])")
        }
    }

    @Test("a record still held keeps its bytes while later rows are written into the memory of done ones")
    func heldRecordsUnchanged() throws {
        let file = try file(Self.lines(6_000, seed: 23), name: "held")
        let stream = try RowStream(file)
        let expected = drain { () throws(DocumentError) in try stream.next() }
        let reader = try RowReader(file, skipping: 0, rows: 6_000, readAhead: true)
        var random = SplitMix64(seed: 5)
        var held: [(index: Int, data: RowData)] = []
        var index = 0, reused = 0
        var last: ObjectIdentifier?, beforeLast: ObjectIdentifier?
        while let row = try reader.next() {
            guard case .json(let record) = row.data else { Issue.record("not a record"); return }
            // The same memory as two rows before (the row between still held by its reader):
            // written over, as nothing else held it.
            let identity = record.storageIdentity
            if identity == beforeLast { reused += 1 }
            (beforeLast, last) = (last, identity)
            if random.next() % 3 == 0 { held.append((index, row.data)) }  // held, as a cell or a copy would
            if held.count > 40 { held.removeFirst(Int(random.next() % 20)) }
            for h in held where h.data.rowValue != expected[h.index].rowData {
                Issue.record("row \(h.index) changed while held, at row \(index)")
                return
            }
            index += 1
        }
        #expect(index == 6_000)
        #expect(reused > 1_000, "rows written into the memory of rows done: \(reused)")
    }

    @Test("skipping starts at the row asked for; a reader dropped early stops its helper")
    func skipAndStop() throws {
        let file = try file(Self.lines(8_000, seed: 3), name: "skip")
        let stream = try RowStream(file)
        let all = drain { () throws(DocumentError) in try stream.next() }
        let reader = try RowReader(file, skipping: 2_500, rows: 8_000, readAhead: true)
        #expect(reader.readsAhead && reader.rowsRead == 2_500)
        try reader.skip(to: 5_000)
        #expect(reader.rowsRead == 5_000)
        let rest = drain { () throws(DocumentError) in try reader.next() }
        #expect(firstDifference(rest, Array(all[5_000...])) == nil)
        for read in [0, 1, 300, 2_100] {  // none, within the first batch, after the ring filled
            let early = try RowReader(file, skipping: 0, rows: 8_000, readAhead: true)
            for _ in 0..<read { _ = try early.next() }
            #expect(early.rowsRead == read)
        }  // each goes here: its helper is woken and joined, or the test hangs
    }

    @Test("however long the records, the helper holds no more than its limits ahead")
    func memoryBound() throws {
        let text = (0..<400).map { n in
            "{\"cell\": \"Default\", \"n\": \(n), \"text\": \"\(String(repeating: "x", count: 6_000))\"}\n"
        }.joined()
        let file = try file(text, name: "bound")
        let stream = try RowStream(file)
        let expected = drain { () throws(DocumentError) in try stream.next() }
        let limits = RowReader.Limits(minimumRows: 10, batchRows: 256, batchBytes: 8 << 10, bytesAhead: 16 << 10)
        let reader = try RowReader(file, skipping: 0, rows: 400, readAhead: true, limits: limits)
        var got = [Read]()
        if let first = try reader.next() {
            got.append(.row(cell: first.cell, line: first.line, column: first.column, data: first.data.rowValue))
            // The helper runs ahead as far as it may: wait until it is past its limit (the deadline
            // only ends a hung helper's test).
            let deadline = ContinuousClock.now + .seconds(60)
            while reader.bytesAhead <= limits.bytesAhead, ContinuousClock.now < deadline { usleep(1_000) }
            #expect(reader.bytesAhead > limits.bytesAhead, "the helper did not run ahead")
        }
        got += drain { () throws(DocumentError) in try reader.next() }
        #expect(firstDifference(got, expected) == nil)
        // It went as far as the limit, and stopped there: one batch (8 KiB and a row) past 16 KiB.
        #expect(reader.mostBytesAhead > limits.bytesAhead)
        #expect(reader.mostBytesAhead <= limits.bytesAhead + limits.batchBytes + 6_200)
    }

    @Test("no helper for a short file, a CSV file, or when told not to")
    func whenNot() throws {
        let short = try file(Self.lines(100, seed: 5), name: "short")
        #expect(try !RowReader(short, skipping: 0, rows: 100, readAhead: true).readsAhead)
        let long = try file(Self.lines(3_000, seed: 5), name: "long")
        #expect(try !RowReader(long, skipping: 1_000, rows: 3_000, readAhead: true).readsAhead)
        #expect(try RowReader(long, skipping: 0, rows: 3_000, readAhead: true).readsAhead)
        let csv = try file("cell,text\n" + String(repeating: "Default,x\n", count: 5_000), csv: true, name: "csv")
        #expect(try !RowReader(csv, skipping: 0, rows: 5_000, readAhead: true).readsAhead)
    }

    @Test(
        "lines worked out ahead draw what breaking them on the table's thread draws",
        arguments: [80, 50])
    func plannedLinesSame(width: Int) throws {
        var random = SplitMix64(seed: UInt64(width))
        let words = [
            "lorem", "ipsum", "well-known", "日本語", "東京", "한국어", "👨‍👩‍👧", "🇯🇵", "👍🏽", "ｶﾀｶﾅ", "हिन्दी", "ไทย",
            "café", "a\\u0301", "\\\"quoted\\\"", "tab\\there", "\u{202E}bidi", "supercalifragilisticexpialidocious",
        ]
        func text(_ n: Int) -> String {
            (0..<Int(random.next() % UInt64(n) + 1)).map { _ in words[Int(random.next() % UInt64(words.count))] }
                .joined(separator: random.next() % 9 == 0 ? "  " : " ")
        }
        var rows = ""
        for r in 0..<3_000 {
            switch random.next() % 4 {
            case 0:
                rows += "{\"cell\": \"Project\", \"project\": \"\(text(4))\", \"description\": \"\(text(14))\"}\n"
            case 1:
                rows +=
                    "{\"cell\": \"BenchWrapped\", \"title\": \"Item \(r): \(text(3))\", "
                    + "\"description\": \"\(text(28))\", \"words\": \"\(text(9))\"}\n"
            case 2: rows += "{\"cell\": \"Subtitle\", \"text\": \"\(text(8))\", \"detail\": \"\(text(12))\"}\n"
            default: rows += "{\"cell\": \"Default\", \"text\": \"\(text(12))\"}\n"
            }
        }
        let stylesheet = try String(
            contentsOfFile: Render.root + "/Manifests/Tables/Stylesheets/projects.yaml", encoding: .utf8)
        let folder = try Render.write(
            [
                "table.yaml": "stylesheet: projects.yaml\nsections:\n  - rowsFrom: rows.jsonl\n",
                "projects.yaml": stylesheet, "rows.jsonl": rows,
            ], name: "planned-\(width)")
        func render(readAhead: Bool) throws -> String {
            try Render.table(folder + "/table.yaml", .text, width: width, readsAhead: readAhead).output
        }
        let ahead = try render(readAhead: true), here = try render(readAhead: false)
        #expect(ahead.split(separator: "\n").count > 6_000)
        let a = ahead.split(separator: "\n", omittingEmptySubsequences: false)
        let b = here.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(a.count == b.count)
        let first = a.indices.first { $0 >= b.count || a[$0] != b[$0] }
        #expect(
            first == nil,
            "line \(first ?? -1): \(first.map { String(a[$0]) } ?? "") ≠ \(first.map { String(b[$0]) } ?? "")")
    }

    @Test("the reader works out the lines a layout asks for, as the layout would break them")
    func plannedLinesAsAsked() throws {
        var random = SplitMix64(seed: 19)
        let words = [
            "lorem", "well-known", "日本語", "👨‍👩‍👧", "👍🏽", "ｶﾀｶﾅ", "हिन्दी", "\\\"q\\\"", "\u{202E}x", "abcdefghijklmnop",
        ]
        let rows = (0..<3_000).map { _ in
            let text = (0..<Int(random.next() % 12 + 1)).map { _ in words[Int(random.next() % 10)] }
                .joined(separator: " ")
            return "{\"text\": \"\(text)\", \"n\": 1}\n"
        }
        let file = try file(rows.joined(), name: "asked")
        // Batches of 64 rows: the rows read before the plan is asked (at most the ring's eight batches
        // and the one being filled) stay a few hundred however fast the reader runs. With the standard
        // 256 rows a faster reader had read up to about 2,300 of the 3,000 rows by then, and too few
        // were left to plan.
        let limits = RowReader.Limits(batchRows: 64)
        let reader = try RowReader(file, skipping: 0, rows: 3_000, readAhead: true, limits: limits)
        let layouts: [(width: Int, maxLines: Int, mode: LineBreakMode)] = [
            (17, 4, .wordWrap), (9, 1, .truncateTail), (12, 3, .charWrap), (30, 1, .wordWrap),
        ]
        var hits = 0, ellipses = 0
        while let row = try reader.next() {
            guard case .json(let record) = row.data, let plan = record.plan else {
                Issue.record("no plan")
                return
            }
            if reader.rowsRead == 1 {
                for l in layouts {
                    plan.ask(
                        LinePlan.Entry(
                            key: Array("\"text\"".utf8), width: l.width, maxLines: l.maxLines, mode: l.mode.rawValue))
                }
            }
            guard let (bytes, clean) = record.plainString(at: "text") else { continue }  // escaped: never planned
            let text = TextBytes(bytes)
            for l in layouts {
                let computed = TextLayout.laidOut(text, width: l.width, maxLines: l.maxLines, mode: l.mode)
                let planned = record.plannedLines(
                    for: bytes, width: l.width, maxLines: l.maxLines, mode: l.mode.rawValue)
                if !clean {  // sanitized: never planned
                    #expect(planned == nil)
                    continue
                }
                if computed.text !== text {
                    // An ellipsis made new text: planned only for one line truncated at its tail, as its
                    // cut, flagged; the layout adds the ellipsis.
                    ellipses += 1
                    guard l.maxLines == 1, l.mode == .truncateTail else {
                        #expect(planned == nil)
                        continue
                    }
                    guard let planned else {
                        #expect(reader.rowsRead < 2_600, "row \(reader.rowsRead): read after the plan, yet not planned")
                        continue
                    }
                    #expect(planned.count == 3 && planned[0] == 0 && planned[1] & LinePlan.ellipsisFlag != 0)
                    let head = Int(planned[1] & ~LinePlan.ellipsisFlag)
                    let made = TextLayout.ellipsizedText(text, bytes, head: head)
                    let same = made.withBytes { Array($0) } == computed.text.withBytes { Array($0) }
                    #expect(same, "row \(reader.rowsRead)")
                    #expect(computed.lines == [TextLine(0, made.byteCount, columns: Int(planned[2]) + 1)])
                    continue
                }
                guard let planned else {
                    #expect(reader.rowsRead < 2_600, "row \(reader.rowsRead): read after the plan, yet not planned")
                    continue
                }
                hits += 1
                let lines = stride(from: 0, to: planned.count, by: 3).map {
                    TextLine(Int(planned[$0]), Int(planned[$0 + 1]), columns: Int(planned[$0 + 2]))
                }
                #expect(lines == computed.lines, "row \(reader.rowsRead), \(l)")
            }
        }
        #expect(hits > 1_000 && ellipses > 100, "planned \(hits), with an ellipsis \(ellipses)")
    }

    @Test("a long table renders the same with its rows read ahead and without")
    func renderSame() throws {
        var random = SplitMix64(seed: 11)
        let rows = (0..<5_000).map { r in
            "{\"cell\": \"Default\", \"text\": \"row \(r) \(random.next() % 1_000) 日本語 👍🏽\"}\n"
        }
        let folder = try Render.write(
            ["table.yaml": "sections:\n  - rowsFrom: rows.jsonl\n", "rows.jsonl": rows.joined()], name: "render")
        func render(readAhead: Bool) throws -> String {
            try Render.table(folder + "/table.yaml", .text, width: 60, readsAhead: readAhead).output
        }
        let ahead = try render(readAhead: true), here = try render(readAhead: false)
        #expect(ahead.contains("row 4999 "))
        #expect(ahead == here)
    }
}

extension RowStream {
    /// The rows of `text` whose lines end with `lineEnd`, counted the slow way: its lines that hold
    /// anything but spaces, tabs and CRs.
    fileprivate static func count(_ text: String, lineEnd: String) -> Int {
        text.components(separatedBy: lineEnd).filter { $0.contains { !" \t\r".contains($0) } }.count
    }
}
