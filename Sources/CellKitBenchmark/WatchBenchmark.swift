// `cellkit-bench watch`: how soon a rebuilt plugin shows in `cellkit browse --watch` and in
// `cellkit preview --watch`, driven through a pseudo-terminal this program holds. A C plugin is
// built with `cc` beside the watched folder and moved in (as a build replaces its output), in turns
// a good build and one that crashes in its hook; the time runs from the rename to the first sight
// of the new build on the screen (its text, or the crash in place of its rows). The promise, in the
// guides and the CHANGELOG: within a second (a look every 0.25 s, a settle, a new worker, a frame).
// The tests drive the same rebuilds in tmux and check what is shown; they bound the time only at
// 5 s, a sign that the view reloaded by itself: a test suite running beside them makes a tighter
// wall-clock bound there a guess.

import Foundation

enum WatchBenchmark {
    /// Rebuilds a view (`CELLKIT_BENCH_REBUILDS`, at least 1).
    static let rounds = max(1, Benchmarks.setting("CELLKIT_BENCH_REBUILDS", default: 10))

    /// The plugin's source: cell `Watched` shows "build N, row R", or crashes in its hook;
    /// its preview sample says "build N".
    static func plugin(_ build: Int, crashes: Bool) -> String {
        """
        #include "cellkit.h"
        #include <stdio.h>
        CK_PLUGIN("Watched", "1.0.0", "A plugin rebuilt while it is watched");
        CK_PREVIEW(Watched, only, "{\\"text\\": \\"build \(build)\\"}");
        CK_CUSTOMIZE_CELL_FOR(Watched) {
            char text[64];
            \(crashes ? "*(volatile int *)0 = 1;" : "")
            snprintf(text, sizeof text, "build \(build), row %d", (int)indexPath.row);
            ck_set_text(ck_text_label(cell), text);
        }
        """
    }

    static func run() throws {
        let cellkit = try ProcessInfo.processInfo.environment["CELLKIT_BENCH_CELLKIT"] ?? Benchmarks.cellkit()
        let folder = try Benchmarks.temporaryFolder("watch")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (plugins, scratch) = (folder + "/plugins", folder + "/scratch")
        for made in [plugins, scratch] {
            try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true)
        }
        setenv("XDG_CACHE_HOME", folder + "/cache", 1)
        try "title: Watched\nsections:\n  - {cell: Watched, rows: 3}\n"
            .write(toFile: folder + "/table.yaml", atomically: true, encoding: .utf8)
        let watched = plugins + "/libWatched.so"
        print("A plugin rebuilt \(rounds) times (good and crashing in turns) while it is watched; 100×40")
        print("| view | first sight of the new build: median | fastest | slowest | target |\n|---|---|---|---|---|")
        let views: [(String, [String])] = [
            (
                "cellkit browse --watch (3 rows)",
                ["browse", folder + "/table.yaml", "--watch", "--plugin-path", plugins]
            ),
            ("cellkit preview --watch (48 configurations)", ["preview", watched, "--no-check", "--watch"]),
        ]
        for (name, arguments) in views {
            try install(0, crashes: false, into: plugins, scratch: scratch)
            let terminal = try PseudoTerminal(cellkit, arguments)
            try terminal.wait(for: "build 0", timeout: 30)
            terminal.drain(for: 1.5)
            var times: [Double] = []
            for build in 1...rounds {
                let crashes = build % 2 == 1
                let built = try compile(build, crashes: crashes, in: scratch)
                terminal.drain(for: 0.2)  // what the view wrote while cc ran is not the new build
                terminal.send("")  // what follows is looked at from here
                guard rename(built, watched) == 0 else { throw Failure("rename: \(String(cString: strerror(errno)))") }
                let replaced = Date()
                try terminal.wait(for: crashes ? "customizeCellForWatched crashed" : "build \(build)", timeout: 30)
                times.append(Date().timeIntervalSince(replaced))
                terminal.drain(for: 1.5)  // the reload drawn whole before the next build
            }
            terminal.send("q")
            _ = try terminal.finish()
            times.sort()
            print(
                "| \(name) | \(ms(times[times.count / 2])) | \(ms(times[0])) | \(ms(times[times.count - 1])) "
                    + "| ≤ 1,000 ms |")
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func ms(_ seconds: Double) -> String { String(format: "%.0f ms", seconds * 1000) }

    /// Builds and moves in build `build` (the first one, before a view starts).
    static func install(_ build: Int, crashes: Bool, into plugins: String, scratch: String) throws {
        let built = try compile(build, crashes: crashes, in: scratch)
        guard rename(built, plugins + "/libWatched.so") == 0 else {
            throw Failure("rename: \(String(cString: strerror(errno)))")
        }
    }

    /// `cc -shared` of build `build` into `scratch/libWatched.so`; its path.
    static func compile(_ build: Int, crashes: Bool, in scratch: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let source = scratch + "/Watched.c", output = scratch + "/libWatched.so"
        try plugin(build, crashes: crashes).write(toFile: source, atomically: true, encoding: .utf8)
        try References.run(
            "/usr/bin/env", ["cc", "-shared", "-fPIC", "-I", root + "/Sources/CCellKit/include", source, "-o", output],
            what: "cc could not build \(source)")
        return output
    }
}
