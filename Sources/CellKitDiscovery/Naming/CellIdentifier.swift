// The naming rule: which identifiers are valid. Which symbols are hooks is the hook table's
// (HookKind.swift).

import CellKitModel
import Foundation

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
