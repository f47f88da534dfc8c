// `cellkit-bench browse`: `cellkit browse` on a generated JSON Lines table of 10,000,000 rows,
// driven through a pseudo-terminal this program holds (no tmux): the time to the first screen,
// to the last row (End), of a page down (median and 99th percentile), the peak resident memory of
// the view and of its worker, and the cells made; then `less -S` on the same file (first
// screen, end) beside it. Then `/` from the first row for the 2,000,000th row (`Item 1999999`)
// and for the last (2,000,000 and all the rows read through), each `CELLKIT_BENCH_SEARCHES` times
// (`less -S` once, beside it, unless `CELLKIT_BENCH_LESS_SEARCH=0`).
// `CELLKIT_BENCH_CELLKIT` names another `cellkit` to drive (another build's, side by side).

import CellKit
import Foundation

enum BrowseBenchmark {
    static let rows = Benchmarks.setting("CELLKIT_BENCH_ROWS", default: 10_000_000)
    static let pages = Benchmarks.setting("CELLKIT_BENCH_PAGES", default: 200)
    static let searches = Benchmarks.setting("CELLKIT_BENCH_SEARCHES", default: 5)
    /// Whether `less -S` searches too (`CELLKIT_BENCH_LESS_SEARCH=0`: not; it takes a minute at 10 M rows).
    static let lessSearches = Benchmarks.setting("CELLKIT_BENCH_LESS_SEARCH", default: 1) != 0

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func run() throws {
        let cellkit = try ProcessInfo.processInfo.environment["CELLKIT_BENCH_CELLKIT"] ?? Benchmarks.cellkit()
        let folder = try Benchmarks.temporaryFolder("browse")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let data = folder + "/rows.jsonl"
        try generate(data)
        try "title: Ten million rows\nsections:\n  - {header: Items, cell: Subtitle, rowsFrom: rows.jsonl}\n"
            .write(toFile: folder + "/t.yaml", atomically: true, encoding: .utf8)
        // The same rows in a plugin's cells (BenchmarkCells' BenchBrowse, C: two labels set per row).
        try "title: Ten million rows\nsections:\n  - {header: Items, cell: BenchBrowse, rowsFrom: rows.jsonl}\n"
            .write(toFile: folder + "/p.yaml", atomically: true, encoding: .utf8)
        _ = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        print("cellkit browse on \(rows) rows (\(fileSize(data) >> 20) MiB of JSON Lines), 100×40, \(pages) page downs")
        let browse = try measureBrowse(cellkit, table: folder + "/t.yaml")
        let plugin = try measureBrowse(cellkit, table: folder + "/p.yaml")
        let less = try measureLess(data)
        print(
            """
            | | first screen | End at the first screen (\(browse.endEstimated ? "read back, counting" : "counted first")) | End once counted | page down median | page down p99 | peak RSS | cells made |
            |---|---|---|---|---|---|---|---|
            \(row("cellkit browse (Subtitle, built in)", browse))
            \(row("cellkit browse, plugin cell (BenchBrowse, C)", plugin))
            | less -S | \(ms(less.first)) | \(ms(less.end)) | | | | \(less.rss >> 10) MiB | |
            """)
        guard searches > 0 else { return }
        print("\n`/` from the first row (cellkit: Subtitle, built in), \(searches) times each:")
        print(
            "| search | rows read | cellkit median | fastest | slowest | view's peak RSS | less -S (once) |\n"
                + "|---|---|---|---|---|---|---|")
        for target in rows > 2_000_000 ? [2_000_000, rows] : [rows] {
            let (found, rss) = try measureSearch(cellkit, table: folder + "/t.yaml", target: target)
            let times = found.sorted()
            let less = try measureLessSearch(data, target: target)
            print(
                "| `/Item \(target - 1)` | \(target) | \(seconds(times[times.count / 2])) | \(seconds(times[0])) | "
                    + "\(seconds(times[times.count - 1])) | \(rss >> 10) MiB | \(less.first.map(seconds) ?? "") |")
        }
    }

    /// `less -S` on the data file: `/Item N` typed at the top, once (a reference, and slow), the
    /// seconds from the Enter to the row on screen (empty without less).
    static func measureLessSearch(_ data: String, target: Int) throws -> [Double] {
        let less = "/usr/bin/less"
        guard lessSearches, FileManager.default.isExecutableFile(atPath: less) else { return [] }
        let terminal = try PseudoTerminal(less, ["-S", data])
        try terminal.wait(for: "code-38x", timeout: 30)
        var times: [Double] = []
        for _ in 0..<1 {
            let start = Date()  // less echoes the prompt its own way: typed and entered at once
            terminal.send("/Item \(target - 1)\"\r")
            try terminal.wait(for: "code-\(target - 1)x", timeout: 600)
            times.append(Date().timeIntervalSince(start))
            terminal.send("g")
            try terminal.wait(for: "code-0x", timeout: 10)
        }
        terminal.send("q")
        _ = try terminal.finish()
        return times
    }

