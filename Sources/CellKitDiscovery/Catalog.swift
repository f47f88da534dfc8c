// Discovery: walk the search path, read every candidate file's symbols, and
// decide which plugin provides each identifier. No plugin code runs here.

import CellKitModel
import Foundation
import Synchronization

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
    /// Used only when `useCache` or `rebuildCache` is true.
    public var cacheFolder: String?
    /// With `useCache` off: read no entry of the registry cache, but if a cache file is in
    /// `cacheFolder`, write it anew from what this discovery read (its other entries go), so
    /// that a damaged or doubtful cache is replaced; where there is none, none is made. Off by
    /// default; the `cellkit` tool's `--no-cache` turns it on.
    package var rebuildCache = false
    /// Read a large folder's `lstat`s on a helper thread as well (`StatAhead`); off only to
    /// measure what it saves (`cellkit-bench list`).
    package var statsAhead = true

    /// Options that read `searchPath`, refuse unsafe permissions unless told otherwise, and use
    /// the registry cache in `cacheFolder` only if `useCache` is true.
    ///
    /// The default search path is empty: `DiscoveryOptions()` finds only the built-in cell types
    /// and reads no environment variable, so that nobody can put a plugin into a program that
    /// embeds CellKit through the environment unless the program asks for it, as SQLite keeps
    /// extension loading off until asked. Give the folders in `searchPath`
    /// (`SearchPath.custom(_:includingExecutableFolder:includingUserDataFolder:)`), or opt in to
    /// the `cellkit` tool's order, environment included, with `fromEnvironment(pluginPaths:)`.
    public init(
        searchPath: SearchPath = SearchPath(entries: []), allowUnsafePermissions: Bool = false,
        useCache: Bool = false, cacheFolder: String? = nil
    ) {
        self.searchPath = searchPath
        self.allowUnsafePermissions = allowUnsafePermissions
        self.useCache = useCache
        self.cacheFolder = cacheFolder
    }

    /// The `cellkit` tool's discovery, which reads the environment: `pluginPaths` (its
    /// `--plugin-path` values), then `CELLKIT_PLUGIN_PATH` (colon-separated), then the running
    /// executable's folder, then `$XDG_DATA_HOME/cellkit/plugins` (`SearchPath.standard`).
    /// Anyone who can set the program's environment can then load code into it: opt in only
    /// where that is meant, as in a command-line tool run by its user. The variables are read
    /// from `environment` (default: this process's, `SearchPath.environment()`).
    public static func fromEnvironment(
        pluginPaths: [String] = [], allowUnsafePermissions: Bool = false, useCache: Bool = false,
        cacheFolder: String? = nil, environment: [String: String] = SearchPath.environment()
    ) -> DiscoveryOptions {
        DiscoveryOptions(
            searchPath: .standard(options: pluginPaths, environment: environment),
            allowUnsafePermissions: allowUnsafePermissions, useCache: useCache, cacheFolder: cacheFolder)
    }

    /// The registry cache's folder these options use: `cacheFolder`, else `$XDG_CACHE_HOME/cellkit`
    /// (default `~/.cache/cellkit`).
    package var resolvedCacheFolder: String { cacheFolder ?? RegistryCache.defaultFolder() }
}

