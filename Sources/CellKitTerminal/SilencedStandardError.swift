// Standard error sent to /dev/null while a full-screen view is drawn (browse, preview): standard
// error is the terminal the view is on, and what a plugin or a worker writes there meanwhile
// would scribble over it.

import Glibc

/// Standard error pointed at /dev/null from its making until `restore()` or its end.
package final class SilencedStandardError {
    private let saved: Int32, null: Int32

    /// Standard error silenced now (left as it is when /dev/null cannot be opened).
    package init() {
        saved = dup(2)
        null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        if null >= 0 { dup2(null, 2) }
    }

    /// Standard error back where it was (the view's warnings printed after it, say).
    package func restore() {
        if saved >= 0 { dup2(saved, 2) }
    }

    deinit {
        restore()
        for fd in [saved, null] where fd >= 0 { close(fd) }
    }
}
