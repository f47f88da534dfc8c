// A label's lines as the layout breaks them (`CellLayout.breakLines`): a short text of printable
// ASCII is taken as one line without looking it up in a reader's plan, and must be the line
// breaking it gives (`TextLayout.tableLines`), in every mode, at every width from its length up.
// Every path writes over whatever the list held (a recycled list keeps the lines of an earlier
// row): the short line, a reader's planned lines (with and without a tail cut) and breaking here.

import CellKitModel
import CellKitTestSupport
import CellKitText
import Testing

@testable import CellKitRendering

@Suite("CellLayout.breakLines: short printable ASCII")
struct BreakLinesTests {
    @Test func shortASCIIAsBreakingGives() {
        var random = SplitMix64(seed: 0xB4EA_C5)
        let pieces = ["Item", " ", "7", "-", "x", "  ", "~", "é", "\t"]  // the last two take the other path
        for _ in 0..<4_000 {
            let text = (0..<Int(random.next() % 6)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
                .joined()
            let bytes = TextBytes(text)
            let width = max(0, bytes.byteCount + Int(random.next() % 5) - 1)
            let maxLines = Int(random.next() % 4), mode = LineBreakMode.allCases.randomElement(using: &random)!
            var lines: [TextLine] = [], made: TextBytes? = nil
            CellLayout.breakLines(
                bytes, width: width, maxLines: maxLines, mode: mode, record: nil, into: &lines, made: &made)
            let expected = TextLayout.tableLines(bytes, width: width, maxLines: maxLines, mode: mode)
            let found = LaidOutText(made ?? bytes, lines: lines)
            #expect(found == expected, "\(text.debugDescription) at \(width), \(maxLines) lines, \(mode)")
            #expect(lines.map(\.columns) == expected.lines.map(\.columns))
        }
    }

    /// A record of one member `"t"` whose text is `text`, with a reader's planned lines for it at
    /// `width`, `maxLines` and `mode` (as `LinePlan` lays them out: each line's start, end and
    /// columns, a tail cut flagged in its end); nil when the text has no planned lines of that kind.
    static func plannedRecord(_ text: String, width: Int, maxLines: Int, mode: LineBreakMode) -> JSONRecord? {
        let line = Array("{\"t\": \"\(text)\"}".utf8)
        let textStart = 7
        var triples: [UInt32] = []
        let whole = Array(text.utf8).withUnsafeBufferPointer { bytes in
            TextLayout.lineRanges(bytes, width: width, maxLines: maxLines, mode: mode) { start, end, columns in
                triples += [UInt32(start), UInt32(end), UInt32(columns)]
            }
        }
        if !whole {
            guard maxLines == 1, mode == .truncateTail else { return nil }
            let cut = Array(text.utf8).withUnsafeBufferPointer { TextLayout.tailCut($0, width: width) }
            triples = [0, UInt32(cut.end) | LinePlan.ellipsisFlag, UInt32(cut.columns)]
        }
        let header: [UInt32] = [
            UInt32(textStart), UInt32(text.utf8.count), UInt32(width), UInt32(maxLines), UInt32(mode.rawValue),
            UInt32(triples.count / 3),
        ]
        return line.withUnsafeBufferPointer { bytes -> JSONRecord? in
            var members = JSONValueParser.MemberIndex()
            var parser = JSONValueParser(bytes)
            guard (try? parser.check(members: &members)) != nil else { return nil }
            return (header + triples).withUnsafeBytes { planned in
                JSONRecord(
                    line: bytes, offsets: UnsafeBufferPointer(start: members.offsets, count: members.count),
                    planned: planned, plan: LinePlan())
            }
        }
    }

    @Test("a recycled list's old lines are replaced on every path: short, planned, cut with \"…\", broken here")
    func oldLinesReplaced() {
        var random = SplitMix64(seed: 0x01D_11E5)
        let words = ["Lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "日本語", "#7", "x"]
        var paths = (short: 0, planned: 0, cut: 0, here: 0)
        for _ in 0..<3_000 {
            let text = (0..<Int(1 + random.next() % 9)).map { _ in words[Int(random.next() % UInt64(words.count))] }
                .joined(separator: " ")
            let bytes = TextBytes(text)
            let width = Int(4 + random.next() % 30), maxLines = Int(1 + random.next() % 5)
            let mode: LineBreakMode = random.next() % 3 == 0 ? .truncateTail : .wordWrap
            let planned =
                random.next() % 4 != 0 ? Self.plannedRecord(text, width: width, maxLines: maxLines, mode: mode) : nil
            if let planned {  // the layout finds the planned lines (else it breaks here, and this tests less)
                let found = bytes.withBytes {
                    planned.unretained.plannedLines(for: $0, width: width, maxLines: maxLines, mode: mode.rawValue)
                }
                #expect(found != nil, "\(text.debugDescription): the planned lines are not found")
            }
            // Junk from an earlier row: none to many lines, none of them this text's.
            var lines = (0..<Int(random.next() % 9)).map { k in TextLine(k, k + 1, columns: 99) }
            var made: TextBytes? = nil
            CellLayout.breakLines(
                bytes, width: width, maxLines: maxLines, mode: mode, record: planned?.unretained, into: &lines,
                made: &made)
            let expected = TextLayout.tableLines(bytes, width: width, maxLines: maxLines, mode: mode)
            #expect(
                LaidOutText(made ?? bytes, lines: lines) == expected,
                "\(text.debugDescription) at \(width), \(maxLines) lines, \(mode), planned: \(planned != nil)")
            let short = bytes.byteCount <= width && text.allSatisfy { $0.isASCII }
            if short {
                paths.short += 1
            } else if planned == nil {
                paths.here += 1
            } else if made != nil {
                paths.cut += 1
            } else {
                paths.planned += 1
            }
        }
        #expect(paths.short > 100 && paths.planned > 100 && paths.cut > 100 && paths.here > 100, "\(paths)")
    }
}
