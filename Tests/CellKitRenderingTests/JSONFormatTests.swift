// The versioned JSON (`cellkit.render`, version 1) and JSON Lines: every bundled table
// validated against the schema shipped in Schemas/ by a real validator (Python's
// jsonschema; CI installs it and sets CELLKIT_REQUIRE_JSONSCHEMA=1, so a missing one fails
// there), the schema shown to reject broken documents, escaping, the window, line counts.

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitRendering

@Suite("JSON output: version 1, its schema, JSON Lines")
struct JSONFormatTests {
    /// Every table under Manifests/Tables.
    static let tables =
        (try? FileManager.default.contentsOfDirectory(atPath: Render.root + "/Manifests/Tables"))?
        .filter { $0.hasSuffix(".yaml") }.sorted() ?? []

    /// CI installs jsonschema and sets this: a missing validator fails there instead of skipping.
    static let required = ProcessInfo.processInfo.environment["CELLKIT_REQUIRE_JSONSCHEMA"] == "1"

    /// The Python with jsonschema: .ci/run's virtual environment under .build, else python3 on the path.
    static let python: String? = {
        let venv = Render.root + "/.build/jsonschema-venv/bin/python3"
        for candidate in [venv, Fixtures.tool("python3")].compactMap({ $0 }) {
            if let result = try? Fixtures.execute(candidate, ["-c", "import jsonschema"]), result.status == 0 {
                return candidate
            }
        }
        return nil
    }()

    static var validatorAvailable: Bool { required || python != nil }

