// Starting a helper process (a render or check worker, or cellkit in a test) with a
// clean signal state: nothing blocked, whatever the starting thread has blocked
// (Foundation's Process passes the thread's mask on, and test threads block SIGTERM),
// and no descriptor but the ones it is given: a file another thread opened without
// O_CLOEXEC (an embedding program's, a test's) is out of a plugin's reach.

import CProcess
import Glibc
import Synchronization

/// `posix_spawn` with a clean signal state, written once for every process CellKit starts.
package enum Spawn {
    /// Starts `executable` with `arguments` (after argv[0], which is `executable`), this process's
    /// environment with `environment` set over it and `unsetting` taken out, no signal blocked, and `defaultSignals` (all,
    /// when nil) reset to their default action, in a process group of its own if `newGroup`;
    /// `files` adds the file actions (redirections); every descriptor from `keeping` up is closed
    /// in the child after them (by default all but standard input, output and error).
    /// Returns the process id, or why `posix_spawn` failed.
    /// Unless `worker`, the process is recorded as this process's own (`withOwned`): a worker's
    /// sweep of the orphans its plugins left (a subreaper's children) spares it, whichever thread
    /// started it while the worker ran (a test's cellkit beside an isolated render, say).
    package static func start(
        _ executable: String, _ arguments: [String], setting environment: [String: String] = [:],
        unsetting: [String] = [], defaultSignals: [Int32]? = nil, newGroup: Bool = false, worker: Bool = false,
        keeping: Int32 = 3, files: (inout posix_spawn_file_actions_t) -> Void = { _ in }
    ) -> Result<pid_t, Failure> {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        if let defaultSignals {
            sigemptyset(&defaults)
            for signal in defaultSignals { sigaddset(&defaults, signal) }
        } else {
            sigfillset(&defaults)
        }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if newGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        files(&actions)
        let closing = ck_process_spawn_close_from(&actions, keeping)
        guard closing == 0 else { return .failure(Failure(code: closing)) }
        var variables: [String: String] = [:]
        var entry = environ
        while let text = entry.pointee {
            let pair = String(cString: text)
            if let equals = pair.firstIndex(of: "=") {
                variables[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
            entry += 1
        }
        variables.merge(environment) { _, new in new }
        for name in unsetting { variables[name] = nil }
        let cArguments = ([executable] + arguments).map { strdup($0) } + [nil]
        let cEnvironment = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in cArguments + cEnvironment { free(p) } }
        var pid = pid_t()
        // Started and recorded under the lock a sweep holds while it lists children: a sweep sees
        // the process recorded, or does not see it at all.
        let failed = owned.withLock { owned in
            let failed = posix_spawn(&pid, executable, &actions, &attributes, cArguments, cEnvironment)
            if failed == 0, !worker { owned[pid] = startTime(of: pid) }
            return failed
        }
        return failed == 0 ? .success(pid) : .failure(Failure(code: failed))
    }

    /// The processes started as this process's own, by id, with their start times (a reused id
    /// is another process).
    private static let owned = Mutex<[pid_t: UInt64]>([:])

    /// `body` given a test of whether a process is one this process started as its own; no such
    /// process starts meanwhile. Entries of processes that are gone are forgotten.
    package static func withOwned<T>(_ body: ((pid_t) -> Bool) -> T) -> T {
        owned.withLock { owned in
            owned = owned.filter { startTime(of: $0.key) == $0.value }
            return body { pid in owned[pid] != nil }
        }
    }

    /// When process `pid` started (clock ticks after boot, `/proc/PID/stat`'s 22nd field); 0 if
    /// it is gone.
    private static func startTime(of pid: pid_t) -> UInt64 { statField(19, of: pid).flatMap { UInt64($0) } ?? 0 }

    /// Field `index` of `/proc/PID/stat` counted from the state (0) after "pid (comm)", whose name may
    /// hold spaces and parentheses; nil if the process is gone. Parents and start times read it.
    package static func statField(_ index: Int, of pid: pid_t) -> String? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let n = read(fd, &buffer, buffer.count)
        guard n > 0, let end = buffer[..<n].lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = buffer[(end + 1)..<n].split(separator: UInt8(ascii: " "))
        return fields.count > index ? String(decoding: fields[index], as: UTF8.self) : nil
    }

    /// A process that could not be started: the `errno` and its text.
    package struct Failure: Error, CustomStringConvertible {
        /// The error number `posix_spawn` returned.
        package let code: Int32
        /// `strerror` of the code.
        package var description: String { String(cString: strerror(code)) }

        /// The failure with error number `code`.
        package init(code: Int32) { self.code = code }
    }
}
