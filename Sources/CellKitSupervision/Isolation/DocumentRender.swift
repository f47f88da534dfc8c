// The public face of fault isolation: a table document's render, run by worker
// processes (this program again) or in this process. `cellkit render` uses it;
// so can any program that embeds CellKit. The wire (WorkerPlan in the worker's
// environment, the shared memory, the messages) stays package-level.

import CellKitDocuments
import CellKitModel
import CellKitRendering
import CellKitRuntime
import CellKitText
import Foundation

/// A table document's render: with plugins in a worker process, so that a plugin that crashes,
/// calls `exit()` or hangs costs only its own rows (`run(to:report:)`), or in this process
/// (`runInProcess(to:)`). Inside, a `RenderSupervisor` starts and watches the workers and each
/// worker draws with a `TableRenderer`; `DocumentRender` is the one to call.
///
/// The worker is this program started again (`/proc/self/exe` by default), which finds its job in
/// its environment: call `DocumentRender.runWorkerIfRequested()` first thing in `main`, before any
/// argument parsing, so that such a process renders and exits.
///
/// ```swift
/// DocumentRender.runWorkerIfRequested()  // in a worker: renders, then exits
/// var render = DocumentRender(
///     documentPath: "table.yaml", discovery: DiscoveryOptions(searchPath: .custom(["plugins"])))
/// let outcome = try render.run(to: DescriptorSink()) { line in print(line) }
/// ```
public struct DocumentRender: Sendable {
    /// How rows are written.
    public enum Format: String, Sendable, Codable, CaseIterable {
        /// Box-drawing borders (`TextFormat`).
        case text
        /// Box-drawing borders with ANSI colours (`TextFormat(color: true)`).
        case ansi
        /// A standalone HTML page, images from the asset catalog inlined (`HTMLFormat`).
        case html
        /// Each laid-out row as JSON, for tools: one versioned document (`JSONFormat`).
        case json
        /// JSON Lines: a header line, then one row object a line, for streaming tools
        /// (`JSONFormat(jsonLines: true)`).
        case jsonl
    }

    /// How a render ended, when it drew the table.
    public struct Outcome: Sendable, Equatable {
        /// One line per worker that faulted, naming the plugin file, the hook, the cell type, the
        /// row and the signal (or exit status, or timeout), as `report` received them; empty when
        /// no plugin faulted (and always for `runInProcess(to:)`).
        public var faults: [String]
        /// The render's warnings (`CellContext.warnings`), then one line per plugin hook whose
        /// host calls failed (`CellContext.failedHostCalls`). Text from documents and plugins:
        /// print it through `TextSanitizer.visible`.
        public var warnings: [String]
        /// Whether a plugin faulted: the table is complete, with its rows drawn as placeholders.
        public var faulted: Bool { !faults.isEmpty }

        /// An outcome with these fault lines and warnings.
        package init(faults: [String] = [], warnings: [String] = []) {
            (self.faults, self.warnings) = (faults, warnings)
        }
    }

    /// The error of a render that a worker could not complete: the document or a data file
    /// cannot be read, an identifier has no plugin, the output cannot be written. Its description
    /// is the message of the error the worker met.
    public struct WorkerError: Error, CustomStringConvertible {
        /// The message, as `String(describing:)` the worker's error.
        public let description: String
    }