    /// Runs Scripts/check-json-schema.py on `files`; its exit status and output.
    func validate(_ arguments: [String]) throws -> (Int32, String) {
        let python = try #require(
            Self.python, "the Python package jsonschema is missing: pip install jsonschema (.ci/run installs it)")
        let result = try Fixtures.execute(python, [Render.root + "/Scripts/check-json-schema.py"] + arguments)
        return (result.status, result.output + result.errors)
    }

    /// Renders `table` as `format` into a file of the folder; its path.
    func write(_ table: String, _ format: Render.Format, into folder: String, window: RowWindow? = nil) throws
        -> String
    {
        let output = try Render.table(Render.manifest(table), format, window: window).output
        let path = folder + "/" + table.replacingOccurrences(of: ".yaml", with: "") + "." + format.rawValue
        try output.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(
        "every bundled table's json and jsonl (whole, and a window) is valid against the schema",
        .enabled(if: validatorAvailable, "the Python package jsonschema is missing (pip install jsonschema)"))
    func schemaValidatesBundledTables() throws {
        #expect(Self.tables.count >= 5, "\(Self.tables)")
        let folder = try Fixtures.folder()
        var files: [String] = []
        for table in Self.tables {
            files.append(try write(table, .json, into: folder))
            files.append(try write(table, .jsonl, into: folder))
            let windowed = try Fixtures.folder(table + "window")
            files.append(try write(table, .json, into: windowed, window: RowWindow(first: 1, last: 2)))
            files.append(try write(table, .jsonl, into: windowed, window: RowWindow(first: 1, last: 2)))
        }
        let (status, output) = try validate(files)
        #expect(status == 0, "\(output)")
        #expect(output.components(separatedBy: ": valid\n").count - 1 == files.count, "\(output)")
    }

    @Test("the schema names exactly the accessories and selection styles the model has")
    func schemaEnumerations() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Render.root + "/Schemas/cellkit-render-1.schema.json"))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let row = try #require((schema["$defs"] as? [String: Any])?["row"] as? [String: Any])
        let properties = try #require(row["properties"] as? [String: Any])
        func names(_ key: String) -> [String]? { (properties[key] as? [String: Any])?["enum"] as? [String] }
        #expect(names("accessory") == AccessoryType.allCases.map { "\($0)" } + ["view"])
        #expect(names("selectionStyle") == SelectionStyle.allCases.map { "\($0)" })
    }

    @Test(
        "the schema rejects broken documents: the check can fail",
        .enabled(if: validatorAvailable, "the Python package jsonschema is missing (pip install jsonschema)"))
    func schemaRejectsBroken() throws {
        let (selfTest, selfOutput) = try validate(["--self-test"])
        #expect(selfTest == 0, "\(selfOutput)")
        let folder = try Fixtures.folder()
        let good = try Render.table(Render.manifest("showcase.yaml"), .json).output
        let broken = [
            good.replacingOccurrences(of: "\"version\":1", with: "\"version\":\"1\""),
            good.replacingOccurrences(of: "\"position\":\"top\"", with: "\"position\":\"first\""),
            good.replacingOccurrences(of: ",\"selected\":false", with: ""),
            good.replacingOccurrences(of: "\"units\":{", with: "\"unit\":{"),
        ]
        for (k, text) in broken.enumerated() {
            #expect(text != good, "mutation \(k) changed nothing")
            let path = folder + "/broken-\(k).json"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let (status, output) = try validate([path])
            #expect(status == 1, "mutation \(k) accepted: \(output)")
        }
    }

    /// A table whose texts hold control characters, invisible and bidi characters, and non-BMP text.
    static let hostile = """
        title: "t\\e]0;x\\a"
        sections:
          - header: "h\\u2028"
            rows:
              - {cell: Subtitle, text: "a\\"b\\\\c\\u0001\\u007F\\u0085 \\u202Eevil\\u2066 soft\\u00ADhy", detail: "😀 𝄞 日本 \\u200B"}
              - {cell: Default, text: "tab\\tnl\\nend"}
        """

    @Test("escaping: control, C1, invisible and bidi characters as \\u escapes, non-BMP text as UTF-8; raw text kept")
    func escaping() throws {
        let folder = try Render.write(["t.yaml": Self.hostile])
        for format in [Render.Format.json, .jsonl] {
            let output = try Render.table(folder + "/t.yaml", format, width: 60).output
            #expect(
                !output.unicodeScalars.contains {
                    ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}"
                        || $0 == "\u{2066}" || $0 == "\u{AD}" || $0 == "\u{200B}" || $0 == "\u{2028}"
                }, "\(format): nothing raw")
            #expect(output.contains("😀 𝄞 日本 \\u200b"), "\(format): non-BMP as UTF-8, ZWSP escaped")
            #expect(output.contains(#"a\"b\\c\u0001\u007f\u0085 \u202eevil\u2066 soft\u00adhy"#), "\(format)")
            #expect(output.contains(#""text":"tab\tnl\nend""#), "\(format)")
            let rows = try Self.rows(output, format)
            let texts = rows.flatMap { ($0["views"] as! [[String: Any]]).compactMap { $0["text"] as? String } }
            #expect(
                texts == [
                    "a\"b\\c\u{01}\u{7F}\u{85} \u{202E}evil\u{2066} soft\u{AD}hy", "😀 𝄞 日本 \u{200B}", "tab\tnl\nend",
                ], "\(format): the raw texts come back as they were set")
        }
    }

    @Test("the byte escaper agrees with JSONSerialization on random text, chunk boundaries included")
    func escaperRoundTrip() throws {
        var random = SplitMix64(seed: 26)
        let pieces = [
            "a", " ", "\"", "\\", "\n", "\u{01}", "\u{7F}", "\u{85}", "é", "日", "😀", "\u{202E}", "\u{2028}", "\u{AD}",
            "abcdefgh", "\u{FEFF}", "👨‍👩‍👧",
        ]
        for _ in 0..<300 {
            let count = Int(random.next() % 1500)
            let text = (0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            let sink = StringSink()
            let out = OutputBuffer(sink)
            out.jsonString(text)
            try out.flush()
            let decoded = try JSONSerialization.jsonObject(with: Data(sink.text.utf8), options: .fragmentsAllowed)
            #expect(decoded as? String == text)
        }
    }

    @Test("--rows: the window asked for, the rows drawn and the table's total; each row's index across sections")
    func window() throws {
        let output = try Render.table(
            Render.manifest("showcase.yaml"), .json, window: RowWindow(first: 3, last: 6)
        ).output
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(document["format"] as? String == "cellkit.render")
        #expect(document["version"] as? Int == 1)
        let window = try #require(document["window"] as? [String: Any])
        #expect(window["first"] as? Int == 3 && window["last"] as? Int == 6 && window["drawn"] as? Int == 4)
        let whole = try Self.rows(try Render.table(Render.manifest("showcase.yaml"), .json).output, .json)
        #expect(window["total"] as? Int == whole.count)
        let rows = try Self.rows(output, .json)
        #expect(rows.map { $0["index"] as? Int } == [3, 4, 5, 6])
        let open = try Render.table(Render.manifest("showcase.yaml"), .jsonl, window: RowWindow(first: 2)).output
        let header = try #require(
            try JSONSerialization.jsonObject(with: Data(open.prefix { $0 != "\n" }.utf8)) as? [String: Any])
        #expect(header["stream"] as? String == "jsonl")
        #expect((header["window"] as? [String: Any])?["last"] is NSNull, "an open end is null")
    }

    @Test("jsonl: one line per row plus the header, each line a whole JSON object", arguments: tables)
    func jsonLines(_ table: String) throws {
        let output = try Render.table(Render.manifest(table), .jsonl).output
        #expect(output.hasSuffix("\n"))
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let rows = try Self.rows(try Render.table(Render.manifest(table), .json).output, .json)
        #expect(lines.count == rows.count + 1, "\(table)")
        let document =
            try JSONSerialization.jsonObject(
                with: Data(try Render.table(Render.manifest(table), .json).output.utf8)) as! [String: Any]
        let withTexts = (document["sections"] as! [[String: Any]]).filter {
            ($0["header"] != nil || $0["footer"] != nil) && !($0["rows"] as! [Any]).isEmpty
        }
        #expect(
            lines.filter { $0.contains("\"sectionTexts\":") }.count == withTexts.count,
            "\(table): a section's texts on its first row")
        for line in lines { #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(line.utf8)) } }
    }

    @Test("jsonl: a section with texts and no rows keeps its header and footer, on a line of its own")
    func emptySectionLine() throws {
        let folder = try Fixtures.folder()
        let path = folder + "/table.yaml"
        try """
        sections:
          - header: First
            footer: Nothing here
            rows: []
          - rows: []
          - header: Second
            rows: [{cell: Default, text: a}]
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let lines = try Render.table(path, .jsonl).output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(lines)")
        #expect(lines[1] == #"{"emptySection":{"index":0,"header":"First","footer":"Nothing here"}}"#)
        #expect(lines[2].contains(#""sectionTexts":{"header":"Second"}"#))
        if Self.validatorAvailable {
            let stream = lines.joined(separator: "\n") + "\n"
            try stream.write(toFile: folder + "/t.jsonl", atomically: true, encoding: .utf8)
            let (status, output) = try validate([folder + "/t.jsonl"])
            #expect(status == 0, "\(output)")
        }
    }

    @Test("accessory and selection as names; a selected row says so")
    func names() throws {
        let output = try Render.table(
            Render.manifest("showcase.yaml"), .json, selected: IndexPath(section: 0, row: 1)
        ).output
        let rows = try Self.rows(output, .json)
        #expect(rows[0]["accessory"] as? String == "disclosureIndicator")
        #expect(rows[2]["accessory"] as? String == "checkmark")
        #expect(rows[1]["selected"] as? Bool == true && rows[0]["selected"] as? Bool == false)
        #expect(rows.allSatisfy { ["none", "blue", "gray", "default"].contains($0["selectionStyle"] as? String) })
    }

    /// The row objects of a `json` document or `jsonl` stream.
    static func rows(_ output: String, _ format: Render.Format) throws -> [[String: Any]] {
        if format == .jsonl {
            return try output.split(separator: "\n").dropFirst().map {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
            }
        }
        let document = try JSONSerialization.jsonObject(with: Data(output.utf8)) as! [String: Any]
        return (document["sections"] as! [[String: Any]]).flatMap { $0["rows"] as! [[String: Any]] }
    }
}
