// What a terminal shows of ANSI output: each visible character with the colours it is drawn in,
// on a light or a dark terminal (default foreground black on white, or white on black; palette
// colours as xterm draws them), and the contrast rules issue 32 holds the ansi format to.

import CellKit
import CellKitRendering

/// One visible character of a terminal screen and how it is drawn.
public struct Ink: Sendable, CustomStringConvertible {
    /// The character.
    public var character: Character
    /// The colours it shows in, the terminal's defaults filled in.
    public var foreground: Color, background: Color
    /// Whether the output set its background (a fill), and whether it left the foreground to the terminal.
    public var filled: Bool, defaultForeground: Bool
    /// The line it is on, counted from 0.
    public var line: Int

    /// Letters and digits are text (4.5:1); the rest — chevrons, checkmarks, borders,
    /// punctuation — are glyphs (3:1, WCAG's non-text contrast).
    public var isText: Bool { character.isLetter || character.isNumber }

    /// The contrast the character is drawn at.
    public var contrast: Double { Contrast.ratio(foreground, background) }

    /// What this character breaks of the rules, or nil: text ≥ 4.5:1, glyphs ≥ 3:1, and never
    /// the terminal's own foreground on a fill the output drew.
    public var fault: String? {
        if filled && defaultForeground { return "\(self): the terminal's foreground on a drawn fill" }
        let needed = isText ? 4.5 : 3
        return contrast >= needed ? nil : "\(self): \(contrast) < \(needed)"
    }

    public var description: String {
        "'\(character)' on line \(line + 1), \(hex(foreground)) on \(hex(background))"
    }

    private func hex(_ c: Color) -> String {
        "#" + [c.red, c.green, c.blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

/// Reads ANSI output as a terminal of a given theme shows it.
public enum TerminalInk {
    /// The visible characters of `text` on a terminal with `theme`'s default colours; SGR
    /// sequences (30–37, 90–97, 38;5, 38;2 and their backgrounds, 0, 7, 27, 39, 49) are followed,
    /// other escape sequences skipped.
    public static func read(_ text: String, theme: TerminalTheme) -> [Ink] {
        let white = Color(red: 255, green: 255, blue: 255), black = Color(red: 0, green: 0, blue: 0)
        let (defaultForeground, defaultBackground) = theme == .light ? (black, white) : (white, black)
        var state = SGR()
        var inks: [Ink] = []
        var line = 0
        var rest = text[...]
        while let escape = rest.firstIndex(of: "\u{1B}") {
            ink(rest[..<escape])
            rest = rest[escape...]
            guard let match = rest.prefixMatch(of: /\x1B\[([0-9;:]*)([A-Za-z])/) else {
                rest = rest.dropFirst()
                continue
            }
            if match.2 == "m" { state.apply(String(match.1)) }
            rest = rest[match.range.upperBound...]
        }
        ink(rest)
        return inks

        func ink(_ run: Substring) {
            for character in run {
                if character == "\n" { line += 1; continue }
                if character.isWhitespace { continue }
                var (fg, bg) = (state.foreground ?? defaultForeground, state.background ?? defaultBackground)
                var (filled, unset) = (state.background != nil, state.foreground == nil)
                if state.reverse {
                    (fg, bg) = (bg, fg)
                    (filled, unset) = (true, false)
                }
                inks.append(
                    Ink(
                        character: character, foreground: fg, background: bg, filled: filled,
                        defaultForeground: unset, line: line))
            }
        }
    }

    /// The colour state SGR sequences set.
    private struct SGR {
        var foreground: Color?, background: Color?, reverse = false

        mutating func apply(_ parameters: String) {
            var codes = parameters.split(separator: ";", omittingEmptySubsequences: false)
                .map { Int($0) ?? 0 }[...]
            if codes.isEmpty { codes = [0] }
            while let code = codes.popFirst() {
                switch code {
                case 0: self = SGR()
                case 7: reverse = true
                case 27: reverse = false
                case 39: foreground = nil
                case 49: background = nil
                case 30...37: foreground = ColorDepth.rgb16(code - 30)
                case 90...97: foreground = ColorDepth.rgb16(code - 90 + 8)
                case 40...47: background = ColorDepth.rgb16(code - 40)
                case 100...107: background = ColorDepth.rgb16(code - 100 + 8)
                case 38, 48:
                    var color: Color?
                    if codes.first == 5, codes.count >= 2 {
                        color = ColorDepth.rgb256(codes.dropFirst().first!)
                        codes = codes.dropFirst(2)
                    } else if codes.first == 2, codes.count >= 4 {
                        let c = codes.dropFirst().prefix(3).map { UInt8(clamping: $0) }
                        color = Color(red: c[0], green: c[1], blue: c[2])
                        codes = codes.dropFirst(4)
                    }
                    if code == 38 { foreground = color } else { background = color }
                default: continue
                }
            }
        }
    }
}
