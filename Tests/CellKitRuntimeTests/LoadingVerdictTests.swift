// Loading holds to what discovery decided (CellKitDiscoveryTests has discovery's side of each):
// a plugin discovery refuses (its ABI, its permissions, a folder on its path) is never opened,
// and the loader checks trust again; one it accepts loads and runs; the first of two plugins
// with one identifier is the one whose cells are made; resolving a type diagnoses nothing more.

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDiscovery
@testable import CellKitRuntime

@Suite("Loading holds to discovery's verdicts")
struct LoadingVerdictTests {
    /// What loading the plugin at `path` says (nil: it loaded).
    func load(_ path: String) throws -> CellKitError? {
        let plugin = try PluginFile.read(path: path).get()
        do { _ = try LoadedPlugin(plugin, allowUnsafePermissions: false) } catch { return error }
        return nil
    }

    @Test("ABI: a plugin built for 1.0 still loads and runs on this 1.3 host")
    func olderMinorStillWorks() throws {
        let dir = try Fixtures.folder()
        try Fixtures.compileC(minimalPlugin("OldTimer", abi: (1, 0)), name: "oldtimer", in: dir)
        let registry = Fixtures.registry([dir])
        let type = try registry.cellType(named: "OldTimer")
        let cell = CellQueue(registry: registry).dequeueCell(type, at: IndexPath(section: 0, row: 0))
        #expect(cell.textLabel.text == "Minimal")
    }

    @Test(
        "ABI: a plugin with a different major or a newer minor is never opened",
        arguments: [(2, 0), (1, 7), (0, 9)] as [(Int, Int)])
    func abiMismatchNeverOpened(_ abi: (Int, Int)) throws {
        let dir = try Fixtures.folder()
        try Fixtures.compileC(minimalPlugin("Versioned", abi: abi), name: "versioned", in: dir)
        let catalog = Catalog(options: Fixtures.options([dir]))
        let plugin = try #require(catalog.plugins.first)
        let registry = CellRegistry(catalog: catalog)
        #expect(throws: CellKitError.self) { try registry.cellType(named: "Versioned") }
        #expect(!registry.isLoaded(pluginAt: plugin.path), "no hook of a mismatched plugin runs: it is never opened")
    }

    @Test("The same identifier in two plugins: the cells are the first plugin's")
    func shadowingWinnerLoads() throws {
        let first = try Fixtures.folder("first"), second = try Fixtures.folder("second")
        try Fixtures.compileC(minimalPlugin("Shared", name: "Winner"), name: "a", in: first)
        try Fixtures.compileC(minimalPlugin("Shared", name: "Loser"), name: "b", in: second)
        let catalog = Catalog(options: Fixtures.options([first, second]))
        let queue = CellQueue(registry: CellRegistry(catalog: catalog))
        let cell = queue.dequeueCell(try queue.registry.cellType(named: "Shared"), at: IndexPath(section: 0, row: 0))
        #expect(cell.textLabel.text == "Winner")
    }

    @Test("An embedder's default registry reads no environment: only the built-in types")
    func defaultRegistry() throws {
        let dir = try Fixtures.folder()
        try Fixtures.compileC(minimalPlugin("FromEnvironment", name: "FromEnvironment"), name: "fromenv", in: dir)
        #expect(throws: CellKitError.self) { try CellRegistry().cellType(named: "FromEnvironment") }
    }

