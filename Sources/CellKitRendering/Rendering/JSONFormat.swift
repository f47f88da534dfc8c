// The `json` and `jsonl` formats: every laid-out row, for tools. Versioned
// ("format": "cellkit.render", "version": 1) and described by a JSON Schema in the
// repository (Schemas/cellkit-render-1.schema.json); within a version, fields are
// only ever added. `json` is one document, a row a line inside it; `jsonl` is a
// header line, then one row object a line, for streaming tools. Written as bytes
// straight into the output buffer (JSONBytes.swift).

import CellKitDocuments
import CellKitModel
import CellKitRuntime
import CellKitText

/// Writes a table as `cellkit.render` JSON, version 1: one document (`json`), or a header line and
/// a line per row (`jsonl`). The schema, `Schemas/cellkit-render-1.schema.json`, and the
/// "JSON Output" article describe every field.
public struct JSONFormat: RowFormat {
    /// The `format` member of every document and header line.
    public static let formatName = "cellkit.render"
    /// The version of the format written. Within a version fields are only added, never removed,
    /// renamed or given another meaning; anything else makes a new version.
    public static let version = 1

    /// JSON Lines (`jsonl`): a header line, then one row object a line, instead of one document.
    public var jsonLines: Bool
    /// The rows asked for (`TableRenderer.window`), reported in the `window` member; nil: the whole table.
    public var window: RowWindow?

    private var sections = 0
    /// In JSON Lines, the section whose texts the next row carries (its first row drawn), or nil.
    private var pendingSection: SectionInfo?
    /// The pieces last written at each place of a row, for the next row's pieces that are written
    /// alike (`PieceMemo`): its members between its index path and its views, each view's role and
    /// frame, and each view's members after its lines.
    private var rowPieces = PieceMemo(places: 1), viewHeads = PieceMemo(places: 16)
    private var viewTails = PieceMemo(places: 16)
    /// The last row's identifier, and how many times it changed (a word of `rowPieces`' key).
    private var identifier = "", identifiers: UInt64 = 0

    /// How many pieces of rows were written from the bytes kept of earlier rows' (for tests).
    var piecesReplayed: Int { rowPieces.replayed + viewHeads.replayed + viewTails.replayed }

    /// A format writing one document, or with `jsonLines` a header line and a line per row; `window`
    /// is the renderer's window, for the `window` member.
    public init(jsonLines: Bool = false, window: RowWindow? = nil) {
        (self.jsonLines, self.window) = (jsonLines, window)
    }

    /// As `TextFormat`'s, so the rows have the widths the terminal draws.
    public func contentWidth(tableWidth: Int, style: TableStyle) -> Int {
        TextFormat().contentWidth(tableWidth: tableWidth, style: style)
    }

    /// Writes the document's head (format, version, the table's texts, style and width, the frames'
    /// units), then `"sections":[` (`json`); or the header line (`jsonl`), with the window asked for.
    public mutating func begin(_ table: TableInfo, width: Int, to out: OutputBuffer) throws {
        sections = 0
        pendingSection = nil
        out.raw("{\"format\":\"cellkit.render\",\"version\":1")
        if jsonLines { out.raw(",\"stream\":\"jsonl\"") }
        Self.optional("title", table.title, out)
        out.raw(",\"style\":")
        out.jsonString(table.style.rawValue)
        out.raw(",\"width\":")
        out.decimal(width)
        out.raw(",\"units\":{\"horizontal\":\"columns\",\"vertical\":\"lines\"}")
        Self.optional("header", table.header, out)
        Self.optional("footer", table.footer, out)
        if jsonLines {
            writeWindow(drawn: nil, total: nil, out)
            out.raw("}\n")
        } else {
            out.raw(",\"sections\":[\n")
        }
    }

    /// Opens a section object (its index, header and footer), then `"rows":[`; in JSON Lines, keeps
    /// the section's texts for its first row.
    public mutating func beginSection(_ section: SectionInfo, index: Int, to out: OutputBuffer) throws {
        if jsonLines {
            pendingSection = section.header != nil || section.footer != nil ? section : nil
            return
        }
        if sections > 0 { out.write(byte: 0x2C) }
        out.raw("{\"index\":")
        out.decimal(index)
        Self.optional("header", section.header, out)
        Self.optional("footer", section.footer, out)
        out.raw(",\"rows\":[\n")
        sections += 1
    }

