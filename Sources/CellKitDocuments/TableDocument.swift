// A table document (YAML or JSON): the table's look, its sections, and rows
// written inline or streamed from a JSON Lines or CSV file.

import CellKitModel
import CellKitText
import Foundation
import Yams

/// UITableView's styles: how sections are set apart. The raw value is the name a document writes.
public enum TableStyle: String, CaseIterable, Sendable, Encodable, NamedCases {
    /// Rows edge to edge with separators between them; section headers on a tinted band.
    case plain
    /// Sections edge to edge between full-width rules, no sides or corners (UIKit's grouped since
    /// iOS 7), apart by a blank line. The default.
    case grouped
    /// Each section a box with rounded corners, inset 2 columns from each side (iOS 13's insetGrouped).
    case insetGrouped

    /// Its raw value: `plain`, `grouped` or `insetGrouped`.
    public var name: String { rawValue }
}

/// A place in a document, for errors found after loading.
public struct SourceMark: Sendable, Equatable {
    /// The file's path, as the document or data file was named (not made absolute).
    public var file: String
    /// The line, counted from 1.
    public var line: Int
    /// The column, counted from 1 in unicode scalars.
    public var column: Int

    /// A place: a file, and a line and column counted from 1.
    public init(file: String, line: Int, column: Int) { (self.file, self.line, self.column) = (file, line, column) }

    /// An error at this place.
    package func error(_ message: String) -> DocumentError {
        DocumentError(file: file, line: line, column: column, message)
    }
}

/// A loaded table document: the table's look and its sections, checked when loaded.
/// Rows streamed from data files are not read until a data source asks for them.
public struct TableDocument: Sendable {
    /// The document's path as given to `init(contentsOf:)`; paths inside it are relative to its folder.
    public var path: String
    /// The title drawn above the table; nil for none.
    public var title: String?
    /// The table's style; `grouped` when the document names none.
    public var style = TableStyle.grouped
    /// The table's width in columns (20 to 1000), used when the command line gives none; nil if unset.
    public var width: Int?
    /// Lines per row (1 to 100) when the cell's type gives no height and the section sets none;
    /// nil = as tall as the content. `automaticRowHeight` (`rowHeight: automatic`) is as tall as
    /// the content too, and overrides nothing below it.
    public var rowHeight: Double?

    /// Which way the rows read (`direction: ltr|rtl|auto`); nil: left to right.
    public var direction: TextDirection?
    /// The document's language (`lang: he`), for the HTML page's `lang`; nil: not said (the page says `und`).
    public var language: String?

    /// `rowHeight: automatic`: the row as tall as its content (UIKit's automaticDimension, -1).
    public static let automaticRowHeight = -1.0
    /// The table header view's text (seed 000's "Header for the table").
    public var header: String?
    /// The table footer view's text, drawn below the last section; nil for none.
    public var footer: String?
    /// The row drawn selected unless the command line picks another (seed 000 shows one).
    public var selected: CellKitModel.IndexPath?
    /// The styles hooks apply with `ck_apply_style`, from the `stylesheet:` file; empty when there is none.
    public var stylesheet = Stylesheet()
    /// The images rows and hooks name, from the `assets:` file; empty when there is none.
    public var assets = AssetCatalog()
    /// The sections in document order; a loaded document has at least one.
    public var sections: [Section] = []
    /// The real path of the folder the document may read files from (see `init(contentsOf:root:)`).
    public var root: String
    /// Problems found loading the document that do not stop it from being drawn (an image file that cannot
    /// be inlined into HTML draws the placeholder). `DocumentTable` passes them on to the context the
    /// table is drawn with.
    public var warnings: [String] = []

