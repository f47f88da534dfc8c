// The hook table (`HookKind`, CellKitDiscovery) in the runtime: every hook it holds is dispatched by
// the type that declares it, and its wire code round-trips through the progress record a worker
// writes and the fault line read from it. The table itself: HookTableTests (CellKitDiscoveryTests).

import CellKitDiscovery
import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitRuntime

@Suite("The hook table in the runtime: dispatched, and named in the progress record")
struct HookDispatchTests {
    @Test("each hook of the table is dispatched by the cell type that declares it", arguments: HookKind.allCases)
    func everyHookDispatched(_ kind: HookKind) throws {
        let identifier = "Table\(kind.wireCode)"
        let dir = try Fixtures.folder("hookdispatch\(kind.wireCode)")
        try Fixtures.compileC(HookTablePlugin.source(kind, identifier: identifier), name: "hooktable", in: dir)
        let registry = CellRegistry(catalog: Catalog(options: Fixtures.options([dir])))
        #expect(try registry.cellType(named: identifier).hookKinds.contains(kind))
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
        let (record, release) = HookDispatchTests.progressRecord(type: "Tbl", file: "libt.so")
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
}
