// Typed reads from a YAML (or JSON) node tree, each failure an error at the
// node's line and column that says what was expected.

import CellKitModel
import CellKitText
import Foundation
import Yams

/// Reads one document's nodes, naming `file` in every error.
struct NodeReader {
    let file: String
    /// Whether messages may quote the file's text. The document's own text may be quoted; a stylesheet
    /// or asset catalog only once its top level shows it is one, so that a file which is something else
    /// is named, never echoed.
    var quotes = true

    /// Parses `text` (YAML, or JSON, which YAML reads as flow style) into its root node, within the limits
    /// of `DocumentLimits` (aliases, keys, nesting and text sizes are checked before and after composing).
    func root(_ text: String) throws(DocumentError) -> Node {
        try composed(text).node
    }

    /// Which resolver composed a tree: Yams' basic one, whose plain scalars `PlainScalar` types, or Yams'
    /// default one (regular expressions), for the few texts the basic one cannot compose as it would.
    enum Resolution: Equatable {
        case basic, yamsDefault
    }

    /// `root(_:)`, and which resolver composed the tree.
    ///
    /// Yams' default resolver compiles its rules, `NSRegularExpression`s, when first used, which starts ICU's
    /// regex machinery, a large part of a small render's instructions (see `PlainScalar`). So the text is composed
    /// with the basic resolver (no rules), and `typeName(_:)` types plain scalars with `PlainScalar`. But
    /// composing resolves every mapping key's tag (Yams hashes keys to find duplicates), and the basic resolver
    /// resolves a plain one to str: keys `1` and `"1"` would be duplicates, `1` and `!!int 1` would not, a key
    /// `null` would read as a text, and so would a value that is an alias of an anchored key. Each of these
    /// leaves a plain scalar typed str whose text the default rules type otherwise (`YAMLGuard.retyped`), or
    /// fails; then, and on any error, the text is composed again as before, with the default resolver, so that
    /// every document means what it meant and fails as it failed.
    func composed(_ text: String) throws(DocumentError) -> (node: Node, resolution: Resolution) {
        var text = text
        switch text.withUTF8({ YAMLGuard.scanPairs($0) }) {
        case .failure(let finding):
            throw DocumentError(file: file, line: finding.line, column: finding.column, finding.message)
        case .success(let pairs) where !pairs.isEmpty: text = YAMLGuard.joiningPairs(text, at: pairs)
        case .success: break
        }
        let basic: Node?
        do {
            // UTF-8 named: Yams' default encoding reads YAMS_DEFAULT_ENCODING through a copy of the
            // whole environment (BENCHMARKS.md, "Measurements behind the code": Environment) and, when it
            // is set, prints to standard output.
            // A plain document composed from libyaml's events, the others by Yams (`YAMLComposer`).
            let constructor = NodeReader.constructor()
            basic =
                try YAMLComposer.compose(text, resolver: .basic, constructor: constructor)
                ?? Yams.compose(yaml: text, .basic, constructor, .utf8)
        } catch {
            return (try composedByDefaultRules(text), .yamsDefault)
        }
        // No document at all does not depend on the resolver.
        guard let basic else { throw empty() }
        guard (try? YAMLGuard.walk(basic, self)) == .typedAlike else {
            return (try composedByDefaultRules(text), .yamsDefault)
        }
        return (basic, .basic)
    }

    /// `text` composed as it always was, with Yams' default resolver, and checked; its errors are the errors.
    private func composedByDefaultRules(_ text: String) throws(DocumentError) -> Node {
        let node: Node?
        do { node = try Yams.compose(yaml: text, .default, .default, .utf8) } catch {
            throw DocumentError(file: file, yaml: error, quoting: quotes, text: text)
        }
        guard let node else { throw empty() }
        try YAMLGuard.walk(node, self)
        return node
    }

    /// A constructor with no maps: nothing constructs Swift values from the nodes (`Node.any`), and Yams'
    /// default one builds its maps anew for every `Constructor.default`.
    private static func constructor() -> Constructor { Constructor([:], [:], [:]) }

    private func empty() -> DocumentError {
        DocumentError(file: file, line: 1, column: 1, "the document is empty; expected a mapping")
    }

