// `cellkit browse`'s search looks at a data file's records as bytes first (`RowPrefilter`) and
// parses only those that may hold the text: these tests show it never turns away a row the exact
// match finds. Seeded random rows of mixed case, non-ASCII text, hidden scalars, look-alikes of
// ASCII, JSON escapes and numbers JSON writes in other forms; searched forward and back from
// random rows through a small buffer (records cross its refills) and small backward windows.

import CellKitDiscovery
import CellKitDocuments
import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitBrowse

@Suite("Browse search's byte prefilter never misses a row")
struct BrowsePrefilterTests {
    /// Pieces of text the rows are made of: mixed case, accents precomposed and not, CJK and emoji.
    static let pieces = [
        "alpha", "Beta", "GAMMA", "dElTa", "Item", "kelvin", "Straße", "café", "CAFE\u{301}", "ÉCOLE", "naïve",
        "東京", "😀", " ", "-", ".", ";", "`", "\"", "\\", "/", "x", "K", "e", "1", "42", "null", "ß", "ǅ", "ΣΑΣ",
    ]
    /// Pieces that hide text from a byte search, one piece in twelve: hidden scalars (soft hyphen,
    /// zero-width space, BOM, RLM) and the ASCII look-alikes (Kelvin sign, İ, Greek question mark, varia).
    static let traps = ["\u{AD}", "\u{200B}", "\u{FEFF}", "\u{200F}", "\u{212A}", "İ", "\u{037E}", "\u{1FEF}"]

    /// A random string of one to six pieces, a letter's case flipped now and then.
    static func text(_ rng: inout SplitMix64) -> String {
        var s = ""
        for _ in 0...Int.random(in: 0..<6, using: &rng) {
            var piece = (Int.random(in: 0..<12, using: &rng) == 0 ? traps : pieces).randomElement(using: &rng)!
            if Int.random(in: 0..<4, using: &rng) == 0 { piece = piece.uppercased() }
            s += piece
        }
        return s
    }

    /// `s` as a JSON string: quotes and backslashes escaped, other scalars now and then written as
    /// `\uXXXX` (a surrogate pair past the BMP) or `\/`.
    static func json(_ s: String, _ rng: inout SplitMix64) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            let escape = Int.random(in: 0..<200, using: &rng) == 0
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where escape: out += "\\/"
            case _ where u.value < 0x20 || escape:
                for unit in String(u).utf16 { out += String(format: "\\u%04X", unit) }
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    /// A number as JSON may write it: whole, with a fraction, an exponent, 16 digits or more, -0.
    static func number(_ rng: inout SplitMix64) -> String {
        switch Int.random(in: 0..<8, using: &rng) {
        case 0: "\(Int.random(in: 0..<1000, using: &rng))"
        case 1: "\(Int.random(in: 0..<1000, using: &rng)).\(Int.random(in: 0..<100, using: &rng))0"
        case 2: "\(Int.random(in: 1..<10, using: &rng))e\(Int.random(in: 0..<25, using: &rng))"
        case 3: "\(Int.random(in: 1..<10, using: &rng)).5E-\(Int.random(in: 1..<9, using: &rng))"
        case 4: "\(Int.random(in: 1_000_000_000_000_000...9_000_000_000_000_000_000, using: &rng))"
        case 5: "-0"
        case 6: "0.1234567890123456789"
        default: "-\(Int.random(in: 0..<100_000, using: &rng))"
        }
    }

    /// A JSON Lines record of random members: strings, numbers, a list, an object, now and then
    /// `true` or `null` (never searched) and a key that holds text too (keys are not searched).
    static func record(_ rng: inout SplitMix64) -> String {
        var members: [String] = []
        for k in 0..<Int.random(in: 1...4, using: &rng) {
            let value: String
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: value = number(&rng)
            case 1: value = "[\(json(text(&rng), &rng)), \(number(&rng))]"
            case 2: value = "{\"in\": \(json(text(&rng), &rng))}"
            case 3: value = ["true", "null"].randomElement(using: &rng)!
            default: value = json(text(&rng), &rng)
            }
            members.append("\(json("k\(k)" + (k == 3 ? text(&rng) : ""), &rng)): \(value)")
        }
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// A CSV field of random text: quoted (quotes doubled) when it holds a comma, a quote or a line end.
    static func csv(_ s: String) -> String {
        s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
            ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
    }

