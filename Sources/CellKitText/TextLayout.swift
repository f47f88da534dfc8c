// Breaking a label's text into lines that fit its frame, as UILabel does:
// word or character wrap, clip, truncation at head, middle or tail, and a
// number of lines (0 = as many as the frame holds). Every cut falls between
// grapheme clusters; the work is done on the UTF-8 bytes in one or two passes,
// with no buffer but the lines returned; each line is a slice of the text (no copy,
// and no second UTF-8 check as a new String would make).

import CellKitModel

/// One line of laid-out text: a slice of the text and the columns it takes.
package struct TextLine: Sendable, Equatable {
    /// The line's text, a slice of the label's (or a new string where an ellipsis was added).
    package var text: Substring
    /// The columns `text` takes (see `TextWidth`).
    package var columns: Int

    /// A line whose columns are already known.
    package init(_ text: Substring, columns: Int) { (self.text, self.columns) = (text, columns) }

    /// A line measured now.
    package init(_ text: Substring) { self.init(text, columns: TextWidth.columns(text)) }
}

/// Lines of text laid out for a frame, each at most `width` columns.
package enum TextLayout {
    /// The ellipsis that marks truncated text.
    static let ellipsis = "…"

    /// `text` (already sanitized, newlines kept) broken into at most `maxLines` lines of `width` columns.
    ///
    /// Word wrap breaks after spaces, after a hyphen inside a word and on either side of a wide
    /// (CJK or emoji) cluster; a word wider than the line is cut between clusters. With one line,
    /// word wrap shows whole words only, as UIKit does.
    package static func lines(_ text: String, width: Int, maxLines: Int, mode: LineBreakMode) -> [Substring] {
        laidOut(text, width: width, maxLines: maxLines, mode: mode).map(\.text)
    }

    /// `lines(_:width:maxLines:mode:)` with the columns each line takes, found while breaking them
    /// (measuring them again to draw them was a tenth of the wrapped table's time).
    package static func laidOut(_ text: String, width: Int, maxLines: Int, mode: LineBreakMode) -> [TextLine] {
        guard width > 0, maxLines > 0, !text.isEmpty else { return [] }
        return text.withBorrowedUTF8 { bytes in
            // The common case: one short line of plain ASCII.
            let ascii = UTF8Bytes.printableASCIIPrefix(bytes)
            if ascii == bytes.count, ascii <= width { return [TextLine(text[...], columns: ascii)] }
            guard maxLines == 1 else { return wrapped(text, bytes, width: width, maxLines: maxLines, mode: mode) }
            let first = lineEnd(bytes, from: 0)
            if first.end == bytes.count, first.width <= width { return [TextLine(text[...], columns: first.width)] }
            return [TextLine(single(text, bytes, width: width, mode: mode, firstLineEnd: first.end))]
        }
    }

    /// Wrapped lines of `text` (whose UTF-8 is `bytes`); with a truncating mode, the last one ends in
    /// an ellipsis when more text follows.
    static func wrapped(
        _ text: String, _ bytes: UnsafeBufferPointer<UInt8>, width: Int, maxLines: Int, mode: LineBreakMode
    ) -> [TextLine] {
        var lines: [TextLine] = []
        lines.reserveCapacity(min(maxLines, 8))
        let byWord = mode != .charWrap
        let truncating = mode == .truncateTail || mode == .truncateHead || mode == .truncateMiddle
        var start = 0
        while start < bytes.count, lines.count < maxLines {
            let (end, next, used) = line(bytes, from: start, width: width, byWord: byWord)
            if truncating, lines.count == maxLines - 1, next < bytes.count {
                // More text follows the last line shown: end it with an ellipsis.
                let cut = fit(bytes, from: start, to: lineEnd(bytes, from: start).end, width: width - 1)
                lines.append(TextLine(Substring(string(text, start, cut) + ellipsis)))
                break
            }
            lines.append(TextLine(string(text, start, end), columns: used))
            start = next
        }
        return lines
    }

    /// One line: whole words (word wrap), cut (clip, char wrap), or truncated with an
    /// ellipsis at the head, middle or tail.
    static func single(
        _ text: String, _ bytes: UnsafeBufferPointer<UInt8>, width: Int, mode: LineBreakMode, firstLineEnd: Int
    ) -> Substring {
        switch mode {
        case .wordWrap:
            return string(text, 0, line(bytes, from: 0, width: width, byWord: true).end)
        case .charWrap, .clip:
            return string(text, 0, fit(bytes, from: 0, to: firstLineEnd, width: width))
        case .truncateTail:
            return Substring(string(text, 0, fit(bytes, from: 0, to: firstLineEnd, width: width - 1)) + ellipsis)
        case .truncateHead:
            return Substring(ellipsis + string(text, fitBackward(bytes, width: width - 1), bytes.count))
        case .truncateMiddle:
            let head = width / 2, tail = width - 1 - head  // the ellipsis takes the middle column
            return Substring(
                string(text, 0, fit(bytes, from: 0, to: firstLineEnd, width: head)) + ellipsis
                    + string(text, fitBackward(bytes, width: tail), bytes.count))
        }
    }

    /// One line of a greedy wrap from byte `start`: where its text ends (trailing spaces left
    /// out), where the next line starts (after a newline; after spaces when `byWord`), and the
    /// columns its text takes.
    static func line(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, width: Int, byWord: Bool) -> (
        end: Int, next: Int, columns: Int
    ) {
        if let quick = asciiLine(bytes, from: start, width: width, byWord: byWord) {
            return (quick.end, quick.next, quick.end - start)
        }
        let n = bytes.count
        var i = start, used = 0
        var content = start, contentColumns = 0  // the end of the last cluster that is not a space
        var breakEnd = -1, breakNext = -1, breakColumns = 0  // the last place a word may end on this line
        var afterSpace = true
        while i < n {
            if bytes[i] == 0x0A { return (content, i + 1, contentColumns) }
            let (e, w) = TextWidth.nextCluster(bytes, from: i)
            let space = bytes[i] == 0x20 && e == i + 1
            if used + w > width {
                if byWord {
                    if space { return (content, skipSpaces(bytes, e), contentColumns) }
                    if breakEnd >= 0 { return (breakEnd, skipSpaces(bytes, breakNext), breakColumns) }
                }
                if i == start { return (e, byWord ? skipSpaces(bytes, e) : e, w) }  // wider than the line: shown anyway
                return (content, byWord ? skipSpaces(bytes, i) : i, contentColumns)
            }
            if byWord {
                if space {
                    (breakEnd, breakNext, breakColumns) = (content, e, contentColumns)
                } else if w == 2, !afterSpace {
                    (breakEnd, breakNext, breakColumns) = (content, i, contentColumns)  // before a wide cluster
                }
            }
            let hyphen = !space && !afterSpace && isHyphen(bytes, i, e)
            used += w
            i = e
            if !space { (content, contentColumns) = (e, used) }
            // A word may end after a wide cluster, or after a hyphen inside a word.
            if byWord, w == 2 || hyphen { (breakEnd, breakNext, breakColumns) = (e, e, used) }
            afterSpace = space
        }
        return (content, n, contentColumns)
    }

    /// `line` where every byte that decides the line is printable ASCII — the next `width + 2`, or
    /// all that is left — so each is a cluster one column wide: the break is found by looking back
    /// from the column past the width for a space or a hyphen inside a word, not cluster by cluster.
    /// Nil when other text is within reach.
    @inline(__always)
    static func asciiLine(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, width: Int, byWord: Bool) -> (
        end: Int, next: Int
    )? {
        let n = bytes.count
        let reach = min(n - start, width + 2)
        guard UTF8Bytes.printableASCIIPrefix(UnsafeBufferPointer(rebasing: bytes[start..<start + reach])) == reach
        else { return nil }
        if reach <= width { return (trimmed(bytes, start, n), n) }  // the rest fits
        let over = start + width  // the first column that does not fit
        guard byWord else { return (trimmed(bytes, start, over), over) }
        if bytes[over] == 0x20 { return (trimmed(bytes, start, over), skipSpaces(bytes, over + 1)) }
        var k = over - 1
        while k >= start {
            if bytes[k] == 0x20 { return (trimmed(bytes, start, k), skipSpaces(bytes, k + 1)) }
            if bytes[k] == 0x2D, k > start, bytes[k - 1] != 0x20 { return (k + 1, k + 1) }  // after a hyphen
            k -= 1
        }
        return (over, over)  // one word wider than the line: cut
    }

    /// The end of `bytes[start..<end]` without its trailing spaces.
    @inline(__always)
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var end = end
        while end > start, bytes[end - 1] == 0x20 { end -= 1 }
        return end
    }

    /// Whether the cluster `bytes[from..<to]` is a hyphen (U+002D or U+2010).
    @inline(__always)
    static func isHyphen(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Bool {
        to - from == 1
            ? bytes[from] == 0x2D
            : to - from == 3 && bytes[from] == 0xE2 && bytes[from + 1] == 0x80
                && bytes[from + 2] == 0x90
    }

    static func skipSpaces(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        var i = i
        while i < bytes.count, bytes[i] == 0x20, i + 1 == bytes.count || bytes[i + 1] < 0x80 { i += 1 }
        return i
    }

    /// Where the line from `from` ends (its newline, or the end) and its width.
    static func lineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> (end: Int, width: Int) {
        let ascii = UTF8Bytes.printableASCIIPrefix(UnsafeBufferPointer(rebasing: bytes[from...]))
        if from + ascii == bytes.count { return (bytes.count, ascii) }
        // The last ASCII byte may be the base of a cluster that goes on: measure it with the rest.
        var i = from + max(0, ascii - 1), total = max(0, ascii - 1)
        while i < bytes.count, bytes[i] != 0x0A {
            let (e, w) = TextWidth.nextCluster(bytes, from: i)
            total += w
            i = e
        }
        return (i, total)
    }

    /// The end of the longest run of whole clusters from `from`, before `limit`, that fits in `width` columns.
    static func fit(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to limit: Int, width: Int) -> Int {
        var i = from, used = 0
        while i < limit {
            let (e, w) = TextWidth.nextCluster(bytes, from: i)
            guard used + w <= width else { break }
            used += w
            i = e
        }
        return i
    }

    /// The start of the longest run of whole clusters of the last line that ends the text and fits in `width`.
    static func fitBackward(_ bytes: UnsafeBufferPointer<UInt8>, width: Int) -> Int {
        var start = bytes.count
        while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
        var total = lineEnd(bytes, from: start).width
        var i = start
        while total > width, i < bytes.count {
            let (e, w) = TextWidth.nextCluster(bytes, from: i)
            total -= w
            i = e
        }
        return i
    }

    /// The slice of `text` between UTF-8 offsets `from` and `to` (both cluster boundaries): O(1) for
    /// native strings, sharing their storage.
    @inline(__always)
    static func string(_ text: String, _ from: Int, _ to: Int) -> Substring {
        let utf8 = text.utf8
        return Substring(utf8[utf8.index(utf8.startIndex, offsetBy: from)..<utf8.index(utf8.startIndex, offsetBy: to)])
    }
}
