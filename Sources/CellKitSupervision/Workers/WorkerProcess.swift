// A worker process as the supervisor holds it: started in a process group of its own,
// killed as a group, reaped, and followed by a sweep of whatever it left behind (the
// supervisor is a child subreaper while it has workers, so orphans come back to it).
// How a wait status reads is decoded here once for render and check.

import CProcess
import CellKitRuntime
import Glibc
import Synchronization

extension FaultOutcome {
    /// How a process ended, from `waitpid`'s status.
    package init(waitStatus status: Int32) {
        self = status & 0x7f == 0 ? .exit((status >> 8) & 0xff) : .signal(status & 0x7f)
    }
}

/// A running worker: its process id (also its process group), owned by one supervisor.
package final class WorkerProcess {
    /// The worker's process id, and its process group's.
    package let pid: pid_t
    /// This process's children when the worker started (an embedding program's own): spared.
    private let spared: Set<pid_t>
    private var reaped: FaultOutcome?

    init(pid: pid_t, sparing spared: Set<pid_t>) { (self.pid, self.spared) = (pid, spared) }

    /// Forks a worker that runs `body` and exits with its status (`ForkedWorker`); the child
    /// gets `moving` descriptors at their targets and dies with this thread; `prepare` runs first in
    /// the child (to forget state of the supervisor's that the child must not act on).
    package static func fork(
        moving: [(from: Int32, to: Int32)], closing: [Int32], prepare: () -> Void, body: () -> Int32
    ) -> Result<WorkerProcess, Spawn.Failure> {
        let spared = Descendants.adopt()
        return ForkedWorker.start(moving: moving, closing: closing, prepare: prepare, body: body)
            .map { WorkerProcess(pid: $0, sparing: spared) }
    }

    /// Starts `executable` with `arguments` as a worker in a process group of its own (it sets its
    /// parent-death signal itself: `WorkerRole.enter`); it holds descriptors 0 up to `keeping`
    /// (those `files` sets) and no other.
    package static func spawn(
        _ executable: String, _ arguments: [String], setting environment: [String: String], keeping: Int32,
        files: (inout posix_spawn_file_actions_t) -> Void
    ) -> Result<WorkerProcess, Spawn.Failure> {
        let spared = Descendants.adopt()
        return Spawn.start(
            executable, arguments, setting: environment, defaultSignals: nil, newGroup: true, worker: true,
            keeping: keeping, files: files
        ).map { WorkerProcess(pid: $0, sparing: spared) }
    }

    deinit { finish() }

    /// Kills the worker's whole process group.
    package func kill() { _ = Glibc.kill(-pid, SIGKILL) }

    /// Whether the worker has ended (reaping it if so), without waiting.
    package func hasEnded() -> Bool {
        if reaped != nil { return true }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return false }
        reaped = FaultOutcome(waitStatus: status)
        return true
    }

    /// Waits for the worker to end: how it ended.
    @discardableResult
    package func wait() -> FaultOutcome {
        if let reaped { return reaped }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let outcome = FaultOutcome(waitStatus: status)
        reaped = outcome
        return outcome
    }

    /// Ends the worker if it still runs, and everything it started: its process group, then any
    /// orphan that came back to this process. Once: a process group id is not killed again later,
    /// when it could have been reused.
    package func finish() {
        guard !finished else { return }
        finished = true
        kill()
        wait()
        if let companion, companion > 0 {  // ended or ending with the worker: reaped, no /proc scan
            var status: Int32 = 0
            while waitpid(companion, &status, 0) < 0, errno == EINTR {}
        }
        Descendants.sweep(sparing: spared)
    }

    private var finished = false

    /// A process the worker started that ends with it and comes back to this process then (its
    /// sandbox's listener, `Sandbox.Report.listener`): `finish` reaps it by name.
    package var companion: pid_t?
}

/// The processes workers leave behind. While a render or check runs, this process is a child
/// subreaper: a process a plugin started and left (whatever group it moved to) becomes its
/// child when its parent dies, and `sweep(sparing:)` kills and reaps every such child. The
/// children this process had when a worker started are its own (an embedding program's) and
/// are spared, and so are those it starts through `Spawn` meanwhile; one an embedding program
/// starts otherwise on another thread while a worker runs is not told apart.
package enum Descendants {
    private static let subreaper = Mutex(false)

    /// Makes this process a child subreaper (once); returns the children it has now, to spare.
    static func adopt() -> Set<pid_t> {
        subreaper.withLock { done in
            if !done { _ = ck_process_child_subreaper(1) }
            done = true
        }
        return hasChildren() ? Set(children()) : []  // one waitid in the usual case: no child
    }

    /// Kills and reaps every child of this process but `spared`, repeating while orphans keep
    /// arriving (at most 50 rounds).
    package static func sweep(sparing spared: Set<pid_t>) {
        for _ in 0..<50 {
            guard hasChildren() else { return }  // the usual case: one waitid, no /proc scan
            let strays = Spawn.withOwned { owned in children().filter { !spared.contains($0) && !owned($0) } }
            if strays.isEmpty { return }
            for pid in strays { _ = Glibc.kill(pid, SIGKILL) }
            for pid in strays {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            }
        }
    }

    /// Whether this process has any child, running or ended (without reaping it).
    static func hasChildren() -> Bool {
        var info = siginfo_t()
        return waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) == 0
    }

    /// The children of this process, from `/proc`.
    static func children() -> [pid_t] {
        let own = getpid()
        var found: [pid_t] = []
        guard let folder = opendir("/proc") else { return [] }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let pid = pid_t(name), pid != own, parent(of: pid) == own { found.append(pid) }
        }
        return found
    }

    /// The parent of `pid`, from `/proc/PID/stat` (its fourth field), or -1.
    static func parent(of pid: pid_t) -> pid_t { Spawn.statField(1, of: pid).flatMap { pid_t($0) } ?? -1 }
}
