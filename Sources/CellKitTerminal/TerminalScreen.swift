// A full-screen terminal session on /dev/tty: the terminal's description from terminfo, raw
// mode, the alternate screen, keys, resizes, and the terminal put back on every way out
// (returning, an error, any signal that ends the process, a crash; Ctrl-Z suspends and resumes).

import CTerminal
import Glibc

/// An error opening or driving the terminal, with a message for the user.
package struct TerminalError: Error, CustomStringConvertible {
    /// What went wrong and what to do.
    package let description: String
    /// An error with this message.
    package init(_ description: String) { self.description = description }
}

/// What happened while waiting for input.
package enum TerminalEvent: Sendable, Equatable {
    /// Keys pressed (or wheel turns), in order.
    case keys([Key])
    /// The terminal changed size: draw again at `TerminalScreen.size`.
    case resized
    /// The process was suspended (Ctrl-Z) and is running again: draw everything again.
    case resumed
    /// Nothing happened within the time given.
    case timeout
}

/// A terminal opened for a full-screen view. One per process, used from one thread. `start()`
/// switches to raw mode and the alternate screen; `stop()` (or any signal that ends the process)
/// puts it back. Every control sequence comes from the terminal's terminfo description except the
/// mouse-wheel report mode (SGR 1000/1006), which terminfo does not describe: it is sent only when
/// the description has the `kmous` key.
package final class TerminalScreen {
    /// The descriptor read and written: /dev/tty.
    package let fd: Int32
    /// Columns and lines now.
    package private(set) var size: (columns: Int, lines: Int) = (80, 24)
    /// Colours the terminal shows (terminfo `colors`); 0 when it shows none.
    package let colors: Int
    private let caps: [String: [UInt8]]
    private let decoder: KeyDecoder
    private var wakeup: (read: Int32, write: Int32) = (-1, -1)
    private var pending: [UInt8] = []
    private var started = false
    private let mouse: Bool
    /// Bytes queued and not written yet (`queue`, `flush`).
    private var outgoing: [UInt8] = []

    /// Opens /dev/tty and reads its description for `$TERM`. Throws when there is no terminal or
    /// its type is not described.
    package init() throws {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw TerminalError("no terminal: /dev/tty cannot be opened (\(Self.errnoText))") }
        guard isatty(fd) == 1 else {
            close(fd)
            throw TerminalError("/dev/tty is not a terminal")
        }
        if let failure = ck_term_library_failure() {
            close(fd)
            throw TerminalError(String(cString: failure))
        }
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        guard !term.isEmpty, term != "dumb", ck_term_setup(term, fd) == 0 else {
            close(fd)
            throw TerminalError(
                "the terminal type '\(term)' (TERM) has no terminfo description with cursor addressing; "
                    + "set TERM to your terminal's type, e.g. TERM=xterm-256color")
        }
        var caps: [String: [UInt8]] = [:]
        for name in Self.stringNames {
            if let value = Self.string(name) { caps[name] = value }
        }
        guard caps["cup"] != nil else {
            close(fd)
            throw TerminalError("the terminal type '\(term)' cannot move the cursor (no 'cup' in its description)")
        }
        (self.fd, self.caps) = (fd, caps)
        colors = max(0, Int(ck_term_number("colors")))
        decoder = KeyDecoder(capabilities: caps)
        mouse = caps["kmous"] != nil
        size = readSize()
    }

    deinit {
        stop()
        close(fd)
        if wakeup.read >= 0 {
            close(wakeup.read)
            close(wakeup.write)
        }
    }

    static let stringNames = [
        "smcup", "rmcup", "civis", "cnorm", "clear", "cup", "el", "sgr0", "smkx", "rmkx", "rev", "bold",
        "kcuu1", "kcud1", "kpp", "knp", "khome", "kend", "kmous",
    ]

    /// The bytes of string capability `name`, or nil when the terminal does not have it.
    static func string(_ name: String) -> [UInt8]? {
        var buffer = [CChar](repeating: 0, count: 512)
        let n = ck_term_string(name, &buffer, buffer.count)
        guard n >= 0 else { return nil }
        return buffer.prefix(Int(n)).map { UInt8(bitPattern: $0) }
    }

    static var errnoText: String { String(cString: strerror(errno)) }

    /// The terminal's size: the kernel's idea of it, else terminfo's `cols` and `lines`.
    private func readSize() -> (columns: Int, lines: Int) {
        var w = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &w) == 0, w.ws_col > 0, w.ws_row > 0 { return (Int(w.ws_col), Int(w.ws_row)) }
        return (max(1, Int(ck_term_number("cols"))), max(1, Int(ck_term_number("lines"))))
    }

    /// What leaving writes: the mouse off, keypad mode off, attributes reset, the cursor shown,
    /// the normal screen back.
    private var restoreBytes: [UInt8] {
        (mouse ? Array("\u{1B}[?1006l\u{1B}[?1000l".utf8) : []) + (caps["rmkx"] ?? []) + (caps["sgr0"] ?? [])
            + (caps["cnorm"] ?? []) + (caps["rmcup"] ?? [])
    }

    /// What entering writes: the alternate screen, keypad mode, the cursor hidden, the mouse on.
    private var enterBytes: [UInt8] {
        (caps["smcup"] ?? []) + (caps["smkx"] ?? []) + (caps["civis"] ?? []) + (caps["clear"] ?? [])
            + (mouse ? Array("\u{1B}[?1000h\u{1B}[?1006h".utf8) : [])
    }

    /// Raw mode, the alternate screen and the signal handlers that restore the terminal.
    package func start() throws {
        guard !started else { return }
        guard let pipe = wakeupPipe() else { throw TerminalError("cannot make a pipe: \(Self.errnoText)") }
        wakeup = pipe
        let restore = restoreBytes
        let status = restore.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { ck_term_enter(fd, $0.baseAddress, $0.count) }
        }
        guard status == 0 else { throw TerminalError("cannot switch the terminal to raw mode: \(Self.errnoText)") }
        started = true
        ck_term_install_handlers(wakeup.write)
        write(enterBytes)
    }

    /// Puts the terminal back as `start()` found it; safe to call more than once.
    package func stop() {
        guard started else { return }
        started = false
        _ = ck_term_leave()
    }

    /// Writes `bytes` to the terminal, all of them.
    package func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return }
                offset += n
            }
        }
    }

    /// Queues `bytes`, written at the next `flush()` with the others in one write.
    package func queue(_ bytes: [UInt8]) { outgoing += bytes }

    /// Writes the bytes queued.
    package func flush() {
        guard !outgoing.isEmpty else { return }
        write(outgoing)
        outgoing.removeAll(keepingCapacity: true)
    }

    /// The bytes that move the cursor to `line`, `column` (from 0).
    package func move(line: Int, column: Int) -> [UInt8] { param("cup", line, column) ?? [] }

    /// Capability `name` with up to two parameters, or nil when the terminal lacks it.
    package func param(_ name: String, _ a: Int, _ b: Int = 0) -> [UInt8]? {
        var buffer = [CChar](repeating: 0, count: 128)
        let n = ck_term_param(name, Int32(a), Int32(b), &buffer, buffer.count)
        guard n >= 0 else { return nil }
        return buffer.prefix(Int(n)).map { UInt8(bitPattern: $0) }
    }

    /// A string capability's bytes (`el`, `sgr0`, `rev`, `bold` ...), or none.
    package func capability(_ name: String) -> [UInt8] { caps[name] ?? [] }

    /// Suspends the process as Ctrl-Z does in a shell (raw mode reads it as a key): the terminal is
    /// restored and the process stops; continued, it returns with raw mode and the alternate
    /// screen back (draw everything again).
    package func suspend() {
        raise(SIGTSTP)
        _ = signalEvent()  // continued: raw mode and the alternate screen again, before anything is drawn
    }

    /// Whether Escape was pressed since the last read, without waiting: what is typed meanwhile is
    /// read and dropped (a long search polls it to be cancelled).
    package func escapePressed() -> Bool {
        var pressed = false
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var buffer = [UInt8](repeating: 0, count: 256)
        while poll(&descriptor, 1, 0) > 0, descriptor.revents & Int16(POLLIN) != 0 {
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { break }
            if buffer.prefix(n).contains(0x1B) { pressed = true }
        }
        return pressed
    }

    /// Waits up to `timeout` seconds (nil: for ever) for keys, a resize or a resumption; or until
    /// `watching` (a descriptor another thread writes a byte to when it has news) is readable,
    /// which is drained and ends the wait as a timeout does.
    package func next(timeout: Double?, watching: Int32? = nil) throws -> TerminalEvent {
        if let event = signalEvent() { return event }
        var fds = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeup.read, events: Int16(POLLIN), revents: 0),
            pollfd(fd: watching ?? -1, events: Int16(POLLIN), revents: 0),  // a negative one is not polled
        ]
        let ms = timeout.map { Int32(max(0, $0 * 1000)) } ?? -1
        let n = poll(&fds, 3, ms)
        if n < 0 {
            if errno == EINTR { return signalEvent() ?? .timeout }
            throw TerminalError("cannot read the terminal: \(Self.errnoText)")
        }
        if fds[1].revents != 0 {
            var drain = [UInt8](repeating: 0, count: 64)
            _ = read(wakeup.read, &drain, drain.count)
            if let event = signalEvent() { return event }
        }
        if let watching, fds[2].revents != 0 {
            var drain = [UInt8](repeating: 0, count: 64)
            _ = read(watching, &drain, drain.count)
        }
        guard fds[0].revents != 0 else { return .timeout }
        if fds[0].revents & Int16(POLLIN) == 0 { throw TerminalError("the terminal was closed") }
        return .keys(try readKeys())
    }

    private func signalEvent() -> TerminalEvent? {
        let bits = ck_term_take_signals()
        if bits & 2 != 0 {
            _ = ck_term_reenter()
            write(enterBytes)
            size = readSize()
            return .resumed
        }
        if bits & 1 != 0 {
            size = readSize()
            return .resized
        }
        return nil
    }

    /// Reads what is there; an escape waits 30 ms for the rest of its sequence.
    private func readKeys() throws -> [Key] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &buffer, buffer.count)
        if n < 0 {
            if errno == EINTR || errno == EAGAIN { return [] }
            throw TerminalError("cannot read the terminal: \(Self.errnoText)")
        }
        if n == 0 { throw TerminalError("the terminal was closed") }
        pending += buffer.prefix(n)
        var (keys, left) = decoder.decode(pending, final: false)
        if left > 0 {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 1, 30) > 0 {
                let more = read(fd, &buffer, buffer.count)
                if more > 0 { pending += buffer.prefix(more) }
            }
            (keys, left) = decoder.decode(pending, final: true)
        }
        pending.removeAll()
        return keys
    }
}
