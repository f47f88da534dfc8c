// YAMLComposer composes plain documents from libyaml's events instead of Yams' composer: the
// nodes it makes must be Yams' own, marks and styles included (errors name places by them), and
// everything else must be left to Yams.

import CellKitTestSupport
import Foundation
import Testing
import Yams

@testable import CellKitDocuments

@Suite("YAML composed from libyaml's events")
struct YAMLComposerTests {
    /// NodeReader's constructor: no maps.
    static var constructor: Constructor { Constructor([:], [:], [:]) }

    /// Why `a` and `b` differ (kind, text, tag, style, mark, order), or nil when they are the same.
    static func difference(_ a: Node, _ b: Node, at path: String = "root") -> String? {
        // The tags as composed (`Node.tag` is the resolved one), and as resolved.
        let (tagA, tagB) = (Self.composedTag(a), Self.composedTag(b))
        guard tagA == tagB, a.tag.rawValue == b.tag.rawValue else {
            return "\(path): tag '\(tagA)' (\(a.tag)) against '\(tagB)' (\(b.tag))"
        }
        guard a.mark?.line == b.mark?.line, a.mark?.column == b.mark?.column else {
            return "\(path): mark \(a.mark.map { "\($0)" } ?? "none") against \(b.mark.map { "\($0)" } ?? "none")"
        }
        switch (a, b) {
        case (.scalar(let x), .scalar(let y)):
            guard x.string == y.string, x.style == y.style else {
                return "\(path): '\(x.string)' \(x.style) against '\(y.string)' \(y.style)"
            }
            return nil
        case (.sequence(let x), .sequence(let y)):
            guard x.count == y.count, x.style == y.style else {
                return "\(path): \(x.count) items, \(x.style) against \(y.count), \(y.style)"
            }
            for (i, (p, q)) in zip(x, y).enumerated() {
                if let d = difference(p, q, at: "\(path)[\(i)]") { return d }
            }
            return nil
        case (.mapping(let x), .mapping(let y)):
            guard x.count == y.count, x.style == y.style else {
                return "\(path): \(x.count) pairs, \(x.style) against \(y.count), \(y.style)"
            }
            for (i, (p, q)) in zip(x, y).enumerated() {
                if let d = difference(p.key, q.key, at: "\(path).key\(i)")
                    ?? difference(p.value, q.value, at: "\(path).\(p.key.string ?? "?")")
                {
                    return d
                }
            }
            return nil
        default:
            return "\(path): \(a) against \(b)"
        }
    }

    static func composedTag(_ node: Node) -> String {
        switch node {
        case .scalar(let x): x.tag.rawValue
        case .mapping(let x): x.tag.rawValue
        case .sequence(let x): x.tag.rawValue
        case .alias(let x): x.tag.rawValue
        }
    }

    /// Composes `text` both ways: whether the composer took it, and if it did, how its nodes differ from Yams'.
    static func compare(_ text: String) -> (taken: Bool, difference: String?) {
        let constructor = Self.constructor
        guard let fast = YAMLComposer.compose(text, resolver: .basic, constructor: constructor) else {
            return (false, nil)
        }
        guard let yams = try? Yams.compose(yaml: text, .basic, constructor, .utf8) else {
            return (true, "Yams fails where the composer did not")
        }
        return (true, difference(fast, yams))
    }

    @Test("Every YAML file in the repository, and documents in every style, compose to Yams' nodes")
    func repositoryAndStyles() throws {
        // The repository's own files, not .build's (the checkouts, thousands of files).
        var files: [String] = []
        let walk = FileManager.default.enumerator(atPath: Fixtures.repositoryRoot)
        while let path = walk?.nextObject() as? String {
            if path.hasPrefix(".") { walk?.skipDescendants() }
            if path.hasSuffix(".yaml") || path.hasSuffix(".yml") { files.append(path) }
        }
        #expect(files.count >= 20, "\(files)")
        // The fuzz corpus's files are documents and the files they read, parted by "%%" lines.
        var texts = try files.flatMap {
            try String(contentsOfFile: Fixtures.repositoryRoot + "/" + $0, encoding: .utf8)
                .components(separatedBy: "\n%%\n")
        }
        texts += [
            "a: 1\nb: 'two'\nc: \"three\\n\"\nd:\ne: ~\n",
            "title: T\nsections:\n  - header: H\n    rows:\n      - {cell: X, text: \"é 日本\"}\n      - [1, 2, 'x']\n",
            "text: |\n  line one\n  line two\nfolded: >-\n  folded\n  text\n",
            "--- \nkey: value\n...\n", "%YAML 1.1\n---\nk: v\n", "- a\n- - b\n  - c\n- {}\n- []\n",
            "plain: a multi\n  line plain\nquoted: 'it''s'\n# a comment\n", "k: v # trailing\n", "[a, {b: c}, [d]]",
            "\u{FEFF}k: v\n", "k:\t v\n", "'quoted key': 1\n\"dq\": 2\n", "a: 1\r\nb:\r\n  - x\r\n  - 'y'\r\n",
            "? a\n: b\n? c\n", "[a: b, c]", "{a, b: [c], d}", "k: \"\\t\\u00e9\\n\"\n", "k: >\n  a\n\n  b\n",
        ]
        var taken = 0
        for text in texts {
            let (took, difference) = Self.compare(text)
            #expect(difference == nil, "\(difference ?? ""):\n\(text.prefix(400))")
            if took { taken += 1 }
            // One plain document that Yams composes (no anchor, alias or tag) is composed here.
            let plain = !text.contains(where: { "&*!".contains($0) }) && !text.contains("\n---")
            if plain, (try? Yams.compose(yaml: text, .basic, Self.constructor, .utf8)) != nil {
                #expect(took, "left to Yams:\n\(text.prefix(400))")
            }
        }
        #expect(taken >= 40, "\(taken) of \(texts.count) composed here")
    }

