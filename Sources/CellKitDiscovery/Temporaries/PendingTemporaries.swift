// Temporary files that must not outlive the process: removed by an atexit function
// (a plugin may call exit() mid-render) and by signal handlers, which touch only
// memory prepared in advance and call only async-signal-safe functions.

import Foundation
import Synchronization

/// The temporaries of the `AtomicFileSink`s not yet committed or aborted, as C strings in fixed
/// slots, with the handlers that remove them installed while there is at least one.
///
/// Termination signals (`terminationSignals`: SIGINT, SIGTERM, SIGHUP, SIGQUIT and every other
/// catchable one that ends a process) get a handler only where the action is the
/// default one (an ignored SIGHUP stays ignored; a handler the program set stays): it removes
/// the temporaries, restores the default action and raises the signal again, so the process
/// dies by it. Crash signals (`CrashSignals.signals`) get a handler that removes the temporaries
/// and hands over to the action that was there before (the Swift runtime's backtracer, the crash
/// reporter's, or the default), installed and handed over to as `CrashReporter` does its own.
package enum PendingTemporaries {
    /// How many temporaries can be pending at once; past that, one is removed only by its sink.
    static let capacity = 64
    /// Every signal whose default action ends the process and that can be caught, crashes aside:
    /// a temporary is removed whichever one ends it (SIGKILL cannot be caught: stale cache
    /// temporaries are swept by the next save instead).
    static let terminationSignals: [Int32] = [
        SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGPIPE,
        SIGIO, SIGPWR, SIGSTKFLT,
    ]

    /// Each slot holds a C string's address (0 = free), published with release ordering and read
    /// by the handlers with acquire ordering. A disarmed string is not freed at once — a handler
    /// on another thread may be reading it — but kept in `retired` until its slot is disarmed
    /// again, so it stays reachable (LeakSanitizer counts it as in use, not leaked).
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<Atomic<Int>> = {
        let slots = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: capacity)
        for i in 0..<capacity { (slots + i).initialize(to: Atomic(0)) }
        return slots
    }()

    /// The string each slot held before it was last disarmed, freed when the slot is next disarmed.
    nonisolated(unsafe) private static let retired: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let retired = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        retired.initialize(repeating: nil, count: capacity)
        return retired
    }()

    /// The actions the crash handler hands over to, in `CrashSignals.signals` order.
    nonisolated(unsafe) private static let previousCrashActions: UnsafeMutablePointer<sigaction> = {
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: CrashSignals.signals.count)
        actions.initialize(repeating: sigaction(), count: CrashSignals.signals.count)
        return actions
    }()

    private struct State {
        var pending = 0
        var atexitRegistered = false
        /// The termination signals whose handler is ours, to put back to the default.
        var installedTermination: [Int32] = []
        var installedCrash = false
        /// SIGQUIT's action before ours, when it was a handler (the Swift runtime's backtracer).
        var previousQuit: sigaction?
    }

    private static let state = Mutex(State())

    /// Arms removal of `path`; returns the slot to give `remove(_:)`, or nil if every slot is taken.
    package static func add(_ path: String) -> Int? {
        state.withLock { state -> Int? in
            // Everything the handlers read exists before any handler does.
            _ = slots
            _ = previousCrashActions
            guard let slot = (0..<capacity).first(where: { slots[$0].load(ordering: .relaxed) == 0 }) else {
                return nil
            }
            slots[slot].store(Int(bitPattern: strdup(path)), ordering: .releasing)
            if !state.atexitRegistered {
                state.atexitRegistered = true
                atexit { PendingTemporaries.removeAll() }
            }
            state.pending += 1
            if state.pending == 1 { install(&state) }
            return slot
        }
    }

    /// Disarms `slot` (its file was renamed into place or removed); the last one removes the handlers.
    package static func remove(_ slot: Int) {
        state.withLock { state in
            let address = slots[slot].exchange(0, ordering: .acquiringAndReleasing)
            guard let path = UnsafeMutablePointer<CChar>(bitPattern: address) else { return }
            free(retired[slot])  // disarmed a whole add and remove ago: no handler still reads it
            retired[slot] = path
            state.pending -= 1
            if state.pending == 0 { uninstall(&state) }
        }
    }

    /// In a child forked from this process: forgets every pending temporary (they are the parent's
    /// to remove), so that neither its atexit function nor a handler removes them. Each string
    /// moves to `retired`, still reachable: LeakSanitizer, at a plugin's `exit()` in the child,
    /// counted it as leaked and changed the exit status.
    package static func forgetInChild() {
        for i in 0..<capacity {
            let address = slots[i].exchange(0, ordering: .relaxed)
            guard let path = UnsafeMutablePointer<CChar>(bitPattern: address) else { continue }
            free(retired[i])
            retired[i] = path
        }
    }

    /// Unlinks every pending temporary. Async-signal-safe: atomic loads and unlink(2) only.
    static func removeAll() {
        for i in 0..<capacity {
            let address = slots[i].load(ordering: .acquiring)
            if let path = UnsafePointer<CChar>(bitPattern: address) { unlink(path) }
        }
    }

    private static func install(_ state: inout State) {
        for signal in terminationSignals {
            var current = sigaction()
            guard sigaction(signal, nil, &current) == 0 else { continue }
            let handler = unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)  // 0 default, 1 ignored
            if signal == SIGQUIT, handler > 1 {
                // The Swift runtime's backtracer takes SIGQUIT and lets the process go on: ours goes
                // first while a temporary is pending (the process then dies by it), and it comes back after.
                state.previousQuit = current
            } else if handler != 0 {
                continue  // ignored, or the program's own handler: leave it
            }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = terminationHandler
            sigemptyset(&action.sa_mask)
            if sigaction(signal, &action, nil) == 0 { state.installedTermination.append(signal) }
        }
        CrashSignals.installCrashHandler(crashHandler, saving: previousCrashActions)
        state.installedCrash = true
    }

    private static func uninstall(_ state: inout State) {
        for signal in state.installedTermination where handler(of: signal) == address(terminationHandler) {
            var action = sigaction()
            sigemptyset(&action.sa_mask)
            if signal == SIGQUIT, let previous = state.previousQuit { action = previous }
            _ = sigaction(signal, &action, nil)
        }
        state.installedTermination = []
        state.previousQuit = nil
        if state.installedCrash {
            for (i, signal) in CrashSignals.signals.enumerated() where handler(of: signal) == address(crashHandler) {
                _ = sigaction(signal, previousCrashActions + i, nil)
            }
            state.installedCrash = false
        }
    }

    /// The address of the handler `signal` has now (0 for the default action).
    private static func handler(of signal: Int32) -> Int {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0 else { return -1 }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
    }

    private static func address(_ handler: __sighandler_t) -> Int { unsafeBitCast(handler, to: Int.self) }

    private static func address(
        _ handler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void
    ) -> Int {
        unsafeBitCast(handler, to: Int.self)
    }

    /// A termination signal: remove the temporaries, then die by the signal.
    private static let terminationHandler: @convention(c) (Int32) -> Void = { signal in
        PendingTemporaries.removeAll()
        var action = sigaction()
        sigemptyset(&action.sa_mask)
        _ = sigaction(signal, &action, nil)
        raise(signal)  // blocked until the handler returns, then delivered with the default action
    }

    /// SIGSEGV and the other crashes: remove the temporaries and restore the previous action. A fault
    /// happens again when the handler returns and reaches that action; a sent signal is raised again.
    private static let crashHandler: CrashSignals.CrashHandler = {
        signal, info, _ in
        PendingTemporaries.removeAll()
        CrashSignals.handOver(signal, info, to: PendingTemporaries.previousCrashActions)
    }
}