    /// Writes the row as one JSON object on its own line.
    public mutating func row(_ row: RowLayout, isFirst: Bool, isLast: Bool, to out: OutputBuffer) throws {
        if !jsonLines, !isFirst { out.write(byte: 0x2C) }
        // Only on the section's first row: after a worker's fault, the rows before the resumed one
        // were delivered by the worker before (with the texts), and this one skipped them.
        write(row, sectionTexts: jsonLines && isFirst ? pendingSection : nil, out)
        pendingSection = nil
        out.write(byte: 0x0A)
    }

    /// Closes the section's rows and object; in JSON Lines, writes an `emptySection` line for a
    /// section with a header or footer and no rows.
    public mutating func endSection(_ section: SectionInfo, index: Int, to out: OutputBuffer) throws {
        if !jsonLines { out.raw("]}\n") }
        // A section with texts and no row: its texts on a line of their own, not lost.
        if jsonLines, let pending = pendingSection {
            out.raw("{\"emptySection\":{\"index\":")
            out.decimal(index)
            Self.optional("header", pending.header, out)
            Self.optional("footer", pending.footer, out)
            out.raw("}}\n")
            pendingSection = nil
        }
    }

    /// Closes the sections and writes the `window` member: the rows asked for, drawn, and in the table.
    public mutating func tableRows(drawn: Int, total: Int, to out: OutputBuffer) throws {
        guard !jsonLines else { return }
        out.raw("]")
        writeWindow(drawn: drawn, total: total, out)
    }

    /// Closes the document (nothing in JSON Lines).
    public mutating func end(_ table: TableInfo, to out: OutputBuffer) throws {
        if !jsonLines { out.raw("}\n") }
    }

    // MARK: Writing

    /// `,"window":{"first":F,"last":L|null[,"drawn":N,"total":T]}`.
    private func writeWindow(drawn: Int?, total: Int?, _ out: OutputBuffer) {
        let window = window ?? RowWindow()
        out.raw(",\"window\":{\"first\":")
        out.decimal(window.first)
        out.raw(",\"last\":")
        if window.last == .max { out.raw("null") } else { out.decimal(window.last) }
        if let drawn {
            out.raw(",\"drawn\":")
            out.decimal(drawn)
        }
        if let total {
            out.raw(",\"total\":")
            out.decimal(total)
        }
        out.write(byte: 0x7D)
    }

    /// `,"key":"text"` when `text` is not nil.
    private static func optional(_ key: StaticString, _ text: String?, _ out: OutputBuffer) {
        guard let text else { return }
        out.raw(",\"")
        out.raw(key)
        out.raw("\":")
        out.jsonString(text)
    }

    /// One row object.
    private mutating func write(_ row: RowLayout, sectionTexts: SectionInfo?, _ out: OutputBuffer) {
        rowPieces.startRow()
        viewHeads.startRow()
        viewTails.startRow()
        out.raw("{\"index\":")
        out.decimal(row.tableIndex)
        out.raw(",\"section\":")
        out.decimal(row.indexPath.section)
        out.raw(",\"row\":")
        out.decimal(row.indexPath.row)
        if let key = middleKey(row) {
            let mark = out.count
            if !rowPieces.replay(key, out) {
                Self.writeMiddle(row, out)
                rowPieces.keep(key, since: mark, out)
            }
        } else {
            Self.writeMiddle(row, out)
        }
        // Through a pointer: iterating `row.views` copied each view (its text and lines retained).
        row.views.withUnsafeBufferPointer { views in
            for k in views.indices {
                if k > 0 { out.write(byte: 0x2C) }
                write(views.baseAddress! + k, out)
            }
        }
        out.write(byte: 0x5D)
        if let fault = row.fault { Self.write(fault, out) }
        if let section = sectionTexts {
            out.raw(",\"sectionTexts\":{")
            if let header = section.header {
                out.raw("\"header\":")
                out.jsonString(header)
            }
            if let footer = section.footer {
                out.raw(section.header == nil ? "\"footer\":" : ",\"footer\":")
                out.jsonString(footer)
            }
            out.write(byte: 0x7D)
        }
        out.write(byte: 0x7D)
    }

