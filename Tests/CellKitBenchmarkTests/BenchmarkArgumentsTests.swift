// `cellkit-bench`'s arguments: `--help` after any benchmark's name prints that benchmark's help and
// runs nothing (it used to run the whole benchmark), and the benchmarks still run as named.

import Testing

@testable import CellKitBenchmark

@Suite("cellkit-bench arguments")
struct BenchmarkArgumentsTests {
    @Test("--help, -h and help after any benchmark ask for its help, never a run")
    func helpAfterABenchmark() {
        for benchmark in BenchmarkArguments.benchmarks {
            for flag in ["--help", "-h"] {
                for arguments in [[benchmark, flag], [benchmark, "wrapped", flag], [benchmark, flag, "plain"]] {
                    #expect(
                        BenchmarkArguments.action(arguments)
                            == .help(BenchmarkArguments.help(for: benchmark)), "\(arguments)")
                }
            }
            #expect(BenchmarkArguments.action([benchmark, "help"]) == .help(BenchmarkArguments.help(for: benchmark)))
            #expect(BenchmarkArguments.action(["help", benchmark]) == .help(BenchmarkArguments.help(for: benchmark)))
            #expect(BenchmarkArguments.help(for: benchmark).hasPrefix("usage: cellkit-bench \(benchmark)"))
        }
    }

    @Test("--help alone prints the overview, which names every benchmark")
    func overview() {
        for arguments in [["--help"], ["-h"], ["help"]] {
            #expect(BenchmarkArguments.action(arguments) == .help(BenchmarkArguments.overview))
        }
        for benchmark in BenchmarkArguments.benchmarks {
            #expect(BenchmarkArguments.overview.contains("\n  \(benchmark) "))
        }
    }

    @Test("a benchmark runs with the arguments after its name; none named is dispatch")
    func runs() {
        #expect(BenchmarkArguments.action([]) == .run(benchmark: "dispatch", arguments: []))
        #expect(BenchmarkArguments.action(["render"]) == .run(benchmark: "render", arguments: []))
        #expect(
            BenchmarkArguments.action(["render", "formats", "ansi", "html"])
                == .run(benchmark: "render", arguments: ["formats", "ansi", "html"]))
        #expect(
            BenchmarkArguments.action(["render", "one", "/tmp/t.yaml", "--one-thread"])
                == .run(benchmark: "render", arguments: ["one", "/tmp/t.yaml", "--one-thread"]))
        #expect(BenchmarkArguments.action(["startup"]) == .run(benchmark: "startup", arguments: []))
    }

    @Test("an unknown benchmark is named back")
    func unknown() {
        #expect(BenchmarkArguments.action(["rendre", "--help"]) == .unknown("rendre"))
        #expect(BenchmarkArguments.action(["--version"]) == .unknown("--version"))
    }
}
