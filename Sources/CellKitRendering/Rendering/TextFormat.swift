// The terminal formats: `text` (Unicode box drawing, or ASCII) and `ansi`
// (the same with colour, weight and the selected row's highlight). Every
// glyph comes from a sanitized canvas, so nothing from a document or data file
// can reach the terminal as a control character.

import CellKitDocuments
import CellKitModel
import CellKitRuntime
import CellKitText

/// Draws rows as lines of character cells, with or without ANSI colour.
public struct TextFormat: RowFormat {
    /// ASCII borders instead of box drawing.
    public var ascii: Bool
    /// ANSI colour and weight (the `ansi` format).
    public var color: Bool
    /// The colours the terminal shows: 24-bit colours are written as the nearest of its palette.
    public var colorDepth = ColorDepth.truecolor
    /// The terminal's background, light or dark; nil when it is not known. Drawn backgrounds (the
    /// selection, a plain header) follow it, and text on a drawn background is always given a
    /// colour with a contrast of at least 4.5:1 (`Contrast`), whatever the theme.
    public var theme: TerminalTheme?
    /// Each style's SGR sequence, made once per render (`sgr(_:depth:theme:)`).
    private let sequences = Sequences()

    private let canvas = Canvas()
    /// Rows with no colour, image or overlap are written without the canvas (see `DirectLines`).
    private var direct = DirectLines()
    /// Every row painted on the canvas, as a check that the direct path writes the same bytes (tests).
    var paintsEveryRow = false
    private var width = 80
    private var style = TableStyle.grouped
    private var sectionsStarted = 0
    private var rules = Rules()  // made again when the row width changes

    /// The `text` format by default: box drawing, no colour.
    public init(ascii: Bool = false, color: Bool = false) { (self.ascii, self.color) = (ascii, color) }

    // MARK: Borders

    private struct Box {
        let horizontal, vertical, selected, topLeft, topRight, bottomLeft, bottomRight, left, right: String
    }
    private static let unicode = Box(
        horizontal: "─", vertical: "│", selected: "┃", topLeft: "╭", topRight: "╮",
        bottomLeft: "╰", bottomRight: "╯", left: "├", right: "┤")
    private static let plainASCII = Box(
        horizontal: "-", vertical: "|", selected: "#", topLeft: "+", topRight: "+",
        bottomLeft: "+", bottomRight: "+", left: "+", right: "+")
    private var box: Box { ascii ? Self.plainASCII : Self.unicode }

    static let borderColor = Color(red: 0xC6, green: 0xC6, blue: 0xC8)
    static let headerColor = Color(red: 0x6D, green: 0x6D, blue: 0x72)
    static let plainHeaderBackground = Color(red: 0xF2, green: 0xF2, blue: 0xF7)

    /// Columns outside the border on each side.
    private func margin(_ style: TableStyle) -> Int { style == .insetGrouped ? 2 : 0 }

    /// Whether sections are boxes with sides and rounded corners (`insetGrouped`); `plain` and `grouped`
    /// rows run edge to edge, as UIKit draws them.
    private var boxed: Bool { style == .insetGrouped }

    /// The whole width for `plain` and `grouped` (edge to edge); for `insetGrouped` less the two border
    /// columns and the 2-column margin on each side.
    public func contentWidth(tableWidth: Int, style: TableStyle) -> Int {
        style == .insetGrouped ? tableWidth - 2 - 2 * margin(style) : tableWidth
    }

    // MARK: Table and sections

    /// Resets the format, then writes the title (bold, centred, cut to one line) and the table header
    /// (bold, wrapped), each followed by a blank line.
    public mutating func begin(_ table: TableInfo, width: Int, to out: OutputBuffer) throws {
        (self.width, style, sectionsStarted, rules) = (width, table.style, 0, Rules())
        direct = DirectLines()  // its SGR bytes were made for the colours set then
        if let title = table.title {
            let line =
                TextLayout.tableLines(title, width: width, maxLines: 1, mode: .truncateTail, keepNewlines: false)
                .first ?? ""
            let pad = max(0, (width - TextWidth.columns(line)) / 2)
            writeLine(String(repeating: " ", count: pad) + line, TextStyle(bold: true), out)
            out.write(byte: 0x0A)
        }
        if let header = table.header {
            wrapped(header, TextStyle(bold: true), out, fromRight: Self.readsRightToLeft(header, table.direction))
            out.write(byte: 0x0A)
        }
    }

