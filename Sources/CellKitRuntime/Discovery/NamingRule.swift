// The naming rule: which exported symbols are hooks, and for which identifier.

import CellKitModel
import Foundation

// MARK: - Hook kinds

/// The four hooks a cell type may export, each named `<prefix><Identifier>`.
public enum HookKind: String, CaseIterable, Sendable, Codable {
    /// Runs once, when a new cell of the type is made.
    case initCell = "initCellFor"
    /// Runs every time a cell is handed out for a row.
    case customizeCell = "customizeCellFor"
    /// Returns the row's height, after customize ran.
    case heightForCell = "heightForCellFor"
    /// Runs when a used cell goes back to the reuse pool.
    case prepareCellForReuse = "prepareCellForReuseFor"

    /// The symbol prefix, e.g. `initCellFor`.
    public var prefix: String { rawValue }

    /// The symbol this hook has for `identifier`. Only call with a validated identifier.
    public func symbol(for identifier: CellIdentifier) -> String { prefix + identifier.name }

    /// Whether the hook returns a value (only the height hook does).
    public var returnsValue: Bool { self == .heightForCell }

    // Longest prefix first, so that no prefix shadows a longer one.
    static let byPrefixLength = allCases.sorted { $0.prefix.count > $1.prefix.count }

    /// Splits a symbol into its hook kind and identifier, if it follows the rule exactly.
    package static func parse(symbol: String) -> (HookKind, CellIdentifier)? {
        for kind in byPrefixLength where symbol.hasPrefix(kind.prefix) {
            let rest = String(symbol.dropFirst(kind.prefix.count))
            guard let identifier = try? CellIdentifier(rest) else { return nil }
            return (kind, identifier)
        }
        return nil
    }
}

// MARK: - Identifiers

/// A validated cell identifier: an ASCII letter, then ASCII letters, digits or
/// underscores, at most 64 characters. Invalid names are refused before any
/// symbol name is built from them.
public struct CellIdentifier: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// The longest identifier allowed.
    public static let maxLength = 64

    /// The identifier's text.
    public let name: String

    /// Validates `name`, throwing an error that says what is wrong with it.
    public init(_ name: String) throws(IdentifierError) {
        if let problem = Self.problem(in: name) { throw IdentifierError(name: name, problem: problem) }
        self.name = name
    }

    /// Why `name` is not an identifier, or nil if it is one.
    static func problem(in name: String) -> String? {
        let bytes = Array(name.utf8)
        guard let first = bytes.first else { return "it is empty" }
        if bytes.count > maxLength { return "it is \(bytes.count) bytes long; the limit is \(maxLength)" }
        guard isLetter(first) else { return "it must start with an ASCII letter, not \(describe(first))" }
        if let bad = bytes.first(where: { !isLetter($0) && !isDigit($0) && $0 != UInt8(ascii: "_") }) {
            return "it may hold only ASCII letters, digits and underscores, not \(describe(bad))"
        }
        return nil
    }

    /// The identifier's text, unquoted.
    public var description: String { name }
    /// Orders by the text, case-sensitively: `Zeta` sorts before `alpha`.
    public static func < (a: Self, b: Self) -> Bool { a.name < b.name }

    /// Decodes a string and validates it: an invalid one throws its `IdentifierError`.
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(text)
    }

    /// Encodes the identifier as a plain string.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }
    static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
    static func describe(_ b: UInt8) -> String {
        b >= 0x21 && b < 0x7F ? "'\(Character(Unicode.Scalar(b)))'" : String(format: "byte 0x%02X", b)
    }
}

/// An identifier that breaks the naming rule.
public struct IdentifierError: Error, CustomStringConvertible, Equatable, Codable {
    /// The refused text.
    public let name: String
    /// What is wrong with it.
    public let problem: String
    /// The refused text (control characters escaped), what is wrong, and the rule.
    public var description: String {
        "'\(name.debugDescriptionEscaped)' is not a cell identifier: \(problem) (the rule: an ASCII letter, then letters, digits or underscores, at most \(CellIdentifier.maxLength))"
    }
}
