// Discovery does only what is asked of it: a render's catalog diagnoses no near misses and
// decodes only the plugins it resolves; list, inspect and an identifier no plugin provides
// still report every near miss, and the registry cache keeps them once found.

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDiscovery

@Suite("Lazy discovery: near misses only when asked for")
struct LazyDiscoveryTests {
    /// A plugin offering `Foo`, with a near miss about `Baz` (`initcellForBaz`) and a stray
    /// signature whose explanation quotes text with characters JSON escapes.
    static let nearPlugin =
        minimalPlugin("Foo", name: "Near")
            + """

            CK_EXPORT void initcellForBaz(ck_cell *c, ck_index_path p) { (void)c; (void)p; }
            CK_SIGNATURE(customizeCellForGone, "void (cell)");

            """

    /// A folder holding the near plugin and another with one plain type, and a cache folder of the test's own.
    func setUp(_ name: String = #function) throws -> (plugins: String, options: DiscoveryOptions) {
        let root = try Fixtures.folder(name)
        let plugins = root + "/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: false)
        _ = try Fixtures.compileC(Self.nearPlugin, name: "near", in: plugins)
        _ = try Fixtures.compileC(minimalPlugin("Plain", name: "Plain"), name: "plain", in: plugins)
        var options = Fixtures.options([plugins])
        options.useCache = true
        options.cacheFolder = root + "/cache/cellkit"
        return (plugins, options)
    }

    @Test("a render's discovery resolves an identifier without diagnosing near misses")
    func renderDiagnosesNothing() throws {
        let (_, options) = try setUp()
        for _ in 0..<2 {  // cold, then from the cache
            let catalog = Catalog(options: options)
            #expect(catalog.registration(for: try CellIdentifier("Foo")) != nil)
            #expect(catalog.registration(for: try CellIdentifier("Plain")) != nil)
            #expect(catalog.nearMissDiagnoses == 0)
        }
    }

    @Test("asked for, a plugin's near misses are diagnosed once and kept in the cache")
    func diagnosedOnceThenCached() throws {
        let (plugins, options) = try setUp()
        let catalog = Catalog(options: options)
        let index = try #require(catalog.registration(for: try CellIdentifier("Foo"))).pluginIndex
        let misses = catalog.nearMisses(ofPlugin: index)
        #expect(misses.contains { $0.symbol == "initcellForBaz" && $0.suggestion == "initCellForBaz" })
        #expect(misses == (try PluginFile.read(path: plugins + "/libnear.so").get().nearMisses))
        #expect(catalog.nearMisses(ofPlugin: index) == misses)
        #expect(catalog.nearMissDiagnoses == 1, "once, and only that plugin")

        let again = Catalog(options: options)
        #expect(again.nearMisses(ofPlugin: index) == misses)
        #expect(again.nearMissDiagnoses == 0, "read back from the registry cache")
        #expect(again.filesRead == 0)
    }

    @Test("list's discovery has every plugin's near misses; a warm one reads them from the cache")
    func listDiagnosesAll() throws {
        let (plugins, options) = try setUp()
        let cold = Catalog(options: options, diagnosingNearMisses: true)
        #expect(cold.nearMissDiagnoses == 2)
        #expect(cold.plugins.allSatisfy { $0.knownNearMisses != nil })
        let warm = Catalog(options: options, diagnosingNearMisses: true)
        #expect(warm.nearMissDiagnoses == 0 && warm.filesRead == 0)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(warm.plugins) == encoder.encode(cold.plugins), "the cache gives back what was read")
        let fresh = try PluginFile.read(path: plugins + "/libnear.so").get()
        #expect(try encoder.encode(warm.plugins.first { $0.path == fresh.path }) == encoder.encode(fresh))
    }

    @Test("an identifier no plugin provides still lists the near misses that concern it")
    func unknownIdentifierDiagnoses() throws {
        let (plugins, options) = try setUp()
        _ = Catalog(options: options)  // a warm cache without near misses
        let catalog = Catalog(options: options)
        #expect(catalog.nearMissDiagnoses == 0)
        let reasons = catalog.unavailabilityReasons(for: try CellIdentifier("Baz"))
        #expect(
            reasons.contains {
                $0.hasPrefix(plugins + "/libnear.so has a near miss: initcellForBaz: did you mean initCellForBaz?")
            }, "\(reasons)")
        #expect(catalog.nearMissDiagnoses == 2, "every plugin, once")
    }

    @Test("`cellkit render` leaves a plugin it does not use undiagnosed; `cellkit list` diagnoses and caches it")
    func commandsThroughTheCache() throws {
        let (plugins, options) = try setUp()
        let table = plugins + "/../table.yaml"
        try "sections:\n  - {cell: Plain, rows: 2}\n".write(toFile: table, atomically: true, encoding: .utf8)
        let cacheHome = (options.cacheFolder! as NSString).deletingLastPathComponent
        func run(_ arguments: [String]) throws -> (Int32, String) {
            // Through Spawn (Fixtures): an isolated render's sweep in another test spares it.
            let result = try Fixtures.execute(
                Fixtures.buildDirectory + "/cellkit", arguments + ["--plugin-path", plugins],
                environment: ["XDG_CACHE_HOME": cacheHome], unsetting: ["CELLKIT_PLUGIN_PATH"], mergingErrors: true)
            return (result.status, result.output)
        }
        /// Whether the cache holds the near misses of the plugin at `path`.
        func cached(_ path: String) -> Bool? {
            guard case .plugin(_, _, let record)? = RegistryCache(folder: options.cacheFolder!).entries[path]?.content
            else { return nil }
            return record.decoded(path: path)?.knownNearMisses != nil
        }
        let (status, text) = try run(["render", table])
        #expect(status == 0, "\(text)")
        #expect(cached(plugins + "/libnear.so") == false, "not used by the table: not diagnosed")
        #expect(cached(plugins + "/libplain.so") == true, "resolved: its near misses were asked for, to warn")

        let (listed, listing) = try run(["list"])
        #expect(listed == 0)
        #expect(listing.contains("initcellForBaz: did you mean initCellForBaz?"), "\(listing)")
        #expect(cached(plugins + "/libnear.so") == true)
        let (_, again) = try run(["list"])
        #expect(again == listing, "the same listing from the cache")

        let (inspected, inspection) = try run(["inspect", "Foo"])
        #expect(inspected == 0)
        #expect(inspection.contains("near misses:") && inspection.contains("initcellForBaz"), "\(inspection)")

        // No plugin provides it: status 1 (the argument is well formed), with list's diagnosis.
        let (missing, why) = try run(["inspect", "Baz"])
        #expect(missing == 1, "\(why)")
        #expect(
            why.contains("no usable plugin provides cell identifier 'Baz'") && why.contains("initcellForBaz"), "\(why)")
    }
}
