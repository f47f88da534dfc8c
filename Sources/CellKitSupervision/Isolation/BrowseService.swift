// `cellkit browse` with plugins in a worker process that lives as long as the view: the
// supervisor (RenderSupervisor, kept worker) asks it for a window, it draws the window with one
// TableRenderer (its cells reused from window to window) into the shared memory and answers with
// where each row's lines are; then it waits for the next request. A crash or a hang kills it,
// quarantines the plugin as `render` does, and a new worker draws the window again.

import CellKitDocuments
import CellKitModel
import CellKitRendering
import CellKitRuntime
import Foundation

/// A window asked of a browse worker.
package struct BrowseRequest: Codable, Sendable {
    package var first: Int
    package var last: Int
    package var width: Int
    package var selected: CellKitModel.IndexPath?
    package var showsHeader: Bool
    /// Rows of each section as far as they are counted: the worker does not count a data file again.
    package var counts: [Int]
    /// A place an index noted at or before the window's first row, in its section (section, place).
    package var section: Int
    package var place: RowIndex.Place?
    /// Changes when a row number may have come to mean another record: the worker closes its files.
    package var numbering = 0
    /// Whether the window's rows get new cells, none reused from the windows before, and its
    /// warnings are its own (`cellkit preview`: each configuration drawn as a render of its own).
    package var freshCells = false

    /// A request for rows `first...last` at `width` columns (see each property).
    package init(
        first: Int, last: Int, width: Int, selected: CellKitModel.IndexPath?, showsHeader: Bool, counts: [Int],
        section: Int, place: RowIndex.Place?, numbering: Int
    ) {
        (self.first, self.last, self.width, self.selected, self.showsHeader) = (
            first, last, width, selected, showsHeader
        )
        (self.counts, self.section, self.place, self.numbering) = (counts, section, place, numbering)
    }
}

/// A browse worker's answer, in its `done` frame: each row's bytes, the warnings and the worker's
/// cells made and reused so far.
package struct BrowseReply: Codable, Sendable {
    package var spans: [[Int]]  // row, start, end: byte offsets in the window's output
    package var warnings: [String]
    package var made: Int
    package var reused: Int
}

/// The worker's side: draws windows until its supervisor goes away.
package enum BrowseService {
    static func serve(
        _ first: BrowseRequest, _ worker: RenderWorker, _ renderer: TableRenderer, _ source: DocumentTable,
        plan: WorkerPlan, warnings: () -> [String]
    ) throws {
        var request = first
        var numbering = first.numbering
        while true {
            if request.numbering != numbering { source.closeStreams() }
            numbering = request.numbering
            renderer.width = request.width
            renderer.window = RowWindow(first: request.first, last: request.last)
            renderer.selected = request.selected
            if request.freshCells {
                renderer.queue.removePooledCells()
                renderer.queue.context.forgetWarnings()
            }
            for (section, count) in request.counts.enumerated() { source.setCount(count, section: section) }
            let (section, place) = (request.section, request.place)
            source.locate = { s, row in s == section ? place.flatMap { $0.row <= row ? $0 : nil } : nil }
            // A window is far below the 4 MiB a worker hands over at a time: its offsets are the buffer's.
            let spans = try draw(
                renderer, source, firstRow: request.first, showsHeader: request.showsHeader,
                color: plan.job.format != .text, colorDepth: plan.job.colorDepth, theme: plan.job.theme,
                to: worker.out
            ) { out in out.count }
            try worker.out.flush()
            let stats = renderer.queue.totalStatistics
            let reply = BrowseReply(
                spans: spans.map { [$0.row, $0.start, $0.end] }, warnings: warnings(), made: stats.created,
                reused: stats.reused)
            worker.sender.announce()
            worker.sender.send(Frame(kind: RenderFrame.done.rawValue, payload: Array(try JSONEncoder().encode(reply))))
            guard worker.sender.awaitAcknowledgement() else { return }
            let header = worker.region.bytes(count: 4)
            let length = Int(header[0]) | Int(header[1]) << 8 | Int(header[2]) << 16 | Int(header[3]) << 24
            guard length > 0, length < 1 << 16 else {
                throw OutputError(description: "a browse request of \(length) bytes")
            }
            let bytes = worker.region.bytes(count: 4 + length).dropFirst(4)
            request = try JSONDecoder().decode(BrowseRequest.self, from: Data(bytes))
            (renderer.skipRows, renderer.placeholderRows) = (0, [])
        }
    }

    /// Draws `renderer`'s window of `source` (rows from `firstRow`) as `render --format ansi` does
    /// (`--format text` without `color`), without the title, into `out` (its colours at `colorDepth`,
    /// for `theme`); each row's byte range, as `offset` places `out`'s end.
    package static func draw(
        _ renderer: TableRenderer, _ source: DocumentTable, firstRow: Int, showsHeader: Bool, color: Bool = true,
        colorDepth: ColorDepth = .truecolor, theme: TerminalTheme? = nil, to out: OutputBuffer,
        offset: @escaping (OutputBuffer) -> Int
    ) throws -> [(row: Int, start: Int, end: Int)] {
        let windowed = WindowSource(source, showsHeader: showsHeader)
        var text = TextFormat(color: color)
        (text.colorDepth, text.theme) = (colorDepth, theme)
        var format = SpanFormat(text, firstRow: firstRow, offset: offset)
        try renderer.render(windowed, delegate: source, format: &format, to: out)
        return format.spans
    }
}

