// Rendering the seed tables and the showcase: text and JSON locked by
// golden files (Tests/CellKitRenderingTests/Golden, readable; CELLKIT_RECORD_GOLDEN=1 rewrites them), ANSI and HTML
// checked for what they must and must not contain; hostile data; atomic output.

import CellKitDocuments
import CellKitModel
import CellKitRuntime
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitRendering

@Suite("Rendering tables", .serialized)
struct RenderTests {
    static let tables = [
        "seed-004-foobar", "seed-003-projects", "seed-000-custom-drawn", "seed-002-contacts", "showcase",
    ]

    @Test("text output", arguments: tables)
    func text(_ name: String) throws {
        let (output, warnings) = try Render.table(Render.manifest(name + ".yaml"), .text)
        let mismatch = Golden.mismatch(output, file: "Tests/CellKitRenderingTests/Golden/text-\(name).txt")
        #expect(mismatch == nil, "\(mismatch ?? "")")
        #expect(warnings.isEmpty)
    }

    @Test("JSON output: the laid-out rows", arguments: tables)
    func json(_ name: String) throws {
        let (output, _) = try Render.table(Render.manifest(name + ".yaml"), .json)
        #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(output.utf8)) }
        let mismatch = Golden.mismatch(output, file: "Tests/CellKitRenderingTests/Golden/json-\(name).txt")
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }

