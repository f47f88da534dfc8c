// A table document drawn a window of rows at a time, as `render --format ansi` draws those rows,
// for `cellkit browse`. One TableRenderer (so one CellQueue) lives as long as the view: cells
// that leave the screen go back to their pools and are dequeued for the rows coming in.

import CellKitDocuments
import CellKitModel
import CellKitRuntime
import CellKitText

/// Rows of a table drawn as lines: what a window of the view shows.
public struct BrowseWindow: Sendable {
    /// One drawn row: its number across the table, and the lines it takes in `lines`.
    public struct RowSpan: Sendable, Equatable {
        /// The row, counted from 0 across sections.
        public var row: Int
        /// Its first line in `lines`.
        public var firstLine: Int
        /// How many lines it takes (its borders below it included).
        public var lineCount: Int
    }
    /// The lines, with their ANSI colour sequences and no newline.
    public var lines: [String]
    /// The rows drawn, in order.
    public var rows: [RowSpan]
    /// A window of these lines and rows (none by default).
    public init(lines: [String] = [], rows: [RowSpan] = []) { (self.lines, self.rows) = (lines, rows) }
}

/// A table document drawn window by window with cells reused across windows. Use it from one
/// thread at a time.
public final class BrowseTable {
    /// The document as loaded.
    public let document: TableDocument
    /// Rows in each section; a streamed section is counted when the table opens.
    public private(set) var sectionCounts: [Int]
    /// Rows in the table.
    public private(set) var rowCount: Int
    /// The warnings of the document and of hooks' host calls so far.
    public var warnings: [String] { DocumentRender.warnings(context) }

    private let source: DocumentTable
    private let renderer: TableRenderer
    private let context: CellContext
    private let sink = StringSink()

    /// Opens the document at `path` (reading files under `root`, default its folder) with plugins
    /// found by `discovery`, and counts its rows. Throws the document's error.
    public convenience init(path: String, root: String?, discovery: DiscoveryOptions) throws {
        let document = try TableDocument(contentsOf: path, root: root)
        try self.init(document, registry: CellRegistry(options: discovery))
    }

    /// Opens `document` with `registry`, and counts its rows.
    package init(_ document: TableDocument, registry: CellRegistry) throws {
        self.document = document
        let source = try DocumentTable(document, registry: registry)
        self.source = source
        source.readsAhead = false  // windows are short: a helper thread reading ahead is wasted
        context = CellContext(stylesheet: document.stylesheet)
        renderer = TableRenderer(
            queue: CellQueue(registry: registry, context: context), layout: CellLayout(assets: document.assets),
            width: document.width ?? 80)
        let counts = try (0..<source.numberOfSections()).map { try source.numberOfRows(inSection: $0) }
        (sectionCounts, rowCount) = (counts, counts.reduce(0, +))
    }

    /// Cells made and reused so far, over every cell type.
    public var statistics: CellStatistics { renderer.queue.totalStatistics }

    /// The index path of row `row` counted across sections; nil past the end.
    public func indexPath(of row: Int) -> CellKitModel.IndexPath? {
        var rest = row
        for (s, count) in sectionCounts.enumerated() {
            if rest < count { return CellKitModel.IndexPath(section: s, row: rest) }
            rest -= count
        }
        return nil
    }

    /// The section row `row` is in, and its header (nil for none).
    public func section(of row: Int) -> (index: Int, header: String?)? {
        guard let path = indexPath(of: row) else { return nil }
        return (path.section, document.sections[path.section].header)
    }

    /// Whether row `row` can be selected (its section's `selectable`).
    public func isSelectable(_ row: Int) -> Bool {
        guard let path = indexPath(of: row) else { return false }
        return document.sections[path.section].selectable
    }

    /// Rows `first` on, as many as fit in `maxLines` lines (at least one when there is one), drawn
    /// `width` columns wide with row `selected` (across the table) drawn selected. The lines are those
    /// `render --format ansi --width W --rows first..` draws, without the title (the view shows it
    /// in its header line); the table header comes with row 0, the footer with the last row.
    public func window(first: Int, maxLines: Int, width: Int, selected: Int?) throws -> BrowseWindow {
        guard rowCount > 0 else { return BrowseWindow(lines: [], rows: []) }
        let first = min(max(0, first), rowCount - 1)
        renderer.width = width
        renderer.window = RowWindow(first: first, last: min(rowCount - 1, first + max(1, maxLines) - 1))
        renderer.selected = selected.flatMap { isSelectable($0) ? indexPath(of: $0) : nil }
        sink.removeAll()
        let out = OutputBuffer(sink)
        let windowed = WindowSource(source, showsHeader: first == 0)
        var format = SpanFormat(TextFormat(color: true), sink: sink, firstRow: first)
        try renderer.render(windowed, delegate: source, format: &format, to: out)
        try out.flush()
        return Self.lines(of: sink.bytes, spans: format.spans)
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
    public func data(of row: Int) throws -> RowValue? {
        guard let path = indexPath(of: row) else { return nil }
        return try source.row(at: path).data
    }

    /// The first row from `start` on (or back, when not `forward`), wrapping around the table, whose
    /// data holds `query` (ignoring case) in any string or number; nil when none does.
    public func search(_ query: String, from start: Int, forward: Bool) throws -> Int? {
        guard rowCount > 0, !query.isEmpty else { return nil }
        let needle = query.lowercased()
        var matches: Int?
        // Forward in file order: a streamed section is read in order, never backwards.
        let order = forward ? Array(start..<rowCount) + Array(0..<start) : Array(0..<rowCount)
        for row in order {
            guard let data = try data(of: row), Self.contains(data, needle) else { continue }
            if forward { return row }
            if row <= start || (matches.map { $0 > start } ?? true) { matches = row }
        }
        return matches
    }

    /// Whether a string or number in `value` holds `needle` (lower case).
    static func contains(_ value: RowValue, _ needle: String) -> Bool {
        switch value {
        case .null, .bool: false
        case .number(let n): RowJSON.number(n).contains(needle)
        case .string(let s): s.lowercased().contains(needle)
        case .list(let items): items.contains { contains($0, needle) }
        case .object(let fields): fields.contains { contains($0.value, needle) }
        }
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
    let sink: StringSink
    var next: Int
    var spans: [(row: Int, start: Int, end: Int)] = []
    private var rowStart = 0

    init(_ base: Base, sink: StringSink, firstRow: Int) { (self.base, self.sink, next) = (base, sink, firstRow) }

    private func offset(_ out: OutputBuffer) -> Int { sink.bytes.count + out.count }

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

/// Row data as one line of JSON (`--pick`).
public enum RowJSON {
    /// `value` as compact JSON: object keys sorted, integers without a fraction.
    public static func text(_ value: RowValue) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }

    static func write(_ value: RowValue, to out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += number(n)
        case .string(let s): string(s, to: &out)
        case .list(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                write(item, to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (i, key) in fields.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                string(key, to: &out)
                out += ":"
                write(fields[key]!, to: &out)
            }
            out += "}"
        }
    }

    /// A number as JSON writes it: whole numbers without ".0"; not finite ones as null.
    static func number(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == n.rounded(), abs(n) < 9.007_199_254_740_992e15 { return String(Int64(n)) }
        return "\(n)"
    }

    static func string(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _
            where scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
