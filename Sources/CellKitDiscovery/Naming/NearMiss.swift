// Symbols that miss the naming rule by a little. The most common plugin bug in
// every comparable system is a name mismatch (luaopen_x, PyInit_x), so the
// host says what it found and what it expected.

import CCellKit
import CellKitModel
import Foundation

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The Swift runtime's demangler (exported by libswiftCore; the caller frees the result).
@_silgen_name("swift_demangle")
private func swift_demangle(
    _ mangledName: UnsafePointer<CChar>?, _ length: UInt, _ outputBuffer: UnsafeMutablePointer<CChar>?,
    _ outputBufferSize: UnsafeMutablePointer<UInt>?, _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?

/// An exported (or hidden) symbol that looks like a hook but is not one.
public struct NearMiss: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The symbol as found in the file.
    public let symbol: String
    /// The symbol the rule expects, when one can be guessed.
    public let suggestion: String?
    /// Why it does not count, and how to fix it.
    public let explanation: String

    /// One line: the symbol (control characters escaped), "did you mean" if there is a
    /// suggestion, then the explanation.
    public var description: String {
        let name = symbol.debugDescriptionEscaped
        return suggestion.map { "\(name): did you mean \($0)? \(explanation)" } ?? "\(name): \(explanation)"
    }

    /// Whether this near miss is about the cell type `identifier`: the symbol, the hook a
    /// stray signature names, or the suggested hook (a `@_cdecl` name included) is one of
    /// its hooks, spelled exactly. `initcellForFoo` (suggestion `initCellForFoo`) and
    /// `customizeCellForfoo` beside `initCellForFoo` concern `Foo`; a hidden
    /// `customizeCellForFoo` concerns `Foo` too.
    package func concerns(_ identifier: CellIdentifier) -> Bool {
        var names = [symbol]
        if symbol.hasPrefix(CK_SIGNATURE_PREFIX) { names.append(String(symbol.dropFirst(CK_SIGNATURE_PREFIX.count))) }
        if let suggestion {
            names.append(suggestion)
            // `@_cdecl("initCellForFoo") public func`: the quoted name.
            let quoted = suggestion.split(separator: "\"", omittingEmptySubsequences: false)
            if quoted.count == 3 { names.append(String(quoted[1])) }
        }
        return names.contains { HookKind.parse(symbol: $0)?.1 == identifier }
    }

    /// The near misses in the file at `path`, read again; empty if it no longer reads as a plugin.
    static func diagnose(path: String) -> [NearMiss] {
        guard case .success(let plugin) = PluginFile.examine(path: path, diagnosing: true).outcome else { return [] }
        return plugin.knownNearMisses ?? []
    }

    /// Every near miss in `image`, given the cell types that follow the rule.
    static func find(in image: ELFImage, _ declared: PluginFile.Declarations) -> [NearMiss] {
        let exported = image.dynamicSymbols.filter { $0.isExported && $0.kind == .function }
        let exportedNames = Set(exported.map(\.name))
        var misses = exported.compactMap { misspelledPrefix($0.name) ?? invalidIdentifier($0.name) }
        let identifiers = IdentifierSuffixes(declared.types.map(\.identifier.name))
        misses += exported.compactMap { misspelledHook($0.name, identifiers: identifiers) }
        misses += caseCollisions(declared.types + declared.incomplete)
        misses += declared.incomplete.flatMap { type in
            type.hooks.map {
                NearMiss(
                    symbol: $0.symbol, suggestion: nil,
                    explanation:
                        "cell type '\(type.identifier)' has \(HookKind.noneOfRegisteringNames(type.identifier.name)), so it is not registered"
                )
            }
        }
        let functions = (image.dynamicSymbols + image.staticSymbols).filter { $0.kind == .function }
        let definedNames = Set(functions.map(\.name))  // a C name defined but hidden is reported below
        misses += functions.compactMap { swiftWithoutCDecl($0.name, defined: definedNames) }
        let swift = image.isSwift
        misses += image.staticSymbols.filter {
            !$0.isExported && $0.kind == .function && !exportedNames.contains($0.name)
        }
        .compactMap { hidden($0, swift: swift) }
        misses += declared.strayHooks.map { hook in
            NearMiss(
                symbol: CK_SIGNATURE_PREFIX + hook, suggestion: nil,
                explanation: "declares a signature for \(hook), but no function \(hook) is exported\(exportHint(hook))")
        }
        var seen = Set<String>()
        return misses.filter { seen.insert($0.symbol + ($0.suggestion ?? "")).inserted }
    }

    /// Why a Swift plugin lacks a hook it defines, or one a release build of it lost: the rule
    /// `inspect` and `check` give for a Swift plugin.
    package static let swiftPublicRule =
        "a Swift hook must be `public` (with @_cdecl) to be exported in a release build; an internal one is "
        + "exported by a debug build only (SwiftPM builds those with -enable-testing)"

    /// How to export a hook the file does not export.
    static func exportHint(_ hook: String) -> String {
        "; in C, mark it CK_EXPORT; in Swift, give it @_cdecl(\"\(hook)\") and make it public (an internal one is dropped from release builds)"
    }

    // MARK: The checks

    /// `initcellForFoo`: a hook prefix in the wrong case.
    private static func misspelledPrefix(_ name: String) -> NearMiss? {
        // Only the head can hold a prefix: lowercasing all of a long name for each kind is wasted work.
        let head = name.prefix(2 * CellIdentifier.maxLength).lowercased()
        for kind in HookKind.byPrefixLength where head.hasPrefix(kind.prefix.lowercased()) {
            guard !name.hasPrefix(kind.prefix) else { return nil }
            let rest = String(name.dropFirst(kind.prefix.count))
            return NearMiss(
                symbol: name, suggestion: kind.prefix + cleaned(rest),
                explanation: "hook prefixes are case-sensitive: the rule is \(kind.prefix)<Identifier>")
        }
        return nil
    }

    /// `customiseCellForFoo` beside `initCellForFoo`: a name within 2 edits of a hook of a
    /// declared cell type (the prefix misspelled) that is not itself a hook; it is never called.
    /// The identifiers are tried in their order, but only those `name` could be a hook of
    /// (`IdentifierSuffixes.candidates`): trying every one made discovery quadratic in a
    /// plugin's identifiers (BENCHMARKS.md, "Measurements behind the code": NearMiss.candidates).
    static func misspelledHook(_ name: String, identifiers: IdentifierSuffixes) -> NearMiss? {
        guard HookKind.parse(symbol: name) == nil else { return nil }
        for position in identifiers.candidates(for: name) {
            let identifier = identifiers.names[position]
            guard name.hasSuffix(identifier), name.count > identifier.count else { continue }
            let prefix = String(name.dropLast(identifier.count))
            for kind in HookKind.byPrefixLength where prefix != kind.prefix {
                let distance = editDistance(prefix, kind.prefix)
                guard distance <= 2 else { continue }
                let hook = kind.prefix + identifier
                return NearMiss(
                    symbol: name, suggestion: hook,
                    explanation:
                        "\(distance) letter\(distance == 1 ? "" : "s") from \(hook), a hook of cell type '\(identifier)': as spelled it is never called"
                )
            }
        }
        return nil
    }

    /// `initCellFor-Foo`: the right prefix before something that is not an identifier.
    private static func invalidIdentifier(_ name: String) -> NearMiss? {
        for kind in HookKind.byPrefixLength where name.hasPrefix(kind.prefix) {
            let rest = String(name.dropFirst(kind.prefix.count))
            guard let problem = CellIdentifier.problem(in: rest) else { return nil }
            let fixed = cleaned(rest)
            return NearMiss(
                symbol: name, suggestion: fixed.isEmpty ? nil : kind.prefix + fixed,
                explanation: "'\(rest.debugDescriptionEscaped)' is not an identifier: \(problem)")
        }
        return nil
    }

    /// `customizeCellForfoo` beside `initCellForFoo`: two identifiers that differ only in case.
    private static func caseCollisions(_ types: [CellTypeDeclaration]) -> [NearMiss] {
        let groups = Dictionary(grouping: types) { $0.identifier.name.lowercased() }.values.filter { $0.count > 1 }
        return groups.flatMap { group -> [NearMiss] in
            let ranked = group.sorted { a, b in
                a.hooks.count != b.hooks.count ? a.hooks.count > b.hooks.count : a.identifier.name < b.identifier.name
            }
            let main = ranked[0]
            return ranked.dropFirst().flatMap { suspect in
                suspect.hooks.map { hook in
                    NearMiss(
                        symbol: hook.symbol, suggestion: hook.kind.symbol(for: main.identifier),
                        explanation:
                            "identifiers are case-sensitive, so this is a separate cell type '\(suspect.identifier)' beside '\(main.identifier)'"
                    )
                }
            }
        }
    }

    /// `$s5Plugin17initCellForFoobar…`: a Swift function named like a hook but exported only mangled.
    private static func swiftWithoutCDecl(_ name: String, defined: Set<String>) -> NearMiss? {
        guard name.hasPrefix("$s") || name.hasPrefix("_$s"), let function = swiftFunctionName(name),
            let (kind, id) = HookKind.parse(symbol: function), !defined.contains(function)
        else { return nil }
        return NearMiss(
            symbol: name, suggestion: "@_cdecl(\"\(kind.symbol(for: id))\") public func",
            explanation:
                "a Swift function named like a hook is exported only under its mangled name, which the host cannot find"
        )
    }

    /// The longest mangled name handed to the demangler, in bytes: 1,024. A Swift function
    /// named like a hook mangles to well under 200; longer names are not looked at, so a
    /// file full of long or deeply nested mangled names cannot make discovery slow.
    static let maxDemangledNameBytes = 1024

    /// The base name of a mangled Swift function: "initCellForFoo" from "Module.initCellForFoo(_:_:) -> ()".
    /// Mangled names compress repeated words ("013heightForCellD7Partner"), so only the
    /// runtime's demangler can be trusted to spell them out. Nil for names over `maxDemangledNameBytes`.
    static func swiftFunctionName(_ mangled: String) -> String? {
        let length = mangled.utf8.count
        guard length <= maxDemangledNameBytes,
            let text = swift_demangle(mangled, UInt(length), nil, nil, 0)
        else { return nil }
        defer { free(text) }
        let demangled = String(cString: text)
        guard let paren = demangled.firstIndex(of: "(") else { return nil }
        let qualified = demangled[..<paren]
        return String(qualified.split(separator: ".").last ?? qualified)
    }

    /// A hook defined in the file but hidden or local, so dlsym cannot find it. In a Swift plugin
    /// (`swift`): an internal `@_cdecl` function of a release build.
    private static func hidden(_ symbol: ELFSymbol, swift: Bool) -> NearMiss? {
        guard HookKind.parse(symbol: symbol.name) != nil else { return nil }
        if swift {
            return NearMiss(
                symbol: symbol.name, suggestion: "@_cdecl(\"\(symbol.name)\") public func",
                explanation: "defined but not exported: \(swiftPublicRule)")
        }
        return NearMiss(
            symbol: symbol.name, suggestion: nil,
            explanation: "defined but not exported (static, hidden or internal)\(exportHint(symbol.name))")
    }

    /// `rest` with everything an identifier cannot hold removed, starting at its first letter.
    private static func cleaned(_ rest: String) -> String {
        let kept = rest.unicodeScalars.filter {
            $0.isASCII
                && (CellIdentifier.isLetter(UInt8($0.value)) || CellIdentifier.isDigit(UInt8($0.value)) || $0 == "_")
        }
        let text = String(String.UnicodeScalarView(kept))
        return String(text.drop { !$0.isLetter }.prefix(CellIdentifier.maxLength))
    }
}