    /// What decides the row's members from its identifier to its views (`writeMiddle`), in words; nil
    /// when its background names an image (a string the key does not hold).
    private mutating func middleKey(_ row: RowLayout) -> PieceMemo.Key? {
        typealias K = PieceMemo.Key
        guard row.background.imageName == nil else { return nil }
        if row.identifier != identifier { (identifier, identifiers) = (row.identifier, identifiers &+ 1) }
        let accessory = UInt64(UInt32(bitPattern: row.accessoryType.rawValue))
        let flags =
            K.flag | K.bit(row.isSelected, 0) | K.bit(row.isRightToLeft, 1) | K.bit(Names.showsAccessoryView(row), 2)
            | row.position.keyCode << 8
            | UInt64(UInt8(truncatingIfNeeded: row.selectionStyle.rawValue)) << 16 | accessory << 24
        return K(
            flags, identifiers, K.word(row.width), K.word(row.height), K.word(row.background.color),
            K.word(row.backgroundColor))
    }

    /// The row's members from its identifier to its views' opening bracket.
    private static func writeMiddle(_ row: RowLayout, _ out: OutputBuffer) {
        out.raw(",\"identifier\":")
        out.jsonString(row.identifier)
        out.raw(",\"width\":")
        out.decimal(row.width)
        out.raw(",\"height\":")
        out.decimal(row.height)
        out.raw(",\"position\":")
        out.raw(Names.position(row.position))
        out.raw(",\"selected\":")
        out.boolean(row.isSelected)
        if row.isRightToLeft { out.raw(",\"direction\":\"rtl\"") }
        out.raw(",\"selectionStyle\":")
        out.write(Names.selection(row.selectionStyle))
        out.raw(",\"accessory\":")
        out.write(Names.accessory(row))
        out.raw(",\"background\":{")
        if let color = row.background.color {
            out.raw("\"color\":")
            out.color(color)
        }
        if let image = row.background.imageName {
            out.raw(row.background.color == nil ? "\"imageName\":" : ",\"imageName\":")
            out.jsonString(image)
        }
        out.write(byte: 0x7D)
        if let color = row.backgroundColor {
            out.raw(",\"backgroundColor\":")
            out.color(color)
        }
        out.raw(",\"views\":[")
    }

    /// One view object: its role and frame, and its members after its lines, written from the bytes
    /// kept of an earlier row's when they are the same (`viewHeads`, `viewTails`).
    private mutating func write(_ view: UnsafePointer<PlacedView>, _ out: OutputBuffer) {
        typealias K = PieceMemo.Key
        let frame = view.pointee.frame
        let head = K(
            K.flag | view.pointee.role.keyCode, K.word(view.pointee.tag), K.word(frame.x), K.word(frame.y),
            K.word(frame.width), K.word(frame.height))
        var mark = out.count
        if !viewHeads.replay(head, out) {
            Self.writeHead(view, out)
            viewHeads.keep(head, since: mark, out)
        }
        Self.writeLines(view, out)
        guard view.pointee.imageName == nil else { return Self.writeTail(view, out) }
        let flags =
            K.flag | K.bit(view.pointee.bold, 0) | K.bit(view.pointee.small, 1)
            | UInt64(UInt8(truncatingIfNeeded: view.pointee.alignment.rawValue)) << 8
        let tail = K(flags, K.word(view.pointee.textColor), K.word(view.pointee.backgroundColor))
        mark = out.count
        if !viewTails.replay(tail, out) {
            Self.writeTail(view, out)
            viewTails.keep(tail, since: mark, out)
        }
    }

    /// A view's role, tag and frame, its object opened.
    private static func writeHead(_ view: UnsafePointer<PlacedView>, _ out: OutputBuffer) {
        out.raw("{\"role\":")
        out.raw(Names.role(view.pointee.role))
        out.raw(",\"tag\":")
        out.decimal(view.pointee.tag)
        let frame = view.pointee.frame
        out.raw(",\"frame\":{\"x\":")
        out.decimal(frame.x)
        out.raw(",\"y\":")
        out.decimal(frame.y)
        out.raw(",\"width\":")
        out.decimal(frame.width)
        out.raw(",\"height\":")
        out.decimal(frame.height)
        out.write(byte: 0x7D)
    }

    /// A view's text and lines, the lines' array left open.
    private static func writeLines(_ view: UnsafePointer<PlacedView>, _ out: OutputBuffer) {
        var plain = false  // lines of the text, which went out unescaped: they need no escape either
        // The row holds the text (BENCHMARKS.md, "Measurements behind the code": HTMLFormat.unretained).
        if let unretained = view.pointee.unretainedFullText {
            out.raw(",\"text\":")
            unretained._withUnsafeGuaranteedRef { text in
                let escaped = text.withBytes { out.jsonString($0, clean: text.isClean) }
                plain = !escaped && text === view.pointee.laidOut.text
            }
        }
        out.raw(",\"lines\":[")
        for i in 0..<view.pointee.laidOut.count {
            if i > 0 { out.write(byte: 0x2C) }
            let line = view.pointee.laidOut.unsafeBytes(ofLine: i)
            if plain { out.plainJSONString(line) } else { out.jsonString(line) }
        }
    }

