// `cellkit render`'s usual argument lists are read without ArgumentParser (RenderArguments):
// whenever that path reads a list, ArgumentParser must read the same settings from it, and
// the lists people type must take it.

import ArgumentParser
import CellKitTestSupport
import Testing

@testable import CellKitCommand

@Suite("render's arguments read without ArgumentParser, as ArgumentParser reads them")
struct RenderArgumentsTests {
    /// ArgumentParser's reading of `arguments` (validation included): the render's settings, or nil.
    func parsed(_ arguments: [String]) -> RenderCommandOptions? {
        (try? CellKitCommand.parseAsRoot(arguments) as? RenderCommand)?.settings
    }

    @Test("the lists people type take the fast path, with ArgumentParser's settings")
    func usual() {
        let lists: [[String]] = [
            ["render", "t.yaml"],
            ["render", "t.yaml", "--no-isolation"],
            ["render", "--format", "html", "t.yaml", "--output", "t.html"],
            ["render", "t.yaml", "--output", "t.json"], ["render", "t.yaml", "--format", "text", "--output=t.html"],
            ["render", "t.yaml", "--format=ansi", "--color", "always", "--select", "2.1"],
            ["render", "t.yaml", "--format=ansi", "--color-depth", "256"], ["render", "t.yaml", "--output", "r.jsonl"],
            [
                "render", "big.yaml", "--width=60", "--rows", "1001..1020", "--plugin-path", "a", "--plugin-path=b",
                "--ascii", "--strict", "--no-cache", "--allow-unsafe-permissions", "--hook-timeout", "2.5",
                "--root", "/srv/tables",
            ],
        ]
        for list in lists {
            let fast = RenderArguments.settings(list)
            #expect(fast != nil, "\(list)")
            #expect(fast == parsed(list), "\(list)")
        }
    }

    @Test("what the fast path leaves to ArgumentParser: help, errors, repeats, values like options")
    func leftToArgumentParser() {
        let lists: [[String]] = [
            ["render"], ["render", "--help"], ["render", "-h"], ["render", "a.yaml", "b.yaml"],
            ["render", "t.yaml", "--width", "19"], ["render", "t.yaml", "--width", "-5"],
            ["render", "t.yaml", "--format", "xml"], ["render", "t.yaml", "--ascii", "--ascii"],
            ["render", "t.yaml", "--ascii=true"], ["render", "--", "t.yaml"], ["render", "t.yaml", "--select", "1"],
            ["render", "t.yaml", "--hook-timeout", "nan"], ["render", "t.yaml", "--colour", "always"],
            ["list"], ["render", "-"],
        ]
        for list in lists { #expect(RenderArguments.settings(list) == nil, "\(list)") }
    }

    /// Arguments drawn from the options, their valid and invalid values, and strays.
    static let pool = [
        "t.yaml", "other.yaml", "", "-", "--", "--format", "text", "ansi", "html", "json", "xml", "--format=html",
        "--format=", "--output=t.html", "--output", "t.json", "--width", "40", "19", "20", "1000", "1001", "-5", "+30",
        "0x20", " 30", "--width=80", "--select",
        "1.0", "2.1", "1.x", "--rows", "0..9", "1..10", "5..", "..3", "9..1", "--output", "o.txt", "--output=",
        "--root", "/r",
        "--ascii", "--ascii=true", "--strict", "--no-isolation", "--no-cache", "--allow-unsafe-permissions",
        "--plugin-path", "p", "--plugin-path=q", "--color", "auto", "always", "never", "sometimes", "--color=never",
        "--hook-timeout", "2", "0", "-1", "nan", "inf", "1e-3", "86400", "86401", "--hook-timeout=0.5", "--help", "-h",
        "--version", "--unknown", "-x", "render", "--width=-3", "--select=0.0", "--rows=..", "=",
        "jsonl", "--format=jsonl", "--color-depth", "256", "16", "truecolor", "none", "8", "--color-depth=16",
    ]

    @Test("10,000 random lists: whenever the fast path reads one, ArgumentParser reads the same settings")
    func random() {
        let result = compareFastReader(
            command: "render", pool: Self.pool, longest: 6, seed: 0xCE11, fast: RenderArguments.settings,
            reference: parsed)
        #expect(result.disagreements.isEmpty, "\(result.disagreements.prefix(5))")
        #expect(result.read > 500, "the generator draws lists the fast path reads: \(result.read)")
    }
}
