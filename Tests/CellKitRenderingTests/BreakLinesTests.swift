// A label's lines as the layout breaks them (`CellLayout.breakLines`): a short text of printable
// ASCII is taken as one line without looking it up in a reader's plan, and must be the line
// breaking it gives (`TextLayout.tableLines`), in every mode, at every width from its length up.

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
}
