// A table document drawn a window of rows at a time, as `render --format ansi` draws those rows,
// for `cellkit browse`. One TableRenderer (so one CellQueue) lives as long as the view: cells
// that leave the screen go back to their pools and are dequeued for the rows coming in.

import CellKitDiscovery
import CellKitDocuments
import CellKitModel
import CellKitRendering
import CellKitRuntime
import CellKitSupervision
import CellKitText
import Foundation

/// Rows of a table drawn as lines: what a window of the view shows.
package struct BrowseWindow: Sendable {
    /// One drawn row: its number across the table, and the lines it takes in `lines`.
    package struct RowSpan: Sendable, Equatable {
        /// The row, counted from 0 across sections.
        package var row: Int
        /// Its first line in `lines`.
        package var firstLine: Int
        /// How many lines it takes (its borders below it included).
        package var lineCount: Int
        /// Row `row`'s `lineCount` lines from line `firstLine`.
        package init(row: Int, firstLine: Int, lineCount: Int) {
            (self.row, self.firstLine, self.lineCount) = (row, firstLine, lineCount)
        }
    }
    /// The lines, with their ANSI colour sequences and no newline.
    package var lines: [String]
    /// The rows drawn, in order.
    package var rows: [RowSpan]
    /// The rows that could not be read (a malformed record in a data file), each drawn as one line
    /// saying so: its error, `file:line:column: message`.
    package var errors: [Int: String] = [:]
    /// A window of these lines and rows (none by default).
    package init(lines: [String] = [], rows: [RowSpan] = [], errors: [Int: String] = [:]) {
        (self.lines, self.rows, self.errors) = (lines, rows, errors)
    }
}

