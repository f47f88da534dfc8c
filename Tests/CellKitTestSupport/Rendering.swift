// Rendering tables in tests: documents from Manifests/ or written on the fly,
// the package's own plugins, output collected in memory.

import CellKit
import Foundation

public enum Render {
    /// The repository's root folder.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// A path under Manifests/Tables, relative to the root (so errors and output carry no machine paths).
    public static func manifest(_ name: String) -> String { root + "/Manifests/Tables/" + name }

    /// One registry over the package's built plugins and BenchmarkCells, shared by the rendering tests.
    public static let registry = Fixtures.registry([Fixtures.buildDirectory, Fixtures.benchmarkPlugins])

    /// The library's formats.
    public typealias Format = DocumentRender.Format

    /// `path` rendered with `format` through `DocumentRender.runInProcess`, the entry point the
    /// command uses; warnings come back beside the output. `readsAhead`: whether long data files
    /// are read ahead on a helper thread (`DocumentTable.readsAhead`).
    /// `colorDepth` and `theme`: those of `ansi`.
    public static func table(
        _ path: String, _ format: Format, width: Int? = nil, selected: CellKit.IndexPath? = nil,
        window: RowWindow? = nil, registry: CellRegistry = Render.registry, readsAhead: Bool = true,
        colorDepth: ColorDepth = .truecolor, theme: TerminalTheme? = nil
    ) throws -> (output: String, warnings: [String]) {
        let sink = StringSink()
        let outcome = try run(
            path, format, into: sink, width: width, selected: selected, window: window, registry: registry,
            readsAhead: readsAhead, colorDepth: colorDepth, theme: theme)
        return (sink.text, outcome.warnings)
    }

    /// `path` rendered as `table` renders it, into `sink`; the render's outcome.
    @discardableResult
    public static func run(
        _ path: String, _ format: Format, into sink: any OutputSink, width: Int? = nil,
        selected: CellKit.IndexPath? = nil, window: RowWindow? = nil, registry: CellRegistry = Render.registry,
        readsAhead: Bool = true, colorDepth: ColorDepth = .truecolor, theme: TerminalTheme? = nil
    ) throws -> DocumentRender.Outcome {
        var render = DocumentRender(documentPath: path, format: format)
        render.width = width
        render.selected = selected
        render.rows = window
        render.registry = registry
        render.readsAhead = readsAhead
        render.colorDepth = colorDepth
        render.theme = theme
        return try render.runInProcess(to: sink)
    }

    /// The table at `path` laid out at each of `widths` in turn by one renderer (its cells reused, as
    /// `cellkit browse` redraws after a resize): the rows of each render.
    public static func rows(of path: String, registry: CellRegistry, widths: [Int]) throws -> [[RowLayout]] {
        let document = try TableDocument(contentsOf: path)
        let renderer = TableRenderer(
            queue: CellQueue(registry: registry), layout: CellLayout(assets: document.assets), width: widths[0])
        let source = try DocumentTable(document, registry: registry)
        return try widths.map { width in
            renderer.width = width
            var capture = CapturedRows()
            try renderer.render(source, delegate: source, format: &capture, to: OutputBuffer(StringSink()))
            return capture.rows
        }
    }

    /// Writes `files` (name → contents) into a new folder; returns the folder.
    public static func write(_ files: [String: String], name: String = #function) throws -> String {
        let folder = try Fixtures.folder(name)
        for (file, text) in files {
            let path = folder + "/" + file  // a name with a slash is written into its subfolder
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        return folder
    }
}

/// A format that keeps each laid-out row (views copied), as a format receives it, and writes
/// nothing: what layout tests read. Rows get the whole table width, as `plain` gives them.
public struct CapturedRows: RowFormat {
    /// The rows received, in order.
    public var rows: [RowLayout] = []
    /// None yet.
    public init() {}
    public func contentWidth(tableWidth: Int, style: TableStyle) -> Int {
        TextFormat().contentWidth(tableWidth: tableWidth, style: style)
    }
    public mutating func begin(_ table: TableInfo, width: Int, to out: OutputBuffer) throws {}
    public mutating func beginSection(_ section: SectionInfo, index: Int, to out: OutputBuffer) throws {}
    public mutating func row(_ row: RowLayout, isFirst: Bool, isLast: Bool, to out: OutputBuffer) throws {
        rows.append(row)
    }
    public mutating func endSection(_ section: SectionInfo, index: Int, to out: OutputBuffer) throws {}
    public mutating func end(_ table: TableInfo, to out: OutputBuffer) throws {}
}
