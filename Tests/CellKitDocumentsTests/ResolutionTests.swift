// Documents composed with Yams' basic resolver mean what they meant composed with its default one:
// the same values, key texts and errors, including where composing resolves mapping keys (duplicates,
// tagged keys, anchored keys used as values), which takes the default resolver again.

import CellKitModel
import CellKitTestSupport
import Testing
import Yams

@testable import CellKitDocuments

@Suite("Documents composed without Yams' regular expressions")
struct ResolutionTests {
    // MARK: The reference: how NodeReader read a document before, with Yams' default resolver

    /// The document as the default resolver composes it, checked as `NodeReader` checks it.
    static func referenceRoot(_ text: String, _ reader: NodeReader) throws -> Node {
        var text = text
        if let finding = text.withUTF8({ YAMLGuard.scan($0) }) {
            throw DocumentError(file: reader.file, line: finding.line, column: finding.column, finding.message)
        }
        let node: Node?
        do { node = try Yams.compose(yaml: text) } catch {
            throw DocumentError(file: reader.file, yaml: error, quoting: true, text: text)
        }
        guard let node else { throw DocumentError(file: reader.file, line: 1, column: 1, "empty") }
        try YAMLGuard.walk(node, reader)
        return node
    }

    /// `NodeReader.value` as it was: types from `node.tag`, which the default resolver resolves.
    static func referenceValue(_ node: Node) throws -> RowValue {
        switch node {
        case .scalar(let s):
            switch Yams.Tag.Name(rawValue: node.tag.description) {
            case .null: return .null
            case .bool: return node.bool.map(RowValue.bool) ?? .string(s.string)
            case .int, .float:
                return (node.float ?? node.int.map(Double.init)).map(RowValue.number) ?? .string(s.string)
            default: return .string(s.string)
            }
        case .sequence(let items): return .list(try items.map(referenceValue))
        case .mapping(let mapping):
            var object: [String: RowValue] = [:]
            for (key, item) in mapping { object[key.scalar?.string ?? ""] = try referenceValue(item) }
            return .object(object)
        case .alias: throw DocumentError(file: "", line: 1, column: 1, "alias")
        }
    }

    /// `NodeReader.string` as it was, for a key.
    static func referenceKey(_ node: Node) -> String {
        guard let s = node.scalar, Yams.Tag.Name(rawValue: node.tag.description) != .null else { return "not text" }
        return s.string
    }

