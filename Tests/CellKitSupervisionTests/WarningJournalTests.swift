// Issue 41: one crashing plugin silenced every other warning of a render, even with --strict:
// a worker kept them in its memory until the table was complete. Each worker now writes them
// to a journal in the memory its supervisor shares, as they arise (`WarningJournal`).

import CellKitRendering
import CellKitRuntime
import CellKitSupervision
import CellKitTestSupport
import Foundation
import Testing

@Suite("warnings are never lost: a crash keeps every other warning of the render")
struct WarningJournalTests {
    /// A plugin with a near miss whose row 0 makes a failed host call and a refused read, and whose
    /// row 2 crashes; a table of it whose asset catalog has an image that is no image (a document
    /// warning). Returns the folder.
    static func noisyTable() throws -> String {
        let folder = try Render.write(
            [
                "t.yaml": "assets: assets.yaml\nsections:\n  - cell: Faulty\n    rows: 4\n",
                "assets.yaml": "images:\n  x: {glyph: \"*\", file: x.png}\n",
                "x.png": "not a picture\n",
                "outside.txt": "secret\n",
            ], name: "noisy")
        try FileManager.default.createDirectory(atPath: folder + "/plugins", withIntermediateDirectories: true)
        try Fixtures.compileC(
            ProcessModelTests.plugin(
                """
                if (ip.row == 0) {
                    cell->host->cell_set_int(cell, 9999, 1);  /* fails: no such property */
                    int fd = open("\(folder)/outside.txt", O_RDONLY);  /* refused: not in the readable set */
                    if (fd >= 0) close(fd);
                }
                if (ip.row == 2) \(IsolationTests.crash)
                """, extra: "#include <unistd.h>\nCK_EXPORT void initcellForFaulty(void) {}"),
            name: "noisy", in: folder + "/plugins")
        return folder
    }

    /// The four warnings the noisy table has besides its crash, each by the start of its line as
    /// `cellkit render` prints it (`Outcome.warnings` holds them without "warning: ").
    static func expected(_ folder: String) -> [String] {
        [
            "warning: libnoisy.so: cell type Faulty has a near miss: initcellForFaulty: did you mean initCellForFaulty?",
            "warning: libnoisy.so: customizeCellForFaulty: 1 host call failed; the first: cell_set_int: property 9999",
            "warning: libnoisy.so: customizeCellForFaulty tried to read a file outside the sandbox (\(folder)/outside.txt)",
            "warning: \(folder)/assets.yaml:2:25: image 'x': 'x.png' is not a PNG or SVG image",
        ]
    }

    @Test(
        "the crash, a near miss, a failed host call, a sandbox refusal and a document warning: all in Outcome.warnings")
    func outcomeKeepsThem() throws {
        let folder = try Self.noisyTable()
        var render = DocumentRender(
            documentPath: folder + "/t.yaml", discovery: Fixtures.options([folder + "/plugins"]))
        render.executable = Fixtures.buildDirectory + "/cellkit"  // this test process is no cellkit
        var faults: [String] = []
        let outcome = try render.run(to: StringSink()) { faults.append($0) }
        #expect(outcome.faulted)
        #expect(faults.count == 1 && faults[0].hasPrefix("libnoisy.so: customizeCellForFaulty crashed"), "\(faults)")
        for part in Self.expected(folder) {
            let line = String(part.dropFirst("warning: ".count))
            #expect(outcome.warnings.filter { $0.hasPrefix(line) }.count == 1, "\(line): \(outcome.warnings)")
        }
    }

    @Test("cellkit render prints them all after the crash, and --strict counts them")
    func renderPrintsThem() throws {
        let folder = try Self.noisyTable()
        let render = ["render", folder + "/t.yaml", "--plugin-path", folder + "/plugins"]
        let (ending, log) = try ProcessModelTests().run(ProcessModelTests.contained(render), timeout: 60)
        #expect(ending == .exited(3), "\(log)")
        for part in Self.expected(folder) { #expect(log.contains("\n" + part), "\(part): \(log)") }
        // --strict counts them beside the crash; the crash's status stays.
        let (faultedStrict, faultedLog) = try ProcessModelTests().run(
            ProcessModelTests.contained(render + ["--strict"]), timeout: 60)
        #expect(faultedStrict == .exited(3), "\(faultedLog)")
        #expect(faultedLog.contains("cellkit: --strict: 4 warnings; exit status 3, a plugin faulted"), "\(faultedLog)")
        // The same table with the crashing row gone: the same warnings, and --strict fails on them.
        try "assets: assets.yaml\nsections:\n  - cell: Faulty\n    rows: 2\n".write(
            toFile: folder + "/t.yaml", atomically: true, encoding: .utf8)
        let (strict, strictLog) = try ProcessModelTests().run(
            ProcessModelTests.contained(render + ["--strict"]), timeout: 60)
        #expect(strict == .exited(2), "\(strictLog)")
        for part in Self.expected(folder) { #expect(strictLog.contains("\n" + part), "\(part): \(strictLog)") }
    }

    @Test("journals merge: each warning once in the order first seen, failed host calls summed per hook")
    func merging() {
        let first = WarningJournal.Contents(
            warnings: ["a", "b"],
            failures: [
                FailedHostCalls(pluginFile: "libx.so", hook: "customizeCellForX", count: 2, first: "cell_set_int: no")
            ])
        let second = WarningJournal.Contents(
            warnings: ["b", "c"],
            failures: [
                FailedHostCalls(
                    pluginFile: "libx.so", hook: "customizeCellForX", count: 3, first: "view_with_tag: later"),
                FailedHostCalls(pluginFile: "liby.so", hook: "customizeCellForY", count: 1, first: "cell_set_text: no"),
            ])
        #expect(
            WarningJournal.merged([first, second]) == [
                "a", "b", "c", "libx.so: customizeCellForX: 5 host calls failed; the first: cell_set_int: no",
                "liby.so: customizeCellForY: 1 host call failed; the first: cell_set_text: no",
            ])
    }

    @Test(
        "a journal is read as untrusted bytes: fields kept on one line (a CR LF too), a length past the area, a bad magic"
    )
    func untrustedBytes() {
        let area = UnsafeMutableRawPointer.allocate(byteCount: WarningJournal.capacity, alignment: 8)
        defer { area.deallocate() }
        let journal = WarningJournal(area: area)
        #expect(WarningJournal.read(area) == WarningJournal.Contents())
        let context = CellContext()
        context.keep(in: journal)
        context.warn("first\twith a tab")
        #expect(WarningJournal.read(area).warnings == ["first with a tab"])
        context.warn("second\r\nover two lines\rand \u{1F1EF}\u{1F1F5}\n")  // "\r\n" is one Character
        #expect(
            WarningJournal.read(area).warnings == [
                "first with a tab", "second  over two lines and \u{1F1EF}\u{1F1F5} ",
            ])
        area.storeBytes(of: UInt32.max, toByteOffset: 4, as: UInt32.self)  // a length past the area
        #expect(WarningJournal.read(area).warnings.first == "first with a tab")
        area.storeBytes(of: 0, as: UInt32.self)  // no magic: nothing
        #expect(WarningJournal.read(area) == WarningJournal.Contents())
    }
}
