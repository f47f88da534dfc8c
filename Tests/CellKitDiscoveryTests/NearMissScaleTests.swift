import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDiscovery

@Suite("Near misses in a plugin with many identifiers: the same as comparing every symbol with every identifier")
struct NearMissScaleTests {
    /// The check as it was before `IdentifierSuffixes`: every identifier tried against every
    /// symbol, in order. The new one must give exactly what this gives.
    static func quadratic(_ name: String, identifiers: [String]) -> NearMiss? {
        guard HookKind.parse(symbol: name) == nil else { return nil }
        for identifier in identifiers where name.hasSuffix(identifier) && name.count > identifier.count {
            let prefix = String(name.dropLast(identifier.count))
            for kind in HookKind.byPrefixLength where prefix != kind.prefix {
                let distance = editDistance(prefix, kind.prefix)
                guard distance <= 2 else { continue }
                let hook = kind.prefix + identifier
                return NearMiss(
                    symbol: name, suggestion: hook,
                    explanation: "\(distance) letter\(distance == 1 ? "" : "s") from \(hook), "
                        + "a hook of cell type '\(identifier)': as spelled it is never called")
            }
        }
        return nil
    }

    /// Text that `hasSuffix` and `count` treat as more or less than its bytes: a combining
    /// accent, the Kelvin sign (canonically "K"), a prepended mark that joins the next letter,
    /// a joiner, a flag, CR LF, a precomposed letter.
    static let awkward = ["\u{0301}", "\u{212A}", "\u{0600}", "\u{200D}", "🇫🇷", "\r\n", "é", "_", "9"]

    /// A random identifier from a small alphabet (so that identifiers end with one another).
    static func identifier(_ rng: inout SplitMix64) -> String {
        let letters = Array("abKk")
        let first = letters[Int(rng.next() % UInt64(letters.count))]
        let length = Int(rng.next() % 4)
        return String(first) + String((0..<length).map { _ in Array("aK_1")[Int(rng.next() % 4)] })
    }

    /// A hook prefix with up to three random edits, some of them awkward text.
    static func prefix(_ rng: inout SplitMix64) -> String {
        var prefix = Array(HookKind.allCases[Int(rng.next() % 4)].prefix).map(String.init)
        for _ in 0..<Int(rng.next() % 4) {
            let at = Int(rng.next() % UInt64(prefix.count))
            let text =
                rng.next() % 3 == 0
                ? awkward[Int(rng.next() % UInt64(awkward.count))] : String(Array("xCcel")[Int(rng.next() % 5)])
            switch rng.next() % 3 {
            case 0: prefix.insert(text, at: at)
            case 1: prefix[at] = text
            default: if prefix.count > 1 { prefix.remove(at: at) }
            }
        }
        return prefix.joined()
    }

    @Test("randomized symbols and identifiers, awkward Unicode included: the same near miss for every symbol")
    func randomized() {
        var rng = SplitMix64(seed: 47)
        var compared = 0, found = 0
        for _ in 0..<300 {
            let identifiers = (0..<Int(1 + rng.next() % 12)).map { _ in Self.identifier(&rng) }
            let index = IdentifierSuffixes(identifiers)
            for _ in 0..<40 {
                var name = Self.prefix(&rng)
                switch rng.next() % 4 {
                case 0: name += identifiers[Int(rng.next() % UInt64(identifiers.count))]
                case 1: name += Self.awkward[Int(rng.next() % UInt64(Self.awkward.count))] + Self.identifier(&rng)
                case 2: name += Self.identifier(&rng).replacingOccurrences(of: "K", with: "\u{212A}")
                default: name = String(name.prefix(Int(rng.next() % 30)))
                }
                let expected = Self.quadratic(name, identifiers: identifiers)
                #expect(
                    NearMiss.misspelledHook(name, identifiers: index) == expected,
                    "\(name.debugDescription) with \(identifiers)")
                compared += 1
                if expected != nil { found += 1 }
            }
        }
        #expect(found > 1000, "the inputs make near misses often enough to compare (\(found) of \(compared))")
    }

    @Test("edge cases: a name only an identifier long, a hook itself, identifiers that end one another, Unicode")
    func edges() {
        let identifiers = ["Foo", "oo", "Foo", "K", "Bar", "ar", "x\u{301}"]
        let index = IdentifierSuffixes(identifiers)
        let names = [
            "Foo", "oo", "", "initCellForFoo", "initCelForFoo", "initCellForoo", "customiseCellForFoo",
            "heightForCelForar", "initCellFor\u{212A}", "initCelFor\u{212A}", "initCelFor\u{0600}Foo",
            "initCelFor\u{0301}Foo", "initCelForx\u{301}", "initCelForé\u{301}", "prepareCellForReuseFoBar",
            "prepareCellForReusFor\u{1F1EB}\u{1F1F7}Bar", "initCellFo\r\nFoo", "xxinitCelForFoo", "itCelForFoo",
            String(repeating: "a", count: 500) + "Foo", "initCelFor" + String(repeating: "K", count: 300),
        ]
        for name in names {
            #expect(
                NearMiss.misspelledHook(name, identifiers: index)
                    == Self.quadratic(name, identifiers: identifiers), "\(name.debugDescription)")
        }
        #expect(NearMiss.misspelledHook("initCelFor\u{212A}", identifiers: index)?.suggestion == "initCellForK")
        #expect(NearMiss.misspelledHook("initCelForFoo", identifiers: index)?.suggestion == "initCellForFoo")
    }

    @Test("each symbol of a plugin with 20,000 identifiers is compared with at most a few of them")
    func fewCandidates() {
        let identifiers = (0..<20_000).map { "T\($0)" } + ["X"]
        let index = IdentifierSuffixes(identifiers)
        let symbols = identifiers.map { "initCellFor" + $0 } + identifiers.map { "customiseCellFor" + $0 }
        let candidates = symbols.map { index.candidates(for: $0).count }
        // "customiseCellForT12" ends with T12 after 16 bytes, and with nothing else any identifier is.
        #expect(candidates.max() == 1)
        #expect(index.candidates(for: "initCelForT1X") == [20_000], "only the identifier after a prefix's length")
    }

    @Test("a compiled plugin with 2,000 identifiers: the near misses the old check found, in its order")
    func compiledPlugin() throws {
        let dir = try Fixtures.folder()
        var source = "#include \"cellkit.h\"\nCK_PLUGIN(\"Many\", \"1.0.0\", \"many identifiers\");\n"
        let hook = "(ck_cell *c, ck_index_path p) { (void)c; (void)p; }\n"
        let identifiers = (0..<2000).map { "T\($0)" }
        for id in identifiers { source += "CK_EXPORT void initCellFor\(id)\(hook)" }
        let misspelled = ["initCelForT7", "customiseCellForT1999", "heigthForCellForT12", "prepareCelForReuseForT3"]
        for name in misspelled + ["initCellForX9", "helperT42"] { source += "CK_EXPORT void \(name)\(hook)" }
        let path = try Fixtures.compileC(source, name: "many", in: dir)
        let plugin = try PluginFile.read(path: path).get()
        let found = plugin.nearMisses.filter { $0.explanation.contains("as spelled it is never called") }
        let sorted = identifiers.sorted()  // the declared types, as discovery orders them
        let expected = misspelled.compactMap { Self.quadratic($0, identifiers: sorted) }
        #expect(found.map(\.symbol).sorted() == misspelled.sorted())
        #expect(Set(found.map(\.description)) == Set(expected.map(\.description)))
        #expect(plugin.cellTypes.count == 2001)
    }
}