    /// Writes a blank line between boxed sections, then the header: in capitals above the box, or for
    /// `plain` bold on a band across the table (tinted in colour).
    public mutating func beginSection(_ section: SectionInfo, index: Int, to out: OutputBuffer) throws {
        if sectionsStarted > 0, style != .plain { out.write(byte: 0x0A) }
        sectionsStarted += 1
        guard let header = section.header else { return }
        if style == .plain {
            // Wrapped on the band, a column in from either edge, so a long header never runs past the table.
            let band = TextStyle(foreground: Self.headerColor, background: Self.plainHeaderBackground, bold: true)
            let fromRight = Self.readsRightToLeft(header, section.direction)
            for text in TextLayout.tableLines(header, width: max(1, width - 2), maxLines: 1000, mode: .wordWrap) {
                // Right to left: against the right edge, a column in from it.
                let space = max(0, width - 1 - TextWidth.columns(text))
                let line = fromRight ? String(repeating: " ", count: space) + text + " " : " " + text
                writeLine(line + String(repeating: " ", count: max(0, width - TextWidth.columns(line))), band, out)
            }
        } else {
            wrapped(
                header.uppercased(), TextStyle(foreground: Self.headerColor), out,
                fromRight: Self.readsRightToLeft(header, section.direction))
        }
    }

    /// Writes the section footer, if any, wrapped below the section.
    public mutating func endSection(_ section: SectionInfo, index: Int, to out: OutputBuffer) throws {
        if let footer = section.footer {
            wrapped(
                footer, TextStyle(foreground: Self.headerColor), out,
                fromRight: Self.readsRightToLeft(footer, section.direction))
        }
    }

    /// Writes the table footer, if any, after a blank line.
    public mutating func end(_ table: TableInfo, to out: OutputBuffer) throws {
        if let footer = table.footer {
            out.write(byte: 0x0A)
            wrapped(
                footer, TextStyle(foreground: Self.headerColor), out,
                fromRight: Self.readsRightToLeft(footer, table.direction))
        }
    }

    /// Whether a header or footer reads right to left in a table or section of `direction`: `rtl`,
    /// or `auto` and its own text does (as HTML's `dir="auto"` decides it).
    static func readsRightToLeft(_ text: String, _ direction: TextDirection) -> Bool {
        direction == .rtl || (direction == .auto && TextDirection.isRightToLeft(text))
    }

    /// Text wrapped to the table, indented past the border.
    private func wrapped(_ text: String, _ style: TextStyle, _ out: OutputBuffer, fromRight: Bool = false) {
        let indent = margin(self.style) + 1
        for line in TextLayout.tableLines(text, width: width - 2 * indent, maxLines: 1000, mode: .wordWrap) {
            // Right to left: against the right edge, the same indent in from it.
            let lead = fromRight ? max(indent, width - indent - TextWidth.columns(line)) : indent
            writeLine(String(repeating: " ", count: lead) + line, style, out)
        }
    }

    // MARK: Rows

    /// Writes the row's lines, then what follows it, as UIKit draws a table: between rows a separator
    /// from where the row's text starts (`RowLayout.separatorInset`) to the right edge; after a section's
    /// last row its bottom edge instead. `plain` has no section edges; `grouped` sections have full-width
    /// rules above and below and no sides; `insetGrouped` sections are boxes with rounded corners, inset
    /// from the sides, with heavy sides by the selected row. Without colour, a selected row of `plain` or
    /// `grouped` shows heavy marks in its side margins (with colour its background shows it).
    public mutating func row(_ row: RowLayout, isFirst: Bool, isLast: Bool, to out: OutputBuffer) throws {
        let marksSelection = row.isSelected && !color && !boxed
        let writesDirectly =
            !paintsEveryRow && !marksSelection
            && direct.prepare(row, colours: color ? DirectLines.Colours(depth: colorDepth, theme: theme) : nil)
        var painted = !writesDirectly
        if painted {
            canvas.paint(row)
            if marksSelection { markSelection() }
        }
        if rules.width != row.width { rules = Rules(self, width: row.width) }
        if style != .plain, isFirst { out.write(rules.top) }
        // Unboxed, the lines written directly in one call, up to one the canvas must draw.
        let first = writesDirectly && !boxed ? direct.writeLines(row, from: 0, to: out) : 0
        for y in first..<row.height {
            if boxed { out.write(row.isSelected ? rules.selectedLeft : rules.left) }
            if !writesDirectly || !direct.write(row, line: y, to: out) {
                if !painted { canvas.paint(row) }
                painted = true
                writeCanvasLine(y, out)
            }
            if boxed { out.write(row.isSelected ? rules.selectedRight : rules.right) }
            out.write(byte: 0x0A)
        }
        if !isLast {
            rules.writeSeparator(inset: row.separatorInset, fromRight: row.isRightToLeft, to: out)
        } else if style != .plain {
            out.write(rules.bottom)
        }
    }

