// `cellkit preview PLUGIN|IDENTIFIER`: every sample of a plugin's cell types drawn in a grid of
// configurations by sandboxed workers: a scrolling view on a terminal, the text elsewhere, one
// HTML page with --output, and golden files for a plugin's own CI with --snapshot and --compare.

import ArgumentParser
import CellKit
import CellKitCheck
import CellKitPreview
import CellKitSupervision
import CellKitTerminal
import Foundation

/// `cellkit preview`: its options, and which of the view, the text, the page and the snapshots it makes.
struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Draw every sample of a plugin's cell types in every configuration: a view, an HTML page, snapshots.",
        discussion: """
            Give a .so file to preview each of its cell types, or a cell identifier to preview that type. \
            Each sample (those the plugin ships with CK_PREVIEW or its preview file; for a type with \
            none, check's typical data and the same with long texts) is drawn in a grid of \
            configurations: the styles plain, grouped and insetGrouped, selected and not, light and dark, \
            left to right and right to left at the default width (60 columns); unselected at the narrow \
            (40) and wide (100) widths, reused after a width change (40, then 60), and reused after \
            another sample, whose differences from a fresh cell are listed under it. Check's findings \
            are printed beside the sample they concern (--no-check leaves them out).

            --look DOC draws the samples with that table document's stylesheets, asset catalog and \
            row height, for hooks that apply styles or draw images.

            Plugins run in sandboxed worker processes, as in render: a plugin that fails to load or \
            faults in a hook shows the error in place of that configuration, and the preview goes on.

            On a terminal the preview is a scrolling view with browse's moving keys (j/k, Ctrl-D/Ctrl-U, \
            f/b, g/G, / to search, n for the next match, q to quit; no counts); elsewhere it is printed \
            as text. \
            --output FILE writes one HTML page instead: the configurations side by side, light and dark \
            by the page's own button and the system's prefers-color-scheme.

            Snapshot tests: --snapshot DIR writes each configuration's text (DIR/TYPE/SAMPLE/CONFIGURATION.txt, \
            no escapes) and its geometry (.json); --compare DIR draws again and compares, printing a \
            diff naming the type, sample and configuration of each file that changed, is missing or is \
            extra; with --update it rewrites those files instead.

            Exit status: 0 drawn (with --compare: every file matches, or --update rewrote them); 1 \
            --compare found differences; 2 the plugin cannot be previewed (not found, unusable, a \
            built-in type) or a file cannot be written; 3 drawn, but a plugin faulted (its \
            configurations show the fault); 64 a malformed option.
            """)

    @Argument(help: "A plugin file, or a registered cell identifier.", completion: Completions.pluginsAndIdentifiers)
    var target: String

    @Option(
        help: ArgumentHelp("Write the preview as one HTML page to FILE instead of showing it.", valueName: "file"),
        completion: .file())
    var output: String?

    @Option(
        help: ArgumentHelp("Write every configuration's text and JSON as golden files into DIR.", valueName: "dir"),
        completion: .directory)
    var snapshot: String?

    @Option(
        help: ArgumentHelp(
            "Compare every configuration with the golden files in DIR; exit 1 if any differs.", valueName: "dir"),
        completion: .directory)
    var compare: String?

    @Flag(help: "With --compare: rewrite the files that differ, are missing or are extra.")
    var update = false

    @Option(
        help: ArgumentHelp(
            "A table document whose stylesheets, asset catalog and row height the samples are drawn with.",
            valueName: "doc"), completion: Completions.tables)
    var look: String?

    @Flag(help: "Do not run check's hooks over the samples (no findings beside them).")
    var noCheck = false

    @Flag(
        help:
            "In the terminal view: when the plugin file or its preview file changes (a make in another pane), draw every configuration again in new workers, the view staying where it was."
    )
    var watch = false

    /// A hook runs 10 s at most by default, as in render.
    enum Defaults: HookTimeoutDefault { static var hookTimeout: Double { 10 } }

    @OptionGroup var workers: WorkerOptions<Defaults>

    @OptionGroup var discovery: DiscoveryFlags

    var hookTimeout: Double { workers.hookTimeout }
    var sandbox: SandboxMode { workers.sandbox }
    var sandboxFlags: SandboxFlags { workers.sandboxFlags }

    func validate() throws {
        if update, compare == nil { throw ValidationError("--update goes with --compare DIR") }
        if watch, [output, snapshot, compare].contains(where: { $0 != nil }) {
            throw ValidationError("--watch is for the terminal view; leave out --output, --snapshot and --compare")
        }
        if [output, snapshot, compare].compactMap({ $0 }).count > 1 {
            throw ValidationError("give one of --output, --snapshot and --compare")
        }
    }

    func run() throws {
        DiscoveryFlags.warnAboutRefusedPaths(discovery.options)
        if discovery.verbose { DiscoveryFlags.explain(discovery.options) }
        let target = try resolve()
        if let compare { try requireFolder(compare) }
        let renderer = PreviewRenderer(settings: settings(for: target, look: try readLook()))
        if let folder = snapshot ?? compare {
            let gallery = PreviewGallery.draw(target, formats: [.text, .json], renderer: renderer)
            throw ExitCode(snapshots(gallery, folder: folder))
        }
        let check = noCheck ? nil : findings(target)
        if let output { throw ExitCode(try writePage(target, renderer: renderer, check: check, to: output)) }
        if Terminal.isTerminal, isatty(0) == 1 {
            let title = "cellkit preview: \(target.name) \(target.version) (\(target.path))"
            do {
                // The one step a reload repeats: the plugin read again (a build may add or drop a type),
                // then every configuration drawn, a configuration at a time, in new workers.
                let watched = watch ? [target.path] + PreviewFile.candidates(forPlugin: target.path) : nil
                let status = try PreviewView.show(title: title, renderer: renderer, watching: watched) {
                    let current = watch ? targetNow(else: target) : target
                    return PreviewGalleryDrawing(current, formats: [.ansi], check: noCheck ? nil : findings(current))
                }
                throw ExitCode(status)
            } catch let error as TerminalError { throw BrowseError(error.description) }
        }
        let gallery = PreviewGallery.draw(target, formats: [.text], renderer: renderer, check: check)
        Output.print(PreviewReport.lines(gallery, format: .text))
        throw ExitCode(status(gallery))
    }

    /// The look `--look` names; exit 2 when its document cannot be read.
    private func readLook() throws -> PreviewLook? {
        guard let look else { return nil }
        do { return try PreviewLook.of(table: look) } catch {
            FileHandle.standardError.write(Data(("Error: --look \(look): \(error)".terminalSafe + "\n").utf8))
            throw ExitCode(2)
        }
    }

    /// Exits 1, saying how to write them, when the golden files' folder is not there.
    private func requireFolder(_ folder: String) throws {
        var isFolder: ObjCBool = false
        guard !(FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue) else {
            return
        }
        Output.print([
            "no golden files: \(folder) is not a folder; write them first with "
                + "cellkit preview \(target) --snapshot \(folder) (exit 1)"
        ])
        throw ExitCode(1)
    }

    /// Writes the HTML page to `path`; the exit status (2 when it cannot be written).
    private func writePage(
        _ target: PreviewTarget, renderer: PreviewRenderer, check: ((String) -> [CheckFinding])?, to path: String
    ) throws -> Int32 {
        let gallery = PreviewGallery.draw(target, formats: [.html, .text], renderer: renderer, check: check)
        do {
            try Data(PreviewPage.html(gallery).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            FileHandle.standardError.write(
                Data(("Error: cannot write \(path): \(error.localizedDescription)".terminalSafe + "\n").utf8))
            return 2
        }
        return status(gallery)
    }

    /// 3 when a configuration's drawing faulted or failed, else 0.
    private func status(_ gallery: PreviewGallery) -> Int32 { gallery.faulted ? RenderCommand.faultedStatus : 0 }

    /// Writes, compares or updates the golden files in `folder`; the exit status.
    private func snapshots(_ gallery: PreviewGallery, folder: String) -> Int32 {
        do {
            if snapshot != nil {
                let (written, removed) = try PreviewSnapshot.write(gallery, to: folder)
                let gone = removed == 0 ? "" : "; removed \(removed) that no configuration draws now"
                Output.print(["wrote \(written) golden files into \(folder)\(gone)"])
                return 0
            }
            let changes = PreviewSnapshot.compare(gallery, with: folder)
            if changes.isEmpty {
                Output.print(["\(PreviewSnapshot.files(gallery).count) golden files in \(folder) match"])
                return 0
            }
            Output.print(PreviewSnapshot.report(changes, folder: folder))
            let summary = PreviewSnapshot.summary(changes)
            if update {
                try PreviewSnapshot.write(gallery, to: folder)
                Output.print(["updated the golden files in \(folder): \(summary)"])
                return 0
            }
            Output.print([
                "golden files in \(folder): \(summary) (exit 1); "
                    + "cellkit preview \(target) --compare \(folder) --update accepts the changes (make update, in a cellkit new project)"
            ])
            return 1
        } catch {
            FileHandle.standardError.write(
                Data(("Error: cannot write into \(folder): \(error.localizedDescription)".terminalSafe + "\n").utf8))
            return 2
        }
    }

    /// The workers' settings: the plugin previewed first on the search path, as check's worker has it.
    private func settings(for target: PreviewTarget, look: PreviewLook?) -> PreviewSettings {
        var search = SearchPath.standard(options: discovery.pluginPaths)
        search.entries.insert(.init(path: target.path, origin: .option), at: 0)
        var settings = PreviewSettings(
            discovery: DiscoveryOptions(
                searchPath: search, allowUnsafePermissions: discovery.allowUnsafePermissions,
                useCache: !discovery.noCache))
        settings.hookTimeout = hookTimeout
        (settings.sandbox, settings.sandboxRequired) = (sandbox != .off, sandbox == .require)
        (settings.allowRead, settings.workerMemoryMiB) = (sandboxFlags.absolutePaths, sandboxFlags.workerMemory)
        settings.colorDepth = RenderCommandOptions(table: "-", format: .ansi).resolvedColorDepth
        settings.look = look
        // A worker for each configuration, as the preview drew first: to compare the two (tests, benchmarks).
        settings.sharesWorkers = ProcessInfo.processInfo.environment["CELLKIT_PREVIEW_WORKERS"] != "each"
        return settings
    }

    /// Check's findings for a type of `target`, by a check-worker as `cellkit check` runs it.
    private func findings(_ target: PreviewTarget) -> (String) -> [CheckFinding] {
        let (timeout, mode, limits, flags) = (min(hookTimeout, 5), sandbox, sandboxFlags, discovery)
        return { identifier in
            let supervisor = CheckCommand.supervisor(
                plugin: target.path, identifier: identifier, table: nil, hookTimeout: timeout, sandbox: mode,
                sandboxFlags: limits, discovery: flags)
            return supervisor.run(identifier: identifier).findings
        }
    }

    /// The target as its file reads now, for a reload: `before`'s path and a problem line when it
    /// cannot be previewed any more (the view shows it in place and the watch goes on).
    private func targetNow(else before: PreviewTarget) -> PreviewTarget {
        switch resolved() {
        case .success(let target): return target
        case .failure(let reason):
            var broken = before
            (broken.identifiers, broken.problem) = ([], reason.text)
            return broken
        }
    }

    /// Why a target cannot be previewed.
    private struct Refusal: Error { let text: String }

    /// The target, or why it cannot be previewed, printing nothing.
    private func resolved() -> Result<PreviewTarget, Refusal> {
        do { return .success(try resolveTarget()) } catch let refusal as Refusal { return .failure(refusal) } catch {
            return .failure(Refusal(text: "\(error)"))
        }
    }

    /// The plugin the target names, and its types (one, for an identifier); exit 2 when none.
    private func resolve() throws -> PreviewTarget {
        switch resolved() {
        case .success(let target): return target
        case .failure(let refusal): throw refuse(refusal.text)
        }
    }

    /// `resolve()`'s work: a `Refusal` says why the target cannot be previewed.
    private func resolveTarget() throws -> PreviewTarget {
        let plugin: PluginFile, only: String?
        if target.contains("/") || target.hasSuffix(".so") || FileManager.default.fileExists(atPath: target) {
            switch PluginFile.read(path: SearchPath.absolute(target)) {
            case .failure(let rejection): throw Refusal(text: "\(rejection.path): \(rejection.reason)")
            case .success(let found):
                (plugin, only) = (discovery.allowUnsafePermissions ? found : found.checkingPermissions(), nil)
            }
        } else {
            let identifier: CellIdentifier
            do { identifier = try CellIdentifier(target) } catch {
                throw ValidationError(error.description.terminalSafe)
            }
            if BuiltinCells.names.contains(target) {
                throw Refusal(text: "'\(target)' is a built-in cell type: no plugin to preview")
            }
            let catalog = Catalog(options: discovery.options)
            guard let registration = catalog.registration(for: identifier) else {
                let error = CellKitError.unknownIdentifier(
                    name: target, nearest: catalog.nearest(to: target),
                    searched: catalog.options.searchPath.describedPaths)
                throw Refusal(text: "Error: \(error.description)")
            }
            (plugin, only) = (catalog.plugin(at: registration.pluginIndex), target)
        }
        let identifiers = plugin.cellTypes.map(\.identifier.name).filter { only == nil || $0 == only }
        guard plugin.isUsable else {
            throw Refusal(text: "\(plugin.path): the plugin cannot be used: " + plugin.problems.joined(separator: "; "))
        }
        guard !identifiers.isEmpty else {
            throw Refusal(text: "\(plugin.path): the plugin has no cell type to preview")
        }
        return PreviewTarget(
            path: plugin.path, name: plugin.descriptor.name, version: plugin.descriptor.version,
            identifiers: identifiers)
    }

    /// Prints why the target cannot be previewed on standard error; the exit status 2 to throw.
    private func refuse(_ reason: String) -> ExitCode {
        FileHandle.standardError.write(Data((reason.terminalSafe + "\n").utf8))
        return ExitCode(2)
    }
}
