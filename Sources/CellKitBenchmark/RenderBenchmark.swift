// `cellkit-bench render`: render generated tables of 100,000 to 1,000,000 rows,
// streamed from JSON Lines with three cell types from two plugins (Foobar and
// Bar from the C plugin FoobarCells, OtherCell from the Swift plugin
// ContactsCells), to text. Each size runs in its own process so that its peak
// resident memory is its own; rows per second are wall-clock, output to /dev/null.
// Beside it, the wrapped table people have: BenchWrapped cells (BenchmarkCells, C)
// with a title, a description of 12-28 words wrapped at 40 columns and a column of
// CJK and emoji words, five lines a row. `cellkit-bench render wrapped` runs that one only.
// For each, the 300,000-row table is also rendered with its rows read on the table's
// thread alone (no read-ahead helper, RowReader), in turns with the default, so the
// helper's gain is measured side by side.

import CellKit
import CellKitRendering
import Foundation

enum RenderBenchmark {
    static let sizes = [100_000, 300_000, 1_000_000]

    /// `render`, `render plain`, `render wrapped`, `render same-work`, `render formats [FORMAT...]`, or
    /// `render one TABLE [--one-thread]`
    /// (a size's own process; `--one-thread`: no read-ahead helper) and `render one-format TABLE FORMAT`.
    static func run(_ arguments: [String]) throws {
        if arguments.first == "one", arguments.count == 2 || arguments.count == 3 {
            try renderOne(arguments[1], readAhead: arguments.count == 2)
        } else if arguments.first == "one-format", arguments.count == 3,
            let format = DocumentRender.Format(rawValue: arguments[2])
        {
            try renderOne(arguments[1], readAhead: true, format: format)
        } else if arguments.first == "same-work" {
            try SameWorkBenchmark.run()
        } else if arguments.first == "formats" {
            let named = arguments.dropFirst().compactMap(DocumentRender.Format.init(rawValue:))
            try compareFormats(named.isEmpty ? DocumentRender.Format.allCases : [.text] + named.filter { $0 != .text })
        } else if arguments.first == "wrapped" || arguments.first == "plain" {
            try run(kinds: [arguments.first == "wrapped" ? .wrapped : .plain])
        } else {
            try run(kinds: [.plain, .wrapped])
        }
    }

    enum Kind { case plain, wrapped }

    /// Runs per size; the figure is their median (a shared machine's busy moment moves one run, not
    /// the median), printed with the fastest and the slowest.
    static let runs = Benchmarks.setting("CELLKIT_BENCH_RUNS", default: 5)

