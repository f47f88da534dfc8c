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

    public init() {
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    public func contentWidth(tableWidth: Int, style: TableStyle) -> Int {
        TextFormat().contentWidth(tableWidth: tableWidth, style: style)
    }

    private struct Table: Encodable { let title: String?, style: TableStyle, width: Int, header: String?, footer: String? }
    private struct Section: Encodable { let index: Int, header: String?, footer: String? }

    public mutating func begin(_ table: TableInfo, width: Int, to out: OutputBuffer) throws {
        let head = try object(Table(title: table.title, style: table.style, width: width, header: table.header, footer: table.footer))
        out.write(String(head.dropLast()) + ",\"sections\":[\n")
        sections = 0
    }

    public mutating func beginSection(_ section: SectionInfo, index: Int, to out: OutputBuffer) throws {
        let head = try object(Section(index: index, header: section.header, footer: section.footer))
        out.write((sections > 0 ? "," : "") + String(head.dropLast()) + ",\"rows\":[\n")
        sections += 1
    }

    public mutating func row(_ row: RowLayout, isFirst: Bool, isLast: Bool, to out: OutputBuffer) throws {
        out.write((isFirst ? "" : ",") + (try object(row)) + "\n")
    }

    public mutating func endSection(_ section: SectionInfo, index: Int, to out: OutputBuffer) throws { out.write("]}\n") }

    public mutating func end(_ table: TableInfo, to out: OutputBuffer) throws { out.write("]}\n") }

    private func object(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
