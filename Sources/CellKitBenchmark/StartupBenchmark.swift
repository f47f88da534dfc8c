// `cellkit-bench startup`: how long a small table takes, whole process, against the tools a
// user would otherwise reach for. `cellkit render Manifests/Tables/seed-004-foobar.yaml`
// (plugins in a worker, the default), the same with `--no-isolation`, and `cellkit --version`
// (the process alone), beside `column -t` and `sqlite3 -box` printing the same four rows,
// run alternating, round after round, each timed from spawn to exit; medians printed.

import Foundation

enum StartupBenchmark {
    static let rounds = Benchmarks.setting("CELLKIT_BENCH_ROUNDS", default: 201)
    /// The target for the render with isolation on (issue 23): 3.5 ms, median, whole process.
    static let target = 0.0035

    /// The four rows the table shows, as the other tools get them.
    static let rows = [("Foobar", "Row: 0"), ("Foobar", "Row: 1"), ("Bar", "First bar"), ("Bar", "Second bar")]

    static func run() throws {
        let cellkit = try Benchmarks.cellkit()
        let table = FileManager.default.currentDirectoryPath + "/Manifests/Tables/seed-004-foobar.yaml"
        guard FileManager.default.fileExists(atPath: table) else {
            throw RenderBenchmark.Failure("run it from the package's folder: no \(table)")
        }
        let root = try Benchmarks.temporaryFolder("startup")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let tsv = root + "/rows.tsv"
        try (["cell\ttext"] + rows.map { "\($0.0)\t\($0.1)" }).joined(separator: "\n").appending("\n")
            .write(toFile: tsv, atomically: true, encoding: .utf8)
        let values = rows.map { "('\($0.0)', '\($0.1)')" }.joined(separator: ", ")
        let environment = [
            "XDG_CACHE_HOME=\(root)/cache", "XDG_DATA_HOME=\(root)/data", "HOME=\(root)", "PATH=/usr/bin:/bin",
        ]
        var variants: [(name: String, run: ListBenchmark.Run)] = [
            (
                "cellkit render (worker)",
                .init(executable: cellkit, arguments: ["render", table], environment: environment)
            ),
            (
                "cellkit render (worker, --sandbox off)",
                .init(executable: cellkit, arguments: ["render", table, "--sandbox", "off"], environment: environment)
            ),
            (
                "cellkit render --no-isolation",
                .init(executable: cellkit, arguments: ["render", table, "--no-isolation"], environment: environment)
            ),
            ("cellkit --version", .init(executable: cellkit, arguments: ["--version"], environment: environment)),
        ]
        if let column = tool("column") {
            variants.append(("column -t", .init(executable: column, arguments: ["-t", tsv], environment: environment)))
        }
        if let sqlite = tool("sqlite3") {
            variants.append(
                (
                    "sqlite3 -box",
                    .init(
                        executable: sqlite,
                        arguments: [
                            "-box", ":memory:", "select column1 as cell, column2 as text from (values \(values))",
                        ],
                        environment: environment)
                ))
        }
        for variant in variants { _ = try variant.run.time() }  // warm: the cache written, the pages in
        var times = Array(repeating: [Double](), count: variants.count)
        for _ in 0..<rounds {
            for (i, variant) in variants.enumerated() { times[i].append(try variant.run.time()) }
        }
        print(
            "cellkit-bench startup: a 4-row table (seed-004-foobar.yaml), whole process, \(rounds) rounds alternating")
        print("  what                               median      p10      p90")
        for (i, variant) in variants.enumerated() {
            let sorted = times[i].sorted()
            func at(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] * 1000 }
            let name = variant.name.padding(toLength: 32, withPad: " ", startingAt: 0)
            print(String(format: "  %@ %6.2f ms %6.2f ms %6.2f ms", name, at(0.5), at(0.1), at(0.9)))
        }
        if tool("sqlite3") == nil { print("  (no sqlite3 on PATH: apt-get install sqlite3 to time it beside)") }
        let median = times[0].sorted()[times[0].count / 2]
        print(
            String(
                format: "  target: render with isolation ≤ %.1f ms median: %@ (%.2f ms)", target * 1000,
                median <= target ? "met" : "not met", median * 1000))
    }

    /// The path of `name` in /usr/bin or /bin, if it is there.
    static func tool(_ name: String) -> String? {
        ["/usr/bin/", "/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