    /// Generates the tables, then renders each in child processes and prints the figures.
    static func run(kinds: [Kind]) throws {
        let folder = NSTemporaryDirectory() + "cellkit-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for kind in kinds {
            print(
                kind == .plain
                    ? "CellKit render benchmark: JSON Lines → text, width 80, 3 cell types from 2 plugins"
                    : "Wrapped rows: BenchWrapped (C), title + 12-28 words wrapped at 40 + CJK/emoji words, 5 lines a row"
            )
            print("one process per run, \(runs) runs per size; seconds and rows/s: the median run's (fastest–slowest)")
            print("      rows   seconds      rows/s  (fastest–slowest rows/s)   peak RSS")
            var slowest = Double.infinity, peaks: [Double] = []
            for rows in sizes {
                let table = try generate(kind, rows: rows, in: folder)
                var seconds: [Double] = [], kib = 0.0
                for _ in 0..<runs {
                    let run = try renderChild(table, rows: rows)
                    seconds.append(run.0)
                    kib = max(kib, run.1)
                }
                seconds.sort()
                let median = seconds[seconds.count / 2], r = Double(rows)
                print(
                    String(
                        format: "%10d %9.3f %11.0f  (%7.0f–%7.0f)       %7.1f MiB", rows, median, r / median,
                        r / seconds.first!, r / seconds.last!, kib / 1024))
                slowest = min(slowest, r / median)
                peaks.append(kib / 1024)
                try? FileManager.default.removeItem(atPath: table)
            }
            let flat = peaks.max()! - peaks.min()! <= 4  // MiB between 100,000 and 1,000,000 rows
            // Speed has no fixed target here: it is a ratio to a C formatter's (`render same-work`).
            print(
                String(
                    format: "slowest size %.0f rows/s (speed target: render same-work); <= 64 MiB peak, flat: %@",
                    slowest, peaks.max()! <= 64 && flat ? "met" : "NOT MET"))
            try compareReadAhead(kind, rows: 300_000, in: folder)
        }
        // Isolation's cost is measured on the plain table (the workload it was first measured on).
        if kinds.contains(.plain) { try compareIsolation(rows: sizes.last!, in: folder) }
    }

    /// A table of `kind` with `rows` rows.
    static func generate(_ kind: Kind, rows: Int, in folder: String) throws -> String {
        try kind == .plain ? generate(rows: rows, in: folder) : generateWrapped(rows: rows, in: folder)
    }

    /// Renders `table` in a child process (`render one`); its seconds, peak resident KiB and CPU seconds.
    static func renderChild(
        _ table: String, rows: Int, readAhead: Bool = true, format: DocumentRender.Format? = nil
    ) throws -> (seconds: Double, kib: Double, cpu: Double) {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments =
            format.map { ["render", "one-format", table, $0.rawValue] }
            ?? ["render", "one", table] + (readAhead ? [] : ["--one-thread"])
        let pipe = Pipe()
        child.standardOutput = pipe
        try child.run()
        let report = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        guard child.terminationStatus == 0 else { throw Failure("the render of \(rows) rows failed") }
        let f = report.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard f.count == 3 else {
            throw Failure("the render of \(rows) rows reported \"\(report)\", not seconds, KiB and CPU seconds")
        }
        return (f[0], f[1], f[2])
    }

    /// The `rows`-row table of `kind` rendered with its rows read ahead on a helper thread (the
    /// default) and on the table's thread alone, in turns, seven each; medians, and the median of
    /// the pairs' ratios (a busy moment slows both of a pair alike).
    static func compareReadAhead(_ kind: Kind, rows: Int, in folder: String) throws {
        let table = try generate(kind, rows: rows, in: folder)
        defer { try? FileManager.default.removeItem(atPath: table) }
        var ahead: [Double] = [], alone: [Double] = []
        for _ in 0..<7 {
            alone.append(try renderChild(table, rows: rows, readAhead: false).0)
            ahead.append(try renderChild(table, rows: rows).0)
        }
        let ratios = zip(ahead, alone).map { $0 / $1 }.sorted()
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        print(
            String(
                format: "%d rows, 7 runs each in turns: rows read ahead on a helper thread %.0f rows/s, "
                    + "on the table's thread alone %.0f rows/s; time ×%.3f (pairs ×%.3f–×%.3f)",
                rows, Double(rows) / median(ahead), Double(rows) / median(alone), ratios[3], ratios[0], ratios[6]))
    }

    /// The 1,000,000-row wrapped table in each of `formats` (text first), the formats in turns (a busy
    /// moment slows one round, not one format), `runs` rounds (at least 5); per format the median rows/s,
    /// the median of the rounds' ratios to text's rows/s (each round's text beside it) against its target,
    /// and the peak resident memory. `render formats [FORMAT...]`: all of them by default.
    static func compareFormats(_ formats: [DocumentRender.Format]) throws {
        let folder = NSTemporaryDirectory() + "cellkit-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rows = sizes.last!, rounds = max(5, runs)
        let table = try generate(.wrapped, rows: rows, in: folder)
        var seconds: [DocumentRender.Format: [Double]] = [:], peak: [DocumentRender.Format: Double] = [:]
        var cpu: [DocumentRender.Format: [Double]] = [:]
        for _ in 0..<rounds {
            for format in formats {
                let run = try renderChild(table, rows: rows, format: format)
                seconds[format, default: []].append(run.seconds)
                cpu[format, default: []].append(run.cpu)
                peak[format] = max(peak[format] ?? 0, run.kib / 1024)
            }
        }
        print("Formats: the wrapped table, \(rows) rows, in each format in turns, \(rounds) rounds; medians")
        print("format      seconds      rows/s  of text's (rounds)   target               peak RSS   CPU, of text's")
        for format in formats {
            let median = ListBenchmark.median(seconds[format]!)
            // A round's share: text's seconds over this format's, both of that round.
            let shares = zip(seconds[.text]!, seconds[format]!).map { $0 / $1 * 100 }
            let share = ListBenchmark.median(shares), target = formatTarget(format)
            let cpuShare = ListBenchmark.median(zip(cpu[.text]!, cpu[format]!).map { $0 / $1 * 100 })
            print(
                String(
                    format: "%-8@ %10.3f %11.0f %7.0f %% (%3.0f–%3.0f %%)  %@ %8.1f MiB %8.0f %%",
                    format.rawValue as NSString, median, Double(rows) / median, share, shares.min()!, shares.max()!,
                    (target.map { String(format: ">= %2.0f %%: %@", $0, ListBenchmark.verdict(share >= $0)) } ?? "")
                        .padding(toLength: 16, withPad: " ", startingAt: 0) as NSString, peak[format]!, cpuShare))
        }
        print("of text's: rows/s as a share of text's, the median of the rounds (each round's text beside it);")
        print("CPU, of text's: the same of CPU seconds (user + system, the render's process), which load moves less")
    }

    /// A format's target share of text's rows/s, in per cent: 80 for every format (issue 43; issue 33
    /// asked 80 of ANSI and 70 of the others).
    static func formatTarget(_ format: DocumentRender.Format) -> Double? {
        format == .text ? nil : 80
    }

    /// The command line's render of `rows` rows, plugins in the process (`--no-isolation`) and in a
    /// worker (the default), side by side: whole runs of `cellkit render TABLE > /dev/null`, start-up
    /// included, alternating, five each; medians.
    static func compareIsolation(rows: Int, in folder: String) throws {
        let cellkit = try Benchmarks.cellkit()
        let table = folder + "/table-\(rows).yaml"
        if !FileManager.default.fileExists(atPath: table) { _ = try generate(rows: rows, in: folder) }
        /// CPU seconds (user and system) of the children waited for so far, theirs included.
        func childCPU() -> Double {
            var usage = rusage()
            getrusage(RUSAGE_CHILDREN.rawValue, &usage)
            func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
            return seconds(usage.ru_utime) + seconds(usage.ru_stime)
        }
        var cpu: [String: [Double]] = [:]
        func run(_ extra: [String]) throws -> Double {
            let before = childCPU()
            let child = Process()
            child.executableURL = URL(fileURLWithPath: cellkit)
            child.arguments = ["render", table, "--width", "80"] + extra
            child.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            let start = Date()
            try child.run()
            child.waitUntilExit()
            guard child.terminationStatus == 0 else { throw Failure("cellkit render \(extra) failed") }
            let seconds = Date().timeIntervalSince(start)
            cpu[extra.joined(), default: []].append(childCPU() - before)
            return seconds
        }
        var inProcess: [Double] = [], isolated: [Double] = []
        for _ in 0..<5 {
            inProcess.append(try run(["--no-isolation"]))
            isolated.append(try run([]))
        }
        let a = inProcess.sorted()[2], b = isolated.sorted()[2]
        print("")
        print(
            "cellkit render, plain table, \(rows) rows, whole command (start-up included), median of 5 alternating runs:"
        )
        let cpuA = cpu["--no-isolation"]!.sorted()[2], cpuB = cpu[""]!.sorted()[2]
        print("                              seconds      rows/s   CPU seconds (all processes)")
        print(String(format: "  in-process (--no-isolation) %7.3f %11.0f   %7.3f", a, Double(rows) / a, cpuA))
        print(String(format: "  isolated (default)          %7.3f %11.0f   %7.3f", b, Double(rows) / b, cpuB))
        print(
            String(
                format: "  isolation's cost: %+.1f %% wall clock (target <= 10 %%), %+.1f %% CPU", (b / a - 1) * 100,
                (cpuB / cpuA - 1) * 100))
        print("  all runs, in-process: " + inProcess.map { String(format: "%.3f", $0) }.joined(separator: " "))
        print("  all runs, isolated:   " + isolated.map { String(format: "%.3f", $0) }.joined(separator: " "))
    }

    static let latin = [
        "lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "do", "eiusmod",
        "tempor", "incididunt", "ut", "labore", "et", "dolore", "magna", "aliqua", "enim", "ad", "minim", "veniam",
        "quis", "nostrud", "exercitation", "ullamco", "laboris", "nisi", "aliquip", "ex", "ea", "commodo",
        "well-known", "consequat",
    ]
    static let wide = [
        "日本語", "東京", "漢字", "한국어", "서울", "中文", "北京", "👍", "🎉", "👨‍👩‍👧", "🇯🇵", "❤️", "👍🏽", "ラーメン",
        "寿司", "カタカナ", "ｶﾀｶﾅ", "café", "✓",
    ]

    /// A table of `rows` BenchWrapped rows in a JSON Lines file; the words are a fixed pseudo-random sequence.
    static func generateWrapped(rows: Int, in folder: String) throws -> String {
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ n: Int) -> Int {
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
            return Int(seed % UInt64(n))
        }
        return try writeTable("wrapped", title: "Wrapped", rows: rows, in: folder) { row in
            let description = (0..<(12 + next(17))).map { _ in latin[next(latin.count)] }.joined(separator: " ")
            let words = (0..<(4 + next(8))).map { _ in wide[next(wide.count)] }.joined(separator: " ")
            return
                "{\"cell\":\"BenchWrapped\",\"title\":\"Item \(row): \(latin[next(latin.count)])\",\"description\":\"\(description)\",\"words\":\"\(words)\"}\n"
        }
    }

    /// Writes `NAME-ROWS.jsonl` (a line a row from `line`, in 1 MiB writes) and `NAME-ROWS.yaml`, a
    /// grouped table streaming it; returns the table's path.
    static func writeTable(
        _ name: String, title: String, rows: Int, in folder: String, line: (Int) -> String
    ) throws -> String {
        let data = folder + "/\(name)-\(rows).jsonl"
        _ = FileManager.default.createFile(atPath: data, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: data))
        var chunk = ""
        for row in 0..<rows {
            chunk += line(row)
            if chunk.utf8.count > 1 << 20 { handle.write(Data(chunk.utf8)); chunk = "" }
        }
        handle.write(Data(chunk.utf8))
        // On disk before any timed run: the kernel's writeback of a freshly written file (up to
        // 280 MB) otherwise ran during the first runs, on one of the machine's two processors.
        try handle.synchronize()
        try handle.close()
        let table = folder + "/\(name)-\(rows).yaml"
        try "title: \(title)\nstyle: grouped\nsections:\n  - rowsFrom: \(name)-\(rows).jsonl\n".write(
            toFile: table, atomically: true, encoding: .utf8)
        return table
    }

    /// Renders one table to /dev/null (its rows read ahead unless `readAhead` is false); prints
    /// "seconds maxRSS-KiB CPU-seconds" (user and system, all its threads).
    static func renderOne(_ path: String, readAhead: Bool, format: DocumentRender.Format = .text) throws {
        // Through the entry point `cellkit render --no-isolation` and embedders use.
        var render = DocumentRender(documentPath: path, discovery: .fromEnvironment(), format: format)
        render.width = 80
        render.readsAhead = readAhead
        let null = open("/dev/null", O_WRONLY)
        let start = Date()
        _ = try render.runInProcess(to: DescriptorSink(fd: null, name: "/dev/null"))
        let seconds = Date().timeIntervalSince(start)
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func cpu(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        print(seconds, usage.ru_maxrss, cpu(usage.ru_utime) + cpu(usage.ru_stime))
    }

    /// A table of `rows` rows in a JSON Lines file, cycling through the three cell types.
    static func generate(rows: Int, in folder: String) throws -> String {
        try writeTable("table", title: "Benchmark", rows: rows, in: folder) { row in
            switch row % 3 {
            // data, not a message
            case 0: "{\"cell\":\"Bar\",\"title\":\"Row \(row): streamed from JSON Lines, 日本語 ✓\"}\n"
            case 1: "{\"cell\":\"Foobar\",\"n\":\(row)}\n"
            default: "{\"cell\":\"OtherCell\",\"note\":\"a Swift plugin's cell\"}\n"
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
