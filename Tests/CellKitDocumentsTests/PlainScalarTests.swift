// The hand-written plain-scalar typing against its oracle, Yams' `Resolver.default`: its regular
// expressions, run by ICU, on edge cases of every rule and on random texts made of the bytes they name.

import CellKitTestSupport
import Testing
import Yams

@testable import CellKitDocuments

@Suite("Plain scalar types")
struct PlainScalarTests {
    /// The tag Yams' default rules give an implicit scalar with `text` (reading `tag` resolves it).
    static func oracle(_ text: String) -> Yams.Tag.Name {
        let node = Node.scalar(Node.Scalar(text, Yams.Tag(.implicit, .default, .default), .plain))
        return Yams.Tag.Name(rawValue: node.tag.description)
    }

    /// The texts, written out, whose type differs from the oracle's.
    static func mismatches(_ texts: [String]) -> [String] {
        texts.filter { PlainScalar.tagName($0) != oracle($0) }.map {
            "\($0.debugDescription): \(PlainScalar.tagName($0).rawValue) vs \(oracle($0).rawValue)"
        }
    }

    static let edgeCases: [String] = [
        // bool
        "yes", "Yes", "YES", "yES", "yEs", "no", "No", "NO", "nO", "true", "True", "TRUE", "tRUE", "false", "False",
        "FALSE", "on", "On", "ON", "oN", "off", "Off", "OFF", "oFF", "y", "n", "yes ", " yes", "yess", "t", "f",
        // int
        "0", "-0", "+0", "00", "07", "08", "09", "0_", "0o", "0o7", "0o8", "-0o7", "0o_", "0b", "0b1", "0b2", "0b_",
        "+0b10_1", "0x", "0xFF", "0xfg", "-0x_a", "0X1", "1", "12", "1_000", "1__", "_1", "-", "+", "+-1", "--1",
        "1:20", "1:60", "1:5", "1:05", "1:005", "1:", ":1", "0:20", "190:20:30", "-1:2:3", "1_0:59", "1:2_0",
        // float
        "1.", "1.5", ".5", "-.5", "+.5", ".", "._", "._5", "1e3", "1E3", "1e", "1e+", "1e+3", "1e-3", "1.e3", ".5e3",
        ".5e+3", ".5e-3", "-1.5e-3_", "1_000.0_1", "08.5", "190:20:30.15", "190:20:30.", "0:20.5", "-1:2.5",
        "1:2:3.4.5", ".inf", "+.inf", "-.inf", ".Inf", "-.INF", ".iNF", "inf", ".nan", ".NaN", ".NAN", "+.nan",
        "-.NaN", ".nAn", "nan", "1.5.", "1..5", "1e3.5",
        // merge, value
        "<<", "<", "<<<", "=", "==", " =",
        // null
        "", "~", "~~", "null", "Null", "NULL", "nULL", "nuLL", "NuLL", " ", "\t", "null ",
        // timestamp
        "2002-12-14", "2002-1-14", "2002-12-1", "202-12-14", "2002-12-14t21:59:43.10-05:00",
        "2001-12-14T21:59:43.10Z", "2001-12-14 21:59:43.10 -5", "2001-12-14\t21:59:43.10\t+05:00",
        "2001-12-14  21:59:43", "2001-1-4T1:59:43", "2001-12-14T21:59:43.", "2001-12-14T21:59:43 ",
        "2001-12-14T21:59:43 Z", "2001-12-14T21:59:43Z ", "2001-12-14T21:59:4", "2001-12-14T21:5:43",
        "2001-12-14T123:59:43", "2001-12-14T21:59:43+123", "2001-12-14T21:59:43+1:2", "2001-12-14T21:59:43+01:",
        "2001-12-14T21:59:43z", "2001-12-14T21:59:43-05:00:00", "2001-12-14X21:59:43", "20011-12-14",
        // line breaks: ICU's `$` also matches before one final break
        "yes\n", "yes\r\n", "yes\r", "yes\n\n", "yes\r\r", "yes\n\r", "1\u{0B}", "1\u{0C}", "1\u{85}",
        "1\u{2028}", "1\u{2029}", "1\u{2027}", "\n", "\r\n", "\n\r", "\n\n", "~\n", "null\u{85}", "1\n2", "\n1",
        "2002-12-14\r\n", "1.5\u{2029}", "<<\n", "=\r",
        // other characters: unicode digits, full-width forms, NUL, a combining mark
        "\u{661}\u{662}", "\u{FF11}", "1\u{0}", "\u{0}", "1\u{301}", "yes\u{301}", "\u{1D7CF}", "é", "1 ", " 1",
    ]

