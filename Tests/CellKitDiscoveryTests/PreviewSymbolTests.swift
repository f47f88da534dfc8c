// Preview samples a plugin exports with CK_PREVIEW: read from the ELF file without running it,
// each bad one left out with a warning that names the file, the sample and the fix.

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDiscovery

@Suite struct PreviewSymbolTests {
    /// A plugin with the types `Foo` and `Foo_` (an identifier may end in an underscore) and `extra`.
    private func plugin(_ extra: String, in dir: String, flags: [String] = []) throws -> PluginFile {
        let source =
            minimalPlugin("Foo") + "\nCK_CUSTOMIZE_CELL_FOR(Foo_) { (void)cell; }\n" + extra + "\n"
        return try PluginFile.read(path: Fixtures.compileC(source, name: "previews", in: dir, extraFlags: flags))
            .get()
    }

    @Test(
        "Samples come in the order CK_PREVIEW declares them, whatever order the compiler lays them out in",
        arguments: [[], ["-O2"], ["-O2", "-fdata-sections", "-Wl,--gc-sections"]])
    func declarationOrder(flags: [String]) throws {
        let dir = try Fixtures.folder()
        let file = try plugin(
            #"""
            CK_PREVIEW(Foo, zeta, "{}");
            CK_PREVIEW(Foo_, other, "{}");
            CK_PREVIEW(Foo, alpha, "{}");
            CK_PREVIEW(Foo, mid, "{}");
            """#, in: dir, flags: flags)
        let previews = file.previewSymbols()
        #expect(previews.warnings == [])
        #expect(previews.samples(for: "Foo").map(\.name) == ["zeta", "alpha", "mid"], "\(flags)")
        #expect(previews.samples.map(\.name) == ["zeta", "other", "alpha", "mid"], "\(flags)")
        #expect(PluginFile.place(Array("{}\u{0}12".utf8)) == 12)
        #expect(PluginFile.place(Array("{}".utf8)) == nil && PluginFile.place(Array("{}\u{0}x".utf8)) == nil)
    }

    @Test func readsEachTypesSamplesWithoutRunningThePlugin() throws {
        let dir = try Fixtures.folder()
        let file = try plugin(
            #"""
            CK_PREVIEW(Foo, empty, "{}");
            CK_PREVIEW(Foo, rtl, "{\"text\": \"שלום עולם\", \"count\": 2, \"on\": true, \"items\": [1, null]}");
            CK_PREVIEW(Foo_, x1, "{\n  \"text\": \"tab\\tand \\u001b escaped\"\n}");
            """#, in: dir)
        #expect(file.isUsable)
        #expect(file.nearMisses.isEmpty)  // data symbols: no near miss, here or in an older host
        let previews = file.previewSymbols()
        #expect(previews.warnings == [])
        #expect(previews.samples.map { "\($0.identifier) \($0.name)" } == ["Foo empty", "Foo rtl", "Foo_ x1"])
        #expect(previews.samples(for: "Foo").map(\.name) == ["empty", "rtl"])
        #expect(previews.samples[0].data == .object([:]))
        #expect(
            previews.samples[1].data
                == .object([
                    "text": .string("שלום עולם"), "count": .number(2), "on": .bool(true),
                    "items": .list([.number(1), .null]),
                ]))
        #expect(previews.samples[1].json == #"{"count":2,"items":[1,null],"on":true,"text":"שלום עולם"}"#)
        #expect(previews.samples[2].data == .object(["text": .string("tab\tand \u{1B} escaped")]))
        #expect(previews.samples[2].place == "symbol cellkit_preview_Foo__x1")
        #expect(previews.samples[2].origin == .symbol("cellkit_preview_Foo__x1"))
    }

    @Test func splitsTheSymbolAtTheLastUnderscore() {
        #expect(PluginFile.previewName("cellkit_preview_Foo_long") == ("Foo", "long"))
        #expect(PluginFile.previewName("cellkit_preview_My_Type__a1") == ("My_Type_", "a1"))
        #expect(PluginFile.previewName("cellkit_preview_Foo") == ("Foo", ""))
        #expect(PreviewSample.nameProblem("rtl2") == nil)
        #expect(PreviewSample.nameProblem("") != nil)
        #expect(PreviewSample.nameProblem("2x") != nil)
        #expect(PreviewSample.nameProblem("a_b") != nil)
        #expect(PreviewSample.nameProblem(String(repeating: "a", count: 33)) != nil)
    }

    @Test func leavesOutEachHostileSampleWithAWarningThatSaysTheFix() throws {
        let dir = try Fixtures.folder()
        let huge = String(repeating: "a", count: PreviewSample.maxBytes + 10)
        let file = try plugin(
            #"""
            CK_PREVIEW(Foo, good, "{\"text\": \"kept\"}");
            CK_PREVIEW(Foo, notjson, "{\"text\": ");
            CK_PREVIEW(Foo, list, "[1, 2]");
            CK_PREVIEW(Foo, control, "{\"text\": \"a\x1b[2Jb\"}");
            CK_PREVIEW(Foo, latin1, "{\"text\": \"caf\xe9\"}");
            CK_PREVIEW(Bar, orphan, "{}");
            CK_EXPORT const char cellkit_preview_Foo_[] = "{}";
            CK_EXPORT char cellkit_preview_Foo_bss[16];
            CK_EXPORT const char cellkit_preview_Foo_huge[] = "{\"text\": \"\#(huge)\"}";
            """#, in: dir)
        let previews = file.previewSymbols()
        #expect(previews.samples.map(\.name) == ["good"])
        let path = file.path
        func warning(_ id: String, _ name: String, _ problem: String) -> String {
            "\(path): preview \(id) \"\(name)\" (symbol cellkit_preview_\(id)_\(name)) left out: \(problem)"
        }
        let example = #"write one JSON object, such as {"text": "Hello"}"#
        #expect(
            previews.warnings == [
                warning(
                    "Foo", "notjson",
                    "not valid JSON at byte 10: expected a value, found the end of the line; \(example)"),
                warning("Foo", "list", "it is a list, not an object; \(example)"),
                warning(
                    "Foo", "control",
                    #"its text holds the control byte 0x1B at byte 12; write it escaped inside a string (\u00XX)"#),
                warning("Foo", "latin1", "its text is not UTF-8; save the source as UTF-8"),
                warning(
                    "Bar", "orphan", "the plugin has no cell type Bar (its types: Foo, Foo_); name one of its types"),
                warning(
                    "Foo", "",
                    "'' is not a sample name: an ASCII letter, then ASCII letters or digits (no underscore), at most 32; declare it with CK_PREVIEW(Foo, name, json)"
                ),
                warning(
                    "Foo", "huge",
                    "its JSON text is longer than the limit of \(PreviewSample.maxBytes) bytes; shorten it"),
                // Not a string in the file's constants: in .bss, after them.
                warning(
                    "Foo", "bss",
                    "the symbol is not a string stored in the file; declare it with CK_PREVIEW(Id, name, json)"),
            ])
    }

    @Test func keepsAtMostTheLimitOfSamplesPerType() throws {
        let dir = try Fixtures.folder()
        let count = PreviewSample.maxPerType + 2
        let lines = (0..<count).map { String(format: "CK_PREVIEW(Foo, s%02d, \"{}\");", $0) }
        let previews = try plugin(lines.joined(separator: "\n"), in: dir).previewSymbols()
        #expect(previews.samples.count == PreviewSample.maxPerType)
        #expect(previews.warnings.count == 2)
        #expect(
            previews.warnings.first?.hasSuffix("Foo has \(PreviewSample.maxPerType) samples already, the most read")
                == true)
    }

    @Test func theHeaderRefusesASampleOverTheLimitAtCompileTime() throws {
        let dir = try Fixtures.folder()
        let huge = String(repeating: "a", count: PreviewSample.maxBytes)
        #expect(throws: (any Error).self) {
            try Fixtures.compileC(
                minimalPlugin("Foo") + "\nCK_PREVIEW(Foo, huge, \"{\\\"text\\\": \\\"\(huge)\\\"}\");\n", name: "huge",
                in: dir)
        }
    }

    @Test func areReadFromTheFileNeverFromTheRegistryCache() throws {
        let root = try Fixtures.folder()
        let plugins = root + "/plugins", cache = root + "/cache/cellkit"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: false)
        func build(_ sample: String) throws {
            try Fixtures.compileC(
                minimalPlugin("Foo") + "\nCK_PREVIEW(Foo, \(sample), \"{}\");\n", name: "foo", in: plugins)
        }
        func samples(_ catalog: Catalog) throws -> [String] {
            let found = try #require(catalog.registration(for: try CellIdentifier("Foo")))
            return catalog.plugin(at: found.pluginIndex).previewSymbols().samples.map(\.name)
        }
        try build("one")
        let first = Fixtures.cachedCatalog(plugins, cache: cache)
        #expect(try samples(first) == ["one"])
        #expect(try samples(Fixtures.cachedCatalog(plugins, cache: cache)) == ["one"], "a record from the cache")
        try build("two")
        #expect(try samples(Fixtures.cachedCatalog(plugins, cache: cache)) == ["two"])
        #expect(try samples(first) == ["two"], "a record read before the rebuild reads the file as it is now")
    }

    @Test func aFileThatNoLongerReadsGivesOneWarning() throws {
        let dir = try Fixtures.folder()
        let file = try plugin("CK_PREVIEW(Foo, a, \"{}\");", in: dir)
        try Data("not an ELF file".utf8).write(to: URL(fileURLWithPath: file.path))
        let previews = file.previewSymbols()
        #expect(previews.samples.isEmpty)
        #expect(previews.warnings.count == 1)
        #expect(previews.warnings.first?.hasPrefix("\(file.path): its previews cannot be read: ") == true)
    }
}
