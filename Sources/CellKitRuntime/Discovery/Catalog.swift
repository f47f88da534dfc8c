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
    /// The plugin files found, in search order: what `plugins` decodes.
    private let found: [Found]
    private let storage: Storage

    /// A file, whatever the names it is reached by.
    private struct FileID: Hashable {
        let device: UInt64, inode: UInt64
    }

    /// A plugin file as discovery found it: enough to decide who provides an identifier.
    struct Found: @unchecked Sendable {  // `record` is read and written under `storage`'s lock only
        let path: String
        let usable: Bool
        /// Space-separated.
        let identifiers: String
        /// The file's key when it was read or looked up, for storing its near misses in the cache.
        let key: RegistryCache.FileKey?
        let record: RegistryCache.Record
    }

    /// What is worked out on demand, under a lock: a `Catalog` is shared by a registry's threads.
    private final class Storage: Sendable {
        struct State {
            var cache: RegistryCache?
            var plugins: [PluginFile?]
            var all: ([Registration], [Shadowing])?
            var diagnoses = 0
        }
        let state: Mutex<State>
        init(_ state: sending State) { self.state = Mutex(state) }
    }

    /// Every CellKit plugin file found, usable or not, in search order (decoded on first use).
    public var plugins: [PluginFile] {
        storage.state.withLock { state in found.indices.map { plugin(at: $0, &state) } }
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
    /// Near misses are left for when something asks (`nearMisses(ofPlugin:)`).
    public init(options: DiscoveryOptions = DiscoveryOptions()) {
        self.init(options: options, diagnosingNearMisses: false)
    }

    /// Discovers plugins; with `diagnosingNearMisses`, every plugin's near misses too (from the
    /// registry cache if it has them, else from the file, and stored in the cache), as `cellkit
    /// list` shows them.
    package init(options: DiscoveryOptions, diagnosingNearMisses: Bool) {
        self.options = options
        var found: [Found] = [], rejections: [Rejection] = [], seen = Set<String>(), seenFiles = Set<FileID>()
        var cache = options.useCache ? RegistryCache(folder: options.resolvedCacheFolder) : nil
        var filesRead = 0, diagnoses = 0
        let trust = FileTrust.Memo()
        for entry in options.searchPath.entries {
            let files = Self.candidates(in: entry, rejections: &rejections, allowUnsafe: options.allowUnsafePermissions)
            // Files are examined relative to their folder: a path walk of one name, not of every folder above.
            let folder = files.count > 1 ? open(entry.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1
            defer { if folder >= 0 { close(folder) } }
            // A candidate's name starts here in its path: fstatat takes it from there, no new string.
            let nameOffset = entry.path.utf8.count + 1
            for candidate in files {
                // Keyed before reading: a change made while the file is read misses next time.
                // One lstat serves the key, the dedup and the file's own trust check, unless it is a symlink.
                var link = stat(), info = stat()
                let linked =
                    folder >= 0
                    ? candidate.withCString { fstatat(folder, $0 + nameOffset, &link, AT_SYMLINK_NOFOLLOW) } == 0
                    : lstat(candidate, &link) == 0
                if linked, link.st_mode & S_IFMT != S_IFLNK { info = link }
                let key =
                    linked && (link.st_mode & S_IFMT != S_IFLNK || stat(candidate, &info) == 0)
                    ? RegistryCache.FileKey(info) : nil
                // One file reached twice (a symlink, a hard link) is not a conflict.
                if let key {
                    guard seenFiles.insert(FileID(device: key.device, inode: key.inode)).inserted else { continue }
                } else {
                    guard seen.insert((candidate as NSString).resolvingSymlinksInPath).inserted else { continue }
                }
                if !options.allowUnsafePermissions,
                    let problem = trust.problem(forPlugin: candidate, lstat: linked ? link : nil)
                {
                    let reason = problem.path == candidate ? problem.reason : "\(problem.path): \(problem.reason)"
                    rejections.append(Rejection(path: candidate, reason: reason))
                    continue
                }
                if let key, let cached = cache?.lookup(candidate, key: key) {
                    switch cached.content {
                    case .rejection(let reason): rejections.append(Rejection(path: candidate, reason: reason))
                    case .plugin(let usable, let identifiers, let record):
                        if diagnosingNearMisses, record.decoded(path: candidate)?.knownNearMisses == nil,
                            var plugin = record.decoded(path: candidate)
                        {
                            plugin.knownNearMisses = NearMiss.diagnose(path: candidate)
                            diagnoses += 1
                            cache?.store(nearMissesOf: plugin, key: key)
                            found.append(
                                Found(
                                    path: candidate, usable: usable, identifiers: identifiers, key: key,
                                    record: RegistryCache.Record(plugin)))
                        } else {
                            found.append(
                                Found(
                                    path: candidate, usable: usable, identifiers: identifiers, key: key, record: record)
                            )
                        }
                    }
                    continue
                }
                let examined = PluginFile.examine(path: candidate, diagnosing: diagnosingNearMisses)
                filesRead += 1
                if diagnosingNearMisses, case .success = examined.outcome { diagnoses += 1 }
                if let key, examined.fromContents {
                    cache?.store(candidate, key: key, examined.outcome)
                } else {
                    cache?.forget(candidate)
                }
                switch examined.outcome {
                case .success(let plugin):
                    found.append(
                        Found(
                            path: candidate, usable: plugin.isUsable,
                            identifiers: plugin.cellTypes.map(\.identifier.name).joined(separator: " "),
                            key: key, record: RegistryCache.Record(plugin)))
                case .failure(let rejection): rejections.append(rejection)
                }
            }
        }
        cache?.prune()
        cache?.save()
        self.filesRead = filesRead
        self.found = found
        self.rejections = rejections
        storage = Storage(
            Storage.State(cache: cache, plugins: Array(repeating: nil, count: found.count), diagnoses: diagnoses))
    }

    /// The plugin at `index` of `plugins`, decoding only that one.
    package func plugin(at index: Int) -> PluginFile {
        storage.state.withLock { plugin(at: index, &$0) }
    }

    private func plugin(at index: Int, _ state: inout Storage.State) -> PluginFile {
        if let plugin = state.plugins[index] { return plugin }
        let f = found[index]
        let plugin =
            f.record.decoded(path: f.path)
            // A cache line that does not decode (it was checked as JSON when read): read the file.
            ?? ((try? PluginFile.examine(path: f.path, diagnosing: false).outcome.get())
                ?? PluginFile(
                    path: f.path,
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
        storage.state.withLock { state in
            var stored = false
            let result = indices.map { index -> [NearMiss] in
                var plugin = plugin(at: index, &state)
                if let known = plugin.knownNearMisses { return known }
                let misses = NearMiss.diagnose(path: plugin.path)
                state.diagnoses += 1
                plugin.knownNearMisses = misses
                state.plugins[index] = plugin
                if let key = found[index].key, state.cache != nil {
                    state.cache!.store(nearMissesOf: plugin, key: key)
                    stored = true
                }
                return misses
            }
            if stored { state.cache?.save() }
            return result
        }
    }

    /// Registrations and shadowings of every identifier (decoding every usable plugin).
    private func everything() -> ([Registration], [Shadowing]) {
        storage.state.withLock { state in
            if let all = state.all { return all }
            let plugins = found.indices.map { plugin(at: $0, &state) }
            let all = Self.register(plugins)
            state.all = all
            return all
        }
    }

    /// Whether the space-separated `list` holds `name`.
    private static func list(_ list: String, contains name: String) -> Bool {
        var list = list, name = name
        return list.withUTF8 { list in
            name.withUTF8 { name in
                var start = 0
                while start <= list.count - name.count {
                    var end = start
                    while end < list.count, list[end] != UInt8(ascii: " ") { end += 1 }
                    if end - start == name.count, memcmp(list.baseAddress! + start, name.baseAddress!, name.count) == 0
                    {
                        return true
                    }
                    start = end + 1
                }
                return false
            }
        }
    }

    /// The registration for `identifier`, if a usable plugin provides it.
    /// Only the plugins that offer it are decoded: the first usable one on the path wins.
    public func registration(for identifier: CellIdentifier) -> Registration? {
        guard !BuiltinCells.isBuiltin(identifier.name) else { return nil }
        for (index, f) in found.enumerated() where f.usable && Self.list(f.identifiers, contains: identifier.name) {
            guard let declaration = plugin(at: index).cellTypes.first(where: { $0.identifier == identifier }) else {
                continue
            }
            return Registration(identifier: identifier, pluginIndex: index, declaration: declaration)
        }
        return nil
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
        // opendir/readdir: FileManager.contentsOfDirectory cost about 2 µs a name.
        guard let directory = opendir(entry.path) else {
            rejections.append(
                Rejection(path: entry.path, reason: "cannot list the folder: \(String(cString: strerror(errno)))"))
            return []
        }
        defer { closedir(directory) }
        // The library names, end to end in one buffer: no string is made until they are sorted.
        var names: [UInt8] = [], ranges: [Range<Int>] = [], ascii = true
        while let item = readdir(directory) {
            withUnsafeBytes(of: &item.pointee.d_name) { raw in
                let name = UnsafeBufferPointer(
                    start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    count: strnlen(raw.baseAddress!.assumingMemoryBound(to: CChar.self), raw.count))
                guard isLibraryName(name) else { return }
                ascii = ascii && name.allSatisfy { $0 < 0x80 }
                ranges.append(names.count..<names.count + name.count)
                names.append(contentsOf: name)
            }
        }
        return names.withUnsafeBufferPointer { names in
            // Sorted by name as strings sort, which for ASCII is byte order: sorting 1,000 paths
            // with `<` cost 3,000 instructions a path, by `memcmp` of their names 400.
            if ascii {
                ranges.sort {
                    RegistryCache.Index.compare(
                        UnsafeBufferPointer(rebasing: names[$0]), UnsafeBufferPointer(rebasing: names[$1])) < 0
                }
            }
            var prefix = entry.path + "/"
            let paths = prefix.withUTF8 { prefix in
                ranges.map { range in
                    // Ill-formed UTF-8 is repaired, as `String(decoding:)` (and so `String(cString:)`) repairs it.
                    String(unsafeUninitializedCapacity: prefix.count + range.count) { buffer in
                        _ = buffer.initialize(from: prefix)
                        _ = UnsafeMutableBufferPointer(rebasing: buffer[prefix.count...]).initialize(
                            from: UnsafeBufferPointer(rebasing: names[range]))
                        return prefix.count + range.count
                    }
                }
            }
            return ascii ? paths : paths.sorted()
        }
    }

    /// `libFoo.so` or `libFoo.so.1.2`.
    static func isLibraryName(_ name: String) -> Bool {
        name.hasSuffix(".so") || name.contains(".so.")
    }

    /// `isLibraryName` of a name's bytes: compared as bytes when they are ASCII (the same answer,
    /// without a string a name), else as the string they decode to.
    static func isLibraryName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        var ascii = true
        for byte in name where byte >= 0x80 { ascii = false }
        guard ascii else { return isLibraryName(String(decoding: name, as: UTF8.self)) }
        let dotSo = ".so".utf8
        if name.count >= 3, name[(name.count - 3)...].elementsEqual(dotSo) { return true }
        guard name.count >= 4 else { return false }
        for start in 0...(name.count - 4) where name[start] == UInt8(ascii: ".") {
            if name[start + 1] == UInt8(ascii: "s"), name[start + 2] == UInt8(ascii: "o"),
                name[start + 3] == UInt8(ascii: ".")
            {
                return true
            }
        }
        return false
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
