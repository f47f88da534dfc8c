// `cellkit check PLUGIN|IDENTIFIER`: vets a plugin by running its hooks in a worker
// process over sample rows (empty, a table's, hostile), and reports crashes, exit(),
// timeouts, failed host calls, limits hit, cells that keep what an earlier row set,
// and each hook's time per call. The worker is this program again (`check-worker`).

import ArgumentParser
import CellKit
import CellKitCheck
import CellKitSupervision
import Foundation

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Vet a plugin: run its hooks in a worker process over sample rows and report every fault.",
        discussion: """
            Give a .so file to check each of its cell types, or a cell identifier to check that type \
            (in the plugin that provides it). Each type's hooks run in a worker process, so a crash, \
            an exit() or a hook running past --hook-timeout is reported, naming the hook and the row \
            (a table's row by its section and row, counted from 1; a sample by its name, sample \
            "long" or sample "empty data", as cellkit preview heads it), and the check goes on in a \
            new worker after that row (at most 3 such faults a type).

            Samples: empty data, typical data and hostile data (very long texts, control characters, \
            values of the wrong type, numbers and nulls for every key, deep nesting). Typical data is \
            the samples the plugin ships for the type (CK_PREVIEW, or libNAME.preview.yaml beside \
            libNAME.so: see `cellkit inspect`), else CellKit's own; the report says which. Rows that each \
            change one key the hooks read on typical data (so reuse is tested without a table); and \
            with --table the table's rows of the type (the first 24; every other row of the type then \
            runs once through the routine, so a fault at any row is found). Each sample runs on a new \
            cell, each hook timed; then each sample is laid out through the reuse routine on a cell \
            another sample of the same style gave back, and compared with the same sample on a new \
            cell: every property that differs is reported with both values. Each sample is also \
            drawn right to left (as in a direction: rtl section, which hooks can read): views that \
            overlap there, or a subview cut there, but not left to right are reported.

            Reported: crashes (the signal), exit(), timeouts, failed host calls with their last_error, \
            the context's limit warnings (heights, frames, text sizes, subviews, styles), height \
            answers outside 1-200 lines, reuse differences, right-to-left overlaps, symbols a letter or two from one of the \
            type's hooks (never called), writes to standard output, writes to cellkit's own channel, \
            and reads of the row's data as the wrong type on typical data or a table row (naming the \
            key). Other failed data reads (a key missing from CellKit's own samples, the hostile \
            samples' wrong types) and missing images are notes: hooks handle those through the status; \
            a key missing from typical data or a table row is an optional key left out, not noted. \
            Notes are listed with -v \
            (which also says on standard error where plugins were searched for); without it one line \
            counts them. A part of the sandbox this machine lacks is always listed.

            Exit status: 0 the plugin is clean; 1 it has findings; 2 it cannot be checked (not found, \
            unusable, a built-in type, the table cannot be read); 64 a malformed option.
            """)

    @Argument(help: "A plugin file, or a registered cell identifier.", completion: Completions.pluginsAndIdentifiers)
    var target: String

    @Option(
        help: ArgumentHelp("A table document whose rows of the type are samples too.", valueName: "doc"),
        completion: Completions.tables)
    var table: String?

    @Flag(help: "Print JSON for scripts.")
    var json = false

    /// A hook runs 5 s at most by default: check's samples are small.
    enum Defaults: HookTimeoutDefault { static var hookTimeout: Double { 5 } }

    @OptionGroup var workers: WorkerOptions<Defaults>

    @OptionGroup var discovery: DiscoveryFlags

    var hookTimeout: Double { workers.hookTimeout }
    var sandbox: SandboxMode { workers.sandbox }
    var sandboxFlags: SandboxFlags { workers.sandboxFlags }

    func run() throws {
        DiscoveryFlags.warnAboutRefusedPaths(discovery.options)
        if discovery.verbose { DiscoveryFlags.explain(discovery.options) }
        let (plugin, only) = try resolve()
        let types = plugin.cellTypes.filter { only == nil || $0.identifier.name == only }
        var report = CheckReport(plugin: plugin.path, name: plugin.descriptor.name, version: plugin.descriptor.version)
        if !plugin.isUsable { report.error = "plugin cannot be used: " + plugin.problems.joined(separator: "; ") }
        if plugin.cellTypes.isEmpty, ELFImage.isSwiftLibrary(atPath: plugin.path) {
            let why = "a Swift plugin that exports no cell type: \(NearMiss.swiftPublicRule)"
            report.error = report.error.map { "\($0); \(why)" } ?? why
        }
        if report.error == nil, let table { report.error = unprovided(in: SearchPath.absolute(table), plugin: plugin) }
        if report.error == nil { report.previewWarnings = plugin.previews().warnings }
        if report.error == nil {
            let table = table.map(SearchPath.absolute)
            for type in types {
                let supervisor = Self.supervisor(
                    plugin: plugin.path, identifier: type.identifier.name, table: table, hookTimeout: hookTimeout,
                    sandbox: sandbox, sandboxFlags: sandboxFlags, discovery: discovery)
                report.cellTypes.append(supervisor.run(identifier: type.identifier.name))
            }
        }
        if json { try Output.printJSON(report) } else { Output.print(lines(report)) }
        throw ExitCode(report.status)
    }

    /// The supervisor that checks the type `identifier` of the plugin file `plugin` in `check-worker`
    /// processes (`cellkit preview` runs one too).
    static func supervisor(
        plugin path: String, identifier name: String, table: String?, hookTimeout: Double, sandbox mode: SandboxMode,
        sandboxFlags: SandboxFlags, discovery: DiscoveryFlags
    ) -> CheckSupervisor {
        let forward = discovery.pluginPaths.flatMap { ["--plugin-path", $0] }
        let unsafe = discovery.allowUnsafePermissions, noCache = discovery.noCache
        let limits = sandboxFlags.forwarded
        var supervisor = CheckSupervisor(executable: "/proc/self/exe", hookTimeout: hookTimeout) { from, excluded in
            ["check-worker", path, "--identifier", name, "--from", "\(from)"]
                + (excluded.isEmpty ? [] : ["--exclude=" + excluded.map(String.init).joined(separator: ",")])
                + (table.map { ["--table", $0] } ?? []) + forward
                + (unsafe ? ["--allow-unsafe-permissions"] : []) + (noCache ? ["--no-cache"] : [])
                + (mode == .on ? [] : ["--sandbox", mode.rawValue]) + limits
        }
        supervisor.swiftPlugin = ELFImage.isSwiftLibrary(atPath: path)
        return supervisor
    }

    /// The plugin file the target names, and the one type to check when it is an identifier.
    private func resolve() throws -> (PluginFile, String?) {
        if target.contains("/") || target.hasSuffix(".so") || FileManager.default.fileExists(atPath: target) {
            switch PluginFile.read(path: SearchPath.absolute(target)) {
            case .failure(let rejection): throw refuse("\(rejection.path): \(rejection.reason)", plugin: rejection.path)
            case .success(let found):
                return (discovery.allowUnsafePermissions ? found : found.checkingPermissions(), nil)
            }
        }
        let identifier: CellIdentifier
        do { identifier = try CellIdentifier(target) } catch {
            guard json else { throw ValidationError(error.description.terminalSafe) }
            throw refuse(error.description, plugin: target)
        }
        if BuiltinCells.names.contains(target) {
            throw refuse("'\(target)' is a built-in cell type: no plugin code to check", plugin: target)
        }
        let catalog = Catalog(options: discovery.options)
        guard let registration = catalog.registration(for: identifier) else {
            let error = CellKitError.unknownIdentifier(
                name: target, nearest: catalog.nearest(to: target), searched: catalog.options.searchPath.describedPaths)
            throw refuse("Error: \(error.description)", plugin: target)
        }
        return (catalog.plugin(at: registration.pluginIndex), target)
    }

    /// Why the table at `path` cannot be read by the worker: the cell types it names (a section's
    /// `cell:` or an inline row's) that no plugin on the worker's search path (`plugin` first, then
    /// the standard path with `--plugin-path`) provides; nil when each is found, or when the table
    /// cannot be read here (the worker then says why).
    private func unprovided(in path: String, plugin: PluginFile) -> String? {
        guard let document = try? TableDocument(contentsOf: path) else { return nil }
        var names: [String] = []
        for section in document.sections {
            if let cell = section.cell { names.append(cell) }
            if case .inline(let rows) = section.rows { names += rows.compactMap(\.cell) }
        }
        var search = SearchPath.standard(options: discovery.pluginPaths)
        search.entries.insert(.init(path: plugin.path, origin: .option), at: 0)
        let catalog = Catalog(
            options: DiscoveryOptions(
                searchPath: search, allowUnsafePermissions: discovery.allowUnsafePermissions,
                useCache: !discovery.noCache))
        var seen = Set<String>()
        let missing = names.filter { name in
            guard seen.insert(name).inserted, !BuiltinCells.names.contains(name),
                let identifier = try? CellIdentifier(name)
            else { return false }
            return catalog.registration(for: identifier) == nil
        }
        guard !missing.isEmpty else { return nil }
        let quoted = missing.map { "'\($0)'" }.joined(separator: ", ")
        let one = missing.count == 1
        return
            "the table \(table ?? path) uses \(one ? "cell type" : "cell types") \(quoted), which no plugin on the "
            + "search path provides (searched: \(catalog.options.searchPath.describedPaths.joined(separator: ", "))); "
            + "pass the folder of the plugin that provides \(one ? "it" : "them") with --plugin-path DIR"
    }

    /// Prints why `plugin` cannot be checked (as JSON with `--json`: a report whose `error` says
    /// it); the exit status 2 to throw.
    private func refuse(_ reason: String, plugin: String) -> ExitCode {
        if json {
            var report = CheckReport(plugin: plugin, name: "", version: "")
            report.error = reason
            try? Output.printJSON(report)
        } else {
            Output.print([reason])
        }
        return ExitCode(2)
    }

    private func lines(_ report: CheckReport) -> [String] {
        var lines = ["\(report.plugin)  (\(report.name) \(report.version))"]
        if let error = report.error { return lines + ["  cannot check: \(error)", "Not checked (exit 2)."] }
        let seconds = hookTimeout == hookTimeout.rounded() ? "\(Int(hookTimeout))" : "\(hookTimeout)"
        lines.append("  hooks run in a worker process; a hook may run \(seconds) s")
        if !report.previewWarnings.isEmpty {
            lines += ["  preview warnings (those samples are not run):"] + report.previewWarnings.map { "    \($0)" }
        }
        var hidden = 0
        for type in report.cellTypes {
            lines.append("")
            lines.append("\(type.identifier)  \(type.hooks.joined(separator: ", "))")
            if let error = type.error {
                lines.append("  cannot check: \(error)")
                continue
            }
            let skipped = type.tableRowsSkipped > 0 ? " and \(type.tableRowsSkipped) more table rows" : ""
            let notRun = type.unitsPlanned - type.unitsRun - type.unitsFaulted
            let outcome =
                (type.unitsFaulted > 0 ? ", \(type.unitsFaulted) faulted" : "")
                + (notRun > 0 ? ", \(notRun) not run" : "")
            lines.append(
                "  \(type.samples.count) samples\(skipped); \(type.unitsRun) of \(type.unitsPlanned) units run\(outcome) in \(type.workers) worker\(type.workers == 1 ? "" : "s")"
            )
            lines.append("  typical data: " + Self.typicalData(type, plugin: report.plugin))
            lines += type.findings.map { "  FAIL \($0.message)" }
            if type.findings.isEmpty {
                lines.append("  ok: no crash, exit, timeout, failed host call, limit or reuse difference")
            }
            if !type.timings.isEmpty {
                let width = type.timings.map(\.hook.count).max() ?? 0
                lines.append("  time per call (median, p99):")
                for t in type.timings {
                    let pad = String(repeating: " ", count: width - t.hook.count)
                    lines.append(
                        "    \(t.hook)\(pad)  \(Self.micro(t.medianMicroseconds))  \(Self.micro(t.p99Microseconds))  over \(t.calls) calls"
                    )
                }
            }
            if let seconds = type.tableReadSeconds {
                lines.append("  --table read in \(String(format: "%.2f", seconds)) s (CellKit's time, not a hook's)")
            }
            // Notes only with -v, but a sandbox part this machine lacks always (render warns of it too).
            let notes = discovery.verbose ? type.notes : type.notes.filter { $0.hasPrefix("sandbox: ") }
            if !notes.isEmpty { lines += ["  notes:"] + notes.map { "    \($0)" } }
            hidden += type.notes.count - notes.count
        }
        let findings = report.cellTypes.reduce(0) { $0 + $1.findings.count }
        if hidden > 0 { lines += ["", "\(hidden) note\(hidden == 1 ? "" : "s"); -v shows them"] }
        lines.append("")
        switch report.status {
        case 0:
            lines.append("Clean: \(report.cellTypes.count) cell type\(report.cellTypes.count == 1 ? "" : "s") checked.")
        case 1: lines.append("Not clean: \(findings) finding\(findings == 1 ? "" : "s") (exit 1).")
        default: lines.append("Not checked (exit 2).")
        }
        return lines
    }

    /// What a type's typical data was: the plugin's previews, or CellKit's own with how to ship some.
    static func typicalData(_ type: CheckTypeReport, plugin: String) -> String {
        guard type.previews.isEmpty else {
            return "the plugin's previews (\(type.previews.map { "\"\($0)\"" }.joined(separator: ", ")))"
        }
        let file = PathText.lastComponent(of: PreviewFile.path(forPlugin: plugin))
        return "CellKit's own; the plugin ships no preview of \(type.identifier) (CK_PREVIEW, or \(file))"
    }

    static func micro(_ value: Double) -> String {
        let text = value < 10 ? String(format: "%.2f", value) : String(format: "%.1f", value)
        return String(repeating: " ", count: max(0, 8 - text.count)) + text + " µs"
    }
}