    /// The table document: a `.yaml`, `.yml` or `.json` file.
    public var documentPath: String
    /// The folder the document may read files from; `nil`: the document's own folder.
    public var root: String?
    /// Where plugins are found, and whether files others can write are loaded.
    public var discovery: DiscoveryOptions
    /// How rows are written.
    public var format: Format
    /// ASCII borders instead of box-drawing characters (`text` and `ansi`).
    public var ascii = false
    /// The colours `ansi` writes: 24-bit by default, or the nearest of a smaller palette.
    public var colorDepth = ColorDepth.truecolor
    /// The terminal's background for `ansi`, light or dark (`TerminalTheme`); nil when not known:
    /// the selection then draws its own text colour as well as its background, readable on any.
    public var theme: TerminalTheme?
    /// Columns; `nil`: the document's width, else 80.
    public var width: Int?
    /// The row drawn as selected; `nil`: the document's selection.
    public var selected: CellKitModel.IndexPath?
    /// The rows drawn, counted across sections; `nil`: all.
    public var rows: RowWindow?
    /// Seconds plugin code (a hook, a plugin's constructor or `cellkit_plugin_init`) may run
    /// without returning before its worker is killed and its cell type quarantined; more than 0.
    public var hookTimeout: Double = 10
    /// Whether workers run in the sandbox (SECURITY.md, "The sandbox"), closed before any plugin
    /// code runs: namespaces of their own, no terminal, no capabilities, read-only access to the
    /// plugins, the system's libraries and the files the document names, no network, and no new
    /// processes, programs or sockets. On by default; `cellkit render --sandbox off` turns it
    /// off. What the kernel cannot apply is said in the warnings (see `sandboxRequired`).
    public var sandbox = true
    /// Whether a render fails, naming the missing part, when the kernel cannot apply the whole
    /// sandbox (`--sandbox require`); otherwise a missing part is a warning.
    public var sandboxRequired = false
    /// A sandboxed worker's memory limit (its address space), in MiB; 0: none. A worker over it
    /// fails its allocation and is reported as having exceeded it (`--worker-memory`).
    public var workerMemoryMiB = Sandbox.defaultMemoryMiB
    /// Files and folders, beyond the plugins, their libraries and the files the document names,
    /// that plugins may read in the sandbox (`--allow-read`).
    public var allowRead: [String] = []
    /// The program a worker runs: this program, by default (`/proc/self/exe`).
    public var executable = "/proc/self/exe"
    /// A worker's arguments after its name and `--cellkit-render-worker`, for programs that want
    /// them (in `ps`, say); a worker ignores them, as it finds its job in its environment.
    public var workerArguments: [String] = []
    /// Fork workers from this process while it has a single thread, instead of starting
    /// `executable` (off by default). A forked worker skips a whole process start-up (dearer with a
    /// dynamically linked program than a statically linked one: BENCHMARKS.md, "Measurements behind
    /// the code": ForkedWorker), but it is a copy of this process: if a plugin calls `exit()`, this
    /// program's `atexit` functions run in the worker, and it holds copies of this program's open
    /// descriptors (those marked close-on-exec are closed). `cellkit render` turns it on. With
    /// another thread running, or
    /// `CELLKIT_WORKER_EXEC=1` in the environment, workers are started with `executable` anyway.
    public var forksWorkers = false
    /// The document at `documentPath`, when this program has read it already (with `root`): a
    /// worker forked from this process renders it instead of reading the file again.
    package var document: TableDocument?
    /// What discovery found with `discovery`, when this program has run it already (`cellkit
    /// render` runs it beside the document's parse): a worker forked from this process, or a
    /// render in it, uses it instead of walking the plugin folders again.
    package var catalog: Catalog?
    /// The registry an in-process render uses instead of one made from `discovery` (the tests
    /// share one over the package's plugins).
    package var registry: CellRegistry?
    /// Whether an in-process render reads long data files ahead on a helper thread.
    package var readsAhead = true

    /// A render of the document at `documentPath`, reading files under `root` (default: its
    /// folder), with plugins found by `discovery` (default: none, only the built-in types; no
    /// environment variable is read), written as `format`.
    public init(
        documentPath: String, root: String? = nil, discovery: DiscoveryOptions = DiscoveryOptions(),
        format: Format = .text
    ) {
        (self.documentPath, self.root, self.discovery, self.format) = (documentPath, root, discovery, format)
    }