    /// The selection mark in the row's first and last columns (its margins), where nothing is drawn.
    private func markSelection() {
        let edges = canvas.width > 1 ? [0, canvas.width - 1] : [0]
        for y in 0..<canvas.height {
            for x in edges where canvas.isBlank(atX: x, y: y) {
                canvas.put(box.selected, x: x, y: y, limit: x + 1, style: canvas.index(of: canvas.style(atX: x, y: y)))
            }
        }
    }

    /// A row's border pieces as bytes, made once per row width (building them per row
    /// was a large part of a long render's time: BENCHMARKS.md, "Measurements behind the code":
    /// TextFormat.Rules). In raw memory the class owns: writing arrays held by the format retained
    /// and released each, per row.
    private final class Rules {
        let width: Int
        let top, bottom, left, right, selectedLeft, selectedRight: UnsafeBufferPointer<UInt8>
        /// A separator's parts: what comes before its inset, spaces, the rule's glyphs, what ends the
        /// line; mirrored, the rule joins the left border (├) and the right one is plain (│).
        private let opening, spaces, rule, closing, mirroredOpening, mirroredClosing: UnsafeBufferPointer<UInt8>
        /// Bytes of one glyph of `rule`.
        private let glyphBytes: Int
        private let storage: UnsafeMutableBufferPointer<UInt8>

        /// None yet: the first row makes them.
        init() {
            width = -1
            glyphBytes = 1
            storage = .allocate(capacity: 0)
            let none = UnsafeBufferPointer(storage)
            (top, bottom, left, right, selectedLeft, selectedRight) = (none, none, none, none, none, none)
            (opening, spaces, rule, closing) = (none, none, none, none)
            (mirroredOpening, mirroredClosing) = (none, none)
        }

        init(_ f: TextFormat, width: Int) {
            self.width = width
            let m = String(repeating: " ", count: f.margin(f.style))
            let inner = String(repeating: f.box.horizontal, count: width)
            let border = TextStyle(foreground: TextFormat.borderColor)
            func bytes(_ text: String, newline: Bool = true) -> [UInt8] {
                let out = OutputBuffer(DescriptorSink(fd: -1))
                if newline { f.writeLine(text, border, out) } else { f.write(text, border, out) }
                return out.bytes
            }
            let (top, bottom) =
                switch f.style {
                case .plain: ([UInt8](), [UInt8]())
                case .grouped: (bytes(inner), bytes(inner))
                case .insetGrouped:
                    (
                        bytes(m + f.box.topLeft + inner + f.box.topRight),
                        bytes(m + f.box.bottomLeft + inner + f.box.bottomRight)
                    )
                }
            let sgr = f.color ? Array(TextFormat.sgr(border, depth: f.colorDepth, theme: f.theme).utf8) : []
            let end = Array((f.color ? "\u{1B}[0m\n" : "\n").utf8)
            let pieces = [
                top, bottom,
                Array(m.utf8) + bytes(f.box.vertical, newline: false), bytes(f.box.vertical, newline: false),
                Array(m.utf8) + bytes(f.box.selected, newline: false), bytes(f.box.selected, newline: false),
                sgr + Array((f.boxed ? m + f.box.vertical : "").utf8),
                Array(repeating: 0x20, count: width), Array(inner.utf8),
                Array((f.boxed ? f.box.right : "").utf8) + end,
                sgr + Array((f.boxed ? m + f.box.left : "").utf8), Array((f.boxed ? f.box.vertical : "").utf8) + end,
            ]
            glyphBytes = f.box.horizontal.utf8.count
            storage = .allocate(capacity: pieces.reduce(0) { $0 + $1.count })
            var slices: [UnsafeBufferPointer<UInt8>] = []
            var at = 0
            for piece in pieces {
                let slice = UnsafeMutableBufferPointer(rebasing: storage[at..<at + piece.count])
                _ = slice.initialize(from: piece)
                slices.append(UnsafeBufferPointer(slice))
                at += piece.count
            }
            (self.top, self.bottom, left, right, selectedLeft, selectedRight) =
                (slices[0], slices[1], slices[2], slices[3], slices[4], slices[5])
            (opening, spaces, rule, closing) = (slices[6], slices[7], slices[8], slices[9])
            (mirroredOpening, mirroredClosing) = (slices[10], slices[11])
        }

