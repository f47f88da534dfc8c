// CellKit's own threads that run beside plugin code: a long data file's rows read
// ahead (CellKitDocuments' RowReader). A crash on one of them is CellKit's fault,
// whatever hook the table's thread is in at that moment. So their crash handler
// marks the progress record (`Header.helperFault`) before the process dies: the
// supervisor of an isolated render then blames no plugin, and `CrashReporter`
// prints no plugin's line. The handler only compares thread ids, stores, and calls
// sigaction(2) and raise(3): async-signal-safe.

import CellKitDiscovery
import Glibc
import Synchronization

/// Marks the threads CellKit runs beside plugin code, so that a crash on one is not blamed on the
/// hook that runs on the table's thread at that moment.
package enum HelperThreads {
    /// Threads marked at once; a thread beyond them runs unmarked (a crash on it is blamed as the
    /// record says, as before helpers existed).
    static let capacity = 8
    /// The marked threads (`pthread_self()`, a read of the thread's own pointer, which a signal
    /// handler may call), 0 for a free place.
    private static let marked: InlineArray<8, Atomic<UInt>> = InlineArray { _ in Atomic(0) }
    /// Whether this process (or the one it was forked from) installed the handlers.
    private static let installed = Mutex(false)
    /// The actions the handler hands over to, in `CrashSignals.signals` order.
    nonisolated(unsafe) private static let previous: UnsafeMutablePointer<sigaction> = {
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: CrashSignals.signals.count)
        actions.initialize(repeating: sigaction(), count: CrashSignals.signals.count)
        return actions
    }()

    /// Marks the calling thread as CellKit's own (`true`, when it starts) or no longer (`false`,
    /// before it ends). Installs the crash handlers if they are not in place and the process
    /// keeps a progress record (a render worker, or `CrashReporter.install()`); without one there
    /// is nothing to attribute.
    @Sendable package static func mark(_ running: Bool) {
        guard HookProgress.record != nil else { return }
        let me = pthread_self()
        if running {
            installIfMissing()
            for k in 0..<capacity
            where marked[k].compareExchange(expected: 0, desired: me, ordering: .sequentiallyConsistent).exchanged {
                return
            }
        } else {
            for k in 0..<capacity where marked[k].load(ordering: .sequentiallyConsistent) == me {
                marked[k].store(0, ordering: .sequentiallyConsistent)
            }
        }
    }

    /// Whether the calling thread is marked; for a signal handler.
    static func callerIsMarked() -> Bool {
        let me = pthread_self()
        for k in 0..<capacity where marked[k].load(ordering: .sequentiallyConsistent) == me { return true }
        return false
    }

    /// Installs the handlers the first time, and again in a forked child whose signal actions
    /// were reset to the default (ForkedWorker) after its parent had installed them. Not over
    /// another handler installed after ours: that one hands over to ours, and ours to it would
    /// loop.
    private static func installIfMissing() {
        installed.withLock { installed in
            var current = sigaction()
            guard sigaction(SIGSEGV, nil, &current) == 0 else { return }
            let action = unsafeBitCast(current.__sigaction_handler.sa_sigaction, to: Int.self)
            guard !installed || action == 0 else { return }  // 0: SIG_DFL
            installed = true
            CrashSignals.installCrashHandler(handler, saving: previous)
        }
    }

    /// A crash: marks the record if a marked thread crashed, then the previous action (which
    /// `CrashReporter`'s handler may be).
    private static let handler: CrashSignals.CrashHandler = { signal, info, _ in
        if let record = HookProgress.record, HelperThreads.callerIsMarked() { record.pointee.helperFault = signal }
        CrashSignals.handOver(signal, info, to: HelperThreads.previous)
    }
}
