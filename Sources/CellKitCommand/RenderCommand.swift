// `cellkit render TABLE`: draw a table document in the terminal, as HTML or as JSON.

import ArgumentParser
import CellKit
import Foundation

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a table document (YAML or JSON) whose rows mix cells from any plugins.",
        discussion: """
            Rows are drawn one at a time with reused cells, so tables of millions of rows \
            (streamed from a .jsonl or .csv file) render in constant memory. Control characters \
            and escape sequences in the data are shown as visible symbols, never sent to the terminal.

            Examples:
              cellkit render Manifests/Tables/showcase.yaml
              cellkit render table.yaml --format ansi --select 1.0
              cellkit render big.yaml --rows 1000..1019 --width 100
              cellkit render table.yaml --format html --output table.html

            --output writes a temporary file beside FILE and renames it over FILE once the table \
            is complete; through a symbolic link, the file it names is replaced and the link stays. \
            A replaced file keeps its permissions (and, run as root, its owner and group); a new one \
            gets 0666 less the umask. Refused, before anything is written: a directory, FIFO, socket \
            or device, and the document or any file it reads (stylesheet, asset catalog, image \
            files, rowsFrom data files), by any name. On an error, SIGINT, SIGTERM, SIGHUP or exit \
            the temporary is removed and FILE keeps what it had.

            Warnings go to standard error after the table, then one line per plugin hook whose \
            host calls failed (how many, and the first failure's message).

            Plugins run in a worker process: a plugin that crashes, calls exit() or does not return \
            from a hook within --hook-timeout seconds costs only its own rows. One line on standard \
            error names the plugin file, the hook, the cell type, the row and the signal (or exit \
            status, or timeout); that cell type's rows are drawn as placeholders, and the rest of \
            the table is drawn as usual. --no-isolation runs plugins in this process instead \
            (faster to start; a crash ends the render, after the same line).

            Exit status: 0 when the table is drawn; 3 when it is drawn but a plugin faulted (its rows \
            are placeholders); 2 when it is drawn with --strict but something was warned about; 1 \
            when the document, a data file, a plugin or \
            the output cannot be used (a refused --output included), or writing fails; 64 for a \
            malformed option. Killed by SIGINT, SIGTERM or SIGHUP, it dies by that signal \
            (128 + its number in a shell).
            """)

    /// The exit status of a table drawn with placeholders for a plugin that faulted.
    static let faultedStatus: Int32 = 3

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, ansi, html, json
    }

    enum ColorMode: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    @Argument(help: ArgumentHelp("The table document: a .yaml, .yml or .json file.", valueName: "table"))
    var table: String

    @Option(help: "text (box drawing), ansi (with colour), html (a standalone page) or json (the laid-out rows).")
    var format: Format = .text

    @Option(help: ArgumentHelp("Columns; default: the document's width, else the terminal's, else 80.", valueName: "n"))
    var width: Int?

    @Option(
        help: ArgumentHelp("Draw the row at SECTION.ROW as selected (both counted from 0).", valueName: "section.row"))
    var select: String?

    @Option(
        help: ArgumentHelp(
            "Draw only rows FROM through TO, counted from 0 across all sections (open ends: 10.., ..9).",
            valueName: "from..to"))
    var rows: String?

    @Option(
        help: ArgumentHelp(
            "Write to FILE (a regular file, new or replaced) instead of standard output; it appears only once complete.",
            valueName: "file"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "The folder the document may read files from (stylesheet, assets, rowsFrom); default: the document's own folder.",
            valueName: "dir"))
    var root: String?

    @Flag(help: "Draw borders with ASCII instead of box-drawing characters (text and ansi).")
    var ascii = false

    @Option(help: "For ansi: colour always, never, or auto (only on a terminal, and not when NO_COLOR is set).")
    var color: ColorMode = .auto

    @Flag(
        help: "Exit with status 2 if anything was warned about (failed host calls included); the table is still drawn.")
    var strict = false

    @OptionGroup var discovery: DiscoveryFlags

    @Flag(help: "Run plugins in this process: no worker, and a plugin's crash ends the render.")
    var noIsolation = false

    @Option(
        help: ArgumentHelp(
            "Seconds a hook (or a plugin's loading) may run before its worker is stopped and its type quarantined.",
            valueName: "seconds"))
    var hookTimeout: Double = 10

    func validate() throws {
        if let width, !(20...1000).contains(width) {
            throw ValidationError("--width \(width) is out of range; use 20 to 1000 columns")
        }
        if !(hookTimeout > 0 && hookTimeout <= 86_400) {
            throw ValidationError(
                "--hook-timeout \(hookTimeout) is out of range; use more than 0 and at most 86400 seconds")
        }
        if let select { _ = try Self.indexPath(select) }
        if let rows { _ = try Self.window(rows) }
    }

    func run() throws {
        let document = try TableDocument(contentsOf: table, root: root)
        if !noIsolation { return try runIsolated(document) }
        CrashReporter.install()  // a crash or exit() in plugin code names the plugin before the process ends
        let registry = CellRegistry(options: discovery.options)
        let source = try DocumentTable(document, registry: registry)
        let context = CellContext(stylesheet: document.stylesheet)
        let renderer = TableRenderer(
            queue: CellQueue(registry: registry, context: context), layout: CellLayout(assets: document.assets),
            width: width ?? document.width ?? Terminal.columns ?? 80)
        renderer.selected = try select.map { try Self.indexPath($0) } ?? document.selected
        if let rows { renderer.window = try Self.window(rows) }

        // Checked before anything is written: never a device, FIFO or directory, nor a file the render reads.
        let file = try output.map { try AtomicFileSink(path: $0, protecting: document.inputFiles) }
        let out = OutputBuffer(file ?? DescriptorSink())
        do {
            try render(renderer, source, out, color: useColor)
            try out.flush()
            try file?.commit()
        } catch {
            file?.abort()  // the destination keeps what it had
            try? out.flush()
            throw error
        }
        try failIfStrict(warned: Output.printWarnings(context))
    }

    /// With `--strict`, exit status 2 when anything was warned about (the table is drawn).
    func failIfStrict(warned: Int) throws {
        guard strict, warned > 0 else { return }
        FileHandle.standardError.write(
            Data("cellkit: --strict: \(warned) \(warned == 1 ? "warning" : "warnings"); exit status 2\n".utf8))
        throw ExitCode(2)
    }

    /// The render through worker processes (RenderIsolation.swift).
    private func runIsolated(_ document: TableDocument) throws {
        try RenderIsolation.supervise(self, document)
    }

    func render(_ renderer: TableRenderer, _ source: DocumentTable, _ out: OutputBuffer, color: Bool) throws {
        try DocumentRender.draw(renderer, source, format: renderFormat(color: color), ascii: ascii, to: out)
    }

    /// The library's format for `--format`: ansi without colour is text.
    func renderFormat(color: Bool) -> DocumentRender.Format {
        switch format {
        case .text: .text
        case .ansi: color ? .ansi : .text
        case .html: .html
        case .json: .json
        }
    }

    var useColor: Bool {
        switch color {
        case .always: true
        case .never: false
        case .auto:
            output == nil && Terminal.isTerminal && ProcessInfo.processInfo.environment["NO_COLOR", default: ""].isEmpty
        }
    }

    // MARK: Parsing options

    static func indexPath(_ text: String) throws -> CellKit.IndexPath {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let s = Int(parts[0]), let r = Int(parts[1]), s >= 0, r >= 0 else {
            throw ValidationError(
                "--select '\(text.terminalSafe)' is not SECTION.ROW; write it like 1.0 (section 1, row 0)")
        }
        return CellKit.IndexPath(section: s, row: r)
    }

    static func window(_ text: String) throws -> RowWindow {
        let parts = text.components(separatedBy: "..")
        guard parts.count == 2 else {
            throw ValidationError("--rows '\(text.terminalSafe)' is not FROM..TO; write it like 0..99, 100.. or ..9")
        }
        let first = parts[0].isEmpty ? 0 : Int(parts[0]), last = parts[1].isEmpty ? Int.max : Int(parts[1])
        guard let first, let last, first >= 0, last >= first else {
            throw ValidationError(
                "--rows '\(text.terminalSafe)': FROM and TO must be row numbers from 0, with FROM <= TO")
        }
        return RowWindow(first: first, last: last)
    }
}

/// The terminal standard output is, if it is one.
enum Terminal {
    static var isTerminal: Bool { isatty(1) == 1 }

    static var columns: Int? {
        var size = winsize()
        guard isTerminal, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col >= 20 else { return nil }
        return Int(size.ws_col)
    }
}
