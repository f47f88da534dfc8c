// Draws one sample in one configuration through the sandboxed worker, as `cellkit render`
// does: plugin code never runs in this process. A plugin that fails to load or faults in a
// hook gives its error (or its placeholder row and fault line) in place of that drawing.
// The text and ANSI drawings of one document (a sample in one style, direction and theme) are
// drawn by one kept worker, as `browse` asks for windows: each configuration's width and
// selection a window of its own, on fresh cells, so that it draws what a render of its own
// draws (`PreviewTests.sharedWorkersDrawTheSame` compares the two). A document whose kept
// worker faults or fails has its other configurations drawn each by a render of its own.

import CellKitBrowse
import CellKitDiscovery
import CellKitDocuments
import CellKitModel
import CellKitRendering
import CellKitRuntime
import CellKitSupervision
import CellKitText
import Foundation

/// What one configuration of a sample drew.
package struct PreviewDrawing: Sendable, Equatable {
    /// The output (text, ANSI, JSON or HTML); empty when the worker failed.
    package var output: String
    /// One line per worker that faulted (the plugin, hook, type, row and signal).
    package var faults: [String] = []
    /// The render's warnings (limits hit, failed host calls).
    package var warnings: [String] = []
    /// Why nothing could be drawn (the plugin failed to load, the worker failed); nil when drawn.
    package var error: String?

    /// A drawing of `output`.
    package init(output: String, faults: [String] = [], warnings: [String] = [], error: String? = nil) {
        (self.output, self.faults, self.warnings, self.error) = (output, faults, warnings, error)
    }
}

/// How the preview's workers run: where plugins are found, the hook timeout and the sandbox.
package struct PreviewSettings: Sendable {
    /// Where plugins are found: the plugin previewed first.
    package var discovery: DiscoveryOptions
    /// Seconds a hook may run before its worker is stopped.
    package var hookTimeout: Double = 10
    /// Whether workers run in the sandbox, and whether a missing part of it fails.
    package var sandbox = true, sandboxRequired = false
    /// What plugins may read besides the documents, and a worker's memory limit in MiB.
    package var allowRead: [String] = [], workerMemoryMiB = Sandbox.defaultMemoryMiB
    /// The colours the terminal shows (ANSI drawings).
    package var colorDepth = ColorDepth.truecolor
    /// Whether one kept worker draws every text or ANSI configuration of a document (false: a
    /// worker for each configuration, as the preview did first; the tests compare the two).
    package var sharesWorkers = true
    /// The stylesheets, assets and row height every document takes from a table (`--look`); nil for none.
    package var look: PreviewLook?

    /// Settings finding plugins by `discovery` (see each property for the rest).
    package init(discovery: DiscoveryOptions) { self.discovery = discovery }
}