extension DiscoveryOptions {
    /// Each search-path entry the user named (`--plugin-path`, a part of `CELLKIT_PLUGIN_PATH`),
    /// folder or file, that the permission check refuses as a whole, with the reason and its fix
    /// (the `chmod`): none with `allowUnsafePermissions`. Discovery records these among its
    /// rejections too, but they matter even when another folder provides the same plugin (an older
    /// copy then draws in silence), so the `cellkit` tool warns about each on every run. Worked out
    /// by the same check discovery makes (`FileTrust`), a few `lstat`s an entry, no cache.
    package var refusedNamedEntries: [Rejection] {
        guard !allowUnsafePermissions else { return [] }
        return searchPath.entries.compactMap { entry in
            guard entry.origin == .option || entry.origin == .environment else { return nil }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: entry.path, isDirectory: &isFolder) else { return nil }
            let problem =
                isFolder.boolValue ? FileTrust.problem(forFolder: entry.path) : FileTrust.problem(forPlugin: entry.path)
            guard let problem else { return nil }
            let reason = problem.path == entry.path ? problem.reason : "\(problem.path): \(problem.reason)"
            return Rejection(path: entry.path, reason: reason)
        }
    }
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
///
/// Discovery walks the search path, checks every file's trust and learns each plugin's
/// identifiers (from the registry cache when the file is unchanged), and no more: a plugin's
/// record (its hooks and signatures) is decoded when something asks for it, and its near misses
/// are diagnosed only when asked (`cellkit list`, `inspect`, an identifier no plugin provides,
/// the renderer's warning about a type it resolves), so a render with 1,000 plugins installed
/// decodes only the plugins its document uses.
public struct Catalog: Sendable {
    /// The options discovery ran with; loading uses their `allowUnsafePermissions` too.
    public let options: DiscoveryOptions
    /// Files that are not usable plugins at all, and folders that could not be read.
    public let rejections: [Rejection]
    /// How many files this discovery actually read (the others came from the registry cache).
    package let filesRead: Int
    /// The folders this discovery listed (the others' listings came from the registry cache).
    package let listedFolders: [String]
    /// The plugin files found, in search order: what `plugins` decodes.
    private let found: [Found]
    /// The paths of `found`, end to end: a path is made a string only when its plugin is decoded
    /// (a string and its reference counting a plugin cost more than the rest of a warm lookup).
    private let pathBytes: [UInt8]
    /// The identifiers of `found`, each plugin's space-separated, end to end, then a NUL.
    private let identifierBytes: [UInt8]
    private let storage: Storage
    /// What this catalog's answers depend on, digested (`derivedOutput`).
    package let inputs: InputDigest

    /// A plugin file as discovery found it: enough to decide who provides an identifier.
    struct Found: @unchecked Sendable {  // a record is read and written under `storage`'s lock only
        /// Where its path is in `pathBytes`.
        let path: Range<Int32>
        let usable: Bool
        /// Where its identifiers (space-separated) are in `identifierBytes`.
        let identifiers: Range<Int32>
        /// Where its record is: an entry of the cache file (decoded when asked for), or at hand.
        let record: RegistryCache.Source
    }

    /// What is worked out on demand, under a lock: a `Catalog` is shared by a registry's threads.
    private final class Storage: Sendable {
        struct State {
            var cache: RegistryCache?
            /// The plugins decoded so far, by index in `found`.
            var plugins: [Int: PluginFile] = [:]
            var all: ([Registration], [Shadowing])?
            var diagnoses = 0
            /// Whether every plugin's near misses are to be known before `plugins` answers, and
            /// some may not be yet (`init(options:diagnosingNearMisses:)`).
            var diagnosingAll = false
        }
        let state: Mutex<State>
        init(_ state: sending State) { self.state = Mutex(state) }
    }

    /// Every CellKit plugin file found, usable or not, in search order (decoded on first use).
    public var plugins: [PluginFile] {
        storage.state.withLock { state in
            state.cache?.readRecords()
            if state.diagnosingAll {
                _ = diagnose(Array(found.indices), &state)
                state.diagnosingAll = false
            }
            return found.indices.map { plugin(at: $0, &state) }
        }
    }

    /// The winning provider of each identifier, sorted by identifier.
    public var registrations: [Registration] { everything().0 }

    /// Each type a usable plugin offers that a built-in or an earlier plugin provides instead,
    /// in search order.
    public var shadowed: [Shadowing] { everything().1 }

    /// How many plugin files this catalog diagnosed for near misses (the others came from the
    /// registry cache, or were not asked for).
    package var nearMissDiagnoses: Int { storage.state.withLock { $0.diagnoses } }

    /// Discovers plugins on `options.searchPath`, through the registry cache if `options.useCache`.
    /// Near misses are left for when something asks (`nearMisses(ofPlugin:)`). The default options
    /// have an empty search path and read no environment: only the built-in types.
    public init(options: DiscoveryOptions = DiscoveryOptions()) {
        self.init(options: options, diagnosingNearMisses: false)
    }

