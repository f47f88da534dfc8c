// `cellkit list`: every registered cell type, and every file that could not be used.

import ArgumentParser
import CellKit

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List registered cell types, their hooks and plugins; shadowed and broken plugins with the reason.",
        discussion: "Reads each plugin's ELF symbol table only: no plugin code runs.")

    @OptionGroup var discovery: DiscoveryFlags

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func run() throws {
        DiscoveryFlags.warnAboutRefusedPaths(discovery.options)
        if discovery.verbose { DiscoveryFlags.explain(discovery.options) }
        // Near misses are diagnosed for list (and inspect) only; the registry cache keeps them.
        let catalog = Catalog(options: discovery.options, diagnosingNearMisses: true)
        if json { try Output.printJSON(ListReport(catalog)) } else { Output.print(Self.lines(catalog)) }
    }

    static func lines(_ catalog: Catalog) -> [String] {
        let plugins = catalog.plugins  // decoded once: the property builds the array each time
        var lines = ["Search path (first wins):"]
        let searchPath = catalog.options.searchPath
        for (i, (entry, path)) in zip(searchPath.entries, searchPath.describedPaths).enumerated() {
            lines.append("  \(i + 1). \(path)  (\(entry.origin.rawValue))")  // a missing folder is marked
        }
        lines.append("")
        lines.append("Built-in cell types (no plugin; they win over plugin types of the same name):")
        lines.append(
            "  " + BuiltinCells.names.joined(separator: ", ")
                + "  fill text, detail, image and accessory from the row's data")
        lines.append("")
        let registrations = catalog.registrations  // worked out on each read
        lines.append(
            registrations.isEmpty
                ? "No plugin cell types registered." : "Cell types from plugins (\(registrations.count)):")
        for r in registrations {
            let plugin = plugins[r.pluginIndex]
            lines.append("  \(r.identifier)  \(plugin.descriptor.name) \(plugin.descriptor.version)  \(plugin.path)")
            lines += Output.hookLines(r.declaration, indent: "      ")
        }
        if !catalog.shadowed.isEmpty {
            lines += ["", "Shadowed (the first on the search path wins):"]
            lines += catalog.shadowed.map { "  \($0.identifier): \($0.shadowed)  is shadowed by  \($0.winner)" }
        }
        let broken = plugins.filter { !$0.isUsable }
        if !broken.isEmpty {
            lines += ["", "Broken plugins (not registered):"]
            for plugin in broken {
                lines.append("  \(plugin.path)  (\(plugin.descriptor.name) \(plugin.descriptor.version))")
                lines += plugin.problems.map { "      \($0)" }
            }
        }
        if !catalog.rejections.isEmpty {
            lines += ["", "Skipped:"]
            lines += catalog.rejections.map { "  \($0.path): \($0.reason)" }
        }
        let misses = plugins.filter { !$0.nearMisses.isEmpty }
        if !misses.isEmpty {
            lines += ["", "Near misses (symbols that look like hooks but are not; see `cellkit inspect FILE`):"]
            lines += misses.flatMap { p in p.nearMisses.map { "  \(p.path): \($0)" } }
        }
        return lines
    }
}

/// `cellkit list --json`.
struct ListReport: Encodable {
    struct CellType: Encodable {
        let identifier: CellIdentifier, plugin: String, version: String, file: String
        let hooks: [HookDeclaration]
    }
    struct Broken: Encodable { let file: String, plugin: String, problems: [String] }

    let searchPath: [SearchPath.Entry]
    let builtinCellTypes = BuiltinCells.names
    let cellTypes: [CellType]
    let shadowed: [Shadowing]
    let broken: [Broken]
    let skipped: [Rejection]
    let nearMisses: [String: [NearMiss]]

    init(_ catalog: Catalog) {
        searchPath = catalog.options.searchPath.entries
        let plugins = catalog.plugins
        cellTypes = catalog.registrations.map { r in
            let p = plugins[r.pluginIndex]
            return CellType(
                identifier: r.identifier, plugin: p.descriptor.name, version: p.descriptor.version, file: p.path,
                hooks: r.declaration.hooks)
        }
        shadowed = catalog.shadowed
        broken = plugins.filter { !$0.isUsable }.map {
            Broken(file: $0.path, plugin: $0.descriptor.name, problems: $0.problems)
        }
        skipped = catalog.rejections
        nearMisses = Dictionary(
            uniqueKeysWithValues: plugins.filter { !$0.nearMisses.isEmpty }.map { ($0.path, $0.nearMisses) })
    }
}