    static func seconds(_ t: Double) -> String { String(format: "%.2f s", t) }

    /// `/Item N` for row `target` (N its number less one) typed at the first row, `searches` times:
    /// the seconds from the Enter to the cursor on the row, and the view's peak resident memory (kB).
    static func measureSearch(_ cellkit: String, table: String, target: Int) throws -> ([Double], Int) {
        let terminal = try PseudoTerminal(cellkit, ["browse", table])
        try terminal.wait(for: "\(RowName.across(0)) of \(rows)", timeout: 120)  // counted: a search waits for it
        var times: [Double] = []
        for _ in 0..<searches {
            terminal.send("/Item \(target - 1)")
            try terminal.wait(for: "Item \(target - 1)", timeout: 10)  // the prompt
            let start = Date()
            terminal.send("\r")
            try terminal.wait(for: "\(RowName.across(target - 1)) of \(rows)", timeout: 600)
            times.append(Date().timeIntervalSince(start))
            terminal.send("g")
            try terminal.wait(for: "\(RowName.across(0)) of \(rows)", timeout: 10)
        }
        terminal.send("q")
        return (times, try terminal.finish())
    }

    /// A table row of `figures` (a variant).
    static func row(_ name: String, _ f: BrowseFigures) -> String {
        "| \(name) | \(ms(f.first)) | \(ms(f.end)) (exact numbers \(ms(f.counted)) from start) | \(ms(f.endCounted)) | "
            + "\(ms(f.pageMedian)) | \(ms(f.pageP99)) | view \(f.rss >> 10) MiB, worker \(f.workerRSS >> 10) MiB | "
            + "\(f.cellsMade) |"
    }

    static func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// Writes the rows in 64 KiB blocks.
    static func generate(_ path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let file = FileHandle(forWritingAtPath: path)
        else { throw Failure("cannot write \(path)") }
        defer { try? file.close() }
        var block = ""
        block.reserveCapacity(1 << 17)
        for i in 0..<rows {
            block += "{\"text\": \"Item \(i)\", \"detail\": \"code-\(i)x\"}\n"
            if block.utf8.count >= 1 << 16 {
                try file.write(contentsOf: Data(block.utf8))
                block.removeAll(keepingCapacity: true)
            }
        }
        try file.write(contentsOf: Data(block.utf8))
    }

    struct BrowseFigures {
        var endEstimated = false
        var first = 0.0, counted = 0.0, end = 0.0, endCounted = 0.0, pageMedian = 0.0, pageP99 = 0.0, rss = 0,
            workerRSS = 0,
            cellsMade = 0
    }

    static func measureBrowse(_ cellkit: String, table: String) throws -> BrowseFigures {
        var figures = BrowseFigures()
        let terminal = try PseudoTerminal(cellkit, ["browse", table, "--stats"])
        let start = Date()
        try terminal.wait(for: "\(RowName.across(0)) of", timeout: 30)
        figures.first = Date().timeIntervalSince(start)
        let total = "of \(rows)"
        // End at once: while the file is still counted, its last rows are read back from its end
        // and shown numbered from an estimate; the exact numbers follow once it is counted.
        let endStart = Date()
        terminal.send("G")
        try terminal.wait(for: "Item \(rows - 1)", timeout: 60)
        figures.end = Date().timeIntervalSince(endStart)
        figures.endEstimated = terminal.recent.contains("last rows, counting")
        try terminal.wait(for: "\(RowName.across(rows - 1)) of \(rows)", timeout: 60)
        figures.counted = Date().timeIntervalSince(start)
        // End again, counted: the jump itself.
        terminal.send("g")
        try terminal.wait(for: "\(RowName.across(0)) of", timeout: 10)
        let jump = Date()
        terminal.send("G")
        try terminal.wait(for: "\(RowName.across(rows - 1)) of \(rows)", timeout: 10)
        figures.endCounted = Date().timeIntervalSince(jump)
        terminal.send("g")
        try terminal.wait(for: "\(RowName.across(0)) of", timeout: 10)
        var times: [Double] = []
        for _ in 0..<pages {
            let t = Date()
            terminal.send("\u{1B}[6~")
            try terminal.wait(for: total, timeout: 10)
            times.append(Date().timeIntervalSince(t))
        }
        times.sort()
        figures.pageMedian = times[times.count / 2]
        figures.pageP99 = times[min(times.count - 1, Int(Double(times.count) * 0.99))]
        let screen = terminal.recent
        if let range = screen.range(of: "cells made ", options: .backwards) {
            figures.cellsMade = Int(screen[range.upperBound...].prefix { $0.isNumber }) ?? -1
        }
        figures.workerRSS = terminal.childrenPeakKB()
        terminal.send("q")
        figures.rss = try terminal.finish()
        return figures
    }

