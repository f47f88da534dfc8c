// The rows of a render's window as the supervisor counts them, from the document itself: a
// worker's "done" is taken only after as many, so that a worker that stops early (or a hostile
// plugin that forges the frame) cannot pass a cut table off as whole. A data file's records are
// counted a slice at a time while the worker draws (`WorkerWatcher.idle`), so that the count is
// not a serial tail after the last row (BENCHMARKS.md, "Measurements behind the code": RowCount).

import CellKitDocuments
import CellKitRendering

/// A count of a job's rows, made a slice at a time.
package struct RowCount {
    /// What is left to count: the sections not reached yet, and the data file being counted.
    private var sections: ArraySlice<TableDocument.Section>
    private var stream: (rows: RowStream, counted: Int)?
    private let window: RowWindow
    /// Rows of the sections counted so far, and of those inside the window.
    private var before = 0, total = 0
    /// Nil while counting; the total once every section is counted; `.none` stays forever when a
    /// data file cannot be read here (the worker meets the same error and says so).
    private(set) var result: Int??

    /// A count of `job`'s rows in `document` (read from the job's path when nil); nil for
    /// browse's windows, or when the document cannot be read here.
    package init?(_ job: DocumentRender.Job, _ document: TableDocument?) {
        guard job.browse == nil else { return nil }
        let read =
            document
            ?? (job.documentPath == "-" ? nil : try? TableDocument(contentsOf: job.documentPath, root: job.root))
        guard let read else { return nil }
        sections = read.sections[...]
        window = job.rows.map { RowWindow(first: $0[0], last: $0[1]) } ?? RowWindow()
    }

    /// Counts on through at most `records` of a data file's records (inline and counted
    /// sections cost nothing); true while more is left.
    package mutating func advance(records: Int) -> Bool {
        var budget = records
        while result == nil, budget > 0 {
            if let (rows, counted) = stream {
                do {
                    let (more, atEnd) = try rows.countRecords(atMost: budget)
                    if !atEnd {  // `budget` records read, blank lines among them: the slice is over
                        (stream, budget) = ((rows, counted + more), 0)
                        continue
                    }
                    budget -= max(1, more)
                    stream = nil
                    add(counted + more)
                } catch {
                    result = .some(nil)
                }
                continue
            }
            guard let section = sections.popFirst() else {
                result = total
                break
            }
            switch section.rows {
            case .inline(let rows): add(rows.count)
            case .count(let n): add(n)
            case .file(let file):
                do throws(DocumentError) { stream = (try RowStream(file), 0) } catch { result = .some(nil) }
            }
        }
        return result == nil
    }

    /// The whole count, finished now if it is not yet: nil when it cannot be made here.
    package mutating func finish() -> Int? {
        while advance(records: Int.max) {}
        return result ?? nil
    }

    /// A section of `count` rows counted: those inside the window join the total.
    private mutating func add(_ count: Int) {
        let first = max(0, window.first - before), last = min(count - 1, window.last - before)
        before += count
        if first <= last { total += last - first + 1 }
    }
}
