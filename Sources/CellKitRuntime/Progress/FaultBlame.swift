// Blame by address, in a worker: a crash's faulting instruction is looked up in the
// progress record's library table, so that a crash on a thread a plugin started is put
// on that plugin, not on whichever hook happened to be running. Loads and stores only.

import CProcess
import Glibc

/// The crash handler of a worker process: it records which plugin library holds the faulting
/// instruction (`HookProgress.Header.faultLibrary`), then lets the crash go on (the default
/// action: the process dies by the signal, which its supervisor reads).
package enum FaultBlame {
    nonisolated(unsafe) private static let previous: UnsafeMutablePointer<sigaction> = {
        let memory = UnsafeMutablePointer<sigaction>.allocate(capacity: CrashReporter.signals.count)
        memory.initialize(repeating: sigaction(), count: CrashReporter.signals.count)
        return memory
    }()

    /// The address-space limit in MiB when this process's address space is within 64 MiB of it
    /// (an allocation the limit refused is what crashed), else 0. Async-signal-safe: a `getrlimit`
    /// and a read of `/proc/self/statm` into a buffer on the stack.
    private static func atMemoryLimit() -> Int64 {
        var bound = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &bound) == 0, bound.rlim_cur != rlim_t.max
        else { return 0 }
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
            let n = read(fd, buffer.baseAddress, 64)
            var pages: UInt64 = 0
            for byte in buffer.prefix(max(0, n)) {
                guard byte >= 48, byte <= 57 else { break }
                pages = pages &* 10 &+ UInt64(byte - 48)
            }
            let used = pages &* UInt64(sysconf(Int32(_SC_PAGESIZE)))
            return used + (64 << 20) >= UInt64(bound.rlim_cur) ? Int64(bound.rlim_cur >> 20) : 0
        }
    }

    /// Installs the handler for every crash signal. Call it in the worker, before plugins load.
    package static func install() {
        _ = previous
        CrashReporter.installCrashHandler(handler, saving: previous)
    }

    private static let handler: CrashReporter.CrashHandler = { signal, info, context in
        if let record = HookProgress.record, record.pointee.faultLibrary == 0 {
            let address = ck_process_fault_address(context)
            record.pointee.faultLibrary = HookProgress.library(holding: address, in: record)
            record.pointee.memoryExceeded = atMemoryLimit()
        }
        CrashReporter.handOver(signal, info, to: FaultBlame.previous)
    }
}
