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
              cellkit render table.yaml --format ansi --select 2.1
              cellkit render big.yaml --rows 1001..1020 --width 100
              cellkit render table.yaml --output table.html

            Without --format, the format is the one --output's extension names (.html or .htm: \
            html, .json: json, .jsonl or .ndjson: jsonl, .txt: text), else text. An explicit --format wins; if it is not the \
            one the extension names, a warning says so. --color always with a format other than \
            ansi warns too: only ansi has colour.

            --output writes a temporary file beside FILE and renames it over FILE once the table \
            is complete; through a symbolic link, the file it names is replaced and the link stays. \
            A replaced file keeps its permissions (and, run as root, its owner and group); a new one \
            gets 0666 less the umask. Refused, before anything is written: a directory, FIFO, socket \
            or device, and the document or any file it reads (stylesheet, asset catalog, image \
            files, rowsFrom data files), by any name. On an error, SIGINT, SIGTERM, SIGHUP or exit \
            the temporary is removed and FILE keeps what it had.

            On a terminal, text and ansi of a document wider than the terminal are drawn as wide \
            as the terminal, with a warning first (--width draws it at the document's width). ansi's colours follow \
            the terminal's depth, from NO_COLOR, COLORTERM and TERM (truecolor, 256, 16, none), \
            each colour written as the nearest of its palette; --color-depth sets it.

            json and jsonl are versioned ("format": "cellkit.render", "version": 1) and described \
            by Schemas/cellkit-render-1.schema.json: one document, or a header line then a row a line.

            Other warnings go to standard error after the table, then one line per plugin hook whose \
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

    /// The library's one format type: `--format`'s values are its cases.
    typealias Format = DocumentRender.Format

    enum ColorMode: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    @Argument(
        help: ArgumentHelp(
            "The table document: a .yaml, .yml or .json file; - (or /dev/stdin) reads it from standard input.",
            valueName: "table"), completion: Completions.tables)
    var table: String

    @Option(
        help: """
            text (box drawing), ansi (with colour), html (a standalone page), json (the laid-out rows) or \
            jsonl (a header line, then a row a line); default: the one --output's extension names \
            (.html, .json, .jsonl, .txt), else text.
            """)
    var format: Format?

    @Option(
        help: ArgumentHelp(
            "Columns; default: the document's width (text and ansi: at most a terminal's), else the terminal's, else 80.",
            valueName: "n"))
    var width: Int?

    @Option(
        help: ArgumentHelp(
            "Draw the row at SECTION.ROW as selected, both counted from 1 as browse's status line counts (2.1: section 2's first row).",
            valueName: "section.row"))
    var select: String?

    @Option(
        help: ArgumentHelp(
            "Draw only rows FROM through TO, counted from 1 across all sections as browse's status line counts (open ends: 11.., ..10).",
            valueName: "from..to"))
    var rows: String?

    @Option(
        help: ArgumentHelp(
            "Write to FILE (a regular file, new or replaced) instead of standard output; it appears only once complete.",
            valueName: "file"), completion: .file())
    var output: String?

    @Option(
        help: ArgumentHelp(
            "The folder the document may read files from (stylesheet, assets, rowsFrom); default: the document's own folder.",
            valueName: "dir"), completion: .directory)
    var root: String?

    @Flag(help: "Draw borders with ASCII instead of box-drawing characters (text and ansi).")
    var ascii = false

    @Option(
        help:
            "For ansi: colour always, never, or auto (the default: --format ansi means colour, into a pipe or a file too); NO_COLOR and TERM=dumb leave weight only, unless --color-depth is given."
    )
    var color: ColorMode = .auto

    @Option(
        help: ArgumentHelp(
            "For ansi: the colours the terminal shows, truecolor, 256, 16 or none; default: from NO_COLOR, COLORTERM and TERM.",
            valueName: "depth"))
    var colorDepth: ColorDepth?

    @Option(help: ThemeMode.help)
    var theme: ThemeMode = .auto

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

    @Option(help: SandboxMode.help)
    var sandbox: SandboxMode = .on

    @OptionGroup var sandboxFlags: SandboxFlags

    /// The values parsed, for the work (`RenderCommandOptions`).
    var settings: RenderCommandOptions {
        RenderCommandOptions(
            table: table, format: format, width: width, select: select, rows: rows, output: output, root: root,
            ascii: ascii, color: color, colorDepth: colorDepth, theme: theme, strict: strict,
            pluginPaths: discovery.pluginPaths,
            allowUnsafePermissions: discovery.allowUnsafePermissions, noCache: discovery.noCache,
            noIsolation: noIsolation, hookTimeout: hookTimeout, sandbox: sandbox, allowRead: sandboxFlags.allowRead,
            workerMemory: sandboxFlags.workerMemory, verbose: discovery.verbose)
    }

    func validate() throws { try settings.validate() }

    func run() throws { try settings.run() }
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

/// `--sandbox`'s values.
enum SandboxMode: String, ExpressibleByArgument, CaseIterable, Equatable {
    /// Workers run in the sandbox (the default); a part the kernel lacks is a warning.
    case on
    /// Workers run in the whole sandbox, or the command fails naming the missing part.
    case require
    /// Workers run with the user's full rights.
    case off

    static let help = ArgumentHelp(
        "on: plugins run in a sandbox closed before their code runs (own namespaces, no terminal, no privileges; "
            + "read-only plugins, libraries and the files the document names; no network, processes or programs); "
            + "require: as on, and fail if the kernel lacks a part; off: with your full rights. See SECURITY.md.",
        valueName: "on|require|off")
}

/// `--theme`'s values: the terminal's background, or auto.
enum ThemeMode: String, ExpressibleByArgument, CaseIterable, Equatable {
    /// A light background.
    case light
    /// A dark background.
    case dark
    /// COLORFGBG, else the terminal's answer to an OSC 11 query, else unknown.
    case auto

    static let help = ArgumentHelp(
        "For ansi: the terminal's background, light, dark or auto (COLORFGBG, else the terminal's answer to "
            + "an OSC 11 query, else unknown: the selection then draws its own text colour too).",
        valueName: "light|dark|auto")

    /// `browse --theme`: auto never asks the terminal, which the view reads keys from.
    static let browseHelp = ArgumentHelp(
        "The terminal's background, light, dark or auto (COLORFGBG, else unknown: the cursor row then draws "
            + "its own text colour too).",
        valueName: "light|dark|auto")
}

/// `--format`'s values, read from the command line as the library's names them.
extension DocumentRender.Format: ExpressibleByArgument {}

/// `--color-depth`'s values: truecolor, 256, 16, none.
extension ColorDepth: ExpressibleByArgument {}
