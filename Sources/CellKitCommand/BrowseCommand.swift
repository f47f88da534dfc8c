// `cellkit browse TABLE`: a table document in a full-screen, scrolling view on the terminal.

import ArgumentParser
import CellKit
import CellKitBrowse
import CellKitTerminal
import Foundation

struct BrowseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Browse a table document in a full-screen view that scrolls, reusing cells as rows come and go.",
        discussion: """
            The table is drawn as render --format ansi draws it, at the terminal's width, on the \
            alternate screen, with the title above and a status line below (row N of M, the \
            section, the file). Rows are numbered from 1, as render --rows and --select number \
            them. Only the rows on screen are laid out: cells leaving the screen go back to their \
            queues and are dequeued for the rows coming in; only the lines that change are drawn \
            again.

            Keys, as in less: ↑/↓ or j/k a row; PgUp/PgDn, b/space/f a page; Ctrl-U/Ctrl-D half a \
            page; Home/End or g/G the first and last row; a count before a key: 50G or 50g or :50 \
            row 50 (at the top), 10j and 10k ten rows; / searches the rows' data, n the next match, \
            N the previous one (in the background: the view goes on, the status line counts the \
            rows searched, Esc stops it; a match is put about a third down the screen); Enter \
            selects the row (shows its data); ? or h shows the keys (any key returns); q or Ctrl-C \
            quits. Esc cancels a prompt, a count or a search, and never quits. The mouse wheel \
            scrolls. A record of a data file that cannot be read is drawn as an error row, the \
            status line naming its file and line, and the view goes on. The view follows the \
            terminal's size (a 25×4 window still shows a row); Ctrl-Z suspends it. The terminal \
            is restored on q, on an error, on any signal that ends the process (SIGINT, SIGTERM, \
            SIGHUP, SIGUSR1, SIGPIPE, SIGALRM and the rest), and if the process crashes.

            --pick: Enter prints the selected row's data as one line of JSON on standard output \
            and exits 0; q exits 1 and prints nothing. The view is drawn on /dev/tty, so \
            `cellkit browse t.yaml --pick | jq .id` works in a pipeline.

            A data file (rowsFrom) is counted and indexed in the background: the status line says \
            "of ≥ M, counting" meanwhile. End shows a JSON Lines file's last rows at once, read \
            back from its end and numbered "≈" until the count numbers them; with a CSV file (a \
            line end may be inside quotes) or two files still counted, End waits for the count, \
            and so do :N past the rows counted and a search started from the rows read back. Rows \
            appended while the file is counted may be shown; rows appended after are not.

            Plugins run in a worker process that lives as long as the view: a plugin that \
            crashes, calls exit() or does not return from a hook within --hook-timeout seconds \
            costs only its own cell type: the window is drawn again with that type's rows as \
            placeholders; the status line names the plugin file, the hook, the cell type and the \
            row, and the view goes on. With --watch, the table is opened again in a new worker \
            whenever the document, a file it reads or a plugin file changes.

            Exit status: 0 on q (a malformed record shown on the way included); with --pick, 0 when a row was picked and 1 on q; 1 when standard \
            input or output is not a terminal (without --pick), or the document, a data file or a \
            plugin cannot be used.
            """)

    @Argument(
        help: ArgumentHelp("The table document: a .yaml, .yml or .json file.", valueName: "table"),
        completion: Completions.tables)
    var table: String

    @Option(
        help: ArgumentHelp(
            "The folder the document may read files from (stylesheet, assets, rowsFrom); default: the document's own folder.",
            valueName: "dir"), completion: .directory)
    var root: String?

    @OptionGroup var discovery: DiscoveryFlags

    @Option(
        help: ArgumentHelp(
            "Seconds a hook (or a plugin's loading) may run before its worker is stopped and its type quarantined.",
            valueName: "seconds"))
    var hookTimeout: Double = 10

    @Flag(help: "Run plugins in this process: no worker, and a plugin's crash ends the view (the terminal restored).")
    var noIsolation = false

    @Option(help: SandboxMode.help)
    var sandbox: SandboxMode = .on

    @OptionGroup var sandboxFlags: SandboxFlags

    @Option(help: ThemeMode.browseHelp)
    var theme: ThemeMode = .auto

    @Flag(help: "Enter prints the selected row's data as a JSON line on standard output and exits (q exits 1).")
    var pick = false

    @Flag(
        help:
            "Show in the status line how many cells were made and how many times reused: rows are drawn one at a time, so one cell a type is made, then reused row after row."
    )
    var stats = false

    @Flag(
        help:
            "Open the table again, with its plugins loaded anew in a new worker, whenever the document, a file it reads or a plugin file changes (a make in another pane); the view stays where it was."
    )
    var watch = false

    func validate() throws {
        guard hookTimeout > 0, hookTimeout.isFinite else {
            throw ValidationError("--hook-timeout \(hookTimeout) must be a number of seconds above 0")
        }
        if watch, noIsolation {
            throw ValidationError(
                "--watch needs plugins in a worker: a plugin loaded into this process (--no-isolation) cannot be loaded again; drop --no-isolation"
            )
        }
    }

    func run() throws {
        guard pick || (isatty(0) == 1 && isatty(1) == 1) else {
            throw BrowseError(
                "cellkit browse draws on a terminal, and standard \(isatty(0) == 1 ? "output" : "input") is not one; "
                    + "use cellkit render to print a table, or --pick to choose a row in a pipeline")
        }
        let options = discovery.options
        DiscoveryFlags.warnAboutRefusedPaths(options)  // before the view hides standard error
        // `--no-cache` rewrites the cache; the worker's discovery leaves it alone (explain's rewrites it).
        if discovery.verbose { DiscoveryFlags.explain(options) } else if !noIsolation { Catalog.rebuildCache(options) }
        // The depth and background of the terminal the view is drawn on, as `render --format ansi`
        // finds them, but never by asking the terminal (keys typed meanwhile would be read as its
        // answer): --theme, else COLORFGBG, else unknown (explicit colours on every drawn background).
        var colours = RenderCommandOptions(table: self.table, format: .ansi)
        colours.theme = theme
        let (depth, theme) = (colours.resolvedColorDepth, colours.theme(asking: false))
        let openTable = { [self] in
            try BrowseTable(
                path: self.table, root: root, discovery: options, isolated: !noIsolation, hookTimeout: hookTimeout,
                sandbox: sandbox != .off, sandboxRequired: sandbox == .require, allowRead: sandboxFlags.absolutePaths,
                workerMemoryMiB: sandboxFlags.workerMemory, colorDepth: depth, theme: theme)
        }
        var opened: BrowseTable? = try openTable()  // taken by the session, which lets it go on a reload
        let screen: TerminalScreen
        do { screen = try TerminalScreen() } catch let error as TerminalError { throw BrowseError(error.description) }
        var view = BrowseSession(table: opened.take()!, screen: screen, file: self.table, pick: pick, stats: stats)
        if watch { view.watching(reopen: openTable) }  // discovery reads a rebuilt plugin file again
        let outcome: BrowseSession.Outcome
        let silenced = SilencedStandardError()  // what a worker writes there would scribble over the view
        defer { silenced.restore() }
        do {
            try screen.start()
            outcome = try view.run()
            screen.stop()
        } catch {
            screen.stop()
            throw error
        }
        silenced.restore()
        _ = Output.printWarnings(view.table.warnings)  // what the view could not show: refused calls among them
        switch outcome {
        case .quit: if pick { throw ExitCode(1) }
        case .picked(let line): print(line)
        }
    }
}

/// Why the view cannot be shown: no terminal, or one that is not described (exit status 1).
struct BrowseError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