    /// Parses `bytes`, the contents of `file`, as UTF-8 YAML.
    static func parse(_ bytes: [UInt8], file: String, quotes: Bool) throws(DocumentError) -> (NodeReader, Node) {
        let valid = bytes.withUnsafeBufferPointer { UTF8Bytes.isValid($0) }
        guard valid else {
            throw DocumentError(file: file, line: 1, column: 1, "the file is not UTF-8 text; save it as UTF-8")
        }
        let reader = NodeReader(file: file, quotes: quotes)
        return (reader, try reader.root(String(decoding: bytes, as: UTF8.self)))
    }

    // MARK: Errors

    func error(_ node: Node, _ message: String) -> DocumentError {
        DocumentError(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1, message)
    }

    func expected(_ what: String, _ node: Node) -> DocumentError {
        error(node, "expected \(what), found \(describe(node))")
    }

    func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let s) where !quotes: s.string.isEmpty ? "nothing" : "a text"
        case .scalar(let s): s.string.isEmpty ? "nothing" : "'\(s.string.prefix(40))'"
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }

    // MARK: Mappings

    /// The mapping's entries by key, refusing keys not in `allowed` (with the nearest as a hint).
    func fields(_ node: Node, allowed: [String], what: String) throws(DocumentError) -> [String: Node] {
        guard let mapping = node.mapping else { throw expected("\(what) (a mapping)", node) }
        var result: [String: Node] = [:]
        for (key, value) in mapping {
            guard let name = key.scalar?.string else { throw expected("a plain key", key) }
            guard allowed.contains(name) else {
                guard quotes else {
                    throw error(key, "\(what) has a key that is not one of: \(allowed.joined(separator: ", "))")
                }
                let nearest = allowed.min { editDistance($0, name) < editDistance($1, name) }
                let hint = nearest.map { editDistance($0, name) <= 3 ? " Did you mean '\($0)'?" : "" } ?? ""
                throw error(key, "unknown key '\(name)' in \(what).\(hint) Keys: \(allowed.joined(separator: ", "))")
            }
            result[name] = value
        }
        return result
    }

    // MARK: Scalars

    /// The scalar's YAML type (str, int, float, bool, null, ...), as Yams' default resolver gives it. Never
    /// `node.tag`, which would resolve an implicit tag with the resolver that composed the node: the basic
    /// one types every plain scalar str.
    private func typeName(_ node: Node) -> Tag.Name {
        guard case .scalar(let scalar) = node else { return Tag.Name(rawValue: node.tag.description) }
        switch Tag.Name(rawValue: scalar.tag.description) {
        case .implicit: return PlainScalar.tagName(scalar.string)  // plain and untagged
        case .nonSpecific: return .str  // tagged `!`
        case let name: return name  // quoted or block (str), or tagged
        }
    }

    func string(_ node: Node) throws(DocumentError) -> String {
        guard let s = node.scalar, typeName(node) != .null else { throw expected("text", node) }
        return s.string
    }

    func int(_ node: Node, in range: ClosedRange<Int>) throws(DocumentError) -> Int {
        guard let v = Self.plainDecimal(node) ?? node.int, typeName(node) == .int else {
            throw expected("a whole number", node)
        }
        guard range.contains(v) else {
            throw error(node, "\(v) is out of range; expected \(range.lowerBound) to \(range.upperBound)")
        }
        return v
    }

    /// A scalar written as a plain decimal whole number (`-12`, `0`, `4096`: no sign `+`, no
    /// leading zero, not `-0`, at most 18 digits), read from its text; nil for any other (Yams reads those,
    /// hexadecimal, octal, `1_000` and sexagesimal too). Yams' generic reading of the first number
    /// of a document was a visible part of a small render's start (BENCHMARKS.md, "Measurements
    /// behind the code": NodeReader.int).
    static func plainDecimal(_ node: Node) -> Int? {
        guard case .scalar(let scalar) = node else { return nil }
        let text = scalar.string.utf8
        let digits = text.first == UInt8(ascii: "-") ? text.dropFirst() : text[...]
        guard let first = digits.first, digits.count <= 18, first != UInt8(ascii: "0") || text.count == 1,
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        let magnitude = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return text.count == digits.count ? magnitude : -magnitude
    }

    func double(_ node: Node, in range: ClosedRange<Double>) throws(DocumentError) -> Double {
        guard let v = node.float ?? node.int.map(Double.init), [.int, .float].contains(typeName(node)), v.isFinite
        else {
            throw expected("a number", node)
        }
        guard range.contains(v) else {
            throw error(node, "\(v) is out of range; expected \(range.lowerBound) to \(range.upperBound)")
        }
        return v
    }

    /// A `rowHeight`: lines, 1 to 100, or `automatic` (`TableDocument.automaticRowHeight`).
    func rowHeight(_ node: Node) throws(DocumentError) -> Double {
        if node.scalar?.string == "automatic" { return TableDocument.automaticRowHeight }
        guard node.float != nil || node.int != nil else { throw expected("a number of lines or automatic", node) }
        return try double(node, in: 1...100)
    }

    /// A BCP 47 language tag (`he`, `ar-EG`, `zh-Hant`): ASCII letters, digits and hyphens, at most
    /// 35 bytes.
    func language(_ node: Node) throws(DocumentError) -> String {
        let tag = try string(node)
        let allowed = tag.utf8.allSatisfy { b in
            b == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b | 0x20)
        }
        guard allowed, !tag.isEmpty, tag.utf8.count <= 35 else {
            throw error(node, "'\(TextSanitizer.visible(tag))' is not a language tag; write one like he, ar or en-GB")
        }
        return tag
    }

    func bool(_ node: Node) throws(DocumentError) -> Bool {
        guard let v = node.bool, typeName(node) == .bool else { throw expected("true or false", node) }
        return v
    }

    /// One of `E`'s cases by name (camelCase, as the enum spells them).
    func choice<E: NamedCases>(_ node: Node, _ type: E.Type) throws(DocumentError) -> E {
        let name = try string(node)
        guard let value = E.named(name) else {
            throw error(node, "'\(name)' is not one of: \(E.allCases.map(\.name).joined(separator: ", "))")
        }
        return value
    }

    /// A colour written "#RRGGBB" or "#RRGGBBAA".
    func color(_ node: Node) throws(DocumentError) -> Color {
        let text = try string(node)
        guard text.hasPrefix("#"), [7, 9].contains(text.count), let v = UInt32(text.dropFirst(), radix: 16) else {
            throw error(node, "'\(text)' is not a colour; write #RRGGBB or #RRGGBBAA")
        }
        return Color(rawValue: text.count == 7 ? v << 8 | 0xFF : v)
    }

    /// A rectangle written [x, y, width, height] in character cells.
    func rect(_ node: Node) throws(DocumentError) -> Rect {
        guard let items = node.sequence, items.count == 4 else { throw expected("a frame [x, y, width, height]", node) }
        let v = try items.map { (n: Node) throws(DocumentError) -> Int in try int(n, in: -1000...1000) }
        guard v[2] >= 0, v[3] >= 0 else { throw error(node, "a frame's width and height must not be negative") }
        return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    // MARK: Data

    /// Any node as row data: mappings, lists, and scalars by their YAML type.
    func value(_ node: Node, depth: Int = 0) throws(DocumentError) -> RowValue {
        guard depth < 64 else { throw error(node, "data nested more than 64 levels deep") }
        switch node {
        case .scalar(let s):
            switch typeName(node) {
            case .null: return .null
            case .bool: return node.bool.map(RowValue.bool) ?? .string(s.string)
            case .int, .float:
                return (node.float ?? node.int.map(Double.init)).map(RowValue.number) ?? .string(s.string)
            default: return .string(s.string)
            }
        case .sequence(let items):
            var list: [RowValue] = []
            for item in items { list.append(try value(item, depth: depth + 1)) }
            return .list(list)
        case .mapping(let mapping):
            var object: [String: RowValue] = [:]
            for (key, item) in mapping { object[key.scalar?.string ?? ""] = try value(item, depth: depth + 1) }
            return .object(object)
        case .alias:
            throw error(node, "aliases are not supported in row data; repeat the value")
        }
    }
}
