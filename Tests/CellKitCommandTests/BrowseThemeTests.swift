// Issue 32's contrast rules where people read them: the `cellkit browse` screen in tmux, the cursor
// row included, on a light and a dark theme at 16, 256 and 24-bit colour: every letter and digit
// at 4.5:1 or more, every other glyph at 3:1 or more, and no drawn fill left with the terminal's
// own foreground. The colours are tmux's own record of the screen (capture-pane -e).

import CellKit
import CellKitTestSupport
import Foundation
import Testing

@Suite("cellkit browse on light and dark terminals", .enabled(if: Tmux.available, "tmux is missing"))
struct BrowseThemeTests {
    @Test(
        "the cursor row and the whole screen are readable at each colour depth on both themes",
        arguments: [("screen", ""), ("screen-256color", ""), ("screen-256color", "truecolor")])
    func readable(term: String, colorTerm: String) throws {
        for theme in TerminalTheme.allCases {
            let tmux = try Tmux(
                "env TERM=\(term) COLORTERM=\(colorTerm) "
                    + BrowseTests.line("'\(BrowseTests.showcase)' --theme \(theme.rawValue)"))
            for (key, row) in [("", 1), ("jjj", 4), ("G", 11)] {
                if !key.isEmpty { try tmux.type(key) }
                try tmux.wait("row \(row)") { BrowseTests.status($0).contains("row \(row) of 11") }
                let screen = try tmux.run(["capture-pane", "-p", "-e", "-t", "main"])
                let inks = TerminalInk.read(screen, theme: theme)
                let faults = Set(inks.compactMap(\.fault).map { $0.drop { $0 != "#" } })
                #expect(faults.isEmpty, "\(term) \(colorTerm) \(theme) row \(row): \(faults.sorted())\n\(screen)")
                #expect(inks.contains { $0.filled }, "the cursor row is drawn with a fill")
                #expect(inks.count > 300, "the screen was read")
            }
            try tmux.keys("q")
        }
    }
}