    /// Renders in worker processes, writing the table to `sink`; this process never loads a
    /// plugin. Only whole rows reach `sink`. When a worker dies (a signal, `exit()`, or no
    /// progress within `hookTimeout`), `report` gets one line naming the plugin, the hook, the cell
    /// type and the row; the faulty cell type (every type of its plugin, for a fault while it
    /// loads) is quarantined and a new worker goes on from that row, so its rows are drawn as
    /// placeholders (`⚠ libcrashy.so faulted: this Crashy row is not drawn`) and the rest as usual.
    ///
    /// Returns when the table is complete. Throws `WorkerError` when a worker fails (the message
    /// of its error: an unreadable document, an unknown identifier), `sink`'s error when writing
    /// fails, and an error when no worker can be started or one faults twice at the same place.
    /// `sink` may then hold part of the table. Call it from one thread at a time.
    public func run(to sink: any OutputSink, report: @escaping (String) -> Void = { _ in }) throws -> Outcome {
        let plan = WorkerPlan(executable: executable, arguments: workerArguments, job: job, hookTimeout: hookTimeout)
        var faults: [String] = []
        let render = try RenderSupervisor(
            plan: plan, sink: sink, forking: forksWorkers, document: document, catalog: catalog
        ) { line in
            faults.append(line)
            report(line)
        }
        switch try render.run() {
        case .failed(let error): throw error
        case .complete: return Outcome(faults: faults, warnings: render.warnings)
        }
    }

    /// Renders in this process, writing the table to `sink`: faster to start, but a plugin that
    /// crashes or calls `exit()` ends the process (`CrashReporter.install()` names it first).
    /// Returns the warnings; throws the document's, a plugin's or `sink`'s error, after writing
    /// the rows drawn so far.
    public func runInProcess(to sink: any OutputSink) throws -> Outcome {
        let document = try self.document ?? TableDocument(contentsOf: documentPath, root: root)
        let registry = self.registry ?? CellRegistry(catalog: catalog ?? Catalog(options: discovery))
        let source = try DocumentTable(document, registry: registry)
        source.readsAhead = readsAhead
        let context = CellContext(stylesheet: document.stylesheet)
        let renderer = try makeRenderer(document, registry: registry, context: context)
        let out = OutputBuffer(sink)
        do {
            try Self.draw(
                renderer, source, format: format, ascii: ascii, colorDepth: colorDepth, theme: theme, to: out)
            try out.flush()
        } catch {
            try? out.flush()
            throw error
        }
        return Outcome(warnings: Self.warnings(context))
    }

    /// In a process started as a render's worker, renders what its parent asked for and exits
    /// (status 0 when the table is complete, 1 when it failed: the parent learns why); in any
    /// other process, returns at once. Call it first thing in `main`, before parsing arguments or
    /// loading plugins: `run(to:report:)` starts this program again as its worker. A process is a
    /// worker only when its first argument is `--cellkit-render-worker` and it inherited the
    /// supervisor's shared memory and its job (in memory files, never in the environment, where a
    /// plugin could read the job's key back). A worker dies with its supervisor.
    public static func runWorkerIfRequested() {
        // A worker only when its supervisor made it one: the argument first, the supervisor's
        // shared memory and the plan inherited.
        guard CommandLine.arguments.dropFirst().first == WorkerPlan.argument,
            WorkerRole.isSharedMemory(RenderWorker.memoryFD, named: SharedRegion.name),
            WorkerRole.isSharedMemory(RenderWorker.planFD, named: RenderWorker.planName)
        else { return }
        let bytes = SharedRegion.readAll(RenderWorker.planFD, atMost: 64 << 20)
        close(RenderWorker.planFD)
        do {
            let plan = try JSONDecoder().decode(WorkerPlan.self, from: Data(bytes))
            exit(work(plan, document: nil))
        } catch {
            FileHandle.standardError.write(Data("render worker: \(TextSanitizer.visible("\(error)"))\n".utf8))
            exit(1)
        }
    }

    // MARK: Package