    /// A view's members after its lines, its object closed.
    private static func writeTail(_ view: UnsafePointer<PlacedView>, _ out: OutputBuffer) {
        out.raw("],\"alignment\":")
        out.raw(Names.alignment(view.pointee.alignment))
        if let color = view.pointee.textColor {
            out.raw(",\"textColor\":")
            out.color(color)
        }
        if let color = view.pointee.backgroundColor {
            out.raw(",\"backgroundColor\":")
            out.color(color)
        }
        out.raw(",\"bold\":")
        out.boolean(view.pointee.bold)
        out.raw(",\"small\":")
        out.boolean(view.pointee.small)
        if let image = view.pointee.imageName {
            out.raw(",\"imageName\":")
            out.jsonString(image)
            out.raw(",\"missingImage\":")
            out.boolean(view.pointee.missingImage)
        }
        out.write(byte: 0x7D)
    }

    /// `,"fault":{...}`.
    private static func write(_ fault: RowFault, _ out: OutputBuffer) {
        out.raw(",\"fault\":{\"outcome\":")
        out.jsonString(fault.outcome)
        optional("plugin", fault.plugin, out)
        optional("hook", fault.hook, out)
        optional("identifier", fault.identifier, out)
        optional("signal", fault.signal, out)
        if let number = fault.signalNumber {
            out.raw(",\"signalNumber\":")
            out.decimal(number)
        }
        if let status = fault.exitStatus {
            out.raw(",\"exitStatus\":")
            out.decimal(status)
        }
        if let seconds = fault.timeoutSeconds {
            out.raw(",\"timeoutSeconds\":")
            out.write("\(seconds)")
        }
        optional("message", fault.message, out)
        out.write(byte: 0x7D)
    }

    /// The names the format writes for enumerations, quoted.
    enum Names {
        static func position(_ p: RowPosition) -> StaticString {
            switch p {
            case .single: "\"single\""
            case .top: "\"top\""
            case .middle: "\"middle\""
            case .bottom: "\"bottom\""
            }
        }

        static func role(_ r: PlacedView.Role) -> StaticString {
            switch r {
            case .imageView: "\"imageView\""
            case .textLabel: "\"textLabel\""
            case .detailTextLabel: "\"detailTextLabel\""
            case .subview: "\"subview\""
            case .accessory: "\"accessory\""
            }
        }

        static func alignment(_ a: TextAlignment) -> StaticString {
            switch a {
            case .natural: "\"natural\""
            case .left: "\"left\""
            case .center: "\"center\""
            case .right: "\"right\""
            }
        }

        /// Every case's name, quoted, by raw value: made once from the cases, so a case added
        /// to the enumeration gets its name here without a change.
        private static let accessories = names(AccessoryType.allCases)
        private static let selections = names(SelectionStyle.allCases)

        private static func names<E: RawRepresentable<Int32>>(_ cases: [E]) -> [(Int32, [UInt8])] {
            cases.map { ($0.rawValue, Array("\"\($0)\"".utf8)) }
        }

        private static func lookUp(_ raw: Int32, in names: [(Int32, [UInt8])]) -> [UInt8] {
            for (value, name) in names where value == raw { return name }
            return Array("\"unknown\"".utf8)
        }

        static func selection(_ s: SelectionStyle) -> [UInt8] { lookUp(s.rawValue, in: selections) }

        /// The standard accessory's name; `view` for a row whose cell has an accessory view.
        static func accessory(_ row: RowLayout) -> [UInt8] {
            showsAccessoryView(row) ? view : lookUp(row.accessoryType.rawValue, in: accessories)
        }

        /// Whether the row's accessory is the cell's accessory view (named "view"), not a standard one.
        static func showsAccessoryView(_ row: RowLayout) -> Bool {
            // Through a pointer: the last view itself not copied.
            row.accessoryType == .none && row.views.withUnsafeBufferPointer { $0.last?.role == .accessory }
        }
        private static let view = Array("\"view\"".utf8)
    }
}
