// The pipe a poll loop watches beside its terminal: a signal handler (TerminalScreen) or a thread
// (browse's search) writes a byte to it to wake the loop at once.

import CTerminal

/// A pipe, both ends close-on-exec and non-blocking from the start (one `pipe2` call): a write to
/// a full pipe returns at once (it holds news already), and no child process inherits an end.
/// Nil, with `errno` set, if it could not be made.
package func wakeupPipe() -> (read: Int32, write: Int32)? {
    var fds: (Int32, Int32) = (-1, -1)
    let made = withUnsafeMutablePointer(to: &fds) {
        $0.withMemoryRebound(to: Int32.self, capacity: 2) { ck_term_pipe($0) }
    }
    return made == 0 ? (fds.0, fds.1) : nil
}