    /// `value` written out with keys in order (a dictionary's own order varies), NaN equal to itself.
    static func describe(_ value: RowValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number(let n): "\(n)"
        case .string(let s): s.debugDescription
        case .list(let items): "[" + items.map(describe).joined(separator: ", ") + "]"
        case .object(let o):
            "{" + o.keys.sorted().map { "\($0.debugDescription): \(describe(o[$0]!))" }.joined(separator: ", ") + "}"
        }
    }

    /// What reading `text` as row data gives, the old way: the value and the texts of the top-level keys
    /// (as a stylesheet reads style names), or the error.
    static func reference(_ text: String) -> String {
        let reader = NodeReader(file: "t.yaml")
        do {
            let root = try referenceRoot(text, reader)
            let keys = root.mapping.map { $0.map { referenceKey($0.key) } } ?? []
            return "\(describe(try referenceValue(root))) keys \(keys)"
        } catch {
            return "\(error)"
        }
    }

    /// What reading `text` as row data gives now, and which resolver composed it.
    static func current(_ text: String) -> (String, NodeReader.Resolution?) {
        let reader = NodeReader(file: "t.yaml")
        do {
            let (root, resolution) = try reader.composed(text)
            let keys = root.mapping.map { $0.map { (try? reader.string($0.key)) ?? "not text" } } ?? []
            return ("\(describe(try reader.value(root))) keys \(keys)", resolution)
        } catch {
            return ("\(error)", nil)
        }
    }

    // MARK: Tests

    @Test("ordinary documents are composed without the default resolver")
    func manifestsUseBasic() throws {
        for name in ["seed-004-foobar.yaml", "seed-003-projects.yaml", "seed-002-contacts.yaml", "showcase.yaml"] {
            let text = try String(contentsOfFile: Render.manifest(name), encoding: .utf8)
            #expect(try NodeReader(file: name).composed(text).resolution == .basic, "\(name)")
        }
    }

    @Test(
        "keys the basic resolver would type differently take the default resolver, with the same meaning",
        arguments: [
            // The default rules type `1` an int, `"1"` a str: two keys. The basic resolver: one key, twice.
            ("{1: a, \"1\": b}", #"{"1": "b"} keys ["1", "1"]"#),
            // Both ints to the default rules: a duplicate.
            ("{1: a, !!int 1: b}", "t.yaml:1:2: duplicate key 1; each key may appear once"),
            // A key the default rules type null is not a text (a stylesheet's style name).
            ("{null: a, ~: b}", #"{"null": "a", "~": "b"} keys ["not text", "not text"]"#),
            // An alias of an anchored key shares its tag, which composing resolved.
            ("{&n 12: a, v: *n}", #"{"12": "a", "v": 12.0} keys ["12", "v"]"#),
            // A tagged `!!str` key whose text the default rules would type otherwise.
            ("{!!str yes: a}", #"{"yes": "a"} keys ["yes"]"#),
        ])
    func keysRetyped(_ text: String, _ expected: String) {
        let (result, resolution) = Self.current(text)
        #expect(result == expected)
        #expect(result == Self.reference(text))
        #expect(resolution != .basic)
    }

    @Test("values, keys and errors match the default resolver's in random documents")
    func randomDocuments() {
        var random = SplitMix64(seed: 0xD0C5)
        var resolutions: Set<NodeReader.Resolution?> = []
        var mismatches: [String] = []
        for _ in 0..<3000 {
            let text = Self.randomDocument(&random)
            let (result, resolution) = Self.current(text)
            resolutions.insert(resolution)
            let expected = Self.reference(text)
            if result != expected { mismatches.append("\(text)\n  now: \(result)\n  was: \(expected)") }
        }
        #expect(Array(mismatches.prefix(5)) == [])
        // Both resolvers and errors are reached, so that matching means something.
        #expect(resolutions == [.basic, .yamsDefault, nil])
    }

    static let texts = [
        "1", "0o7", "yes", "Off", "null", "~", "1.5", ".inf", "<<", "=", "2002-12-14", "a", "b1", "yES",
    ]

    /// A flow mapping of two to four entries: keys plain, quoted, tagged or anchored; values plain, quoted, tagged,
    /// aliases of those anchors, lists or mappings.
    static func randomDocument(_ random: inout SplitMix64) -> String {
        var anchors = 0
        func scalar(_ random: inout SplitMix64) -> String {
            let text = texts.randomElement(using: &random)!
            switch Int.random(in: 0..<12, using: &random) {
            case 0: return "\"\(text)\""
            case 1: return "'\(text)'"
            case 2: return "!!str \(text)"
            case 3: return "!!int \(text)"
            case 4: return "! \(text)"
            case 5, 6:
                anchors += 1
                return "&a\(anchors) \(text)"
            default: return text
            }
        }
        func value(_ random: inout SplitMix64, depth: Int) -> String {
            switch Int.random(in: 0..<10, using: &random) {
            case 0 where anchors > 0: return "*a\(Int.random(in: 1...anchors, using: &random))"
            case 1 where depth < 2: return "[\(value(&random, depth: depth + 1)), \(value(&random, depth: depth + 1))]"
            case 2 where depth < 2: return mapping(&random, depth: depth + 1)
            default: return scalar(&random)
            }
        }
        func mapping(_ random: inout SplitMix64, depth: Int) -> String {
            let entries = (0..<Int.random(in: 2...4, using: &random)).map { _ in
                "\(scalar(&random)): \(value(&random, depth: depth))"
            }
            return "{" + entries.joined(separator: ", ") + "}"
        }
        return mapping(&random, depth: 0)
    }
}
