// `cellkit-bench list`: start-up with many plugins installed. Generates 10, 100 and 1,000
// plugins of three cell types each (one C file compiled once per plugin with its number as a
// macro, in parallel), then times whole runs of the built `cellkit` beside this program:
// `cellkit list` with a cold registry cache (removed before each run) and a warm one, with the
// bundled plugins alone and with each size (the target: 1,000 ÷ the bundled alone, warm), and
// `cellkit render` of a four-row table of the bundled Foobar and Bar cells with none and with
// 1,000 generated plugins on the path, warm cache, in a worker (the default) and in the
// process (`--no-isolation`). Variants run alternating, round after round; medians printed.
// A warm cache holds the folders' listings too: the folders are left to settle first.

import CCellKit
import CellKitRuntime
import Foundation

enum ListBenchmark {
    static let sizes = [10, 100, 1_000]
    static let rounds = Benchmarks.setting("CELLKIT_BENCH_ROUNDS", default: 11)

    static func run() throws {
        let cellkit = try Benchmarks.cellkit()
        let root = try Benchmarks.temporaryFolder("list")
        defer { try? FileManager.default.removeItem(atPath: root) }

        let start = Date()
        let all = try generate(count: sizes.max()!, in: root)
        var folders: [Int: String] = [0: root + "/plugins-0"]
        try FileManager.default.createDirectory(atPath: folders[0]!, withIntermediateDirectories: false)
        for size in sizes {
            let folder = root + "/plugins-\(size)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            for n in 0..<size where link(all + "/libgen\(n).so", folder + "/libgen\(n).so") != 0 {
                throw RenderBenchmark.Failure("cannot link plugin \(n) into \(folder)")
            }
            folders[size] = folder
        }
        // On disk before any timed run: the kernel's writeback of the plugins just built would
        // otherwise run during the first rounds, on one of the machine's two processors.
        sync()
        // The registry cache keeps a folder's listing only once the folder's times are older than
        // the listing by its margin (2 s, FolderListing): waited for here, so that the warm runs
        // measure a warm cache, listing included, from their first round.
        usleep(2_100_000)
        print(
            String(
                format: "cellkit-bench list: %d plugins (3 cell types each) generated in %.1f s; %d rounds, medians",
                sizes.max()!, Date().timeIntervalSince(start), rounds))
        let table = root + "/small.yaml"
        try """
        title: Small
        width: 48
        sections:
          - cell: Foobar
            rows: 2
          - cell: Bar
            rows:
              - title: First bar
              - title: Second bar

        """.write(toFile: table, atomically: true, encoding: .utf8)

        /// A whole run of `cellkit` with `folder` on the path and its own cache; nil: failed.
        func command(_ arguments: [String], plugins: Int, cache: String) -> Run {
            Run(
                executable: cellkit, arguments: arguments,
                environment: [
                    "CELLKIT_PLUGIN_PATH=\(folders[plugins]!)", "XDG_CACHE_HOME=\(root)/\(cache)",
                    "XDG_DATA_HOME=\(root)/data", "HOME=\(root)", "PATH=/usr/bin:/bin",
                ])
        }

        // list: cold (the cache removed before each run) and warm, per size; 0: the bundled plugins alone.
        var cold: [Int: [Double]] = [:], warm: [Int: [Double]] = [:]
        for size in [0] + sizes { _ = try command(["list"], plugins: size, cache: "warm-\(size)").time() }
        for _ in 0..<rounds {
            for size in [0] + sizes {
                try? FileManager.default.removeItem(atPath: root + "/cold-\(size)")
                cold[size, default: []].append(try command(["list"], plugins: size, cache: "cold-\(size)").time())
                warm[size, default: []].append(try command(["list"], plugins: size, cache: "warm-\(size)").time())
            }
        }
        print("")
        print("cellkit list, whole command (ms); the bundled plugins beside cellkit on the path in every row:")
        print("   plugins    cold cache    warm cache")
        for size in [0] + sizes {
            print(String(format: "%10d %13.1f %13.1f", size, median(cold[size]!) * 1e3, median(warm[size]!) * 1e3))
        }
        // The target is a ratio (issue 33): 1,000 plugins over the bundled ones alone, warm, round by round.
        let ratio = median(zip(warm[1_000]!, warm[0]!).map { $0 / $1 })
        print(
            String(
                format: "  warm list of 1,000 plugins: %.1f ms, %.2fx the bundled ones' (median of rounds' ratios);"
                    + " target <= 3x: %@", median(warm[1_000]!) * 1e3, ratio, verdict(ratio <= 3)))

