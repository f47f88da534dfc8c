// `cellkit-bench render same-work`: cellkit against the least a program must do to print the wrapped
// table. The C formatter (`Reference/reference-formatter.c`, built now with `cc -O2`) writes the bytes
// `cellkit render` writes for the 1,000,000-row wrapped table (BenchWrapped, a C plugin's cell: a
// title, a description wrapped at 40 columns, a column of CJK and emoji words); the two outputs are
// compared byte for byte on a 20,000-row table first, and the benchmark stops if they differ. Then
// whole processes, output to /dev/null, in pairs (which of the two goes first alternates): the
// median of the pairs' ratios of wall time. And the instructions a row of each, counted by
// callgrind as the difference between 24,000 and 4,000 rows (start-up taken off), cellkit with its
// plugins in the process (a worker's instructions are another process's).

import Foundation

enum SameWorkBenchmark {
    /// Targets (issue 33): cellkit's wall time and instructions a row at most these times the C formatter's.
    static let wallTarget = 2.5, instructionTarget = 4.0
    /// Rows timed; rows compared byte for byte first; the two sizes whose instructions are subtracted.
    static let rows = 1_000_000, comparedRows = 20_000, sizes = (4_000, 24_000)

    /// Builds the C formatter, compares the outputs, then prints the ratios and their targets.
    static func run() throws {
        let cellkit = try Benchmarks.cellkit()
        let folder = try Benchmarks.temporaryFolder("same-work")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let formatter = try References.cFormatter(in: folder)
        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        /// The two commands on the `n`-row table.
        func commands(_ n: Int) throws -> (cellkit: ListBenchmark.Run, c: ListBenchmark.Run) {
            let table = try RenderBenchmark.generateWrapped(rows: n, in: folder)
            let data = folder + "/wrapped-\(n).jsonl"
            return (
                .init(executable: cellkit, arguments: ["render", table, "--width", "80"], environment: environment),
                .init(executable: formatter, arguments: ["80", "Wrapped", data], environment: environment)
            )
        }

        let compared = try commands(comparedRows)
        try compare(compared.cellkit, compared.c, in: folder)
        print(
            "Same work: the wrapped table (BenchWrapped, C plugin), text, width 80, to /dev/null: cellkit render"
                + " beside a C formatter writing the same bytes (the first \(comparedRows) rows compared: identical)")

        let timed = try commands(rows)
        _ = try timed.c.time()  // the table's pages in, both programs' too
        _ = try timed.cellkit.time()
        var ratios: [Double] = [], ck: [Double] = [], c: [Double] = [], cpuRatios: [Double] = []
        for pair in 0..<max(5, RenderBenchmark.runs) {
            let order = pair % 2 == 0 ? [timed.c, timed.cellkit] : [timed.cellkit, timed.c]
            let runs = try order.map { run in
                let before = childCPU()
                let wall = try run.time()
                return (wall, childCPU() - before)
            }
            let (rc, rk) = pair % 2 == 0 ? (runs[0], runs[1]) : (runs[1], runs[0])
            (ratios, ck, c) = (ratios + [rk.0 / rc.0], ck + [rk.0], c + [rc.0])
            cpuRatios.append(rk.1 / rc.1)
        }
        let wall = ListBenchmark.median(ratios)
        print(String(format: "%d rows, %d pairs in turns, whole processes:", rows, ratios.count))
        print(
            String(
                format: "  cellkit render   %7.3f s  %10.0f rows/s (median)\n  C formatter      %7.3f s  %10.0f rows/s",
                ListBenchmark.median(ck), Double(rows) / ListBenchmark.median(ck), ListBenchmark.median(c),
                Double(rows) / ListBenchmark.median(c)))
        print(
            String(
                format: "  wall time: cellkit / C %.2fx, median of pairs (pairs %.2f–%.2fx); target <= %.1fx: %@", wall,
                ratios.min()!, ratios.max()!, wallTarget, ListBenchmark.verdict(wall <= wallTarget)))

        print(
            String(
                format: "  CPU time (user + system, all processes): cellkit / C %.2fx, median of pairs (%.2f–%.2fx)",
                ListBenchmark.median(cpuRatios), cpuRatios.min()!, cpuRatios.max()!))

        // Instructions a row: the difference between two sizes, so that start-up is taken off.
        let small = try commands(sizes.0), large = try commands(sizes.1)
        func perRow(_ a: ListBenchmark.Run, _ b: ListBenchmark.Run) throws -> Double? {
            guard let x = try References.instructions(a.executable, a.arguments, environment: a.environment),
                let y = try References.instructions(b.executable, b.arguments, environment: b.environment)
            else { return nil }
            return Double(y - x) / Double(sizes.1 - sizes.0)
        }
        let inProcess = ["--no-isolation"], counted = try References.withoutDebugInformation(cellkit, in: folder)
        // Each size run once first, uncounted: a new executable's first runs rewrite the registry
        // cache and diagnose the plugin's near misses once, which landed in one of the two counts and
        // moved the figure a row between runs (BENCHMARKS.md, "Measurements behind the code":
        // SameWork.warmup).
        for run in [small.cellkit, large.cellkit] {
            _ = try ListBenchmark.Run(
                executable: counted, arguments: run.arguments + inProcess, environment: environment
            )
            .time()
        }
        guard
            let kRow = try perRow(
                .init(
                    executable: counted, arguments: small.cellkit.arguments + inProcess, environment: environment),
                .init(
                    executable: counted, arguments: large.cellkit.arguments + inProcess, environment: environment)),
            let cRow = try perRow(small.c, large.c)
        else {
            print("  instructions: not counted (no valgrind on PATH: apt-get install valgrind)")
            return
        }
        print(
            String(
                format:
                    "  instructions a row (callgrind, %d → %d rows; cellkit --no-isolation, all threads): cellkit %.0f, C %.0f",
                sizes.0, sizes.1, kRow, cRow))
        print(
            String(
                format: "  instructions: cellkit / C %.2fx; target <= %.1fx: %@", kRow / cRow, instructionTarget,
                ListBenchmark.verdict(kRow / cRow <= instructionTarget)))
    }

