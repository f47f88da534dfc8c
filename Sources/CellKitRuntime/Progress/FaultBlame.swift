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

    /// Installs the handler for every crash signal. Call it in the worker, before plugins load.
    package static func install() {
        _ = previous
        CrashReporter.installCrashHandler(handler, saving: previous)
    }

    private static let handler: CrashReporter.CrashHandler = { signal, info, context in
        if let record = HookProgress.record, record.pointee.faultLibrary == 0 {
            let address = ck_process_fault_address(context)
            record.pointee.faultLibrary = HookProgress.library(holding: address, in: record)
        }
        CrashReporter.handOver(signal, info, to: FaultBlame.previous)
    }
}
