// Table documents, stylesheets, asset catalogs and data files: what loads, and
// the file:line:column error for each kind of mistake.

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDocuments
@testable import CellKitRendering

@Suite("Table documents")
struct DocumentTests {
    /// Loads `yaml` as table.yaml in a new folder (with `files` beside it) and opens it as a table.
    func open(_ yaml: String, files: [String: String] = [:], name: String = #function) throws -> DocumentTable {
        let folder = try Render.write(files.merging(["table.yaml": yaml]) { a, _ in a }, name: name)
        return try DocumentTable(try TableDocument(contentsOf: folder + "/table.yaml"), registry: Render.registry)
    }

    /// The error opening `yaml` throws, as text with the folder cut off.
    func failure(_ yaml: String, files: [String: String] = [:], name: String = #function) -> String {
        do {
            _ = try open(yaml, files: files, name: name)
            return "no error"
        } catch {
            let text = "\(error)"
            guard let cut = text.range(of: "table.yaml") ?? text.range(of: "/rows.") ?? text.range(of: "/styles.yaml")
            else { return text }
            return String(text[cut.lowerBound...]).replacingOccurrences(of: "/rows.", with: "rows.")
                .replacingOccurrences(of: "/styles.", with: "styles.")
        }
    }

    @Test(
        "the seed tables and the showcase load",
        arguments: [
            "seed-004-foobar.yaml", "seed-003-projects.yaml", "seed-000-custom-drawn.yaml", "seed-002-contacts.yaml",
            "showcase.yaml",
        ])
    func manifestsLoad(_ name: String) throws {
        let table = try DocumentTable(try TableDocument(contentsOf: Render.manifest(name)), registry: Render.registry)
        #expect(table.numberOfSections() > 0)
    }