        /// Writes the separator under a row whose text starts `inset` columns in: blank to there, then
        /// the rule to the right edge (at least one column of it); `fromRight`: mirrored.
        func writeSeparator(inset: Int, fromRight: Bool = false, to out: OutputBuffer) {
            let inset = max(0, min(inset, width - 1))
            if inset != separatorInset || fromRight != separatorFromRight { makeSeparator(inset, fromRight) }
            out.write(UnsafeBufferPointer(rebasing: separator[..<separatorCount]))
        }

        /// The last separator written, whole, and what it was made for: rows of a table mostly have
        /// one inset, and its four pieces written apart were four copies a row (BENCHMARKS.md,
        /// "Measurements behind the code": TextFormat.separator).
        private var separator = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
        private var separatorCount = 0, separatorInset = -1, separatorFromRight = false

        /// Makes the separator for `inset` in `separator`.
        private func makeSeparator(_ inset: Int, _ fromRight: Bool) {
            let pieces =
                fromRight  // right to left: the rule from the left edge, the inset blank at the right
                ? [
                    mirroredOpening, UnsafeBufferPointer(rebasing: rule[..<((width - inset) * glyphBytes)]),
                    UnsafeBufferPointer(rebasing: spaces[0..<inset]), mirroredClosing,
                ]
                : [
                    opening, UnsafeBufferPointer(rebasing: spaces[0..<inset]),
                    UnsafeBufferPointer(rebasing: rule[(inset * glyphBytes)...]), closing,
                ]
            let count = pieces.reduce(0) { $0 + $1.count }
            if count > separator.count {
                separator.deallocate()
                separator = .allocate(capacity: count)
            }
            var at = 0
            for piece in pieces where piece.count > 0 {
                (separator.baseAddress! + at).initialize(from: piece.baseAddress!, count: piece.count)
                at += piece.count
            }
            (separatorCount, separatorInset, separatorFromRight) = (count, inset, fromRight)
        }

        deinit {
            storage.deallocate()
            separator.deallocate()
        }
    }

    // MARK: Writing

    private func writeCanvasLine(_ y: Int, _ out: OutputBuffer) {
        guard color else {
            canvas.write(line: y, columns: 0..<canvas.width, to: out)
            return
        }
        canvas.forEachRun(line: y) { style, columns in
            out.write(sequence(style))
            canvas.write(line: y, columns: columns, to: out)
        }
        out.write("\u{1B}[0m")
    }

    private func writeLine(_ text: String, _ style: TextStyle?, _ out: OutputBuffer) {
        write(text, style, out)
        out.write(byte: 0x0A)
    }

    private func write(_ text: String, _ style: TextStyle?, _ out: OutputBuffer) {
        guard color, let style else { out.write(text); return }
        out.write(sequence(style))
        out.write(text)
        out.write("\u{1B}[0m")
    }

    /// The SGR sequence that sets `style` from a reset state, its colours at `depth`
    /// (`ColorDepth.parameters(foreground:background:)`). A drawn background takes `theme`'s
    /// colour for it, and its text a colour readable on it (`Contrast.readable`): the document's,
    /// moved towards black or white if need be, else black or white. With a known theme, a text
    /// colour on the terminal's own background is made readable on that theme's background too;
    /// with none known, readable on black and on white alike (`Contrast.readableOnEither`).
    static func sgr(_ style: TextStyle, depth: ColorDepth = .truecolor, theme: TerminalTheme? = nil) -> String {
        var codes = "0"
        if style.bold { codes += ";1" }
        if style.dim { codes += ";2" }
        let background = style.background.map { theme?.background($0) ?? $0 }
        var foreground = style.foreground
        if let background {
            foreground = Contrast.readable(foreground ?? Contrast.plainText(on: background), on: background)
        } else if let theme, let text = foreground {
            foreground = Contrast.readable(text, on: theme.canvas)
        } else if depth != .none, let text = foreground, text != borderColor {  // rules are not text
            foreground = Contrast.readableOnEither(text)
        }
        codes += depth.parameters(foreground: foreground, background: background, canvas: theme?.canvas)
        // No colour (NO_COLOR): the selection is still seen, in reverse video.
        if depth == .none, let b = style.background,
            b == CellLayout.Palette.selectedGray || b == CellLayout.Palette.tint
        {
            codes += ";7"
        }
        return "\u{1B}[" + codes + "m"
    }

