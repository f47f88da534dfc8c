// Drives a table through the cell-creation routine row by row: ask the data
// source for the row, dequeue a cell (its hooks run), size and lay it out,
// give the cell back, hand the layout to a format. Only one row is alive at a
// time, so memory stays flat however long the table is.

import CellKitDocuments
import CellKitModel
import CellKitRuntime
import CellKitText

/// Turns laid-out rows into bytes. What a format receives, in order: begin, then per section start,
/// rows, end; then end. One format value serves one render at a time; `begin` may reset its state.
/// A format only writes to `out`: the renderer flushes it between rows when it is full.
/// A thrown error ends the render.
public protocol RowFormat {
    /// Columns a cell gets in a table `width` wide (borders and margins taken off).
    /// Asked once per render, before `begin`; every row is laid out this wide.
    func contentWidth(tableWidth: Int, style: TableStyle) -> Int
    /// Starts the table, `width` columns wide (the renderer's width); the first call of a render.
    mutating func begin(_ table: TableInfo, width: Int, to out: OutputBuffer) throws
    /// Starts section `index` (from 0), after `begin` or the previous section's `endSection`.
    /// Sections with no rows in the renderer's window are skipped, so indexes may jump; an empty section
    /// is skipped too unless the window is the whole table.
    mutating func beginSection(_ section: SectionInfo, index: Int, to out: OutputBuffer) throws
    /// One row of the current section, in order. `isFirst` and `isLast` say whether it is the first or
    /// last row drawn in the section (within the window). `row` is reused for the next row: copy what
    /// you keep.
    mutating func row(_ row: RowLayout, isFirst: Bool, isLast: Bool, to out: OutputBuffer) throws
    /// Ends section `index`, after its last row (or right after `beginSection` when it has none).
    mutating func endSection(_ section: SectionInfo, index: Int, to out: OutputBuffer) throws
    /// Ends the table, after the last `endSection`; the last call of a render.
    mutating func end(_ table: TableInfo, to out: OutputBuffer) throws
    /// Right before `end`: the rows in the window (`drawn`, those delivered by an earlier render
    /// included) and in the whole table (`total`). The default does nothing.
    mutating func tableRows(drawn: Int, total: Int, to out: OutputBuffer) throws
}

extension RowFormat {
    /// Does nothing: the text formats say nothing of the rows left out.
    public mutating func tableRows(drawn: Int, total: Int, to out: OutputBuffer) throws {}
}

/// Which rows to draw: a range over the whole table, counted from 0 across sections.
public struct RowWindow: Sendable, Equatable {
    /// The first row drawn, counted from 0 across all sections.
    public var first: Int
    /// The last row drawn, included; past the end of the table means to the end.
    public var last: Int
    /// Rows `first` through `last`; the default is the whole table. An empty window draws no rows.
    public init(first: Int = 0, last: Int = .max) { (self.first, self.last) = (first, last) }
}

/// Renders tables from a data source with one format, a row at a time: only the row being drawn is
/// alive, and its cell goes back to the queue's pool before the next. Use it from one thread at a time.
///
/// Of the render types, this one draws rows in the calling process from a data source already
/// open. `DocumentRender` (CellKitSupervision) renders a whole table document, reading it and
/// running a `TableRenderer` in worker processes that its `RenderSupervisor` watches.
public final class TableRenderer {
    /// Where cells are dequeued and recycled; its registry resolves the rows' identifiers, and its
    /// context collects the warnings.
    public let queue: CellQueue
    /// Lays out each configured cell (images by its asset catalog).
    public let layout: CellLayout
    /// The table's width in columns; cells get what the format's `contentWidth` leaves of it.
    public var width: Int
    /// The row drawn selected; nil for none. A non-selectable row is never drawn selected; one the
    /// table does not have is warned of in the context's warnings.
    public var selected: IndexPath?
    /// The rows drawn; the whole table by default. A window starting past the table's last row
    /// draws none and is warned of in the context's warnings.
    public var window = RowWindow()
    /// Rows drawn by the last `render`.
    @exclusivity(unchecked) package private(set) var rowsDrawn = 0

    // Identifiers seen so far; a table uses few, so a short list beats hashing each row's name.
    // No slot: the type is quarantined, and its rows draw a placeholder (Isolation/).
    @exclusivity(unchecked) private var types: [(name: String, slot: ReuseSlot?)] = []

    /// Rows (counted from 0 in the window) an earlier render delivered already: they run no hooks and
    /// write nothing; what the format writes before the first row after them is kept. Isolation/.
    package var skipRows = 0
    /// The placeholder text for a quarantined cell type, or nil for a type whose rows are drawn: a
    /// quarantined type's plugin is never loaded and its hooks never run. Isolation/.
    package var quarantine: ((String) -> String?)?
    /// Rows (counted from 0 in the window) drawn as a placeholder whatever their type. Isolation/.
    package var placeholderRows: Set<Int> = []
    /// The fault that quarantined a cell type, carried by its placeholder rows. Isolation/.
    package var faultOfType: ((String) -> RowFault?)?
    /// The fault of each row in `placeholderRows` (counted from 0 in the window). Isolation/.
    package var faultOfRow: [Int: RowFault] = [:]
    @exclusivity(unchecked) private var typeFaults: [String: RowFault] = [:]
    @exclusivity(unchecked) private var placeholders: [String: String] = [:]

