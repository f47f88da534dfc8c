// Keys read from a terminal in raw mode: the terminal's own key strings (terminfo's kcuu1,
// knp, ...), the common ANSI forms of them, and SGR mouse reports for the wheel.

/// A key (or wheel turn) read from the terminal.
package enum Key: Sendable, Equatable {
    /// A printable character, or a control character other than those named below.
    case character(Character)
    /// ↑.
    case up
    /// ↓.
    case down
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// Home.
    case home
    /// End.
    case end
    /// Enter (carriage return or line feed).
    case enter
    /// Escape on its own.
    case escape
    /// Backspace (DEL or ^H).
    case backspace
    /// The mouse wheel turned up.
    case wheelUp
    /// The mouse wheel turned down.
    case wheelDown
    /// Bytes of a sequence this decoder does not know: ignored by the view.
    case unknown
}

/// Turns bytes read from a terminal into keys. Sequences are matched against the terminal's own
/// key strings first, then against the ANSI forms terminals send in and out of keypad mode.
package struct KeyDecoder: Sendable {
    private var sequences: [([UInt8], Key)]

    /// A decoder for the terminal whose key strings `capabilities` gives (terminfo name → bytes).
    package init(capabilities: [String: [UInt8]]) {
        let named: [(String, Key)] = [
            ("kcuu1", .up), ("kcud1", .down), ("kpp", .pageUp), ("knp", .pageDown), ("khome", .home),
            ("kend", .end),
        ]
        var list: [([UInt8], Key)] = named.compactMap { name, key in capabilities[name].map { ($0, key) } }
        // The forms terminals send in either cursor-key mode, whatever their description says.
        let ansi: [(String, Key)] = [
            ("\u{1B}[A", .up), ("\u{1B}[B", .down), ("\u{1B}OA", .up), ("\u{1B}OB", .down),
            ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown), ("\u{1B}[H", .home), ("\u{1B}[F", .end),
            ("\u{1B}OH", .home), ("\u{1B}OF", .end), ("\u{1B}[1~", .home), ("\u{1B}[4~", .end),
            ("\u{1B}[7~", .home), ("\u{1B}[8~", .end),
        ]
        list += ansi.map { (Array($0.0.utf8), $0.1) }
        sequences = list.filter { !$0.0.isEmpty }
    }

    /// The keys in `bytes`, and how many bytes at the end are the start of a sequence not complete
    /// yet (keep them for the next read; an escape alone with nothing after it is `escape`).
    package func decode(_ bytes: [UInt8], final: Bool) -> (keys: [Key], pending: Int) {
        var keys: [Key] = []
        var i = 0
        while i < bytes.count {
            let rest = bytes[i...]
            if bytes[i] == 0x1B {
                if let (key, length) = match(rest) {
                    keys.append(key)
                    i += length
                    continue
                }
                if let mouse = Self.mouse(rest) {
                    if let key = mouse.key { keys.append(key) }
                    i += mouse.length
                    continue
                }
                if !final, isPrefix(rest) { return (keys, bytes.count - i) }
                if rest.count >= 2, bytes[i + 1] == 0x5B || bytes[i + 1] == 0x4F {
                    i += Self.skipSequence(rest)
                    keys.append(.unknown)
                } else {
                    keys.append(.escape)
                    i += 1
                }
                continue
            }
            let (key, length) = Self.plain(rest)
            keys.append(key)
            i += length
        }
        return (keys, 0)
    }

    private func match(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
        for (sequence, key) in sequences where bytes.starts(with: sequence) { return (key, sequence.count) }
        return nil
    }

    /// Whether `bytes` could still become a known sequence or a mouse report.
    private func isPrefix(_ bytes: ArraySlice<UInt8>) -> Bool {
        if sequences.contains(where: { $0.0.count > bytes.count && $0.0.starts(with: bytes) }) { return true }
        let mouse: [UInt8] = [0x1B, 0x5B, 0x3C]
        if mouse.starts(with: bytes) { return true }
        return bytes.starts(with: mouse) && !bytes.contains(where: { $0 == 0x4D || $0 == 0x6D })
    }

    /// An SGR mouse report, `ESC [ < b ; x ; y M` (or `m`): the wheel turns are 64 and 65.
    static func mouse(_ bytes: ArraySlice<UInt8>) -> (key: Key?, length: Int)? {
        guard bytes.starts(with: [0x1B, 0x5B, 0x3C]) else { return nil }
        guard let end = bytes.firstIndex(where: { $0 == 0x4D || $0 == 0x6D }) else { return nil }
        let body = bytes[(bytes.startIndex + 3)..<end]
        let button = Int(String(decoding: body.prefix { $0 != 0x3B }, as: UTF8.self)) ?? -1
        let key: Key? = button == 64 ? .wheelUp : button == 65 ? .wheelDown : nil
        return (key, end - bytes.startIndex + 1)
    }

    /// The length of an unknown CSI or SS3 sequence (to its final byte), at least 2.
    static func skipSequence(_ bytes: ArraySlice<UInt8>) -> Int {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return 1 }
        if bytes[start + 1] == 0x4F { return min(3, bytes.count) }
        var i = start + 2
        while i < bytes.endIndex, !(0x40...0x7E).contains(bytes[i]) { i += 1 }
        return min(i - start + 1, bytes.count)
    }

    /// A key that is not an escape sequence: a control key, or one UTF-8 character.
    static func plain(_ bytes: ArraySlice<UInt8>) -> (Key, Int) {
        let first = bytes[bytes.startIndex]
        switch first {
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0..<0x20: return (.character(Character(Unicode.Scalar(first))), 1)
        default:
            let length = first < 0xC0 ? 1 : first < 0xE0 ? 2 : first < 0xF0 ? 3 : 4
            let slice = bytes.prefix(length)
            guard slice.count == length, let text = String(validating: slice, as: UTF8.self), let c = text.first
            else { return (.unknown, 1) }
            return (.character(c), length)
        }
    }
}