    /// `sgr(style)` at this format's depth and theme, as bytes, made once per style.
    private func sequence(_ style: TextStyle) -> [UInt8] {
        let key = Sequences.Key(style: style, depth: colorDepth, theme: theme)
        if let made = sequences.made[key] { return made }
        let made = Array(Self.sgr(style, depth: colorDepth, theme: theme).utf8)
        // Bounded: rows whose data gives each its own colour must not grow it without end.
        if sequences.made.count >= 1024 { sequences.made.removeAll(keepingCapacity: true) }
        sequences.made[key] = made
        return made
    }

    /// The SGR sequences made so far (a class: the format is a value, copied into the renderer;
    /// copies share it, so a sequence is keyed by what it was made for).
    private final class Sequences {
        struct Key: Hashable {
            let style: TextStyle, depth: ColorDepth, theme: TerminalTheme?
        }
        var made: [Key: [UInt8]] = [:]
    }
}

// MARK: - Painting a row

extension Canvas {
    /// Paints `row`: its background, then each view in order (later views on top).
    package func paint(_ row: RowLayout) {
        reset(width: row.width, height: row.height, background: TextStyle(background: row.backgroundColor))
        // Through pointers: `for view in row.views`, and even passing `views[k]` to a
        // borrowing parameter, copied each view (its arrays and strings retained).
        row.views.withUnsafeBufferPointer { views in
            for k in views.indices { paint(views.baseAddress! + k, rowBackground: row.backgroundColor) }
        }
    }

    private func paint(_ view: UnsafePointer<PlacedView>, rowBackground: Color?) {
        let frame = view.pointee.frame
        let background = view.pointee.backgroundColor ?? rowBackground
        if view.pointee.backgroundColor != nil { fill(frame, style: index(of: TextStyle(background: background))) }
        if view.pointee.imageName != nil { return paintImage(view.pointee, background: background) }
        let style = index(
            of: TextStyle(foreground: view.pointee.textColor, background: background, bold: view.pointee.bold))
        for i in 0..<min(view.pointee.laidOut.count, frame.height) {
            let dx =
                switch view.pointee.alignment {
                case .center: max(0, (frame.width - view.pointee.laidOut.columns(i)) / 2)
                case .right: max(0, frame.width - view.pointee.laidOut.columns(i))
                case .left, .natural: 0
                }
            put(  // the row holds the line's bytes
                bytes: view.pointee.laidOut.unsafeBytes(ofLine: i), x: frame.x + dx, y: frame.y + i,
                limit: frame.x + frame.width, style: style)
        }
    }

    /// An image: its glyph centred in the frame; a frame of 3 lines or more also gets a border, like a photo.
    private func paintImage(_ view: borrowing PlacedView, background: Color?) {
        let f = view.frame
        let glyph = view.laidOut.isEmpty ? "" : view.laidOut[0]
        let glyphStyle = index(
            of: TextStyle(foreground: view.missingImage ? TextFormat.headerColor : nil, background: background))
        if f.height >= 3, f.width >= 4 {
            let border = index(of: TextStyle(foreground: TextFormat.borderColor, background: background))
            let inner = String(repeating: "─", count: f.width - 2)
            put("┌" + inner + "┐", x: f.x, y: f.y, limit: f.x + f.width, style: border)
            for y in f.y + 1..<f.y + f.height - 1 {
                put("│", x: f.x, y: y, limit: f.x + f.width, style: border)
                put("│", x: f.x + f.width - 1, y: y, limit: f.x + f.width, style: border)
            }
            put("└" + inner + "┘", x: f.x, y: f.y + f.height - 1, limit: f.x + f.width, style: border)
        }
        let gw = TextWidth.columns(glyph)
        put(
            glyph, x: f.x + max(0, (f.width - gw) / 2), y: f.y + (f.height - 1) / 2, limit: f.x + f.width,
            style: glyphStyle)
    }
}
