// `cellkit render` with plugins in a worker process (the default): the library's
// `DocumentRender.run(to:report:)` starts this executable again as the worker
// (`CellKitCommand.main` calls `DocumentRender.runWorkerIfRequested()` first) and
// writes what it draws; the machinery is in CellKitRendering/Isolation/.

import ArgumentParser
import CellKit
import Foundation

enum RenderIsolation {
    /// Runs the render in workers; writes what they draw to standard output or `--output`.
    /// Exits with `RenderCommand.faultedStatus` when a plugin faulted, 1 when a worker failed.
    static func supervise(_ command: RenderSettings, _ document: TableDocument) throws {
        // Checked before anything is written: never a device, FIFO or directory, nor a file the render reads.
        let file = try command.output.map { try AtomicFileSink(path: $0, protecting: document.inputFiles) }
        var render = DocumentRender(
            documentPath: command.table, root: command.root, discovery: command.discoveryOptions,
            format: command.renderFormat(color: command.useColor))
        // What the worker cannot tell by itself: its standard output is not the terminal.
        render.width = command.width ?? document.width ?? Terminal.columns ?? 80
        render.ascii = command.ascii
        render.selected = try command.select.map { try RenderSettings.indexPath($0) }
        render.rows = try command.rows.map { try RenderSettings.window($0) }
        render.hookTimeout = command.hookTimeout
        render.workerArguments = ["render", "--worker"]  // for ps; the worker reads its environment
        render.forksWorkers = true  // one thread; a forked worker forgets our pending temporaries
        render.document = document  // a forked worker renders it without reading it again
        let outcome: DocumentRender.Outcome
        do {
            outcome = try render.run(to: file ?? DescriptorSink()) { line in
                FileHandle.standardError.write(Data("\(line.terminalSafe)\n".utf8))
            }
        } catch {
            file?.abort()  // the destination keeps what it had
            throw error
        }
        try file?.commit()
        let warned = Output.printWarnings(outcome.warnings)
        if outcome.faulted { throw ExitCode(RenderCommand.faultedStatus) }
        try command.failIfStrict(warned: warned)
    }
}
