// A Swift hook left `internal` is exported by a debug build (SwiftPM's -enable-testing) but not by
// a release build: `inspect` and `check` know a Swift plugin by its ELF file and say why the hook
// is missing, whether its local symbol is left (a near miss) or stripped away (a note).

import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDiscovery
@testable import CellKitRuntime

@Suite("A Swift hook missing from a release build is explained")
struct SwiftReleaseHookTests {
    let command = CellKitTool()

    /// `swift` built as a release build is (`-O -wmo`) with a C descriptor into `dir/lib<name>.so`;
    /// also a stripped copy, `dir/lib<name>-stripped.so`.
    static func release(_ swift: String, name: String, in dir: String) throws -> (plain: String, stripped: String) {
        let (swiftPath, cPath, object) = (dir + "/\(name).swift", dir + "/descriptor.c", dir + "/descriptor.o")
        let plain = dir + "/lib\(name).so", stripped = dir + "/lib\(name)-stripped.so"
        try swift.write(toFile: swiftPath, atomically: true, encoding: .utf8)
        try "#include \"cellkit.h\"\nCK_PLUGIN(\"\(name)\", \"1.0.0\", \"a Swift plugin, release build\");\n"
            .write(toFile: cPath, atomically: true, encoding: .utf8)
        try Fixtures.run("/usr/bin/env", ["cc", "-c", "-fPIC", "-I", Fixtures.headerDirectory, cPath, "-o", object])
        try Fixtures.run(
            "/usr/bin/env",
            ["swiftc", "-O", "-wmo", "-emit-library", "-module-name", name, swiftPath, object, "-o", plain])
        try Fixtures.run("/usr/bin/env", ["strip", plain, "-o", stripped])
        return (plain, stripped)
    }

    @Test("an internal customize hook: a near miss with the rule; stripped, a note in inspect and check's finding")
    func internalCustomize() throws {
        let dir = try Fixtures.folder("swiftrelease")
        let built = try Self.release(
            """
            @_cdecl("initCellForRel")
            public func initCellForRel(_ cell: UnsafeMutableRawPointer?, _ section: Int64, _ row: Int64) {}
            @_cdecl("customizeCellForRel")
            func customizeCellForRel(_ cell: UnsafeMutableRawPointer?, _ section: Int64, _ row: Int64) {}

            """, name: "Rel", in: dir)
        let rule = NearMiss.swiftPublicRule

        let (status, text) = try command.cellkit(["inspect", built.plain])
        #expect(status == 0, "\(text)")
        #expect(
            text.contains(
                "customizeCellForRel: did you mean @_cdecl(\"customizeCellForRel\") public func? defined but not exported: \(rule)"
            ), "\(text)")
        #expect(!text.contains("notes:"), "the near miss explains it:\n\(text)")

        let (strippedStatus, strippedText) = try command.cellkit(["inspect", built.stripped])
        #expect(strippedStatus == 0, "\(strippedText)")
        #expect(!strippedText.contains("near misses:"), "nothing of the hook is left:\n\(strippedText)")
        #expect(
            strippedText.contains(
                "notes:\n    - Rel has no customizeCellForRel, so its rows show only what its other hooks set; if it is written, \(rule)"
            ), "\(strippedText)")

        let (checkStatus, checkText) = try command.cellkit(["check", built.stripped])
        #expect(checkStatus == 1, "\(checkText)")
        #expect(
            checkText.contains("FAIL the type has no customizeCellForRel hook") && checkText.contains(rule),
            "\(checkText)")
    }

    @Test("a Swift plugin whose every hook is internal, stripped: inspect and check say why it has no cell type")
    func noHookLeft() throws {
        let dir = try Fixtures.folder("swiftnohook")
        let built = try Self.release(
            """
            @_cdecl("customizeCellForGone")
            func customizeCellForGone(_ cell: UnsafeMutableRawPointer?, _ section: Int64, _ row: Int64) {}
            public func unrelated() -> Int { 42 }

            """, name: "Gone", in: dir)
        let rule = NearMiss.swiftPublicRule
        let (_, text) = try command.cellkit(["inspect", built.stripped])
        #expect(text.contains("a Swift plugin that exports no hook: \(rule)"), "\(text)")
        let (checkStatus, checkText) = try command.cellkit(["check", built.stripped])
        #expect(checkStatus == 2, "\(checkText)")
        #expect(checkText.contains("a Swift plugin that exports no cell type: \(rule)"), "\(checkText)")
    }

    @Test("a C plugin is not taken for a Swift one: a type without customize gets no Swift note")
    func cPluginHasNoSwiftNote() throws {
        let dir = try Fixtures.folder("cnoswift")
        let path = try Fixtures.compileC(
            "#include \"cellkit.h\"\nCK_PLUGIN(\"C\", \"1.0.0\", \"c\");\nCK_INIT_CELL_FOR(OnlyInit) {}\n",
            name: "onlyinit", in: dir)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try !ELFImage(bytes: data).isSwift)
        let (_, text) = try command.cellkit(["inspect", path])
        #expect(!text.contains("Swift"), "\(text)")
        let swiftPlugin = try Data(contentsOf: URL(fileURLWithPath: Fixtures.buildDirectory + "/libContactsCells.so"))
        #expect(try ELFImage(bytes: swiftPlugin).isSwift, "the bundled Swift plugin")
    }
}