    /// One section: its texts, the defaults its rows share, and where its rows come from.
    public struct Section: Sendable {
        /// The text drawn above the section's rows; nil for none.
        public var header: String?
        /// The text drawn below the section's rows; nil for none.
        public var footer: String?
        /// The identifier of rows that name none.
        public var cell: String?
        /// Where the section's `cell:` is written, for errors about that identifier; nil when it has none.
        public var cellMark: SourceMark?
        /// The style the section's cells are created with; `default` when the document names none.
        public var cellStyle = CellStyle.default
        /// False makes the section's cells non-selectable (selection style none); true by default.
        public var selectable = true
        /// Lines per row (1 to 100) for this section, over the table's `rowHeight`; nil = the table's;
        /// `automaticRowHeight`: as tall as the content, whatever the table's.
        public var rowHeight: Double?
        /// Which way the section's rows read, over the table's `direction`; nil = the table's.
        public var direction: TextDirection?
        /// The section's rows: written inline, a count, or a data file.
        public var rows: Rows
        /// Where the section is written in the document.
        public var mark: SourceMark
    }

    /// Where a section's rows come from.
    public enum Rows: Sendable {
        /// Rows written out in the document, in order.
        case inline([Row])
        /// N rows with no data (seed 004's numbered rows), 0 to 10,000,000; all use the section's `cell`.
        case count(Int)
        /// Streamed from a data file, never loaded whole.
        case file(DataFile)
    }

    /// An inline row.
    public struct Row: Sendable {
        /// The identifier the row names with `cell:`; nil = the section's `cell`.
        public var cell: String?
        /// The row's own `rowHeight:` (lines, 1 to 100, or `automaticRowHeight`), over its
        /// section's and the table's; nil = theirs. Not part of `data`.
        public var rowHeight: Double?
        /// The row's other keys as an object; a bare text is `{text: ...}`.
        public var data: RowValue
        /// Where the row is written in the document.
        public var mark: SourceMark
    }

    /// Loads and checks the document at `path`; paths inside it are relative to its folder.
    ///
    /// The document reads only regular files inside `root`, a folder that holds the document; nil (the
    /// default) is the document's own folder, and everything below it. A path outside it, absolute or with
    /// `..`, or leading out through a symbolic link, is an error at the line that writes it; so is a FIFO,
    /// device or folder where a file is expected. Every file is held to `DocumentLimits`.
    public init(contentsOf path: String, root: String? = nil) throws(DocumentError) {
        try self.init(path: path, root: root, bytes: nil)
    }

    /// Whether `path` names standard input: `-` or `/dev/stdin`. Such a document is read from
    /// descriptor 0 (any kind of file: a pipe, a terminal), and its root is the current folder.
    package static func isStandardInput(_ path: String) -> Bool { path == "-" || path == "/dev/stdin" }

    /// The bytes of a document read from standard input, kept for a worker process that cannot read
    /// them again; nil for a document read from a file.
    package var standardInputBytes: [UInt8]?

