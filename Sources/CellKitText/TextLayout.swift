// Breaking a label's text into lines that fit its frame, as UILabel does:
// word or character wrap, clip, truncation at head, middle or tail, and a
// number of lines (0 = as many as the frame holds).

import CellKitModel

/// Lines of text laid out for a frame, each at most `width` columns.
package enum TextLayout {
    /// The ellipsis that marks truncated text.
    static let ellipsis = "…"

    /// `text` (already sanitized, newlines kept) broken into at most `maxLines` lines of `width` columns.
    package static func lines(_ text: String, width: Int, maxLines: Int, mode: LineBreakMode) -> [String] {
        guard width > 0, maxLines > 0, !text.isEmpty else { return [] }
        // The common case: one short line of plain ASCII.
        if let w = TextWidth.simpleWidth(text), w <= width { return [text] }
        let glyphs = Glyphs(text)
        if maxLines == 1 {
            return [single(glyphs, width: width, mode: mode)]
        }
        let ranges = wrap(glyphs, width: width, byWord: mode != .charWrap)
        var lines = ranges.prefix(maxLines).map { glyphs.string($0) }
        if ranges.count > maxLines, [.truncateTail, .truncateHead, .truncateMiddle].contains(mode) {
            // More text follows the last line shown: end it with an ellipsis.
            let last = ranges[maxLines - 1].lowerBound
            lines[maxLines - 1] =
                glyphs.string(last, glyphs.fit(from: last, width: width - 1, limit: glyphs.nextNewline(from: last)))
                + ellipsis
        }
        return lines
    }

    /// One line: cut, or truncated with an ellipsis at the head, middle or tail.
    static func single(_ g: Glyphs, width: Int, mode: LineBreakMode) -> String {
        let firstLine = g.firstLineEnd
        if g.width(0, firstLine) <= width, firstLine == g.count { return g.string(0, firstLine) }
        switch mode {
        case .truncateHead:
            return ellipsis + g.string(g.fitBackward(to: g.count, width: width - 1), g.count)
        case .truncateMiddle:
            let head = width / 2, tail = width - 1 - head  // the ellipsis takes the middle column
            return g.string(0, g.fit(from: 0, width: head)) + ellipsis
                + g.string(g.fitBackward(to: g.count, width: tail), g.count)
        case .truncateTail:
            return g.string(0, g.fit(from: 0, width: width - 1, limit: firstLine)) + ellipsis
        case .clip, .wordWrap, .charWrap:
            return g.string(0, g.fit(from: 0, width: width, limit: firstLine))
        }
    }

    /// Greedy wrap into glyph ranges: at spaces when `byWord` (a word wider than
    /// the line is broken), else at any glyph; newlines always break.
    static func wrap(_ g: Glyphs, width: Int, byWord: Bool) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var start = 0
        while start < g.count {
            var end = g.fit(from: start, width: width, limit: g.nextNewline(from: start))
            var next = end
            if end < g.count, g.isNewline(end) {
                next = end + 1
            } else if byWord, end < g.count, !g.isSpace(end), let space = g.lastSpace(in: start..<end) {
                end = space  // break after the last whole word
                next = space + 1
            } else if end == start {
                end = start + 1; next = end  // a glyph wider than the line: show it anyway
            }
            lines.append(start..<trimEnd(g, start, end))
            start = next
            if byWord { while start < g.count, g.isSpace(start) { start += 1 } }  // no leading spaces on a wrapped line
        }
        return lines
    }

    private static func trimEnd(_ g: Glyphs, _ start: Int, _ end: Int) -> Int {
        var end = end
        while end > start, g.isSpace(end - 1) { end -= 1 }
        return end
    }
}

/// Text split into glyphs once, for wrapping and truncation.
struct Glyphs {
    private let scalars: String.UnicodeScalarView
    private var bounds: [String.UnicodeScalarView.Index] = []
    private var widths: [UInt8] = []
    private var kinds: [UInt8] = []  // 0 other, 1 space, 2 newline

    init(_ text: String) {
        scalars = text.unicodeScalars
        TextWidth.forEachGlyph(in: text) { [scalars] start, _, width in
            bounds.append(start)
            widths.append(UInt8(width))
            let s = scalars[start]
            kinds.append(s == " " ? 1 : s == "\n" ? 2 : 0)
        }
        bounds.append(scalars.endIndex)
    }

    var count: Int { widths.count }
    func isSpace(_ i: Int) -> Bool { kinds[i] == 1 }
    func isNewline(_ i: Int) -> Bool { kinds[i] == 2 }
    var firstLineEnd: Int { nextNewline(from: 0) }

    func nextNewline(from i: Int) -> Int {
        var i = i
        while i < count, kinds[i] != 2 { i += 1 }
        return i
    }

    func width(_ from: Int, _ to: Int) -> Int {
        var w = 0
        for i in from..<to { w += Int(widths[i]) }
        return w
    }

    /// The end of the longest run from `from` (and before `limit`) that fits in `width` columns.
    func fit(from: Int, width: Int, limit: Int? = nil) -> Int {
        var i = from, used = 0
        let limit = limit ?? count
        while i < limit, used + Int(widths[i]) <= width { used += Int(widths[i]); i += 1 }
        return i
    }

    /// The start of the longest run ending at `to` that fits in `width` columns.
    func fitBackward(to: Int, width: Int) -> Int {
        var i = to, used = 0
        while i > 0, kinds[i - 1] != 2, used + Int(widths[i - 1]) <= width { used += Int(widths[i - 1]); i -= 1 }
        return i
    }

    func lastSpace(in range: Range<Int>) -> Int? {
        range.reversed().first { kinds[$0] == 1 }
    }

    func string(_ from: Int, _ to: Int) -> String { String(scalars[bounds[from]..<bounds[to]]) }
    func string(_ range: Range<Int>) -> String { string(range.lowerBound, range.upperBound) }
}
