// A table document as a data source and delegate. Inline rows are checked
// against the registry when the table is opened; streamed rows as they are read.

import CellKitDocuments
import CellKitModel
import CellKitRuntime
import CellKitText

/// A `TableDocument` served row by row; sections backed by data files stream.
/// Its own delegate too: rows take the section's, else the table's `rowHeight`.
/// Use it from one thread at a time: it keeps each data file open between rows.
public final class DocumentTable: TableDataSource, TableDelegate {
    /// The document served, as loaded.
    public let document: TableDocument
    /// Resolves the identifiers inline rows and sections name.
    let registry: CellRegistry
    /// The document's title, style, header and footer.
    public var tableInfo: TableInfo {
        var info = TableInfo(
            title: document.title, style: document.style, header: document.header, footer: document.footer)
        (info.direction, info.language) = (document.direction ?? .ltr, document.language)
        return info
    }

    @exclusivity(unchecked) private var counts: [Int?]
    private let defaultCells: [String?]
    /// Each section's `rowHeight`, else the table's.
    private let sectionHeights: [Double?]
    /// The `rowHeight:` of each inline row that gives one, by section (nil: none does) and row.
    private let rowHeights: [[Int: Double]?]
    @exclusivity(unchecked) private var streams: [RowReader?]  // by section: an array, not hashing per row
    /// Whether a long data file is read and checked on a helper thread ahead of the rows drawn
    /// (`RowReader`); off only to measure what that saves.
    package var readsAhead = true
    /// Where a data file's row starts, if an index has noted a place at or before it (section, row):
    /// reading row R then seeks there instead of reading every row before it (`cellkit browse`).
    package var locate: ((Int, Int) -> RowIndex.Place?)?

    /// Sets the number of rows of `section` to `count`, as far as a data file is counted so far
    /// (`cellkit browse`): the file is not counted again when asked.
    package func setCount(_ count: Int, section: Int) { counts[section] = count }

    /// Closes the data files read so far: the next row asked is read from a place `locate` gives, or
    /// from the start (`cellkit browse`, when its rows are numbered anew).
    package func closeStreams() { streams = Array(repeating: nil, count: streams.count) }

    /// Whether the document's warnings were passed to the context.
    @exclusivity(unchecked) private var warned = false
    /// The last row read from a data file, kept so the next is read into it (`nextRow`).
    @exclusivity(unchecked) private var streamed = StreamedRow(cell: nil, data: .value(.null), line: 0, column: 0)

    /// Opens `document`, resolving every inline row's identifier now so that a
    /// typo is reported at its line before anything is drawn.
    public convenience init(_ document: TableDocument, registry: CellRegistry) throws {
        try self.init(document, registry: registry, leavingUnloaded: { _ in false })
    }

    /// Opens `document` as `init(_:registry:)` does, except that identifiers `leavingUnloaded`
    /// accepts are only looked up in the catalog: their plugins are not loaded (quarantined
    /// cell types, Isolation/).
    package init(
        _ document: TableDocument, registry: CellRegistry, leavingUnloaded: (String) -> Bool
    ) throws {
        self.document = document
        self.registry = registry
        defaultCells = document.sections.map(\.cell)
        sectionHeights = document.sections.map { $0.rowHeight ?? document.rowHeight }
        rowHeights = document.sections.map { section in
            guard case .inline(let rows) = section.rows, rows.contains(where: { $0.rowHeight != nil }) else {
                return nil
            }
            return rows.indices.reduce(into: [:]) { heights, r in heights[r] = rows[r].rowHeight }
        }
        streams = Array(repeating: nil, count: document.sections.count)
        counts = document.sections.map { section in
            switch section.rows {
            case .inline(let rows): rows.count
            case .count(let n): n
            case .file: nil
            }
        }
        for (s, section) in document.sections.enumerated() {
            switch section.rows {
            case .inline(let rows):
                for (r, row) in rows.enumerated() {
                    try check(row.cell ?? section.cell, at: row.mark, s, r, leavingUnloaded)
                }
            case .count:
                try check(section.cell, at: section.cellMark ?? section.mark, s, 0, leavingUnloaded)
            case .file:
                if let cell = section.cell {
                    try check(cell, at: section.cellMark ?? section.mark, s, 0, leavingUnloaded)
                }
            }
        }
    }

    /// Resolves `name` for row `row` of section `section` (recorded, so that a crash while its
    /// plugin loads names the row), or only looks it up when `leavingUnloaded` accepts it.
    private func check(
        _ name: String?, at mark: SourceMark, _ section: Int, _ row: Int, _ leavingUnloaded: (String) -> Bool
    ) throws(DocumentError) {
        if let name, leavingUnloaded(name), let identifier = try? CellIdentifier(name),
            registry.catalog.registration(for: identifier) != nil
        {
            return
        }
        if let name { HookProgress.resolving(name, section: section, row: row) }
        _ = try resolve(name, at: mark)
        if let name { resolvedNames.insert(name) }
    }

    /// The identifiers resolved (their plugins loaded) when the table was opened.
    package private(set) var resolvedNames: Set<String> = []

    /// The cell type for `name` written at `mark`, or an error at that place.
    func resolve(_ name: String?, at mark: SourceMark) throws(DocumentError) -> CellType {
        guard let name else {
            throw mark.error(
                "the row names no cell type; give it 'cell: IDENTIFIER', or give its section a 'cell:' for all its rows"
            )
        }
        do { return try registry.cellType(named: name) } catch {
            throw mark.error(error.description)
        }
    }

    // MARK: TableDataSource

    /// The document's sections, at least one.
    public func numberOfSections() -> Int { document.sections.count }

