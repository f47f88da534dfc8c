// `swift run -c release cellkit-bench [dispatch|render|list|startup]`: what the cell-creation routine
// costs per row, against the same hooks called directly, in one run. Variants are run in
// interleaved rounds and the median is reported, because these machines are
// shared and noisy: compare the differences, not the absolute times.

import CCellKit
import CellKit
import Foundation

@main
enum Benchmarks {
    static func main() {
        switch BenchmarkArguments.action(Array(CommandLine.arguments.dropFirst())) {
        case .help(let text): print(text)
        case .unknown(let name):
            FileHandle.standardError.write(
                Data(
                    ("cellkit-bench: unknown benchmark '\(name)'; use "
                        + BenchmarkArguments.benchmarks.joined(separator: ", ") + " (--help: what each does)\n").utf8))
            exit(2)
        case .run(let benchmark, let arguments):
            failing("cellkit-bench") { try BenchmarkPlugin.install() }
            switch benchmark {
            case "dispatch": failing("cellkit-bench") { try DispatchBenchmark.run() }
            case "render": failing("cellkit-bench render") { try RenderBenchmark.run(arguments) }
            case "list": failing("cellkit-bench list") { try ListBenchmark.run() }
            case "startup": failing("cellkit-bench startup") { try StartupBenchmark.run() }
            case "watch": failing("cellkit-bench watch") { try WatchBenchmark.run() }
            default: failing("cellkit-bench browse") { try BrowseBenchmark.run() }
            }
        }
    }

    /// Runs a benchmark; an error it throws is printed after `name`, with the hint to build first,
    /// and ends the process with status 1.
    static func failing(_ name: String, _ body: () throws -> Void) {
        do { try body() } catch {
            FileHandle.standardError.write(
                Data("\(name): \(error)\nBuild everything first: swift build -c release\n".utf8))
            exit(1)
        }
    }

    /// The whole number the environment variable `name` holds, else `fallback`.
    static func setting(_ name: String, default fallback: Int) -> Int {
        getenv(name).flatMap { Int(String(cString: $0)) } ?? fallback
    }

    /// The built `cellkit` beside this program; throws if it is not there.
    static func cellkit() throws -> String {
        let cellkit = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/cellkit"
        guard FileManager.default.isExecutableFile(atPath: cellkit) else {
            throw RenderBenchmark.Failure("no \(cellkit): build it first")
        }
        return cellkit
    }

