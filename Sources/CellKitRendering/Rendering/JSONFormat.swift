// The `json` format: the laid-out tree of every row, for tools and tests.
// One JSON document, written as it goes: sections and rows are array elements,
// one row per line.

import CellKitDocuments
import CellKitModel
import CellKitRuntime
import CellKitText
import Foundation

/// Writes `{"title", "style", "width", ..., "sections": [{..., "rows": [RowLayout, ...]}]}`.
public struct JSONFormat: RowFormat {
    private let encoder: JSONEncoder
    private var sections = 0

    /// A format writing keys sorted, slashes unescaped.
    public init() {
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    /// As `TextFormat`'s, so the rows have the widths the terminal draws.
    public func contentWidth(tableWidth: Int, style: TableStyle) -> Int {
        TextFormat().contentWidth(tableWidth: tableWidth, style: style)
    }

    private struct Table: Encodable {
        let title: String?, style: TableStyle, width: Int, header: String?, footer: String?
    }
    private struct Section: Encodable { let index: Int, header: String?, footer: String? }

    /// Opens the document: the table's title, style, width, header and footer, then `"sections":[`.
    public mutating func begin(_ table: TableInfo, width: Int, to out: OutputBuffer) throws {
        let head = try object(
            Table(title: table.title, style: table.style, width: width, header: table.header, footer: table.footer))
        out.write(String(head.dropLast()) + ",\"sections\":[\n")
        sections = 0
    }

    /// Opens a section object (its index, header and footer), then `"rows":[`.
    public mutating func beginSection(_ section: SectionInfo, index: Int, to out: OutputBuffer) throws {
        let head = try object(Section(index: index, header: section.header, footer: section.footer))
        out.write((sections > 0 ? "," : "") + String(head.dropLast()) + ",\"rows\":[\n")
        sections += 1
    }

    /// Writes the `RowLayout` as one JSON object on its own line.
    public mutating func row(_ row: RowLayout, isFirst: Bool, isLast: Bool, to out: OutputBuffer) throws {
        out.write((isFirst ? "" : ",") + (try object(row)) + "\n")
    }

    /// Closes the section's rows and object.
    public mutating func endSection(_ section: SectionInfo, index: Int, to out: OutputBuffer) throws {
        out.write("]}\n")
    }

    /// Closes the sections and the document.
    public mutating func end(_ table: TableInfo, to out: OutputBuffer) throws { out.write("]}\n") }

    private func object(_ value: some Encodable) throws -> String {
        TextSanitizer.escapingHidden(json: String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