    /// What a worker renders: this value's settings, in a form that travels.
    package struct Job: Sendable, Codable {
        var documentPath: String
        var root: String?
        var searchPath: SearchPath
        var allowUnsafePermissions: Bool
        var useCache: Bool
        var cacheFolder: String?
        var format: Format
        var ascii: Bool
        var colorDepth: ColorDepth
        var theme: TerminalTheme?
        var width: Int?
        var selected: CellKitModel.IndexPath?
        var rows: [Int]?  // first, last
        /// A window of `cellkit browse`: the worker stays alive for the next (Browse/).
        package var browse: BrowseRequest?
        /// Whether the worker closes the sandbox around its plugins.
        var sandbox = true
        /// Whether a part of the sandbox the kernel lacks fails the render.
        var sandboxRequired = false
        /// The worker's memory limit in MiB (0: none).
        var workerMemoryMiB = Sandbox.defaultMemoryMiB
        /// What plugins may read besides what the document names.
        var allowRead: [String] = []
    }

    package var job: Job {
        Job(
            documentPath: documentPath, root: root, searchPath: discovery.searchPath,
            allowUnsafePermissions: discovery.allowUnsafePermissions, useCache: discovery.useCache,
            cacheFolder: discovery.cacheFolder, format: format, ascii: ascii, colorDepth: colorDepth, theme: theme,
            width: width,
            selected: selected, rows: rows.map { [$0.first, $0.last] }, sandbox: sandbox,
            sandboxRequired: sandboxRequired, workerMemoryMiB: workerMemoryMiB, allowRead: allowRead)
    }

    init(_ job: Job) {
        self.init(
            documentPath: job.documentPath, root: job.root,
            discovery: DiscoveryOptions(
                searchPath: job.searchPath, allowUnsafePermissions: job.allowUnsafePermissions,
                useCache: job.useCache, cacheFolder: job.cacheFolder),
            format: job.format)
        (ascii, colorDepth, theme, width, selected) = (job.ascii, job.colorDepth, job.theme, job.width, job.selected)
        (sandbox, sandboxRequired, workerMemoryMiB, allowRead) =
            (job.sandbox, job.sandboxRequired, job.workerMemoryMiB, job.allowRead)
        if let rows = job.rows, rows.count == 2 { self.rows = RowWindow(first: rows[0], last: rows[1]) }
    }

    /// A renderer for `document` with these settings.
    func makeRenderer(_ document: TableDocument, registry: CellRegistry, context: CellContext) throws
        -> TableRenderer
    {
        let renderer = TableRenderer(
            queue: CellQueue(registry: registry, context: context), layout: CellLayout(assets: document.assets),
            width: width ?? document.width ?? 80)
        renderer.selected = selected ?? document.selected
        if let rows { renderer.window = rows }
        return renderer
    }

    /// Draws `source` with `renderer` in `format` into `out` (not flushed).
    package static func draw(
        _ renderer: TableRenderer, _ source: DocumentTable, format: Format, ascii: Bool,
        colorDepth: ColorDepth = .truecolor, theme: TerminalTheme? = nil, to out: OutputBuffer
    ) throws {
        switch format {
        case .text:
            var f = TextFormat(ascii: ascii)
            try renderer.render(source, delegate: source, format: &f, to: out)
        case .ansi:
            var f = TextFormat(ascii: ascii, color: true)
            (f.colorDepth, f.theme) = (colorDepth, theme)
            try renderer.render(source, delegate: source, format: &f, to: out)
        case .html:
            var f = HTMLFormat(assets: source.document.assets)
            try renderer.render(source, delegate: source, format: &f, to: out)
        case .json, .jsonl:
            var f = JSONFormat(jsonLines: format == .jsonl, window: renderer.window)
            try renderer.render(source, delegate: source, format: &f, to: out)
        }
    }

