// A render worker forked from the supervisor instead of started with exec: the
// child already has the runtime, the libraries and the document, so it skips a
// whole process start-up per worker, dearer for a dynamic build than a static one
// (BENCHMARKS.md, "Measurements behind the code": ForkedWorker). Safe only while
// the process has one thread — a lock held by another thread at fork() would stay
// held in the child forever — so it is checked each time, and a process with more
// threads starts workers with exec.

import CProcess
import CellKitRuntime
import Glibc

/// Starting a render worker with `fork()`, set up as `posix_spawn` would set up a new process.
package enum ForkedWorker {
    /// Whether a worker running `executable` may be forked: it would run this program
    /// (`/proc/self/exe`), this process has a single thread, and `CELLKIT_WORKER_EXEC` is not set
    /// (`1` starts workers with exec, to compare the two).
    package static func mayFork(executable: String) -> Bool {
        executable == "/proc/self/exe" && getenv("CELLKIT_WORKER_EXEC") == nil && threadCount() == 1
    }

    /// This process's threads, from `/proc/self/task` (0 when it cannot be read). A thread joined
    /// a moment ago may still be listed: the kernel wakes the joiner before it unlists the thread
    /// (31 of 20,000 joins in a C test). Then the worker starts with exec: slower, as correct.
    package static func threadCount() -> Int {
        guard let folder = opendir("/proc/self/task") else { return 0 }
        defer { closedir(folder) }
        var count = 0
        while let entry = readdir(folder) {
            if entry.pointee.d_name.0 != UInt8(ascii: ".") { count += 1 }
        }
        return count
    }

    /// After joining a helper thread, waits until the kernel stops listing it (`threadCount`), so
    /// that the next worker forks rather than starts with exec: at most 100 short yields, so that a
    /// thread of the embedding program's own is not waited for long.
    package static func awaitOneThread() {
        var tries = 0
        while tries < 100, threadCount() > 1 {
            sched_yield()
            tries += 1
        }
    }

    /// Forks a worker that runs `body` and exits with its status. In the child, before `body`:
    /// each `moving` descriptor is duplicated onto its target, standard output onto standard error,
    /// `closing` and every other descriptor from 3 up are closed (more than exec would close), the Swift
    /// runtime's backtracer is turned off for a Swift plugin's runtime (`SWIFT_BACKTRACE`), signal
    /// handlers are reset to the default action (ignored signals stay ignored, except SIGPIPE and
    /// the termination signals), no signal is blocked, and the supervisor's pending temporaries
    /// are forgotten (`prepare`: a plugin's `exit()` must not remove them). The
    /// child leads a process group of its own and dies by SIGKILL with the thread that forked it.
    /// Returns the child's process id.
    static func start(
        moving: [(from: Int32, to: Int32)], closing: [Int32], prepare: () -> Void, body: () -> Int32
    ) -> Result<pid_t, Spawn.Failure> {
        fflush(nil)  // else the child's exit would write the supervisor's buffered output again
        let parent = getpid()
        let pid = fork()
        if pid < 0 { return .failure(Spawn.Failure(code: errno)) }
        if pid > 0 {
            _ = setpgid(pid, pid)  // both sides set it: whichever runs first, the group exists before a kill
            return .success(pid)
        }
        _ = setpgid(0, 0)
        _ = ck_process_parent_death_signal(SIGKILL)
        if getppid() != parent { _exit(1) }  // the supervisor died before the signal was set
        prepare()
        // As for an exec'd worker: a Swift plugin's shared runtime, loaded here after resetSignals(),
        // would otherwise put its backtracer (a long report, slow to write: BENCHMARKS.md, "Measurements
        // behind the code": ForkedWorker.backtrace) in front of the fault's one line.
        setenv("SWIFT_BACKTRACE", "enable=no", 1)
        resetSignals()
        for fd in closing { close(fd) }
        for (from, to) in moving { dup2(from, to) }
        dup2(2, 1)
        // Only the descriptors moved here: not the supervisor's, nor an embedding program's files,
        // below the highest target as above it.
        let highest = moving.map(\.to).max() ?? 2
        for fd in 3..<max(3, highest) where !moving.contains(where: { $0.to == fd }) { close(fd) }
        _ = ck_process_close_from(max(3, highest + 1))
        let status = body()
        fflush(nil)
        _exit(status)
    }

    /// Every handled signal back to its default action, SIGPIPE and the termination signals too
    /// even if ignored; an empty signal mask.
    private static func resetSignals() {
        var action = sigaction()
        sigemptyset(&action.sa_mask)
        for signal in 1..<Int32(65) where signal != SIGKILL && signal != SIGSTOP {
            var current = sigaction()
            guard sigaction(signal, nil, &current) == 0 else { continue }
            let handler = unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)  // 0: default, 1: ignored
            if handler > 1 || (handler == 1 && [SIGPIPE, SIGINT, SIGTERM, SIGHUP].contains(signal)) {
                _ = sigaction(signal, &action, nil)
            }
        }
        var none = sigset_t()
        sigemptyset(&none)
        sigprocmask(SIG_SETMASK, &none, nil)
    }
}
