// The table API, as UITableView has it: a data source says what the rows are,
// a delegate adjusts how they are shown. A table document is one data source;
// an embedding program can supply its own.

import CellKitDocuments
import CellKitModel
import CellKitRuntime
import CellKitText

/// The table as a whole.
public struct TableInfo: Sendable {
    /// The title drawn above the table; nil for none.
    public var title: String?
    /// How sections are set apart; also decides the columns a cell gets (`RowFormat.contentWidth`).
    public var style: TableStyle
    /// The table header view's text (seed 000's "Header for the table"); nil for none.
    public var header: String?
    /// The table footer view's text, drawn below the last section; nil for none.
    public var footer: String?
    /// Which way the table reads: the title, header and footer are drawn from that side.
    public var direction = TextDirection.ltr
    /// The table's language (a BCP 47 tag), for the HTML page; nil: English.
    public var language: String?

    /// A table with no title, header or footer unless given, in the `grouped` style unless given.
    public init(title: String? = nil, style: TableStyle = .grouped, header: String? = nil, footer: String? = nil) {
        (self.title, self.style, self.header, self.footer) = (title, style, header, footer)
    }
}

/// One section's texts and the defaults its rows share.
public struct SectionInfo: Sendable {
    /// The text drawn above the section's rows; nil for none.
    public var header: String?
    /// The text drawn below the section's rows; nil for none.
    public var footer: String?
    /// The style cells of this section are created with.
    public var cellStyle: CellStyle
    /// False makes the section's cells non-selectable (selection style none), as in seed 004.
    public var selectable: Bool
    /// Which way the section's rows read: `rtl` mirrors them, `auto` mirrors each row whose text
    /// label reads right to left.
    public var direction = TextDirection.ltr
    /// The rows of the section the render writes (all of them, or the window's part): set by the
    /// renderer before `RowFormat.beginSection` (HTML writes a big section in blocks).
    public var rowsShown = 0

    /// A section with no header or footer unless given, whose cells are `default` style and selectable unless given.
    public init(header: String? = nil, footer: String? = nil, cellStyle: CellStyle = .default, selectable: Bool = true)
    {
        (self.header, self.footer, self.cellStyle, self.selectable) = (header, footer, cellStyle, selectable)
    }
}

/// What one row shows: the cell type to dequeue and the data its hooks read.
public struct TableRow: Sendable {
    /// The cell identifier: a built-in type (`Default`, `Subtitle`, `Value1`, `Value2`) or a plugin's.
    /// Resolved through the renderer's registry; an unknown one fails the render at `mark`.
    public var identifier: String
    /// The row's data (a JSON Lines row is decoded when this is read).
    public var data: RowValue {
        get { rowData.rowValue }
        set { rowData = .value(newValue) }
    }
    /// Where the row is written, for errors about it; nil for rows made in code.
    public var mark: SourceMark?
    var rowData: RowData

    /// A row of the cell type `identifier` whose hooks read `data` (null: no data).
    public init(identifier: String, data: RowValue = .null, mark: SourceMark? = nil) {
        self.init(identifier: identifier, rowData: .value(data), mark: mark)
    }

    init(identifier: String, rowData: consuming RowData, mark: SourceMark?) {
        self.identifier = identifier
        self.rowData = rowData
        self.mark = mark
    }

    /// Moves the data out, leaving null: handing it to a cell this way copies nothing.
    mutating func takeData() -> RowData {
        var data = RowData.value(.null)
        swap(&data, &rowData)
        return data
    }
}

/// Supplies a table's sections and rows (UITableViewDataSource).
/// Rows are asked for in order while a table renders; a source may stream them.
/// A render calls its source on the thread that runs it.
public protocol TableDataSource: AnyObject {
    /// The table's title, style, header and footer. Read once, when a render begins.
    var tableInfo: TableInfo { get }
    /// How many sections the table has. Asked once per render, after `tableInfo`.
    func numberOfSections() -> Int
    /// The texts and row defaults of `section` (from 0). Asked once per render for each section drawn
    /// (one with rows in the renderer's window, or an empty one when the window is the whole table),
    /// after its `numberOfRows(inSection:)` and before its rows.
    func sectionInfo(_ section: Int) -> SectionInfo
    /// How many rows `section` (from 0) has. Asked once per render for every section, in order,
    /// before any of that section's rows; a streaming source may count them then.
    /// A row's position (first, last) depends on it. A thrown error ends the render.
    func numberOfRows(inSection section: Int) throws -> Int
    /// The row at `indexPath`, both counted from 0. A renderer asks through `row(at:into:)`, whose
    /// default calls this: the rows in its window in order, section by section, each once.
    /// A thrown error ends the render.
    func row(at indexPath: IndexPath) throws -> TableRow
    /// `row(at:)` written into `row`, which a renderer keeps from one row to the next; it is what a
    /// renderer calls, in the order `row(at:)` describes.
    /// A streaming source implements it to spare copying each row's data and
    /// source mark; the default calls `row(at:)`.
    func row(at indexPath: IndexPath, into row: inout TableRow) throws
}

extension TableDataSource {
    /// Sets `row` to `row(at: indexPath)`.
    public func row(at indexPath: IndexPath, into row: inout TableRow) throws { row = try self.row(at: indexPath) }
}

/// Adjusts how rows are shown (UITableViewDelegate). Every method is optional.
/// For each row a renderer calls `willDisplay` first, then `rowHeight` if it needs it.
public protocol TableDelegate: AnyObject {
    /// The row's height in lines when its cell type gives none (no height hook, no rowHeight set);
    /// nil = as tall as its content. Rounded, and kept within 1 to 200 lines.
    /// Asked after `willDisplay(_:at:)` for the row, and only when the cell gives no height.
    func rowHeight(at indexPath: IndexPath) -> Double?
    /// Called with the configured cell (its init and customize hooks have run) just before it is
    /// sized, laid out and drawn; once per drawn row, in order. Changes to the cell show in the row.
    func willDisplay(_ cell: Cell, at indexPath: IndexPath)
}

extension TableDelegate {
    /// Nil: rows whose cell type gives no height are as tall as their content.
    public func rowHeight(at indexPath: IndexPath) -> Double? { nil }
    /// Does nothing.
    public func willDisplay(_ cell: Cell, at indexPath: IndexPath) {}
}
