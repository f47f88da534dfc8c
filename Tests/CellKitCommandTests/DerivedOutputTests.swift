// Output derived from a catalog alone (`cellkit list`'s) is kept beside the registry cache and
// given back only while nothing it came from changed: every change to a plugin file, its trust,
// the folder or the search path works it out again, and a kept file that is damaged, cut
// short or not safely ours is never given back.

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitCommand
@testable import CellKitDiscovery
@testable import CellKitRuntime

@Suite("Derived output kept beside the registry cache")
struct DerivedOutputTests {
    /// What a catalog's list depends on, as text: its plugins, registrations and rejections.
    static func describe(_ catalog: Catalog) -> [UInt8] {
        var lines = catalog.plugins.map { "\($0.path) \($0.isUsable) \($0.cellTypes.map(\.identifier.name))" }
        lines += catalog.registrations.map { "\($0.identifier) \($0.pluginIndex)" }
        lines += catalog.rejections.map { "\($0.path): \($0.reason)" }
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// Counts how often `derivedOutput` worked its output out.
    final class Maker: @unchecked Sendable {  // used on the test's thread only
        var made = 0

        /// `catalog`'s derived output "test", as `describe` gives it, accepted by `isIntact`.
        func output(_ catalog: Catalog, isIntact: ([UInt8]) -> Bool = { _ in true }) -> [UInt8] {
            catalog.derivedOutput("test", isIntact: isIntact) {
                made += 1
                return DerivedOutputTests.describe(catalog)
            }
        }
    }

    /// A cached catalog of `plugins` (more folders after it if given), with its cache in `cache`.
    static func catalog(_ plugins: String, cache: String, more: [String] = []) -> Catalog {
        var options = Fixtures.options([plugins] + more)
        (options.useCache, options.cacheFolder) = (true, cache)
        return Catalog(options: options, diagnosingNearMisses: false, digestingInputs: true)
    }

    /// The kept files of derived output "test" in `cache`.
    static func keptFiles(_ cache: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []).filter { $0.hasPrefix("test.") }
    }

