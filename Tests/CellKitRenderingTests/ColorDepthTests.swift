// Colour depth: what the environment says (NO_COLOR, COLORTERM, TERM), the nearest colour
// of the 256- and 16-colour palettes, and the SGR codes the ansi format writes at each depth.

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitRendering

@Suite("Colour depth: environment, nearest palette colour, SGR codes")
struct ColorDepthTests {
    @Test(
        "the environment's depth",
        arguments: [
            ([:], ColorDepth.none), (["TERM": "dumb"], .none), (["TERM": ""], .none),
            (["TERM": "xterm"], .ansi16), (["TERM": "linux"], .ansi16), (["TERM": "screen"], .ansi16),
            (["TERM": "xterm-256color"], .ansi256), (["TERM": "tmux-256color"], .ansi256),
            (["TERM": "xterm-direct"], .truecolor), (["TERM": "xterm", "COLORTERM": "truecolor"], .truecolor),
            (["TERM": "xterm-256color", "COLORTERM": "24bit"], .truecolor),
            (["TERM": "xterm-256color", "COLORTERM": "yes"], .ansi256),
            (["TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"], .none),
            (["TERM": "xterm-256color", "NO_COLOR": ""], .ansi256),
        ] as [([String: String], ColorDepth)])
    func environment(_ environment: [String: String], _ depth: ColorDepth) {
        #expect(ColorDepth.fromEnvironment(environment) == depth, "\(environment)")
    }

    @Test(
        "the nearest of the xterm 256 colours (cube or grey ramp, 16-255)",
        arguments: [
            (0xFF00_00FF, 196), (0x0000_00FF, 16), (0xFFFF_FFFF, 231), (0x8080_80FF, 244), (0x007A_FFFF, 33),
            (0xC6C6_C8FF, 251), (0x8E8E_93FF, 246), (0x0808_08FF, 232), (0x5F87_AFFF, 67),
        ] as [(UInt32, Int)])
    func nearest256(_ raw: UInt32, _ index: Int) {
        #expect(ColorDepth.nearest256(Color(rawValue: raw)) == index, "\(Color(rawValue: raw))")
    }

    @Test("every palette colour maps to itself (256: the cube and the ramp; 16: all)")
    func exactColours() {
        for (k, level) in zip(0..., (0..<216).map { n in (n / 36, n / 6 % 6, n % 6) }) {
            let levels = ColorDepth.cubeLevels
            let c = Color(red: UInt8(levels[level.0]), green: UInt8(levels[level.1]), blue: UInt8(levels[level.2]))
            #expect(ColorDepth.nearest256(c) == 16 + k)
        }
        for k in 0..<24 {
            let v = UInt8(8 + 10 * k)
            #expect(ColorDepth.nearest256(Color(red: v, green: v, blue: v)) == 232 + k)
        }
        for (k, c) in ColorDepth.ansi16Palette.enumerated() {
            #expect(ColorDepth.nearest16(Color(red: c.0, green: c.1, blue: c.2)) == k)
        }
    }

    @Test(
        "the nearest of the 16 ANSI colours",
        arguments: [
            (0xFF00_00FF, 9), (0xCD00_00FF, 1), (0x0000_00FF, 0), (0xC6C6_C8FF, 7), (0x007A_FFFF, 12),
            (0xFF3B_30FF, 9), (0x6D6D_72FF, 8), (0xFFFF_FFFF, 15),
        ] as [(UInt32, Int)])
    func nearest16(_ raw: UInt32, _ index: Int) {
        #expect(ColorDepth.nearest16(Color(rawValue: raw)) == index, "\(Color(rawValue: raw))")
    }

    @Test("SGR codes at each depth: 38;2 / 38;5;N / 30-37, 90-97 (40-47, 100-107) / attributes only")
    func sgr() {
        let style = TextStyle(
            foreground: Color(red: 255, green: 0, blue: 0), background: Color(red: 0, green: 0, blue: 0), bold: true)
        #expect(TextFormat.sgr(style, depth: .truecolor) == "\u{1B}[0;1;38;2;255;0;0;48;2;0;0;0m")
        #expect(TextFormat.sgr(style, depth: .ansi256) == "\u{1B}[0;1;38;5;196;48;5;16m")
        #expect(TextFormat.sgr(style, depth: .ansi16) == "\u{1B}[0;1;91;40m")
        #expect(TextFormat.sgr(style, depth: .none) == "\u{1B}[0;1m")
        let dark = TextStyle(
            foreground: Color(red: 0xCD, green: 0, blue: 0), background: Color(red: 255, green: 255, blue: 255))
        #expect(TextFormat.sgr(dark, depth: .ansi16) == "\u{1B}[0;31;107m")
    }

    @Test("a whole table in ansi at each depth writes only that depth's codes", arguments: ColorDepth.allCases)
    func table(_ depth: ColorDepth) throws {
        let sink = StringSink()
        try Render.run(Render.manifest("showcase.yaml"), .ansi, into: sink, colorDepth: depth)
        let sequences = Set(sink.text.matches(of: /\x1B\[([0-9;]*)m/).map { String($0.1) })
        #expect(sink.text.contains("38;2;") == (depth == .truecolor))
        #expect(sink.text.contains("38;5;") == (depth == .ansi256))
        if depth == .ansi16 {  // every colour code a basic one
            let codes = sequences.flatMap { $0.split(separator: ";").compactMap { Int($0) } }
            #expect(
                codes.allSatisfy {
                    [0, 1, 2].contains($0) || (30...37).contains($0) || (90...97).contains($0)
                        || (40...47).contains($0) || (100...107).contains($0)
                }, "\(sequences)")
            #expect(codes.contains { (90...97).contains($0) || (30...37).contains($0) })
        }
        if depth == .none { #expect(sequences.isSubset(of: ["0", "0;1", "0;2", "0;1;2"]), "\(sequences)") }
    }
}
