// A table's text as the terminal formats draw it, when it holds something the text policy
// acts on (`TextSanitizer.tableAction`): controls, markers, soft hyphens, zero-width spaces,
// word joiners, byte order marks. Clean text — nearly all — never comes here: it is laid
// out by `TextLayout` on its own bytes. This path rebuilds the text once, then breaks it
// cluster by cluster with the same greedy rules, plus the places soft hyphens and zero-width
// spaces allow, the ones word joiners forbid, and markers that are never cut.

import CellKitModel

/// A text made ready to draw: its bytes as shown (controls as pictures, neutralised
/// characters as markers, soft hyphens, zero-width spaces, word joiners and byte order marks
/// left out), where the left-out soft hyphens, zero-width spaces and word joiners were, and
/// where the markers are.
package struct DisplayText: Sendable {
    /// At a place between two clusters: a soft hyphen, a zero-width space, a word joiner.
    package static let softHyphen: UInt8 = 1, zeroWidthSpace: UInt8 = 2, wordJoiner: UInt8 = 4

    /// The text as drawn, before it is broken into lines.
    package private(set) var bytes: [UInt8] = []
    /// The soft hyphens, zero-width spaces and word joiners left out: their byte offset in `bytes`
    /// and which they were, in order.
    package private(set) var marks: [(offset: Int, mark: UInt8)] = []
    /// The byte ranges of the markers of neutralised characters, in order.
    package private(set) var markers: [Range<Int>] = []

    /// `raw` (well-formed UTF-8) made ready to draw; newlines kept when `keepNewlines`.
    package init(_ raw: UnsafeBufferPointer<UInt8>, keepNewlines: Bool) {
        bytes.reserveCapacity(raw.count + 8)
        var i = 0
        while i < raw.count {
            let (v, length) = TextWidth.decode(raw, i)
            switch TextSanitizer.tableAction(v, keepNewlines: keepNewlines) {
            case .keep: bytes.append(contentsOf: raw[i..<i + length])
            case .replace(let s): bytes.append(contentsOf: String(s).utf8)
            case .marker:
                let start = bytes.count
                bytes.append(contentsOf: TextSanitizer.marker(v).utf8)
                markers.append(start..<bytes.count)
            case .drop: break
            case .softHyphen: marks.append((bytes.count, Self.softHyphen))
            case .zeroWidthSpace: marks.append((bytes.count, Self.zeroWidthSpace))
            case .wordJoiner: marks.append((bytes.count, Self.wordJoiner))
            }
            i += length
        }
    }

    /// A line already drawn (`tableLines`), its markers found again by their form (`‹U+` hex digits `›`).
    init(drawn line: Substring) {
        bytes = Array(line.utf8)
        let prefix = Array("‹U+".utf8), close = Array("›".utf8)
        var i = 0
        while i + prefix.count + 4 + close.count <= bytes.count {
            guard bytes[i..<i + prefix.count].elementsEqual(prefix) else {
                i += 1
                continue
            }
            var j = i + prefix.count
            while j < bytes.count, j - i - prefix.count < 6,
                (0x30...0x39).contains(bytes[j]) || (0x41...0x46).contains(bytes[j])
            {
                j += 1
            }
            if j - i - prefix.count >= 4, j + close.count <= bytes.count,
                bytes[j..<j + close.count].elementsEqual(close)
            {
                markers.append(i..<j + close.count)
                i = j + close.count
            } else {
                i += 1
            }
        }
    }

    /// Whether only pictures and left-out characters changed the text: its lines are the byte layout's.
    package var isPlain: Bool { marks.isEmpty && markers.isEmpty }
}

/// `DisplayText` as units to break into lines: each a grapheme cluster of the display text, or a
/// whole marker (the clusters it spans), with its columns, what it is, and what may happen at the
/// place before it (the left-out soft hyphens, zero-width spaces and word joiners).
struct DisplayUnits {
    enum Kind: UInt8 { case other, space, newline, hyphen, marker }

