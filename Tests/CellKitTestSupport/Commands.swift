// Running the built `cellkit` (and other programs) from a test: its status and output, with the
// default signal mask and actions, waited for with a deadline. Shared by the test targets of every
// module whose tests go through the command (discovery, the runtime, supervision, check, the command).

import CellKit
import CellKitSupervision
import Foundation
import Testing

/// The built `cellkit`, run from a test.
public struct CellKitTool: Sendable {
    public init() {}

    /// How a process failed to start.
    public struct SpawnFailed: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// How a process ended.
    public enum Ending: Equatable, Sendable {
        case exited(Int32)
        case signaled(Int32)
        case stillRunning
    }

    /// Runs the built `cellkit` with `arguments`; returns its exit status and output.
    public func cellkit(_ arguments: [String]) throws -> (Int32, String) {
        let binary = Fixtures.buildDirectory + "/cellkit"
        try #require(FileManager.default.isExecutableFile(atPath: binary), "swift test builds cellkit beside the tests")
        // Through Spawn (Fixtures): an isolated render's sweep in another test spares it.
        let result = try Fixtures.execute(binary, arguments, mergingErrors: true)
        return (result.status, result.output)
    }

    /// A table streaming `count` rows from rows.jsonl, and an old out.txt, in a new folder.
    public func streamedTable(rows count: Int, unknownAt bad: Int? = nil, name: String = #function) throws -> String {
        var lines = ""
        lines.reserveCapacity(count * 70)
        for n in 1...count {
            let cell = n == bad ? "Nowhere" : "Subtitle"
            lines += #"{"cell":"\#(cell)","text":"Row \#(n)","detail":"the detail text of row \#(n)"}"# + "\n"
        }
        return try Render.write(
            ["t.yaml": "sections:\n  - rowsFrom: rows.jsonl\n", "rows.jsonl": lines, "out.txt": "previous"], name: name)
    }

    /// Starts cellkit (through `sh -c 'umask …'` if `umask` is given) with the default signal mask and
    /// actions, whatever the test thread has blocked (Foundation's Process passes the thread's mask on,
    /// and a test thread blocks SIGTERM); its output goes to `log`. Returns its process id.
    public func start(
        _ arguments: [String], umask: String? = nil, environment: [String: String] = [:], log: String
    ) throws -> pid_t {
        let binary = Fixtures.buildDirectory + "/cellkit"
        let argv =
            umask.map { ["/bin/sh", "-c", "umask \($0) && exec \"$0\" \"$@\"", binary] + arguments }
            ?? [binary] + arguments
        let started = Spawn.start(argv[0], Array(argv.dropFirst()), setting: environment) { actions in
            posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        guard case .success(let pid) = started else {
            throw SpawnFailed(description: "posix_spawn \(argv[0]): \(started)")
        }
        return pid
    }

    /// Waits up to `timeout` seconds for `pid`; kills it with SIGKILL if it is still running then.
    public func wait(_ pid: pid_t, timeout: Double = 60) -> Ending {
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid { break }
            if waited < 0 {
                if errno == EINTR { continue }
                // Reaped elsewhere (a sweep of a worker's orphans, say): not an exit status.
                Issue.record("waitpid(\(pid)): \(String(cString: strerror(errno)))")
                return .stillRunning
            }
            guard Date() < deadline else {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                return .stillRunning
            }
            usleep(5_000)
        }
        return status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
    }

    /// Runs cellkit to the end (at most `timeout` seconds); how it ended and what it printed.
    public func run(
        _ arguments: [String], timeout: Double = 60, umask: String? = nil, environment: [String: String] = [:]
    ) throws -> (Ending, String) {
        let log = try Fixtures.folder() + "/log"
        let ending = wait(try start(arguments, umask: umask, environment: environment, log: log), timeout: timeout)
        return (ending, try contents(log))
    }

    public func contents(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    public func files(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    public func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as! NSNumber).intValue
    }
}

/// Any program (not only cellkit), run from a test through `Spawn`.
public struct Programs: Sendable {
    public init() {}

    /// Starts `argv` with its output (both streams) in `log`; its process id.
    public func start(_ argv: [String], log: String, stdin: String? = nil) throws -> pid_t {
        let started = Spawn.start(argv[0], Array(argv.dropFirst())) { actions in
            if let stdin { posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0) }
            posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        guard case .success(let pid) = started else { throw CellKitTool.SpawnFailed(description: "\(started)") }
        return pid
    }

    /// Runs `argv` to its end (at most `timeout` seconds); how it ended and what it printed.
    public func run(_ argv: [String], timeout: Double = 60, stdin: String? = nil) throws -> (CellKitTool.Ending, String)
    {
        let log = try Fixtures.folder() + "/log"
        let ending = CellKitTool().wait(try start(argv, log: log, stdin: stdin), timeout: timeout)
        return (ending, try CellKitTool().contents(log))
    }
}