    @Test("edge cases of every rule are typed as Yams types them")
    func edgeCasesMatch() {
        #expect(Self.mismatches(Self.edgeCases) == [])
    }

    @Test("the oracle is Yams' default rules, not the basic resolver")
    func oracleTypes() {
        let expected: [(String, Yams.Tag.Name)] = [
            ("Yes", .bool), ("0o17", .int), ("1:20", .int), ("08", .float), (".NaN", .float), ("<<", .merge),
            ("~", .null), ("2002-12-14", .timestamp), ("=", .value), ("yES", .str),
        ]
        for (text, tag) in expected {
            #expect(Self.oracle(text) == tag, "\(text)")
            #expect(PlainScalar.tagName(text) == tag, "\(text)")
        }
    }

    /// Random texts of up to 24 characters, mostly from the characters the rules name.
    static func randomTexts(count: Int, seed: UInt64) -> [String] {
        let common: [Character] = Array("0123456789_-+.:eE ~<=TtZzxob\n") + ["\t", "\r"]
        let words = [
            "yes", "No", "ON", "off", "TRUE", "null", "NULL", "inf", "NaN", "0x", "0o", "0b", "2002-12-14", "2001-1-4",
            "T21:59:43", " 21:59:43", ":59:43", ".10", "-05:00", "+5",
        ]
        let rare: [Character] = ["a", "f", "F", "y", "s", "n", "u", "l", "\u{85}", "\u{2028}", "\u{661}", "\u{0}", "é"]
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            var text = ""
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                switch Int.random(in: 0..<20, using: &random) {
                case 0: text += words.randomElement(using: &random)!
                case 1, 2: text.append(rare.randomElement(using: &random)!)
                default: text.append(common.randomElement(using: &random)!)
                }
            }
            return text
        }
    }

    @Test("random texts are typed as Yams types them")
    func randomTextsMatch() {
        let texts = Self.randomTexts(count: 20_000, seed: 0x5CA1_A4)
        // The generator reaches every rule, so that matching the oracle means something.
        let reached = Set(texts.map(PlainScalar.tagName))
        #expect(reached == [.bool, .int, .float, .merge, .null, .timestamp, .value, .str])
        #expect(Array(Self.mismatches(texts).prefix(10)) == [])
    }

    @Test("short texts made of digits, signs and separators are typed as Yams types them")
    func shortTextsMatch() {
        // Every text of up to four of these characters: the rules' boundaries, exhaustively.
        let alphabet: [String] = ["0", "1", "5", "6", "9", "_", "-", "+", ".", ":", "e", "x", "o", "b", " ", "\n"]
        var texts = [""]
        var last = [""]
        for _ in 0..<4 {
            last = last.flatMap { prefix in alphabet.map { prefix + $0 } }
            texts += last
        }
        #expect(Array(Self.mismatches(texts).prefix(10)) == [])
    }

    @Test("a plain decimal's value read from its text is Yams' value; every other form is left to Yams")
    func plainDecimals() {
        var texts =
            Self.edgeCases + [
                "12", "-12", "4096", "999999999999999999", "-999999999999999999", "9999999999999999999", "0x1F",
                "1_000",
                "+5", "012", "1:20", "-", "", "1.0", "1e3", "٣", "１２",
            ]
        texts += (0..<2_000).map { _ in
            String((0..<Int.random(in: 1...4)).map { _ in "0123456789-+_x:".randomElement()! })
        }
        let differ = texts.filter { text in
            let node = Node.scalar(Node.Scalar(text, Yams.Tag(.implicit, .default, .default), .plain))
            guard let fast = NodeReader.plainDecimal(node) else { return false }
            return fast != node.int
        }
        #expect(differ == [])
        #expect(NodeReader.plainDecimal(.scalar(.init("0x1F"))) == nil)
        #expect(NodeReader.plainDecimal(.scalar(.init("-4096"))) == -4096)
    }
}
