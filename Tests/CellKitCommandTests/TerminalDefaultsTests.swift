// Terminal defaults: a document wider than the terminal is drawn as wide as the terminal
// (with one warning naming both widths and --width), --color-depth and the environment's
// depth. The widths on the settings; then cellkit itself under a pseudo-terminal (script(1)),
// its window set to 40 columns with stty.

import CellKit
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitCommand

@Suite("Terminal defaults: the width capped at the terminal's, colour depth")
struct TerminalDefaultsTests {
    static let table = """
        title: Wide
        width: 64
        sections:
          - rows:
              - {cell: Subtitle, text: "A long text that wraps somewhere in the row", detail: "a detail"}

        """

    func document() throws -> (String, TableDocument) {
        let folder = try Render.write(["t.yaml": Self.table])
        return (folder + "/t.yaml", try TableDocument(contentsOf: folder + "/t.yaml"))
    }

    @Test("the document's width, cut to a narrower terminal with a warning; --width, --output and json are not cut")
    func widths() throws {
        let (path, document) = try document()
        let plain = RenderCommandOptions(table: path)
        let (width, warning) = plain.tableWidth(document, terminalColumns: 40)
        #expect(width == 40)
        let text = try #require(warning)
        #expect(text.contains("64 columns") && text.contains("has 40") && text.contains("--width 64"), "\(text)")
        #expect(plain.tableWidth(document, terminalColumns: 100) == (64, nil))
        #expect(plain.tableWidth(document, terminalColumns: nil) == (64, nil))
        var forced = plain
        forced.width = 70
        #expect(forced.tableWidth(document, terminalColumns: 40) == (70, nil))
        var file = plain
        file.output = "/tmp/t.txt"
        #expect(file.tableWidth(document, terminalColumns: 40) == (64, nil))
        var json = plain
        json.format = .json
        #expect(json.tableWidth(document, terminalColumns: 40) == (64, nil), "JSON keeps the document's layout")
        var unset = document
        unset.width = nil
        #expect(plain.tableWidth(unset, terminalColumns: 52) == (52, nil))
        #expect(plain.tableWidth(unset, terminalColumns: nil) == (80, nil))
    }

    @Test("--color-depth is read by both parsers; without ansi it warns; .jsonl names jsonl")
    func options() throws {
        for depth in ["truecolor", "256", "16", "none"] {
            let arguments = ["render", "t.yaml", "--format", "ansi", "--color-depth", depth]
            let fast = try #require(RenderArguments.settings(arguments))
            let parsed = try #require(try CellKitCommand.parseAsRoot(arguments) as? RenderCommand).settings
            #expect(fast == parsed && fast.colorDepth == ColorDepth(rawValue: depth))
        }
        #expect(RenderArguments.settings(["render", "t.yaml", "--color-depth", "8"]) == nil)
        let warned = try #require(RenderArguments.settings(["render", "t.yaml", "--color-depth", "16"]))
        #expect(warned.optionWarnings.first?.hasPrefix("--color-depth: the text format has no colour") == true)
        #expect(RenderCommandOptions.format(forExtensionOf: "out/t.jsonl") == .jsonl)
        #expect(RenderCommandOptions.format(forExtensionOf: "T.NDJSON") == .jsonl)
    }

    /// Runs `cellkit arguments` in a pseudo-terminal 40 columns wide with `environment`; what the
    /// terminal got (standard output and error), carriage returns taken out.
    func underTerminal(_ arguments: [String], environment: [String: String]) throws -> String {
        let script = try #require(Fixtures.tool("script"), "script(1) (util-linux) runs cellkit under a terminal")
        let quoted = ([Fixtures.cellkit] + arguments).map { "'\($0)'" }.joined(separator: " ")
        // A light background said by COLORFGBG: `--theme auto` asks the terminal otherwise (OSC 11),
        // and script(1)'s terminal has nobody to answer.
        let said = ["COLORFGBG": "0;15"].merging(environment) { $1 }
        let settings = said.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let result = try Fixtures.execute(
            script, ["-qec", "stty cols 40 rows 30; env -u NO_COLOR -u COLORTERM \(settings) \(quoted)", "/dev/null"])
        #expect(result.status == 0, "\(result.output)\(result.errors)")
        return result.output.replacingOccurrences(of: "\r", with: "")
    }

