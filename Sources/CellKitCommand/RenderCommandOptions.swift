// `cellkit render`'s work, on the values of its options: filled in by ArgumentParser
// (`RenderCommand.settings`) or, for the common argument lists, by `RenderArguments`.

import ArgumentParser
import CellKit
import CellKitTerminal
import Foundation

/// The options of `cellkit render`, as values, and what the command does with them.
struct RenderCommandOptions: Equatable {
    var table: String
    /// `--format`; nil when not given (the format is then `resolvedFormat`'s choice).
    var format: RenderCommand.Format?
    var width: Int?
    var select: String?
    var rows: String?
    var output: String?
    var root: String?
    var ascii = false
    var color: RenderCommand.ColorMode = .auto
    /// `--color-depth`; nil: what the environment says (`ColorDepth.fromEnvironment`).
    var colorDepth: ColorDepth?
    /// `--theme`: the terminal's background, or auto (`resolvedTheme`).
    var theme: ThemeMode = .auto
    var strict = false
    var pluginPaths: [String] = []
    var allowUnsafePermissions = false
    var noCache = false
    var noIsolation = false
    var hookTimeout: Double = 10
    /// `--sandbox`: whether workers run in the sandbox (SECURITY.md).
    var sandbox: SandboxMode = .on
    /// `--allow-read`: what plugins may also read in the sandbox.
    var allowRead: [String] = []
    /// `--worker-memory`: a worker's memory limit in MiB (0: none).
    var workerMemory = Sandbox.defaultMemoryMiB
    var verbose = false

    var discoveryOptions: DiscoveryOptions {
        DiscoveryFlags.options(
            pluginPaths: pluginPaths, allowUnsafePermissions: allowUnsafePermissions, noCache: noCache)
    }

    func validate() throws {
        if let width, !(20...1000).contains(width) {
            throw ValidationError("--width \(width) is out of range; use 20 to 1000 columns")
        }
        if !(hookTimeout > 0 && hookTimeout <= 86_400) {
            throw ValidationError(
                "--hook-timeout \(hookTimeout) is out of range; use more than 0 and at most 86400 seconds")
        }
        try SandboxFlags.validate(workerMemory: workerMemory)
        if let select { _ = try Self.indexPath(select) }
        if let rows { _ = try Self.window(rows) }
    }

    /// The format drawn: `--format`, else the one `--output`'s extension names, else text.
    var resolvedFormat: RenderCommand.Format {
        format ?? output.flatMap(Self.format(forExtensionOf:)) ?? .text
    }

    /// The format a file name's extension names (.html, .htm, .json, .jsonl, .ndjson, .txt, .text), or nil.
    static func format(forExtensionOf path: String) -> RenderCommand.Format? {
        switch (path as NSString).pathExtension.lowercased() {
        case "html", "htm": .html
        case "json": .json
        case "jsonl", "ndjson": .jsonl
        case "txt", "text": .text
        default: nil
        }
    }

    /// Options that contradict each other: printed as warnings before the table, and counted by
    /// `--strict`.
    var optionWarnings: [String] {
        var warnings: [String] = []
        if let format, let output, let named = Self.format(forExtensionOf: output), named != format,
            !(format == .ansi && named == .text)
        {
            warnings.append(
                "--output \(output): writing \(format.rawValue) (--format \(format.rawValue)), but the file's extension "
                    + "says \(named.rawValue); leave out --format to write \(named.rawValue), or rename the file")
        }
        if colorDepth != nil, resolvedFormat != .ansi {
            warnings.append(
                "--color-depth: the \(resolvedFormat.rawValue) format has no colour, so it is ignored; "
                    + "colour needs --format ansi")
        }
        if color == .always, resolvedFormat != .ansi {
            warnings.append(
                "--color always: the \(resolvedFormat.rawValue) format has no colour, so it is ignored; "
                    + "colour needs --format ansi")
        }
        return warnings
    }

