// The registry cache: a second discovery reads no unchanged file; a touched, replaced or
// removed file is noticed; a corrupt cache, or one another version wrote, is ignored and
// rewritten; two `cellkit list` runs writing it at once leave a valid file.

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDiscovery

@Suite("The registry cache")
struct RegistryCacheTests {
    /// The plugins and rejections, as JSON, to compare two discoveries.
    func summary(_ catalog: Catalog) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let plugins = try encoder.encode(catalog.plugins), rejections = try encoder.encode(catalog.rejections)
        return String(decoding: plugins, as: UTF8.self) + String(decoding: rejections, as: UTF8.self)
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("a second discovery reads no file and finds the same catalog; the cache is 0600 in a 0700 folder")
    func hit() throws {
        let (plugins, cache) = try Fixtures.cachedPlugins()
        let cold = Fixtures.cachedCatalog(plugins, cache: cache)
        #expect(cold.filesRead == 3)
        #expect(cold.plugins.count == 2 && cold.rejections.count == 1)
        #expect(try mode(cache) == 0o700)
        #expect(try mode(cache + "/registry.json") == 0o600)
        #expect(
            RegistryCache(folder: cache).entries.keys.filter { !$0.hasSuffix("/") }.count == 3,
            "the rejection is cached too")
        let warm = Fixtures.cachedCatalog(plugins, cache: cache)
        #expect(warm.filesRead == 0)
        #expect(try summary(warm) == summary(cold))
        #expect(warm.registrations.map(\.identifier) == cold.registrations.map(\.identifier))
        let uncached = Catalog(options: Fixtures.options([plugins]))
        #expect(uncached.filesRead == 3, "the library does not use the cache unless asked")
        #expect(try summary(uncached) == summary(cold))
    }

    @Test("a touched file (new mtime) and a replaced one (new inode) are read again; a removed one is dropped")
    func invalidation() throws {
        let (plugins, cache) = try Fixtures.cachedPlugins()
        _ = Fixtures.cachedCatalog(plugins, cache: cache)
        let foobar = plugins + "/libFoobarCells.so"
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: foobar)
        #expect(Fixtures.cachedCatalog(plugins, cache: cache).filesRead == 1)
        #expect(Fixtures.cachedCatalog(plugins, cache: cache).filesRead == 0)

        let contacts = plugins + "/libContactsCells.so", copy = plugins + "/copy.tmp"
        let before = RegistryCache(folder: cache).entries[contacts]?.key.inode
        try FileManager.default.copyItem(atPath: contacts, toPath: copy)
        #expect(rename(copy, contacts) == 0)
        let replaced = Fixtures.cachedCatalog(plugins, cache: cache)
        #expect(replaced.filesRead == 1)
        #expect(RegistryCache(folder: cache).entries[contacts]?.key.inode != before)

        try FileManager.default.removeItem(atPath: foobar)
        let removed = Fixtures.cachedCatalog(plugins, cache: cache)
        #expect(removed.filesRead == 0)
        #expect(!removed.plugins.contains { $0.path == foobar })
        #expect(removed.registration(for: try CellIdentifier("Foobar")) == nil)
        #expect(RegistryCache(folder: cache).entries[foobar] == nil, "the removed file's entry is dropped")
        // The files' entries (the folder's listing, if kept, has one too).
        #expect(RegistryCache(folder: cache).entries.keys.filter { !$0.hasSuffix("/") }.count == 2)
    }

    @Test("a corrupt cache file is ignored and rewritten")
    func corrupt() throws {
        let (plugins, cache) = try Fixtures.cachedPlugins()
        let cold = Fixtures.cachedCatalog(plugins, cache: cache)
        let file = cache + "/registry.json"
        var garbage = try Data(contentsOf: URL(fileURLWithPath: file))
        garbage.removeLast(garbage.count / 2)  // half a file, as a torn write would leave
        try garbage.write(to: URL(fileURLWithPath: file))
        let again = Fixtures.cachedCatalog(plugins, cache: cache)
        #expect(again.filesRead == 3)
        #expect(try summary(again) == summary(cold))
        #expect(Fixtures.cachedCatalog(plugins, cache: cache).filesRead == 0, "rewritten whole")

        try Data([0, 0xFF, 0x7B, 0x22] + Array(repeating: 0x41, count: 100)).write(to: URL(fileURLWithPath: file))
        #expect(Fixtures.cachedCatalog(plugins, cache: cache).filesRead == 3)
        #expect(Fixtures.cachedCatalog(plugins, cache: cache).filesRead == 0)
    }

    @Test("a cache another version wrote (another format or ABI) is ignored and rewritten")
    func otherVersion() throws {
        let (plugins, cache) = try Fixtures.cachedPlugins()
        _ = Fixtures.cachedCatalog(plugins, cache: cache)
        let file = cache + "/registry.json"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let abi = PluginFile.hostABI
        let foreign = text.replacingOccurrences(
            of: "CellKit ABI \(abi.major).\(abi.minor)", with: "CellKit ABI \(abi.major + 1).0")
        #expect(foreign != text)
        try foreign.write(toFile: file, atomically: false, encoding: .utf8)
        #expect(Fixtures.cachedCatalog(plugins, cache: cache).filesRead == 3)
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains(RegistryCache.format))
        #expect(Fixtures.cachedCatalog(plugins, cache: cache).filesRead == 0)
    }

    @Test("a cache file others can write is not trusted: every file is read")
    func unsafeCacheFile() throws {
        let (plugins, cache) = try Fixtures.cachedPlugins()
        _ = Fixtures.cachedCatalog(plugins, cache: cache)
        #expect(chmod(cache + "/registry.json", 0o666) == 0)
        #expect(Fixtures.cachedCatalog(plugins, cache: cache).filesRead == 3)
    }

    /// Starts the built `cellkit` with `arguments` and `XDG_CACHE_HOME` set; its output goes to a file.
    /// Through Spawn (Fixtures): an isolated render's sweep in another test spares it.
    func start(_ arguments: [String], cacheHome: String, output: String) throws -> pid_t {
        try Fixtures.start(
            Fixtures.buildDirectory + "/cellkit", arguments, environment: ["XDG_CACHE_HOME": cacheHome],
            unsetting: ["CELLKIT_PLUGIN_PATH"], output: output)
    }

    @Test("two `cellkit list` runs with a cold cache at once both succeed and leave a valid cache")
    func twoProcesses() throws {
        let (plugins, cache) = try Fixtures.cachedPlugins()
        let cacheHome = (cache as NSString).deletingLastPathComponent
        let root = (cacheHome as NSString).deletingLastPathComponent
        let outputs = (1...2).map { root + "/list-\($0).txt" }
        let runs = try outputs.map { try start(["list", "--plugin-path", plugins], cacheHome: cacheHome, output: $0) }
        let statuses = try runs.map { try Fixtures.wait($0, "cellkit") }
        let texts = try outputs.map { try String(contentsOfFile: $0, encoding: .utf8) }
        for (status, text) in zip(statuses, texts) {
            #expect(status == 0, "\(text)")
            #expect(text.contains("FoobarCells") && text.contains("ContactsCells"), "\(text)")
        }
        #expect(texts[0] == texts[1])
        let entries = RegistryCache(folder: cache).entries  // also the plugins beside cellkit, on its standard path
        #expect(
            ["libFoobarCells.so", "libContactsCells.so", "libjunk.so"].allSatisfy { entries[plugins + "/" + $0] != nil }
        )
        #expect(
            Fixtures.cachedCatalog(plugins, cache: cache).filesRead == 0, "the cache the two wrote is whole and current"
        )
        let files = try FileManager.default.contentsOfDirectory(atPath: cache)
        let leftovers = files.filter { $0 != "registry.json" && !$0.hasPrefix("list.txt.") }
        #expect(leftovers.isEmpty, "no temporary file is left behind: \(leftovers)")
        #expect(files.filter { $0.hasPrefix("list.txt.") }.count == 1, "one list kept, for the one search path")

        let fresh = try Fixtures.folder() + "/cache"
        let noCache = try start(
            ["list", "--no-cache", "--plugin-path", plugins], cacheHome: fresh, output: fresh + "-list.txt")
        #expect(try Fixtures.wait(noCache, "cellkit") == 0)
        #expect(!FileManager.default.fileExists(atPath: fresh + "/cellkit"), "--no-cache writes no cache")
    }

    @Test("mutated cache files (flipped, cut, repeated bytes) never stop discovery, and every file is still found")
    func mutants() throws {
        let (plugins, cache) = try Fixtures.cachedPlugins()
        let cold = Fixtures.cachedCatalog(plugins, cache: cache)
        let file = cache + "/registry.json"
        let valid = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        var rng = SplitMix64(seed: 13)
        for _ in 0..<400 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: bytes[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
                case 1:
                    bytes[at] = [0x22, 0x5C, 0x2C, 0x7B, 0x7D, 0x5B, 0x5D, 0x0A, 0x00, 0xFF].randomElement(using: &rng)!
                case 2: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...40, using: &rng)))
                default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 20)], at: at)
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            // Every entry decoded through both readers (the one by hand, the JSON parser's), then discovery.
            _ = RegistryCache(folder: cache).entries
            let mutant = Fixtures.cachedCatalog(plugins, cache: cache)
            // Heads and records carry checksums, but whatever a mutation does, none may lose a file.
            #expect(mutant.plugins.count + mutant.rejections.count == cold.plugins.count + cold.rejections.count)
        }
    }

    @Test("a record edited so that it still parses fails its checksum: the file is read again and the record rebuilt")
    func checksum() throws {
        let (plugins, cache) = try Fixtures.cachedPlugins()
        let cold = Fixtures.cachedCatalog(plugins, cache: cache)
        let file = cache + "/registry.json"
        let original = try String(contentsOfFile: file, encoding: .utf8)
        #expect(original.contains("customizeCellForFoobar"))
        // Valid JSON still, with every key as it was: only the hook's name changed.
        let forged = original.replacingOccurrences(of: "customizeCellForFoobar", with: "customizeCellForFoobaz")
        try forged.write(toFile: file, atomically: false, encoding: .utf8)
        let warm = Fixtures.cachedCatalog(plugins, cache: cache)
        let foobar = try #require(warm.plugins.firstIndex { $0.path.hasSuffix("libFoobarCells.so") })
        let hooks = warm.plugin(at: foobar).cellTypes.flatMap { $0.hooks.map(\.symbol) }
        #expect(hooks.contains("customizeCellForFoobar"), "\(hooks)")
        #expect(!hooks.contains("customizeCellForFoobaz"))
        #expect(try summary(warm) == summary(cold))
        let rebuilt = try String(contentsOfFile: file, encoding: .utf8)
        #expect(rebuilt.contains("customizeCellForFoobar") && !rebuilt.contains("customizeCellForFoobaz"), "rebuilt")
        let sweptFolder = try Fixtures.folder()
        try "stale".write(toFile: sweptFolder + "/.registry.json.999999999.7", atomically: false, encoding: .utf8)
        RegistryCache.sweepStaleTemporaries(in: sweptFolder)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sweptFolder).isEmpty, "a stale temporary is swept")
    }

    /// The line of the cache file `text` whose head is the entry of the file whose path ends with `suffix`.
    func headRange(in bytes: [UInt8], of suffix: String) throws -> Range<Int> {
        let text = String(decoding: bytes, as: UTF8.self)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("[\"") && $0.contains(suffix + "\"") })
        let start = text.utf8.distance(from: text.utf8.startIndex, to: line.startIndex)
        return start..<start + line.utf8.count
    }

    @Test("every byte of a head changed in turn fails its checksum or its form: the same catalog, the cache rewritten")
    func headChecksum() throws {
        let (plugins, cache) = try Fixtures.cachedPlugins()
        let cold = Fixtures.cachedCatalog(plugins, cache: cache)
        let file = cache + "/registry.json"
        let valid = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        let head = try headRange(in: valid, of: "libFoobarCells.so")
        // The one byte that made every render of Foobar fail: its identifier in the head.
        let identifier = try #require(
            String(decoding: valid[head], as: UTF8.self).range(of: "Foobar\"")?.lowerBound.utf16Offset(
                in: String(decoding: valid[head], as: UTF8.self)))
        for at in [head.lowerBound + identifier + 5] + Array(head) {
            var bytes = valid
            bytes[at] = bytes[at] == UInt8(ascii: "r") ? UInt8(ascii: "z") : bytes[at] ^ 0x01
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            let damaged = Fixtures.cachedCatalog(plugins, cache: cache)
            #expect(try summary(damaged) == summary(cold), "byte \(at - head.lowerBound) of the head")
            #expect(damaged.registrations.map(\.identifier) == cold.registrations.map(\.identifier))
            for registration in cold.registrations {  // looked up by the identifiers the heads give
                #expect(
                    damaged.registration(for: registration.identifier)?.pluginIndex == registration.pluginIndex,
                    "\(registration.identifier), byte \(at - head.lowerBound) of the head")
            }
            #expect(
                Fixtures.cachedCatalog(plugins, cache: cache).filesRead == 0,
                "the cache was rewritten whole and valid (byte \(at - head.lowerBound))")
        }
    }

    @Test("a head with one byte changed: list and render succeed, and --no-cache rewrites the cache valid")
    func headChecksumCommands() throws {
        let (plugins, cache) = try Fixtures.cachedPlugins()
        try Fixtures.compileC(minimalPlugin("CachedThing", name: "Cached"), name: "cached", in: plugins)
        let cacheHome = (cache as NSString).deletingLastPathComponent
        let root = (cacheHome as NSString).deletingLastPathComponent
        let document = root + "/table.yaml"
        try "sections:\n  - rows:\n      - {cell: CachedThing}\n".write(
            toFile: document, atomically: true, encoding: .utf8)
        let file = cache + "/registry.json"
        /// Runs `cellkit` with `arguments` and the test's cache; its status and output.
        func run(_ arguments: [String]) throws -> (Int32, String) {
            let output = root + "/out-\(UUID().uuidString).txt"
            let status = try Fixtures.wait(try start(arguments, cacheHome: cacheHome, output: output), "cellkit")
            return (status, try String(contentsOfFile: output, encoding: .utf8))
        }
        /// The cache file with the last letter of "CachedThing" changed in its head: the change of one byte.
        func damage() throws {
            var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
            let head = try headRange(in: bytes, of: "libcached.so")
            let line = String(decoding: bytes[head], as: UTF8.self)
            let at = try #require(line.range(of: "\"CachedThing\"")).upperBound.utf16Offset(in: line) - 2
            #expect(bytes[head.lowerBound + at] == UInt8(ascii: "g"))
            bytes[head.lowerBound + at] = UInt8(ascii: "h")
            try Data(bytes).write(to: URL(fileURLWithPath: file))
        }
        let (first, firstText) = try run(["render", document, "--plugin-path", plugins])
        #expect(first == 0 && firstText.contains("Cached"), "\(firstText)")
        for arguments in [["render", document], ["list"], ["render", document, "--no-cache"]] {
            try damage()
            let (status, text) = try run(arguments + ["--plugin-path", plugins])
            #expect(status == 0, "\(arguments): \(text)")
            #expect(text.contains(arguments[0] == "list" ? "CachedThing" : "Cached"), "\(arguments): \(text)")
            #expect(!text.contains("CachedThinh"), "\(arguments): \(text)")
            let rewritten = try String(contentsOfFile: file, encoding: .utf8)
            #expect(rewritten.contains("\"CachedThing\"") && !rewritten.contains("CachedThinh"), "\(arguments)")
            #expect(Fixtures.cachedCatalog(plugins, cache: cache).filesRead == 0, "\(arguments): valid and whole")
        }
        try damage()
        let (listed, listText) = try run(["list", "--no-cache", "--plugin-path", plugins])
        #expect(listed == 0 && listText.contains("CachedThing"), "\(listText)")
        let rebuilt = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!rebuilt.contains("CachedThinh") && rebuilt.contains("\"CachedThing\""), "--no-cache rewrote it")
        #expect(Fixtures.cachedCatalog(plugins, cache: cache).filesRead == 0, "and it is valid")
    }
}