    @Test("Generated documents, nested block and flow mappings and lists of every scalar style, compose to Yams' nodes")
    func generated() {
        var random = SplitMix64(seed: 43)
        func scalar() -> String {
            let words = ["a", "b c", "日本語", "x-1", "true", "12", "0x1F", "null", "é", "it's", "#not", "a:b"]
            let word = words[Int.random(in: 0..<words.count, using: &random)]
            switch Int.random(in: 0..<4, using: &random) {
            case 0: return "'" + word.replacingOccurrences(of: "'", with: "''") + "'"
            case 1: return "\"" + word + "\""
            default:
                return word.contains(where: { "'#:".contains($0) })
                    ? "'" + word.replacingOccurrences(of: "'", with: "''") + "'" : word
            }
        }
        func flow(_ depth: Int) -> String {
            guard depth < 3, Int.random(in: 0..<3, using: &random) > 0 else { return scalar() }
            if Bool.random(using: &random) {
                return "["
                    + (0..<Int.random(in: 0..<4, using: &random)).map { _ in flow(depth + 1) }.joined(separator: ", ")
                    + "]"
            }
            return "{"
                + (0..<Int.random(in: 0..<4, using: &random)).map { "k\($0): " + flow(depth + 1) }.joined(
                    separator: ", ") + "}"
        }
        func block(_ indent: String, _ depth: Int) -> String {
            var lines: [String] = []
            for k in 0..<Int.random(in: 1..<5, using: &random) {
                switch depth < 4 ? Int.random(in: 0..<5, using: &random) : 0 {
                case 0: lines.append("\(indent)key\(k): \(scalar())")
                case 1: lines.append("\(indent)key\(k): \(flow(1))")
                case 2: lines.append("\(indent)key\(k):\n" + block(indent + "  ", depth + 1))
                case 3:
                    let items = (0..<Int.random(in: 1..<4, using: &random)).map { _ in "\(indent)  - \(scalar())" }
                    lines.append("\(indent)key\(k):\n" + items.joined(separator: "\n"))
                default: lines.append("\(indent)key\(k): |\n\(indent)  literal \(k)\n\(indent)  text")
                }
            }
            return lines.joined(separator: "\n")
        }
        var taken = 0
        for _ in 0..<400 {
            let text = block("", 0) + "\n"
            let (took, difference) = Self.compare(text)
            #expect(took, "not composed here:\n\(text)")
            #expect(difference == nil, "\(difference ?? ""):\n\(text)")
            if took { taken += 1 }
        }
        #expect(taken == 400)
    }

    @Test(
        "Anchors, aliases, tags, duplicate or complex keys, several documents, errors and empty texts are left to Yams",
        arguments: [
            "a: &x 1\nb: *x\n", "a: !!str 1\n", "a: !custom b\n", "a: 1\na: 2\n", "? [a]\n: b\n", "{[a]: b}",
            "a\n---\nb\n", "a: [1, 2\n", "a: 'open\n", "", "# only a comment\n", "- &s [1]\n", "k: !!map {a: b}\n",
            "a:\n  b: 1\n  b: 2\n", String(repeating: "[", count: 70) + String(repeating: "]", count: 70),
        ])
    func leftToYams(text: String) {
        #expect(YAMLComposer.compose(text, resolver: .basic, constructor: Self.constructor) == nil)
    }

    @Test("A mapping of many keys finds a duplicate among them, and composes without one")
    func manyKeys() {
        let keys = (0..<300).map { "k\($0): \($0)" }
        #expect(Self.compare(keys.joined(separator: "\n")) == (true, nil))
        let repeated = keys + ["k17: again"]
        #expect(
            YAMLComposer.compose(repeated.joined(separator: "\n"), resolver: .basic, constructor: Self.constructor)
                == nil)
    }
}
