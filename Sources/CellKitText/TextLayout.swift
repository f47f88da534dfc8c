// Breaking a label's text into lines that fit its frame, as UILabel does:
// word or character wrap, clip, truncation at head, middle or tail, and a
// number of lines (0 = as many as the frame holds). Every cut falls between
// grapheme clusters; the work is done on the UTF-8 bytes in one or two passes.
// A line is a range of the text's bytes, not a String or a Substring of its own:
// no copy, no second UTF-8 check, and nothing reference counted per line.

import CScan
import CellKitModel
import Glibc

/// One laid-out line: a range of its `LaidOutText`'s UTF-8 bytes and the columns it takes.
/// Public, with members for CellKit's own modules, only so that the renderer's per-line
/// reads are inlined into it (as for `TextWidth`).
public struct TextLine: Sendable, Equatable {
    /// Where the line's bytes start in the laid-out text.
    @usableFromInline package var start: Int
    /// Where they end.
    @usableFromInline package var end: Int
    /// The columns they take (see `TextWidth`), found while breaking the line.
    @usableFromInline package var columns: Int

    /// A line of `text`'s bytes `start..<end`, `columns` wide. Inlinable: a layout that copies a
    /// label's planned lines calls it once a line.
    @inlinable
    package init(_ start: Int, _ end: Int, columns: Int) {
        (self.start, self.end, self.columns) = (start, end, columns)
    }
}

/// Text broken into lines: the text once, and each line a range of its bytes.
///
/// Equal when the lines show the same text with the same widths, whatever text they index.
/// Public, with members for CellKit's own modules, only so that the renderer's per-line
/// reads are inlined into it: a generic member of a non-public type is not specialized across
/// modules, and looked up the runtime's generic metadata on every line.
public struct LaidOutText: Sendable, Equatable {
    /// The text the lines index: the label's own text, or a copy with any line made for the
    /// layout (one with an ellipsis) after it.
    @usableFromInline package private(set) var text: TextBytes
    /// The lines, top to bottom.
    @usableFromInline package private(set) var lines: [TextLine]
    /// `text`'s bytes, which it holds: read through this, a line costs no retain and release of
    /// `text` (two atomic operations per line written).
    @usableFromInline nonisolated(unsafe) private(set) var base: UnsafePointer<UInt8>  // read-only; `text` outlives it

    /// The identity of the text the lines index (no retain).
    @inlinable package var textIdentity: ObjectIdentifier { ObjectIdentifier(text) }

    /// No lines.
    package init() { self.init(Self.empty, lines: []) }
    private static let empty = TextBytes("")

    /// Lines `lines` of `text`.
    package init(_ text: TextBytes, lines: [TextLine]) {
        (self.text, self.lines, base) = (text, lines, text.withBytes { $0.baseAddress! })
    }

    /// Lines of the given texts, each measured now (glyphs, headers, tests).
    package init(lines: [Substring]) {
        var text = "", laid: [TextLine] = []
        for line in lines {
            let start = text.utf8.count
            text += line
            laid.append(TextLine(start, text.utf8.count, columns: TextWidth.columns(line)))
        }
        self.init(TextBytes(text), lines: laid)
    }

    /// How many lines there are.
    @inlinable package var count: Int { lines.count }
    /// True when there is no line.
    @inlinable package var isEmpty: Bool { lines.isEmpty }

    /// Line `i`'s text, as a slice of `text`.
    package subscript(_ i: Int) -> Substring {
        text.withBytes {
            Substring(String(decoding: UnsafeBufferPointer(rebasing: $0[lines[i].start..<lines[i].end]), as: UTF8.self))
        }
    }

    /// The columns line `i` takes.
    @inlinable @inline(__always)
    package func columns(_ i: Int) -> Int { lines[i].columns }

    /// Whether line `i` has no text (an empty line of a text with newlines).
    @inlinable @inline(__always)
    package func isEmpty(_ i: Int) -> Bool { lines[i].start == lines[i].end }

