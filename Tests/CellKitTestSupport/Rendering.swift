// Rendering tables in tests: documents from Manifests/ or written on the fly,
// the package's own plugins, output collected in memory.

import CellKit
import Foundation

/// Collects rendered bytes.
public final class MemorySink: OutputSink {
    public init() {}
    public var data: [UInt8] = []
    public func write(_ bytes: UnsafeBufferPointer<UInt8>) throws { data.append(contentsOf: bytes) }
    public var text: String { String(decoding: data, as: UTF8.self) }
}

public enum Render {
    /// The repository's root folder.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// A path under Manifests/Tables, relative to the root (so errors and output carry no machine paths).
    public static func manifest(_ name: String) -> String { root + "/Manifests/Tables/" + name }

    /// One registry over the package's built plugins, shared by the rendering tests.
    public static let registry = Fixtures.registry([Fixtures.buildDirectory])

    public enum Format { case text, ansi, html, json }

    /// `path` rendered with `format`; warnings come back beside the output. `readsAhead`: whether
    /// long data files are read ahead on a helper thread (`DocumentTable.readsAhead`).
    public static func table(
        _ path: String, _ format: Format, width: Int? = nil, selected: CellKit.IndexPath? = nil,
        window: RowWindow? = nil, registry: CellRegistry = Render.registry, readsAhead: Bool = true
    ) throws -> (output: String, warnings: [String]) {
        let document = try TableDocument(contentsOf: path)
        let source = try DocumentTable(document, registry: registry)
        source.readsAhead = readsAhead
        let context = CellContext(stylesheet: document.stylesheet)
        let renderer = TableRenderer(
            queue: CellQueue(registry: registry, context: context),
            layout: CellLayout(assets: document.assets), width: width ?? document.width ?? 80)
        renderer.selected = selected ?? document.selected
        if let window { renderer.window = window }
        let sink = MemorySink()
        let out = OutputBuffer(sink)
        switch format {
        case .text: var f = TextFormat(); try renderer.render(source, delegate: source, format: &f, to: out)
        case .ansi: var f = TextFormat(color: true); try renderer.render(source, delegate: source, format: &f, to: out)
        case .html:
            var f = HTMLFormat(assets: document.assets);
            try renderer.render(source, delegate: source, format: &f, to: out)
        case .json: var f = JSONFormat(); try renderer.render(source, delegate: source, format: &f, to: out)
        }
        try out.flush()
        return (sink.text, context.warnings)
    }

    /// Writes `files` (name → contents) into a new folder; returns the folder.
    public static func write(_ files: [String: String], name: String = #function) throws -> String {
        let folder = try Fixtures.folder(name)
        for (file, text) in files { try text.write(toFile: folder + "/" + file, atomically: true, encoding: .utf8) }
        return folder
    }
}