    /// The plugin files a worker may load for `document`: those providing the identifiers it
    /// names, or every usable plugin when a data file's rows may name a type no inline row names
    /// (`late`); `unknown` when a name the document writes has no plugin. Found in the catalog,
    /// without loading anything.
    package static func pluginsNeeded(_ document: TableDocument?, _ catalog: Catalog)
        -> (paths: [String], indices: [Int], late: Bool, unknown: Bool)
    {
        guard let document else { return (catalog.plugins.filter(\.isUsable).map(\.path), [], true, false) }
        var names = Set<String>(), late = false
        for section in document.sections {
            if let cell = section.cell { names.insert(cell) }
            switch section.rows {
            case .inline(let rows): for row in rows { if let cell = row.cell { names.insert(cell) } }
            case .count: break
            case .file: if section.cell == nil { late = true }
            }
        }
        var unknown = false
        var indices = Set<Int>()
        for name in names where !BuiltinCells.names.contains(name) {
            if let identifier = try? CellIdentifier(name), let found = catalog.registration(for: identifier) {
                indices.insert(found.pluginIndex)
            } else {
                unknown = true
            }
        }
        let all = late ? catalog.plugins.filter(\.isUsable).map(\.path) : nil
        let sorted = indices.sorted()
        return (all ?? sorted.map { catalog.plugin(at: $0).path }, late ? [] : sorted, late, unknown)
    }

    /// What a worker's plugins may read once the sandbox closes (`Sandbox.readable(adding:)`): the
    /// plugins it may load, their folders and the folders their libraries are found in, the files
    /// the document names (never its whole folder), and `allowRead`.
    package static func readablePaths(_ document: TableDocument?, plugins: [String], allowRead: [String]) -> [String] {
        var paths = plugins + plugins.map { PathText.folder(of: $0) } + Sandbox.libraryFolders(of: plugins)
        if let document { paths += document.inputFiles.map(\.path) }  // never the document's folder
        return Sandbox.readable(adding: paths + allowRead)
    }

    /// Closes the sandbox around this worker before any of `plugins` loads: pins the plugins as
    /// they are, judged again on real ids (`DecidedTrust.pin`; not with `allowUnsafePermissions`),
    /// then `Sandbox.enter`. Throws when the sandbox is required and a part is missing.
    package static func closeSandbox(
        _ document: TableDocument?, plugins: [String], allowRead: [String], memoryMiB: Int, required: Bool,
        watching: Bool = false, joiningAhead: Bool = false, allowUnsafePermissions: Bool = false
    ) throws {
        DecidedTrust.pin(plugins, checkingTrust: !allowUnsafePermissions)
        let missing = Sandbox.enter(
            readable: readablePaths(document, plugins: plugins, allowRead: allowRead), watching: watching,
            reportFD: Sandbox.reportFD, memoryMiB: memoryMiB, joiningAhead: joiningAhead)
        if required, !missing.isEmpty {
            throw WorkerError(description: sandboxRequiredMessage + missing.joined(separator: "; "))
        }
    }

    /// What of the sandbox could not be applied.
    package static func sandboxWarnings() -> [String] { Sandbox.unapplied }

    /// How the error of a render whose sandbox is required and cannot be applied whole begins
    /// (`cellkit render` exits 2 with it).
    package static let sandboxRequiredMessage =
        "the sandbox is required (--sandbox require) but this machine cannot apply it whole: "

    /// A context's warnings, then its failed host calls, one a line.
    package static func warnings(_ context: CellContext) -> [String] {
        context.warnings + context.failedHostCalls.map(\.description)
    }

    /// The worker: renders `document` (read from the job's path when nil) into the memory its
    /// supervisor shares, skipping the rows delivered already and drawing quarantined cell types as
    /// placeholders. Returns the exit status: 0 when the table is complete, 1 when it failed (an
    /// error after attaching is sent to the supervisor, one before it goes to standard error).
    static func work(_ plan: WorkerPlan, document: TableDocument?, catalog: Catalog? = nil) -> Int32 {
        WorkerRole.enter(supervisor: plan.supervisor)
        do {
            try render(plan, document: document, catalog: catalog)
            return 0
        } catch let error as WorkerError {
            _ = error  // the supervisor has the message
            return 1
        } catch {
            FileHandle.standardError.write(Data("render worker: \(TextSanitizer.visible("\(error)"))\n".utf8))
            return 1
        }
    }