    /// The lines of `output` without their SGR sequences.
    func plainLines(_ output: String) -> [String] {
        output.replacing(/\x1B\[[0-9;]*m/, with: "").components(separatedBy: "\n")
    }

    @Test("under a 40-column terminal: drawn 40 wide, one warning first; TERM's depth; NO_COLOR: no colour")
    func pseudoTerminal() throws {
        let (path, _) = try document()
        let output = try underTerminal(["render", path, "--format", "ansi"], environment: ["TERM": "xterm-256color"])
        let lines = plainLines(output)
        #expect(lines.first?.hasPrefix("warning: the table is 64 columns wide") == true, "\(output)")
        #expect(output.components(separatedBy: "warning:").count - 1 == 1, "warned once")
        let table = lines.dropFirst().filter { !$0.isEmpty }
        #expect(table.contains { $0.count == 40 } && table.allSatisfy { $0.count <= 40 }, "\(table)")
        #expect(output.contains("\u{1B}[0;38;5;") && !output.contains("38;2;"), "256 colours from TERM")
        let wide = try underTerminal(["render", path, "--width", "64"], environment: ["TERM": "xterm-256color"])
        #expect(!wide.contains("warning:") && plainLines(wide).contains { $0.count == 64 }, "\(wide)")
        let noColor = try underTerminal(["render", path], environment: ["TERM": "xterm-256color", "NO_COLOR": "1"])
        #expect(!noColor.contains("\u{1B}["), "NO_COLOR: text")
        let forced = try underTerminal(
            ["render", path, "--format", "ansi", "--color-depth", "16"],
            environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"])
        #expect(!forced.contains("38;2;") && !forced.contains("38;5;") && forced.contains("\u{1B}[0;1m"))
    }

    @Test("NO_COLOR and TERM=dumb win over --color always (weight only) unless --color-depth is given")
    func refusedColour() throws {
        let (path, _) = try document()
        let arguments = ["render", path, "--format", "ansi", "--color", "always"]
        for environment in [["NO_COLOR": "1", "TERM": "xterm-256color"], ["TERM": "dumb"]] {
            let plain = try Fixtures.execute(Fixtures.cellkit, arguments, environment: environment)
            #expect(plain.status == 0 && plain.output.contains("\u{1B}[0;1m"), "\(environment): weight")
            #expect(!plain.output.contains("38;") && !plain.output.contains("48;"), "\(environment): no colour")
            let asked = try Fixtures.execute(
                Fixtures.cellkit, arguments + ["--color-depth", "256"], environment: environment)
            #expect(asked.output.contains("38;5;"), "\(environment): --color-depth wins")
        }
        let pipe = try Fixtures.execute(
            Fixtures.cellkit, arguments, environment: ["TERM": "", "NO_COLOR": "", "COLORTERM": ""])
        #expect(pipe.output.contains("38;2;"), "no TERM at all (a pipe in CI): 24-bit colour, as asked")
    }

    @Test("--format ansi into a pipe or a file means colour (issue 41: it wrote none, silently); --color never: none")
    func ansiIntoAPipe() throws {
        let (path, _) = try document()
        let environment = ["TERM": "xterm-256color", "NO_COLOR": "", "COLORTERM": ""]
        let piped = try Fixtures.execute(
            Fixtures.cellkit, ["render", path, "--format", "ansi"], environment: environment)
        #expect(piped.status == 0 && piped.output.contains("\u{1B}[0;38;5;"), "\(piped.output)")
        let file = try Fixtures.folder("ansifile") + "/t.txt"
        let written = try Fixtures.execute(
            Fixtures.cellkit, ["render", path, "--format", "ansi", "--output", file], environment: environment)
        let contents = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written.status == 0 && contents.contains("\u{1B}["), "--output: colour in the file")
        let never = try Fixtures.execute(
            Fixtures.cellkit, ["render", path, "--format", "ansi", "--color", "never"], environment: environment)
        #expect(never.status == 0 && !never.output.contains("\u{1B}["), "--color never: plain text")
        let plain = try Fixtures.execute(Fixtures.cellkit, ["render", path], environment: environment)
        #expect(!plain.output.contains("\u{1B}["), "text, the default format, has no colour")
    }
}