    /// CPU seconds (user and system) of the children waited for so far, theirs included.
    static func childCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Runs both commands with their output to files and stops the benchmark, naming the first line
    /// that differs, unless the bytes are the same.
    static func compare(_ cellkit: ListBenchmark.Run, _ c: ListBenchmark.Run, in folder: String) throws {
        let a = try output(of: cellkit, to: folder + "/cellkit.txt")
        let b = try output(of: c, to: folder + "/c.txt")
        guard a != b else { return }
        let kept = NSTemporaryDirectory() + "cellkit-bench-same-work-"
        try? a.write(to: URL(fileURLWithPath: kept + "cellkit.txt"))
        try? b.write(to: URL(fileURLWithPath: kept + "c.txt"))
        let x = a.split(separator: 0x0A, omittingEmptySubsequences: false)
        let y = b.split(separator: 0x0A, omittingEmptySubsequences: false)
        let line = (0..<min(x.count, y.count)).first { x[$0] != y[$0] } ?? min(x.count, y.count)
        func text(_ lines: [Data.SubSequence], _ i: Int) -> String {
            i < lines.count ? String(decoding: lines[i], as: UTF8.self) : "(no line: the output ends)"
        }
        throw RenderBenchmark.Failure(
            """
            the C formatter's output is not cellkit's (\(b.count) bytes against \(a.count)); line \(line + 1):
              cellkit: \(text(x, line))
              C:       \(text(y, line))
            Both outputs are kept: \(kept)cellkit.txt and \(kept)c.txt.
            """)
    }

    /// What `run` writes to its standard output (kept in `file`).
    static func output(of run: ListBenchmark.Run, to file: String) throws -> Data {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: run.executable)
        child.arguments = run.arguments
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        child.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try child.run()
        child.waitUntilExit()
        guard child.terminationStatus == 0 else {
            throw RenderBenchmark.Failure("\(run.executable) \(run.arguments.joined(separator: " ")) failed")
        }
        return try Data(contentsOf: URL(fileURLWithPath: file))
    }
}
