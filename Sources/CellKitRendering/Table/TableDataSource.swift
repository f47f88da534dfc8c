// The table API, as UITableView has it: a data source says what the rows are,
// a delegate adjusts how they are shown. A table document is one data source;
// an embedding program can supply its own.

import CellKitDocuments
import CellKitModel
import CellKitRuntime
import CellKitText

/// The table as a whole.
public struct TableInfo: Sendable {
    public var title: String?
    public var style: TableStyle
    /// The table header view's text (seed 000's "Header for the table"), and the footer's.
    public var header: String?
    public var footer: String?

    public init(title: String? = nil, style: TableStyle = .grouped, header: String? = nil, footer: String? = nil) {
        (self.title, self.style, self.header, self.footer) = (title, style, header, footer)
    }
}

/// One section's texts and the defaults its rows share.
public struct SectionInfo: Sendable {
    public var header: String?
    public var footer: String?
    /// The style cells of this section are created with.
    public var cellStyle: CellStyle
    /// False makes the section's cells non-selectable (selection style none), as in seed 004.
    public var selectable: Bool

    public init(header: String? = nil, footer: String? = nil, cellStyle: CellStyle = .default, selectable: Bool = true) {
        (self.header, self.footer, self.cellStyle, self.selectable) = (header, footer, cellStyle, selectable)
    }
}

/// What one row shows: the cell type to dequeue and the data its hooks read.
public struct TableRow: Sendable {
    public var identifier: String
    /// The row's data (a JSON Lines row is decoded when this is read).
    public var data: RowValue {
        get { rowData.rowValue }
        set { rowData = .value(newValue) }
    }
    /// Where the row is written, for errors about it; nil for rows made in code.
    public var mark: SourceMark?
    var rowData: RowData

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
public protocol TableDataSource: AnyObject {
    var tableInfo: TableInfo { get }
    func numberOfSections() -> Int
    func sectionInfo(_ section: Int) -> SectionInfo
    func numberOfRows(inSection section: Int) throws -> Int
    func row(at indexPath: IndexPath) throws -> TableRow
    /// `row(at:)` written into `row`, which a renderer keeps from one row to the next.
    /// A streaming source implements it to spare copying each row's data and
    /// source mark; the default calls `row(at:)`.
    func row(at indexPath: IndexPath, into row: inout TableRow) throws
}

extension TableDataSource {
    public func row(at indexPath: IndexPath, into row: inout TableRow) throws { row = try self.row(at: indexPath) }
}

/// Adjusts how rows are shown (UITableViewDelegate). Every method is optional.
public protocol TableDelegate: AnyObject {
    /// The row's height in lines when its cell type gives none (no height hook, no rowHeight set);
    /// nil = as tall as its content.
    func rowHeight(at indexPath: IndexPath) -> Double?
    /// Called with the configured cell just before it is laid out and drawn.
    func willDisplay(_ cell: Cell, at indexPath: IndexPath)
}

extension TableDelegate {
    public func rowHeight(at indexPath: IndexPath) -> Double? { nil }
    public func willDisplay(_ cell: Cell, at indexPath: IndexPath) {}
}
