// Documents are bounded: every limit in DocumentLimits fails fast with an error
// that names it, and data files with CR-only line ends are read, not emptied.

import CellKitModel
import CellKitRendering
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDocuments

@Suite("Documents are bounded")
struct LimitsTests {
    /// Writes `files` (with `table.yaml`) into a new folder and loads the table; returns the error text with the
    /// folder cut off, or "no error".
    func failure(_ files: [String: String], name: String = #function) throws -> String {
        let folder = try Render.write(files, name: name)
        do {
            _ = try TableDocument(contentsOf: folder + "/table.yaml")
            return "no error"
        } catch {
            return "\(error)".replacingOccurrences(of: folder + "/", with: "")
        }
    }

    /// Runs `body`, expecting it to take less than `limit`.
    func quickly<T>(_ limit: Duration = .seconds(30), _ body: () throws -> T) rethrows -> T {
        let started = ContinuousClock.now
        defer { #expect(ContinuousClock.now - started < limit) }
        return try body()
    }

    @Test("a YAML alias bomb fails fast with the expansion limit")
    func aliasBomb() throws {
        var lines = [#"a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]"#]
        for k in 1...8 {
            let (name, previous) = (String(UnicodeScalar(97 + k)!), String(UnicodeScalar(96 + k)!))
            lines.append(
                "\(name): &\(name) [" + Array(repeating: "*" + previous, count: 9).joined(separator: ",") + "]")
        }
        let table =
            "sections:\n  - cell: Default\n    rows:\n      - {text: x, bomb: {\(lines.joined(separator: ", "))}}\n"
        let message = try quickly { try failure(["table.yaml": table]) }
        #expect(
            message
                == "table.yaml:4:81: the file expands to more than 250,000 values (the limit, DocumentLimits.values); aliases that repeat large values multiply them: write less, or stream rows from a file with rowsFrom"
        )
    }

    @Test("more aliases than the limit, and aliases as keys, are refused before composing")
    func aliases() throws {
        let many = "x: &x 1\nsections: [" + Array(repeating: "*x", count: 101).joined(separator: ", ") + "]\n"
        #expect(
            try failure(["table.yaml": many]).hasPrefix(
                "table.yaml:2:412: more than 100 YAML aliases (*name) (the limit, DocumentLimits.aliases)"))
        let key = "x: &x [1, 2]\n*x : 1\nsections: []\n"
        #expect(
            try failure(["table.yaml": key])
                == "table.yaml:2:1: a mapping key here is an alias, a list or a mapping; write keys as plain names")
        #expect(
            try failure(["table.yaml": "? [a, b]\n: 1\n"])
                == "table.yaml:1:1: a mapping key here is an alias, a list or a mapping; write keys as plain names")
        #expect(
            try failure(["table.yaml": "{[a]: 1}\n"])
                == "table.yaml:1:4: a mapping key here is an alias, a list or a mapping; write keys as plain names")
        // `*` inside quotes, comments, block scalars and plain texts is text.
        let text =
            "title: \"*x: 1\" # *y: 2\nheader: |\n  *z: 3\nfooter: a *b c\nsections:\n  - {cell: Default, rows: 1}\n"
        #expect(try failure(["table.yaml": text]) == "no error")
    }

    @Test("a 20,000-style extends chain is refused by the style limit, quickly and without deep recursion")
    func longChain() throws {
        let n = 20_000
        let sheet = "styles:\n" + (0..<n).map { "  s\($0): {extends: s\($0 + 1)}\n" }.joined() + "  s\(n): {left: 1}\n"
        let message = try quickly {
            try failure(["table.yaml": "stylesheet: s.yaml\nsections: [{cell: Default, rows: 1}]\n", "s.yaml": sheet])
        }
        #expect(
            message
                == "s.yaml:1002:3: more than 1,000 styles (the limit, DocumentLimits.styles, counts included files); remove some"
        )
    }

    @Test("a 1,000-style chain, the most allowed, is flattened iteratively, each style once")
    func chainAtLimit() throws {
        let n = DocumentLimits.styles - 1
        let sheet = "styles:\n" + (0..<n).map { "  s\($0): {extends: s\($0 + 1)}\n" }.joined() + "  s\(n): {left: 7}\n"
        let folder = try Render.write(
            ["table.yaml": "stylesheet: s.yaml\nsections: [{cell: Default, rows: 1}]\n", "s.yaml": sheet])
        let document = try quickly(.seconds(20)) { try TableDocument(contentsOf: folder + "/table.yaml") }
        #expect(document.stylesheet.styles.count == DocumentLimits.styles)
        #expect(document.stylesheet.styles["s0"]?.left == 7)
        let cycle = "styles:\n  a: {extends: b}\n  b: {extends: c}\n  c: {extends: b}\n"
        #expect(
            try failure(["table.yaml": "stylesheet: s.yaml\nsections: []\n", "s.yaml": cycle])
                == "s.yaml:3:16: style 'b' extends itself through b → c → b; break the cycle")
    }

    @Test("more sections than the limit are refused")
    func sections() throws {
        let table =
            "sections:\n" + String(repeating: "- {cell: Default, rows: 1}\n", count: DocumentLimits.sections + 1)
        #expect(
            try quickly { try failure(["table.yaml": table]) }
                == "table.yaml:10002:3: more than 10,000 sections (the limit, DocumentLimits.sections); merge sections, or stream rows from a file with rowsFrom"
        )
    }

    @Test("more inline rows than the limit are refused")
    func inlineRows() throws {
        let rows = "[" + Array(repeating: "a", count: DocumentLimits.inlineRows + 1).joined(separator: ",") + "]"
        #expect(
            try failure(["table.yaml": "sections:\n  - {cell: Default, rows: \(rows)}\n"])
                == "table.yaml:2:27: more than 50,000 rows written inline (the limit, DocumentLimits.inlineRows); stream them from a .jsonl or .csv file with rowsFrom"
        )
    }

    @Test("nesting, text size and file size are bounded")
    func sizes() throws {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(
            try failure(["table.yaml": "sections: \(deep)\n"])
                == "table.yaml:1:75: lists and mappings are nested more than 64 levels deep (the limit, DocumentLimits.depth); flatten the data"
        )
        // Block nesting, which libyaml composes (up to its own 1000 levels) before the walk bounds it.
        let block = "sections:\n" + (1...500).map { String(repeating: "  ", count: $0) + "-\n" }.joined()
        #expect(
            try failure(["table.yaml": block]).hasSuffix(
                "lists and mappings are nested more than 64 levels deep (the limit, DocumentLimits.depth); flatten the data"
            ))
        let block1000 = "sections:\n" + (1...1000).map { String(repeating: " ", count: $0) + "-\n" }.joined()
        #expect(
            try failure(["table.yaml": block1000]).hasSuffix(
                "lists and mappings are nested more than 64 levels deep (the limit, DocumentLimits.depth); flatten the data"
            ))
        let long = String(repeating: "x", count: DocumentLimits.textBytes + 1)
        #expect(
            try failure(["table.yaml": "title: \(long)\nsections: []\n"])
                == "table.yaml:1:8: a text longer than 64 KiB (the limit, DocumentLimits.textBytes); shorten it")
        let large = "sections: []\n" + String(repeating: "# padding\n", count: DocumentLimits.fileBytes / 10 + 1)
        #expect(
            try failure(["table.yaml": large])
                == "table.yaml:1:1: 'table.yaml' is larger than 1 MiB; split it, or stream rows from a .jsonl or .csv file with rowsFrom (the limit is DocumentLimits.fileBytes)"
                || (try failure(["table.yaml": large])).hasSuffix(
                    "is larger than 1 MiB; split it, or stream rows from a .jsonl or .csv file with rowsFrom (the limit is DocumentLimits.fileBytes)"
                ))
    }

    /// A section for a document that only tests its stylesheets.
    static let section = "sections:\n  - {cell: Default, rows: 1}\n"

    @Test("a document's stylesheets, listed and included, share one byte budget: one listed again and again fails fast")
    func stylesheetBytes() throws {
        // Just under 1 MiB, nearly all comment: cheap to parse, dear to read again and again.
        let sheet =
            "styles:\n  big: {left: 1}\n"
            + String(repeating: String(repeating: "#", count: 99) + "\n", count: DocumentLimits.fileBytes / 100 - 1)
        #expect(sheet.utf8.count <= DocumentLimits.fileBytes)
        let perFile = sheet.utf8.count, over = DocumentLimits.stylesheetBytes / perFile + 1
        let message =
            "the stylesheets of table.yaml (listed and included) come to more than 8 MiB (the limit, "
            + "DocumentLimits.stylesheetBytes, counts a file each time it is read); name each stylesheet once, or make "
            + "them smaller"
        // Listed 40 times, one a line: refused at the first file past 8 MiB, at its line.
        let block = "stylesheet:\n" + String(repeating: "  - s.yaml\n", count: 40) + Self.section
        let refused = try quickly(.seconds(10)) { try failure(["table.yaml": block, "s.yaml": sheet]) }
        // Required: before the fix this loaded (and 87,364 files below took hours).
        try #require(refused == "table.yaml:\(over + 1):5: " + message)
        // Listed 87,364 times (the most a 1 MiB document holds), it ran for hours: refused as fast.
        let flow = "stylesheet: [" + Array(repeating: "s.yaml", count: 87_364).joined(separator: ", ") + "]\n"
        let many = try quickly(.seconds(10)) {
            try failure(["table.yaml": flow + Self.section, "s.yaml": sheet], name: "stylesheetBytesMany")
        }
        #expect(many == "table.yaml:1:\(14 + 8 * (over - 1)): " + message)
        // An include counts as a listed file does: three listed, then six included by the fourth.
        let included = try failure(
            [
                "table.yaml": "stylesheet: [s.yaml, s.yaml, s.yaml, b.yaml]\n" + Self.section, "s.yaml": sheet,
                "b.yaml": "include: [s.yaml, s.yaml, s.yaml, s.yaml, s.yaml, s.yaml]\nstyles: {}\n",
            ], name: "stylesheetBytesIncluded")
        #expect(included.hasPrefix("b.yaml:1:") && included.hasSuffix(message), "\(included)")
    }

    @Test("a document's stylesheets, listed and included, share one file budget, counted before each is read")
    func stylesheetFiles() throws {
        let limit = DocumentLimits.stylesheetFiles
        let listed = "stylesheet:\n" + String(repeating: "  - s.yaml\n", count: limit + 50) + Self.section
        let message = try quickly(.seconds(10)) {
            try failure(["table.yaml": listed, "s.yaml": "styles:\n  s: {left: 1}\n"])
        }
        #expect(
            message
                == "table.yaml:\(limit + 2):5: the stylesheets of table.yaml (listed and included) are more than 256 files (the limit, DocumentLimits.stylesheetFiles, counts a file each time it is read); name each stylesheet once, or merge some"
        )
        // 200 listed files, each including another twice: the include past the limit (the 257th file) is
        // refused, naming the document.
        let mixed = "stylesheet:\n" + String(repeating: "  - a.yaml\n", count: 200) + Self.section
        let included = try failure([
            "table.yaml": mixed, "a.yaml": "include: [b.yaml, b.yaml]\nstyles: {}\n", "b.yaml": "styles: {}\n",
        ])
        #expect(
            included.hasPrefix(
                "a.yaml:1:11: the stylesheets of table.yaml (listed and included) are more than 256 files"),
            "\(included)")
        // At the limit, it loads.
        let most = "stylesheet:\n" + String(repeating: "  - s.yaml\n", count: limit) + Self.section
        #expect(try failure(["table.yaml": most, "s.yaml": "styles:\n  s: {left: 1}\n"]) == "no error")
    }

    @Test("CSV and JSON Lines files with CR-only line ends are read line by line")
    func crOnly() throws {
        let folder = try Render.write(
            [
                "table.yaml":
                    "sections:\n  - {cell: Default, rowsFrom: rows.csv}\n  - {cell: Default, rowsFrom: rows.jsonl}\n",
                "rows.csv": "text,detail\rone,1\r\"two\",2\rthree,3\r",
                "rows.jsonl": "{\"text\": \"a\"}\r{\"text\": \"b\"}",
            ])
        let table = try DocumentTable(try TableDocument(contentsOf: folder + "/table.yaml"), registry: Render.registry)
        #expect(try table.numberOfRows(inSection: 0) == 3)
        #expect(
            try table.row(at: IndexPath(section: 0, row: 2)).data
                == .object(["text": .string("three"), "detail": .string("3")]))
        #expect(try table.numberOfRows(inSection: 1) == 2)
        #expect(try table.row(at: IndexPath(section: 1, row: 1)).data == .object(["text": .string("b")]))
        // CRLF stays one line end.
        let crlf = try Render.write(
            [
                "table.yaml": "sections:\n  - {cell: Default, rowsFrom: rows.csv}\n",
                "rows.csv": "text\r\none\r\ntwo\r\n",
            ], name: "crlf")
        let lines = try DocumentTable(try TableDocument(contentsOf: crlf + "/table.yaml"), registry: Render.registry)
        #expect(try lines.numberOfRows(inSection: 0) == 2)
        #expect(try lines.row(at: IndexPath(section: 0, row: 1)).data == .object(["text": .string("two")]))
    }

    @Test("a duplicate CSV column is reported by position, without quoting the file")
    func duplicateColumn() throws {
        let folder = try Render.write(
            ["table.yaml": "sections:\n  - {cell: Default, rowsFrom: rows.csv}\n", "rows.csv": "text,secret,secret\n"])
        let table = try DocumentTable(try TableDocument(contentsOf: folder + "/table.yaml"), registry: Render.registry)
        do {
            _ = try table.numberOfRows(inSection: 0)
            _ = try table.row(at: IndexPath(section: 0, row: 0))
            Issue.record("no error")
        } catch {
            #expect(
                "\(error)".hasSuffix(
                    "rows.csv:1:1: the header names the same column twice (fields 2 and 3); give each column its own name"
                ))
        }
    }
}
