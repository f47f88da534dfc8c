import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDiscovery

@Suite("Near misses: symbols that miss the naming rule by a little")
struct NearMissTests {
    @Test("C symbols: wrong-case prefix, case-only identifier clash, invalid identifier, hidden hook, stray signature")
    func cSymbols() throws {
        let dir = try Fixtures.folder()
        let source = """
            #include "cellkit.h"
            CK_PLUGIN("Near", "1.0.0", "almost right");
            CK_EXPORT void initCellForFoo(ck_cell *c, ck_index_path p) { (void)c; (void)p; }
            CK_EXPORT void customizeCellForFoo(ck_cell *c, ck_index_path p) { (void)c; (void)p; }
            CK_EXPORT void initcellForFoo(ck_cell *c, ck_index_path p) { (void)c; (void)p; }
            CK_EXPORT void heightForCellForfoo(ck_cell *c, ck_index_path p) { (void)c; (void)p; }
            void dashed(ck_cell *c, ck_index_path p) __asm__("\\"initCellFor-Foo\\"");  /* quoted: '-' is not a plain assembler symbol */
            CK_EXPORT void dashed(ck_cell *c, ck_index_path p) { (void)c; (void)p; }
            __attribute__((visibility("hidden"))) void customizeCellForHidden(ck_cell *c, ck_index_path p) { (void)c; (void)p; }
            CK_SIGNATURE(customizeCellForGone, "(cell)");
            """
        let path = try Fixtures.compileC(source, name: "near", in: dir)
        let plugin = try PluginFile.read(path: path).get()
        let all = Dictionary(grouping: plugin.nearMisses, by: \.symbol)
        let found = all.mapValues { $0[0] }
        #expect(found["initcellForFoo"]?.suggestion == "initCellForFoo")
        #expect(all["heightForCellForfoo"]?.map(\.suggestion) == ["heightForCellForFoo", nil])
        #expect(
            all["heightForCellForfoo"]?[1].explanation
                == "cell type 'foo' has neither initCellForfoo nor customizeCellForfoo, so it is not registered")
        #expect(found["initCellFor-Foo"]?.suggestion == "initCellForFoo")
        #expect(
            found["initCellFor-Foo"]?.explanation
                == "'-Foo' is not an identifier: it must start with an ASCII letter, not '-'")
        #expect(found["customizeCellForHidden"]?.explanation.hasPrefix("defined but not exported") == true)
        #expect(found["cellkit_signature_customizeCellForGone"]?.explanation.contains("make it public") == true)
        #expect(plugin.nearMisses.count == 6, "\(plugin.nearMisses)")
        #expect(plugin.isUsable, "near misses are warnings: Foo still works")
        #expect(plugin.cellTypes.map(\.identifier.name) == ["Foo"], "the incomplete type 'foo' is not registered")
        #expect(
            "\(found["initcellForFoo"]!)"
                == "initcellForFoo: did you mean initCellForFoo? hook prefixes are case-sensitive: the rule is initCellFor<Identifier>"
        )
    }

    @Test("Swift: a hook without @_cdecl, and an internal @_cdecl hook")
    func swiftSymbols() throws {
        let dir = try Fixtures.folder()
        let swift = """
            public func initCellForSwifty(_ cell: UnsafeMutableRawPointer?, _ section: Int64, _ row: Int64) {}
            public func heightForCellForSwifty(_ row: Int64) -> Double { 2 }
            @_cdecl("customizeCellForInternal") func customizeInternal(_ cell: UnsafeMutableRawPointer?) {}
            @_cdecl("customizeCellForSwifty") public func customizeSwifty(_ cell: UnsafeMutableRawPointer?) {}
            """
        let descriptor = "#include \"cellkit.h\"\nCK_PLUGIN(\"Swifty\", \"1.0.0\", \"a Swift plugin\");"
        let plugin = try PluginFile.read(
            path: try Fixtures.compileSwift(swift, descriptor: descriptor, name: "Swifty", in: dir)
        ).get()
        let suggestions = plugin.nearMisses.compactMap(\.suggestion).sorted()
        #expect(
            suggestions == [
                "@_cdecl(\"customizeCellForInternal\") public func", "@_cdecl(\"heightForCellForSwifty\") public func",
                "@_cdecl(\"initCellForSwifty\") public func",
            ])
        let hidden = try #require(plugin.nearMisses.first { $0.symbol == "customizeCellForInternal" })
        #expect(hidden.explanation == "defined but not exported: \(NearMiss.swiftPublicRule)", "a Swift plugin's rule")
        #expect(plugin.cellTypes.map(\.identifier.name) == ["Swifty"])
        #expect(plugin.nearMisses.count == 3, "\(plugin.nearMisses)")
    }
}
