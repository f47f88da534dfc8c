// How many colours the terminal shows, and each 24-bit colour of a table brought
// down to what it has: the xterm 256-colour palette or the 16 ANSI colours. The
// nearest colour is the one at the smallest squared distance in RGB (ties to the
// lower index); for 256 colours only the 6×6×6 cube and the grey ramp (16–255) are
// candidates, as the first 16 follow the user's theme.

import CellKitModel

/// The colours a terminal can show; the `ansi` format writes SGR codes for it.
public enum ColorDepth: String, Sendable, Codable, CaseIterable {
    /// 24-bit colour (`38;2;R;G;B`).
    case truecolor
    /// The xterm 256-colour palette (`38;5;N`).
    case ansi256 = "256"
    /// The 16 ANSI colours (30–37 and 90–97; backgrounds 40–47 and 100–107).
    case ansi16 = "16"
    /// No colour: bold and dim only.
    case none

    /// The depth the environment says the terminal has: `none` when `NO_COLOR` is set and not
    /// empty; `truecolor` when `COLORTERM` is `truecolor` or `24bit`; from `TERM`: `none` when it
    /// is unset, empty or `dumb`, `truecolor` when it ends in `-direct` or says `truecolor`,
    /// `256` when it says `256color`, else `16`.
    public static func fromEnvironment(_ environment: [String: String]) -> ColorDepth {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        let colorTerm = environment["COLORTERM", default: ""].lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .truecolor }
        let term = environment["TERM", default: ""].lowercased()
        if term.isEmpty || term == "dumb" { return .none }
        if term.hasSuffix("-direct") || term.contains("truecolor") || term.contains("24bit") { return .truecolor }
        if term.contains("256color") { return .ansi256 }
        return .ansi16
    }

    // MARK: Palettes

    /// The RGB of xterm's 16 colours (its defaults), in SGR order: black, red, green, yellow, blue,
    /// magenta, cyan, white, then the bright ones.
    static let ansi16Palette: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
        (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255),
        (0, 255, 255), (255, 255, 255),
    ]

    /// The levels of the 6×6×6 cube's axes.
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    private static func distance(_ c: Color, _ r: Int, _ g: Int, _ b: Int) -> Int {
        let dr = Int(c.red) - r, dg = Int(c.green) - g, db = Int(c.blue) - b
        return dr * dr + dg * dg + db * db
    }

    /// The index (16–255) of the xterm palette colour nearest to `color`: the nearest cube colour
    /// (each axis to its nearest level) or the nearest grey of the ramp (8 + 10k), whichever is nearer.
    package static func nearest256(_ color: Color) -> Int {
        func level(_ v: UInt8) -> Int {
            var best = 0
            for k in 1..<6 where abs(cubeLevels[k] - Int(v)) < abs(cubeLevels[best] - Int(v)) { best = k }
            return best
        }
        let (r, g, b) = (level(color.red), level(color.green), level(color.blue))
        let cube = 16 + 36 * r + 6 * g + b
        let cubeDistance = distance(color, cubeLevels[r], cubeLevels[g], cubeLevels[b])
        let mean = (Int(color.red) + Int(color.green) + Int(color.blue)) / 3
        let grey = min(23, max(0, (mean - 3) / 10))  // ramp k is 8 + 10k
        let nearestGrey = [grey, min(23, grey + 1)].min { a, b in
            distance(color, 8 + 10 * a, 8 + 10 * a, 8 + 10 * a) < distance(color, 8 + 10 * b, 8 + 10 * b, 8 + 10 * b)
        }!
        let level = 8 + 10 * nearestGrey
        return distance(color, level, level, level) < cubeDistance ? 232 + nearestGrey : cube
    }

    /// The index (0–15) of the ANSI colour nearest to `color` (xterm's default RGB values).
    package static func nearest16(_ color: Color) -> Int { nearest16(color, avoiding: []) }

    /// The index of the ANSI colour nearest to `color` that is not one of `avoided`.
    static func nearest16(_ color: Color, avoiding avoided: Set<Int>) -> Int {
        var best = 0, bestDistance = Int.max
        for (k, c) in ansi16Palette.enumerated() where !avoided.contains(k) {
            let d = distance(color, Int(c.0), Int(c.1), Int(c.2))
            if d < bestDistance { (best, bestDistance) = (k, d) }
        }
        return best
    }

    /// The SGR parameters for text `foreground` on `background` (either nil: the terminal's own),
    /// after each is brought down to this depth: a pair whose palette colours fall below
    /// `Contrast.minimum` gets black or white text instead. A text colour on the terminal's own
    /// background becomes the nearest palette colour readable on `canvas` (that background, when the
    /// theme is known); with no `canvas`, in 16 colours it is never black, white or bright white,
    /// which vanish on a dark or a light theme (a light grey chevron becomes bright black).
    func parameters(foreground: Color?, background: Color?, canvas: Color? = nil) -> String {
        switch self {
        case .truecolor, .none:
            return (foreground.map { parameters($0, background: false) } ?? "")
                + (background.map { parameters($0, background: true) } ?? "")
        case .ansi256:
            let b = background.map(Self.nearest256)
            var f = foreground.map(Self.nearest256)
            if let fi = f, let bi = b, Contrast.ratio(Self.rgb256(fi), Self.rgb256(bi)) < Contrast.minimum {
                f = Contrast.plainText(on: Self.rgb256(bi)).red == 0 ? 16 : 231
            } else if let fi = f, let foreground, b == nil {
                // Unknown background: readable on black and on white alike (`Contrast.readableOnEither`).
                let canvases =
                    canvas.map { [$0] } ?? [Color(red: 0, green: 0, blue: 0), Color(red: 255, green: 255, blue: 255)]
                if canvases.contains(where: { Contrast.ratio(Self.rgb256(fi), $0) < Contrast.minimum }) {
                    f = Self.nearest(foreground, in: 16...255, readableOn: canvases, palette: Self.rgb256)
                }
            }
            return (f.map { ";38;5;\($0)" } ?? "") + (b.map { ";48;5;\($0)" } ?? "")
        case .ansi16:
            let b = background.map(Self.nearest16)
            var f = foreground.map { color in
                guard b == nil else { return Self.nearest16(color) }
                guard let canvas else { return Self.nearest16(color, avoiding: [0, 7, 15]) }
                return Self.nearest(color, in: 0...15, readableOn: [canvas], palette: Self.rgb16)
            }
            if let fi = f, let bi = b, Contrast.ratio(Self.rgb16(fi), Self.rgb16(bi)) < Contrast.minimum {
                f = Contrast.plainText(on: Self.rgb16(bi)).red == 0 ? 0 : 15
            }
            return (f.map { ";\(30 + ($0 >= 8 ? 60 : 0) + $0 % 8)" } ?? "")
                + (b.map { ";\(40 + ($0 >= 8 ? 60 : 0) + $0 % 8)" } ?? "")
        }
    }

    /// The index in `indexes` of the palette colour nearest to `color` whose contrast with each of
    /// `canvases` is at least `Contrast.minimum` (black or white always is, against one of them; a
    /// mid grey against black and white). Nearest with
    /// a difference in colourfulness counted twice: a grey stays a grey (UIKit's greys became
    /// bright blue in 16 colours on a light theme, the nearest readable colour by RGB alone).
    static func nearest(
        _ color: Color, in indexes: ClosedRange<Int>, readableOn canvases: [Color], palette: (Int) -> Color
    ) -> Int {
        func chroma(_ c: Color) -> Int { Int(max(c.red, c.green, c.blue)) - Int(min(c.red, c.green, c.blue)) }
        var best = indexes.lowerBound, bestDistance = Int.max
        for k in indexes {
            let c = palette(k)
            guard canvases.allSatisfy({ Contrast.ratio(c, $0) >= Contrast.minimum }) else { continue }
            let dc = chroma(color) - chroma(c)
            let d = distance(color, Int(c.red), Int(c.green), Int(c.blue)) + 2 * dc * dc
            if d < bestDistance { (best, bestDistance) = (k, d) }
        }
        return best
    }

    /// The RGB of xterm's colour `index` (16–255: the cube and the grey ramp; 0–15: its defaults).
    package static func rgb256(_ index: Int) -> Color {
        if index < 16 { return rgb16(index) }
        if index >= 232 {
            let level = UInt8(8 + 10 * (index - 232))
            return Color(red: level, green: level, blue: level)
        }
        let k = index - 16
        return Color(
            red: UInt8(cubeLevels[k / 36]), green: UInt8(cubeLevels[(k / 6) % 6]), blue: UInt8(cubeLevels[k % 6]))
    }

    /// The RGB of ANSI colour `index` (0–15) as xterm draws it by default.
    package static func rgb16(_ index: Int) -> Color {
        let c = ansi16Palette[index]
        return Color(red: c.0, green: c.1, blue: c.2)
    }

    /// The SGR parameters (after `0`, each with its leading `;`) that set `color` as the
    /// foreground (or the background) at this depth; empty for `none`.
    func parameters(_ color: Color, background: Bool) -> String {
        switch self {
        case .truecolor: return "\(background ? ";48" : ";38");2;\(color.red);\(color.green);\(color.blue)"
        case .ansi256: return "\(background ? ";48" : ";38");5;\(Self.nearest256(color))"
        case .ansi16:
            let k = Self.nearest16(color)
            let base = (background ? 40 : 30) + (k >= 8 ? 60 : 0)
            return ";\(base + k % 8)"
        case .none: return ""
        }
    }
}
