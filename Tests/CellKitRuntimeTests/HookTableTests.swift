// The hook table (`HookKind`): every hook it holds is found by discovery, shown by
// `cellkit list` and `inspect`, diagnosed when misspelt, and run by `cellkit check`,
// with nothing but the table to say so; and the table itself is complete: wire codes
// that round-trip, prefixes that shadow none, every hook declared in cellkit.h.

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDiscovery
@testable import CellKitRuntime

@Suite("The hook table: one place that names every hook")
struct HookTableTests {
    let command = CommandTests()

    /// The C type of a hook table result.
    static func cType(_ result: HookResult) -> String {
        switch result {
        case .void: "void"
        case .double: "double"
        case .float: "float"
        case .int32: "int32_t"
        }
    }

    /// A C plugin exporting `kind`'s hook for `identifier` with its standard signature (and, if
    /// `kind` does not register a type by itself, the first hook that does), and the same hook
    /// with its prefix's first letter in the wrong case.
    static func source(_ kind: HookKind, identifier: String) -> String {
        func hook(_ name: String, _ kind: HookKind) -> String {
            let result = kind.row.result
            let body = result == .void ? "(void)c; (void)p;" : "(void)c; (void)p; return 0;"
            return "CK_EXPORT \(cType(result)) \(name)(ck_cell *c, ck_index_path p) { \(body) }"
        }
        var lines = ["#include \"cellkit.h\"", "CK_PLUGIN(\"HookTable\", \"0.1.0\", \"one hook of the table\");"]
        lines.append(hook(kind.prefix + identifier, kind))
        if !kind.row.registersType, let registering = HookKind.registeringType.first {
            lines.append(hook(registering.prefix + identifier, registering))
        }
        lines.append(hook(misspelt(kind) + identifier, kind))
        return lines.joined(separator: "\n") + "\n"
    }

    /// `kind`'s prefix with its first letter's case changed: `InitCellFor`.
    static func misspelt(_ kind: HookKind) -> String {
        let first = kind.prefix.prefix(1)
        let swapped = first == first.lowercased() ? first.uppercased() : first.lowercased()
        return swapped + kind.prefix.dropFirst()
    }

    @Test(
        "each hook of the table is found by discovery, listed, inspected, diagnosed when misspelt and checked",
        arguments: HookKind.allCases)
    func everyHookEverywhere(_ kind: HookKind) throws {
        let identifier = "Table\(kind.wireCode)"
        let symbol = kind.prefix + identifier
        let dir = try Fixtures.folder("hooktable\(kind.wireCode)")
        let path = try Fixtures.compileC(Self.source(kind, identifier: identifier), name: "hooktable", in: dir)

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
        let miss = try #require(plugin.nearMisses.first { $0.symbol == Self.misspelt(kind) + identifier })
        #expect(miss.suggestion == symbol)
        #expect(miss.concerns(try CellIdentifier(identifier)))

        // The resolved type: the hook is dispatched.
        let registry = CellRegistry(catalog: catalog)
        #expect(try registry.cellType(named: identifier).hookKinds.contains(kind))

        // `cellkit list` and `cellkit inspect` show it, and the near miss.
        let (listStatus, list) = try command.cellkit(["list", "--plugin-path", dir])
        #expect(listStatus == 0, "\(list)")
        #expect(list.contains("      \(symbol)"), "list shows \(symbol):\n\(list)")
        #expect(list.contains("\(path): \(Self.misspelt(kind) + identifier): did you mean \(symbol)?"), "\(list)")
        let (inspectStatus, inspect) = try command.cellkit(["inspect", path])
        #expect(inspectStatus == 0, "\(inspect)")
        #expect(inspect.contains("\(symbol)"), "inspect shows \(symbol):\n\(inspect)")
        #expect(inspect.contains(" \(hook.signature)"), "with its signature:\n\(inspect)")
        #expect(inspect.contains("- \(Self.misspelt(kind) + identifier): did you mean \(symbol)?"), "\(inspect)")
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
                    && ($0["message"] as? String)?.contains(Self.misspelt(kind) + identifier) == true
            }, "check reports the misspelt hook:\n\(checkText)")
    }

    @Test("wire codes are unique and round-trip, through the progress record and its fault line")
    func wireCodes() throws {
        let codes = HookKind.allCases.map(\.wireCode)
        #expect(Set(codes).count == codes.count)
        #expect(codes == Array(0..<Int32(codes.count)), "numbered from 0 in table order: a new hook takes the next")
        for kind in HookKind.allCases {
            #expect(HookKind(wireCode: kind.wireCode) == kind)
            #expect(HookProgress.hook(code: HookProgress.code(kind)) == kind)
            #expect(FaultLine.prefix(kind.wireCode) == kind.prefix)
        }
        #expect(HookKind(wireCode: Int32(codes.count)) == nil)
        #expect(FaultLine.prefix(99) == "<unknown hook>", "a code no hook has is named as such, never as a hook")

        // A fault line written from a record naming each hook.
        let (record, release) = Self.progressRecord(type: "Tbl", file: "libt.so")
        defer { release() }
        for kind in HookKind.allCases {
            HookProgress.enter(record, kind, poolSlot: 0, indexPath: CellKitModel.IndexPath(section: 0, row: 2))
            #expect(
                FaultLine.text(record, .signal(SIGSEGV))
                    == "libt.so: \(kind.prefix)Tbl crashed (SIGSEGV) at row 1.3 (indexPath [0, 2])")
        }
    }

    /// A progress record, zeroed as a worker's is, naming one cell type `type` of library `file`
    /// (what a fault line reads); and what frees it.
    static func progressRecord(type: String, file: String) -> (UnsafeMutablePointer<HookProgress.Header>, () -> Void) {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: HookProgress.size, alignment: 4096)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: HookProgress.size)
        let record = memory.bindMemory(to: HookProgress.Header.self, capacity: 1)
        record.initialize(to: HookProgress.Header())
        for (offset, text) in [
            (HookProgress.typesOffset, type), (HookProgress.typesOffset + HookProgress.entryFileOffset, file),
        ] {
            let bytes = Array(text.utf8) + [0]
            (memory + offset).copyMemory(from: bytes, byteCount: bytes.count)
        }
        record.pointee.typeCount = 1
        return (record, { memory.deallocate() })
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
                "\(Self.cType(kind.row.result)) \(kind.prefix)<Id>(ck_cell *cell, ck_index_path indexPath);"
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
