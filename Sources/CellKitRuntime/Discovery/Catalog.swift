// Discovery: walk the search path, read every candidate file's symbols, and
// decide which plugin provides each identifier. No plugin code runs here.

import CellKitModel
import Foundation

// MARK: - Options

/// How discovery treats what it finds.
public struct DiscoveryOptions: Sendable {
    /// Where to look, in order; the first plugin to offer an identifier wins.
    public var searchPath: SearchPath
    /// Load plugins from files and folders that others can write (off by default).
    public var allowUnsafePermissions: Bool

    /// Keep what discovery reads from each plugin file in the registry cache and reuse it while
    /// the file is unchanged (same device, inode, size, modification and change times), so an
    /// unchanged file's symbol table is read once, not on every run. The trust checks still run
    /// every time. Off by default here, so that a program embedding CellKit writes nothing to
    /// the user's cache folder unless it asks to; the `cellkit` tool turns it on (`--no-cache`
    /// turns it off).
    public var useCache: Bool
    /// The registry cache's folder; nil: `$XDG_CACHE_HOME/cellkit` (default `~/.cache/cellkit`).
    /// Used only when `useCache` is true.
    public var cacheFolder: String?

    /// Options that read `searchPath` (by default the `cellkit` tool's order, which reads
    /// `CELLKIT_PLUGIN_PATH`), refuse unsafe permissions unless told otherwise, and use the
    /// registry cache in `cacheFolder` only if `useCache` is true.
    public init(
        searchPath: SearchPath = .standard(), allowUnsafePermissions: Bool = false, useCache: Bool = false,
        cacheFolder: String? = nil
    ) {
        self.searchPath = searchPath
        self.allowUnsafePermissions = allowUnsafePermissions
        self.useCache = useCache
        self.cacheFolder = cacheFolder
    }

    /// The registry cache's folder these options use: `cacheFolder`, else `$XDG_CACHE_HOME/cellkit`
    /// (default `~/.cache/cellkit`).
    public var resolvedCacheFolder: String { cacheFolder ?? RegistryCache.defaultFolder() }
}

// MARK: - Results

/// The plugin that provides an identifier.
public struct Registration: Sendable, Codable {
    /// The identifier provided.
    public let identifier: CellIdentifier
    /// Index into `Catalog.plugins`.
    public let pluginIndex: Int
    /// The cell type as that plugin declares it: its hooks and their signatures.
    public let declaration: CellTypeDeclaration
}

/// An identifier offered by two plugins: the first on the search path wins.
/// A plugin type named like a built-in (`Default`, `Subtitle`, `Value1`, `Value2`) loses to it.
public struct Shadowing: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The identifier both offer.
    public let identifier: CellIdentifier
    /// The path of the plugin that provides it, or "built-in".
    public let winner: String
    /// The path of the plugin whose type is not used.
    public let shadowed: String
    /// One sentence naming the identifier, the shadowed plugin and the winner (a plugin or the built-in).
    public var description: String {
        winner == "built-in"
            ? "\(identifier) in \(shadowed) is shadowed by the built-in cell type of that name"
            : "\(identifier) in \(shadowed) is shadowed by \(winner), which comes first on the search path"
    }
}

/// Everything discovery found, in search order.
public struct Catalog: Sendable {
    /// The options discovery ran with; loading uses their `allowUnsafePermissions` too.
    public let options: DiscoveryOptions
    /// Every CellKit plugin file found, usable or not.
    public let plugins: [PluginFile]
    /// Files that are not usable plugins at all, and folders that could not be read.
    public let rejections: [Rejection]
    /// The winning provider of each identifier, sorted by identifier.
    public let registrations: [Registration]
    /// Each type a usable plugin offers that a built-in or an earlier plugin provides instead,
    /// in search order.
    public let shadowed: [Shadowing]
    /// How many files this discovery actually read (the others came from the registry cache).
    package let filesRead: Int

    /// Discovers plugins on `options.searchPath`, through the registry cache if `options.useCache`.
    public init(options: DiscoveryOptions = DiscoveryOptions()) {
        self.options = options
        var plugins: [PluginFile] = [], rejections: [Rejection] = [], seen = Set<String>()
        var cache = options.useCache ? RegistryCache(folder: options.resolvedCacheFolder) : nil
        var filesRead = 0
        for entry in options.searchPath.entries {
            for candidate in Self.candidates(
                in: entry, rejections: &rejections, allowUnsafe: options.allowUnsafePermissions)
            {
                let real = (candidate as NSString).resolvingSymlinksInPath
                guard seen.insert(real).inserted else { continue }  // one file reached twice is not a conflict
                if !options.allowUnsafePermissions, let problem = FileTrust.problem(forPlugin: candidate) {
                    let reason = problem.path == candidate ? problem.reason : "\(problem.path): \(problem.reason)"
                    rejections.append(Rejection(path: candidate, reason: reason))
                    continue
                }
                let outcome: Result<PluginFile, Rejection>
                // Keyed before reading: a change made while the file is read misses next time.
                let key = cache == nil ? nil : RegistryCache.FileKey(path: candidate)
                if let key, let cached = cache?.lookup(candidate, key: key) {
                    outcome = cached
                } else {
                    let examined = PluginFile.examine(path: candidate)
                    filesRead += 1
                    outcome = examined.outcome
                    if let key, examined.fromContents {
                        cache?.store(candidate, key: key, outcome)
                    } else {
                        cache?.forget(candidate)
                    }
                }
                switch outcome {
                case .success(let plugin): plugins.append(plugin)
                case .failure(let rejection): rejections.append(rejection)
                }
            }
        }
        cache?.prune()
        cache?.save()
        self.filesRead = filesRead
        self.plugins = plugins
        self.rejections = rejections
        (registrations, shadowed) = Self.register(plugins)
    }

