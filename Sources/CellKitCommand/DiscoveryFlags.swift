// The options every command that discovers plugins shares.

import ArgumentParser
import CellKit
import CellKitRuntime
import Foundation

struct DiscoveryFlags: ParsableArguments {
    @Option(
        name: .customLong("plugin-path"),
        help: ArgumentHelp(
            "A folder (or one .so file) to search before the others; repeat for more.", valueName: "dir"),
        completion: .directory)
    var pluginPaths: [String] = []

    @Flag(help: "Load plugins from files and folders that others can write. Only for folders you trust.")
    var allowUnsafePermissions = false

    @Flag(
        help: ArgumentHelp(
            "Read every plugin file again instead of using the registry cache ($XDG_CACHE_HOME/cellkit, default ~/.cache/cellkit: what was read from each plugin, and list's output), and rewrite the cache, if there is one, from what was read."
        ))
    var noCache = false

    @Flag(
        name: [.short, .long],
        help:
            "Say on standard error where plugins are searched for, where each was found, and why each file was skipped."
    )
    var verbose = false

    var options: DiscoveryOptions {
        Self.options(pluginPaths: pluginPaths, allowUnsafePermissions: allowUnsafePermissions, noCache: noCache)
    }

    /// With `verbose`, prints on standard error the search path, each plugin found (with its cell
    /// types) and each file skipped with the reason: discovery as the command's workers will see it.
    static func explain(_ options: DiscoveryOptions) {
        let catalog = Catalog(options: options)
        var lines: [String] = []
        let searchPath = catalog.options.searchPath
        for (i, (entry, path)) in zip(searchPath.entries, searchPath.describedPaths).enumerated() {
            lines.append("cellkit: search path \(i + 1): \(path) (\(entry.origin.rawValue))")
        }
        let plugins = catalog.plugins
        var types: [Int: [String]] = [:]
        for r in catalog.registrations { types[r.pluginIndex, default: []].append(r.identifier.name) }
        for (i, plugin) in plugins.enumerated() {
            let offered = types[i].map { $0.joined(separator: ", ") } ?? "no cell type it wins"
            lines.append("cellkit: found \(plugin.path): \(offered)")
        }
        lines += catalog.rejections.map { "cellkit: skipped \($0.path): \($0.reason)" }
        FileHandle.standardError.write(Data((lines.map(\.terminalSafe).joined(separator: "\n") + "\n").utf8))
    }

    /// Warns on standard error about each `--plugin-path` (or `CELLKIT_PLUGIN_PATH`) folder or file
    /// that the permission check refuses, naming it and the `chmod` that fixes it: on every run,
    /// whether or not a plugin of the same name is found elsewhere. Returns how many warnings.
    @discardableResult
    static func warnAboutRefusedPaths(_ options: DiscoveryOptions) -> Int {
        let origins = Dictionary(options.searchPath.entries.map { ($0.path, $0.origin.rawValue) }) { first, _ in first }
        return Output.printWarnings(
            options.refusedNamedEntries.map { refused in
                "\(origins[refused.path] ?? "--plugin-path") \(refused.path) is refused, so no plugin is loaded from it: "
                    + refused.reason
            })
    }

    /// The discovery options these flags' values give: the tool opts in to the environment
    /// (`CELLKIT_PLUGIN_PATH`, the user's data folder), which an embedder's options do not read.
    static func options(pluginPaths: [String], allowUnsafePermissions: Bool, noCache: Bool) -> DiscoveryOptions {
        var options = DiscoveryOptions.fromEnvironment(
            pluginPaths: pluginPaths, allowUnsafePermissions: allowUnsafePermissions, useCache: !noCache)
        options.rebuildCache = noCache
        return options
    }
}
