// Blame by address, in a worker: a crash's faulting instruction is looked up in the
// progress record's library table, so that a crash on a thread a plugin started is put
// on that plugin, not on whichever hook happened to be running. Loads and stores only.

import CProcess
import CellKitDiscovery
import Glibc

/// The crash handler of a worker process: it records which plugin library holds the faulting
/// instruction (`HookProgress.Header.faultLibrary`), then lets the crash go on (the default
/// action: the process dies by the signal, which its supervisor reads).
package enum FaultBlame {
    nonisolated(unsafe) private static let previous: UnsafeMutablePointer<sigaction> = {
        let memory = UnsafeMutablePointer<sigaction>.allocate(capacity: CrashSignals.signals.count)
        memory.initialize(repeating: sigaction(), count: CrashSignals.signals.count)
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

    /// The thread hooks run on: the one that installed the handler.
    nonisolated(unsafe) private static var hookThread = pthread_self()

    /// The first plugin library (its entry plus one) that a word on the stack above `pointer`
    /// points into: a return address of the plugin code that started the crashing thread, or
    /// called what crashed. Read through `/proc/self/mem` (a bad address is an error there, not a
    /// second fault), at most 256 KiB. Async-signal-safe: open, pread, close, loads.
    private static func libraryOnStack(from pointer: UInt, in record: UnsafePointer<HookProgress.Header>) -> Int32 {
        guard pointer != 0 else { return 0 }
        let fd = open("/proc/self/mem", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 512) { words in
            var at = pointer & ~7
            for _ in 0..<64 {  // 64 pieces of 4 KiB
                let n = pread(fd, words.baseAddress, 4096, off_t(Int(bitPattern: at)))
                guard n > 0 else { return 0 }
                for word in words.prefix(n / 8) {
                    let found = HookProgress.library(holding: UInt(word), in: record)
                    if found != 0 { return found }
                }
                at += UInt(n)
            }
            return 0
        }
    }

    /// Installs the handler for every crash signal. Call it in the worker, before plugins load,
    /// on the thread its hooks run on.
    package static func install() {
        _ = previous
        hookThread = pthread_self()
        CrashSignals.installCrashHandler(handler, saving: previous)
    }

    private static let handler: CrashSignals.CrashHandler = { signal, info, context in
        if let record = HookProgress.record, record.pointee.faultLibrary == 0 {
            let address = ck_process_fault_address(context)
            record.pointee.faultLibrary = HookProgress.library(holding: address, in: record)
            if record.pointee.faultLibrary == 0, pthread_equal(pthread_self(), hookThread) == 0 {
                // Not the thread hooks run on, and not in a plugin's code (a null call, the C
                // library): the thread is a plugin's; its stack says which.
                record.pointee.faultLibrary = libraryOnStack(from: ck_process_stack_pointer(context), in: record)
            }
            record.pointee.memoryExceeded = atMemoryLimit()
        }
        CrashSignals.handOver(signal, info, to: FaultBlame.previous)
    }
}
