// A hook's declared parameter list: `"double (row, data)"`. Parsed once, at
// discovery, so a malformed one is reported before the plugin is ever loaded.

import CellKitModel
import Foundation

// MARK: - Parameters and results

/// A value the host can pass to a hook.
package enum HookParameter: String, CaseIterable, Sendable, Codable {
    /// `ck_cell *`
    case cell
    /// `ck_index_path`, by value
    case indexPath
    /// `int64_t`
    case section
    /// `int64_t`
    case row
    /// `const ck_data *`
    case data
    /// `const ck_host *`
    case host
    /// `void *`, what the plugin's `cellkit_plugin_init` stored
    case context
}

/// What a hook returns: nothing, or (height hooks only) a number.
package enum HookResult: String, Sendable, Codable {
    /// No value: every hook but the height hook.
    case void
    /// `double`, the height hook's standard result: the row's height in lines.
    case double
    /// `float`: a height in lines.
    case float
    /// `int32_t` (also written `int`): a height in whole lines.
    case int32 = "int32_t"
}

// MARK: - Signature

/// The parameter list and result of one hook.
package struct HookSignature: Equatable, Hashable, Sendable, CustomStringConvertible, Codable {
    /// What the hook returns: `void`, except for height hooks.
    package let result: HookResult
    /// What the host passes, in order; each parameter at most once, possibly none.
    package let parameters: [HookParameter]

    /// The parameters of every hook's standard signature: `(cell, indexPath)`.
    package static let standardParameters: [HookParameter] = [.cell, .indexPath]

    /// `(cell, indexPath)` with the hook table's result for `kind` (`void`, or `double` for a hook
    /// that returns a value): called through a typed pointer.
    static func standard(for kind: HookKind) -> HookSignature {
        HookSignature(result: kind.row.result, parameters: standardParameters)
    }

    /// Whether this is the standard signature of `kind`, which needs no libffi.
    package func isStandard(for kind: HookKind) -> Bool { self == .standard(for: kind) }

    /// The signature in cellkit.h's notation, normalised: `int32_t (row)`, `void (cell, data)`.
    package var description: String {
        // Copied once into a string of its size: appending piece by piece was most of `list`'s hook lines.
        var count = result.rawValue.utf8.count + 3 + max(0, parameters.count - 1) * 2
        for parameter in parameters { count += parameter.rawValue.utf8.count }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var at = buffer.initialize(fromContentsOf: result.rawValue.utf8)
            at = buffer[at...].initialize(fromContentsOf: " (".utf8)
            for (k, parameter) in parameters.enumerated() {
                if k > 0 { at = buffer[at...].initialize(fromContentsOf: ", ".utf8) }
                at = buffer[at...].initialize(fromContentsOf: parameter.rawValue.utf8)
            }
            return buffer[at...].initialize(fromContentsOf: ")".utf8)
        }
    }

    /// A signature of `result` and `parameters`, unchecked.
    init(result: HookResult, parameters: [HookParameter]) {
        self.result = result
        self.parameters = parameters
    }

    /// Parses `text` as the signature of a hook of `kind`.
    /// Grammar: `[result] "(" [parameter {"," parameter}] ")"`.
    package init(parsing text: String, for kind: HookKind) throws(SignatureError) {
        var tokens = Self.tokens(text)[...]
        var result = kind.row.result
        if let first = tokens.first, first != "(" {
            guard let r = Self.result(first) else {
                throw SignatureError(
                    token: first, problem: "expected a result type (void, double, float, int32_t) or '('")
            }
            guard r == .void ? !kind.returnsValue : kind.returnsValue else {
                throw SignatureError(
                    token: first,
                    problem: kind.returnsValue
                        ? "\(kind.prefix) hooks return a height: double, float or int32_t"
                        : "\(kind.prefix) hooks return void")
            }
            result = r
            tokens = tokens.dropFirst()
        }
        guard tokens.popFirst() == "(" else {
            throw SignatureError(token: text, problem: "expected '(' before the parameters")
        }
        var parameters: [HookParameter] = []
        while let token = tokens.popFirst(), token != ")" {
            if !parameters.isEmpty {
                guard token == "," else { throw SignatureError(token: token, problem: "expected ',' or ')'") }
                guard let next = tokens.popFirst() else { break }
                try parameters.append(Self.parameter(next, after: parameters))
            } else {
                try parameters.append(Self.parameter(token, after: parameters))
            }
            if tokens.isEmpty { throw SignatureError(token: text, problem: "missing ')'") }
        }
        if let extra = tokens.first { throw SignatureError(token: extra, problem: "unexpected text after ')'") }
        self.init(result: result, parameters: parameters)
    }

    // MARK: Parsing

    private static func tokens(_ text: String) -> [String] {
        var tokens: [String] = [], word = ""
        for ch in text {
            if ch.isLetter || ch.isNumber || ch == "_" { word.append(ch); continue }
            if !word.isEmpty { tokens.append(word); word = "" }
            if !ch.isWhitespace { tokens.append(String(ch)) }
        }
        if !word.isEmpty { tokens.append(word) }
        return tokens
    }

    private static func result(_ token: String) -> HookResult? {
        token == "int" ? .int32 : HookResult(rawValue: token)
    }

    private static func parameter(_ token: String, after previous: [HookParameter]) throws(SignatureError)
        -> HookParameter
    {
        guard let p = HookParameter(rawValue: token) else {
            let known = HookParameter.allCases.map(\.rawValue).joined(separator: ", ")
            throw SignatureError(token: token, problem: "unknown parameter; expected one of \(known)")
        }
        guard !previous.contains(p) else { throw SignatureError(token: token, problem: "parameter given twice") }
        return p
    }
}

/// A signature string that does not parse; names the offending token.
package struct SignatureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The token where parsing stopped, or the whole text when the problem is its shape.
    package let token: String
    /// What is wrong there, in a few words (such as "parameter given twice").
    package let problem: String
    package var description: String { "bad token '\(token.debugDescriptionEscaped)': \(problem)" }
}

extension HookSignature {
    /// The most argument words a declared list may take to be called through a typed pointer
    /// (CellKitRuntime's `RegisterHook`) instead of libffi.
    package static let maxRegisterWords = 6

    /// The integer argument words the declared parameters take: `indexPath` two, the others one each.
    package var argumentWords: Int { parameters.reduce(0) { $0 + ($1 == .indexPath ? 2 : 1) } }

    /// Whether a hook of this signature is called through a typed pointer on this target
    /// (`RegisterHook`): its parameters fit in the argument registers.
    package var fitsInRegisters: Bool {
        #if arch(x86_64) || arch(arm64)
        argumentWords <= Self.maxRegisterWords
        #else
        false
        #endif
    }
}
