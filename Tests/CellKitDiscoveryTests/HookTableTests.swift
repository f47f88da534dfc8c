// The hook table (`HookKind`): every hook it holds is found by discovery, shown by
// `cellkit list` and `inspect`, diagnosed when misspelt, and run by `cellkit check`,
// with nothing but the table to say so; and the table itself is complete: wire codes
// that round-trip, prefixes that shadow none, every hook declared in cellkit.h.

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDiscovery

@Suite("The hook table: one place that names every hook")
struct HookTableTests {
    let command = CellKitTool()

    @Test(
        "each hook of the table is found by discovery, listed, inspected, diagnosed when misspelt and checked",
        arguments: HookKind.allCases)
    func everyHookEverywhere(_ kind: HookKind) throws {
        let identifier = "Table\(kind.wireCode)"
        let symbol = kind.prefix + identifier
        let dir = try Fixtures.folder("hooktable\(kind.wireCode)")
        let path = try Fixtures.compileC(
            HookTablePlugin.source(kind, identifier: identifier), name: "hooktable", in: dir)

        // Discovery: the file's record and the catalog.
        let plugin = try PluginFile.read(path: path).get()
        #expect(plugin.isUsable, "\(plugin.problems)")
        let type = try #require(plugin.cellTypes.first { $0.identifier.name == identifier })
        let hook = try #require(type.hook(kind), "discovery finds \(symbol)")
        #expect(hook.symbol == symbol)
        #expect(hook.signature == HookSignature.standard(for: kind))
        #expect(hook.signature.result == kind.row.result)
        let catalog = Catalog(options: Fixtures.options([dir]))
        let registration = try #require(catalog.registration(for: try CellIdentifier(identifier)))
        #expect(registration.declaration.hook(kind)?.symbol == symbol)

        // Near misses: the wrong-cased prefix, with the right name suggested.
        let miss = try #require(plugin.nearMisses.first { $0.symbol == HookTablePlugin.misspelt(kind) + identifier })
        #expect(miss.suggestion == symbol)
        #expect(miss.concerns(try CellIdentifier(identifier)))

        // The resolved type dispatches it: HookDispatchTests (CellKitRuntimeTests).

        // `cellkit list` and `cellkit inspect` show it, and the near miss.
        let (listStatus, list) = try command.cellkit(["list", "--plugin-path", dir])
        #expect(listStatus == 0, "\(list)")
        #expect(list.contains("      \(symbol)"), "list shows \(symbol):\n\(list)")
        #expect(
            list.contains("\(path): \(HookTablePlugin.misspelt(kind) + identifier): did you mean \(symbol)?"), "\(list)"
        )
        let (inspectStatus, inspect) = try command.cellkit(["inspect", path])
        #expect(inspectStatus == 0, "\(inspect)")
        #expect(inspect.contains("\(symbol)"), "inspect shows \(symbol):\n\(inspect)")
        #expect(inspect.contains(" \(hook.signature)"), "with its signature:\n\(inspect)")
        #expect(
            inspect.contains("- \(HookTablePlugin.misspelt(kind) + identifier): did you mean \(symbol)?"), "\(inspect)")
        let (_, json) = try command.cellkit(["inspect", "--json", path])
        #expect(json.contains("\"kind\" : \"\(kind.prefix)\""), "JSON names the hook by its prefix:\n\(json)")

        // `cellkit check` runs it (it is timed) and reports the near miss.
        let (_, checkText) = try command.cellkit(["check", path, "--json"])
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(checkText.utf8)) as? [String: Any], "\(checkText)")
        let types = try #require(report["cellTypes"] as? [[String: Any]], "\(checkText)")
        let checked = try #require(types.first { $0["identifier"] as? String == identifier }, "\(checkText)")
        #expect((checked["hooks"] as? [String])?.contains(symbol) == true, "check plans \(symbol):\n\(checkText)")
        let timings = (checked["timings"] as? [[String: Any]])?.compactMap { $0["hook"] as? String } ?? []
        #expect(timings.contains(symbol), "check ran and timed \(symbol):\n\(checkText)")
        let findings = (checked["findings"] as? [[String: Any]]) ?? []
        #expect(
            findings.contains {
                $0["kind"] as? String == "nearMiss"
                    && ($0["message"] as? String)?.contains(HookTablePlugin.misspelt(kind) + identifier) == true
            }, "check reports the misspelt hook:\n\(checkText)")
    }

    @Test("the table encodes each hook as its prefix, and decodes only prefixes")
    func coding() throws {
        for kind in HookKind.allCases {
            let data = try JSONEncoder().encode([kind])
            #expect(String(decoding: data, as: UTF8.self) == "[\"\(kind.prefix)\"]")
            #expect(try JSONDecoder().decode([HookKind].self, from: data) == [kind])
            #expect(HookKind(prefix: kind.prefix) == kind)
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([HookKind].self, from: Data("[\"initCell\"]".utf8))
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([HookKind].self, from: Data("[0]".utf8)) }
    }

    @Test("no prefix shadows another: each hook's symbol parses as that hook, for that identifier")
    func prefixes() throws {
        let id = try CellIdentifier("Foo")
        for kind in HookKind.allCases {
            #expect(HookKind.parse(symbol: kind.symbol(for: id))! == (kind, id))
            for other in HookKind.allCases where other != kind {
                #expect(kind.prefix != other.prefix)
                // Were one prefix the start of another, a symbol of the longer would also read as the shorter's.
                #expect(!kind.prefix.hasPrefix(other.prefix), "\(kind.prefix) starts with \(other.prefix)")
            }
        }
        #expect(!HookKind.registeringType.isEmpty, "some hook must register a cell type")
        #expect(HookKind.inRoutineOrder.map(\.row.moment) == HookKind.inRoutineOrder.map(\.row.moment).sorted())
        #expect(Set(HookKind.inRoutineOrder) == Set(HookKind.allCases))
    }

    @Test("every hook is declared and described in cellkit.h, the embedded copy and the tool's help")
    func documented() throws {
        let header = try String(contentsOfFile: Fixtures.headerDirectory + "/cellkit.h", encoding: .utf8)
        // The naming rule's comment, its lines joined without their leading " * ".
        let rule =
            header.components(separatedBy: "THE NAMING RULE").dropFirst().first?
            .components(separatedBy: "-----").first ?? ""
        let prose = rule.split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces).drop { $0 == "*" }.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
        for kind in HookKind.allCases {
            let declaration =
                "\(HookTablePlugin.cType(kind.row.result)) \(kind.prefix)<Id>(ck_cell *cell, ck_index_path indexPath);"
            #expect(
                prose.replacingOccurrences(of: "   ", with: " ").replacingOccurrences(of: "  ", with: " ")
                    .contains(declaration), "cellkit.h declares \(declaration)")
            #expect(prose.contains(kind.row.summary), "cellkit.h describes \(kind.prefix): \(kind.row.summary)")
        }
        let (_, help) = try command.cellkit(["--help"])
        let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for kind in HookKind.allCases {
            #expect(flat.contains(kind.prefix + "<Id>"), "the help names \(kind.prefix)<Id>:\n\(help)")
        }
    }
}