/// `cellkit check --json`.
struct CheckReport: Encodable {
    let plugin: String, name: String, version: String
    var error: String?
    var cellTypes: [CheckTypeReport] = []
    /// The plugin's preview samples left out, one warning each (`PluginPreviews.warnings`).
    var previewWarnings: [String] = []

    init(plugin: String, name: String, version: String) {
        (self.plugin, self.name, self.version) = (plugin, name, version)
    }

    /// 0 clean, 1 findings, 2 not checked.
    var status: Int32 {
        if error != nil || cellTypes.contains(where: { $0.error != nil }) || cellTypes.isEmpty { return 2 }
        return cellTypes.contains { !$0.findings.isEmpty } ? 1 : 0
    }

    var clean: Bool { status == 0 }

    enum CodingKeys: String, CodingKey { case plugin, name, version, error, cellTypes, previewWarnings, clean, status }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(plugin, forKey: .plugin)
        try c.encode(name, forKey: .name)
        try c.encode(version, forKey: .version)
        try c.encodeIfPresent(error, forKey: .error)
        try c.encode(cellTypes, forKey: .cellTypes)
        try c.encode(previewWarnings, forKey: .previewWarnings)
        try c.encode(clean, forKey: .clean)
        try c.encode(status, forKey: .status)
    }
}