    /// The section's header, footer, cell style and `selectable`, as the document writes them.
    public func sectionInfo(_ section: Int) -> SectionInfo {
        let s = document.sections[section]
        var info = SectionInfo(header: s.header, footer: s.footer, cellStyle: s.cellStyle, selectable: s.selectable)
        info.direction = s.direction ?? document.direction ?? .ltr
        return info
    }

    /// Inline rows and counts as written. A data file is read through once to count its records
    /// (blank lines aside) the first time its section is asked; an unreadable file throws a `DocumentError`.
    public func numberOfRows(inSection section: Int) throws -> Int {
        if let n = counts[section] { return n }
        guard case .file(let file) = document.sections[section].rows else { return 0 }
        let n = try RowStream.count(file)  // a pass over the bytes: first/last positions need the count
        counts[section] = n
        return n
    }

    /// The row at `indexPath`; see `row(at:into:)`.
    public func row(at indexPath: IndexPath) throws -> TableRow {
        var row = TableRow(identifier: "")
        try self.row(at: indexPath, into: &row)
        return row
    }

    /// The row at `indexPath` into `row`, with its identifier (else its section's `cell`) and data.
    /// A data file's rows stream: asked in order, each is read from where the last one ended; asked out of
    /// order, the file is skipped forward, or opened again when it is already past the row. A row that
    /// names no cell type, or a record the file cannot parse, throws a `DocumentError` at its place.
    public func row(at indexPath: IndexPath, into row: inout TableRow) throws {
        // The streaming case, without copying the section, and with the stream unretained
        // (an atomic pair a row): `streams` holds it while `nextRow` runs.
        if let stream = streams[indexPath.section].map(Unmanaged.passUnretained),
            stream._withUnsafeGuaranteedRef({ $0.rowsRead == indexPath.row })
        {
            try stream._withUnsafeGuaranteedRef { try nextRow(indexPath, from: $0, into: &row) }
            return closeIfDone(indexPath)
        }
        let section = document.sections[indexPath.section]
        switch section.rows {
        case .inline(let rows):
            let inline = rows[indexPath.row]
            row = TableRow(identifier: inline.cell ?? section.cell ?? "", data: inline.data, mark: inline.mark)
        case .count:
            row = TableRow(identifier: section.cell ?? "", data: .null, mark: section.cellMark ?? section.mark)
        case .file(let file):
            // Out of order (or first): open the file again if it is already past the row, then skip to it.
            var stream = streams[indexPath.section]
            // A place noted by an index (browse): seek there rather than read every row before it.
            let place = locate?(indexPath.section, indexPath.row)
            if stream == nil || stream!.rowsRead > indexPath.row
                || place.map({ $0.row > stream!.rowsRead + 1024 }) == true
            {
                streams[indexPath.section] = nil  // its helper, if any, stops first
                // Read ahead only in a counted file (the renderer counts first): a count is a pass.
                let rows = counts[indexPath.section] ?? 0
                stream = try RowReader(
                    file, skipping: indexPath.row, rows: rows, readAhead: readsAhead, marking: HelperThreads.mark,
                    from: place)
                streams[indexPath.section] = stream
            }
            try stream!.skip(to: indexPath.row)
            try nextRow(indexPath, from: stream!, into: &row)
            closeIfDone(indexPath)
        }
    }

    /// Closes a section's data file once its last row is read.
    @inline(__always)  // once a row
    private func closeIfDone(_ indexPath: IndexPath) {
        if indexPath.row + 1 == counts[indexPath.section] { streams[indexPath.section] = nil }
    }

    /// The next row of a data file, which is row `indexPath.row`, into `row`. In place:
    /// returning a new row copied it, and each copy retained its data and file name.
    /// Strings are set only when they change (the cell name, the file's path): storing the same
    /// one again retained it and released the one before, atomically, every row (BENCHMARKS.md,
    /// "Measurements behind the code": DocumentTable.nextRow).
    private func nextRow(_ indexPath: IndexPath, from stream: RowReader, into row: inout TableRow) throws {
        guard try stream.next(into: &streamed) else {
            throw stream.file.mark.error(
                "\(stream.file.path) ended before the table's \(RowName.of(indexPath)); was it changed while the table was drawn?"
            )
        }
        if streamed.cell != nil {  // read in place: `if let` bound a copy (a retain and a release)
            if row.identifier != streamed.cell.unsafelyUnwrapped { row.identifier = streamed.cell.unsafelyUnwrapped }
        } else if let identifier = defaultCells[indexPath.section] {
            if row.identifier != identifier { row.identifier = identifier }
        } else {
            let mark = SourceMark(file: stream.file.path, line: streamed.line, column: streamed.column)
            throw mark.error(
                "the row names no cell type; add a \"cell\" field, or give the section a 'cell:' in \(document.path)")
        }
        swap(&row.rowData, &streamed.data)
        if row.mark?.file != stream.file.path {
            row.mark = SourceMark(file: stream.file.path, line: streamed.line, column: streamed.column)
        } else {
            (row.mark!.line, row.mark!.column) = (streamed.line, streamed.column)
        }
    }

    // MARK: TableDelegate

    /// Passes the document's load warnings (see `TableDocument.warnings`) on to the context the table is
    /// drawn with, once, when the first row is displayed; the renderer's other warnings go there too.
    public func willDisplay(_ cell: Cell, at indexPath: IndexPath) {
        guard !warned else { return }
        warned = true
        for warning in document.warnings { cell.context.warn(warning) }
    }

    /// The row's own `rowHeight`, else its section's, else the table's; nil (as tall as the content)
    /// when none sets one.
    public func rowHeight(at indexPath: IndexPath) -> Double? {
        rowHeights[indexPath.section]?[indexPath.row] ?? sectionHeights[indexPath.section]
    }
}