/// A data source that serves another's rows with no title (and the header only when asked):
/// the view draws the title in its header line.
private final class WindowSource: TableDataSource {
    let base: DocumentTable
    let showsHeader: Bool
    init(_ base: DocumentTable, showsHeader: Bool) { (self.base, self.showsHeader) = (base, showsHeader) }
    var tableInfo: TableInfo {
        var info = base.tableInfo
        info.title = nil
        if !showsHeader { info.header = nil }
        return info
    }
    func numberOfSections() -> Int { base.numberOfSections() }
    func sectionInfo(_ section: Int) -> SectionInfo { base.sectionInfo(section) }
    func numberOfRows(inSection section: Int) throws -> Int { try base.numberOfRows(inSection: section) }
    func row(at indexPath: CellKitModel.IndexPath) throws -> TableRow { try base.row(at: indexPath) }
    func row(at indexPath: CellKitModel.IndexPath, into row: inout TableRow) throws {
        try base.row(at: indexPath, into: &row)
    }
}

/// A format that notes where each row's bytes start and end in what another format writes.
private struct SpanFormat<Base: RowFormat>: RowFormat {
    var base: Base
    var next: Int
    let offset: (OutputBuffer) -> Int
    var spans: [(row: Int, start: Int, end: Int)] = []
    private var rowStart = 0

    init(_ base: Base, firstRow: Int, offset: @escaping (OutputBuffer) -> Int) {
        (self.base, next, self.offset) = (base, firstRow, offset)
    }

    func contentWidth(tableWidth: Int, style: TableStyle) -> Int {
        base.contentWidth(tableWidth: tableWidth, style: style)
    }
    mutating func begin(_ table: TableInfo, width: Int, to out: OutputBuffer) throws {
        try base.begin(table, width: width, to: out)
    }
    mutating func beginSection(_ section: SectionInfo, index: Int, to out: OutputBuffer) throws {
        try base.beginSection(section, index: index, to: out)
        rowStart = offset(out)
    }
    mutating func row(_ row: RowLayout, isFirst: Bool, isLast: Bool, to out: OutputBuffer) throws {
        try base.row(row, isFirst: isFirst, isLast: isLast, to: out)
        let end = offset(out)
        spans.append((next, rowStart, end))
        next += 1
        rowStart = end
    }
    mutating func endSection(_ section: SectionInfo, index: Int, to out: OutputBuffer) throws {
        try base.endSection(section, index: index, to: out)
        if !spans.isEmpty { spans[spans.count - 1].end = offset(out) }
    }
    mutating func end(_ table: TableInfo, to out: OutputBuffer) throws { try base.end(table, to: out) }
}