    /// Discovers plugins; with `diagnosingNearMisses`, every plugin's near misses too (from the
    /// registry cache if it has them, else from the file, and stored in the cache), as `cellkit
    /// list` shows them: a file read now is diagnosed as it is read, the others when `plugins`
    /// is first asked for (a list given back whole by `derivedOutput` decodes no record). With
    /// `digestingInputs`, what its answers depend on is digested as it walks, for `derivedOutput`
    /// (a cost for every plugin, left out of a render's discovery, which keeps nothing: BENCHMARKS.md,
    /// "Measurements behind the code": Catalog.digest).
    package init(options: DiscoveryOptions, diagnosingNearMisses: Bool, digestingInputs: Bool = false) {
        self.options = options
        var walk = Walk(options: options, diagnosing: diagnosingNearMisses)
        if !digestingInputs { walk.inputs.spoil() }
        for entry in options.searchPath.entries { walk.visit(entry) }
        walk.cache?.prune()
        walk.cache?.save()
        (filesRead, found, rejections) = (walk.filesRead, walk.found, walk.rejections)
        for rejection in rejections { walk.inputs.add(rejection.path + "\u{0}" + rejection.reason) }
        for (entry, described) in zip(options.searchPath.entries, options.searchPath.describedPaths) {
            walk.inputs.add(entry.origin.rawValue + "\u{0}" + described)
        }
        inputs = walk.inputs
        listedFolders = walk.listedFolders
        walk.identifierBytes.append(0)  // for strstr; identifiers hold no NUL
        (pathBytes, identifierBytes) = (walk.pathBytes, walk.identifierBytes)
        storage = Storage(
            Storage.State(cache: walk.cache, diagnoses: walk.diagnoses, diagnosingAll: diagnosingNearMisses))
    }

    /// With `options.rebuildCache` and a registry cache file in its folder: discovers once, which
    /// rewrites the cache from what was read. For a command whose discovery runs in a worker
    /// (an isolated render or browse), whose options carry no `rebuildCache`; otherwise nothing.
    package static func rebuildCache(_ options: DiscoveryOptions) {
        guard options.rebuildCache, !options.useCache,
            FileManager.default.fileExists(atPath: options.resolvedCacheFolder + "/" + RegistryCache.fileName)
        else { return }
        _ = Catalog(options: options)
    }

    /// The path of `f`.
    private func path(of f: Found) -> String {
        pathBytes.withUnsafeBufferPointer {
            String(decoding: $0[Int(f.path.lowerBound)..<Int(f.path.upperBound)], as: UTF8.self)
        }
    }

    /// The plugin at `index` of `plugins`, decoding only that one.
    package func plugin(at index: Int) -> PluginFile {
        storage.state.withLock { plugin(at: index, &$0) }
    }

    private func plugin(at index: Int, _ state: inout Storage.State) -> PluginFile {
        if let plugin = state.plugins[index] { return plugin }
        let f = found[index], path = path(of: f)
        if let cached = RegistryCache.record(f.record, in: state.cache, path: path)?.decoded(path: path) {
            state.plugins[index] = cached
            return cached
        }
        // A cache record that does not decode or whose checksum does not match: read the file,
        // and store what it gives, so that the record is rebuilt.
        let examined = PluginFile.examine(path: path, diagnosing: false)
        if examined.fromContents, state.cache != nil, let key = RegistryCache.FileKey(path: path) {
            state.cache!.store(path, key: key, examined.outcome)
            state.cache!.save()
        }
        let plugin =
            ((try? examined.outcome.get())
                ?? PluginFile(
                    path: path,
                    descriptor: PluginDescriptor(name: "?", version: "", summary: "", abiMajor: 0, abiMinor: 0),
                    cellTypes: [],
                    problems: ["its registry cache entry is unreadable and the file no longer reads as a plugin"],
                    knownNearMisses: nil))
        state.plugins[index] = plugin
        return plugin
    }

    /// The near misses of the plugin at `index` of `plugins`: from the registry cache or an earlier
    /// call if known, else diagnosed now from the file (and stored in the cache).
    package func nearMisses(ofPlugin index: Int) -> [NearMiss] {
        diagnose([index])[0]
    }

    /// The near misses of the plugins at `indices`, diagnosing those not known yet; the cache is
    /// written once.
    private func diagnose(_ indices: [Int]) -> [[NearMiss]] {
        storage.state.withLock { diagnose(indices, &$0) }
    }