    /// `work(_:document:)`'s render; an error after attaching is sent to the supervisor and thrown as
    /// a `WorkerError`.
    private static func render(_ plan: WorkerPlan, document read: TableDocument?, catalog found: Catalog?) throws {
        let worker = try RenderWorker(plan)
        do {
            let settings = DocumentRender(plan.job)
            let handed = plan.documentBytes.map { worker.region.bytes(count: $0) }
            let document =
                try read ?? TableDocument(path: settings.documentPath, root: settings.root, bytes: handed)
            let registry = CellRegistry(catalog: found ?? Catalog(options: settings.discovery))
            let catalog = registry.catalog
            func pluginPath(_ name: String) -> String? {
                guard let identifier = try? CellIdentifier(name),
                    let registration = catalog.registration(for: identifier)
                else { return nil }
                return catalog.plugin(at: registration.pluginIndex).path
            }
            let badTypes = Set(plan.quarantinedTypes)
            let badPlugins = Set(plan.quarantinedPluginsOf.compactMap(pluginPath))
            let badFiles = Set(plan.quarantinedFiles)
            let isQuarantined = { (name: String) -> Bool in
                if badTypes.contains(name) { return true }
                guard !badPlugins.isEmpty || !badFiles.isEmpty, let path = pluginPath(name) else { return false }
                return badPlugins.contains(path) || badFiles.contains(PathText.lastComponent(of: path))
            }
            if plan.job.sandbox {  // closed before any plugin code runs, its constructors included
                let needed = pluginsNeeded(document, catalog)
                // An identifier no plugin provides fails here, where every plugin file on the search
                // path can still be read for the error's near misses; nothing is loaded.
                if needed.unknown {
                    _ = try DocumentTable(document, registry: registry, leavingUnloaded: { _ in true })
                }
                // Their near misses diagnosed now, while the registry cache may still be written.
                for index in needed.indices { _ = catalog.nearMisses(ofPlugin: index) }
                let cache = [settings.discovery.cacheFile].compactMap { $0 }
                try closeSandbox(
                    document, plugins: needed.paths, allowRead: plan.job.allowRead + cache,
                    memoryMiB: plan.job.workerMemoryMiB, required: plan.job.sandboxRequired,
                    joiningAhead: plan.joinsNamespacesAhead, allowUnsafePermissions: plan.job.allowUnsafePermissions)
            }
            let source = try DocumentTable(document, registry: registry, leavingUnloaded: isQuarantined)
            // Not for browse's windows: they are short, and a helper reading ahead meets a malformed
            // record past the window first, so that the window's own rows could not be drawn.
            source.readsAhead = plan.readsAhead && plan.job.browse == nil
            let context = CellContext(stylesheet: document.stylesheet)
            // Every warning goes to the shared journal as it arises: a crash loses none of them.
            context.keep(in: WarningJournal(area: worker.region.journal))
            for line in sandboxWarnings() { context.warn(line) }
            let renderer = try settings.makeRenderer(document, registry: registry, context: context)
            renderer.skipRows = plan.resumeAt
            renderer.placeholderRows = Set(plan.placeholderRows)
            renderer.faultOfType = { name in
                RowFault.find(
                    in: plan.faults, identifier: name, file: pluginPath(name).map { PathText.lastComponent(of: $0) })
            }
            for fault in plan.faults { if let row = fault.windowRow { renderer.faultOfRow[row] = fault } }
            renderer.quarantine = { name in
                guard isQuarantined(name) else { return nil }
                let file = pluginPath(name).map { PathText.lastComponent(of: $0) } ?? "its plugin"
                return "⚠ \(file) faulted: this \(name) row is not drawn"
            }
            if let request = plan.job.browse {
                return try BrowseService.serve(request, worker, renderer, source, plan: plan) { warnings(context) }
            }
            try draw(
                renderer, source, format: settings.format, ascii: settings.ascii, colorDepth: settings.colorDepth,
                theme: settings.theme, to: worker.out)
            try worker.finish(rows: plan.resumeAt + renderer.rowsDrawn)
        } catch {
            try? worker.out.flush()  // as the render in one process does: the rows drawn so far
            worker.fail(error)
            throw WorkerError(description: String(describing: error))
        }
    }
}
