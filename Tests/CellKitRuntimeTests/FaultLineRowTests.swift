// A fault line, as a signal handler writes it, names the row through RowName (CellKitModel): from
// 1, with the index path from 0 beside it (issue 41). RowName's own forms: CellKitModelTests.

import CellKitDiscovery
import CellKitModel
import Foundation
import Testing

@testable import CellKitRuntime

@Suite("Row numbers in fault lines")
struct FaultLineRowTests {
    @Test("a crash line names the row from 1 with its index path (FaultLine, as a signal handler writes it)")
    func crashLine() {
        let (record, release) = HookDispatchTests.progressRecord(type: "Crashy", file: "libcrashy.so")
        defer { release() }
        HookProgress.enter(record, .customizeCell, poolSlot: 0, indexPath: CellKitModel.IndexPath(section: 1, row: 0))
        #expect(
            FaultLine.text(record, .signal(SIGSEGV))
                == "libcrashy.so: customizeCellForCrashy crashed (SIGSEGV) at row 2.1 (indexPath [1, 0])")
    }
}