    /// The document at `path`, parsed from `given` when not nil (a worker handed a document read
    /// from standard input), else read from standard input or the file as `init(contentsOf:root:)` says.
    package init(path: String, root: String?, bytes given: [UInt8]?) throws(DocumentError) {
        self.path = path
        let place = SourceMark(file: path, line: 1, column: 1)
        let fromInput = Self.isStandardInput(path)
        let bytes: [UInt8]
        do throws(FileProblem) {
            folder = try FileRoot.forDocument(fromInput ? "-" : path, folder: root)
            if let given {
                bytes = given
            } else if fromInput {
                bytes = try FileAccess.readStandardInput(
                    limit: DocumentLimits.fileBytes,
                    tooLarge: "write it to a file and stream rows from a .jsonl or .csv file with rowsFrom")
            } else {
                guard let real = FileAccess.realPath(path) else {
                    throw FileProblem(
                        errno == ENOENT || errno == ENOTDIR
                            ? "the file does not exist" : "the file cannot be read: \(String(cString: strerror(errno)))"
                    )
                }
                bytes = try FileAccess.read(
                    real, name: path, limit: DocumentLimits.fileBytes,
                    tooLarge:
                        "split it, or stream rows from a .jsonl or .csv file with rowsFrom (the limit is DocumentLimits.fileBytes)"
                )
            }
        } catch { throw place.error(error.message) }
        if fromInput { standardInputBytes = bytes }
        self.root = folder.real
        let (reader, top) = try NodeReader.parse(bytes, file: path, quotes: true)
        let keys = [
            "title", "style", "width", "rowHeight", "direction", "lang", "header", "footer", "selected", "stylesheet",
            "assets", "sections",
        ]
        let f = try reader.fields(top, allowed: keys, what: "the table")
        title = try f["title"].map { (n: Node) throws(DocumentError) in try reader.string(n) }
        if let n = f["style"] { style = try reader.choice(n, TableStyle.self) }
        width = try f["width"].map { (n: Node) throws(DocumentError) in try reader.int(n, in: 20...1000) }
        rowHeight = try f["rowHeight"].map { (n: Node) throws(DocumentError) in try reader.rowHeight(n) }
        if let n = f["direction"] { direction = try reader.choice(n, TextDirection.self) }
        language = try f["lang"].map { (n: Node) throws(DocumentError) in try reader.language(n) }
        header = try f["header"].map { (n: Node) throws(DocumentError) in try reader.string(n) }
        footer = try f["footer"].map { (n: Node) throws(DocumentError) in try reader.string(n) }
        if let n = f["selected"] {
            let g = try reader.fields(n, allowed: ["section", "row"], what: "the selected row")
            guard let section = g["section"], let row = g["row"] else {
                throw reader.error(n, "write the selected row as {section: S, row: R}")
            }
            selected = CellKitModel.IndexPath(
                section: try reader.int(section, in: 0...Int(Int32.max)),
                row: try reader.int(row, in: 0...Int(Int32.max)))
        }
        if let n = f["stylesheet"] {
            let root = folder
            var sheets = StylesheetFile(document: path) { (node, reader, from) throws(DocumentError) in
                try Self.readReferenced(node, reader, root: root, from: from)
            }
            for item in n.sequence ?? [n] {
                try sheets.admit(item, reader)
                let (file, bytes) = try readReferenced(item, reader)
                try sheets.add(bytes, file, namedAt: (item, reader))
            }
            stylesheet = try sheets.flattened()
        }
        if let n = f["assets"] {
            let (file, bytes) = try readReferenced(n, reader)
            assets = try AssetCatalogFile.load(bytes, file: file.display, root: folder, warnings: &warnings)
        }
        guard let list = f["sections"] else {
            throw reader.error(top, "the table has no 'sections'; add a list of sections")
        }
        guard let items = list.sequence, !items.isEmpty else {
            throw reader.expected("a non-empty list of sections", list)
        }
        guard items.count <= DocumentLimits.sections else {
            throw reader.error(
                items[DocumentLimits.sections],
                "more than \(FileAccess.grouped(DocumentLimits.sections)) sections (the limit, DocumentLimits.sections); merge sections, or stream rows from a file with rowsFrom"
            )
        }
        var inlineRows = 0
        var misses: [String] = []
        for item in items { sections.append(try section(item, reader, inlineRows: &inlineRows, misses: &misses)) }
        warnings += misses
    }

    /// The folder tree the document may read files from.
    private let folder: FileRoot

    /// The file a document's key names (`stylesheet:`, `assets:`), confined to the root and read whole
    /// (at most `DocumentLimits.fileBytes`); problems are errors at the key's value.
    private func readReferenced(_ node: Node, _ reader: NodeReader) throws(DocumentError) -> (ConfinedPath, [UInt8]) {
        try Self.readReferenced(node, reader, root: folder, from: PathText.folder(of: path))
    }

    private static func readReferenced(_ node: Node, _ reader: NodeReader, root: FileRoot, from: String)
        throws(DocumentError) -> (ConfinedPath, [UInt8])
    {
        let written = try reader.string(node)
        do throws(FileProblem) {
            let file = try root.resolve(written, from: from)
            let bytes = try FileAccess.read(
                file.real, name: written, limit: DocumentLimits.fileBytes,
                tooLarge: "split it (the limit is DocumentLimits.fileBytes)")
            return (file, bytes)
        } catch { throw reader.error(node, error.message) }
    }

