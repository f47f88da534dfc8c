// `cellkit-bench startup`: how long a small table takes, whole process, against the floor of this
// machine and the tools a user would otherwise reach for. `cellkit render
// Manifests/Tables/seed-004-foobar.yaml` (plugins in a worker, the default), the same with
// `--sandbox off` and with `--no-isolation`, `cellkit --version` and `cellkit --help`, beside an empty
// Swift program with Foundation linked, linked as `cellkit` is (built now: `References.emptySwift`;
// and one of the Swift runtime alone, whose linker dropped Foundation, for scale), `column -t` and
// `sqlite3 -box` printing the same four rows, and the sandbox's kernel steps alone in a small C
// program beside an empty C program (`Reference/sandbox-floor.c`: the floor a sandboxed render
// cannot go under), run alternating, round after round, each timed from
// spawn to exit; medians printed, and each target as the median of the rounds' ratios to the empty
// program (issue 43: the render with isolation and the sandbox on <= 2.5x, measured after issue 40's
// sandbox; --version and --help <= 1.3x).

import Foundation

enum StartupBenchmark {
    static let rounds = Benchmarks.setting("CELLKIT_BENCH_ROUNDS", default: 201)
    /// The targets (issue 43; issue 33 asked 2x of a render without the sandbox), as ratios to the
    /// empty Swift program: the isolated render with the sandbox on, and
    /// `--version` and `--help`.
    static let renderTarget = 2.5, flagTarget = 1.3

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
        let empty = try References.emptySwift(in: root)
        let runtime = try References.emptySwift(in: root, source: References.runtimeProgram, name: "runtime-swift")
        // The sandbox's kernel steps alone, in a small C process, beside an empty C process: the least
        // the worker's sandbox can add (Reference/sandbox-floor.c).
        let floor = try References.cFormatter(PackageResources.sandbox_floor_c, named: "sandbox-floor", in: root)
        let emptyC = try References.cFormatter(Array("int main(void) { return 0; }\n".utf8), named: "empty-c", in: root)
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
            ("cellkit --help", .init(executable: cellkit, arguments: ["--help"], environment: environment)),
            ("empty Swift program (reference)", .init(executable: empty, arguments: [], environment: environment)),
            (
                "Swift runtime alone (no Foundation)",
                .init(executable: runtime, arguments: [], environment: environment)
            ),
            (
                "C: the sandbox's steps (sandbox-floor)",
                .init(executable: floor, arguments: [], environment: environment)
            ),
            ("C: an empty program", .init(executable: emptyC, arguments: [], environment: environment)),
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
        print("  what                                     median      p10      p90")
        for (i, variant) in variants.enumerated() {
            let sorted = times[i].sorted()
            func at(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] * 1000 }
            print(String(format: "  %@ %6.2f ms %6.2f ms %6.2f ms", padded(variant.name), at(0.5), at(0.1), at(0.9)))
        }
        if tool("sqlite3") == nil { print("  (no sqlite3 on PATH: apt-get install sqlite3 to time it beside)") }
        // Ratios to the empty program, round by round (a busy moment slows a round's runs alike).
        let reference = variants.firstIndex { $0.name.hasPrefix("empty Swift") }!
        print("  ÷ the empty Swift program (median of the rounds' ratios):")
        let targets: [(Int, Double?)] = [
            (0, renderTarget), (1, nil), (2, nil), (3, flagTarget), (4, flagTarget), (reference + 1, nil),
        ]
        for (i, target) in targets {
            let ratio = ListBenchmark.median(zip(times[i], times[reference]).map { $0 / $1 })
            let name = padded(variants[i].name)
            let verdict = target.map { String(format: "target <= %.1fx: %@", $0, ListBenchmark.verdict(ratio <= $0)) }
            print(String(format: "  %@ %6.2fx   %@", name, ratio, verdict ?? ""))
        }
        floorLines(times, variants.map(\.name), reference: reference)
    }

    /// What the render target leaves once the sandbox's kernel steps are paid (`sandbox-floor.c`, in
    /// C, less an empty C program, round by round): the least an isolated, sandboxed render can
    /// take were the worker itself free, as a ratio to the empty Swift program.
    static func floorLines(_ times: [[Double]], _ names: [String], reference: Int) {
        guard let floor = names.firstIndex(where: { $0.hasPrefix("C: the sandbox") }),
            let emptyC = names.firstIndex(of: "C: an empty program"),
            let inProcess = names.firstIndex(of: "cellkit render --no-isolation")
        else { return }
        let steps = ListBenchmark.median(zip(times[floor], times[emptyC]).map { $0 - $1 })
        let own = ListBenchmark.median(zip(times[inProcess], times[reference]).map { $0 - $1 })
        let empty = ListBenchmark.median(times[reference])
        // Round by round, as the targets' ratios: (the render in one process + the steps) ÷ the reference.
        let least = ListBenchmark.median(
            times[0].indices.map {
                (times[inProcess][$0] + times[floor][$0] - times[emptyC][$0]) / times[reference][$0]
            })
        print(
            String(
                format: "  the sandbox's kernel steps alone (sandbox-floor.c less an empty C program): %.2f ms, %.2fx",
                steps * 1000, steps / empty))
        print(
            String(
                format:
                    "  least with the sandbox, the worker free: the empty program, the render's own work (%.2f ms) and those steps: %.2fx",
                own * 1000, least))
    }

    /// A variant's name padded for the tables.
    static func padded(_ name: String) -> NSString {
        name.padding(toLength: 38, withPad: " ", startingAt: 0) as NSString
    }

    /// The path of `name` in /usr/bin or /bin, if it is there.
    static func tool(_ name: String) -> String? {
        ["/usr/bin/", "/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
