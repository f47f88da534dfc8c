// The preview's scrolling view, without a terminal: lines, where the view stands, and what each
// of browse's keys does to it (j/k, Ctrl-D/Ctrl-U, f/b, g/G, / to search, n/N, q). The terminal
// side (PreviewView) turns its frames into screen lines.

import CellKitBrowse
import CellKitTerminal
import CellKitText

/// The state of the preview's view: its lines, the first one shown, the screen's size, a search.
package struct PreviewPager {
    /// What a key asks of the view's owner.
    package enum Action: Equatable {
        /// Nothing beyond drawing again.
        case none
        /// End the view.
        case quit
    }

    /// The lines, with their ANSI colours.
    package private(set) var lines: [String]
    /// The same lines without escapes, searched.
    private var plain: [String]
    /// The first line shown.
    package private(set) var top = 0
    /// The screen's columns and lines.
    package private(set) var size: (columns: Int, lines: Int)
    /// The title line's text.
    package var title: String
    /// The text typed after `/`, while a search is typed; nil otherwise.
    package private(set) var typing: String?
    /// The last search, for n and N.
    package private(set) var query = ""
    /// A message for the status line (a search not found), until the next key or resize.
    package private(set) var message: String?
    /// What the status line says after where the view stands: the drawing's progress, a reload.
    package var note: String?

    /// A view of `lines` titled `title` on a screen of `columns`×`rows`.
    package init(lines: [String], title: String, columns: Int, rows: Int) {
        (self.lines, self.title, size) = (lines, title, (columns, rows))
        plain = lines.map(PreviewRenderer.withoutEscapes)
    }

    /// Lines of the body: the screen less the title and status lines.
    package var bodyLines: Int { max(1, size.lines - 2) }

    /// The last line `top` may be.
    var maxTop: Int { max(0, lines.count - bodyLines) }

    /// Where the view stood when a new drawing began (`--watch`): kept while the new lines are
    /// still too few to reach it, and taken back once they do; a key lets it go.
    private var wantedTop: Int?
    /// The lines of the last drawing that was complete (none before the first is).
    private var lastWhole: [String] = []

    /// Replaces the lines (a new drawing), keeping the place as far as it goes; `growing`: more
    /// lines are coming, so a place they do not reach yet is kept for them.
    package mutating func replace(_ lines: [String], growing: Bool = false) {
        // While a new drawing grows, the last whole drawing's lines past its end stay under it (a
        // reload keeps the view where it stood, the old text there until the new reaches it).
        var shown = lines
        if growing, lastWhole.count > lines.count { shown += lastWhole[lines.count...] }
        if !growing { lastWhole = lines }
        self.lines = shown
        plain = shown.map(PreviewRenderer.withoutEscapes)
        if growing, wantedTop == nil, top > maxTop { wantedTop = top }
        top = min(wantedTop ?? top, maxTop)
        if let wanted = wantedTop, top == wanted || !growing { wantedTop = nil }
    }

    /// The screen is now `columns`×`rows`.
    package mutating func resize(columns: Int, rows: Int) {
        size = (columns, rows)
        message = nil
        top = min(top, maxTop)
    }

    /// What `key` does.
    package mutating func handle(_ key: Key) -> Action {
        wantedTop = nil  // a key moves the view from where it stands
        message = nil
        if typing != nil { return type(key) }
        let half = max(1, bodyLines / 2)
        switch key {
        case .character("q"), .character("\u{03}"): return .quit
        case .character("j"), .down, .wheelDown, .enter: scroll(1)
        case .character("k"), .up, .wheelUp: scroll(-1)
        case .character("\u{04}"): scroll(half)
        case .character("\u{15}"): scroll(-half)
        case .character("f"), .character(" "), .pageDown, .character("\u{06}"): scroll(bodyLines)
        case .character("b"), .pageUp, .character("\u{02}"): scroll(-bodyLines)
        case .character("g"), .home: top = 0
        case .character("G"), .end: top = maxTop
        case .character("/"): typing = ""
        case .character("n"): find(from: top + 1, forward: true)
        case .character("N"): find(from: top - 1, forward: false)
        default: break
        }
        return .none
    }

    /// A key while a search is typed: text, Backspace, Enter (search) or Escape (cancel).
    private mutating func type(_ key: Key) -> Action {
        switch key {
        case .enter:
            query = typing ?? ""
            typing = nil
            if !query.isEmpty { find(from: top + 1, forward: true) }
        case .escape: typing = nil
        case .backspace: if typing?.isEmpty == false { typing?.removeLast() }
        case .character("\u{03}"): return .quit
        case .character(let c) where !(c.asciiValue.map { $0 < 0x20 } ?? false): typing? += String(c)
        default: break
        }
        return .none
    }

    /// Moves the view `by` lines (up when negative), within the lines.
    private mutating func scroll(_ by: Int) { top = min(max(0, top + by), maxTop) }

    /// Moves to the next line from `from` holding the query, wrapping round; says so when none does.
    private mutating func find(from: Int, forward: Bool) {
        guard !query.isEmpty, !plain.isEmpty else { return }
        let needle = query.lowercased()
        for step in 0..<plain.count {
            let i = ((forward ? from + step : from - step) % plain.count + plain.count) % plain.count
            if plain[i].lowercased().contains(needle) {
                top = min(i, maxTop)
                return
            }
        }
        message = "not found: \(query)"
    }

    /// The screen's lines: the title, the body's lines cut to the width, the status line.
    package var frame: [ScreenLine] {
        let columns = size.columns
        var frame = [ScreenLine(Self.fit(title, columns), .title)]
        for i in top..<min(lines.count, top + bodyLines) { frame.append(ScreenLine(Self.cut(lines[i], columns))) }
        while frame.count < 1 + bodyLines { frame.append(ScreenLine("")) }
        frame.append(ScreenLine(Self.fit(status, columns), .status))
        return Array(frame.prefix(max(0, size.lines)))
    }

    /// The status line: the search typed, a message, or where the view stands and the keys.
    package var status: String {
        if let typing { return "/" + typing }
        if let message { return message }
        let last = min(lines.count, top + bodyLines)
        let place = "lines \(lines.isEmpty ? 0 : top + 1)-\(last) of \(lines.count)  j/k f/b g/G / search  q quit"
        return note.map { place + "  · " + $0 } ?? place
    }

    /// `text` made visible and cut to the width less one column.
    static func fit(_ text: String, _ columns: Int) -> String {
        TextLayout.lines(TextSanitizer.visible(text), width: max(1, columns - 1), maxLines: 1, mode: .truncateTail)
            .first.map(String.init) ?? ""
    }

    /// A line with ANSI colours cut to the width less one column, its escapes kept (a drawing's
    /// lines hold nothing else a terminal acts on: the renderer shows control characters as symbols).
    static func cut(_ line: String, _ columns: Int) -> String {
        var out = "", width = 0, inEscape = false, cutShort = false
        for character in line {
            if inEscape {
                out.append(character)
                if let v = character.unicodeScalars.first?.value, (0x40...0x7E).contains(v), character != "[" {
                    inEscape = false
                }
                continue
            }
            if character == "\u{1B}" {
                inEscape = true
                out.append(character)
                continue
            }
            let w = TextWidth.columns(String(character))
            if width + w > columns - 1 {
                cutShort = true
                continue
            }
            width += w
            out.append(character)
        }
        return cutShort || out.contains("\u{1B}") ? out + "\u{1B}[0m" : out
    }
}