        // render: the small table with none and with 1,000 generated plugins, warm caches.
        var times: [String: [Double]] = [:]
        let variants: [(String, Run)] = [
            ("isolated, 0", command(["render", table], plugins: 0, cache: "render-0")),
            ("isolated, 1000", command(["render", table], plugins: 1_000, cache: "render-1000")),
            ("in-process, 0", command(["render", table, "--no-isolation"], plugins: 0, cache: "render-0")),
            ("in-process, 1000", command(["render", table, "--no-isolation"], plugins: 1_000, cache: "render-1000")),
        ]
        for (_, run) in variants { _ = try run.time() }  // warms the caches (and the near misses of the types used)
        var ratios: [String: [Double]] = [:]
        for _ in 0..<(rounds * 2) {
            var round: [String: Double] = [:]
            for (name, run) in variants {
                let t = try run.time()
                times[name, default: []].append(t)
                round[name] = t
            }
            ratios["isolated", default: []].append(round["isolated, 1000"]! / round["isolated, 0"]!)
            ratios["in-process", default: []].append(round["in-process, 1000"]! / round["in-process, 0"]!)
        }
        print("")
        print("cellkit render of a 4-row table (Foobar, Bar), whole command, warm cache (ms):")
        print("                 no generated plugins   1,000 plugins   ratio (median of pairs)")
        for mode in ["isolated", "in-process"] {
            let a = median(times["\(mode), 0"]!) * 1e3, b = median(times["\(mode), 1000"]!) * 1e3
            print(
                String(
                    format: "  %@ %12.1f %17.1f %14.2fx",
                    (mode == "isolated" ? "isolated" : "--no-isolation").padding(
                        toLength: 14, withPad: " ", startingAt: 0), a, b,
                    median(ratios[mode]!)))
        }
        let renderRatio = median(ratios["isolated"]!)
        print(
            String(
                format: "  target: with 1,000 plugins <= 1.2x the time without: %.2fx (%@)", renderRatio,
                verdict(renderRatio <= 1.2)))

