// embed [--no-isolation] TABLE PLUGIN_DIR: render a table document as text, with plugins
// from PLUGIN_DIR only, in a worker process (a plugin that crashes costs only its rows).

import CellKit
import Foundation

// A render's worker is this program started again: it renders and exits here.
DocumentRender.runWorkerIfRequested()

/// Messages quote documents and plugins: `TextSanitizer.visible` keeps their
/// control characters and escape sequences off the terminal.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("\(TextSanitizer.visible(message))\n".utf8))
}

func fail(_ message: String) -> Never {
    printError("embed: \(message)")
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
let isolated = !arguments.contains("--no-isolation")
arguments.removeAll { $0 == "--no-isolation" }
guard arguments.count == 2 else { fail("usage: embed [--no-isolation] TABLE PLUGIN_DIR") }
let (tablePath, pluginDir) = (arguments[0], arguments[1])

// Only PLUGIN_DIR: no CELLKIT_PLUGIN_PATH, no executable's folder, no ~/.local/share.
let render = DocumentRender(
    documentPath: tablePath, discovery: DiscoveryOptions(searchPath: .custom([pluginDir])), format: .text)
do {
    let outcome: DocumentRender.Outcome
    if isolated {
        // Each fault's line as it happens: the plugin, the hook, the cell type, the row, the signal.
        outcome = try render.run(to: DescriptorSink()) { line in printError("embed: \(line)") }
    } else {
        CrashReporter.install()  // a crash in plugin code names the plugin, then the process dies
        outcome = try render.runInProcess(to: DescriptorSink())
    }
    // CellContext.warnings, then one line per hook whose host calls failed (failedHostCalls).
    for warning in outcome.warnings { printError("warning: \(warning)") }
    if outcome.faulted { exit(3) }  // the table is complete, a plugin's rows are placeholders
} catch {
    fail("\(error)")
}
