// The benchmarks' own plugin, BenchmarkCells: built from its source into a private folder at
// start-up and put first on CELLKIT_PLUGIN_PATH, so that it is never installed beside a user's
// `cellkit` (where `cellkit list` would show its cell types) and every process the benchmarks
// start finds it.

import Foundation

enum BenchmarkPlugin {
    /// Where a benchmark process that built the plugin put it; its children find it here.
    static let folderVariable = "CELLKIT_BENCH_PLUGIN_FOLDER"

    /// Builds `Plugins/BenchmarkCells` with `cc -O2` once per run (children inherit the folder), and
    /// puts its folder first on `CELLKIT_PLUGIN_PATH`; the folder is removed when the builder exits.
    static func install() throws {
        if getenv(folderVariable) != nil { return }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let source = root + "/Plugins/BenchmarkCells/BenchmarkCells.c"
        guard FileManager.default.fileExists(atPath: source) else {
            throw RenderBenchmark.Failure("no \(source): run cellkit-bench from the CellKit checkout it was built in")
        }
        let folder = try Benchmarks.temporaryFolder("plugins")
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = [
            "cc", "-O2", "-shared", "-fPIC", "-I", root + "/Sources/CCellKit/include", source,
            "-o", folder + "/libBenchmarkCells.so",
        ]
        try compiler.run()
        compiler.waitUntilExit()
        guard compiler.terminationStatus == 0 else { throw RenderBenchmark.Failure("cc could not build \(source)") }
        let path = [folder] + (getenv("CELLKIT_PLUGIN_PATH").map { [String(cString: $0)] } ?? [])
        setenv("CELLKIT_PLUGIN_PATH", path.joined(separator: ":"), 1)
        setenv(folderVariable, folder, 1)
        atexit {  // children inherit the variable but return above: only the builder removes the folder
            if let folder = getenv(BenchmarkPlugin.folderVariable) {
                try? FileManager.default.removeItem(atPath: String(cString: folder))
            }
        }
    }
}
