// Where the browse view draws: a grid of lines, each written whole. The terminal is one
// (`TerminalScreen`, below); the tests' in-memory grid is another.

import CellKitTerminal

/// One line of the screen as the view draws it.
package struct ScreenLine: Equatable, Sendable {
    /// How the line looks beyond its text's own colours.
    package enum Style: Equatable, Sendable {
        /// As its text says (a row's lines carry their ANSI colour sequences).
        case plain
        /// The title line: reverse video, bold.
        case title
        /// The status line: reverse video.
        case status
    }
    /// The text, fitted to the screen's width, with a row's ANSI colour sequences.
    package var text: String
    /// Its look.
    package var style: Style
    /// A line of `text` looking as `style` says.
    package init(_ text: String, _ style: Style = .plain) { (self.text, self.style) = (text, style) }
}

/// A screen the browse view draws on: its size, and lines written whole at a line number.
package protocol BrowseScreen: AnyObject {
    /// Columns and lines now.
    var size: (columns: Int, lines: Int) { get }
    /// Replaces line `number` (from 0) with `line`, the rest of it cleared.
    func write(_ line: ScreenLine, at number: Int)
    /// Clears the whole screen (before drawing everything again).
    func clear()
    /// Shows what was written since the last flush.
    func flush()
}

extension TerminalScreen: BrowseScreen {
    /// Moves to the line, resets the attributes, writes the line in its style and clears to its end.
    package func write(_ line: ScreenLine, at number: Int) {
        var bytes = move(line: number, column: 0) + capability("sgr0")
        switch line.style {
        case .plain: break
        case .title: bytes += capability("rev") + capability("bold")
        case .status: bytes += capability("rev")
        }
        bytes += Array(line.text.utf8) + capability("sgr0") + capability("el")
        queue(bytes)
    }

    /// The terminal's `clear`.
    package func clear() { queue(capability("sgr0") + capability("clear")) }
}