    /// A renderer drawing the whole table `width` columns wide with no row selected.
    public init(queue: CellQueue, layout: CellLayout, width: Int) {
        (self.queue, self.layout, self.width) = (queue, layout, width)
    }

    /// Draws every section and row of `source` in the window into `out`, which it flushes whenever it is
    /// full but not at the end: flush it afterwards. A cell identifier no plugin provides, or an error
    /// thrown by the source or the format, stops the render; what was written stays in `out`.
    public func render(
        _ source: TableDataSource, delegate: TableDelegate?, format: inout some RowFormat, to out: OutputBuffer
    ) throws {
        let table = source.tableInfo
        let cellWidth = format.contentWidth(tableWidth: width, style: table.style)
        queue.context.contentWidth = cellWidth
        queue.rowWidth = cellWidth
        try format.begin(table, width: width, to: out)
        var before = 0  // rows in earlier sections
        // The row being drawn: one for all rows, so its list of views is allocated
        // once; a local, as a stored property is copied when handed to the format.
        var laidOut = RowLayout(
            indexPath: IndexPath(section: 0, row: 0), identifier: "", width: 0, height: 0,
            position: .single, isSelected: false, background: Fill(), backgroundColor: nil, views: [])
        var memo = CellLayout.LineMemo()  // the layout's memo of lines, beside the row from row to row
        var current = TableRow(identifier: "")  // the row being read, also kept: see `row(at:into:)`
        rowsDrawn = 0
        var index = 0  // rows of the window so far, skipped ones included
        let skip = skipRows, progress = HookProgress.record
        var selectedExists = false
        for s in 0..<source.numberOfSections() {
            let count = try source.numberOfRows(inSection: s)
            if let selected, selected.section == s, selected.row < count { selectedExists = true }
            let first = max(0, window.first - before), last = min(count - 1, window.last - before)
            before += count
            guard first <= last || (count == 0 && window == RowWindow()) else { continue }
            var info = source.sectionInfo(s)
            info.rowsShown = first <= last ? last - first + 1 : 0
            // What hooks read as the cell's direction, and what the layout mirrors by (`Cell.isRightToLeft`).
            if queue.context.direction != info.direction { queue.context.direction = info.direction }
            try format.beginSection(info, index: s, to: out)
            if first <= last {
                for r in first...last {
                    if index < skip {  // delivered already: what was written up to its end goes
                        index += 1
                        if index == skip { out.discard() }
                        continue
                    }
                    laidOut.tableIndex = before - count + r
                    if placeholderRows.isEmpty || !placeholderRows.contains(index) {
                        try layoutRow(
                            IndexPath(section: s, row: r), count: count, info: info, source: source,
                            delegate: delegate, width: cellWidth, reading: &current, into: &laidOut, memo: &memo)
                    } else {
                        try source.row(at: IndexPath(section: s, row: r), into: &current)
                        placeholder(
                            current, at: IndexPath(section: s, row: r), count: count, width: cellWidth,
                            fault: faultOfRow[index], into: &laidOut)
                    }
                    try format.row(laidOut, isFirst: r == first, isLast: r == last, to: out)
                    // Ready for the next row: its views are written over this row's, in place.
                    laidOut.recycleViews()
                    index += 1
                    if let progress { HookProgress.rowsDone(progress, rows: index, bytes: out.count) }
                    try out.flushIfFull()
                    rowsDrawn += 1
                }
            }
            // A window that ends before the section does: no footer (it belongs below the last row).
            var closing = info
            if last < count - 1 { closing.footer = nil }
            try format.endSection(closing, index: s, to: out)
        }
        try format.tableRows(drawn: index, total: before, to: out)
        try format.end(table, to: out)
        warnOutside(rows: before, selectedExists: selectedExists)
    }

    /// Warns of a selection or a window that names no row of a table of `rows` rows: asked for
    /// something the table does not have, the render is not silently different from what was meant.
    /// The warnings name rows as `RowName` does, the selection with its index path (a document's
    /// `selected` counts from 0).
    private func warnOutside(rows: Int, selectedExists: Bool) {
        if let selected, !selectedExists {
            queue.context.warn(
                "the selected \(RowName.forAuthor(selected)) is not in the table")
        }
        if window.first >= rows, window != RowWindow() {
            let run = RowName.run(window.first, through: window.last == .max ? nil : window.last)
            queue.context.warn("\(run) start past the table's last row (it has \(rows) rows): none drawn")
        }
    }