    let text: DisplayText
    /// Unit k is `text.bytes[starts[k]..<starts[k + 1]]`.
    let starts: [Int]
    /// Unit k's columns (a marker wider than the line: 1, see `compact`).
    let widths: [Int]
    /// What unit k is.
    let kinds: [Kind]
    /// Per place before unit k (and after the last): `DisplayText` marks there.
    let places: [UInt8]
    /// Markers wider than the line, drawn as U+FFFD (one column) so that none is ever cut.
    let compact: Set<Int>

    var count: Int { widths.count }

    /// The units of `text` for lines of `width` columns.
    init(_ text: DisplayText, width: Int) {
        self.text = text
        var starts: [Int] = [], widths: [Int] = [], kinds: [Kind] = [], compact: Set<Int> = []
        text.bytes.withUnsafeBufferPointer { bytes in
            var i = 0, m = 0
            while i < bytes.count {
                var (end, w) = TextWidth.nextCluster(bytes, from: i)
                var kind: Kind = bytes[i] == 0x0A ? .newline : bytes[i] == 0x20 && end == i + 1 ? .space : .other
                if kind == .other, TextLayout.isHyphen(bytes, i, end) { kind = .hyphen }
                while m < text.markers.count, text.markers[m].upperBound <= i { m += 1 }
                // A marker, and any cluster that overlaps it: one unit, never cut.
                while m < text.markers.count, text.markers[m].lowerBound < end {
                    kind = .marker
                    while end < text.markers[m].upperBound {
                        let next = TextWidth.nextCluster(bytes, from: end)
                        (end, w) = (next.end, w + next.width)
                    }
                    m += 1
                }
                if kind == .marker, w > width {
                    compact.insert(widths.count)
                    w = 1
                }
                starts.append(i)
                widths.append(w)
                kinds.append(kind)
                i = end
            }
            starts.append(bytes.count)
        }
        var places = Array(repeating: UInt8(0), count: starts.count)
        var k = 0
        for (offset, mark) in text.marks {  // a mark inside a cluster (it joined its neighbours) allows nothing
            while k < starts.count - 1, starts[k] < offset { k += 1 }
            if starts[k] == offset { places[k] |= mark }
        }
        (self.starts, self.widths, self.kinds, self.places, self.compact) = (starts, widths, kinds, places, compact)
    }

    /// Whether the place before unit `k` has a word joiner.
    func joined(_ k: Int) -> Bool { places[k] & DisplayText.wordJoiner != 0 }

    /// The first unit from `k` that is not a space.
    func skipSpaces(_ k: Int) -> Int {
        var k = k
        while k < count, kinds[k] == .space { k += 1 }
        return k
    }

    /// Units `from..<to` as drawn, with `-` after them when `hyphen`.
    func string(_ from: Int, _ to: Int, hyphen: Bool = false) -> String {
        var out: [UInt8] = []
        for k in from..<max(from, to) {
            if compact.contains(k) {
                out += Array("\u{FFFD}".utf8)
            } else {
                out += text.bytes[starts[k]..<starts[k + 1]]
            }
        }
        if hyphen { out.append(0x2D) }
        return String(decoding: out, as: UTF8.self)
    }