    private func mark(_ node: Node) -> SourceMark {
        SourceMark(file: path, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
    }

    private func section(
        _ node: Node, _ reader: NodeReader, inlineRows: inout Int, misses: inout [String]
    ) throws(DocumentError) -> Section {
        let keys = ["header", "footer", "cell", "style", "selectable", "rowHeight", "direction", "rows", "rowsFrom"]
        let f = try reader.fields(node, allowed: keys, what: "a section")
        var section = Section(rows: .count(0), mark: mark(node))
        section.header = try f["header"].map { (n: Node) throws(DocumentError) in try reader.string(n) }
        section.footer = try f["footer"].map { (n: Node) throws(DocumentError) in try reader.string(n) }
        if let n = f["cell"] { section.cell = try reader.string(n); section.cellMark = mark(n) }
        if let n = f["style"] { section.cellStyle = try reader.choice(n, CellStyle.self) }
        if let n = f["selectable"] { section.selectable = try reader.bool(n) }
        section.rowHeight = try f["rowHeight"].map { (n: Node) throws(DocumentError) in try reader.rowHeight(n) }
        if let n = f["direction"] { section.direction = try reader.choice(n, TextDirection.self) }
        switch (f["rows"], f["rowsFrom"]) {
        case (.some, .some): throw reader.error(node, "a section takes 'rows' or 'rowsFrom', not both")
        case (nil, nil):
            throw reader.error(
                node, "the section has no rows; add 'rows' (a list or a count) or 'rowsFrom' (a .jsonl or .csv file)")
        case (let rows?, nil):
            if let list = rows.sequence {
                inlineRows += list.count
                guard inlineRows <= DocumentLimits.inlineRows else {
                    throw reader.error(
                        rows,
                        "more than \(FileAccess.grouped(DocumentLimits.inlineRows)) rows written inline (the limit, DocumentLimits.inlineRows); stream them from a .jsonl or .csv file with rowsFrom"
                    )
                }
                var found: [String] = []
                section.rows = .inline(
                    try list.map { (n: Node) throws(DocumentError) in try row(n, reader, misses: &found) })
                misses += found
            } else {
                section.rows = .count(try reader.int(rows, in: 0...10_000_000))
            }
        case (nil, let file?):
            let name = try reader.string(file)
            guard let format = DataFile.Format(path: name) else {
                throw reader.error(
                    file, "'\(name)' is not a .jsonl, .ndjson or .csv file; rows stream from JSON Lines or CSV")
            }
            do throws(FileProblem) {
                // Checked now, so a FIFO or a device is refused before anything is drawn (and never blocks).
                let confined = try folder.resolve(name, from: PathText.folder(of: path))
                close(try FileAccess.openRegular(confined.real, name: name))
                section.rows = .file(
                    DataFile(path: confined.display, real: confined.real, format: format, mark: mark(file)))
            } catch { throw reader.error(file, error.message) }
        }
        return section
    }

    /// A row: a mapping whose `cell` key names its identifier and whose other keys are its data,
    /// or a bare text that becomes `{text: ...}` for the built-in styles. A data key spelt as
    /// `cell` or `rowHeight` but for case is kept as data, with a warning in `misses`.
    private func row(_ node: Node, _ reader: NodeReader, misses: inout [String]) throws(DocumentError) -> Row {
        if node.scalar != nil {
            return Row(cell: nil, rowHeight: nil, data: .object(["text": try reader.value(node)]), mark: mark(node))
        }
        guard let mapping = node.mapping else { throw reader.expected("a row (a mapping or a text)", node) }
        var cell: String?
        var rowHeight: Double?
        var data: [String: RowValue] = [:]
        for (key, value) in mapping {
            switch key.scalar?.string ?? "" {
            case "cell": cell = try reader.string(value)
            case "rowHeight": rowHeight = try reader.rowHeight(value)
            case let name:
                // Only names of their lengths are compared: no lowercased copy of every data key.
                if name.utf8.count == 4 || name.utf8.count == 9,
                    let meant = ["cell", "rowHeight"].first(where: { $0.lowercased() == name.lowercased() })
                {
                    let at = mark(key)
                    misses.append(
                        "\(at.file):\(at.line):\(at.column): the row key '\(name)' is row data;"
                            + " did you mean '\(meant)'?")
                }
                data[name] = try reader.value(value)
            }
        }
        return Row(cell: cell, rowHeight: rowHeight, data: .object(data), mark: mark(node))
    }
}

// MARK: - Stylesheets and asset catalogs

/// Loads stylesheet files: each a `styles:` mapping of names to properties, with `extends`, and an
/// `include:` list of stylesheets read before it (a later file's style replaces an earlier one of the
/// same name; `extends` reaches any style read). Included paths are read from the including file's
/// folder, confined to the document's root like every file a document names.
struct StylesheetFile {
    /// One style as written: its own properties, the style it extends, and where to report problems.
    private struct Entry {
        var style: Style
        var extends: String?
        var node: Node
        var reader: NodeReader
    }

