// Printing for people and for scripts. Everything read from a plugin file may
// be hostile, so text for the terminal has its control characters made visible.

import CellKit
import Foundation

enum Output {
    /// Prints `lines`, each with control characters, escape sequences, bidirectional
    /// and invisible characters made visible.
    static func print(_ lines: [String]) {
        Swift.print(lines.map(\.terminalSafe).joined(separator: "\n"))
    }

    /// Prints `value` as pretty, key-sorted JSON.
    static func printJSON(_ value: some Encodable) throws {
        Swift.print(String(decoding: try jsonBytes(value).dropLast(), as: UTF8.self))
    }

    /// What `printJSON` prints: `value` as pretty-printed JSON with sorted keys, its hidden
    /// characters escaped, and a newline.
    static func jsonBytes(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let json = TextSanitizer.escapingHidden(json: String(decoding: try encoder.encode(value), as: UTF8.self))
        return Array(json.utf8) + [0x0A]
    }

    /// Whether `bytes` are lines that a terminal shows as they are: each ended by a newline, and
    /// each what `TextSanitizer.visible` leaves unchanged (all printable ASCII, the common case,
    /// is seen eight bytes at a time). For output kept in a file and written again
    /// (`Catalog.derivedOutput`): a file changed by anything else is worked out anew.
    static func isTerminalSafe(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { all in
            guard all.last == 0x0A else { return all.isEmpty }
            var start = 0
            while start < all.count {
                let rest = UnsafeBufferPointer(rebasing: all[start...])
                let printable = UTF8Bytes.printableASCIIPrefix(rest)
                guard let end = rest[printable...].firstIndex(of: 0x0A) else { return false }
                if end > printable {
                    let line = UnsafeBufferPointer(rebasing: rest[..<end])
                    guard let text = String(validating: line, as: UTF8.self), TextSanitizer.visible(text) == text else {
                        return false
                    }
                }
                start += end - rest.startIndex + 1
            }
            return true
        }
    }

    /// Prints the context's warnings, then one line per plugin hook whose host calls failed
    /// (`CellContext.failedHostCalls`), to standard error as `warning: …`, terminal-safe.
    /// Returns how many lines it printed.
    static func printWarnings(_ context: CellContext) -> Int {
        printWarnings(DocumentRender.warnings(context))
    }

    /// Prints `lines` to standard error as `warning: …`, terminal-safe; returns how many.
    static func printWarnings(_ lines: [String]) -> Int {
        for line in lines { FileHandle.standardError.write(Data("warning: \(line.terminalSafe)\n".utf8)) }
        return lines.count
    }

    /// Writes `bytes` to standard output as they are (lines `TextLines` made terminal-safe).
    static func write(_ bytes: [UInt8]) {
        // A closed pipe ends the process (SIGPIPE), as print's write does.
        try? FileHandle.standardOutput.write(contentsOf: bytes)
    }

    /// One line per hook, into `out`: symbol, signature, and how it is called. A hook that one of `problems`
    /// concerns (`hook <symbol>: …`: its declared signature was refused) shows no signature: the
    /// one it holds is the standard one put in its place, which the plugin did not declare.
    static func appendHookLines(
        _ type: CellTypeDeclaration, indent: String, problems: [String] = [], to out: inout TextLines
    ) {
        // Symbols are C identifiers, ASCII (`NamingRule`): a byte a column, counted without Characters.
        let width = type.hooks.map(\.symbol.utf8.count).max() ?? 0
        for hook in type.hooks {
            out.append(indent)
            out.append(hook.symbol)
            out.append(spaces: width - hook.symbol.utf8.count + 2)
            if problems.contains(where: { $0.hasPrefix("hook \(hook.symbol): ") }) {
                out.append("(declared signature refused: see problems)")
            } else {
                out.append(hook.signature.description)
                if hook.usesFFI { out.append("  [libffi]") }
            }
            out.endLine()
        }
    }
}

/// Lines of text as bytes, each made terminal-safe when it ends (`TextSanitizer.visible`, only
/// for a line that is not all printable ASCII) and followed by a newline.
struct TextLines {
    /// The lines so far, and the one being made after the last newline.
    private(set) var bytes: [UInt8] = []
    private var start = 0

    /// Adds `text` to the line being made.
    mutating func append(_ text: String) {
        // The bytes in place when the string has them (a native one does): the generic path over
        // the UTF-8 view cost far more a piece (BENCHMARKS.md, "Measurements behind the code": Output.append).
        if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: text.utf8)
        }
    }

    /// Adds `count` spaces to the line being made.
    mutating func append(spaces count: Int) { bytes.append(contentsOf: repeatElement(0x20, count: max(0, count))) }

    /// Ends the line being made: made visible where it holds anything but printable ASCII.
    mutating func endLine() {
        let printable = bytes.withUnsafeBufferPointer {
            UTF8Bytes.printableASCIIPrefix(UnsafeBufferPointer(rebasing: $0[start...])) == $0.count - start
        }
        if !printable {
            let text = String(decoding: bytes[start...], as: UTF8.self)
            bytes.removeSubrange(start...)
            bytes.append(contentsOf: TextSanitizer.visible(text).utf8)
        }
        bytes.append(0x0A)
        start = bytes.count
    }

    /// Adds `text` as a whole line.
    mutating func line(_ text: String) {
        append(text)
        endLine()
    }

    /// Adds each of `texts` as a line.
    mutating func lines(_ texts: [String]) {
        for text in texts { line(text) }
    }
}

extension String {
    /// The text made safe for a terminal: the library's one sanitizer (control
    /// characters, escape sequences, bidirectional and invisible characters shown).
    var terminalSafe: String { TextSanitizer.visible(self) }
}