        try discoveryAlone(folder: folders[1_000]!, cache: root + "/discovery")
    }

    /// Discovery of the 1,000 plugins in this process, warm cache, with the folder's `lstat`s read
    /// by the walk alone and with a helper thread reading them too (`StatAhead`), in turns: what
    /// the helper saves, without the noise of whole processes around it.
    static func discoveryAlone(folder: String, cache: String) throws {
        var options = DiscoveryOptions(
            searchPath: SearchPath(entries: [.init(path: folder, origin: .option)]), useCache: true,
            cacheFolder: cache)
        _ = Catalog(options: options)
        usleep(2_100_000)  // the folder's listing kept from here on (FolderListing's margin)
        var alone: [Double] = [], ahead: [Double] = []
        for round in 0..<(rounds * 20) {
            options.statsAhead = round % 2 == 1
            let start = DispatchTime.now().uptimeNanoseconds
            let catalog = Catalog(options: options)
            let micros = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3
            guard catalog.plugins.count == 1_000 else {
                throw RenderBenchmark.Failure("discovery found \(catalog.plugins.count) plugins, not 1,000")
            }
            if options.statsAhead { ahead.append(micros) } else { alone.append(micros) }
        }
        print("")
        print("discovery of the 1,000 plugins in one process, warm cache, \(alone.count) rounds each, in turns (µs):")
        print(
            String(
                format: "  lstats read by the walk alone %8.0f\n  with a helper thread reading them too %.0f",
                median(alone), median(ahead)))
    }

    static func verdict(_ met: Bool) -> String { met ? "met" : "NOT met" }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// Compiles `count` plugins into `root`/all: `libgenN.so` exporting `GenAN` (init and customize
    /// hooks), `GenBN` and `GenCN`, each a C file compiled with `cc -shared -fPIC`, as many at
    /// once as there are processors. Returns the folder.
    static func generate(count: Int, in root: String) throws -> String {
        let folder = root + "/all"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        // Self-contained (no cellkit.h to find) and without libc (-nostdlib): the hooks do
        // nothing, and linking against libc was most of each compiler run's time.
        let source = root + "/gen.c"
        try """
        typedef struct { char magic[8]; unsigned abi_major, abi_minor; char name[64], version[32], description[160]; } ck_plugin_descriptor;
        typedef struct { long long section, row; } ck_index_path;
        #define EXPORT __attribute__((visibility("default"), used))
        #define CAT2(a, b) a##b
        #define CAT(a, b) CAT2(a, b)
        #define STR2(x) #x
        #define STR(x) STR2(x)
        EXPORT const ck_plugin_descriptor cellkit_plugin = {
            {'C', 'K', 'P', 'L', 'U', 'G', 'I', 'N'}, ABI_MAJOR, ABI_MINOR, "Generated" STR(N), "1.0.0",
            "A generated plugin for cellkit-bench list"};
        EXPORT void CAT(initCellForGenA, N)(void *cell, ck_index_path p) { (void)cell; (void)p; }
        EXPORT void CAT(customizeCellForGenA, N)(void *cell, ck_index_path p) { (void)cell; (void)p; }
        EXPORT void CAT(customizeCellForGenB, N)(void *cell, ck_index_path p) { (void)cell; (void)p; }
        EXPORT void CAT(customizeCellForGenC, N)(void *cell, ck_index_path p) { (void)cell; (void)p; }

        """.write(toFile: source, atomically: true, encoding: .utf8)
        let parallel = max(2, ProcessInfo.processInfo.activeProcessorCount)
        var running: [(Int, pid_t)] = []
        func reap() throws {
            let (n, pid) = running.removeFirst()
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            guard status == 0 else { throw RenderBenchmark.Failure("cc failed for plugin \(n) (status \(status))") }
        }
        for n in 0..<count {
            let run = Run(
                executable: "/usr/bin/env",
                arguments: [
                    "cc", "-shared", "-fPIC", "-nostdlib", "-O0", "-DN=\(n)", "-DABI_MAJOR=\(CK_ABI_MAJOR)",
                    "-DABI_MINOR=\(CK_ABI_MINOR)", source, "-o", folder + "/libgen\(n).so",
                ], environment: ["PATH=/usr/local/bin:/usr/bin:/bin"])
            running.append((n, try run.start()))
            if running.count >= parallel { try reap() }
        }
        while !running.isEmpty { try reap() }
        return folder
    }

    /// A command started with `posix_spawn`, its output to /dev/null.
    struct Run {
        let executable: String
        let arguments: [String]
        let environment: [String]

        func start() throws -> pid_t {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            let envp = environment.map { strdup($0) } + [nil]
            defer { for p in argv + envp { free(p) } }
            var pid: pid_t = 0
            let error = posix_spawn(&pid, executable, &actions, nil, argv, envp)
            guard error == 0 else {
                throw RenderBenchmark.Failure("cannot start \(executable): \(String(cString: strerror(error)))")
            }
            return pid
        }

        /// Seconds from start to exit; throws if it fails.
        func time() throws -> Double {
            var begin = timespec(), end = timespec()
            clock_gettime(CLOCK_MONOTONIC, &begin)
            let pid = try start()
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            clock_gettime(CLOCK_MONOTONIC, &end)
            guard status == 0 else {
                throw RenderBenchmark.Failure(
                    "\(executable) \(arguments.joined(separator: " ")) failed (status \(status))")
            }
            return Double(end.tv_sec - begin.tv_sec) + Double(end.tv_nsec - begin.tv_nsec) / 1e9
        }
    }
}
