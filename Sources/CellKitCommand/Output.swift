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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        Swift.print(TextSanitizer.escapingHidden(json: String(decoding: try encoder.encode(value), as: UTF8.self)))
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

    /// One line per hook: symbol, signature, and how it is called. A hook that one of `problems`
    /// concerns (`hook <symbol>: …`: its declared signature was refused) shows no signature: the
    /// one it holds is the standard one put in its place, which the plugin did not declare.
    static func hookLines(_ type: CellTypeDeclaration, indent: String, problems: [String] = []) -> [String] {
        // Symbols are C identifiers, ASCII (`NamingRule`): a byte a column, counted without Characters.
        let width = type.hooks.map(\.symbol.utf8.count).max() ?? 0
        return type.hooks.map { hook in
            let pad = String(repeating: " ", count: width - hook.symbol.utf8.count)
            if problems.contains(where: { $0.hasPrefix("hook \(hook.symbol): ") }) {
                return "\(indent)\(hook.symbol)\(pad)  (declared signature refused: see problems)"
            }
            return joined(indent, hook.symbol, pad, "  ", hook.signature.description, hook.usesFFI ? "  [libffi]" : "")
        }
    }
}

extension Output {
    /// `parts` one after the other, copied once into a string of the right size: `list` makes a line
    /// per cell type and per hook (7,000 with 1,000 plugins), and interpolating them cost about
    /// 3,000 instructions a line, a third of the command.
    static func joined(_ parts: String...) -> String {
        let count = parts.reduce(0) { $0 + $1.utf8.count }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var at = 0
            for part in parts {
                at = buffer[at...].initialize(fromContentsOf: part.utf8)
            }
            return at
        }
    }
}

extension String {
    /// The text made safe for a terminal: the library's one sanitizer (control
    /// characters, escape sequences, bidirectional and invisible characters shown).
    var terminalSafe: String { TextSanitizer.visible(self) }
}
