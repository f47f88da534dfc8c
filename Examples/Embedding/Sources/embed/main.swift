// embed TABLE PLUGIN_DIR: render a table document as text, with plugins from PLUGIN_DIR only.

import CellKit
import Foundation

/// Messages quote documents and plugins: `TextSanitizer.visible` keeps their
/// control characters and escape sequences off the terminal.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("\(TextSanitizer.visible(message))\n".utf8))
}

func fail(_ message: String) -> Never {
    printError("embed: \(message)")
    exit(1)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2 else { fail("usage: embed TABLE PLUGIN_DIR") }
let (tablePath, pluginDir) = (arguments.first!, arguments.last!)

do {
    let document = try TableDocument(contentsOf: tablePath)
    // Only PLUGIN_DIR: no CELLKIT_PLUGIN_PATH, no executable's folder, no ~/.local/share.
    let registry = CellRegistry(options: DiscoveryOptions(searchPath: .custom([pluginDir])))
    let table = try DocumentTable(document, registry: registry)
    let context = CellContext(stylesheet: document.stylesheet)
    let renderer = TableRenderer(
        queue: CellQueue(registry: registry, context: context),
        layout: CellLayout(assets: document.assets),
        width: document.width ?? 80)
    renderer.selected = document.selected

    var format = TextFormat()
    let out = OutputBuffer(DescriptorSink())
    try renderer.render(table, delegate: table, format: &format, to: out)
    try out.flush()
    for warning in context.warnings { printError("warning: \(warning)") }
} catch {
    fail("\(error)")
}
