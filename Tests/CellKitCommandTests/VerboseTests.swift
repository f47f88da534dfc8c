// `-v`/`--verbose`: where plugins are searched for, where each was found and why each file was
// skipped, on standard error, for every command that discovers plugins.

import CellKitTestSupport
import Foundation
import Testing

@Suite("--verbose says where plugins were found and why files were skipped")
struct VerboseTests {
    let spawner = CellKitTool()

    @Test("render -v, list --verbose, inspect -v and check -v: the search path, the plugins, the skipped files")
    func verbose() throws {
        let folder = try Fixtures.folder()
        try "not a library".write(toFile: folder + "/libjunk.so", atomically: true, encoding: .utf8)
        let table = Render.manifest("seed-004-foobar.yaml")
        for arguments in [
            ["render", table, "-v"], ["list", "--verbose"], ["inspect", "Foobar", "-v"], ["check", "Foobar", "-v"],
        ] {
            let (ending, text) = try spawner.run(arguments + ["--plugin-path", folder])
            #expect(ending == .exited(0), "\(arguments): \(text)")
            #expect(text.contains("cellkit: search path 1: \(folder) (--plugin-path)"), "\(arguments): \(text)")
            #expect(
                text.contains("cellkit: found \(Fixtures.buildDirectory)/libFoobarCells.so: Bar, Foobar"), "\(text)")
            #expect(text.contains("cellkit: skipped \(folder)/libjunk.so: "), "\(arguments): \(text)")
        }
    }
}
