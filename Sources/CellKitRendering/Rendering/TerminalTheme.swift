// What a drawn background looks like on a light or a dark terminal, and the text drawn on it:
// wherever the `ansi` format draws a background it draws a foreground too, at a contrast of at
// least 4.5:1 (WCAG's AA for body text), so that no row is light text on light grey because the
// terminal's own text colour was left in place. Contrast is WCAG's: (L1 + 0.05) / (L2 + 0.05)
// over relative luminance from linearised sRGB.

import CellKitModel
import Glibc

/// The terminal's background: the selection and the other backgrounds CellKit draws follow it.
public enum TerminalTheme: String, Sendable, Codable, CaseIterable {
    /// Dark text on a light background.
    case light
    /// Light text on a dark background.
    case dark

    /// The theme `COLORFGBG` says ("15;0", "0;default;15": the last field is the background's
    /// ANSI colour; 0–6 and 8 are dark, 7 and 9–15 light), or nil.
    public static func fromEnvironment(_ environment: [String: String]) -> TerminalTheme? {
        guard let value = environment["COLORFGBG"], let last = value.split(separator: ";").last,
            let background = Int(last), (0...15).contains(background)
        else { return nil }
        return background <= 6 || background == 8 ? .dark : .light
    }

    /// The theme of a terminal whose background is `color`: dark below the luminance midpoint.
    package static func ofBackground(_ color: Color) -> TerminalTheme {
        Contrast.luminance(color) < 0.18 ? .dark : .light
    }

    /// The background the terminal is assumed to have, for contrast: not white or black but the
    /// hardest common one of its kind — for light, Solarized Light's cream (#FDF6E3, darker than
    /// white); for dark, Dracula's #282A36 (lighter than the usual #1E1E1E or black). Text readable
    /// there is readable on the others (HTMLContrastTests, "ansi" cases).
    var canvas: Color {
        self == .light ? .init(red: 0xFD, green: 0xF6, blue: 0xE3) : .init(red: 0x28, green: 0x2A, blue: 0x36)
    }

    /// UIKit's dark counterparts of the light colours CellKit draws backgrounds with; other
    /// colours (a document's or a plugin's own) are kept, their text made readable on them.
    func background(_ color: Color) -> Color {
        guard self == .dark else { return color }
        switch color {
        case CellLayout.Palette.selectedGray: return CellLayout.Palette.darkSelectedGray
        case CellLayout.Palette.tint: return CellLayout.Palette.darkTint
        case TextFormat.plainHeaderBackground: return CellLayout.Palette.darkBackground
        default: return color
        }
    }
}

/// WCAG contrast between colours, and text colours moved until they reach it.
package enum Contrast {
    /// The contrast the `ansi` format keeps between a drawn background and its text.
    package static let minimum = 4.5

    /// The relative luminance of `color` (0 black, 1 white).
    package static func luminance(_ color: Color) -> Double {
        0.2126 * linear[Int(color.red)] + 0.7152 * linear[Int(color.green)] + 0.0722 * linear[Int(color.blue)]
    }

    /// sRGB components made linear: looked up, as a row's colours are checked on every row (HTML).
    private static let linear: [Double] = (0...255).map { v in
        let c = Double(v) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// The contrast ratio of two colours, 1 to 21.
    package static func ratio(_ a: Color, _ b: Color) -> Double {
        let (la, lb) = (luminance(a), luminance(b))
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// Mid grey (#767676): 4.54:1 on white, 4.62:1 on black, the colour a text colour is moved to when
    /// the terminal's background is not known (`readableOnEither`).
    package static let midGrey = Color(red: 0x76, green: 0x76, blue: 0x76)

    /// `text`, readable (4.5:1) on black and on white alike — for a terminal whose background is not
    /// known: moved towards mid grey in steps of 1/20 until it is; `text` itself when it is already.
    package static func readableOnEither(_ text: Color) -> Color {
        let black = Color(red: 0, green: 0, blue: 0), white = Color(red: 255, green: 255, blue: 255)
        func reads(_ c: Color) -> Bool { ratio(c, black) >= minimum && ratio(c, white) >= minimum }
        guard !reads(text) else { return text }
        for step in 1...20 {
            func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Int(a) * (20 - step) + Int(b) * step + 10) / 20) }
            let moved = Color(
                red: mix(text.red, midGrey.red), green: mix(text.green, midGrey.green),
                blue: mix(text.blue, midGrey.blue), alpha: text.alpha)
            if reads(moved) { return moved }
        }
        return Color(red: midGrey.red, green: midGrey.green, blue: midGrey.blue, alpha: text.alpha)
    }

    /// Black or white, whichever is the more readable on `background`.
    package static func plainText(on background: Color) -> Color {
        let black = Color(red: 0, green: 0, blue: 0), white = Color(red: 255, green: 255, blue: 255)
        return ratio(black, background) >= ratio(white, background) ? black : white
    }

    /// `text`, moved towards black or white (the more readable on `background`) in steps of 1/20
    /// until its contrast with `background` is at least `minimum`; `text` itself when it is already.
    /// The alpha is kept.
    package static func readable(_ text: Color, on background: Color, minimum: Double = minimum) -> Color {
        guard ratio(text, background) < minimum else { return text }
        let end = plainText(on: background)
        for step in 1...20 {
            func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Int(a) * (20 - step) + Int(b) * step + 10) / 20) }
            let moved = Color(
                red: mix(text.red, end.red), green: mix(text.green, end.green), blue: mix(text.blue, end.blue),
                alpha: text.alpha)
            if ratio(moved, background) >= minimum { return moved }
        }
        return Color(red: end.red, green: end.green, blue: end.blue, alpha: text.alpha)
    }
}