    @Test("kept output comes back while nothing changed; each change to what it came from works it out again")
    func changes() throws {
        let (plugins, cache) = try Fixtures.cachedPlugins()
        let maker = Maker()
        /// The output now, which must be what an uncached catalog gives; whether it was worked out.
        func check(_ what: Comment) -> Bool {
            let before = maker.made
            let output = maker.output(Self.catalog(plugins, cache: cache))
            #expect(output == Self.describe(Catalog(options: Fixtures.options([plugins]))), what)
            return maker.made > before
        }
        #expect(check("cold"))
        #expect(!check("warm: given back"))
        #expect(!check("and again"))

        let foobar = plugins + "/libFoobarCells.so", contacts = plugins + "/libContactsCells.so"
        let changes: [(Comment, () throws -> Void)] = [
            (
                "a new modification time",
                {
                    try FileManager.default.setAttributes(
                        [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: foobar)
                }
            ),
            (
                "a plugin replaced by another",
                {
                    try FileManager.default.removeItem(atPath: foobar)
                    try FileManager.default.copyItem(atPath: contacts, toPath: foobar)
                }
            ),
            ("a plugin others can write", { #expect(chmod(contacts, 0o666) == 0) }),
            ("made safe again", { #expect(chmod(contacts, 0o644) == 0) }),
            (
                "a plugin added",
                {
                    try FileManager.default.copyItem(
                        atPath: Fixtures.buildDirectory + "/libDrawnCells.so", toPath: plugins + "/libDrawnCells.so")
                }
            ),
            ("a plugin removed", { try FileManager.default.removeItem(atPath: contacts) }),
            ("the folder others can write", { #expect(chmod(plugins, 0o777) == 0) }),
        ]
        for (what, change) in changes {
            try change()
            #expect(check(what), "worked out again after \(what)")
            #expect(!check(what), "then given back")
        }
        #expect(Self.keptFiles(cache).count == 1, "one file for one search path")
    }

    @Test("another search path has its own kept output; at most 8 are kept, the last written")
    func searchPaths() throws {
        let (plugins, cache) = try Fixtures.cachedPlugins()
        let maker = Maker()
        let extra = try (0..<10).map { n -> String in
            let folder = try Fixtures.folder("extra\(n)")
            try FileManager.default.copyItem(
                atPath: Fixtures.buildDirectory + "/libDrawnCells.so", toPath: folder + "/libDrawnCells.so")
            return folder
        }
        _ = maker.output(Self.catalog(plugins, cache: cache))
        let withExtra = maker.output(Self.catalog(plugins, cache: cache, more: [extra[0]]))
        #expect(maker.made == 2)
        #expect(withExtra == Self.describe(Catalog(options: Fixtures.options([plugins, extra[0]]))))
        _ = maker.output(Self.catalog(plugins, cache: cache))
        _ = maker.output(Self.catalog(plugins, cache: cache, more: [extra[0]]))
        #expect(maker.made == 2, "both given back: neither replaced the other")
        for folder in extra.dropFirst() {
            _ = maker.output(Self.catalog(plugins, cache: cache, more: [folder]))
        }
        #expect(Self.keptFiles(cache).count == Catalog.derivedOutputsKept)
    }

    @Test("a kept file damaged, cut short, not ours to trust or refused by its reader is worked out again")
    func damaged() throws {
        let (plugins, cache) = try Fixtures.cachedPlugins()
        let maker = Maker()
        let expected = maker.output(Self.catalog(plugins, cache: cache))
        let file = cache + "/" + (try #require(Self.keptFiles(cache).first))
        let valid = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        let firstLine = try #require(valid.firstIndex(of: 0x0A))
        var rng = SplitMix64(seed: 29)
        let damages: [(Comment, ([UInt8]) -> [UInt8])] = [
            (
                "a body byte flipped",
                {
                    var b = $0; b[Int.random(in: firstLine + 1..<b.count, using: &rng)] ^= 0x20; return b
                }
            ),
            (
                "a header byte flipped",
                {
                    var b = $0; b[Int.random(in: 0..<firstLine, using: &rng)] ^= 0x01; return b
                }
            ),
            ("cut short at a line", { Array($0[...($0[..<($0.count - 1)].lastIndex(of: 0x0A)!)]) }),
            ("cut inside the first line", { Array($0[..<(firstLine - 3)]) }),
            ("empty", { _ in [] }),
        ]
        for (what, damage) in damages {
            try Data(damage(valid)).write(to: URL(fileURLWithPath: file))
            let made = maker.made
            #expect(maker.output(Self.catalog(plugins, cache: cache)) == expected, what)
            #expect(maker.made == made + 1, "worked out again: \(what)")
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: file))) == valid, "and rewritten: \(what)")
        }
        #expect(chmod(file, 0o666) == 0)
        var made = maker.made
        _ = maker.output(Self.catalog(plugins, cache: cache))
        #expect(maker.made == made + 1, "a file others can write is not read")
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: plugins + "/libjunk.so")
        made = maker.made
        _ = maker.output(Self.catalog(plugins, cache: cache))
        #expect(maker.made == made + 1, "a symbolic link is not followed")
        made = maker.made
        _ = maker.output(Self.catalog(plugins, cache: cache), isIntact: { _ in false })
        #expect(maker.made == made + 1, "what the reader refuses is worked out again")
    }

    @Test("with the cache off nothing is kept or read; rebuilding writes the kept file anew where the cache is")
    func cacheOff() throws {
        let (plugins, cache) = try Fixtures.cachedPlugins()
        let maker = Maker()
        var options = Fixtures.options([plugins])
        options.cacheFolder = cache
        for _ in 0..<2 {
            _ = maker.output(Catalog(options: options, diagnosingNearMisses: false, digestingInputs: true))
        }
        #expect(maker.made == 2 && Self.keptFiles(cache).isEmpty)
        _ = maker.output(Self.catalog(plugins, cache: cache))
        #expect(Self.keptFiles(cache).count == 1)
        let file = cache + "/" + (try #require(Self.keptFiles(cache).first))
        let kept = try Data(contentsOf: URL(fileURLWithPath: file))
        try Data("damaged\n".utf8).write(to: URL(fileURLWithPath: file))
        options.rebuildCache = true
        _ = maker.output(Catalog(options: options, diagnosingNearMisses: false, digestingInputs: true))
        #expect(maker.made == 4, "rebuilding reads nothing kept")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == kept, "and writes it anew, as the registry cache")
        _ = maker.output(Self.catalog(plugins, cache: cache))
        #expect(maker.made == 4, "which the next run gives back")

        let fresh = try Fixtures.folder() + "/cache"
        options.cacheFolder = fresh
        _ = maker.output(Catalog(options: options, diagnosingNearMisses: false, digestingInputs: true))
        #expect(!FileManager.default.fileExists(atPath: fresh), "where there is no registry cache, none is made")

        let made = maker.made
        for _ in 0..<2 { _ = maker.output(Catalog(options: Self.catalog(plugins, cache: cache).options)) }
        #expect(maker.made == made + 2, "a catalog made without digesting its inputs (a render's) keeps nothing")
    }
}