    /// Line `i`'s bytes and the columns it takes, from one read of the line (`unsafeBytes(ofLine:)`,
    /// `columns(_:)`): a writer's per-piece reads (BENCHMARKS.md, "Measurements behind the code":
    /// LaidOutText.pieceOnce).
    @inlinable @inline(__always)
    package func unsafePiece(ofLine i: Int) -> (bytes: UnsafeBufferPointer<UInt8>, columns: Int) {
        let line = lines[i]
        return (UnsafeBufferPointer(start: base + line.start, count: line.end &- line.start), line.columns)
    }

    /// Line `i`'s bytes, valid for as long as this value (or a copy) lives: for a writer that reads
    /// the value in place, where a method taking a closure would copy it (a retain and a release of
    /// the text and of its lines per line written, a noticeable part of writing it: BENCHMARKS.md,
    /// "Measurements behind the code": LaidOutText.line).
    @inlinable @inline(__always)
    package func unsafeBytes(ofLine i: Int) -> UnsafeBufferPointer<UInt8> { unsafePiece(ofLine: i).bytes }

    /// Lines of `text` laid out again in this value's place, into its list's memory: `fill` is handed
    /// the list with the old lines still in it and replaces them all (it empties the list before it
    /// appends, or swaps in another list and keeps this one, whose lines it must not read). No list is
    /// made or dropped: a layout that keeps its views from row to row rewrites their lines this way (a
    /// view dropped per row released its list and its text: BENCHMARKS.md, "Measurements behind the
    /// code": RowLayout.views). Emptied here too, a list was emptied twice, a uniqueness check a line
    /// each time (BENCHMARKS.md, "Measurements behind the code": CellLayout.plannedCopy).
    @inline(__always)
    package mutating func relaid(_ text: TextBytes, _ fill: (inout [TextLine]) -> Void) {
        if self.text !== text { (self.text, base) = (text, text.withBytes { $0.baseAddress! }) }
        fill(&lines)
    }

    /// The lines now index `text`, a text the layout made for them (one with an ellipsis).
    package mutating func retext(_ text: TextBytes) {
        (self.text, base) = (text, text.withBytes { $0.baseAddress! })
    }

    /// Swaps the lines with `list` (the text is kept).
    package mutating func swapLines(with list: inout [TextLine]) { swap(&lines, &list) }

    /// The first `n` lines only. Inlined: called once a label a row, nearly always with nothing
    /// to drop (BENCHMARKS.md, "Measurements behind the code": LaidOutText.keepFirst).
    @inlinable @inline(__always)
    package mutating func keepFirst(_ n: Int) {
        if lines.count > n { lines.removeSubrange(n...) }
    }

    /// The lines' texts.
    package var strings: [Substring] { lines.indices.map { self[$0] } }

