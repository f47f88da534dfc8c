// Asking a terminal for its background colour: OSC 11 ("\e]11;?"), followed by a primary device
// attributes request ("\e[c") that every terminal answers. A terminal that knows OSC 11 answers it
// first; one that does not answers only the second, so the wait ends at once instead of at the
// deadline (the way terminal-colorsaurus and termbg ask). The reply is read from the controlling
// terminal with canonical mode and echo off, restored before returning.

import Glibc

/// The background colour of the controlling terminal, as it says it.
package enum BackgroundQuery {
    /// The red, green and blue (0–255) the terminal reports, or nil: no terminal, no answer within
    /// `deadline` seconds, or a terminal that does not know the question.
    package static func ask(deadline: Double = 0.2) -> (red: UInt8, green: UInt8, blue: UInt8)? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // Only in the terminal's foreground: a background job changing its modes would be stopped
        // (SIGTTOU), and the answer would go to the foreground process.
        guard tcgetpgrp(fd) == getpgrp() else { return nil }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        guard tcsetattr(fd, TCSANOW, &raw) == 0 else { return nil }
        defer { _ = tcsetattr(fd, TCSANOW, &saved) }
        let question = Array("\u{1B}]11;?\u{1B}\\\u{1B}[c".utf8)
        guard question.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == question.count else { return nil }
        var reply: [UInt8] = []
        var clock = timespec()
        clock_gettime(CLOCK_MONOTONIC, &clock)
        let end = Double(clock.tv_sec) + Double(clock.tv_nsec) / 1e9 + deadline
        while !answeredAttributes(reply), reply.count < 512 {
            clock_gettime(CLOCK_MONOTONIC, &clock)
            let left = end - (Double(clock.tv_sec) + Double(clock.tv_nsec) / 1e9)
            guard left > 0 else { break }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left * 1000) + 1) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 128)
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            reply += buffer[..<n]
        }
        return color(in: reply)
    }

    /// Whether `bytes` holds the device attributes reply (`ESC [ ? … c`): nothing more comes.
    static func answeredAttributes(_ bytes: [UInt8]) -> Bool {
        guard
            let start = bytes.indices.first(where: {
                bytes[$0] == 0x1B && $0 + 2 < bytes.count
                    && bytes[$0 + 1] == UInt8(ascii: "[") && bytes[$0 + 2] == UInt8(ascii: "?")
            })
        else { return false }
        return bytes[start...].contains(UInt8(ascii: "c"))
    }

    /// The colour of an OSC 11 reply in `bytes` (`ESC ] 11 ; rgb:RRRR/GGGG/BBBB` ended by BEL or
    /// ST, each component 1 to 4 hex digits), or nil.
    package static func color(in bytes: [UInt8]) -> (red: UInt8, green: UInt8, blue: UInt8)? {
        let marker = Array("\u{1B}]11;rgb:".utf8)
        guard bytes.count >= marker.count,
            let start = (0...(bytes.count - marker.count)).first(where: {
                bytes[$0..<$0 + marker.count].elementsEqual(marker)
            })
        else { return nil }
        let body = bytes[(start + marker.count)...].prefix { isHex($0) || $0 == UInt8(ascii: "/") }
        let parts = body.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var components: [UInt8] = []
        for part in parts {
            guard (1...4).contains(part.count), let value = UInt32(String(decoding: part, as: UTF8.self), radix: 16)
            else { return nil }
            let maximum = (UInt32(1) << (4 * UInt32(part.count))) - 1
            components.append(UInt8((value * 255 + maximum / 2) / maximum))
        }
        return (components[0], components[1], components[2])
    }

    private static func isHex(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x41...0x46).contains(b) || (0x61...0x66).contains(b)
    }
}
