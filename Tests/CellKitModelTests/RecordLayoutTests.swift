// A reader lays a record's bytes out ahead of its row (`JSONRecord.writeLayout`) and the table
// thread copies them into a record whole (`init(layout:plan:room:)`, `refill(layout:plan:)`). A
// record made so must answer as its line and its planned lines say, parsed apart.

import CellKitTestSupport
import Testing

@testable import CellKitModel

@Suite("JSON Lines records made from a reader's layout of them")
struct RecordLayoutTests {
    /// One member's planned lines as a reader writes them: its text, and the six-word header and
    /// triples that follow it in the record.
    struct Planned {
        var text: [UInt8], words: [UInt32]
    }

    /// Checks `record` against `object` (its line parsed apart) for `keys`, and against `planned`:
    /// each planned text finds the lines written first for that text. Returns how many it found.
    static func check(
        _ record: JSONRecord, object: [String: RowValue], keys: [String], planned: [Planned], _ note: String
    ) -> Int {
        for key in keys {
            #expect(record.value(at: key) == object[key], "\(key) in \(note)")
            if let plain = record.plainString(at: key) {
                #expect(object[key] == .string(String(decoding: plain.bytes, as: UTF8.self)), "\(key) in \(note)")
            }
        }
        var found = 0
        for entry in planned {
            let first = planned.first { $0.text == entry.text }!
            let lines = entry.text.withUnsafeBufferPointer {
                record.plannedLines(for: $0, width: 9, maxLines: 3, mode: 0).map(Array.init)
            }
            #expect(
                lines == Array(first.words.dropFirst(6)), "\(String(decoding: entry.text, as: UTF8.self)) in \(note)")
            if lines != nil { found += 1 }
        }
        return found
    }

    /// Random records (members of every kind, planned lines for some text members) made from their
    /// layout, and written over a record made for another (`refill(layout:plan:)`), answer as their
    /// line says; a record that asks another plan, or has no room, refuses the layout.
    @Test func readsAsItsLineSays() throws {
        var random = SplitMix64(seed: 0x1A_4007)
        let values = [#""plain""#, #""with\nescape""#, #""日本 é""#, "12", "true", "null", #"{"x": "in"}"#, #""""#]
        let keys = ["a", "b", "t", "d", "x"]
        let plan = LinePlan()
        var spare: JSONRecord? = nil
        var (refilled, found) = (0, 0)
        for _ in 0..<2_000 {
            let names = (0..<Int.random(in: 0...5, using: &random)).map { _ in keys.randomElement(using: &random)! }
            let members = names.map { "\"\($0)\": \(values.randomElement(using: &random)!)" }
            let line = Array("{\(members.joined(separator: ", "))}".utf8)
            guard
                case .object(let object) = try line.withUnsafeBufferPointer({ bytes in
                    var parser = JSONValueParser(bytes)
                    return try parser.parseDocument()
                })
            else { throw Failure("not an object") }
            var index = JSONValueParser.MemberIndex()
            try line.withUnsafeBufferPointer {
                var parser = JSONValueParser($0)
                try parser.check(members: &index)
            }
            // Planned lines for some text members, as a reader writes them: the member's text start
            // (from the line's start), its length, width, lines, mode, line count, then triples.
            var planned: [Planned] = []
            for m in 0..<index.count / 4 {
                let (start, end) = (Int(index.offsets[4 * m + 2]), Int(index.offsets[4 * m + 3]) & 0x1FFF_FFFF)
                guard line[start] == 0x22, random.next() % 2 == 0 else { continue }
                let lines = Int(random.next() % 3) + 1
                var words: [UInt32] = [UInt32(start + 1), UInt32(end - start - 2), 9, 3, 0, UInt32(lines)]
                for k in 0..<lines { words += [UInt32(k), UInt32(k + 1), UInt32(random.next() % 9)] }
                planned.append(Planned(text: Array(line[(start + 1)..<(end - 1)]), words: words))
            }
            let words = planned.flatMap(\.words)
            let offsets = UnsafeBufferPointer(start: index.offsets, count: index.count)
            let size = JSONRecord.layoutBytes(line: line.count, offsets: offsets.count, planned: words.count * 4)
            let layout = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
            defer { layout.deallocate() }
            line.withUnsafeBufferPointer { l in
                words.withUnsafeBytes {
                    JSONRecord.writeLayout(to: layout.baseAddress!, line: l, offsets: offsets, planned: $0)
                }
            }
            let note = String(decoding: line, as: UTF8.self)
            let made = JSONRecord(layout: UnsafeRawBufferPointer(layout), plan: plan)
            found += Self.check(made, object: object, keys: keys, planned: planned, note)
            if spare == nil || !spare!.refill(layout: UnsafeRawBufferPointer(layout), plan: plan) {
                spare = JSONRecord(layout: UnsafeRawBufferPointer(layout), plan: plan, room: size + 64)
            } else {
                refilled += 1
            }
            _ = Self.check(spare!, object: object, keys: keys, planned: planned, note)
            // A record that asks another plan, or has no room past its own bytes, refuses it.
            var other = JSONRecord(layout: UnsafeRawBufferPointer(layout), plan: LinePlan())
            let otherTook = other.refill(layout: UnsafeRawBufferPointer(layout), plan: plan)
            #expect(!otherTook)
            var tight = try Array("{}".utf8).withUnsafeBufferPointer { try JSONRecord(checking: $0) }
            let tightTook = tight.refill(layout: UnsafeRawBufferPointer(layout), plan: nil)
            #expect(tightTook == (size <= 10))
        }
        #expect(refilled > 1_000, "records written over: \(refilled)")
        #expect(found > 1_000, "planned lines found: \(found)")
    }

    struct Failure: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }
}