    /// Whether `a` and `b` show the same lines with the same widths.
    public static func == (a: LaidOutText, b: LaidOutText) -> Bool {
        a.count == b.count && a.lines.indices.allSatisfy { a[$0] == b[$0] && a.columns($0) == b.columns($0) }
    }
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
        laidOut(text, width: width, maxLines: maxLines, mode: mode).strings
    }

    /// `lines(_:width:maxLines:mode:)` as ranges of `text` with the columns each line takes, found
    /// while breaking them (measuring them again to draw them was a noticeable part of the wrapped
    /// table's time: BENCHMARKS.md, "Measurements behind the code": TextLayout.laidOut).
    package static func laidOut(_ text: String, width: Int, maxLines: Int, mode: LineBreakMode) -> LaidOutText {
        laidOut(TextBytes(text), width: width, maxLines: maxLines, mode: mode)
    }

    /// `laidOut(_:width:maxLines:mode:)` of a label's text as it holds it: the lines share its bytes.
    /// The lines go into `spare`'s memory when it has room (an empty list a layout kept from a row
    /// before), so that a label's row allocates no list.
    package static func laidOut(
        _ text: TextBytes, width: Int, maxLines: Int, mode: LineBreakMode, reusing spare: consuming [TextLine] = []
    ) -> LaidOutText {
        guard width > 0, maxLines > 0, text.byteCount > 0 else { return LaidOutText() }
        var lines = consume spare
        if !lines.isEmpty { lines.removeAll(keepingCapacity: true) }  // a caller's, not emptied
        return text.withBytes { bytes in
            if maxLines > 1 { lines.reserveCapacity(min(maxLines, 8)) }
            let whole = lineRanges(bytes, width: width, maxLines: maxLines, mode: mode, isClean: text.isClean) {
                start, end, columns in
                lines.append(TextLine(start, end, columns: columns))
            }
            if whole { return LaidOutText(text, lines: lines) }
            // A truncating mode and more text than fits: the lines again, the last with an ellipsis.
            guard maxLines == 1 else {
                // Swapped out of the captured list: passing it would copy it (shared, then appended to).
                var own: [TextLine] = []
                swap(&own, &lines)
                own.removeAll(keepingCapacity: true)
                return wrapped(text, bytes, width: width, maxLines: maxLines, mode: mode, into: &own)
            }
            return single(text, bytes, width: width, mode: mode, firstLineEnd: newlineOrEnd(bytes, from: 0))
        }
    }

    /// `laidOut`'s lines of (sanitized) UTF-8 `bytes`, each given to `line` as its start, end and
    /// columns, when none needs an ellipsis; false, after giving some lines or none, when one does
    /// (a truncating mode, and more text than fits): no text is made, nothing is reference counted.
    /// What `laidOut` lays out with, and a data file's reader ahead of it (`LinePlan`). `isASCII`:
    /// the caller knows every byte is printable ASCII (`JSONValueParser.asciiFlag`), and they are
    /// not scanned for that; a wrong `true` breaks other text as if each byte were a column.
    /// `isClean`: the caller knows the text is clean (`TextBytes.isClean`, `JSONValueParser.cleanFlag`),
    /// so it has no newline: its first line's paragraph is not looked for (BENCHMARKS.md,
    /// "Measurements behind the code": TextLayout.cleanParagraph).
    @inline(__always)
    package static func lineRanges(
        _ bytes: UnsafeBufferPointer<UInt8>, width: Int, maxLines: Int, mode: LineBreakMode, isASCII: Bool = false,
        isClean: Bool = false, _ line: (_ start: Int, _ end: Int, _ columns: Int) -> Void
    ) -> Bool {
        guard width > 0, maxLines > 0, bytes.count > 0 else { return true }
        // The common case: one short line of plain ASCII.
        let ascii = isASCII ? bytes.count : UTF8Bytes.printableASCIIPrefix(bytes)
        if ascii == bytes.count {
            if ascii <= width {
                line(0, ascii, ascii)
                return true
            }
            let room = min(maxLines, bytes.count)
            return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 3 * room) { out in
                let (whole, count) = asciiLineRanges(
                    bytes, width: width, maxLines: maxLines, mode: mode, into: out.baseAddress!)
                for k in 0..<count { line(Int(out[3 * k]), Int(out[3 * k + 1]), Int(out[3 * k + 2])) }
                return whole
            }
        }
        guard maxLines == 1 else {
            let byWord = mode != .charWrap
            let truncating = mode == .truncateTail || mode == .truncateHead || mode == .truncateMiddle
            var start = 0, count = 0
            while start < bytes.count, count < maxLines {
                let (end, next, used) = Self.line(bytes, from: start, width: width, byWord: byWord)
                if truncating, count == maxLines - 1, next < bytes.count { return false }
                line(start, end, used)
                (start, count) = (next, count + 1)
            }
            return true
        }
        // Measured only as far as the line fits: a long text cut to a short column (a truncated
        // CJK column) was measured whole first, to learn it did not fit. (Printable ASCII went to C above.)
        let head = fit(bytes, from: 0, to: isClean ? bytes.count : newlineOrEnd(bytes, from: 0), width: width)
        if head.end == bytes.count {
            line(0, head.end, head.columns)
            return true
        }
        switch mode {
        case .wordWrap:
            let words = Self.line(bytes, from: 0, width: width, byWord: true)
            line(0, words.end, words.columns)
        case .charWrap, .clip:
            line(0, head.end, head.columns)
        case .truncateTail, .truncateHead, .truncateMiddle:
            return false
        }
        return true
    }

    /// `lineRanges` for `bytes` known to be printable ASCII (a column a byte), in C (CScan's
    /// `ck_ascii_lines`, the same rules as `asciiLine`): the lines written to `out` as three UInt32s
    /// each (start, end, columns), which must have room for `min(maxLines, bytes.count)` lines; whether
    /// they show the whole text, and how many. A read-ahead stores them as they come (BENCHMARKS.md,
    /// "Measurements behind the code": TextLayout.asciiLinesInC).
    @inline(__always)
    package static func asciiLineRanges(
        _ bytes: UnsafeBufferPointer<UInt8>, width: Int, maxLines: Int, mode: LineBreakMode,
        into out: UnsafeMutablePointer<UInt32>
    ) -> (whole: Bool, count: Int) {
        guard width > 0, maxLines > 0, let base = bytes.baseAddress, bytes.count > 0 else { return (true, 0) }
        var count = 0
        let whole = ck_ascii_lines(base, bytes.count, width, maxLines, mode.rawValue, out, &count)
        return (whole != 0, count)
    }

    /// Wrapped lines of `text` (whose UTF-8 is `bytes`); with a truncating mode, the last one ends in
    /// an ellipsis when more text follows (that line is added after the text).
    static func wrapped(
        _ text: TextBytes, _ bytes: UnsafeBufferPointer<UInt8>, width: Int, maxLines: Int, mode: LineBreakMode,
        into lines: inout [TextLine]
    ) -> LaidOutText {
        lines.reserveCapacity(min(maxLines, 8))
        let byWord = mode != .charWrap
        let truncating = mode == .truncateTail || mode == .truncateHead || mode == .truncateMiddle
        var start = 0
        while start < bytes.count, lines.count < maxLines {
            let (end, next, used) = line(bytes, from: start, width: width, byWord: byWord)
            if truncating, lines.count == maxLines - 1, next < bytes.count {
                // More text follows the last line shown: end it with an ellipsis.
                let cut = fit(bytes, from: start, to: newlineOrEnd(bytes, from: start), width: width - 1).end
                return appending(string(bytes, start, cut) + ellipsis, to: bytes, lines)
            }
            lines.append(TextLine(start, end, columns: used))
            start = next
        }
        return LaidOutText(text, lines: lines)
    }

    /// `lines` of text `bytes`, and after them `line`, made for the layout: on a copy of the text
    /// with the line added after it.
    static func appending(_ line: String, to bytes: UnsafeBufferPointer<UInt8>, _ lines: [TextLine]) -> LaidOutText {
        let all = string(bytes, 0, bytes.count) + line
        return LaidOutText(
            TextBytes(all), lines: lines + [TextLine(bytes.count, all.utf8.count, columns: TextWidth.columns(line))])
    }

    /// The UTF-8 of `ellipsis`.
    static let ellipsisBytes: [UInt8] = Array(ellipsis.utf8)

    /// One line of a text of its own: the first `head` bytes of `text` (whose bytes are `bytes`;
    /// `columns` wide, cut between clusters) and an ellipsis. Made in one copy: the line as a
    /// String, then joined to the ellipsis, then measured again cost allocations and a pass a row
    /// of a table whose column is cut (the same-work table's CJK column).
    static func ellipsized(_ text: TextBytes, _ bytes: UnsafeBufferPointer<UInt8>, head: Int, columns: Int)
        -> LaidOutText
    {
        let line = ellipsizedText(text, bytes, head: head)
        return LaidOutText(line, lines: [TextLine(0, line.byteCount, columns: columns &+ 1)])
    }

    /// `ellipsized`'s text: the first `head` bytes of `text` (whose bytes are `bytes`) and an
    /// ellipsis, in one copy. For a layout that has the line's cut already (`LinePlan`).
    package static func ellipsizedText(_ text: TextBytes, _ bytes: UnsafeBufferPointer<UInt8>, head: Int) -> TextBytes {
        let line = TextBytes(capacity: head &+ ellipsisBytes.count)
        ellipsisBytes.withUnsafeBufferPointer { dots in
            // A prefix of text that is clean is clean; of one that is not, it may be either:
            // called not clean, it is sanitized where it is drawn, as the whole text would be.
            line.assign(checked: UnsafeBufferPointer(rebasing: bytes[..<head]), appending: dots, isClean: text.isClean)
        }
        return line
    }

    /// Where the one line `laidOut` keeps of `bytes` truncated at its tail (`.truncateTail`, one
    /// line, more text than fits `width` columns) ends before its ellipsis, and the columns that
    /// part takes: what a data file's reader works out ahead for such a line (`LinePlan`).
    package static func tailCut(_ bytes: UnsafeBufferPointer<UInt8>, width: Int) -> (end: Int, columns: Int) {
        let cut = fit(bytes, from: 0, to: newlineOrEnd(bytes, from: 0), width: width - 1)
        return (cut.end, cut.columns)
    }

    /// One line: whole words (word wrap), cut (clip, char wrap), or truncated with an
    /// ellipsis at the head, middle or tail.
    static func single(
        _ text: TextBytes, _ bytes: UnsafeBufferPointer<UInt8>, width: Int, mode: LineBreakMode, firstLineEnd: Int
    ) -> LaidOutText {
        let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        switch mode {
        case .wordWrap:
            let words = line(bytes, from: 0, width: width, byWord: true)
            return LaidOutText(text, lines: [TextLine(0, words.end, columns: words.columns)])
        case .charWrap, .clip:
            let cut = fit(bytes, from: 0, to: firstLineEnd, width: width)
            return LaidOutText(text, lines: [TextLine(0, cut.end, columns: cut.columns)])
        case .truncateTail:
            let cut = tailCut(bytes, width: width)  // the first line's end: firstLineEnd
            return ellipsized(text, bytes, head: cut.end, columns: cut.columns)
        case .truncateHead:
            return appending(ellipsis + string(bytes, fitBackward(bytes, width: width - 1), bytes.count), to: none, [])
        case .truncateMiddle:
            let head = width / 2, tail = width - 1 - head  // the ellipsis takes the middle column
            return appending(
                string(bytes, 0, fit(bytes, from: 0, to: firstLineEnd, width: head).end) + ellipsis
                    + string(bytes, fitBackward(bytes, width: tail), bytes.count), to: none, [])
        }
    }

    /// One line of a greedy wrap from byte `start`: where its text ends (trailing spaces left
    /// out), where the next line starts (after a newline; after spaces when `byWord`), and the
    /// columns its text takes.
    static func line(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, width: Int, byWord: Bool
    ) -> (end: Int, next: Int, columns: Int) {
        if let quick = asciiLine(bytes, from: start, width: width, byWord: byWord) {
            return (quick.end, quick.next, quick.end - start)
        }
        let n = bytes.count, table = TextWidth.directProperties
        var i = start, used = 0
        var content = start, contentColumns = 0  // the end of the last cluster that is not a space
        var breakEnd = -1, breakNext = -1, breakColumns = 0  // the last place a word may end on this line
        var afterSpace = true
        // Wrapping arithmetic (&+): offsets and columns stay far below Int.max, and the overflow
        // checks kept the loop's state out of registers.
        while i < n {
            let b = bytes[i]
            if b == 0x0A { return (content, i &+ 1, contentColumns) }
            let (e, w) = TextWidth.nextCluster(bytes, from: i, table: table)
            let space = b == 0x20 && e == i &+ 1
            if used &+ w > width {
                if byWord {
                    if space { return (content, skipSpaces(bytes, e), contentColumns) }
                    if w == 2, !afterSpace { return (content, i, contentColumns) }  // before a wide cluster
                    if breakEnd >= 0 { return (breakEnd, skipSpaces(bytes, breakNext), breakColumns) }
                }
                if i == start { return (e, byWord ? skipSpaces(bytes, e) : e, w) }  // wider than the line: shown anyway
                return (content, byWord ? skipSpaces(bytes, i) : i, contentColumns)
            }
            used &+= w
            if space {
                if byWord { (breakEnd, breakNext, breakColumns) = (content, e, contentColumns) }
                (i, afterSpace) = (e, true)
                continue
            }
            if byWord {
                // A word may end after a wide cluster, and after a hyphen inside a word (and before a
                // wide cluster: where one does not fit, the line ends right before it, above).
                if w == 2 {
                    (breakEnd, breakNext, breakColumns) = (e, e, used)
                } else if !afterSpace, isHyphen(bytes, i, e) {
                    (breakEnd, breakNext, breakColumns) = (e, e, used)
                }
            }
            (i, content, contentColumns, afterSpace) = (e, e, used, false)
        }
        return (content, n, contentColumns)
    }

    /// `line` where every byte that decides the line is printable ASCII — the next `width + 2`, or
    /// all that is left — so each is a cluster one column wide: the break is found by looking back
    /// from the column past the width for a space or a hyphen inside a word, not cluster by cluster.
    /// Nil when other text is within reach. (Text all of printable ASCII is broken by the same rules
    /// in C: `asciiLineRanges`, CScan's `ck_ascii_lines`.)
    @inline(__always)
    static func asciiLine(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, width: Int, byWord: Bool
    ) -> (end: Int, next: Int)? {
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

    /// The first byte from `i` that does not start a space of its own (a space before a combining mark
    /// is a cluster with it, and stays; one before a CJK word or an emoji goes, as before ASCII).
    static func skipSpaces(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        var i = i
        while i < bytes.count, bytes[i] == 0x20,
            i + 1 == bytes.count || bytes[i + 1] < 0x80 || TextWidth.nextCluster(bytes, from: i).end == i + 1
        {
            i += 1
        }
        return i
    }

    /// Where the line from `from` ends (its newline, or the end) and its width.
    static func lineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> (end: Int, width: Int) {
        let ascii = UTF8Bytes.printableASCIIPrefix(UnsafeBufferPointer(rebasing: bytes[from...]))
        if from + ascii == bytes.count { return (bytes.count, ascii) }
        // The last ASCII byte may be the base of a cluster that goes on: measure it with the rest.
        var i = from + max(0, ascii - 1), total = max(0, ascii - 1)
        let table = TextWidth.directProperties  // once, not a `swift_once` a cluster
        while i < bytes.count, bytes[i] != 0x0A {
            let (e, w) = TextWidth.nextCluster(bytes, from: i, table: table)
            total += w
            i = e
        }
        return (i, total)
    }

    /// Where the line from `from` ends, as `lineEnd` finds it but without measuring: its first
    /// newline, or the end. Sanitized text has no CR, so no CR LF cluster hides a newline; text
    /// that has one is measured as `lineEnd` does.
    static func newlineOrEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        // memchr: `firstIndex(of:)` went a byte at a time (BENCHMARKS.md, "Measurements behind the
        // code": TextLayout.newlineOrEnd).
        guard from < bytes.count, let found = memchr(bytes.baseAddress! + from, 0x0A, bytes.count - from) else {
            return bytes.count
        }
        let at = UnsafeRawPointer(found) - UnsafeRawPointer(bytes.baseAddress!)
        return at > 0 && bytes[at - 1] == 0x0D ? lineEnd(bytes, from: from).end : at
    }

    /// The end of the longest run of whole clusters from `from`, before `limit`, that fits in `width`
    /// columns, and the columns it takes.
    static func fit(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to limit: Int, width: Int) -> (
        end: Int, columns: Int
    ) {
        var i = from, used = 0
        let table = TextWidth.directProperties  // once, not a `swift_once` a cluster
        while i < limit {
            let (e, w) = TextWidth.nextCluster(bytes, from: i, table: table)
            guard used + w <= width else { break }
            used += w
            i = e
        }
        return (i, used)
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

    /// Bytes `from..<to` of `bytes` (cluster boundaries) as a String, for a line made for the layout.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
    }
}
