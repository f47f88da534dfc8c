// A plugin written in C++ (Examples/CppPlugin), built with g++ and with clang++ exactly as a C
// plugin is built with cc: cellkit.h must compile as C++ (static_assert, not _Static_assert),
// and its macros must give the descriptor and hooks C names with external linkage, or `list`
// finds no `cellkit_plugin` descriptor and no hook.

import CellKitTestSupport
import Foundation
import Testing

@Suite("C++ plugins: cellkit.h under g++ and clang++")
struct CppPluginTests {
    let command = CellKitTool()

    /// CI sets CELLKIT_REQUIRE_CXX=1 (after installing both compilers): a missing one fails there.
    static let required = ProcessInfo.processInfo.environment["CELLKIT_REQUIRE_CXX"] == "1"

    /// Whether `compiler` can be tested: installed, or required (and then the test says it is missing).
    static func available(_ compiler: String) -> Bool { required || Fixtures.tool(compiler) != nil }

    @Test(
        "The C++ example plugin built with g++ lists and renders",
        .enabled(if: available("g++"), "g++ is not installed (apt-get install g++); CI installs it"))
    func gxx() throws { try check(compiler: "g++") }

    @Test(
        "The C++ example plugin built with clang++ lists and renders",
        .enabled(if: available("clang++"), "clang++ is not installed (apt-get install clang); CI installs it"))
    func clangxx() throws { try check(compiler: "clang++") }

    /// Builds Examples/CppPlugin/TallyCells.cpp with `compiler` (warnings as errors), then lists
    /// it and renders Examples/CppPlugin/tally.yaml with it through the built `cellkit`.
    func check(compiler: String) throws {
        let path = try #require(Fixtures.tool(compiler), "\(compiler) is not on PATH")
        let dir = try Fixtures.folder("cpp-\(compiler)")
        let example = Fixtures.repositoryRoot + "/Examples/CppPlugin"
        let library = dir + "/libTallyCells.so"
        _ = try Fixtures.output(
            path,
            [
                "-std=c++17", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-shared", "-fPIC", "-I",
                Fixtures.headerDirectory, example + "/TallyCells.cpp", "-o", library,
            ])

        let (listed, list) = try command.cellkit(["list", "--plugin-path", dir])
        #expect(listed == 0, "\(list)")
        #expect(list.contains("  Tally  TallyCells 1.0.0  \(library)"), "list shows the descriptor:\n\(list)")
        for line in [
            "initCellForTally       void (cell, indexPath)", "customizeCellForTally  void (cell, row, data)",
            "heightForCellForTally  double (cell, data)",
        ] {
            #expect(list.contains(line), "list shows \(line):\n\(list)")
        }
        #expect(!list.contains("exports no"), "\(list)")

        // CK_PREVIEW under C++: C names with external linkage, read from the file like the descriptor.
        let (inspected, samples) = try command.cellkit(["inspect", library])
        #expect(inspected == 0, "\(samples)")
        #expect(samples.contains("      previews (5):\n"), "inspect lists the previews:\n\(samples)")
        #expect(samples.contains(#"typical  {"name":"Ada","votes":5}  (symbol cellkit_preview_Tally_typical)"#))
        #expect(!samples.contains("preview warnings"), "\(samples)")

        let (rendered, table) = try command.cellkit([
            "render", example + "/tally.yaml", "--plugin-path", dir, "--width", "40",
        ])
        #expect(rendered == 0, "\(table)")
        for text in [
            "TALLY (C++)", "\n Ada                          ★★★★★ 5/5 \n",
            "\n Grace                        ★★★☆☆ 3/5 \n",
            "\n Entry 2                      ★★★★★ 5/5 \n",
        ] {
            #expect(table.contains(text), "render shows \(text):\n\(table)")
        }
        #expect(!table.contains("warning"), "render warns about nothing:\n\(table)")
    }
}