    /// One line of a greedy wrap from unit `start`, as `TextLayout.line` breaks bytes, with two more
    /// places a word may end — at a soft hyphen (then drawn `-`, which must fit) and after a
    /// zero-width space — and none on either side of a word joiner.
    func line(from start: Int, width: Int, byWord: Bool) -> (end: Int, next: Int, columns: Int, hyphen: Bool) {
        var i = start, used = 0, content = start, contentColumns = 0, afterSpace = true
        var brk: (end: Int, next: Int, columns: Int, hyphen: Bool)?
        while i < count {
            if byWord, i > start, !joined(i) {
                if places[i] & DisplayText.softHyphen != 0, !afterSpace, contentColumns + 1 <= width {
                    brk = (i, i, contentColumns + 1, true)
                } else if places[i] & DisplayText.zeroWidthSpace != 0 {
                    brk = (content, skipSpaces(i), contentColumns, false)
                }
            }
            let w = widths[i], kind = kinds[i]
            if kind == .newline { return (content, i + 1, contentColumns, false) }
            if used + w > width {
                if byWord {
                    if kind == .space { return (content, skipSpaces(i + 1), contentColumns, false) }
                    if let b = brk, b.next == i { return b }  // the place right before this unit
                    if w == 2, !afterSpace, !joined(i) { return (content, i, contentColumns, false) }
                    if let b = brk { return b }
                }
                if i == start { return (i + 1, byWord ? skipSpaces(i + 1) : i + 1, w, false) }
                return (content, byWord ? skipSpaces(i) : i, contentColumns, false)
            }
            used += w
            if kind == .space {
                if byWord {
                    let next = skipSpaces(i + 1)
                    if !joined(next) { brk = (content, next, contentColumns, false) }
                }
                (i, afterSpace) = (i + 1, true)
                continue
            }
            if byWord, !joined(i + 1), w == 2 || (!afterSpace && kind == .hyphen) {
                brk = (i + 1, i + 1, used, false)  // after a wide cluster, after a hyphen inside a word
            }
            (i, content, contentColumns, afterSpace) = (i + 1, i + 1, used, false)
        }
        return (content, count, contentColumns, false)
    }

    /// Where the line from unit `from` ends (its newline, or the end) and its columns.
    func lineEnd(from: Int) -> (end: Int, width: Int) {
        var k = from, total = 0
        while k < count, kinds[k] != .newline {
            total += widths[k]
            k += 1
        }
        return (k, total)
    }

    /// The end of the longest run of units from `from`, before `limit`, that fits in `width`.
    func fit(from: Int, to limit: Int, width: Int) -> Int {
        var k = from, used = 0
        while k < limit, used + widths[k] <= width {
            used += widths[k]
            k += 1
        }
        return k
    }

    /// The start of the longest run of units of the last line that ends the text and fits in `width`.
    func fitBackward(width: Int) -> Int {
        var start = count
        while start > 0, kinds[start - 1] != .newline { start -= 1 }
        var total = lineEnd(from: start).width, k = start
        while total > width, k < count {
            total -= widths[k]
            k += 1
        }
        return k
    }

    /// The lines, as `TextLayout.laidOut` lays bytes out (`lineRanges`, `wrapped`, `single`).
    func lines(width: Int, maxLines: Int, mode: LineBreakMode) -> [String] {
        let ellipsis = TextLayout.ellipsis
        let truncating = mode == .truncateTail || mode == .truncateHead || mode == .truncateMiddle
        guard maxLines == 1 else {
            var lines: [String] = [], start = 0
            while start < count, lines.count < maxLines {
                let l = line(from: start, width: width, byWord: mode != .charWrap)
                if truncating, lines.count == maxLines - 1, l.next < count {
                    let cut = fit(from: start, to: lineEnd(from: start).end, width: width - 1)
                    return lines + [string(start, cut) + ellipsis]
                }
                lines.append(string(start, l.end, hyphen: l.hyphen))
                start = l.next
            }
            return lines
        }
        let first = lineEnd(from: 0)
        if first.end == count, first.width <= width { return [string(0, count)] }
        switch mode {
        case .wordWrap:
            let l = line(from: 0, width: width, byWord: true)
            return [string(0, l.end, hyphen: l.hyphen)]
        case .charWrap, .clip:
            return [string(0, fit(from: 0, to: first.end, width: width))]
        case .truncateTail:
            return [string(0, fit(from: 0, to: first.end, width: width - 1)) + ellipsis]
        case .truncateHead:
            return [ellipsis + string(fitBackward(width: width - 1), count)]
        case .truncateMiddle:
            let head = width / 2, tail = width - 1 - head
            return [
                string(0, fit(from: 0, to: first.end, width: head)) + ellipsis
                    + string(fitBackward(width: tail), count)
            ]
        }
    }
}

