// The supervisor's own count of a job's rows (`RenderSupervisor.countRows`): a worker's "done" is
// taken only after as many, so it must agree with what the renderer draws for every kind of
// section and window.

import CellKitDocuments
import CellKitSupervision
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitRendering

@Suite("the supervisor counts a job's rows itself")
struct RowCountTests {
    /// A document with 3 inline rows, 5 counted rows and a data file of 4 records (a blank line
    /// aside).
    func document() throws -> String {
        let folder = try Render.write(
            [
                "t.yaml": """
                sections:
                  - rows:
                      - {cell: Default, text: a}
                      - {cell: Default, text: b}
                      - {cell: Default, text: c}
                  - cell: Default
                    rows: 5
                  - cell: Default
                    rowsFrom: rows.jsonl
                """,
                "rows.jsonl": "{\"text\":\"1\"}\n{\"text\":\"2\"}\n\n{\"text\":\"3\"}\n{\"text\":\"4\"}\n",
            ], name: "rowcount")
        return folder + "/t.yaml"
    }

    @Test("every section kind, whole and in windows, as the renderer draws them")
    func counts() throws {
        let path = try document()
        var render = DocumentRender(documentPath: path)
        #expect(RenderSupervisor.countRows(render.job, nil) == 12)
        for (first, last, expected) in [(0, 0, 1), (2, 6, 5), (7, 100, 5), (11, 11, 1), (12, 20, 0), (20, 30, 0)] {
            render.rows = RowWindow(first: first, last: last)
            #expect(RenderSupervisor.countRows(render.job, nil) == expected, "rows \(first)-\(last)")
            // What the renderer draws in that window, in this process: one JSON Lines object a row.
            render.format = .jsonl
            let sink = StringSink()
            _ = try render.runInProcess(to: sink)
            let text = String(decoding: sink.bytes, as: UTF8.self)
            let drawn = text.split(separator: "\n").filter { $0.hasPrefix("{\"index\":") }
            #expect(drawn.count == expected, "rows \(first)-\(last) drawn:\n\(text)")
        }
    }

    @Test("a document that cannot be read here, or from standard input, is not counted")
    func uncounted() throws {
        #expect(RenderSupervisor.countRows(DocumentRender(documentPath: "/nonexistent/t.yaml").job, nil) == nil)
        #expect(RenderSupervisor.countRows(DocumentRender(documentPath: "-").job, nil) == nil)
    }
}

@Suite("the supervisor's count made a slice at a time")
struct RowCountSliceTests {
    @Test("sliced at any size, the count is the whole count; an unreadable data file gives no count")
    func slices() throws {
        var lines = (0..<10_007).map { "{\"text\":\"\($0)\"}" }
        lines.insert("", at: 5_000)  // a blank line is no row
        let folder = try Render.write(
            [
                "t.yaml": """
                sections:
                  - rows:
                      - {cell: Default, text: a}
                  - cell: Default
                    rowsFrom: rows.jsonl
                  - cell: Default
                    rows: 3
                """,
                "rows.jsonl": lines.joined(separator: "\n") + "\n",
            ], name: "rowcount-slices")
        var render = DocumentRender(documentPath: folder + "/t.yaml")
        for window in [nil, RowWindow(first: 5, last: 10_009), RowWindow(first: 10_008, last: 20_000)] {
            if let window { render.rows = window }
            let whole = try #require(RenderSupervisor.countRows(render.job, nil))
            #expect(whole == (window == nil ? 10_011 : window!.first == 5 ? 10_005 : 3))
            for slice in [1, 7, 4_096, 100_000] {
                var count = try #require(RowCount(render.job, nil))
                var slices = 0
                while count.advance(records: slice) { slices += 1 }
                #expect(count.finish() == whole, "slice \(slice)")
                #expect(slices >= 10_008 / slice, "slice \(slice): counted in \(slices) slices")
            }
        }
        // Read when the render began, gone when the count reaches it.
        let document = try TableDocument(contentsOf: folder + "/t.yaml", root: nil)
        try FileManager.default.removeItem(atPath: folder + "/rows.jsonl")
        var count = try #require(RowCount(DocumentRender(documentPath: folder + "/t.yaml").job, document))
        #expect(count.finish() == nil)
    }
}
