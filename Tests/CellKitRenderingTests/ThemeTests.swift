// Every terminal theme: wherever the ansi format draws a background it draws a foreground too,
// at a contrast of at least 4.5:1 as the terminal shows it (the palette colour the SGR code
// names, xterm's defaults for 16 and 256 colours), for a light, a dark and an unknown theme, at
// every colour depth; in 16 colours a foreground on the terminal's own background is never
// black, white or bright white. COLORFGBG and OSC 11 replies read as they should.

import CellKitModel
import CellKitTerminal
import CellKitTestSupport
import Testing

import struct Foundation.Data
import class Foundation.FileManager
import class Foundation.JSONSerialization
import class Foundation.NSString

@testable import CellKitRendering

@Suite("Terminal themes and contrast")
struct ThemeTests {
    /// One SGR sequence's colours as RGB (nil: the terminal's own), and its raw foreground code.
    struct Colors {
        var foreground: Color?, background: Color?, foregroundCode: String?
    }

    /// The colours of every SGR sequence in `text`.
    static func sequences(_ text: String) -> [Colors] {
        text.matches(of: /\x1B\[([0-9;]*)m/).map { match in
            var parts = match.1.split(separator: ";").compactMap { Int($0) }[...]
            var colors = Colors()
            while let code = parts.popFirst() {
                switch code {
                case 38, 48:
                    let color: Color?
                    if parts.first == 2, parts.count >= 4 {
                        let c = Array(parts.dropFirst().prefix(3)).map(UInt8.init)
                        color = Color(red: c[0], green: c[1], blue: c[2])
                        parts = parts.dropFirst(4)
                    } else if parts.first == 5, parts.count >= 2 {
                        color = ColorDepth.rgb256(parts.dropFirst().first!)
                        parts = parts.dropFirst(2)
                    } else {
                        color = nil
                    }
                    if code == 38 {
                        (colors.foreground, colors.foregroundCode) = (color, "38")
                    } else {
                        colors.background = color
                    }
                case 30...37, 90...97:
                    colors.foreground = ColorDepth.rgb16(code % 10 + (code >= 90 ? 8 : 0))
                    colors.foregroundCode = "\(code)"
                case 40...47, 100...107: colors.background = ColorDepth.rgb16(code % 10 + (code >= 100 ? 8 : 0))
                default: continue
                }
            }
            return colors
        }
    }

    static let tables = ["seed-004-foobar.yaml", "seed-000-custom-drawn.yaml", "showcase.yaml"]

    /// `table` as ansi at `depth` for `theme`, with row `selected` drawn selected.
    static func ansi(_ table: String, _ depth: ColorDepth, _ theme: TerminalTheme?, selected: IndexPath) throws
        -> String
    {
        try Render.table(Render.manifest(table), .ansi, selected: selected, colorDepth: depth, theme: theme).output
    }

    @Test(
        "a drawn background always has a foreground of contrast ≥ 4.5:1, in every depth and theme",
        arguments: [ColorDepth.truecolor, .ansi256, .ansi16])
    func contrast(_ depth: ColorDepth) throws {
        var backed = 0
        for table in Self.tables {
            for theme in [TerminalTheme.light, .dark, nil] {
                for selected in [IndexPath(section: 0, row: 0), IndexPath(section: 0, row: 1)] {
                    for colors in Self.sequences(try Self.ansi(table, depth, theme, selected: selected)) {
                        guard let background = colors.background else { continue }
                        backed += 1
                        let foreground = try #require(
                            colors.foreground, "\(table) \(depth) \(String(describing: theme))")
                        let ratio = Contrast.ratio(foreground, background)
                        #expect(
                            ratio >= 4.5,
                            "\(table) \(depth) \(String(describing: theme)): \(foreground) on \(background)")
                    }
                }
            }
        }
        #expect(backed > 20, "the tables draw selected rows with a background")
    }

    @Test(
        "text on the terminal's own background reads at 4.5:1 on light (cream, white), dark (#282A36, black) and unknown (black, white) terminals",
        arguments: [ColorDepth.truecolor, .ansi256])
    func ownBackground(_ depth: ColorDepth) throws {
        let white = Color(red: 255, green: 255, blue: 255), black = Color(red: 0, green: 0, blue: 0)
        let cases: [(TerminalTheme?, [Color])] = [
            (.light, [Color(red: 0xFD, green: 0xF6, blue: 0xE3), white]),
            (.dark, [Color(red: 0x28, green: 0x2A, blue: 0x36), black]), (nil, [black, white]),
        ]
        var checked = 0
        for table in Self.tables + ["seed-002-contacts.yaml", "seed-003-projects.yaml"] {
            for (theme, canvases) in cases {
                let text = try Self.ansi(table, depth, theme, selected: IndexPath(section: 0, row: 1))
                for colors in Self.sequences(text) where colors.background == nil {
                    // Rules (the separator grey) are lines, not text.
                    let rules = [Color(red: 0xC6, green: 0xC6, blue: 0xC8), ColorDepth.rgb256(251)]
                    guard let foreground = colors.foreground, !rules.contains(foreground) else { continue }
                    for canvas in canvases {
                        checked += 1
                        #expect(
                            Contrast.ratio(foreground, canvas) >= 4.5,
                            "\(table) \(depth) \(String(describing: theme)): \(foreground) on \(canvas)")
                    }
                }
            }
        }
        #expect(checked > 50, "the tables have coloured text: \(checked) checked")
    }

    @Test("HTML's palettes: every text colour on every background it is drawn on reads at 4.5:1, light and dark")
    func htmlPalettes() throws {
        let page = try Render.table(Render.manifest("showcase.yaml"), .html).output
        let css = page.components(separatedBy: "<style>")[1].components(separatedBy: "</style>")[0]
        /// The custom properties of the first rule after `markers`, found one after another (`--name:#hex`).
        func palette(after markers: String...) throws -> [String: Color] {
            var rest = Substring(css)
            for marker in markers {
                let found = try #require(rest.range(of: marker), "no \(marker) in the style sheet")
                rest = rest[found.upperBound...]
            }
            let rule = rest.prefix { $0 != "}" }
            var colours: [String: Color] = [:]
            for match in rule.matches(of: /--([a-z0-9]+):#([0-9a-f]{3,6})\b/) {
                var hex = String(match.2)
                if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
                let v = try #require(UInt32(hex, radix: 16))
                colours[String(match.1)] = Color(red: UInt8(v >> 16), green: UInt8(v >> 8 & 255), blue: UInt8(v & 255))
            }
            return colours
        }
        let light = try palette(after: ":root{"), dark = try palette(after: "@media (prefers-color-scheme:dark){:root{")
        let lightSelection = try palette(after: "\n.sel{")
        let darkSelection = try palette(after: "@media (prefers-color-scheme:dark){", ".sel{")
        #expect(lightSelection.count == 2 && darkSelection.count == 2, "\(lightSelection) \(darkSelection)")
        for (name, p, selection) in [("light", light, lightSelection), ("dark", dark, darkSelection)] {
            let pairs: [(String, String, Color?, Color?)] = [
                ("text", "cell", p["fg"], p["cell"]), ("secondary text", "cell", p["fg2"], p["cell"]),
                ("tint", "cell", p["tint"], p["cell"]), ("header", "page", p["head"], p["bg"]),
                ("text", "page (plain headers)", p["fg"], p["bg"]), ("text", "selection", p["fg"], p["sel"]),
                ("secondary text", "selection", selection["fg2"], p["sel"]),
                ("tint", "selection", selection["tint"], p["sel"]),
                ("white", "blue selection", Color(red: 255, green: 255, blue: 255), p["blue"]),
            ]
            for (text, background, a, b) in pairs {
                let (a, b) = (try #require(a, "\(name) \(text)"), try #require(b, "\(name) \(background)"))
                #expect(
                    Contrast.ratio(a, b) >= 4.5, "\(name): \(text) \(a) on \(background) \(b): \(Contrast.ratio(a, b))")
            }
        }
    }

    /// The UIKit layout cases: the four styles with every accessory, a detail, an image and an
    /// indentation, in each selection style and table style, with headers and footers.
    static let uikitCases: String = {
        let accessories = ["none", "disclosureIndicator", "checkmark", "detailButton", "detailDisclosureButton"]
        var rows: [String] = []
        for style in ["Default", "Subtitle", "Value1", "Value2"] {
            for (k, accessory) in accessories.enumerated() {
                let selection = ["default", "gray", "blue", "none", "default"][k]
                rows.append(
                    "      - {cell: \(style), text: \(style) \(accessory), detail: Detail 42, image: star,"
                        + " accessory: \(accessory), selectionStyle: \(selection), indentationLevel: \(k % 3)}")
            }
        }
        return ["plain", "grouped", "insetGrouped"].map { tableStyle in
            "  - header: \(tableStyle) header\n    footer: A footer, 12 rows\n    rows:\n"
                + rows.joined(separator: "\n")
        }.joined(separator: "\n")
    }()

    /// Each bundled table and the UIKit cases (path, then the rows of each section).
    static func everyTable() throws -> [(path: String, sections: [Int])] {
        let bundled = try FileManager.default.contentsOfDirectory(atPath: Render.root + "/Manifests/Tables")
            .filter { $0.hasSuffix(".yaml") }.sorted().map { Render.manifest($0) }
        let folder = try Render.write(["uikit.yaml": "assets: Assets/assets.yaml\nsections:\n" + uikitCases])
        try Fixtures.copyFolder(Render.root + "/Manifests/Tables/Assets", to: folder + "/Assets")
        return try (bundled + [folder + "/uikit.yaml"]).map { path in
            let json = try Render.table(path, .json).output
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            let sections = try #require(object?["sections"] as? [[String: Any]], "\(path)")
            return (path, sections.map { ($0["rows"] as? [Any])?.count ?? 0 })
        }
    }

    @Test(
        "every character of every table, selected or not, light or dark: text ≥ 4.5:1, glyphs ≥ 3:1, no bare fill",
        arguments: [ColorDepth.truecolor, .ansi256, .ansi16])
    func everyGlyph(_ depth: ColorDepth) throws {
        var (checked, filled, faults) = (0, 0, Set<String>())
        for (path, sections) in try Self.everyTable() {
            // The whole table with no row selected, then each row alone (a window of one), selected.
            let selections =
                [(IndexPath(section: 99, row: 0), RowWindow())]
                + sections.indices.flatMap { s in
                    let before = sections[..<s].reduce(0, +)
                    return (0..<sections[s]).map {
                        (IndexPath(section: s, row: $0), RowWindow(first: before + $0, last: before + $0))
                    }
                }
            for theme in TerminalTheme.allCases {
                for (selected, window) in selections {
                    let sink = StringSink()
                    try Render.run(
                        path, .ansi, into: sink, selected: selected, window: window, colorDepth: depth, theme: theme)
                    for ink in TerminalInk.read(sink.text, theme: theme) {
                        checked += 1
                        filled += ink.filled ? 1 : 0
                        if ink.fault != nil, faults.count < 20 {  // one line per table, theme and colours
                            let colours = ink.description.drop { $0 != "#" }
                            faults.insert(
                                "\((path as NSString).lastPathComponent) \(theme) '\(ink.character)' \(colours)")
                        }
                    }
                }
            }
        }
        #expect(faults.isEmpty, "\(faults.sorted().joined(separator: "\n"))")
        #expect(checked > 50_000 && filled > 5_000, "tables drawn, selected rows filled: \(checked), \(filled)")
    }

    @Test("the grey selection follows the theme: light grey with dark text, dark grey with light text")
    func selectionFollowsTheme() throws {
        let at = IndexPath(section: 0, row: 1)
        let light = Self.sequences(try Self.ansi("seed-004-foobar.yaml", .truecolor, .light, selected: at))
        let dark = Self.sequences(try Self.ansi("seed-004-foobar.yaml", .truecolor, .dark, selected: at))
        let lightGrey = Color(red: 0xD1, green: 0xD1, blue: 0xD6), darkGrey = Color(red: 0x3A, green: 0x3A, blue: 0x3C)
        #expect(light.contains { $0.background == lightGrey && $0.foreground == Color(red: 0, green: 0, blue: 0) })
        #expect(dark.contains { $0.background == darkGrey && $0.foreground == Color(red: 255, green: 255, blue: 255) })
        #expect(!dark.contains { $0.background == lightGrey })
    }

    @Test("16 colours, theme unknown: a foreground on the terminal's background is never black, white or bright white")
    func visibleOnBothThemes() throws {
        for table in Self.tables {
            for theme in [TerminalTheme?.none] {
                let text = try Self.ansi(table, .ansi16, theme, selected: IndexPath(section: 9, row: 9))
                for colors in Self.sequences(text) where colors.background == nil {
                    #expect(
                        !["30", "37", "97"].contains(colors.foregroundCode ?? ""),
                        "\(table) \(String(describing: theme))")
                }
            }
        }
        // UIKit's chevron grey is the ANSI white nearest, which vanishes on a light theme.
        #expect(ColorDepth.nearest16(Color(red: 0xC7, green: 0xC7, blue: 0xCC)) == 7)
        #expect(ColorDepth.truecolor.parameters(foreground: nil, background: nil).isEmpty)
        #expect(
            ColorDepth.ansi16.parameters(foreground: Color(red: 0xC7, green: 0xC7, blue: 0xCC), background: nil)
                == ";90")
    }

    @Test("with the theme known, a grey stays a grey in 16 and 256 colours, a blue a blue, all readable")
    func greysStayGrey() {
        let white = Color(red: 255, green: 255, blue: 255), black = Color(red: 0, green: 0, blue: 0)
        for grey in [Color(red: 0x8E, green: 0x8E, blue: 0x93), Color(red: 0x6D, green: 0x6D, blue: 0x72)] {
            #expect(ColorDepth.ansi16.parameters(foreground: grey, background: nil, canvas: white) == ";30")
            let onDark = ColorDepth.ansi16.parameters(foreground: grey, background: nil, canvas: black)
            #expect([";37", ";90"].contains(onDark), "\(onDark)")
            for canvas in [white, black] {
                let index = ColorDepth.nearest(grey, in: 16...255, readableOn: [canvas], palette: ColorDepth.rgb256)
                let c = ColorDepth.rgb256(index)
                #expect(c.red == c.green && c.green == c.blue, "a grey: \(c)")
                #expect(Contrast.ratio(c, canvas) >= 4.5)
            }
        }
        let blue = Color(red: 0x00, green: 0x7A, blue: 0xFF)
        #expect(ColorDepth.ansi16.parameters(foreground: blue, background: nil, canvas: white) == ";34")
    }

    @Test("contrast ratios and readable colours")
    func ratios() {
        let black = Color(red: 0, green: 0, blue: 0), white = Color(red: 255, green: 255, blue: 255)
        #expect(abs(Contrast.ratio(black, white) - 21) < 0.01)
        #expect(abs(Contrast.ratio(white, white) - 1) < 0.01)
        let blue = Color(red: 0, green: 0, blue: 255)
        let dark = Color(red: 0x1C, green: 0x1C, blue: 0x1E)
        #expect(Contrast.ratio(blue, dark) < 4.5)
        let moved = Contrast.readable(blue, on: dark)
        #expect(Contrast.ratio(moved, dark) >= 4.5 && moved.blue == 255 && moved.red > 0, "\(moved)")
        #expect(Contrast.readable(black, on: white) == black)
    }

    @Test("COLORFGBG and an OSC 11 reply say the theme")
    func detection() {
        #expect(TerminalTheme.fromEnvironment(["COLORFGBG": "15;0"]) == .dark)
        #expect(TerminalTheme.fromEnvironment(["COLORFGBG": "0;default;15"]) == .light)
        #expect(TerminalTheme.fromEnvironment(["COLORFGBG": "12;8"]) == .dark)
        #expect(TerminalTheme.fromEnvironment(["COLORFGBG": "x"]) == nil)
        #expect(TerminalTheme.fromEnvironment([:]) == nil)
        let white = BackgroundQuery.color(in: Array("\u{1B}]11;rgb:ffff/ffff/ffff\u{7}\u{1B}[?62;c".utf8))
        #expect(white.map { [$0.red, $0.green, $0.blue] } == [255, 255, 255])
        let dark = BackgroundQuery.color(in: Array("\u{1B}]11;rgb:1e/1e/20\u{1B}\\".utf8))
        #expect(dark.map { [$0.red, $0.green, $0.blue] } == [0x1E, 0x1E, 0x20])
        #expect(BackgroundQuery.color(in: Array("\u{1B}[?62;c".utf8)) == nil)
        #expect(BackgroundQuery.color(in: Array("\u{1B}]11;rgb:12345/0/0\u{7}".utf8)) == nil)
        #expect(TerminalTheme.ofBackground(Color(red: 0x1E, green: 0x1E, blue: 0x20)) == .dark)
        #expect(TerminalTheme.ofBackground(Color(red: 0xFA, green: 0xFA, blue: 0xFA)) == .light)
    }
}
