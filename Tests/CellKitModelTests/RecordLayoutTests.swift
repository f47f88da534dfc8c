// A reader lays a record's bytes out ahead of its row (`JSONRecord.writeLayout`) and the table
// thread copies them into a record whole (`init(layout:plan:room:)`, `refill(layout:plan:)`). A
// record made so must read as the one made from its parts: its members, its values, its planned
// lines.

import CellKitTestSupport
import Testing

@testable import CellKitModel

@Suite("JSON Lines records made from a reader's layout of them")
struct RecordLayoutTests {
    /// What a record answers to a hook's keys and to the layout's plan lookup.
    static func answers(_ record: JSONRecord, keys: [String], planned texts: [String]) -> [String] {
        keys.map { key in
            record.plainString(at: key).map { "\(key)=\(String(decoding: $0.bytes, as: UTF8.self)) \($0.isClean)" }
                ?? "\(key): \(record.value(at: key).map { "\($0)" } ?? "none")"
        }
            + texts.map { text in
                Array(text.utf8).withUnsafeBufferPointer {
                    record.plannedLines(for: $0, width: 9, maxLines: 3, mode: 0).map { Array($0).description }
                        ?? "no plan"
                }
            }
    }

    /// Random records (members of every kind, planned lines for some text members) made from their
    /// parts, from their layout, and written over a record made for another (`refill(layout:plan:)`,
    /// into one with room, refused by one without): the same answers.
    @Test func readsAsMadeFromItsParts() throws {
        var random = SplitMix64(seed: 0x1A_4007)
        let values = [#""plain""#, #""with\nescape""#, #""日本 é""#, "12", "true", "null", #"{"x": "in"}"#, #""""#]
        let plan = LinePlan()
        var spare: JSONRecord? = nil, refilled = 0
        for _ in 0..<2_000 {
            let keys = (0..<Int.random(in: 0...5, using: &random)).map { _ in
                ["a", "b", "t", "d"].randomElement(using: &random)!
            }
            let texts = keys.map { _ in values.randomElement(using: &random)! }
            let line = Array("{\(zip(keys, texts).map { "\"\($0)\": \($1)" }.joined(separator: ", "))}".utf8)
            var members = JSONValueParser.MemberIndex()
            try line.withUnsafeBufferPointer {
                var parser = JSONValueParser($0)
                try parser.check(members: &members)
            }
            // Planned lines for the plain text members, as a reader writes them: the member's text
            // start (from the line's start), its length, width, lines, mode, line count, then triples.
            var planned: [UInt32] = []
            for m in 0..<members.count / 4 {
                let (start, end) = (Int(members.offsets[4 * m + 2]), Int(members.offsets[4 * m + 3]))
                guard line[start] == 0x22, random.next() % 2 == 0 else { continue }
                let length = (end & 0x1FFF_FFFF) - start - 2, lines = Int(random.next() % 3) + 1
                planned += [UInt32(start + 1), UInt32(length), 9, 3, 0, UInt32(lines)]
                for k in 0..<lines { planned += [UInt32(k), UInt32(k + 1), UInt32(k + 7)] }
            }
            let offsets = UnsafeBufferPointer(start: members.offsets, count: members.count)
            let parts = line.withUnsafeBufferPointer { l in
                planned.withUnsafeBytes { JSONRecord(line: l, offsets: offsets, planned: $0, plan: plan) }
            }
            let size = JSONRecord.layoutBytes(line: line.count, offsets: offsets.count, planned: planned.count * 4)
            let layout = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
            defer { layout.deallocate() }
            line.withUnsafeBufferPointer { l in
                planned.withUnsafeBytes {
                    JSONRecord.writeLayout(to: layout.baseAddress!, line: l, offsets: offsets, planned: $0)
                }
            }
            let made = JSONRecord(layout: UnsafeRawBufferPointer(layout), plan: plan)
            let texts2 = values.map { String($0.dropFirst().dropLast()) }
            let expected = Self.answers(parts, keys: ["a", "b", "t", "d", "x"], planned: texts2)
            #expect(Self.answers(made, keys: ["a", "b", "t", "d", "x"], planned: texts2) == expected)
            if spare == nil || !spare!.refill(layout: UnsafeRawBufferPointer(layout), plan: plan) {
                spare = JSONRecord(layout: UnsafeRawBufferPointer(layout), plan: plan, room: size + 64)
            } else {
                refilled += 1
            }
            #expect(Self.answers(spare!, keys: ["a", "b", "t", "d", "x"], planned: texts2) == expected)
            // A record that asks another plan, or has no room past its own bytes, refuses it.
            var other = JSONRecord(layout: UnsafeRawBufferPointer(layout), plan: LinePlan())
            let otherTook = other.refill(layout: UnsafeRawBufferPointer(layout), plan: plan)
            #expect(!otherTook)
            var tight = try Array("{}".utf8).withUnsafeBufferPointer { try JSONRecord(checking: $0) }
            let tightTook = tight.refill(layout: UnsafeRawBufferPointer(layout), plan: nil)
            #expect(tightTook == (size <= 10))
        }
        #expect(refilled > 1_000, "records written over: \(refilled)")
    }
}
