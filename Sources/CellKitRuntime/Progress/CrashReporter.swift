// Attribution without isolation: when plugin code crashes the process (or calls
// exit()), print the line that names the plugin, the hook, the cell type and the
// row before the process ends. The handlers only read the progress record and
// call write(2), sigaction(2) and raise(3): async-signal-safe.

import CellKitDiscovery
import Glibc
import Synchronization

/// Names the plugin when plugin code ends the process: a crash (SIGSEGV, SIGBUS, SIGILL, SIGTRAP,
/// SIGABRT, SIGFPE, SIGSYS) or `exit()` inside a hook, a plugin's constructor or its
/// `cellkit_plugin_init` prints one line to standard error, such as
/// `libcrashy.so: customizeCellForCrashy crashed (SIGSEGV) at row 1.1`, and the process then ends
/// as it would have (the previous signal action runs: the Swift runtime's backtracer, or the
/// default). A crash outside plugin code prints nothing.
///
/// The line comes from a progress record every cell's hooks write to before they run (a few
/// plain stores, no system call), once `install()` has been called; install it before any cell
/// is made. `cellkit render --no-isolation` installs it. The record is one per process: with
/// hooks running on several threads, the line names the hook that started last, and only the
/// installing thread gets the alternate stack a stack overflow's report needs.
public enum CrashReporter {
    /// Signals whose handler prints the line.
    package static let signals = CrashSignals.signals
    static let lineCapacity = 2048

    private static let installed = Mutex(false)
    /// Made before any handler exists; read by the handlers only.
    nonisolated(unsafe) private static var line = UnsafeMutablePointer<UInt8>.allocate(capacity: lineCapacity)
    nonisolated(unsafe) private static var previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 7)
    nonisolated(unsafe) private static var reported = false

    /// Starts recording hooks and installs the handlers: for the crash signals (on an alternate
    /// signal stack for the calling thread, so that a stack overflow is reported too) and for
    /// `exit()`. Call it once, early, on the thread that renders; later calls do nothing.
    public static func install() {
        installed.withLock { installed in
            guard !installed else { return }
            installed = true
            HookProgress.installPrivate()
            _ = line
            previous.initialize(repeating: sigaction(), count: signals.count)
            installAlternateStack()
            CrashSignals.installCrashHandler(handler, saving: previous)
            on_exit(exitHandler, nil)
        }
    }

    /// Gives the calling thread a signal stack if it has none: a handler for a stack
    /// overflow cannot run on the stack that overflowed.
    private static func installAlternateStack() {
        var current = stack_t()
        guard sigaltstack(nil, &current) == 0, current.ss_flags & Int32(SS_DISABLE) != 0 else { return }
        let size = 256 * 1024
        var stack = stack_t()
        stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        stack.ss_size = size
        stack.ss_flags = 0
        _ = sigaltstack(&stack, nil)
    }

    /// Writes the line for `outcome` if plugin code is running and no line was written yet.
    private static func report(_ outcome: FaultOutcome) {
        guard !reported, let record = HookProgress.record,
            record.pointee.phase != HookProgress.Phase.host.rawValue, record.pointee.helperFault == 0
        else { return }
        reported = true
        let count = FaultLine.write(record, outcome, into: line, capacity: lineCapacity)
        var written = 0
        while written < count {
            let n = Glibc.write(2, line + written, count - written)
            if n <= 0 { break }
            written += n
        }
    }

    /// A crash: the line, then the previous action.
    private static let handler: CrashSignals.CrashHandler = { signal, info, _ in
        CrashReporter.report(.signal(signal))
        CrashSignals.handOver(signal, info, to: CrashReporter.previous)
    }

    /// `exit()` while plugin code runs.
    private static let exitHandler: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Void = { status, _ in
        CrashReporter.report(.exit(status))
    }
}