/// A plugin's declared identifiers, found by the text a symbol ends with, for
/// `NearMiss.misspelledHook`: a symbol is a misspelled hook of an identifier it ends with, after a
/// prefix within 2 edits (of UTF-8 bytes) of a hook prefix. So only the few places where such a
/// prefix could end are tried, each by one dictionary lookup of the rest of the symbol, instead of
/// comparing the symbol with every identifier.
struct IdentifierSuffixes {
    /// The identifiers, in the order they are tried.
    let names: [String]
    /// Where each identifier is in `names`, by its text (in ascending order).
    private let positions: [String: [Int]]
    /// The lengths in UTF-8 bytes a prefix within 2 edits of a hook prefix may have.
    private static let prefixBytes: ClosedRange<Int> = {
        let lengths = HookKind.allCases.map(\.prefix.utf8.count)
        return lengths.min()! - 2...lengths.max()! + 2
    }()
    /// The longest text equal to an identifier, in UTF-8 bytes: each of its characters is one
    /// scalar (only a single scalar is canonically equivalent to one ASCII character), of at
    /// most 4 bytes.
    private static let maxRestBytes = 4 * CellIdentifier.maxLength

    /// The index of `names`.
    init(_ names: [String]) {
        self.names = names
        var positions: [String: [Int]] = [:]
        positions.reserveCapacity(names.count)
        for (position, name) in names.enumerated() { positions[name, default: []].append(position) }
        self.positions = positions
    }

    /// The positions in `names` (ascending) of every identifier `name` ends with whose
    /// remaining prefix (at least one character) is as long as one within 2 edits of a hook
    /// prefix: those, and only those, `misspelledHook` could report `name` against.
    /// Characters, as `hasSuffix` compares them: the rest after each character boundary whose
    /// prefix has a possible length is looked up (`String` equality, canonical equivalence).
    func candidates(for name: String) -> [Int] {
        var found: [Int] = []
        let utf8 = name.utf8, total = utf8.count
        var boundary = name.startIndex
        while boundary < name.endIndex {
            boundary = name.index(after: boundary)
            let prefixCount = utf8.distance(from: utf8.startIndex, to: boundary)
            if prefixCount > Self.prefixBytes.upperBound || boundary == name.endIndex { break }
            guard prefixCount >= Self.prefixBytes.lowerBound, total - prefixCount <= Self.maxRestBytes,
                let matches = positions[String(name[boundary...])]
            else { continue }
            found += matches
        }
        return found.count > 1 ? found.sorted() : found
    }
}