    /// Reads a file a stylesheet names: the path at `node`, read by `reader`, from the folder given.
    typealias Read = (Node, NodeReader, String) throws(DocumentError) -> (ConfinedPath, [UInt8])
    private let read: Read
    private var raw: [String: Entry] = [:]
    /// The document whose stylesheets these are, as messages show it.
    private let document: String
    /// The stylesheet files read so far (listed and included, each time), and their bytes:
    /// `DocumentLimits.stylesheetFiles` and `stylesheetBytes` bound them.
    private var files = 0, bytes = 0
    private var chain: [ConfinedPath] = []  // the files being read, outermost first
    private var source: String?

    /// A loader for the stylesheets of `document` (its path, for messages), reading included files
    /// with `read`.
    init(document: String, read: @escaping Read) { (self.document, self.read) = (document, read) }

    /// Counts the file about to be read for the path at `node` (a `stylesheet:` item or an
    /// `include:` item) against `DocumentLimits.stylesheetFiles`, before it is read.
    mutating func admit(_ node: Node, _ reader: NodeReader) throws(DocumentError) {
        files += 1
        guard files <= DocumentLimits.stylesheetFiles else {
            throw reader.error(
                node,
                "the stylesheets of \(document) (listed and included) are more than "
                    + "\(DocumentLimits.stylesheetFiles) files (the limit, DocumentLimits.stylesheetFiles, counts a "
                    + "file each time it is read); name each stylesheet once, or merge some")
        }
    }

    /// Adds the stylesheet `bytes` read from `file`, its includes first; `namedAt` is the
    /// `stylesheet:` or `include:` item that named it, already counted by `admit(_:_:)`.
    mutating func add(_ bytes: [UInt8], _ file: ConfinedPath, namedAt: (node: Node, reader: NodeReader))
        throws(DocumentError)
    {
        try refuseLoop(file, namedAt)
        self.bytes += bytes.count
        guard self.bytes <= DocumentLimits.stylesheetBytes else {
            let limit = FileAccess.sizeText(DocumentLimits.stylesheetBytes)
            throw namedAt.reader.error(
                namedAt.node,
                "the stylesheets of \(document) (listed and included) come to more than \(limit) "
                    + "(the limit, DocumentLimits.stylesheetBytes, counts a file each time it is read); "
                    + "name each stylesheet once, or make them smaller")
        }
        chain.append(file)
        defer { chain.removeLast() }
        source = source ?? file.display
        var (reader, root) = try NodeReader.parse(bytes, file: file.display, quotes: false)
        let top = try reader.fields(root, allowed: ["include", "styles"], what: "the stylesheet")
        guard top["styles"] != nil || top["include"] != nil else {
            throw reader.error(root, "the stylesheet needs a 'styles' mapping of style names to properties")
        }
        reader.quotes = true
        if let list = top["include"] {
            for item in list.sequence ?? [list] {
                try admit(item, reader)
                let (included, text) = try read(item, reader, PathText.folder(of: file.display))
                try add(text, included, namedAt: (item, reader))
            }
        }
        guard let stylesNode = top["styles"] else { return }
        guard let mapping = stylesNode.mapping else {
            throw reader.error(stylesNode, "'styles' must be a mapping of style names to properties")
        }
        for (key, value) in mapping {
            let name = try reader.string(key)
            if raw[name] == nil, raw.count == DocumentLimits.styles {
                throw reader.error(
                    key,
                    "more than \(FileAccess.grouped(DocumentLimits.styles)) styles (the limit, DocumentLimits.styles, counts included files); remove some"
                )
            }
            raw[name] = try Self.style(value, reader)
        }
    }

