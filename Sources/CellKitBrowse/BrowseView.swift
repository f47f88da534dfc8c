// The browse view's drawing: the lines a `BrowseState` shows (title, rows or help, status), written
// to a `BrowseScreen` where they differ from what it shows already.

import CellKitText

/// Draws a `BrowseState` on a screen, writing only the lines that changed since the last frame.
package struct BrowseView {
    /// The lines on the screen now, as last drawn; nil when unknown (the screen drawn whole next).
    private var shown: [ScreenLine]?
    /// Lines written by the last `draw`: what a test of drawing only what changed reads.
    package private(set) var lastWritten = 0

    /// A view that draws the whole screen first.
    package init() {}

    /// Forgets what the screen shows: the next `draw` clears and writes every line (a resumption).
    package mutating func invalidate() { shown = nil }

    /// The frame for `state`: one line per screen line.
    package static func frame(_ state: BrowseState) -> [ScreenLine] {
        let (columns, lines) = state.size
        guard lines > 0 else { return [] }
        var frame: [ScreenLine] = []
        if state.isTooSmall {
            let text =
                "too small (\(columns)×\(lines)): browse needs \(BrowseState.minimumColumns)×\(BrowseState.minimumLines)"
            frame.append(ScreenLine(fit(text, columns)))
            while frame.count < lines { frame.append(ScreenLine("")) }
            return frame
        }
        if state.showsTitle {
            let pad = max(0, (columns - 1 - TextWidth.columns(state.title)) / 2)
            frame.append(ScreenLine(padded(String(repeating: " ", count: pad) + state.title, columns), .title))
        }
        if state.showsHelp {
            frame += BrowseState.help.prefix(state.bodyLines).map { ScreenLine(fit($0, columns)) }
        } else {
            frame += state.shownLines.map { ScreenLine($0) }
        }
        while frame.count < (state.showsTitle ? 1 : 0) + state.bodyLines { frame.append(ScreenLine("")) }
        if state.showsStatus { frame.append(ScreenLine(padded(state.status, columns), .status)) }
        return frame
    }

    /// Draws `state` on `screen`: the lines that differ from those shown, then a flush.
    package mutating func draw(_ state: BrowseState, on screen: some BrowseScreen) {
        let frame = Self.frame(state)
        if shown == nil || shown!.count != frame.count { screen.clear() }
        let before = shown?.count == frame.count ? shown! : []
        lastWritten = 0
        for (number, line) in frame.enumerated() where number >= before.count || before[number] != line {
            screen.write(line, at: number)
            lastWritten += 1
        }
        shown = frame
        screen.flush()
    }

    /// `text` without the characters a terminal would act on, cut to the width less one column (the
    /// last column of the last line would scroll some terminals).
    static func fit(_ text: String, _ columns: Int) -> String {
        TextLayout.lines(TextSanitizer.visible(text), width: max(1, columns - 1), maxLines: 1, mode: .truncateTail)
            .first.map(String.init) ?? ""
    }

    /// `text` fitted and padded with spaces to the width less one column (a bar in reverse video).
    static func padded(_ text: String, _ columns: Int) -> String {
        let cut = fit(text, columns)
        return cut + String(repeating: " ", count: max(0, columns - 1 - TextWidth.columns(cut)))
    }
}
