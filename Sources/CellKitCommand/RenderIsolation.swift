// `cellkit render` with plugins in a worker process (the default): the supervisor
// here writes the output; the worker (this executable again, `render --worker …`)
// loads the plugins and draws. The machinery is in CellKitRendering/Isolation/.

import ArgumentParser
import CellKit
import Foundation

enum RenderIsolation {
    /// Runs the render in workers; writes what they draw to standard output or `--output`.
    /// Exits with `RenderCommand.faultedStatus` when a plugin faulted, 1 when a worker failed.
    static func supervise(_ command: RenderCommand, _ document: TableDocument) throws {
        // Checked before anything is written: never a device, FIFO or directory, nor a file the render reads.
        let file = try command.output.map { try AtomicFileSink(path: $0, protecting: document.inputFiles) }
        // What the worker cannot tell by itself: its standard output is not the terminal.
        let width = command.width ?? document.width ?? Terminal.columns ?? 80
        var head = ["render", "--worker-width", String(width)]
        if command.format == .ansi, command.useColor { head.append("--worker-color") }
        let arguments = CommandLine.arguments
        let rest = arguments.count > 1 && arguments[1] == "render" ? Array(arguments.dropFirst(2)) : []
        let plan = WorkerPlan(
            executable: "/proc/self/exe", head: head, rest: rest, hookTimeout: command.hookTimeout)
        let ending: IsolatedRender.Ending
        let warnings: Int
        do {
            let render = try IsolatedRender(plan: plan, sink: file ?? DescriptorSink()) { line in
                FileHandle.standardError.write(Data("\(line.terminalSafe)\n".utf8))
            }
            ending = try render.run()
            warnings = render.warnings
        } catch {
            file?.abort()  // the destination keeps what it had
            throw error
        }
        switch ending {
        case .failed:
            file?.abort()
            throw ExitCode(1)  // the worker printed why
        case .complete(let faults):
            try file?.commit()
            if faults > 0 { throw ExitCode(RenderCommand.faultedStatus) }
            try command.failIfStrict(warned: warnings)
        }
    }

    /// The worker: renders into the memory its supervisor shares, skipping the rows delivered
    /// already and drawing quarantined cell types as placeholders.
    static func work(_ command: RenderCommand) throws {
        let worker = try IsolationWorker()
        do {
            let document = try TableDocument(contentsOf: command.table, root: command.root)
            let registry = CellRegistry(options: command.discovery.options)
            let catalog = registry.catalog
            func pluginPath(_ name: String) -> String? {
                guard let identifier = try? CellIdentifier(name),
                    let registration = catalog.registration(for: identifier)
                else { return nil }
                return catalog.plugins[registration.pluginIndex].path
            }
            let badTypes = Set(command.workerQuarantine)
            let badPlugins = Set(command.workerQuarantinePluginOf.compactMap(pluginPath))
            let isQuarantined = { (name: String) -> Bool in
                badTypes.contains(name) || (!badPlugins.isEmpty && pluginPath(name).map(badPlugins.contains) == true)
            }
            let source = try DocumentTable(document, registry: registry, leavingUnloaded: isQuarantined)
            let context = CellContext(stylesheet: document.stylesheet)
            let renderer = TableRenderer(
                queue: CellQueue(registry: registry, context: context), layout: CellLayout(assets: document.assets),
                width: command.workerWidth ?? command.width ?? document.width ?? 80)
            renderer.selected = try command.select.map { try RenderCommand.indexPath($0) } ?? document.selected
            if let rows = command.rows { renderer.window = try RenderCommand.window(rows) }
            renderer.skipRows = command.workerResume
            renderer.placeholderRows = Set(command.workerPlaceholderRow)
            renderer.quarantine = { name in
                guard isQuarantined(name) else { return nil }
                let file = pluginPath(name).map { ($0 as NSString).lastPathComponent } ?? "its plugin"
                return "⚠ \(file) faulted: this \(name) row is not drawn"
            }
            try command.render(renderer, source, worker.out, color: command.workerColor)
            try worker.finish(warnings: Output.printWarnings(context))
        } catch {
            try? worker.out.flush()  // as the render in one process does: the rows drawn so far
            worker.fail()
            throw error
        }
    }
}