    /// Refuses a file that includes itself (directly or through others), at the include naming it;
    /// a file the document lists is outside every chain.
    private func refuseLoop(_ file: ConfinedPath, _ includedBy: (node: Node, reader: NodeReader))
        throws(DocumentError)
    {
        if chain.contains(where: { $0.real == file.real }) {
            let loop = (chain.drop { $0.real != file.real } + [file]).map(\.display).joined(separator: " → ")
            throw includedBy.reader.error(
                includedBy.node, "the stylesheet includes itself through \(loop); remove one include")
        }
    }

    /// The styles read so far, each with what it extends applied beneath it; `extends` chains are
    /// resolved without recursion, each style once.
    func flattened() throws(DocumentError) -> Stylesheet {
        var flat: [String: Style] = [:]
        for name in raw.keys.sorted() where flat[name] == nil {
            // Up the chain to a style already flattened (or one that extends none), then back down.
            var chain: [String] = [], position: [String: Int] = [:]
            var current = name, base: Style?
            while base == nil {
                if let done = flat[current] {
                    base = done
                    break
                }
                let entry = raw[current]!
                if let at = position[current] {
                    let loop = Array(chain[at...]) + [current], first = raw[loop[0]]!
                    throw first.reader.error(
                        first.node,
                        "style '\(loop[0])' extends itself through \(loop.joined(separator: " → ")); break the cycle")
                }
                position[current] = chain.count
                chain.append(current)
                guard let parent = entry.extends else { break }
                guard raw[parent] != nil else {
                    let names = raw.keys.sorted()
                    let list = names.prefix(20).joined(separator: ", ") + (names.count > 20 ? ", …" : "")
                    throw entry.reader.error(
                        entry.node,
                        "style '\(current)' extends '\(parent)', which the stylesheet does not define; styles: \(list)")
                }
                current = parent
            }
            var below = base
            for link in chain.reversed() {
                let style = below.map { raw[link]!.style.over($0) } ?? raw[link]!.style
                flat[link] = style
                below = style
            }
        }
        return Stylesheet(styles: flat, source: source)
    }