    private func diagnose(_ indices: [Int], _ state: inout Storage.State) -> [[NearMiss]] {
        var stored = false
        let result = indices.map { index -> [NearMiss] in
            var plugin = plugin(at: index, &state)
            if let known = plugin.knownNearMisses { return known }
            let misses = NearMiss.diagnose(path: plugin.path)
            state.diagnoses += 1
            plugin.knownNearMisses = misses
            state.plugins[index] = plugin
            // Stored only if the cache's entry is of the file as it is now (a `stat`: a plugin's
            // key is not kept for this rare case, which cost memory for every plugin and page faults:
            // BENCHMARKS.md, "Measurements behind the code": Catalog.nearMissKey).
            if state.cache != nil, let key = RegistryCache.FileKey(path: plugin.path) {
                state.cache!.store(nearMissesOf: plugin, key: key)
                stored = true
            }
            return misses
        }
        if stored { state.cache?.save() }
        return result
    }

    /// Registrations and shadowings of every identifier (decoding every usable plugin).
    private func everything() -> ([Registration], [Shadowing]) {
        storage.state.withLock { state in
            if let all = state.all { return all }
            state.cache?.readRecords()
            let plugins = found.indices.map { plugin(at: $0, &state) }
            let all = Self.register(plugins)
            state.all = all
            return all
        }
    }

    /// The registration for `identifier`, if a usable plugin provides it.
    /// Only the plugins that offer it are decoded: the first usable one on the path wins.
    package func registration(for identifier: CellIdentifier) -> Registration? {
        guard !BuiltinCells.isBuiltin(identifier.name) else { return nil }
        for index in offering(identifier.name) where found[index].usable {
            guard let declaration = plugin(at: index).cellTypes.first(where: { $0.identifier == identifier }) else {
                continue
            }
            return Registration(identifier: identifier, pluginIndex: index, declaration: declaration)
        }
        return nil
    }