    /// Queries as a reader types them: pieces of the rows' texts and numbers in another case or with
    /// hidden scalars typed in, and some chosen for their traps.
    static func queries(_ texts: [String], _ rng: inout SplitMix64) -> [String] {
        var queries = [
            "k", "i", ";", "`", "null", "nul", "e+", "e-", "00", "1e", ".5", "-0", "0", "ß", "ss", "é", "e",
            "東", "😀", "\"", "\\", "/", "a\u{AD}l", "beta", "CAFÉ", "ǆ", "σας", "ς", "\u{301}", "nowhere",
        ]
        // Texts with a hidden scalar or a look-alike, as the search sees them: a match across it.
        let trapped = texts.filter { $0.unicodeScalars.contains { UTF8Bytes.isHidden($0.value) || $0.value > 0x12F } }
            .map(BrowseTable.searchable)
        for k in 0..<160 {
            let chars = Array((k < 40 && !trapped.isEmpty ? trapped : texts).randomElement(using: &rng)!)
            guard !chars.isEmpty else { continue }
            let a = Int.random(in: 0..<chars.count, using: &rng)
            let b = Int.random(in: a...min(chars.count - 1, a + 6), using: &rng)
            var q = String(chars[a...b])
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: q = q.uppercased()
            case 1: q = q.lowercased()
            case 2: q.insert("\u{AD}", at: q.index(q.startIndex, offsetBy: q.count / 2))
            default: break
            }
            queries.append(q)
        }
        return queries
    }

    /// The texts of a row value (its strings, and numbers as JSON writes them), for queries.
    static func texts(_ value: RowValue) -> [String] {
        switch value {
        case .null, .bool: []
        case .number(let n): [RowValue.jsonNumber(n)]
        case .string(let s): [s]
        case .list(let items): items.flatMap(texts)
        case .object(let fields): fields.values.flatMap(texts)
        }
    }

    /// A table: inline rows, a JSON Lines file of `count` random rows (the first and last hold
    /// texts of their own), rows with no data, a CSV file, inline rows.
    func table(_ count: Int, seed: UInt64, name: String = #function) throws -> (BrowseTable, lines: [String]) {
        var rng = SplitMix64(seed: seed)
        var lines = (0..<count).map { _ in Self.record(&rng) }
        lines[0] = "{\"t\": \"ZZfirstZZ\", \"n\": 7}"
        lines[1] = "{\"u\": \"\\u0051ED\"}"
        lines[count - 1] = "{\"t\": \"Last\u{AD}ROW\"}"
        var csvLines = ["text,detail,cell"]
        for _ in 0..<200 { csvLines.append("\(Self.csv(Self.text(&rng))),\(Self.csv(Self.text(&rng))),Default") }
        let folder = try Render.write(
            [
                "t.yaml": """
                sections:
                  - cell: Default
                    rows:
                      - {text: Beta first}
                      - {text: plain}
                  - {cell: Subtitle, rowsFrom: rows.jsonl}
                  - {cell: Default, rows: 3}
                  - {cell: Subtitle, rowsFrom: rows.csv}
                  - cell: Default
                    rows:
                      - {text: plain}
                      - {text: "BETA \\u00e9 last"}

                """,
                // Blank lines too: the prefilter skips them as rows are counted.
                "rows.jsonl": lines.joined(separator: "\n") + "\n\n",
                "rows.csv": csvLines.joined(separator: "\r\n") + "\r\n",
            ], name: name)
        let table = try BrowseTable(
            path: folder + "/t.yaml", root: nil, discovery: DiscoveryOptions(searchPath: .custom([])), isolated: false)
        try table.finishCounting()
        return (table, lines)
    }

    /// A search from row `start`: with the prefilter through a buffer of `bufferSize` bytes and
    /// backward windows of `window` rows (nil: back read from the table's start, as while a file is
    /// counted), or without it (every row parsed and matched).
    func search(
        _ table: BrowseTable, _ query: String, from start: Int, forward: Bool, prefilter: Bool = true,
        bufferSize: Int = 96, window: Int? = 100
    ) throws -> BrowseSearch.State {
        let path = try #require(table.indexPath(of: start))
        var plan = BrowseSearch.Plan(
            document: table.document, indexes: table.indexes, section: path.section, row: path.row, number: start,
            forward: forward, counts: table.sectionCounts)
        (plan.prefilter, plan.bufferSize, plan.window) = (prefilter, bufferSize, window)
        let search = BrowseSearch(query, plan)
        let deadline = Date().addingTimeInterval(20)
        while case .searching = search.state, Date() < deadline { usleep(200) }
        return search.state
    }

    @Test("every record the exact match finds, the prefilter admits: 400 random records, 150 queries")
    func recordsAdmitted() throws {
        let (table, lines) = try table(400, seed: 0x5EA2C4)
        let first = 2
        let values = try (0..<lines.count).map { k in try #require(try table.data(of: first + k)) }
        var rng = SplitMix64(seed: 0xF117E2)
        var (checked, turnedAway) = (0, 0)
        for query in Self.queries(values.flatMap(Self.texts), &rng) {
            let needle = BrowseTable.searchable(query)
            guard !needle.isEmpty, let filter = RowPrefilter(needle: needle) else { continue }
            for (line, value) in zip(lines, values) {
                if BrowseTable.contains(value, needle) {
                    #expect(filter.admits(Array(line.utf8)), "\(query.debugDescription) in \(line)")
                    checked += 1
                } else if !filter.admits(Array(line.utf8)) {
                    turnedAway += 1
                }
            }
        }
        // Matches checked, and most other rows turned away unparsed.
        #expect(checked > 1_000 && turnedAway > 15_000, "\(checked) matches, \(turnedAway) turned away")
        // And it turns rows away: a run of letters in plain text is not admitted without it.
        let filter = try #require(RowPrefilter(needle: "nowhere"))
        #expect(!filter.admits(Array("{\"t\": \"Item 3\", \"d\": \"1.5\"}".utf8)))
        #expect(filter.admits(Array("{\"t\": \"No\u{AD}where\"}".utf8)))
        #expect(filter.admits(Array("{\"t\": \"\\u004Eowhere\"}".utf8)))
        #expect(!filter.admits(Array("{\"t\": \"\\\\u004Eowhere\"}".utf8)))
        #expect(try #require(RowPrefilter(needle: "123")).admits(Array("{\"n\": 1.23e2}".utf8)))
        #expect(RowPrefilter(needle: "東京") == nil)
        #expect(RowPrefilter(needle: "tōkyō 東京")?.text == "ky")
        #expect(RowPrefilter(needle: "a/b\"cde")?.text == "cde")
    }

    @Test("random tables searched forward and back from random rows: the rows a loop over the data finds")
    func searchesSameAsLoop() throws {
        for seed: UInt64 in [1, 2] {
            let (table, _) = try table(1_000, seed: seed, name: "searchesSameAsLoop\(seed)")
            let count = table.rowCount
            let values = try (0..<count).map { try table.data(of: $0) }
            var rng = SplitMix64(seed: seed &* 77)
            var queries = Self.queries(values.compactMap { $0 }.flatMap(Self.texts), &rng).shuffled(using: &rng)
            queries = ["zzFIRSTzz", "lastrow", "qed", "beta first", "é last"] + queries.prefix(15)
            for query in queries {
                let needle = BrowseTable.searchable(query)
                guard !needle.isEmpty else { continue }
                let matches = values.indices.filter { values[$0].map { BrowseTable.contains($0, needle) } ?? false }
                var starts = [0, 2, 3, 1_001, 1_002, 1_006, count - 1]
                starts += (0..<3).map { _ in Int.random(in: 0..<count, using: &rng) }
                for start in starts {
                    let forward = matches.first { $0 >= start } ?? matches.first
                    let back = matches.last { $0 <= start } ?? matches.last
                    #expect(
                        try search(table, query, from: start, forward: true) == forward.map { .found($0) } ?? .notFound,
                        "\(query.debugDescription) forward from \(start)")
                    #expect(
                        try search(table, query, from: start, forward: false) == back.map { .found($0) } ?? .notFound,
                        "\(query.debugDescription) back from \(start)")
                }
                // The exact scan (no prefilter), back in windows and read from the table's start, finds
                // the same; so does the prefilter read from the table's start.
                let start = Int.random(in: 0..<count, using: &rng)
                let back = (matches.last { $0 <= start } ?? matches.last).map { BrowseSearch.State.found($0) }
                for (prefilter, window) in [(false, 16_384), (false, nil), (true, nil)] {
                    #expect(
                        try search(
                            table, query, from: start, forward: false, prefilter: prefilter, bufferSize: 1 << 20,
                            window: window) == back ?? .notFound)
                }
            }
        }
    }

    @Test("the list of ASCII look-alikes is whole: every scalar lowercased and compared")
    func lookalikesWhole() {
        let ascii = Set((0x20..<0x7F).map { Character(Unicode.Scalar(UInt8($0))) })
        let listed = Set(RowPrefilter.asciiLookalikes.map(\.scalar))
        var found: [UInt32] = []
        for v in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(v) else { continue }
            let lower = scalar.properties.changesWhenLowercased ? String(scalar).lowercased() : String(scalar)
            if lower.unicodeScalars.contains(where: { $0.isASCII })
                || (lower.count == 1 && ascii.contains(lower.first!))
            {
                found.append(v)
            }
        }
        #expect(Set(found) == listed)
    }

    @Test("a cancel stops a prefiltered search between chunks of rows, after its progress shows")
    func cancelStops() throws {
        let rows = 500_000
        let folder = try Render.write(
            [
                "t.yaml": "sections:\n  - {cell: Default, rowsFrom: rows.jsonl}\n",
                "rows.jsonl": String(repeating: "{\"text\": \"Item\"}\n", count: rows),
            ])
        let table = try BrowseTable(
            path: folder + "/t.yaml", root: nil, discovery: DiscoveryOptions(searchPath: .custom([])), isolated: false)
        try table.finishCounting()
        let search = try #require(table.startSearch("nowhere", from: 0, forward: true))
        let deadline = Date().addingTimeInterval(20)
        var progress = 0
        while Date() < deadline, case .searching(let rows) = search.state, rows == 0 { usleep(50) }
        if case .searching(let rows) = search.state { progress = rows }
        search.cancel()
        while search.rowsLooked.load(ordering: .acquiring) < 0, Date() < deadline { usleep(100) }
        #expect(progress > 0)
        #expect(search.state == .stopped)
        let looked = search.rowsLooked.load(ordering: .acquiring)
        #expect(looked >= progress && looked < rows, "looked at \(looked) of \(rows)")
    }
}