extension TextLayout {
    /// A table's `text` (a label's, a title's, a header's) broken into lines as the terminal formats draw
    /// it, by the text policy (`TextSanitizer.tableAction`): clean text as `laidOut` lays it out, in
    /// place; other text made ready to draw first (`DisplayText`), then broken at the places its soft
    /// hyphens and zero-width spaces allow (a line ending at a soft hyphen ends in `-`), never next to
    /// a word joiner, and never inside a marker. Newlines are kept when `keepNewlines`, else drawn `␊`.
    package static func tableLines(
        _ text: TextBytes, width: Int, maxLines: Int, mode: LineBreakMode, keepNewlines: Bool = true,
        reusing spare: consuming [TextLine] = []
    ) -> LaidOutText {
        if text.isClean { return laidOut(text, width: width, maxLines: maxLines, mode: mode, reusing: spare) }
        guard width > 0, maxLines > 0 else { return LaidOutText() }
        let display = text.withBytes { DisplayText($0, keepNewlines: keepNewlines) }
        if display.isPlain {
            let bytes = display.bytes.withUnsafeBufferPointer { TextBytes($0) }
            return laidOut(bytes, width: width, maxLines: maxLines, mode: mode, reusing: spare)
        }
        let units = DisplayUnits(display, width: width)
        guard units.count > 0 else { return LaidOutText() }
        return LaidOutText(lines: units.lines(width: width, maxLines: maxLines, mode: mode).map { $0[...] })
    }

    /// `text`'s lines by the unit layout, whatever the text: tests hold it to the byte layout on clean text.
    static func unitLines(_ text: String, width: Int, maxLines: Int, mode: LineBreakMode) -> [String] {
        let display = TextBytes(text).withBytes { DisplayText($0, keepNewlines: true) }
        let units = DisplayUnits(display, width: width)
        return units.count == 0 ? [] : units.lines(width: width, maxLines: maxLines, mode: mode)
    }

    /// `laidOut`'s lines cut to `width` columns where a frame narrower than the one they were laid out at
    /// clips them (a subview reaching past the row), in whole clusters and never inside a marker: for
    /// text that was not clean (clean text has no marker, and the canvas cuts it as it paints).
    package static func clipped(_ laidOut: LaidOutText, width: Int) -> LaidOutText {
        guard (0..<laidOut.count).contains(where: { laidOut.columns($0) > width }) else { return laidOut }
        return LaidOutText(
            lines: laidOut.strings.map { line in
                guard TextWidth.columns(line) > width else { return line }
                let units = DisplayUnits(DisplayText(drawn: line), width: width)
                return units.string(0, units.fit(from: 0, to: units.count, width: width))[...]
            })
    }

    /// `tableLines` of a String (a title, a header, a footer).
    package static func tableLines(
        _ text: String, width: Int, maxLines: Int, mode: LineBreakMode, keepNewlines: Bool = true
    ) -> [Substring] {
        tableLines(TextBytes(text), width: width, maxLines: maxLines, mode: mode, keepNewlines: keepNewlines).strings
    }

    /// The columns a table's `text` takes on one line as the terminal formats draw it (markers whole,
    /// soft hyphens, zero-width spaces, word joiners and byte order marks none).
    package static func tableColumns(_ text: TextBytes) -> Int {
        if text.isClean { return text.withBytes { TextWidth.columns($0) } }
        let display = text.withBytes { DisplayText($0, keepNewlines: false) }
        return display.bytes.withUnsafeBufferPointer { TextWidth.columns($0) }
    }
}