/// Draws documents through workers, each drawing kept so that a configuration drawing the same
/// bytes as another (light and dark, in text) is drawn once.
package final class PreviewRenderer {
    /// The formats a configuration is drawn in.
    package enum Format: String, Sendable {
        /// Plain text, no escapes.
        case text
        /// Text with ANSI colours for the configuration's theme.
        case ansi
        /// The laid-out row's geometry (`cellkit.render` JSON).
        case json
        /// A standalone HTML page.
        case html
    }

    /// How the workers run.
    let settings: PreviewSettings
    /// Each drawing made, by format, document and configuration.
    private var drawn: [String: PreviewDrawing] = [:]
    /// The fault line of a hook that did not return, by the rows it was drawing: the other
    /// configurations of the same rows are not drawn again (each would wait out the timeout).
    private var hung: [String: String] = [:]
    /// The kept workers drawing a document's text or ANSI configurations, by `sharedKey`.
    private var shared: [String: SharedTable] = [:]
    /// The documents whose kept worker faulted or failed: each configuration drawn by its own render.
    private var unshared: Set<String> = []

    /// A kept worker drawing one document's configurations, and the document's file it reads.
    private final class SharedTable {
        let table: BrowseTable
        /// The document's style and rows: a table for another is let go when one for this is made.
        let style: TableStyle, rows: String
        private let path: String, slot: Int?

        init(table: BrowseTable, style: TableStyle, rows: String, path: String, slot: Int?) {
            (self.table, self.style, self.rows, self.path, self.slot) = (table, style, rows, path, slot)
        }

        deinit {
            unlink(path)
            if let slot { PendingTemporaries.remove(slot) }
        }
    }

    /// A renderer with `settings`, each document it draws a temporary file, removed once drawn.
    package init(settings: PreviewSettings) { self.settings = settings }

    /// The folder documents may read files from: their own, or every folder when a table lends its
    /// stylesheets and assets (the documents are this renderer's; the sandbox still lets plugins
    /// read only the files they name).
    var root: String? { settings.look == nil ? nil : "/" }

    /// `document` drawn in `format`; the same document and format drawn earlier is not drawn again.
    package func draw(_ document: PreviewDocument, format: Format) -> PreviewDrawing {
        var document = document
        document.look = settings.look
        var key = document
        if format != .ansi { key.configuration = key.configuration.inLight }
        let name = "\(format.rawValue) \(key.json) \(key.configuration.name)"
        if let kept = drawn[name] { return kept }
        let rows = document.identifier + " " + RowJSON.text(.list(document.rows))
        if let fault = hung[rows] {
            return PreviewDrawing(output: "", error: "not drawn after an earlier configuration's timeout: \(fault)")
        }
        let drawing: PreviewDrawing
        if let shareKey = sharedKey(document, format: format), !unshared.contains(shareKey),
            let sharedDrawing = drawShared(document, format: format, key: shareKey)
        {
            drawing = sharedDrawing
        } else {
            drawing = drawAlone(document, format: format)
        }
        if let timeout = drawing.faults.first(where: { $0.contains("did not return within") }) { hung[rows] = timeout }
        drawn[name] = drawing
        return drawing
    }

    /// `document` drawn in `format` by a worker of its own (two, one after the other, for `resized`).
    private func drawAlone(_ document: PreviewDocument, format: Format) -> PreviewDrawing {
        let drawing: PreviewDrawing
        do {
            let path = try document.writeTemporary()
            // Removed once drawn, and by any exit or signal meanwhile.
            let slot = PendingTemporaries.add(path)
            defer {
                unlink(path)
                if let slot { PendingTemporaries.remove(slot) }
            }
            drawing =
                document.configuration.width == .resized
                ? try resized(document, path: path, format: format) : try render(document, path: path, format: format)
        } catch {
            drawing = PreviewDrawing(output: "", error: TextSanitizer.visible("\(error)"))
        }
        return drawing
    }

    /// The kept worker `document` is drawn by in `format`: the same for every width and selection
    /// of the same document (and, in text, theme); nil when it has none (JSON and HTML, a cell
    /// reused after another sample's, or workers not shared).
    private func sharedKey(_ document: PreviewDocument, format: Format) -> String? {
        guard settings.sharesWorkers, format == .text || format == .ansi, document.rows.count == 1,
            !document.leadingBuiltin
        else { return nil }
        var key = document
        (key.configuration.width, key.configuration.selected) = (.default, false)
        let theme = format == .ansi ? key.configuration.theme.rawValue : "any"
        return "\(format.rawValue) \(theme) \(key.json)"
    }

    /// `document` drawn in `format` by the kept worker of `key`: a window at the configuration's
    /// width on fresh cells (`resized`: at the narrow width, then at its own on the cell reused).
    /// A fault: the drawing with its fault line, and the document's other configurations drawn each
    /// by its own worker; nil when the kept worker failed (the configuration is drawn alone).
    private func drawShared(_ document: PreviewDocument, format: Format, key: String) -> PreviewDrawing? {
        do {
            let shared = try sharedTable(document, format: format, key: key)
            let table = shared.table
            let faultsBefore = table.faults.count
            let selected = document.configuration.selected ? document.sampleRow : nil
            let resized = document.configuration.width == .resized
            var warnings: [String] = []
            if resized {
                _ = try table.window(
                    first: 0, maxLines: 1000, width: PreviewWidth.narrow.columns, selected: selected, freshCells: true)
                warnings = table.lastWarnings
            }
            let window = try table.window(
                first: 0, maxLines: 1000, width: document.configuration.width.columns, selected: selected,
                freshCells: !resized)
            let faults = Array(table.faults.dropFirst(faultsBefore))
            if !faults.isEmpty { letGo(key) }  // quarantined in that worker: the other configurations alone
            for warning in table.lastWarnings where !warnings.contains(warning) { warnings.append(warning) }
            let text = window.lines.map { $0 + "\n" }.joined()
            return PreviewDrawing(output: text, faults: faults, warnings: warnings)
        } catch {
            letGo(key)
            return nil
        }
    }

    /// The kept worker of `key`, started for `document` if there is none; kept workers of another
    /// style or sample are let go then (the grid draws a style's configurations together).
    private func sharedTable(_ document: PreviewDocument, format: Format, key: String) throws -> SharedTable {
        let rows = RowJSON.text(.list(document.rows))
        if let kept = shared[key] { return kept }
        shared = shared.filter { $0.value.style == document.configuration.style && $0.value.rows == rows }
        var base = document
        (base.configuration.width, base.configuration.selected) = (.default, false)
        let path = try base.writeTemporary()
        let slot = PendingTemporaries.add(path)
        let table: BrowseTable
        do {
            table = try BrowseTable(
                path: path, root: root, discovery: settings.discovery, isolated: true,
                hookTimeout: settings.hookTimeout, sandbox: settings.sandbox, sandboxRequired: settings.sandboxRequired,
                allowRead: settings.allowRead, workerMemoryMiB: settings.workerMemoryMiB,
                colorDepth: settings.colorDepth, theme: document.configuration.theme, color: format == .ansi)
        } catch {
            unlink(path)
            if let slot { PendingTemporaries.remove(slot) }
            throw error
        }
        let kept = SharedTable(
            table: table, style: document.configuration.style, rows: rows, path: path, slot: slot)
        shared[key] = kept
        return kept
    }

    /// Ends the kept worker of `key`; the document's configurations not drawn yet are drawn alone.
    private func letGo(_ key: String) {
        shared[key] = nil
        unshared.insert(key)
    }

    /// Ends every kept worker (a sample's configurations are all drawn); the drawings stay.
    package func endWorkers() { shared = [:] }

    /// Forgets every drawing kept and ends every kept worker: the plugin changed (a reload draws
    /// everything anew).
    package func forgetDrawings() { (drawn, hung, shared, unshared) = ([:], [:], [:], []) }

    /// The render `cellkit render` would make of the document at `path`.
    private func render(_ document: PreviewDocument, path: String, format: Format) throws -> PreviewDrawing {
        let formats: [Format: DocumentRender.Format] = [.text: .text, .ansi: .ansi, .json: .json, .html: .html]
        var render = DocumentRender(
            documentPath: path, root: root, discovery: settings.discovery, format: formats[format]!)
        render.width = document.configuration.width.columns
        render.selected = document.configuration.selected ? IndexPath(section: 0, row: document.sampleRow) : nil
        (render.colorDepth, render.theme) = (settings.colorDepth, document.configuration.theme)
        render.hookTimeout = settings.hookTimeout
        (render.sandbox, render.sandboxRequired) = (settings.sandbox, settings.sandboxRequired)
        (render.allowRead, render.workerMemoryMiB) = (settings.allowRead, settings.workerMemoryMiB)
        render.forksWorkers = true
        let sink = StringSink()
        do {
            let outcome = try render.run(to: sink)
            return PreviewDrawing(output: sink.text, faults: outcome.faults, warnings: outcome.warnings)
        } catch {
            return PreviewDrawing(output: "", error: TextSanitizer.visible("\(error)"))
        }
    }

    /// The document drawn at the narrow width, then by the same worker, its cell reused, at the
    /// configuration's width: ANSI for `ansi`, else text (`browse`'s windows are text: no JSON or HTML).
    private func resized(_ document: PreviewDocument, path: String, format: Format) throws -> PreviewDrawing {
        let table = try BrowseTable(
            path: path, root: root, discovery: settings.discovery, isolated: true, hookTimeout: settings.hookTimeout,
            sandbox: settings.sandbox, sandboxRequired: settings.sandboxRequired, allowRead: settings.allowRead,
            workerMemoryMiB: settings.workerMemoryMiB, colorDepth: settings.colorDepth,
            theme: document.configuration.theme)
        let selected = document.configuration.selected ? document.sampleRow : nil
        _ = try table.window(first: 0, maxLines: 1000, width: PreviewWidth.narrow.columns, selected: selected)
        let window = try table.window(
            first: 0, maxLines: 1000, width: document.configuration.width.columns, selected: selected)
        let lines = format == .ansi ? window.lines : window.lines.map(Self.withoutEscapes)
        let text = lines.map { $0 + "\n" }.joined()
        return PreviewDrawing(output: text, faults: table.faults, warnings: table.warnings)
    }

    /// `text` without its ANSI escape sequences (CSI sequences: ESC [ ... final byte).
    package static func withoutEscapes(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\u{1B}" else {
                out.append(scalar)
                continue
            }
            guard scalars.next() == "[" else { continue }
            while let next = scalars.next(), !(0x40...0x7E).contains(next.value) {}
        }
        return String(out)
    }
}

/// Why a preview cannot be drawn at all (no temporary folder, no such plugin).
package struct PreviewError: Error, CustomStringConvertible {
    /// What went wrong.
    package let description: String
    /// An error saying `description`.
    package init(_ description: String) { self.description = description }
}