    /// The indices of the plugins whose identifiers include `name`, in search order: one search
    /// through all the identifiers, not a string of them a plugin.
    private func offering(_ name: String) -> [Int] {
        var result: [Int] = []
        name.withCString { cName in
            let count = strlen(cName)
            identifierBytes.withUnsafeBufferPointer { terminated in
                // Without the NUL that ends the buffer (for strstr).
                let all = UnsafeBufferPointer(rebasing: terminated.dropLast())
                guard count > 0, count == name.utf8.count, let base = all.baseAddress else { return }
                var from = 0, index = 0
                // Each place the name is, found by strstr (the C library's, vectorized): a search for
                // its first byte alone met, for `Bar`, every `GenB…` of many plugins, a cost for each
                // plugin each time a type is resolved (BENCHMARKS.md, "Measurements behind the code":
                // Catalog.strstr).
                while from <= all.count - count {
                    guard let hit = strstr(base + from, cName) else {
                        // Past a NUL inside, which only a damaged cache could put there; else done.
                        guard let nul = memchr(base + from, 0, all.count - from) else { break }
                        from = UnsafeRawPointer(nul).assumingMemoryBound(to: UInt8.self) - base + 1
                        continue
                    }
                    let at = UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self) - base
                    from = at + 1
                    // The plugin whose identifiers hold `at` (found is in the order of identifierBytes).
                    while index < found.count, found[index].identifiers.upperBound <= at { index += 1 }
                    guard index < found.count else { break }
                    let range = found[index].identifiers, end = at + count
                    if at >= range.lowerBound, end <= range.upperBound,
                        at == range.lowerBound || all[at - 1] == UInt8(ascii: " "),
                        end == range.upperBound || all[end] == UInt8(ascii: " "), result.last != index
                    {
                        result.append(index)
                    }
                }
            }
        }
        return result
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
        let plugins = self.plugins
        for plugin in plugins
        where !plugin.isUsable && plugin.cellTypes.contains(where: { $0.identifier == identifier }) {
            reasons.append(
                "\(plugin.path) offers '\(identifier)' but cannot be used: \(plugin.problems.joined(separator: "; "))")
        }
        // Asked for now, once: a render that resolves every identifier never diagnoses near misses.
        for (plugin, misses) in zip(plugins, diagnose(Array(plugins.indices))) {
            for miss in misses where miss.concerns(identifier) {
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

    // MARK: Precedence

    /// First usable plugin on the path wins each identifier; later ones are recorded as shadowed.
    static func register(_ plugins: [PluginFile]) -> ([Registration], [Shadowing]) {
        var winners: [CellIdentifier: Registration] = [:], shadowed: [Shadowing] = []
        winners.reserveCapacity(plugins.reduce(0) { $0 + $1.cellTypes.count })  // grown once
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

// MARK: - One walk of the search path

extension Catalog {
    /// What one discovery gathers as it walks the search path, and how it treats each file.
    private struct Walk {
        let allowUnsafe: Bool, diagnosing: Bool, statsAhead: Bool
        var cache: RegistryCache?
        let trust = FileTrust.Memo()
        var found: [Found] = [], rejections: [Rejection] = []
        var pathBytes: [UInt8] = [], identifierBytes: [UInt8] = []
        /// The files met, by device and inode, and the files met that could not be keyed, by real path.
        var seenFiles = FileIDSet(), seen = Set<String>()
        var filesRead = 0, diagnoses = 0
        var listedFolders: [String] = []
        /// Each plugin file's path and key, in search order, as discovery meets them.
        var inputs = InputDigest()
        /// The last file's `lstat`, filled in place: a new zeroed one a file cost a `memset`.
        var link = stat()

        init(options: DiscoveryOptions, diagnosing: Bool) {
            (allowUnsafe, self.diagnosing, statsAhead) = (
                options.allowUnsafePermissions, diagnosing, options.statsAhead
            )
            cache =
                options.useCache
                ? RegistryCache(folder: options.resolvedCacheFolder)
                : options.rebuildCache ? RegistryCache(rebuilding: options.resolvedCacheFolder) : nil
        }

        /// Examines every library file of `entry`.
        mutating func visit(_ entry: SearchPath.Entry) {
            // Files are examined relative to their folder: a path walk of one name, not of every folder above.
            let folder = open(entry.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            defer { if folder >= 0 { close(folder) } }
            let listing = Catalog.candidates(
                in: entry, folder: folder, rejections: &rejections, allowUnsafe: allowUnsafe, cache: &cache)
            if listing.listed { listedFolders.append(entry.path) }
            // With room for a few more: the folders after a large one are often small, and growing
            // the array copies every plugin found so far (BENCHMARKS.md, "Measurements behind the
            // code": Catalog.found).
            if found.capacity < found.count + listing.paths.count {
                found.reserveCapacity(found.count + listing.paths.count + 32)
            }
            seenFiles.reserve(seenFiles.count + listing.paths.count)
            // Room for three identifiers of seven characters a plugin (a guess), and some: fewer copies
            // as the buffer grows (24 bytes a plugin grew it six times for 1,000 generated plugins).
            identifierBytes.reserveCapacity(identifierBytes.count + 32 * listing.paths.count)
            // The catalog keeps the listing's bytes (shared, not copied, if they are the first): a
            // plugin's path is where the listing has it.
            let base = pathBytes.count
            if pathBytes.isEmpty { pathBytes = listing.bytes } else { pathBytes += listing.bytes }
            listing.bytes.withUnsafeBufferPointer { bytes in
                // Every file of the listing is in the same folder.
                let beside = listing.paths.first.flatMap {
                    allowUnsafe ? nil : trust.answer(forPluginsBeside: UnsafeBufferPointer(rebasing: bytes[$0]))
                }
                let names = listing.paths.map {
                    let name = folder >= 0 ? $0.lowerBound + listing.nameOffset : $0.lowerBound
                    return UnsafeRawPointer(bytes.baseAddress! + name).assumingMemoryBound(to: CChar.self)
                }
                let ahead = statsAhead ? StatAhead(folder: folder, names: names) : nil
                for (index, range) in listing.paths.enumerated() {
                    let linked =
                        if let ahead { ahead.lstat(index, into: &link) } else if folder >= 0 {
                            fstatat(folder, names[index], &link, AT_SYMLINK_NOFOLLOW) == 0
                        } else { lstat(names[index], &link) == 0 }
                    visit(
                        UnsafeBufferPointer(rebasing: bytes[range]), at: base + range.lowerBound, linked: linked,
                        beside: beside, plain: listing.plain)
                }
                ahead?.finish()  // before the names' bytes go
            }
        }

        /// Examines the file at `path` (its bytes, followed by a NUL; at `offset` in `pathBytes`),
        /// whose `lstat` is `link` if `linked`: keys it, checks its trust, then looks it up in the
        /// cache or reads it. `beside`: the trust checks' answer for any regular file in its folder
        /// that passes its own check, if known.
        private mutating func visit(
            _ path: UnsafeBufferPointer<UInt8>, at offset: Int, linked: Bool,
            beside: (path: String, reason: String)??, plain: Bool
        ) {
            /// The path as a string, made only when needed: a refusal, a file read, a cache miss.
            func string() -> String { String(decoding: path, as: UTF8.self) }
            // Keyed before reading: a change made while the file is read misses next time.
            // One lstat serves the key, the dedup and the file's own trust check, unless it is a symlink.
            let whole = UnsafeRawPointer(path.baseAddress!).assumingMemoryBound(to: CChar.self)
            let key: RegistryCache.FileKey?
            if !linked {
                key = nil
            } else if link.st_mode & S_IFMT != S_IFLNK {
                key = RegistryCache.FileKey(link)
            } else {
                var info = stat()
                key = stat(whole, &info) == 0 ? RegistryCache.FileKey(info) : nil
            }
            // One file reached twice (a symlink, a hard link) is not a conflict.
            if let key {
                guard seenFiles.insert(device: key.device, inode: key.inode) else { return }
            } else {
                guard seen.insert((string() as NSString).resolvingSymlinksInPath).inserted else { return }
            }
            if !allowUnsafe {
                // A regular file that passes its own check, in a folder whose answer is known: that
                // answer, decided here (no copy of the `stat` for a call).
                let problem: (path: String, reason: String)?
                if let beside, linked, link.st_mode & S_IFMT == S_IFREG, FileTrust.allows(link, user: trust.user) {
                    problem = beside
                } else {
                    problem = trustProblem(path, linked ? link : nil)
                }
                if let problem {
                    let candidate = string()
                    let reason = problem.path == candidate ? problem.reason : "\(problem.path): \(problem.reason)"
                    rejections.append(Rejection(path: candidate, reason: reason))
                    return
                }
            }
            guard let key else {
                inputs.spoil()  // read, but nothing identifies this version of it
                read(path: string(), at: offset..<offset + path.count, key: nil)
                return
            }
            inputs.add(path: path, key: key)
            if cache != nil {
                let start = identifierBytes.count
                switch cache!.lookup(path, key: key, identifiers: &identifierBytes, plain: plain) {
                case .rejection(let reason)?:
                    rejections.append(Rejection(path: string(), reason: reason))
                    return
                case .plugin(let usable, let source)?:
                    add(path: offset..<offset + path.count, usable: usable, identifiers: start, record: source)
                    return
                case nil: break
                }
            }
            read(path: string(), at: offset..<offset + path.count, key: key)
        }

        /// `FileTrust.Memo.problem(forPlugin:)` of the file at `path`, whose `lstat` is `link` (if it
        /// could be read).
        private func trustProblem(_ path: UnsafeBufferPointer<UInt8>, _ link: stat?) -> (path: String, reason: String)?
        {
            guard let link else { return trust.problem(forPlugin: String(decoding: path, as: UTF8.self)) }
            return trust.problem(forPlugin: path, lstat: link)
        }

        /// Reads the file at `path` (it has `key`, if it could be keyed), and stores what it gave in the cache.
        private mutating func read(path: String, at range: Range<Int>, key: RegistryCache.FileKey?) {
            let examined = PluginFile.examine(path: path, diagnosing: diagnosing)
            filesRead += 1
            if diagnosing, case .success = examined.outcome { diagnoses += 1 }
            if let key, examined.fromContents {
                cache?.store(path, key: key, examined.outcome)
            } else {
                cache?.forget(path)
            }
            switch examined.outcome {
            case .success(let plugin):
                let start = identifierBytes.count
                identifierBytes += plugin.cellTypes.map(\.identifier.name).joined(separator: " ").utf8
                add(path: range, usable: plugin.isUsable, identifiers: start, record: .record(.init(plugin)))
            case .failure(let rejection): rejections.append(rejection)
            }
        }

        /// Records a plugin whose path is `path` in `pathBytes` and whose identifiers are
        /// `identifierBytes` from `identifiers` on.
        private mutating func add(
            path: Range<Int>, usable: Bool, identifiers: Int, record: RegistryCache.Source
        ) {
            found.append(
                Found(
                    path: Int32(path.lowerBound)..<Int32(path.upperBound), usable: usable,
                    identifiers: Int32(identifiers)..<Int32(identifierBytes.count), record: record))
        }
    }
}