    @Test("ANSI output colours and highlights; HTML is one standalone page", arguments: tables)
    func ansiAndHTML(_ name: String) throws {
        let ansi = try Render.table(Render.manifest(name + ".yaml"), .ansi).output
        #expect(ansi.contains("\u{1B}[0;"))
        // every line resets
        #expect(ansi.components(separatedBy: "\n").allSatisfy { $0.isEmpty || $0.hasSuffix("\u{1B}[0m") })
        let html = try Render.table(Render.manifest(name + ".yaml"), .html).output
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.hasSuffix("</main></body></html>\n"))
        #expect(!html.contains("src=\"/"))  // images are inlined, not linked to this machine's files
    }

    @Test("seed 004: Foobar rows are centred, blue and bold; Bar rows are not selectable")
    func seed004() throws {
        let json = try Render.table(Render.manifest("seed-004-foobar.yaml"), .json).output
        #expect(json.contains(##""alignment":"center","textColor":"#0000ffff","bold":true"##))
        #expect(json.contains(##""textColor":"#0000ffff""##))
        let selectedBar = try Render.table(
            Render.manifest("seed-004-foobar.yaml"), .text, selected: IndexPath(section: 1, row: 0)
        ).output
        #expect(!selectedBar.contains("┃"))  // selection style none: never drawn selected
        let selectedFoobar = try Render.table(
            Render.manifest("seed-004-foobar.yaml"), .text, selected: IndexPath(section: 0, row: 1)
        ).output
        #expect(selectedFoobar.contains("┃                    Row: 1                    ┃"))
    }

    @Test("seed 000: the selected row draws its selected background and highlighted text")
    func seed000Selection() throws {
        let ansi = try Render.table(Render.manifest("seed-000-custom-drawn.yaml"), .ansi).output
        let selectedLine = try #require(ansi.components(separatedBy: "\n").first { $0.contains("Cell at row 2.") })
        #expect(selectedLine.contains("48;2;126;36;24"))  // middleRowSelected's colour
        #expect(selectedLine.contains("38;2;255;255;230"))  // the label's highlighted text colour
    }

    @Test("--rows draws a window across sections")
    func window() throws {
        let text = try Render.table(
            Render.manifest("seed-004-foobar.yaml"), .text, window: RowWindow(first: 3, last: 4)
        ).output
        #expect(text.contains("Row: 3"))
        #expect(!text.contains("Row: 2"))
        #expect(text.contains("First bar"))
        #expect(!text.contains("Second bar"))
    }

    @Test("a selection or a window that names no row warns; one inside the table does not")
    func outside() throws {
        let path = Render.manifest("seed-004-foobar.yaml")
        let inside = try Render.table(
            path, .text, selected: CellKitModel.IndexPath(section: 1, row: 0), window: RowWindow(first: 3, last: 4))
        #expect(inside.warnings.isEmpty, "\(inside.warnings)")
        let outside = try Render.table(
            path, .text, selected: CellKitModel.IndexPath(section: 9, row: 9), window: RowWindow(first: 100, last: 200))
        #expect(!outside.output.contains("Row: "), "nothing drawn")
        #expect(
            outside.warnings == [
                "the selected row 10.10 (indexPath [9, 9]) is not in the table",
                // 4 Foobar, 3 Bar
                "rows 101..201 start past the table's last row (it has 7 rows): none drawn",
            ])
        let pastRows = try Render.table(path, .text, selected: CellKitModel.IndexPath(section: 0, row: 99)).warnings
        #expect(pastRows == ["the selected row 1.100 (indexPath [0, 99]) is not in the table"])
    }

    // MARK: Hostile input

    static let hostile = """
        title: "\\e]0;pwned\\a<script>alert(1)</script>"
        header: "\\e[2J cleared?"
        sections:
          - header: "\\u009b31m C1 CSI"
            rows:
              - {cell: Subtitle, text: "\\e[31mred\\e[0m and \\u202Eevil", detail: "<img src=x onerror=alert(1)> & \\"quotes\\""}
              - {cell: Default, text: "bell\\a tab\\t nul\\0 del\\x7F"}
        """

    @Test("no control character from a document reaches the terminal; HTML escapes everything")
    func hostileData() throws {
        let folder = try Render.write(["table.yaml": Self.hostile])
        for format in [Render.Format.text, .ansi, .json] {
            let output = try Render.table(folder + "/table.yaml", format, width: 60).output
            let withoutOurSGR = output.replacingOccurrences(
                of: #"\u{1B}\[[0-9;]*m"#, with: "", options: .regularExpression)
            #expect(
                !withoutOurSGR.unicodeScalars.contains {
                    $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}"
                }, "\(format)")
        }
        let text = try Render.table(folder + "/table.yaml", .text, width: 60).output
        #expect(text.contains("␛[31mred␛[0m"))
        let html = try Render.table(folder + "/table.yaml", .html, width: 60).output
        #expect(!html.contains("<script>") && !html.contains("<img src=x"))
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;"))
    }

    @Test("a missing image draws a placeholder and warns")
    func missingImage() throws {
        let folder = try Render.write([
            "table.yaml": "sections:\n  - rows:\n      - {cell: Default, text: x, image: nowhere}\n"
        ])
        let (text, warnings) = try Render.table(folder + "/table.yaml", .text, width: 30)
        #expect(text.contains("▢ x"))
        #expect(
            warnings == [
                "image 'nowhere' is not in the asset catalog (the table names none: add 'assets:'); drawn as ▢"
            ])
    }

    @Test("an unknown style applied by a hook warns once, and the row still draws")
    func unknownStyle() throws {
        let folder = try Render.write([
            "table.yaml": "stylesheet: s.yaml\nsections:\n  - {cell: Project, rows: [{project: P}, {project: Q}]}\n",
            "s.yaml": "styles:\n  title: {frame: [1, 0, 10, 1]}\n",
        ])
        let (text, warnings) = try Render.table(folder + "/table.yaml", .text, width: 30)
        #expect(text.contains(" P "))
        // icon, description, logo1, logo2: each once although two rows ran the hook; then the hook's
        // failed host calls (view_apply_style), in one line, as `cellkit render` prints them.
        #expect(warnings.count == 5, "\(warnings)")
        #expect(warnings.last?.contains("host calls failed; the first: view_apply_style") == true, "\(warnings)")
        #expect(warnings.first?.hasPrefix("Project: no style 'icon' in ") == true)
    }

    // MARK: Data sources

    @Test(
        "an embedding program's own data source draws what the document it copies draws; rows read in place match rows read anew"
    )
    func ownDataSource() throws {
        let rows = (0..<7).map { n in
            [
                #"{"cell":"Bar","title":"Row \#(n): 日本語 ✓"}"#, #"{"cell":"Foobar","n":\#(n)}"#,
                #"{"cell":"Subtitle","text":"Plain \#(n)","detail":"built in"}"#,
            ][n % 3]
        }
        let folder = try Render.write([
            "t.yaml": "style: grouped\nsections:\n  - rowsFrom: rows.jsonl\n",
            "rows.jsonl": rows.joined(separator: "\n"),
        ])
        let document = try TableDocument(contentsOf: folder + "/t.yaml")
        let streamed = try DocumentTable(document, registry: Render.registry)
        let count = try streamed.numberOfRows(inSection: 0)
        let copied = ArrayTable(
            info: streamed.tableInfo, section: streamed.sectionInfo(0),
            rows: try (0..<count).map {
                try DocumentTable(document, registry: Render.registry).row(at: IndexPath(section: 0, row: $0))
            })
        // One row value reused for every row, as the renderer reads them, against fresh rows.
        var reused = TableRow(identifier: "")
        for r in 0..<count {
            try streamed.row(at: IndexPath(section: 0, row: r), into: &reused)
            #expect(reused.identifier == copied.rows[r].identifier)
            #expect(reused.data == copied.rows[r].data)
            #expect(reused.mark == copied.rows[r].mark)
            #expect(reused.mark?.line == r + 1)
        }
        func render(_ source: TableDataSource) throws -> String {
            let renderer = TableRenderer(
                queue: CellQueue(registry: Render.registry), layout: CellLayout(assets: document.assets), width: 60)
            let sink = StringSink()
            let out = OutputBuffer(sink)
            var format = JSONFormat()
            try renderer.render(source, delegate: nil, format: &format, to: out)
            try out.flush()
            return sink.text
        }
        let fromDocument = try render(DocumentTable(document, registry: Render.registry))
        #expect(fromDocument.contains("Row 6: 日本語 ✓") && fromDocument.contains("Plain 5"))
        #expect(try render(copied) == fromDocument)
    }

    // MARK: Output files

    @Test("a file is written whole or not at all")
    func atomicOutput() throws {
        let folder = try Fixtures.folder()
        let path = folder + "/out.txt"
        try "previous".write(toFile: path, atomically: true, encoding: .utf8)
        let failed = try AtomicFileSink(path: path)
        let half = OutputBuffer(failed)
        half.write("half a table")
        try half.flush()
        failed.abort()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "previous")
        let sink = try AtomicFileSink(path: path)
        let out = OutputBuffer(sink)
        out.write("the whole table\n")
        try out.flush()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "previous")  // not until commit
        try sink.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "the whole table\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.txt"])  // no temporary left
    }
}

/// A data source an embedding program might write: rows in an array, only `row(at:)`.
private final class ArrayTable: TableDataSource {
    let tableInfo: TableInfo
    let section: SectionInfo
    let rows: [TableRow]

    init(info: TableInfo, section: SectionInfo, rows: [TableRow]) {
        (tableInfo, self.section, self.rows) = (info, section, rows)
    }

    func numberOfSections() -> Int { 1 }
    func sectionInfo(_ section: Int) -> SectionInfo { self.section }
    func numberOfRows(inSection section: Int) throws -> Int { rows.count }
    func row(at indexPath: CellKitModel.IndexPath) throws -> TableRow { rows[indexPath.row] }
}
