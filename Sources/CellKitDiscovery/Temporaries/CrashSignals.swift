// The crash signals and the chaining of their handlers: `PendingTemporaries`, the crash reporter
// and the helper threads' fault handlers (CellKitRuntime's Progress/) each install one handler
// for every crash signal and hand the signal over to the action they replaced. Async-signal-safe.

import Glibc

/// The crash signals (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSYS) and how a handler
/// for them is installed and hands over to the action it replaced.
package enum CrashSignals {
    /// Signals a crash handler is installed for, in the order `previous` actions are kept.
    package static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSYS]

    /// `signal`'s place in `signals`, or -1; a switch, so a handler may call it.
    private static func index(_ signal: Int32) -> Int {
        switch signal {
        case SIGSEGV: 0
        case SIGBUS: 1
        case SIGILL: 2
        case SIGTRAP: 3
        case SIGABRT: 4
        case SIGFPE: 5
        case SIGSYS: 6
        default: -1
        }
    }

    /// A handler for the crash signals (`signals`).
    package typealias CrashHandler =
        @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void

    /// Installs `handler` for every crash signal (on the alternate stack where a thread has one),
    /// keeping the actions it replaces in `previous`, in `signals` order.
    package static func installCrashHandler(_ handler: CrashHandler, saving previous: UnsafeMutablePointer<sigaction>) {
        for (i, signal) in signals.enumerated() {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = handler
            action.sa_flags = SA_SIGINFO | SA_ONSTACK
            sigemptyset(&action.sa_mask)
            _ = sigaction(signal, &action, previous + i)
        }
    }

    /// Hands `signal` over to the action kept for it in `previous`: a fault happens again when the
    /// handler returns and reaches that action; a sent signal (abort's) is raised again.
    /// Async-signal-safe: sigaction(2) and raise(3).
    package static func handOver(
        _ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, to previous: UnsafeMutablePointer<sigaction>
    ) {
        let i = index(signal)
        if i >= 0 { _ = sigaction(signal, previous + i, nil) }
        if let info, info.pointee.si_code <= 0 { raise(signal) }
    }
}
