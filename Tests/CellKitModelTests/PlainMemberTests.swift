// `JSONRecord.plainString(at:)` looks a hook's usual key up with a loop of its own (`plainMember`)
// and hands everything else to the general lookup (`withPlainString`). Both must answer alike on
// every record and key: duplicate keys (the last wins), keys written with escapes, key paths
// with dots, values that are not plain text.

import CellKitTestSupport
import Testing

@testable import CellKitModel

@Suite("JSON Lines records: a hook's key looked up by the quick loop and by the general one")
struct PlainMemberTests {
    /// Keys as a record writes them (between the quotes): plain, escaped to the same text, longer,
    /// with a dot or a backslash.
    static let writtenKeys = [
        "t", "d", "w", #"\u0074"#, "tt", "t.x", #"t\\"#, #"\u0074t"#, "é", "", "cell",
        String(repeating: "k", count: 32), String(repeating: "k", count: 33),
    ]
    /// Values: plain text (clean or not), escaped text, other types, an object.
    static let values = [
        #""plain""#, #""with\nescape""#, #""é, 日本""#, #""\u0041""#, #""""#, "12", "true", "null",
        #"{"x": "in", "t": "deep"}"#, #"["a"]"#, "\"\u{7F}del\"",
    ]
    /// Keys as a hook asks for them.
    static let askedKeys = [
        "t", "d", "w", "tt", "t.x", "x", "é", "cell", #"t\"#, "t.", ".t", String(repeating: "k", count: 33),
        String(repeating: "k", count: 32),
    ]

    @Test func quickLoopAnswersAsTheGeneralLookup() throws {
        var random = SplitMix64(seed: 0x5EED_43)
        var compared = 0, found = 0
        for _ in 0..<3_000 {
            let members = (0..<Int.random(in: 0...6, using: &random)).map { _ in
                "\"\(Self.writtenKeys.randomElement(using: &random)!)\": \(Self.values.randomElement(using: &random)!)"
            }
            let line = Array("{\(members.joined(separator: ", "))}".utf8)
            let record = try line.withUnsafeBufferPointer { try JSONRecord(checking: $0) }
            for key in Self.askedKeys {
                let bytes = Array(key.utf8)
                let quick = bytes.withUnsafeBufferPointer {
                    record.plainString(at: $0).map { (Array($0.bytes), $0.isClean) }
                }
                let general = bytes.withUnsafeBufferPointer {
                    record.withPlainString(at: $0) { (Array($0), $1) }
                }
                #expect(
                    quick?.0 == general?.0 && quick?.1 == general?.1,
                    "\(key) in \(String(decoding: line, as: UTF8.self))")
                compared += 1
                if general != nil { found += 1 }
            }
        }
        // The records must have exercised both answers, often.
        #expect(compared == 3_000 * Self.askedKeys.count)
        #expect(found > 2_000 && compared - found > 2_000, "\(found) of \(compared) found")
    }

    /// The cases the loop must not settle itself, one by one: a later member written with an
    /// escape wins over an earlier plain one, and a plain one after an escaped one wins.
    @Test func lastMemberWinsWhateverItsSpelling() throws {
        let cases: [(line: String, key: String, text: String?)] = [
            (#"{"t": "first", "\u0074": "second"}"#, "t", "second"),
            (#"{"\u0074": "first", "t": "second"}"#, "t", "second"),
            (#"{"t": "first", "t": "second"}"#, "t", "second"),
            (#"{"t": "first", "t": 2}"#, "t", nil),
            (#"{"t": "a\nb"}"#, "t", nil),
            (#"{"t": {"x": "in"}}"#, "t.x", "in"),
            (#"{"tt": "no"}"#, "t", nil),
        ]
        for (line, key, text) in cases {
            let record = try Array(line.utf8).withUnsafeBufferPointer { try JSONRecord(checking: $0) }
            let got = Array(key.utf8).withUnsafeBufferPointer { record.plainString(at: $0).map { Array($0.bytes) } }
            #expect(got == text.map { Array($0.utf8) }, "\(key) in \(line)")
        }
    }
}