/// A table document drawn window by window with cells reused across windows: in this process,
/// or with plugins in a worker process that lives as long as the table (`isolated`). Use it from
/// one thread at a time.
package final class BrowseTable {
    /// The colours the terminal shows, and its background: the cursor row's colours follow them.
    let colorDepth: ColorDepth, theme: TerminalTheme?
    /// Whether the lines have colours (`render --format ansi`); without, they are `--format text`'s.
    let color: Bool
    /// The document as loaded.
    package let document: TableDocument
    /// What discovery found (the plugins' files) and the folders it searched, for `watchedPaths`.
    private let catalog: Catalog, searched: [String]
    /// Rows in each section; a streamed section is counted when the table opens.
    package internal(set) var sectionCounts: [Int]
    /// Rows in the table.
    package internal(set) var rowCount: Int
    /// The warnings of the document, of hooks' host calls and of the sandbox so far.
    package var warnings: [String] {
        switch backend {
        case .inProcess(let renderer, _): DocumentRender.warnings(renderer.queue.context)
        case .isolated: workerWarnings
        }
    }
    /// The warnings the last window's worker sent (its hooks' since the last fresh window, and the
    /// sandbox's new refusals); empty in this process.
    package private(set) var lastWarnings: [String] = []
    /// One line per plugin fault so far (file, hook, cell type, row, signal or timeout), oldest first.
    package private(set) var faults: [String] = []
    /// Cells made and reused so far, over every cell type (by the worker, when isolated).
    package private(set) var statistics: (made: Int, reused: Int) = (0, 0)

    private enum Backend {
        case inProcess(TableRenderer, StringSink)
        case isolated(RenderSupervisor, DocumentRender.Job, StringSink)
    }
    let source: DocumentTable
    private var backend: Backend
    /// The sparse index of each section's data file (nil for rows written in the document).
    let indexes: [RowIndex?]
    /// The last rows of the one data file still counted, read back from its end (End before the
    /// count is done; `BrowseTail.swift`).
    var tail: BrowseTail?
    /// Bumped when a row number may come to mean another record (the rows numbered anew, or the
    /// rows read moving between those read back and the rest): the data files open are closed then.
    var numbering = 0
    /// Whether the last row read was one of the tail's.
    var readingTail = false
    /// Rows numbered anew and not yet taken by the view (`takeRenumberings()`).
    var renumberings: [Renumbering] = []
    /// Whether a data file is still being counted: `rowCount` is then a lower bound.
    package private(set) var isCounting = false
    private var workerWarnings: [String] = []

    /// The files a change of which changes the table (`cellkit browse --watch`): the document and
    /// every file it reads, each plugin file discovery found, and the folders searched (a plugin
    /// added or removed there).
    package var watchedPaths: [String] {
        let plugins = catalog.plugins.map { (plugin: PluginFile) in plugin.path }
        return document.inputFiles.map(\.path) + plugins + searched
    }

    /// Opens the document at `path` (reading files under `root`, default its folder) with plugins
    /// found by `discovery`, and counts its rows. `isolated`: plugins are loaded and run only in a
    /// worker process, which a crash or a hang of more than `hookTimeout` seconds in plugin code
    /// kills; the plugin is then quarantined (its rows drawn as placeholders, a line in `faults`)
    /// and a new worker draws the window; `sandbox`: the worker runs in the sandbox
    /// (`DocumentRender.sandbox`); `color` false: the lines are `render --format text`'s, with no
    /// escapes. Throws the document's error.
    package init(
        path: String, root: String?, discovery: DiscoveryOptions, isolated: Bool, hookTimeout: Double = 10,
        sandbox: Bool = true, sandboxRequired: Bool = false, allowRead: [String] = [],
        workerMemoryMiB: Int = Sandbox.defaultMemoryMiB, colorDepth: ColorDepth = .truecolor,
        theme: TerminalTheme? = nil, color: Bool = true
    ) throws {
        (self.colorDepth, self.theme, self.color) = (colorDepth, theme, color)
        let document = try TableDocument(contentsOf: path, root: root)
        let registry = CellRegistry(options: discovery)
        self.document = document
        (catalog, searched) = (registry.catalog, discovery.searchPath.entries.map(\.path))
        // Isolated: identifiers only looked up in the catalog here, never loaded.
        let source = try DocumentTable(document, registry: registry, leavingUnloaded: { _ in isolated })
        self.source = source
        source.readsAhead = false  // windows are short: a helper thread reading ahead is wasted
        let sink = StringSink()
        if isolated {
            var render = DocumentRender(
                documentPath: path, root: root, discovery: discovery, format: color ? .ansi : .text)
            render.hookTimeout = hookTimeout
            (render.sandbox, render.sandboxRequired) = (sandbox, sandboxRequired)
            (render.allowRead, render.workerMemoryMiB) = (allowRead, workerMemoryMiB)
            (render.colorDepth, render.theme) = (colorDepth, theme)
            let plan = WorkerPlan(
                executable: render.executable, arguments: [], job: render.job, hookTimeout: hookTimeout)
            let supervisor = try RenderSupervisor(plan: plan, sink: sink, forking: true, document: document) { _ in }
            supervisor.keepsWorker = true
            supervisor.restartsWindow = { sink.removeAll() }
            backend = .isolated(supervisor, render.job, sink)
        } else {
            let context = CellContext(stylesheet: document.stylesheet)
            let renderer = TableRenderer(
                queue: CellQueue(registry: registry, context: context), layout: CellLayout(assets: document.assets),
                width: document.width ?? 80)
            backend = .inProcess(renderer, sink)
        }
        // Data files are counted and indexed on threads of their own; the view starts once a few
        // screens of rows are counted (or all of them, in a small file), within 50 ms at most.
        let indexes: [RowIndex?] = document.sections.map {
            guard case .file(let file) = $0.rows else { return nil }
            return RowIndex(file)
        }
        self.indexes = indexes
        for index in indexes { index?.start() }
        let deadline = Date().addingTimeInterval(0.05)
        while indexes.contains(where: { index in
            index.map { $0.progress.count == nil && $0.progress.rows < 4096 && $0.error == nil } ?? false
        }),
            Date() < deadline
        {
            usleep(1000)
        }
        (sectionCounts, rowCount) = ([], 0)
        _ = try refresh()
        for s in 0..<source.numberOfSections() where indexes[s] == nil {
            sectionCounts[s] = try source.numberOfRows(inSection: s)
        }
        rowCount = sectionCounts.reduce(0, +)
        if case .isolated(let supervisor, _, _) = backend {
            supervisor.report = { [weak self] line in self?.faults.append(line) }
        }
        source.locate = { [weak self] section, row in self?.place(section: section, row: row) }
    }

    deinit { for index in indexes { index?.stop() } }

    /// Takes the rows the indexes have counted since; true when the count changed. Throws the
    /// error that stopped an index (a data file that cannot be read).
    package func refresh() throws -> Bool {
        var counts = sectionCounts.count == indexes.count ? sectionCounts : Array(repeating: 0, count: indexes.count)
        var counting = false
        for (s, index) in indexes.enumerated() {
            guard let index else { continue }
            if let error = index.error { throw error }
            let (rows, count) = index.progress
            if let tail, tail.section == s {
                guard let count else {  // numbered from the estimate until the count comes
                    (counts[s], counting) = (tail.estimate, true)
                    continue
                }
                endTail(count: count, rowsBefore: counts[..<s].reduce(0, +))
            }
            counts[s] = count ?? rows
            counting = counting || count == nil
            source.setCount(counts[s], section: s)
        }
        let changed = counts != sectionCounts || counting != isCounting
        (sectionCounts, isCounting) = (counts, counting)
        rowCount = counts.reduce(0, +)
        return changed
    }

    /// Waits until every data file is counted (End in a CSV file, `:N` past the rows counted, a
    /// search from rows read back): the rows are numbered exactly then (how long that takes:
    /// BENCHMARKS.md, "Measurements behind the code": BrowseTable.counting).
    package func finishCounting() throws {
        while isCounting {
            usleep(1000)
            _ = try refresh()
        }
    }

    /// The index path of row `row` counted across sections; nil past the end.
    package func indexPath(of row: Int) -> CellKitModel.IndexPath? {
        var rest = row
        for (s, count) in sectionCounts.enumerated() {
            if rest < count { return CellKitModel.IndexPath(section: s, row: rest) }
            rest -= count
        }
        return nil
    }

    /// The section row `row` is in, and its header (nil for none).
    package func section(of row: Int) -> (index: Int, header: String?)? {
        guard let path = indexPath(of: row) else { return nil }
        return (path.section, document.sections[path.section].header)
    }

    /// Whether row `row` can be selected (its section's `selectable`).
    package func isSelectable(_ row: Int) -> Bool {
        guard let path = indexPath(of: row) else { return false }
        return document.sections[path.section].selectable
    }

    /// Rows `first` on, as many as fit in `maxLines` lines (at least one when there is one), drawn
    /// `width` columns wide with row `selected` (across the table) drawn selected. The lines are those
    /// `render --format ansi --width W --rows first..` draws, without the title (the view shows it
    /// in its header line); the table header comes with row 0, the footer with the last row.
    /// When the rows at the end were read back before the count (`readEnd`), a row just above them
    /// is read back too, a row far above them and not counted yet waits for the count, and the rows
    /// may be numbered anew on the way (`takeRenumberings()`): the window's rows are numbered anew.
    /// `freshCells`: its rows get new cells, none reused from the windows before.
    package func window(
        first: Int, maxLines: Int, width: Int, selected: Int?, freshCells: Bool = false
    ) throws -> BrowseWindow {
        guard rowCount > 0 else { return BrowseWindow(lines: [], rows: []) }
        let mark = renumberings.count
        let first = try reach(first)
        let selected = selected.map { moved($0, since: mark) }
        do {
            return try draw(
                first: first, maxLines: maxLines, width: width, selected: selected, freshCells: freshCells)
        } catch let error as DocumentError where tail == nil {
            return try window(around: error, first: first, maxLines: maxLines, width: width, selected: selected)
        } catch  where tail != nil {
            // A record read back that cannot be drawn: counted first, so that its error names its line.
            let counted = renumberings.count
            try finishCounting()
            return try draw(
                first: moved(first, since: counted), maxLines: maxLines, width: width,
                selected: selected.map { moved($0, since: counted) })
        }
    }

    /// The window from `first` when a record in it cannot be read (`error`): the rows before the
    /// first such row, that row as one line naming its error, and the rows after it likewise.
    private func window(
        around error: DocumentError, first: Int, maxLines: Int, width: Int, selected: Int?
    ) throws -> BrowseWindow {
        let first = min(max(0, first), rowCount - 1)
        let last = min(rowCount - 1, first + max(1, maxLines) - 1)
        // The row that cannot be read: the first that cannot be drawn alone.
        var bad = first, badError = error
        while bad <= last {
            do {
                _ = try draw(first: bad, maxLines: 1, width: width, selected: nil)
                bad += 1
            } catch let error as DocumentError {
                badError = error
                break
            }
        }
        guard bad <= last else { throw error }  // not a row's record after all
        var result = BrowseWindow()
        if bad > first { result = try draw(first: first, maxLines: bad - first, width: width, selected: selected) }
        let text = "⚠ \(RowName.across(bad)) cannot be read: \(badError)"
        let cut = TextLayout.lines(text, width: max(1, width - 1), maxLines: 1, mode: .truncateTail).first.map(
            String.init)
        result.rows.append(BrowseWindow.RowSpan(row: bad, firstLine: result.lines.count, lineCount: 1))
        result.lines.append("\u{1B}[31m" + (cut ?? "") + "\u{1B}[0m")
        // The status line is short: the file by its name.
        let name = (badError.file as NSString).lastPathComponent
        result.errors[bad] = "\(name):\(badError.line):\(badError.column): \(badError.message)"
        if bad < last {
            // The rows after it, without the section's header a window starting there repeats.
            let rest = try window(first: bad + 1, maxLines: last - bad, width: width, selected: selected)
            let skip = rest.rows.first?.firstLine ?? 0
            let base = result.lines.count - skip
            result.lines += rest.lines.dropFirst(skip)
            result.rows += rest.rows.map {
                BrowseWindow.RowSpan(row: $0.row, firstLine: $0.firstLine + base, lineCount: $0.lineCount)
            }
            result.errors.merge(rest.errors) { a, _ in a }
        }
        return result
    }

    private func draw(
        first: Int, maxLines: Int, width: Int, selected: Int?, freshCells: Bool = false
    ) throws -> BrowseWindow {
        let first = min(max(0, first), rowCount - 1)
        enterRegion(of: first)
        var request = BrowseRequest(
            first: first, last: min(rowCount - 1, first + max(1, maxLines) - 1), width: width,
            selected: selected.flatMap { isSelectable($0) ? indexPath(of: $0) : nil }, showsHeader: first == 0,
            counts: sectionCounts, section: indexPath(of: first)?.section ?? 0,
            place: indexPath(of: first).flatMap { place(section: $0.section, row: $0.row) }, numbering: numbering)
        request.freshCells = freshCells
        switch backend {
        case .inProcess(let renderer, let sink):
            if freshCells { renderer.queue.removePooledCells() }
            renderer.width = width
            renderer.window = RowWindow(first: request.first, last: request.last)
            renderer.selected = request.selected
            sink.removeAll()
            let out = OutputBuffer(sink)
            let spans = try BrowseService.draw(
                renderer, source, firstRow: first, showsHeader: first == 0, color: color, colorDepth: colorDepth,
                theme: theme, to: out
            ) {
                out in
                sink.bytes.count + out.count
            }
            try out.flush()
            let counts = renderer.queue.totalStatistics
            statistics = (counts.created, counts.reused)
            return Self.lines(of: sink.bytes, spans: spans)
        case .isolated(let supervisor, var job, let sink):
            job.browse = request
            sink.removeAll()
            if case .failed(let error) = try supervisor.request(job, Array(try JSONEncoder().encode(request))) {
                throw error
            }
            let reply = try JSONDecoder().decode(BrowseReply.self, from: Data(supervisor.reply))
            // Kept across windows (the sandbox's refusals come once, with the window that met them).
            lastWarnings = reply.warnings + supervisor.takeSandboxWarnings()
            for warning in lastWarnings
            where workerWarnings.count < 500 && !workerWarnings.contains(warning) {
                workerWarnings.append(warning)
            }
            statistics = (reply.made, reply.reused)
            let spans = reply.spans.filter { $0.count == 3 }.map { (row: $0[0], start: $0[1], end: $0[2]) }
            return Self.lines(of: sink.bytes, spans: spans)
        }
    }

    /// The output split into lines, and each row's byte range turned into lines.
    private static func lines(of bytes: [UInt8], spans: [(row: Int, start: Int, end: Int)]) -> BrowseWindow {
        var lines: [String] = []
        var lineStarts: [Int] = []
        var start = 0
        for (i, byte) in bytes.enumerated() where byte == 0x0A {
            lineStarts.append(start)
            lines.append(String(decoding: bytes[start..<i], as: UTF8.self))
            start = i + 1
        }
        func line(at offset: Int) -> Int {
            var low = 0, high = lineStarts.count
            while low < high {
                let mid = (low + high) / 2
                if lineStarts[mid] < offset { low = mid + 1 } else { high = mid }
            }
            return low
        }
        let rows = spans.map { span in
            let firstLine = line(at: span.start)
            return BrowseWindow.RowSpan(row: span.row, firstLine: firstLine, lineCount: line(at: span.end) - firstLine)
        }
        return BrowseWindow(lines: lines, rows: rows)
    }

    /// Row `row`'s data (nil past the end).
    package func data(of row: Int) throws -> RowValue? {
        let row = try reach(row)
        enterRegion(of: row)
        guard let path = indexPath(of: row) else { return nil }
        return try source.row(at: path).data
    }

    /// `text` in lower case without the characters a reader does not see (`UTF8Bytes.isHidden`:
    /// soft hyphen, zero-width space, word joiner, byte order mark, bidi marks and controls):
    /// `dampfschiff` finds `Dampf\u{AD}schiff`.
    static func searchable(_ text: String) -> String {
        let lower = text.lowercased()
        guard lower.utf8.contains(where: { $0 >= 0x80 }) else { return lower }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: lower.unicodeScalars.lazy.filter { !UTF8Bytes.isHidden($0.value) })
        return String(kept)
    }

    /// Whether a string or number in `value` holds `needle` (lower case).
    static func contains(_ value: RowValue, _ needle: String) -> Bool {
        switch value {
        case .null, .bool: false
        case .number(let n): RowValue.jsonNumber(n).contains(needle)
        case .string(let s): searchable(s).contains(needle)
        case .list(let items): items.contains { contains($0, needle) }
        case .object(let fields): fields.contains { contains($0.value, needle) }
        }
    }
}