    @Test("JSON documents load like YAML")
    func json() throws {
        let table = try open(
            #"{"title": "J", "style": "plain", "sections": [{"cell": "Default", "rows": [{"text": "a"}, "b"]}]}"#)
        #expect(table.tableInfo.style == .plain)
        #expect(try table.numberOfRows(inSection: 0) == 2)
        #expect(try table.row(at: IndexPath(section: 0, row: 1)).data == .object(["text": .string("b")]))
    }

    @Test("mistakes are reported at their line and column")
    func errors() {
        #expect(
            failure("sections:\n  - cell: Default\n    rows: 2\n    colour: red\n")
                == "table.yaml:4:5: unknown key 'colour' in a section. Keys: header, footer, cell, style, selectable, rowHeight, direction, rows, rowsFrom"
        )
        #expect(
            failure("stlye: plain\nsections: []\n").hasPrefix(
                "table.yaml:1:1: unknown key 'stlye' in the table. Did you mean 'style'?"))
        #expect(
            failure("style: round\nsections:\n  - {cell: Default, rows: 1}\n")
                == "table.yaml:1:8: 'round' is not one of: plain, grouped, insetGrouped")
        #expect(
            failure("width: wide\nsections:\n  - {cell: Default, rows: 1}\n")
                == "table.yaml:1:8: expected a whole number, found 'wide'")
        #expect(
            failure("sections:\n  - rows: 1\n")
                == "table.yaml:2:5: the row names no cell type; give it 'cell: IDENTIFIER', or give its section a 'cell:' for all its rows"
        )
        #expect(failure("sections:\n  - {cell: Default, rows: [a: 1\n").hasPrefix("table.yaml:3:1: YAML syntax:"))
        #expect(failure("title: t\n") == "table.yaml:1:1: the table has no 'sections'; add a list of sections")
    }

    @Test("an unknown identifier names the nearest one and where the list comes from")
    func unknownIdentifier() {
        let message = failure("sections:\n  - rows:\n      - {cell: Foobr}\n")
        #expect(
            message.hasPrefix(
                "table.yaml:3:9: no usable plugin provides cell identifier 'Foobr'. Did you mean 'Foobar'? Searched: "))
        #expect(message.hasSuffix("Run `cellkit list` to see what is registered."))
    }

    @Test("stylesheets: extends is flattened; a cycle or an unknown parent is an error")
    func stylesheets() throws {
        let sheet = "styles:\n  logo: {left: 40, width: 3, height: 1}\n  logo1: {extends: logo, top: 0}\n"
        let table = try open(
            "stylesheet: styles.yaml\nsections:\n  - {cell: Default, rows: 1}\n", files: ["styles.yaml": sheet])
        #expect(table.document.stylesheet.styles["logo1"]?.left == 40)
        #expect(table.document.stylesheet.styles["logo1"]?.top == 0)
        let cycle = "styles:\n  a: {extends: b}\n  b: {extends: c}\n  c: {extends: a}\n"
        #expect(
            failure("stylesheet: styles.yaml\nsections: []\n", files: ["styles.yaml": cycle])
                == "styles.yaml:2:16: style 'a' extends itself through a → b → c → a; break the cycle")
        let unknown = "styles:\n  a: {extends: nowhere}\n"
        #expect(
            failure("stylesheet: styles.yaml\nsections: []\n", files: ["styles.yaml": unknown])
                == "styles.yaml:2:16: style 'a' extends 'nowhere', which the stylesheet does not define; styles: a")
    }

    @Test("stylesheets include others: included first, a later style replaces, extends reaches across files")
    func stylesheetIncludes() throws {
        let files = [
            "styles.yaml":
                "include: [common/base.yaml]\nstyles:\n  title: {extends: base, top: 1}\n  shared: {left: 9}\n",
            "common/base.yaml": "include: colors.yaml\nstyles:\n  base: {left: 2}\n  shared: {left: 1}\n",
            "common/colors.yaml": "styles:\n  red: {textColor: '#FF0000'}\n",
        ]
        let table = try open("stylesheet: styles.yaml\nsections:\n  - {cell: Default, rows: 1}\n", files: files)
        let styles = table.document.stylesheet.styles
        #expect(styles["title"]?.left == 2 && styles["title"]?.top == 1)
        #expect(styles["shared"]?.left == 9)  // the including file's own style wins
        #expect(styles["red"] != nil)  // two levels down, read from the included file's folder
        // A document may also name several stylesheets, read in order.
        let listed = try open(
            "stylesheet: [common/colors.yaml, styles.yaml]\nsections:\n  - {cell: Default, rows: 1}\n", files: files)
        #expect(listed.document.stylesheet.styles["title"]?.left == 2)

        // Errors name the including file and the include; paths as the document's folder shows them.
        func failing(_ files: [String: String], name: String) throws -> String {
            let folder = try Render.write(
                files.merging(["table.yaml": "stylesheet: a.yaml\nsections: []\n"]) { a, _ in a }, name: name)
            do { _ = try TableDocument(contentsOf: folder + "/table.yaml") } catch {
                return "\(error)".replacingOccurrences(of: folder + "/", with: "")
            }
            return "no error"
        }
        let loop = ["a.yaml": "include: b.yaml\nstyles: {}\n", "b.yaml": "include: [a.yaml]\n"]
        #expect(
            try failing(loop, name: "includeLoop")
                == "b.yaml:1:11: the stylesheet includes itself through a.yaml → b.yaml → a.yaml; remove one include")
        let missing = try failing(["a.yaml": "include: [nope.yaml]\n"], name: "includeMissing")
        #expect(missing.hasPrefix("a.yaml:1:11: ") && missing.contains("nope.yaml"), "\(missing)")
        let outside = try failing(["a.yaml": "include: ../../etc/passwd\n"], name: "includeOutside")
        #expect(outside.hasPrefix("a.yaml:1:10: ") && outside.contains("outside"), "\(outside)")
    }

    @Test("a duplicate key is reported where it is written again, naming the first")
    func duplicateKeyPlace() throws {
        #expect(
            failure("title: a\nsections: []\ntitle: b\n")
                == "table.yaml:3:1: duplicate key title (first at 1:1); each key may appear once")
        #expect(
            failure("sections:\n  - header: x\n    cell: Default\n    header: y\n    rows: 1\n")
                == "table.yaml:4:5: duplicate key header (first at 2:5); each key may appear once")
        #expect(
            failure("sections:\n  - {cell: Default, rows: 1, cell: Other}\n")
                == "table.yaml:2:30: duplicate key cell (first at 2:6); each key may appear once")
    }

    @Test("JSON Lines rows stream; a bad line is reported at its line and column")
    func jsonLines() throws {
        let rows = (0..<50).map { #"{"cell": "Default", "text": "row \#($0)"}"# }.joined(separator: "\n") + "\n\n"
        let table = try open("sections:\n  - rowsFrom: rows.jsonl\n", files: ["rows.jsonl": rows])
        #expect(try table.numberOfRows(inSection: 0) == 50)
        #expect(try table.row(at: IndexPath(section: 0, row: 7)).data == .object(["text": .string("row 7")]))
        // backwards: reopened
        #expect(try table.row(at: IndexPath(section: 0, row: 3)).data == .object(["text": .string("row 3")]))

        let broken = try open(
            "sections:\n  - rowsFrom: rows.jsonl\n",
            files: ["rows.jsonl": "{\"cell\": \"Default\"}\n{\"cell\": \"Default\", \"text\": tru}\n"])
        #expect(throws: DocumentError.self) { try broken.row(at: IndexPath(section: 0, row: 1)) }
        do { _ = try broken.row(at: IndexPath(section: 0, row: 1)) } catch {
            #expect("\(error)".hasSuffix("rows.jsonl:2:29: JSON: expected true"))
        }
    }

    @Test("A JSON Lines row is decoded key by key, with the meaning of the whole decoded row")
    func jsonLinesLazy() throws {
        let line =
            #"{"text": "a", "cell": "Default", "nested": {"list": [1, {"k": "v"}], "": true}, "e\u0073c": "x", "text": "b"}"#
        let table = try open("sections:\n  - rowsFrom: rows.jsonl\n", files: ["rows.jsonl": line + "\n"])
        let row = try table.row(at: IndexPath(section: 0, row: 0))
        #expect(row.identifier == "Default")
        let nested = RowValue.object(["list": .list([.number(1), .object(["k": .string("v")])]), "": .bool(true)])
        #expect(
            row.data == .object(["text": .string("b"), "nested": nested, "esc": .string("x")]),
            "the last duplicate wins; no \"cell\"")
        let expected: [(String, RowValue?)] = [
            ("text", .string("b")), ("esc", .string("x")), ("cell", nil), ("nested.list.0", .number(1)),
            ("nested.list.1.k", .string("v")), ("nested.list.2", nil), ("nested.list.-1", nil),
            ("nested.", .bool(true)),
            ("nested.list.x", nil), ("text.0", nil), ("missing", nil), ("", row.data),
        ]
        for (path, value) in expected {
            #expect(row.rowData.value(at: path) == value, "at '\(path)'")
            #expect(
                row.rowData.value(at: path) == row.data.value(at: path),
                "the lazy and the decoded row agree at '\(path)'")
        }
    }

    @Test(
        "Strings are scanned eight bytes at a time; a quote, backslash or control byte anywhere ends the run",
        arguments: 0..<20)
    func stringRuns(position: Int) throws {
        let head = String(repeating: "a", count: position), tail = String(repeating: "é", count: 5)
        for (written, meant) in [(#"\""#, "\""), (#"\\"#, "\\"), (#"\u00e9"#, "é"), ("日", "日")] {
            let text = head + written + tail
            let bytes = Array(#"{"k": ""#.utf8) + Array(text.utf8) + Array(#""}"#.utf8)
            let value = bytes.withUnsafeBufferPointer { buffer -> RowValue? in
                var parser = JSONValueParser(buffer)
                return try? parser.parseDocument()
            }
            #expect(value == .object(["k": .string(head + meant + tail)]), "\(written) at \(position)")
        }
        let control = Array((#"{"k": ""# + head).utf8) + [0x01] + Array(#"x"}"#.utf8)
        let error = control.withUnsafeBufferPointer { buffer -> JSONSyntaxError? in
            var parser = JSONValueParser(buffer)
            do throws(JSONSyntaxError) { _ = try parser.parseDocument(build: false); return nil } catch { return error }
        }
        #expect(error?.offset == 7 + position, "a raw control byte is reported where it is")
    }

    @Test("A quoted key equals a name exactly when it decodes to it, escapes or not, whatever the lengths")
    func keyEquality() {
        let quotedKeys = [
            #""title""#, #""titl\u0065""#, #""ti\tle""#, #""""#, #""a\\b""#, #""a\b""#, #""\u0061""#, #""t""#,
            #""日本""#, #""\u65e5\u672c""#, #""a\"b""#,
        ]
        let names = ["title", "ti\tle", #"ti\tle"#, "", #"a\\b"#, #"a\b"#, "a", "t", "日本", #"a"b"#, "titles", "titlf"]
        for quoted in quotedKeys {
            let bytes = Array(quoted.utf8)
            let decoded = bytes.withUnsafeBufferPointer { buffer -> String? in
                var parser = JSONValueParser(buffer)
                guard case .string(let s)? = try? parser.parseDocument() else { return nil }
                return s
            }
            #expect(decoded != nil, "\(quoted) is a JSON text")
            for name in names {
                let equal = bytes.withUnsafeBufferPointer { JSONValueParser.key($0, equals: Array(name.utf8)) }
                #expect(equal == (decoded == name), "\(quoted) against \(name)")
            }
        }
    }

    @Test("Checking a line (as JSON Lines rows are) and decoding it accept the same texts and fail at the same place")
    func checkingAgreesWithDecoding() {
        let texts = [
            #"{"cell":"Bar","title":"Row 1: 日本語 ✓","n":-1.5e3,"ok":[true,false,null],"o":{"a":{"b":[]}}}"#,
            #"{"k":"a\u00e9\n\"q\"","\u0063ell":"X"}"#, "[1, 2, [3, {}]]", #""just text""#, "42", " null ",
            #"{"k" "v"}"#, #"{"k":}"#, #"{"k":"v",}"#, #"{"k":"v""#, "[1 2]", "[1,]", #"{"k":"a\x"}"#,
            #"{"k":"a\u12"}"#,
            "{\"k\":\"a\u{01}b\"}", #"{"k":tru}"#, "-", "01x", #"{"k":"v"} x"#, "", String(repeating: "[", count: 70),
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            func run(build: Bool) -> String {
                bytes.withUnsafeBufferPointer { buffer in
                    var parser = JSONValueParser(buffer)
                    do throws(JSONSyntaxError) { _ = try parser.parseDocument(build: build); return "ok" } catch {
                        return "\(error.offset): \(error.message)"
                    }
                }
            }
            #expect(run(build: false) == run(build: true), "\(text)")
        }
    }

    @Test("CSV rows: a header, quoted fields with commas, quotes and newlines")
    func csv() throws {
        let csv = "cell,text,detail\nSubtitle,\"Hello, world\",\"two\nlines\"\nValue1,\"say \"\"hi\"\"\",x\n"
        let table = try open("sections:\n  - rowsFrom: rows.csv\n", files: ["rows.csv": csv])
        #expect(try table.numberOfRows(inSection: 0) == 2)
        let first = try table.row(at: IndexPath(section: 0, row: 0))
        #expect(first.identifier == "Subtitle")
        #expect(first.data == .object(["text": .string("Hello, world"), "detail": .string("two\nlines")]))
        #expect(
            try table.row(at: IndexPath(section: 0, row: 1)).data
                == .object(["text": .string("say \"hi\""), "detail": .string("x")]))
        let short = try open("sections:\n  - rowsFrom: rows.csv\n", files: ["rows.csv": "cell,text\nDefault\n"])
        do { _ = try short.row(at: IndexPath(section: 0, row: 0)); Issue.record("no error") } catch {
            #expect(
                "\(error)".hasSuffix(
                    "rows.csv:2:1: the record has 1 fields, the header has 2; quote fields that contain commas"))
        }
    }

    @Test("a missing data file or a wrong extension is an error at the rowsFrom line")
    func missingDataFile() {
        #expect(
            failure("sections:\n  - {cell: Default, rowsFrom: rows.txt}\n")
                == "table.yaml:2:31: 'rows.txt' is not a .jsonl, .ndjson or .csv file; rows stream from JSON Lines or CSV"
        )
        // Checked when the document loads, not when the rows are first counted.
        #expect(
            failure("sections:\n  - {cell: Default, rowsFrom: nothere.jsonl}\n").hasPrefix(
                "table.yaml:2:31: 'nothere.jsonl' does not exist (looked for /"))
    }
}