    private static func style(_ node: Node, _ r: NodeReader) throws(DocumentError) -> Entry {
        let keys = [
            "extends", "frame", "left", "top", "width", "height", "fontSize", "fontWeight", "textColor",
            "lineBreakMode", "numberOfLines", "alignment",
        ]
        let f = try r.fields(node, allowed: keys, what: "a style")
        var s = Style()
        let coordinate = { (n: Node) throws(DocumentError) -> Int in try r.int(n, in: -1000...1000) }
        s.frame = try f["frame"].map { (n: Node) throws(DocumentError) in try r.rect(n) }
        s.left = try f["left"].map(coordinate); s.top = try f["top"].map(coordinate)
        s.width = try f["width"].map(coordinate); s.height = try f["height"].map(coordinate)
        s.fontSize = try f["fontSize"].map { (n: Node) throws(DocumentError) in try r.double(n, in: 1...200) }
        s.fontWeight = try f["fontWeight"].map { (n: Node) throws(DocumentError) in try r.choice(n, FontWeight.self) }
        s.textColor = try f["textColor"].map { (n: Node) throws(DocumentError) in try r.color(n) }
        s.lineBreakMode = try f["lineBreakMode"].map { (n: Node) throws(DocumentError) in
            try r.choice(n, LineBreakMode.self)
        }
        s.numberOfLines = try f["numberOfLines"].map { (n: Node) throws(DocumentError) in try r.int(n, in: 0...1000) }
        s.alignment = try f["alignment"].map { (n: Node) throws(DocumentError) in try r.choice(n, TextAlignment.self) }
        return Entry(
            style: s, extends: try f["extends"].map { (n: Node) throws(DocumentError) in try r.string(n) },
            node: f["extends"] ?? node, reader: r)
    }
}

/// Loads an asset catalog: `images:` mapping names to glyph, emoji, file and colour.
enum AssetCatalogFile {
    /// Parses `bytes`, the catalog `file`. Image files are confined to `root` (a path outside it is an
    /// error) and read now: one that is not a PNG or self-contained SVG, or is too large, draws the
    /// placeholder in HTML, with a warning in `warnings`.
    static func load(_ bytes: [UInt8], file: String, root: FileRoot, warnings: inout [String]) throws(DocumentError)
        -> AssetCatalog
    {
        var (reader, top) = try NodeReader.parse(bytes, file: file, quotes: false)
        let fields = try reader.fields(top, allowed: ["images"], what: "the asset catalog")
        guard let mapping = fields["images"]?.mapping else {
            throw reader.error(top, "the asset catalog needs an 'images' mapping of names to images")
        }
        reader.quotes = true
        guard mapping.count <= DocumentLimits.images else {
            throw reader.error(
                Array(mapping)[DocumentLimits.images].key,
                "more than \(FileAccess.grouped(DocumentLimits.images)) images (the limit, DocumentLimits.images); split the catalog"
            )
        }
        let folder = PathText.folder(of: file)
        var images: [String: AssetCatalog.Image] = [:]
        var inlined = 0
        for (key, value) in mapping {
            let name = try reader.string(key)
            let f = try reader.fields(value, allowed: ["glyph", "emoji", "file", "color", "label"], what: "an image")
            guard let glyphNode = f["glyph"] else {
                throw reader.error(value, "the image needs a 'glyph': the text drawn in the terminal")
            }
            let glyph = TextSanitizer.visible(try reader.string(glyphNode))
            guard (1...4).contains(TextWidth.columns(glyph)) else {
                throw reader.error(
                    glyphNode, "a glyph takes 1 to 4 columns; '\(glyph)' takes \(TextWidth.columns(glyph))")
            }
            var image = AssetCatalog.Image(
                glyph: glyph, emoji: try f["emoji"].map { (n: Node) throws(DocumentError) in try reader.string(n) },
                color: try f["color"].map { (n: Node) throws(DocumentError) in try reader.color(n) },
                label: try f["label"].map { (n: Node) throws(DocumentError) in
                    TextSanitizer.visible(try reader.string(n))
                })
            if let n = f["file"] {
                let written = try reader.string(n)
                let confined: ConfinedPath
                let fd: Int32
                do throws(FileProblem) {
                    confined = try root.resolve(written, from: folder)
                    fd = try FileAccess.openRegular(confined.real, name: written)
                } catch { throw reader.error(n, error.message) }
                // Read from the descriptor the check opened: each file opened once (BENCHMARKS.md,
                // "Measurements behind the code": AssetCatalogFile.openOnce).
                defer { close(fd) }
                switch ImageFile.load(descriptor: fd, name: written, room: DocumentLimits.catalogImageBytes - inlined) {
                case .success(let inline):
                    image.file = confined.real
                    image.inline = inline
                    inlined += inline.bytes.count
                case .failure(let problem):
                    let at = reader.error(n, "").description.dropLast(2)  // "file:line:column"
                    warnings.append(
                        "\(at): image '\(name)': \(problem.message); HTML draws the placeholder \(AssetCatalog.placeholder.glyph)"
                    )
                    image.emoji = AssetCatalog.placeholder.emoji
                }
            }
            images[name] = image
        }
        return AssetCatalog(images: images, source: file)
    }
}
