// What a process does first when it becomes a worker, before any plugin loads: it dies
// with its supervisor, children that plugins fork end when their hook returns, and a
// crash is placed by address. A process is a worker only when its supervisor made it
// one: an argument, a descriptor only the supervisor creates, and a key.

import CProcess
import CellKitRuntime
import Glibc
import Synchronization

/// The worker side's start.
package enum WorkerRole {
    /// Makes this process a worker of `supervisor`: SIGKILL when it dies (ends now if it died
    /// already), forks watched (`ck_process_watch_forks`: a forked child ends after the hook and
    /// dies with this process), and crashes placed by address (`FaultBlame`). The sandbox closes
    /// later, once the worker knows what its plugins need, and before any of them loads
    /// (`Sandbox.enter`): the worker stays this process.
    package static func enter(supervisor: pid_t) {
        _ = ck_process_parent_death_signal(SIGKILL)
        if getppid() != supervisor { _exit(1) }
        parent.store(getppid(), ordering: .relaxed)
        ck_process_watch_forks()
        FaultBlame.install()
    }

    private static let parent = Atomic<pid_t>(0)

    /// The worker's parent as `enter` left it: the supervisor. The supervisor is gone when it is
    /// another.
    package static var expectedParent: pid_t { parent.load(ordering: .relaxed) }

    /// Whether `fd` is the shared memory a supervisor made (a memfd named `name`, or an unlinked
    /// temporary file of that name): what an
    /// environment variable alone cannot forge.
    package static func isSharedMemory(_ fd: Int32, named name: String) -> Bool {
        var buffer = [CChar](repeating: 0, count: 256)
        let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard n > 0 else { return false }
        let target = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Without memfd, the memory is an unlinked temporary file of that name.
        return target.hasPrefix("/memfd:\(name)") || (target.contains("/\(name).") && target.hasSuffix(" (deleted)"))
    }

    /// A fresh random key for a worker's frames.
    package static func newKey() -> UInt64 {
        var key: UInt64 = 0
        while key == 0 { key = UInt64.random(in: 1...UInt64.max) }
        return key
    }
}