    /// Renders through `DocumentRender`, the one entry point the library gives embedders too: in
    /// worker processes, or in this one with `--no-isolation`. Writes to standard output or
    /// `--output`; exits with `RenderCommand.faultedStatus` when a plugin faulted.
    func run() throws {
        _ = Output.printWarnings(optionWarnings)
        let refused = DiscoveryFlags.warnAboutRefusedPaths(discoveryOptions)
        // `--no-cache` rewrites the cache once: by explain's discovery with `--verbose`, else by the
        // discovery beside the document's parse, whose catalog the render uses (a worker's own leaves
        // it alone).
        if verbose { DiscoveryFlags.explain(discoveryOptions) }
        var aheadOptions = discoveryOptions
        if verbose { aheadOptions.rebuildCache = false }
        let discovery = DiscoveryAhead(aheadOptions)  // beside the document's parse
        let document = try TableDocument(contentsOf: table, root: root)
        // Checked before anything is written: never a device, FIFO or directory, nor a file the render reads.
        let file = try output.map { try AtomicFileSink(path: $0, protecting: document.inputFiles) }
        // Before the table, which it explains; once, and counted by --strict.
        let noticed =
            tableWidth(document, terminalColumns: Terminal.columns).warning.map { Output.printWarnings([$0]) } ?? 0
        var render = try documentRender(document)
        render.catalog = discovery.catalog()
        let outcome: DocumentRender.Outcome
        do {
            if noIsolation {
                CrashReporter.install()  // a crash or exit() in plugin code names the plugin before the process ends
                outcome = try render.runInProcess(to: file ?? DescriptorSink())
            } else {
                outcome = try render.run(to: file ?? DescriptorSink()) { line in
                    FileHandle.standardError.write(Data("\(line.terminalSafe)\n".utf8))
                }
            }
        } catch {
            file?.abort()  // the destination keeps what it had
            if let error = error as? DocumentRender.WorkerError,
                error.description.hasPrefix(DocumentRender.sandboxRequiredMessage)
            {
                FileHandle.standardError.write(Data("Error: \(error.description.terminalSafe)\n".utf8))
                throw ExitCode(2)  // as README and SECURITY.md say: a part is missing, nothing was drawn
            }
            throw error
        }
        try file?.commit()
        let warned = Output.printWarnings(outcome.warnings)
        try failIfStrict(warned: warned + noticed + refused, faulted: outcome.faulted)
        if outcome.faulted { throw ExitCode(RenderCommand.faultedStatus) }
    }

    /// The width drawn: `--width`; else the document's, cut to the terminal's columns when text or
    /// ansi goes to a terminal narrower than it (`terminalColumns`; never with `--output`), with the
    /// warning that says so; else the terminal's columns; else 80.
    func tableWidth(_ document: TableDocument, terminalColumns: Int?) -> (width: Int, warning: String?) {
        if let width { return (width, nil) }
        guard let wanted = document.width else { return (terminalColumns ?? 80, nil) }
        // Only what is drawn for the terminal: JSON and HTML keep the document's layout wherever they go.
        guard output == nil, resolvedFormat == .text || resolvedFormat == .ansi, let columns = terminalColumns,
            columns < wanted
        else { return (wanted, nil) }
        return (
            columns,
            "the table is \(wanted) columns wide (its document's width) but the terminal has \(columns): "
                + "drawn \(columns) wide; --width \(wanted) draws it as wide as the document says"
        )
    }

    /// The render these options ask for, of `document` (already read).
    func documentRender(_ document: TableDocument) throws -> DocumentRender {
        var render = DocumentRender(
            documentPath: table, root: root, discovery: discoveryOptions, format: renderFormat(color: useColor))
        render.colorDepth = resolvedColorDepth
        if renderFormat(color: useColor) == .ansi { render.theme = resolvedTheme }
        // What a worker cannot tell by itself: its standard output is not the terminal.
        render.width = tableWidth(document, terminalColumns: Terminal.columns).width
        render.ascii = ascii
        render.selected = try select.map { try Self.indexPath($0) }
        render.rows = try rows.map { try Self.window($0) }
        render.hookTimeout = hookTimeout
        render.sandbox = sandbox != .off
        render.sandboxRequired = sandbox == .require
        render.allowRead = allowRead.map(SearchPath.absolute)
        render.workerMemoryMiB = workerMemory
        render.workerArguments = ["render"]  // for ps; the worker reads its job from its environment
        render.forksWorkers = true  // one thread; a forked worker forgets our pending temporaries
        render.document = document  // rendered as read: a forked worker does not read it again
        return render
    }