    /// The registration for `identifier`, if a usable plugin provides it.
    public func registration(for identifier: CellIdentifier) -> Registration? {
        registrations.first { $0.identifier == identifier }
    }

    /// The registered identifier closest to `name`, for "did you mean" messages.
    package func nearest(to name: String, including extra: [String] = []) -> CellIdentifier? {
        let candidates = registrations.map(\.identifier) + extra.compactMap { try? CellIdentifier($0) }
        let scored = candidates.map { ($0, editDistance(name.lowercased(), $0.name.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, name.count / 3) else { return nil }
        return best.0
    }

    // MARK: Why an identifier is missing

    /// The most refused or skipped files an unknown identifier's reasons list; `cellkit list` shows all.
    static let maxRejectionsListed = 5

    /// What discovery knows about `identifier` when no usable plugin provides it, one sentence
    /// each: every plugin that offers it but cannot be used, with `cellkit list`'s reasons (a newer
    /// ABI, a bad signature, a file that became unsafe); every near miss in any plugin that
    /// concerns it (`initcellForFoo`, a hidden `customizeCellForFoo`, see `NearMiss.concerns(_:)`);
    /// then the files and folders on the search path that were refused (permissions) or skipped
    /// (no descriptor, not readable as ELF), whose cell types are unknown. Ordinary shared
    /// libraries that are no plugin are left out. Empty when discovery saw nothing of it.
    /// Texts quote plugin files: print them through `TextSanitizer.visible`.
    public func unavailabilityReasons(for identifier: CellIdentifier) -> [String] {
        var reasons: [String] = []
        for plugin in plugins
        where !plugin.isUsable && plugin.cellTypes.contains(where: { $0.identifier == identifier }) {
            reasons.append(
                "\(plugin.path) offers '\(identifier)' but cannot be used: \(plugin.problems.joined(separator: "; "))")
        }
        for plugin in plugins {
            for miss in plugin.nearMisses where miss.concerns(identifier) {
                reasons.append("\(plugin.path) has a near miss: \(miss)")
            }
        }
        let unread = rejections.filter { $0.reason != PluginFile.notAPluginReason }
        if !unread.isEmpty {
            let listed = unread.prefix(Self.maxRejectionsListed).map(\.description).joined(separator: "; ")
            let more = unread.count - Self.maxRejectionsListed
            reasons.append(
                "Refused or skipped on the search path, so the cell types they offer are unknown: \(listed)"
                    + (more > 0 ? "; and \(more) more (`cellkit list` shows them all)" : ""))
        }
        return reasons
    }

    /// The error for a name no usable plugin provides: the reasons above (for a valid identifier),
    /// the nearest known identifier among the registered ones and `extra`, and the folders searched.
    package func unknownIdentifierError(_ name: String, including extra: [String] = []) -> CellKitError {
        .unknownIdentifier(
            name: name, nearest: nearest(to: name, including: extra), searched: options.searchPath.describedPaths,
            reasons: (try? CellIdentifier(name)).map(unavailabilityReasons) ?? [])
    }

    // MARK: Walking the path

    /// The library files of one search-path entry, sorted by name; unreadable folders become rejections.
    static func candidates(in entry: SearchPath.Entry, rejections: inout [Rejection], allowUnsafe: Bool) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: entry.path, isDirectory: &isDirectory) else {
            if entry.isExplicit {
                rejections.append(
                    Rejection(path: entry.path, reason: "no such folder (given by \(entry.origin.rawValue))"))
            }
            return []
        }
        guard isDirectory.boolValue else { return [entry.path] }  // a single library named on the path
        if !allowUnsafe, let problem = FileTrust.problem(forFolder: entry.path) {
            let reason = problem.path == entry.path ? problem.reason : "\(problem.path): \(problem.reason)"
            rejections.append(Rejection(path: entry.path, reason: reason))
            return []
        }
        do {
            let names = try FileManager.default.contentsOfDirectory(atPath: entry.path)
            return names.filter(isLibraryName).sorted().map { entry.path + "/" + $0 }
        } catch {
            rejections.append(
                Rejection(path: entry.path, reason: "cannot list the folder: \(error.localizedDescription)"))
            return []
        }
    }

    /// `libFoo.so` or `libFoo.so.1.2`.
    static func isLibraryName(_ name: String) -> Bool {
        name.hasSuffix(".so") || name.contains(".so.")
    }

    // MARK: Precedence

    /// First usable plugin on the path wins each identifier; later ones are recorded as shadowed.
    static func register(_ plugins: [PluginFile]) -> ([Registration], [Shadowing]) {
        var winners: [CellIdentifier: Registration] = [:], shadowed: [Shadowing] = []
        for (index, plugin) in plugins.enumerated() where plugin.isUsable {
            for type in plugin.cellTypes {
                if BuiltinCells.isBuiltin(type.identifier.name) {
                    shadowed.append(Shadowing(identifier: type.identifier, winner: "built-in", shadowed: plugin.path))
                } else if let winner = winners[type.identifier] {
                    shadowed.append(
                        Shadowing(
                            identifier: type.identifier, winner: plugins[winner.pluginIndex].path, shadowed: plugin.path
                        ))
                } else {
                    winners[type.identifier] = Registration(
                        identifier: type.identifier, pluginIndex: index, declaration: type)
                }
            }
        }
        return (winners.values.sorted { $0.identifier < $1.identifier }, shadowed)
    }
}
