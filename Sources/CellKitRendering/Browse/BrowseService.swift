// `cellkit browse` with plugins in a worker process that lives as long as the view: the
// supervisor (IsolatedRender, kept worker) asks it for a window, it draws the window with one
// TableRenderer (its cells reused from window to window) into the shared memory and answers with
// where each row's lines are; then it waits for the next request. A crash or a hang kills it,
// quarantines the plugin as `render` does, and a new worker draws the window again.

import CellKitDocuments
import CellKitModel
import CellKitRuntime
import CellKitSupervision
import Foundation

/// A window asked of a browse worker.
struct BrowseRequest: Codable, Sendable {
    var first: Int
    var last: Int
    var width: Int
    var selected: CellKitModel.IndexPath?
    var showsHeader: Bool
    /// Rows of each section as far as they are counted: the worker does not count a data file again.
    var counts: [Int]
    /// A place an index noted at or before the window's first row, in its section (section, place).
    var section: Int
    var place: RowIndex.Place?
    /// Changes when a row number may have come to mean another record: the worker closes its files.
    var numbering = 0
}

/// A browse worker's answer, in its `done` frame: each row's bytes, the warnings and the worker's
/// cells made and reused so far.
struct BrowseReply: Codable, Sendable {
    var spans: [[Int]]  // row, start, end: byte offsets in the window's output
    var warnings: [String]
    var made: Int
    var reused: Int
}

/// The worker's side: draws windows until its supervisor goes away.
enum BrowseService {
    static func serve(
        _ first: BrowseRequest, _ worker: IsolationWorker, _ renderer: TableRenderer, _ source: DocumentTable,
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
            for (section, count) in request.counts.enumerated() { source.setCount(count, section: section) }
            let (section, place) = (request.section, request.place)
            source.locate = { s, row in s == section ? place.flatMap { $0.row <= row ? $0 : nil } : nil }
            // A window is far below the 4 MiB a worker hands over at a time: its offsets are the buffer's.
            let spans = try BrowseTable.draw(
                renderer, source, firstRow: request.first, showsHeader: request.showsHeader, to: worker.out
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
}