    static func measureLess(_ data: String) throws -> (first: Double, end: Double, rss: Int) {
        let less = "/usr/bin/less"
        guard FileManager.default.isExecutableFile(atPath: less) else { return (0, 0, 0) }
        let terminal = try PseudoTerminal(less, ["-S", data])
        let start = Date()
        try terminal.wait(for: "code-38x", timeout: 30)
        let first = Date().timeIntervalSince(start)
        let endStart = Date()
        terminal.send("G")
        try terminal.wait(for: "Item \(rows - 1)\"", timeout: 120)
        let end = Date().timeIntervalSince(endStart)
        terminal.send("q")
        return (first, end, try terminal.finish())
    }
}

/// A program on a pseudo-terminal of 100×40 that this process drives: keys in, screen bytes out.
final class PseudoTerminal {
    let master: Int32
    let pid: pid_t
    /// The program and its arguments, for messages.
    let command: String
    private var seen: [UInt8] = []
    private var mark = 0

    init(_ executable: String, _ arguments: [String]) throws {
        // posix_openpt, unlockpt and ptsname, which Swift's Glibc module leaves out: /dev/ptmx, then
        // TIOCSPTLCK (unlock) and TIOCGPTN (its number) from <asm-generic/ioctls.h>.
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0, number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw BrowseBenchmark.Failure("no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let slave = "/dev/pts/\(number)"
        var size = winsize(ws_row: 40, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
        let probe = open(slave, O_RDWR | O_NOCTTY)
        _ = ioctl(probe, UInt(TIOCSWINSZ), &size)
        close(probe)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(0x80))  // POSIX_SPAWN_SETSID: the slave becomes its terminal
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, slave, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["LESSHISTFILE"] = "-"
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid = pid_t()
        let failed = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard failed == 0 else { throw BrowseBenchmark.Failure("cannot start \(executable): \(failed)") }
        self.pid = pid
        command = ([(executable as NSString).lastPathComponent] + arguments).joined(separator: " ")
    }

    /// The output since the last key sent, as text.
    var recent: String { String(decoding: seen[mark...], as: UTF8.self) }

    func send(_ keys: String) {
        mark = seen.count
        _ = keys.withCString { write(master, $0, strlen($0)) }
    }

    /// Reads until `text` appears in the output since the last key; throws after `timeout` seconds.
    func wait(for text: String, timeout: Double) throws {
        let needle = Array(text.utf8)
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var searched = mark
        while true {
            if find(needle, from: max(mark, searched - needle.count)) != nil { return }
            searched = seen.count
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            guard left > 0, poll(&descriptor, 1, left) > 0 else {
                throw BrowseBenchmark.Failure("\(command): '\(text)' did not appear within \(timeout) s")
            }
            let n = read(master, &buffer, buffer.count)
            guard n > 0 else { throw BrowseBenchmark.Failure("\(command) ended before '\(text)'") }
            seen += buffer.prefix(n)
        }
    }

    /// Reads (and keeps) what the program writes for `seconds`: a frame drawn whole before the next step.
    func drain(for seconds: Double) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let left = Int32(deadline.timeIntervalSinceNow * 1000)
            guard left > 0 else { return }
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, left) > 0 else { continue }
            let n = read(master, &buffer, buffer.count)
            guard n > 0 else { return }
            seen += buffer.prefix(n)
        }
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard seen.count - start >= needle.count else { return nil }
        var i = start
        while i + needle.count <= seen.count {
            if seen[i] == needle[0], seen[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// The peak resident memory (kB) of this program's children (the browse worker), now.
    func childrenPeakKB() -> Int {
        let list = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return list.split(separator: " ").compactMap { child -> Int? in
            guard let status = try? String(contentsOfFile: "/proc/\(child)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
            else { return nil }
            return Int(line.split(separator: " ").dropFirst().first ?? "")
        }.max() ?? 0
    }

    /// Waits for the program to end (draining its output); its peak resident memory in kB.
    func finish() throws -> Int {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var usage = rusage()
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(10)
        while wait4(pid, &status, WNOHANG, &usage) == 0 {
            guard Date() < deadline else {
                kill(pid, SIGKILL)
                throw BrowseBenchmark.Failure("\(command) did not end within 10 s of q")
            }
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 20) > 0 { _ = read(master, &buffer, buffer.count) }
        }
        close(master)
        return usage.ru_maxrss
    }
}
