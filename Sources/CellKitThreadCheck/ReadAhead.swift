// The read-ahead ring (CellKitDocuments' RowReader) under ThreadSanitizer: a long
// JSON Lines file read by a helper thread a few batches ahead of this one, checked
// row by row against the same file read on this thread alone, and readers dropped
// early (before, within and after the ring first filled) so the helper is woken,
// stopped and joined at every point. The helper marks itself for crash attribution
// (HelperThreads) as in a render worker, and works out the lines of the "text"
// member a layout asks for (LinePlan), which must be what TextLayout gives here.

import CellKitDocuments
import CellKitModel
import CellKitRuntime
import CellKitText
import Foundation

/// Failures of the read-ahead check over a file of `rows` rows (at least 5,000, so the ring wraps).
func checkReadAhead(rows requested: Int) -> [String] {
    let rows = max(requested, 5_000)
    let folder = NSTemporaryDirectory() + "cellkit-threadcheck-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let lines = (0..<rows).map { n in
            #"{"cell":"Cell\#(n % 20)","n":\#(n),"text":"item \#(n) 日本語 well-known","note":"\"quoted\"","list":[1,{"a":null}]}"#
                + "\n"
        }
        try lines.joined().write(toFile: folder + "/rows.jsonl", atomically: true, encoding: .utf8)
        try "sections:\n  - rowsFrom: rows.jsonl\n".write(
            toFile: folder + "/t.yaml", atomically: true, encoding: .utf8)
        guard case .file(let file) = try TableDocument(contentsOf: folder + "/t.yaml").sections[0].rows else {
            return ["read-ahead: the document has no data file"]
        }
        HookProgress.installPrivate()
        let alone = try RowStream(file)
        let reader = try RowReader(file, skipping: 0, rows: rows, readAhead: true, marking: HelperThreads.mark)
        guard reader.readsAhead else { return ["read-ahead: no helper thread started"] }
        var n = 0, planned = 0
        while let expected = try alone.next() {
            guard let row = try reader.next() else { return ["read-ahead: ended after \(n) rows of \(rows)"] }
            if row.cell != expected.cell || row.line != expected.line || row.data.rowValue != expected.data.rowValue {
                return ["read-ahead: \(RowName.across(n)) differs from the file read on one thread"]
            }
            if case .json(let record) = row.data, let plan = record.plan {
                if n == 0 { plan.ask(LinePlan.Entry(key: Array("\"text\"".utf8), width: 7, maxLines: 3, mode: 0)) }
                let text = TextBytes("item \(n) 日本語 well-known")
                let lines = text.withBytes { record.plannedLines(for: $0, width: 7, maxLines: 3, mode: 0) }
                if let lines {
                    let computed = TextLayout.laidOut(text, width: 7, maxLines: 3, mode: .wordWrap).lines
                    let got = stride(from: 0, to: lines.count, by: 3).map {
                        TextLine(Int(lines[$0]), Int(lines[$0 + 1]), columns: Int(lines[$0 + 2]))
                    }
                    if got != computed { return ["read-ahead: \(RowName.across(n))'s lines worked out ahead differ"] }
                    planned += 1
                }
            }
            n += 1
        }
        if planned < rows / 2 { return ["read-ahead: only \(planned) rows had their lines worked out ahead"] }
        if try reader.next() != nil { return ["read-ahead: a row after the end"] }
        for stop in [0, 1, 300, 2_100, rows - 1] {
            let early = try RowReader(file, skipping: 0, rows: rows, readAhead: true, marking: HelperThreads.mark)
            for _ in 0..<stop { _ = try early.next() }
        }
        return n == rows ? [] : ["read-ahead: \(n) rows read, expected \(rows)"]
    } catch {
        return ["read-ahead: \(error)"]
    }
}