    /// With `--strict`, exit status 2 when anything was warned about (the table is drawn): `warned`
    /// lines after the table, and `optionWarnings` before it. When a plugin `faulted`, the count is
    /// said too and the fault's status (3) stays.
    func failIfStrict(warned: Int, faulted: Bool = false) throws {
        let warned = warned + optionWarnings.count
        guard strict, warned > 0 else { return }
        let count = "cellkit: --strict: \(warned) \(warned == 1 ? "warning" : "warnings")"
        let status = faulted ? "exit status \(RenderCommand.faultedStatus), a plugin faulted" : "exit status 2"
        FileHandle.standardError.write(Data("\(count); \(status)\n".utf8))
        throw ExitCode(faulted ? RenderCommand.faultedStatus : 2)
    }

    /// The library's format for `resolvedFormat`: ansi without colour is text.
    func renderFormat(color: Bool) -> DocumentRender.Format {
        resolvedFormat == .ansi && !color ? .text : resolvedFormat
    }

    /// Whether ansi's colours are written: `--color always`, or auto with ansi asked for (by
    /// `--format ansi`; no extension names it), wherever the table goes — into a pipe or a file
    /// too (`| less -R`): a format whose point is colour does not drop it silently (issue 41).
    /// `--color never` writes none; NO_COLOR and TERM=dumb leave weight only (`resolvedColorDepth`).
    var useColor: Bool {
        switch color {
        case .always: true
        case .never: false
        case .auto: resolvedFormat == .ansi
        }
    }

    /// `--color-depth`, else the environment's (`NO_COLOR`, `COLORTERM`, `TERM`); with colour
    /// (`useColor`) and an environment that says none only because it says nothing (no TERM: a
    /// pipe in CI, say), 24-bit colour. NO_COLOR and TERM=dumb win over `--color always`: weight only.
    var resolvedColorDepth: ColorDepth {
        if let colorDepth { return colorDepth }
        let environment = Environment.values(["NO_COLOR", "COLORTERM", "TERM"])
        let found = ColorDepth.fromEnvironment(environment)
        let refused =
            !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM", default: ""].lowercased() == "dumb"
        return useColor && found == .none && !refused ? .truecolor : found
    }

    /// `--theme light|dark`; for auto, what COLORFGBG says, else what the terminal answers when
    /// asked its background (only when the table goes to it), else nil: unknown.
    var resolvedTheme: TerminalTheme? { theme(asking: true) }

    /// The theme as `resolvedTheme`; the terminal is asked only if `asking`. `browse` does not ask:
    /// the answer is read from the terminal the view reads keys from, and keys typed meanwhile
    /// would be lost.
    func theme(asking: Bool) -> TerminalTheme? {
        switch theme {
        case .light: return .light
        case .dark: return .dark
        case .auto:
            if let said = TerminalTheme.fromEnvironment(Environment.values(["COLORFGBG"])) { return said }
            guard asking, output == nil, Terminal.isTerminal, let rgb = BackgroundQuery.ask() else { return nil }
            return TerminalTheme.ofBackground(Color(red: rgb.red, green: rgb.green, blue: rgb.blue))
        }
    }

    // MARK: Parsing options

    /// `--select SECTION.ROW`, both counted from 1 (as `cellkit browse`'s status line counts rows), as
    /// the index path (from 0) it names.
    static func indexPath(_ text: String) throws -> CellKit.IndexPath {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let s = Int(parts[0]), let r = Int(parts[1]), s >= 1, r >= 1 else {
            throw ValidationError(
                "--select '\(text.terminalSafe)' is not SECTION.ROW counted from 1; write it like 2.1 (the first row of section 2)"
            )
        }
        return CellKit.IndexPath(section: s - 1, row: r - 1)
    }

    /// `--rows FROM..TO`, counted from 1 across sections (as `cellkit browse`'s status line counts
    /// them), as the window (from 0) it names.
    static func window(_ text: String) throws -> RowWindow {
        let parts = text.components(separatedBy: "..")
        guard parts.count == 2 else {
            throw ValidationError("--rows '\(text.terminalSafe)' is not FROM..TO; write it like 1..100, 101.. or ..10")
        }
        let first = parts[0].isEmpty ? 1 : Int(parts[0]), last = parts[1].isEmpty ? Int.max : Int(parts[1])
        guard let first, let last, first >= 1, last >= first else {
            throw ValidationError(
                "--rows '\(text.terminalSafe)': FROM and TO must be row numbers from 1, with FROM <= TO")
        }
        return RowWindow(first: first - 1, last: last == .max ? .max : last - 1)
    }
}
