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
        try ListArguments(
            pluginPaths: discovery.pluginPaths, allowUnsafePermissions: discovery.allowUnsafePermissions,
            noCache: discovery.noCache, verbose: discovery.verbose, json: json
        ).run()
    }

    /// What `cellkit list` prints, each line terminal-safe and ended by a newline: written as bytes
    /// into one buffer (`TextLines`), as there is a line per cell type and per hook, 7,000 with
    /// 1,000 plugins installed, and strings made, interpolated, sanitized and joined line by line
    /// were a large part of the command (BENCHMARKS.md, "Measurements behind the code": ListCommand.text).
    static func text(_ catalog: Catalog) -> [UInt8] {
        let plugins = catalog.plugins  // decoded once: the property builds the array each time
        var out = TextLines()
        out.line("Search path (first wins):")
        let searchPath = catalog.options.searchPath
        for (i, (entry, path)) in zip(searchPath.entries, searchPath.describedPaths).enumerated() {
            out.line("  \(i + 1). \(path)  (\(entry.origin.rawValue))")  // a missing folder is marked
        }
        out.line("")
        out.line("Built-in cell types (no plugin; they win over plugin types of the same name):")
        out.line(
            "  " + BuiltinCells.names.joined(separator: ", ")
                + "  fill text, detail, image and accessory from the row's data")
        out.line("")
        let registrations = catalog.registrations  // worked out on each read
        out.line(
            registrations.isEmpty
                ? "No plugin cell types registered." : "Cell types from plugins (\(registrations.count)):")
        for r in registrations {
            let plugin = plugins[r.pluginIndex]
            for part in ["  ", r.identifier.name, "  ", plugin.descriptor.name, " ", plugin.descriptor.version, "  "] {
                out.append(part)
            }
            out.append(plugin.path)
            out.endLine()
            Output.appendHookLines(r.declaration, indent: "      ", to: &out)
        }
        if !catalog.shadowed.isEmpty {
            out.lines(["", "Shadowed (the first on the search path wins):"])
            out.lines(catalog.shadowed.map { "  \($0.identifier): \($0.shadowed)  is shadowed by  \($0.winner)" })
        }
        let broken = plugins.filter { !$0.isUsable }
        if !broken.isEmpty {
            out.lines(["", "Broken plugins (not registered):"])
            for plugin in broken {
                out.line("  \(plugin.path)  (\(plugin.descriptor.name) \(plugin.descriptor.version))")
                out.lines(plugin.problems.map { "      \($0)" })
            }
        }
        if !catalog.rejections.isEmpty {
            out.lines(["", "Skipped:"])
            out.lines(catalog.rejections.map { "  \($0.path): \($0.reason)" })
        }
        let misses = plugins.filter { !$0.nearMisses.isEmpty }
        if !misses.isEmpty {
            out.lines(["", "Near misses (symbols that look like hooks but are not; see `cellkit inspect FILE`):"])
            out.lines(misses.flatMap { p in p.nearMisses.map { "  \(p.path): \($0)" } })
        }
        return out.bytes
    }
}

/// `cellkit list`'s settings; `read` takes the usual argument lists without ArgumentParser,
/// whose first parse in a process builds its model of the commands by reflection (most of
/// `cellkit list` with the bundled plugins: BENCHMARKS.md, "Measurements behind the code":
/// ListCommand.arguments). A list made only of `list` and its flags, `--plugin-path` with a value,
/// is read here; anything else (help, a misspelling, a repeated flag, `--`, a value that starts
/// with "-") goes to ArgumentParser.
/// ListArgumentsTests holds the two to the same settings on random argument lists.
struct ListArguments: Equatable {
    var pluginPaths: [String] = []
    var allowUnsafePermissions = false, noCache = false, verbose = false, json = false

    /// The settings of `arguments` (after the program's name), or nil when ArgumentParser must read them.
    static func read(_ arguments: [String]) -> ListArguments? {
        guard arguments.first == "list" else { return nil }
        var settings = ListArguments(), seen: Set<String> = [], next = 1
        while next < arguments.count {
            let argument = arguments[next]
            next += 1
            if argument.hasPrefix("--plugin-path=") {
                let value = argument.dropFirst("--plugin-path=".count)
                guard !value.isEmpty else { return nil }
                settings.pluginPaths.append(String(value))
                continue
            }
            if argument == "--plugin-path" {
                guard next < arguments.count, !arguments[next].hasPrefix("-") else { return nil }
                settings.pluginPaths.append(arguments[next])
                next += 1
                continue
            }
            guard seen.insert(argument == "-v" ? "--verbose" : argument).inserted else { return nil }
            switch argument {
            case "--json": settings.json = true
            case "--allow-unsafe-permissions": settings.allowUnsafePermissions = true
            case "--no-cache": settings.noCache = true
            case "--verbose", "-v": settings.verbose = true
            default: return nil
            }
        }
        return settings
    }

    /// Lists what discovery finds, as text or JSON.
    func run() throws {
        let options = DiscoveryFlags.options(
            pluginPaths: pluginPaths, allowUnsafePermissions: allowUnsafePermissions, noCache: noCache)
        DiscoveryFlags.warnAboutRefusedPaths(options)
        if verbose { DiscoveryFlags.explain(options) }
        // Near misses are diagnosed for list (and inspect) only; the registry cache keeps them.
        let catalog = Catalog(options: options, diagnosingNearMisses: true, digestingInputs: true)
        // Kept whole beside the registry cache while no plugin file changed: decoding every record
        // and writing the lines cost far more (BENCHMARKS.md, "Measurements behind the code": DerivedOutput).
        Output.write(
            try catalog.derivedOutput(json ? "list.json" : "list.txt", isIntact: Output.isTerminalSafe) {
                json ? try Output.jsonBytes(ListReport(catalog)) : ListCommand.text(catalog)
            })
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