    @Test("Unknown identifiers suggest the nearest registered one and say where was searched")
    func unknownIdentifier() throws {
        let registry = Fixtures.registry([Fixtures.buildDirectory])
        #expect {
            try registry.cellType(named: "Fooobar")
        } throws: { error in
            let text = "\(error)"
            return text.contains("'Fooobar'") && text.contains("Did you mean 'Foobar'?")
                && text.contains(Fixtures.buildDirectory)
        }
        #expect(
            throws: CellKitError.invalidIdentifier(
                IdentifierError(
                    name: "no-dash", problem: "it may hold only ASCII letters, digits and underscores, not '-'"))
        ) {
            try registry.cellType(named: "no-dash")
        }
    }

    @Test("A folder writable by others: the override loads its plugin and makes its cells")
    func writableFolderOverride() throws {
        let dir = try Fixtures.folder()
        try Fixtures.compileC(minimalPlugin("Open"), name: "open", in: dir)
        chmod(dir, 0o777)
        let queue = CellQueue(registry: Fixtures.registry([dir], allowUnsafe: true))
        #expect(
            queue.dequeueCell(try queue.registry.cellType(named: "Open"), at: IndexPath(section: 0, row: 0)).textLabel
                .text == "Minimal")
    }

    @Test("A symlink in a safe folder to a plugin in a writable folder: loading refuses it, never opened")
    func symlinkToUnsafeFolder() throws {
        let safe = try Fixtures.folder(), open = try Fixtures.folder()
        let target = try Fixtures.compileC(minimalPlugin("Linked"), name: "linked", in: open)
        chmod(open, 0o777)
        let link = safe + "/liblinked.so"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let plugin = try PluginFile.read(path: link).get()
        #expect(throws: CellKitError.untrusted(path: open, reason: FileTrust.problem(at: open)!)) {
            try LoadedPlugin(plugin, allowUnsafePermissions: false)
        }
        #expect(!DynamicLibrary.isOpen(target), "render never opens it")
    }

    @Test("The loader checks again: a file made writable after discovery is not opened")
    func checkedAtLoad() throws {
        let dir = try Fixtures.folder()
        let path = try Fixtures.compileC(minimalPlugin("Late"), name: "late", in: dir)
        let registry = Fixtures.registry([dir])
        chmod(path, 0o666)
        #expect {
            try registry.cellType(named: "Late")
        } throws: { error in
            guard case .untrusted(let p, let reason) = error as? CellKitError else { return false }
            return p == path && reason.contains("writable by everyone")
        }
        #expect(!registry.isLoaded(pluginAt: path))
    }

    @Test(
        "A plugin whose grand-parent folder others can write is not loaded, naming that folder",
        arguments: [0o777 as mode_t, 0o775])
    func writableGrandparent(_ mode: mode_t) throws {
        let base = try Fixtures.folder()
        let grand = base + "/grand", parent = grand + "/parent"
        try FileManager.default.createDirectory(
            atPath: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let path = try Fixtures.compileC(minimalPlugin("Deep"), name: "deep", in: parent)
        chmod(grand, mode)
        let expected = try #require(FileTrust.problem(at: grand))
        #expect(try load(path) == .untrusted(path: grand, reason: expected))
        #expect(!DynamicLibrary.isOpen(path))
    }

    @Test("A chain of symlinks into a writable folder is not loaded")
    func symlinkChain() throws {
        let safe = try Fixtures.folder(), middle = try Fixtures.folder(), open = try Fixtures.folder()
        let target = try Fixtures.compileC(minimalPlugin("Chained"), name: "chained", in: open)
        chmod(open, 0o777)
        try FileManager.default.createSymbolicLink(atPath: middle + "/libhop.so", withDestinationPath: target)
        // Relative, as `ln -s ../x` writes it.
        let relative = "../" + (middle as NSString).lastPathComponent + "/libhop.so"
        try FileManager.default.createSymbolicLink(atPath: safe + "/libchained.so", withDestinationPath: relative)
        let expected = try #require(FileTrust.problem(at: open))
        #expect(try load(safe + "/libchained.so") == .untrusted(path: open, reason: expected))
        #expect(!DynamicLibrary.isOpen(target), "render never opens it")
    }

    @Test("A symlink that sits in a writable folder is not loaded though its target is safe")
    func linkInWritableFolder() throws {
        let safe = try Fixtures.folder(), open = try Fixtures.folder(), home = try Fixtures.folder()
        let target = try Fixtures.compileC(minimalPlugin("Pointed"), name: "pointed", in: home)
        chmod(open, 0o777)
        try FileManager.default.createSymbolicLink(atPath: open + "/libhop.so", withDestinationPath: target)
        try FileManager.default.createSymbolicLink(
            atPath: safe + "/libpointed.so", withDestinationPath: open + "/libhop.so")
        let expected = try #require(FileTrust.problem(at: open))
        #expect(try load(safe + "/libpointed.so") == .untrusted(path: open, reason: expected))
    }

    @Test("resolving a type loads its plugin and diagnoses no near miss")
    func resolvingDiagnosesNothing() throws {
        let root = try Fixtures.folder()
        let plugins = root + "/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: false)
        // A near miss about `Baz` beside the plugin resolved.
        _ = try Fixtures.compileC(
            minimalPlugin("Foo", name: "Near")
                + "\nCK_EXPORT void initcellForBaz(ck_cell *c, ck_index_path p) { (void)c; (void)p; }\n",
            name: "near", in: plugins)
        _ = try Fixtures.compileC(minimalPlugin("Plain", name: "Plain"), name: "plain", in: plugins)
        var options = Fixtures.options([plugins])
        options.useCache = true
        options.cacheFolder = root + "/cache/cellkit"
        _ = Catalog(options: options)  // a warm cache without near misses, as a render's is
        let registry = CellRegistry(catalog: Catalog(options: options))
        _ = try registry.cellType(named: "Plain")
        #expect(registry.catalog.nearMissDiagnoses == 0, "resolving loads the plugin, nothing more")
    }
}