    /// A new folder `cellkit-bench-NAME-XXXXXX` in the temporary folder, mode 0700 as `mkdtemp`
    /// makes it (the trust checks refuse plugins in folders others can write).
    static func temporaryFolder(_ name: String) throws -> String {
        var template = Array((NSTemporaryDirectory() + "cellkit-bench-\(name)-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw RenderBenchmark.Failure("cannot make a temporary folder") }
        return String(cString: made)
    }
}

enum DispatchBenchmark {
    static let rows = Benchmarks.setting("CELLKIT_BENCH_ROWS", default: 1_000_000)
    static let rounds = Benchmarks.setting("CELLKIT_BENCH_ROUNDS", default: 15)

    static func run() throws {
        let registry = CellRegistry(options: .fromEnvironment())  // the plugins beside the binary
        let names = ["BenchAlpha", "BenchBeta", "BenchGamma"]
        let types = try names.map { try registry.cellType(named: $0) }
        let slots = types.map(\.reuseSlot)  // plain values: the per-row loop passes them without reference counting
        let declaredSlot = try registry.cellType(named: "BenchDeclared").reuseSlot
        let ffiSlot = try registry.cellType(named: "BenchFFI").reuseSlot
        // The same two-word list through libffi, as every declared list went before registers.
        let viaFFI = CellRegistry(catalog: registry.catalog, declaredListsThroughFFI: true)
        let viaFFIQueue = CellQueue(registry: viaFFI)
        let declaredViaFFISlot = try viaFFI.cellType(named: "BenchDeclared").reuseSlot
        let queue = CellQueue(registry: registry)
        let hooks = try directHooks(names, in: types[0].pluginPath)
        let cells = types.map { queue.dequeueCell($0, at: IndexPath(section: 0, row: 0)) }  // for the direct calls
        /// The routine on the one cell type of `slot`, row after row.
        func routine(_ slot: ReuseSlot, _ queue: CellQueue) -> () -> Void {
            {
                for row in 0..<rows { queue.recycle(queue.dequeueCell(slot, at: IndexPath(section: 0, row: row))) }
            }
        }

        let variants: [(String, () -> Void)] = [
            (
                "hooks called directly (typed C pointers)",
                {
                    for row in 0..<rows {
                        let i = row % 3
                        hooks[i](cells[i].handle, ck_index_path(section: 0, row: Int64(row)))
                    }
                }
            ),
            (
                "the routine: dequeue, customize, recycle",
                {
                    for row in 0..<rows {
                        let cell = queue.dequeueCell(slots[row % 3], at: IndexPath(section: 0, row: row))
                        queue.recycle(cell)
                    }
                }
            ),
            ("the routine, declared list in registers", routine(declaredSlot, queue)),
            ("the routine, the same list through libffi", routine(declaredViaFFISlot, viaFFIQueue)),
            ("the routine, 7-word list through libffi", routine(ffiSlot, queue)),
            (
                "the routine, identifier looked up every row",
                {
                    for row in 0..<rows {
                        let type = try! registry.cellType(named: names[row % 3])
                        queue.recycle(queue.dequeueCell(type, at: IndexPath(section: 0, row: row)))
                    }
                }
            ),
        ]
        let samples = measure(variants)
        print(
            "CellKit dispatch benchmark: \(rows) rows, 3 identifiers, warm pool, median of \(rounds) interleaved rounds (CPU time)"
        )
        for (i, (name, _)) in variants.enumerated() {
            print(
                "  " + name.padding(toLength: 46, withPad: " ", startingAt: 0)
                    + String(format: " %7.1f ns/row", median(samples[i])))
        }
        // Differences are taken within each round, then the median: a round the
        // machine was busy slows both sides of it alike.
        func added(_ a: Int, over b: Int) -> Double { median(zip(samples[a], samples[b]).map { $0 - $1 }) }
        print(String(format: "  routine overhead over direct calls: %+.1f ns/row (target <= 5)", added(1, over: 0)))
        print(String(format: "  declared list in registers over a standard hook: %+.1f ns/row", added(2, over: 1)))
        print(
            String(
                format: "  the same list through libffi over a standard hook: %+.1f ns/row (target <= 40)",
                added(3, over: 1)))
        print(String(format: "  a 7-word list through libffi over a standard hook: %+.1f ns/row", added(4, over: 1)))
        print(String(format: "  looking the identifier up per row costs: %+.1f ns/row", added(5, over: 1)))
        let stats = types.map { queue.statistics(for: $0) }
        print("  cells created per identifier: \(stats.map(\.created)), reused: \(stats.map(\.reused))")
    }

    /// The customize hooks, found with dlsym in the library the registry already opened.
    static func directHooks(_ names: [String], in path: String) throws
        -> [@convention(c) (UnsafeMutablePointer<ck_cell>?, ck_index_path) -> Void]
    {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD) else { throw BenchmarkError("\(path) is not loaded") }
        return try names.map { name in
            guard let symbol = dlsym(handle, "customizeCellFor\(name)") else {
                throw BenchmarkError("no customizeCellFor\(name)")
            }
            return unsafeBitCast(
                symbol, to: (@convention(c) (UnsafeMutablePointer<ck_cell>?, ck_index_path) -> Void).self)
        }
    }

    /// Ns per row of each variant in each of the interleaved rounds.
    static func measure(_ variants: [(String, () -> Void)]) -> [[Double]] {
        for (_, run) in variants { run() }  // warm-up: pools filled, code paged in
        var samples = Array(repeating: [Double](), count: variants.count)
        for _ in 0..<rounds {
            for (i, (_, run)) in variants.enumerated() {
                let start = cpuTime()
                run()
                samples[i].append((cpuTime() - start) / Double(rows))
            }
        }
        return samples
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    static func cpuTime() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) * 1e9 + Double(t.tv_nsec)
    }

    struct BenchmarkError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
