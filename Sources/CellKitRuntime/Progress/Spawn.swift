// Starting a helper process (a render or check worker, or cellkit in a test) with a
// clean signal state: nothing blocked, whatever the starting thread has blocked
// (Foundation's Process passes the thread's mask on, and test threads block SIGTERM),
// and no descriptor but the ones it is given: a file another thread opened without
// O_CLOEXEC (an embedding program's, a test's) is out of a plugin's reach.

import CProcess
import Glibc

/// `posix_spawn` with a clean signal state, written once for every process CellKit starts.
package enum Spawn {
    /// Starts `executable` with `arguments` (after argv[0], which is `executable`), this process's
    /// environment with `environment` set over it, no signal blocked, and `defaultSignals` (all,
    /// when nil) reset to their default action, in a process group of its own if `newGroup`;
    /// `files` adds the file actions (redirections); every descriptor from `keeping` up is closed
    /// in the child after them (by default all but standard input, output and error).
    /// Returns the process id, or why `posix_spawn` failed.
    package static func start(
        _ executable: String, _ arguments: [String], setting environment: [String: String] = [:],
        defaultSignals: [Int32]? = nil, newGroup: Bool = false,
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
        let cArguments = ([executable] + arguments).map { strdup($0) } + [nil]
        let cEnvironment = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in cArguments + cEnvironment { free(p) } }
        var pid = pid_t()
        let failed = posix_spawn(&pid, executable, &actions, &attributes, cArguments, cEnvironment)
        return failed == 0 ? .success(pid) : .failure(Failure(code: failed))
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