    /// One row through the routine: dequeue, size, lay out, recycle.
    /// Into `laidOut`, reused row after row.
    private func layoutRow(
        _ indexPath: IndexPath, count: Int, info: SectionInfo, source: TableDataSource,
        delegate: TableDelegate?, width: Int, reading row: inout TableRow, into laidOut: inout RowLayout,
        memo: inout CellLayout.LineMemo
    ) throws {
        try source.row(at: indexPath, into: &row)
        guard let slot = try reuseSlot(row, at: indexPath) else {
            return placeholder(
                row, at: indexPath, count: count, width: width, fault: typeFaults[row.identifier], into: &laidOut)
        }
        // The row's data moves into the cell; reading `row.rowData` copied it (a retain per row).
        let cell = queue.dequeue(
            slot, at: indexPath, style: info.cellStyle, selectable: info.selectable, rowsInSection: count,
            data: row.takeData())
        cell.isSelected = indexPath == selected
        delegate?.willDisplay(cell, at: indexPath)
        let lines = queue.height(of: cell) ?? delegate?.rowHeight(at: indexPath)
        let height = lines.flatMap(Self.fixedLines)
        layout.layout(cell, width: width, height: height, into: &laidOut, memo: &memo)  // mirrored if right to left
        queue.recycle(cell)
    }

    /// A row height as a fixed number of lines (`rowLines`), or nil for automatic (-1:
    /// `Cell.automaticDimension`, `TableDocument.automaticRowHeight`): as tall as the content,
    /// labels of any number of lines grown to their text.
    @inline(__always)
    package static func fixedLines(_ lines: Double) -> Int? {
        lines == Cell.automaticDimension ? nil : rowLines(lines)
    }

    /// A height in lines as a whole number of lines within 1...`PluginLimits.maxRowHeight`: two
    /// compares, and no conversion that could trap (NaN and anything below 1 give 1). The queue
    /// has kept hooks' answers in range already; a delegate's or a Swift hook's value may not be.
    @inline(__always)
    package static func rowLines(_ lines: Double) -> Int {
        guard lines >= 1 else { return 1 }
        return lines <= Double(PluginLimits.maxRowHeight) ? Int(lines.rounded()) : PluginLimits.maxRowHeight
    }

    /// The cell type a row names, resolved once per identifier (its near misses — hooks
    /// probably meant for it that never run — go to the context's warnings then); nil when
    /// the type is quarantined.
    private func reuseSlot(_ row: TableRow, at indexPath: IndexPath) throws -> ReuseSlot? {
        for known in types where known.name == row.identifier { return known.slot }
        if let quarantine, let text = quarantine(row.identifier) {
            placeholders[row.identifier] = text
            typeFaults[row.identifier] = faultOfType?(row.identifier)
            types.append((row.identifier, nil))
            return nil
        }
        HookProgress.resolving(row.identifier, section: indexPath.section, row: indexPath.row)
        let type: CellType
        do { type = try queue.registry.cellType(named: row.identifier) } catch {
            guard let mark = row.mark else { throw error }
            throw mark.error(error.description)
        }
        types.append((row.identifier, type.reuseSlot))
        let misses = queue.registry.nearMisses(for: type)
        for miss in misses {
            let file = type.pluginPath.split(separator: "/").last.map(String.init) ?? type.pluginPath
            queue.context.warn("\(file): cell type \(type.identifier) has a near miss: \(miss)")
        }
        if !type.customizes, misses.isEmpty {  // a static customize hook in a stripped file: no near miss shows
            let file = type.pluginPath.split(separator: "/").last.map(String.init) ?? type.pluginPath
            queue.context.warn(
                "\(file): cell type \(type.identifier) has no customizeCellFor\(type.identifier) hook: every row shows only what initCellFor\(type.identifier) set; export one (CK_EXPORT)"
            )
        }
        return type.reuseSlot
    }

    /// A row drawn without its cell type: one line naming why, in red. No hook runs.
    @inline(never)
    private func placeholder(
        _ row: TableRow, at indexPath: IndexPath, count: Int, width: Int, fault: RowFault?,
        into laidOut: inout RowLayout
    ) {
        let text = placeholders[row.identifier] ?? "⚠ row not drawn: the render faulted here (\(row.identifier))"
        laidOut.fault = fault ?? RowFault(message: text)
        laidOut.indexPath = indexPath
        laidOut.identifier = row.identifier
        laidOut.width = width
        laidOut.height = 1
        laidOut.position = RowPosition(row: indexPath.row, rowsInSection: count)
        laidOut.isSelected = false
        (laidOut.accessoryType, laidOut.selectionStyle) = (.none, .none)
        laidOut.background = Fill()
        laidOut.backgroundColor = nil
        let inner = max(1, width - 2)
        laidOut.separatorInset = min(1, width)  // its text's column, as a drawn row's
        (laidOut.indentation, laidOut.fixedHeight) = (0, false)
        var view = PlacedView(
            role: .textLabel, frame: Rect(x: 1, y: 0, width: inner, height: 1),
            laidOut: TextLayout.laidOut(text, width: inner, maxLines: 1, mode: .truncateTail),
            textColor: CellLayout.Palette.fault)
        view.fullText = FullText(TextBytes(text))
        laidOut.views = [view]
    }
}
