// A worker pins the plugins it may load as they are when its sandbox closes: each judged again
// on real ids (discovery may have judged it a while before), unless permissions are waived;
// a file changed after it was pinned is refused. (The process-wide pin itself is not taken
// here: it would seal the test process.)

import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDiscovery

@Suite("Plugins pinned as they are when the sandbox closes")
struct DecidedTrustTests {
    @Test("a plugin whose folder became writable by others since discovery is refused when pinned; waived, it pins")
    func judgedAgain() throws {
        let root = try Fixtures.folder("decidedtrust")
        let safe = root + "/safe", open = root + "/open"
        for folder in [safe, open] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        }
        for folder in [safe, open] {
            try FileManager.default.copyItem(
                atPath: Fixtures.buildDirectory + "/libFoobarCells.so", toPath: folder + "/libFoobarCells.so")
        }
        chmod(open, 0o777)  // writable by others, not sticky: anyone could have put the file there
        let safePlugin = safe + "/libFoobarCells.so", openPlugin = open + "/libFoobarCells.so"

        let pins = DecidedTrust.judged([safePlugin, openPlugin], checkingTrust: true)
        #expect(DecidedTrust.problem(forPlugin: safePlugin, in: pins) == nil)
        let refused = DecidedTrust.problem(forPlugin: openPlugin, in: pins)
        #expect(refused?.path == open, "\(String(describing: refused))")
        #expect(refused?.reason.contains("writable") == true, "\(String(describing: refused))")
        #expect(DecidedTrust.problem(forPlugin: root + "/other.so", in: pins)?.reason.contains("not judged") == true)

        let waived = DecidedTrust.judged([openPlugin], checkingTrust: false)
        #expect(DecidedTrust.problem(forPlugin: openPlugin, in: waived) == nil)

        // Changed after it was pinned: refused by its identity.
        try Data("swapped".utf8).write(to: URL(fileURLWithPath: safePlugin))
        #expect(DecidedTrust.problem(forPlugin: safePlugin, in: pins)?.reason.contains("changed") == true)
    }
}
