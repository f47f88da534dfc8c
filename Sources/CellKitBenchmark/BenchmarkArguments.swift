// What `cellkit-bench`'s arguments ask for: a benchmark to run, or help to print. Help is asked
// with `-h`, `--help` or `help` anywhere after the benchmark's name (`cellkit-bench render --help`,
// `cellkit-bench help list`), and then nothing runs: a benchmark takes minutes and builds plugins.

/// The arguments of `cellkit-bench`, read before anything is built or run.
enum BenchmarkArguments {
    /// What the command line asks for.
    enum Action: Equatable {
        /// Run `benchmark` with the arguments after its name.
        case run(benchmark: String, arguments: [String])
        /// Print this help text and run nothing.
        case help(String)
        /// No such benchmark: the name given.
        case unknown(String)
    }

    /// The benchmarks, in the order the help lists them.
    static let benchmarks = ["dispatch", "render", "list", "startup", "browse", "watch"]

    /// What `arguments` (the command line without the program's name) ask for. No benchmark
    /// named: `dispatch`, as before.
    static func action(_ arguments: [String]) -> Action {
        let isHelp: (String) -> Bool = { $0 == "-h" || $0 == "--help" }
        guard let first = arguments.first else { return .run(benchmark: "dispatch", arguments: []) }
        if isHelp(first) || first == "help" {
            // `help render` or `--help render`: that benchmark's help; else the overview.
            let named = arguments.dropFirst().first { benchmarks.contains($0) }
            return .help(named.map(help(for:)) ?? overview)
        }
        guard benchmarks.contains(first) else { return .unknown(first) }
        let rest = Array(arguments.dropFirst())
        if rest.contains(where: isHelp) || rest.first == "help" { return .help(help(for: first)) }
        return .run(benchmark: first, arguments: rest)
    }

    /// The overview `cellkit-bench --help` prints.
    static let overview = """
        usage: cellkit-bench [BENCHMARK [ARGUMENTS]] [--help]   (build first: swift build -c release)
          dispatch        the cell-creation routine's cost per row, against direct calls and libffi
          render          plain and wrapped tables of 100,000 to 1,000,000 rows, then isolation's cost
                          (render same-work: against a C formatter; render formats: each format ÷ text)
          list            start-up with 10, 100 and 1,000 generated plugins, cold and warm cache
          startup         a 4-row table, --version and --help, whole process, ÷ an empty Swift program
          browse          cellkit browse on 10,000,000 JSON Lines rows through a pseudo-terminal, beside less -S
          watch           browse --watch and preview --watch: a rebuilt plugin's first sight on the screen
        Speed targets are ratios against a reference run side by side (BENCHMARKS.md).
        cellkit-bench BENCHMARK --help: what one benchmark measures and takes.
        """

    /// The help of one benchmark.
    static func help(for benchmark: String) -> String {
        switch benchmark {
        case "dispatch":
            return """
                usage: cellkit-bench dispatch
                  1,000,000 rows through the cell-creation routine (dequeue, customize, recycle) against
                  the same hooks called directly, through registers and through libffi; 15 rounds in turns.
                  CELLKIT_BENCH_ROWS, CELLKIT_BENCH_ROUNDS: rows and rounds.
                """
        case "render":
            return """
                usage: cellkit-bench render [plain | wrapped | same-work | formats [FORMAT...]]
                  (none)          the plain and the wrapped table at 100,000, 300,000 and 1,000,000 rows,
                                  then isolation's cost on the plain one
                  plain           the plain table (3 cell types, 2 plugins), then isolation's cost
                  wrapped         the wrapped table (BenchWrapped: title, description wrapped at 40, CJK/emoji)
                  same-work       the same-work table (self-sizing), then the wrapped table, 1,000,000 rows
                                  each, `cellkit render` beside a C formatter writing the same bytes (compared
                                  first): wall time and instructions a row as ratios (targets <= 3x and <= 4x;
                                  the wrapped table's wall time <= 2.5x)
                  formats         the wrapped table in text, ansi, html, json and jsonl, in turns: each
                                  format's rows/s / text's (target: each >= 80 %)
                  CELLKIT_BENCH_RUNS: runs a size, pairs or rounds (default 5).
                """
        case "list":
            return """
                usage: cellkit-bench list
                  `cellkit list` with 10, 100 and 1,000 generated plugins, cold and warm cache, and with the
                  bundled ones alone: 1,000 / bundled, warm (target <= 3x); a 4-row render with none and with
                  1,000 plugins; discovery alone. CELLKIT_BENCH_ROUNDS: rounds (default 11).
                """
        case "startup":
            return """
                usage: cellkit-bench startup   (from the package's folder)
                  whole processes, in turns: a 4-row render (isolated, --sandbox off, --no-isolation),
                  `cellkit --version` and `cellkit --help`, each / an empty static Swift program built now
                  with the toolchain's swiftc (targets: render <= 2.5x, --version and --help <= 1.3x);
                  column -t and sqlite3 -box beside; the sandbox's kernel steps alone in a small C program
                  (sandbox-floor.c, less an empty C program), and what the render target leaves once they
                  are paid. CELLKIT_BENCH_ROUNDS: rounds (default 201);
                  SWIFTC: the compiler (else swiftc beside swift on PATH, else /opt/swift/usr/bin/swiftc).
                """
        case "watch":
            return """
                usage: cellkit-bench watch
                  `cellkit browse --watch` and `cellkit preview --watch` in a pseudo-terminal while a C plugin
                  is rebuilt with cc and moved in, good and crashing in turns: the time from the move to the
                  new build on the screen (target <= 1 s). CELLKIT_BENCH_REBUILDS: rebuilds a view (default 10).
                """
        default:
            return """
                usage: cellkit-bench browse
                  `cellkit browse --stats` on 10,000,000 JSON Lines rows in a pseudo-terminal: first screen,
                  End, page downs, peak memory, built in and a plugin's cells; `less -S` beside.
                """
        }
    }
}