/// `cellkit check-worker`: the worker `check` starts; not for people. Reports on fd 3.
struct CheckWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-worker", abstract: "The worker process of `cellkit check`.", shouldDisplay: false)

    @Argument var plugin: String
    @Option var identifier: String
    @Option var from = 0
    @Option var exclude = ""
    @Option var table: String?
    @Option var sandbox: SandboxMode = .on
    @OptionGroup var sandboxFlags: SandboxFlags
    @OptionGroup var discovery: DiscoveryFlags

    func run() throws {
        // Dies with its supervisor, in the sandbox unless told not to; crashes placed by address.
        WorkerRole.enter(supervisor: getppid())
        // The plugin under check first, so that it provides the identifier even if another plugin offers it too.
        var search = SearchPath.standard(options: discovery.pluginPaths)
        search.entries.insert(.init(path: plugin, origin: .option), at: 0)
        var worker = CheckWorker(
            identifier: identifier,
            options: DiscoveryOptions(
                searchPath: search, allowUnsafePermissions: discovery.allowUnsafePermissions,
                useCache: !discovery.noCache))
        worker.tablePath = table
        worker.sandboxed = sandbox != .off
        worker.sandboxRequired = sandbox == .require
        (worker.allowRead, worker.workerMemoryMiB) = (sandboxFlags.absolutePaths, sandboxFlags.workerMemory)
        worker.from = from
        worker.excluded = exclude.split(separator: ",").compactMap { Int($0) }
        throw ExitCode(worker.run())
    }
}
