// The options every command that discovers plugins shares.

import ArgumentParser
import CellKit

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
            "Read every plugin file again instead of using the registry cache ($XDG_CACHE_HOME/cellkit), and leave the cache as it is."
        ))
    var noCache = false

    var options: DiscoveryOptions {
        Self.options(pluginPaths: pluginPaths, allowUnsafePermissions: allowUnsafePermissions, noCache: noCache)
    }

    /// The discovery options these flags' values give.
    static func options(pluginPaths: [String], allowUnsafePermissions: Bool, noCache: Bool) -> DiscoveryOptions {
        DiscoveryOptions(
            searchPath: .standard(options: pluginPaths), allowUnsafePermissions: allowUnsafePermissions,
            useCache: !noCache)
    }
}
