// The help kept as text (HelpScreens.swift) is what ArgumentParser generates for the same command,
// byte for byte, in every spelling the fast path answers; any other width or spelling is left to
// ArgumentParser; the built cellkit prints one or the other. When a kept text differs, the test
// writes HelpScreens.swift anew into the temporary folder and names it: copy it over the source.

import ArgumentParser
import CellKitTestSupport
import CellKitText
import Foundation
import Testing

@testable import CellKitCommand

@Suite("Help kept as text: the bytes ArgumentParser writes")
struct HelpTextsTests {
    /// What `cellkit ARGUMENTS` prints through ArgumentParser at `columns` wide, as main's slow path
    /// prints it (made terminal-safe), or nil when that is no help screen.
    static func generated(_ arguments: [String], columns: Int) -> String? {
        let thrown: any Error
        do {
            var command = try CellKitCommand.parseAsRoot(arguments)
            // A help flag, `help` and `cellkit` alone parse as ArgumentParser's help command or as
            // cellkit itself, which show help by throwing from run(); nothing else is run here.
            guard command is CellKitCommand || type(of: command).configuration.commandName == "help" else {
                return nil
            }
            try command.run()
            return nil
        } catch { thrown = error }
        guard CellKitCommand.exitCode(for: thrown) == .success else { return nil }
        return TextSanitizer.visible(CellKitCommand.fullMessage(for: thrown, columns: columns), keepNewlines: true)
    }

    /// The spellings the fast path answers for `command` (nil: cellkit itself).
    static func spellings(_ command: String?) -> [[String]] {
        guard let command else { return [[], ["--help"], ["-h"], ["help"]] }
        return [[command, "--help"], [command, "-h"], ["help", command]]
    }

    @Test("every kept screen is what ArgumentParser generates now, in every spelling")
    func keptIsGenerated() throws {
        var current: [(String?, String)] = []
        for command in HelpTexts.commands {
            let generated = try #require(Self.generated(Self.spellings(command)[0], columns: HelpTexts.columns))
            current.append((command, generated))
            for arguments in Self.spellings(command) {
                let kept = HelpTexts.requested(arguments[...], width: HelpTexts.columns)
                #expect(kept == Self.generated(arguments, columns: HelpTexts.columns), "cellkit \(arguments)")
            }
        }
        guard current.contains(where: { HelpTexts.text(for: $0.0) != $0.1 }) else { return }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("HelpScreens.swift").path
        try Self.source(current).write(toFile: path, atomically: true, encoding: .utf8)
        Issue.record("the kept help differs from ArgumentParser's: copy \(path) over Sources/CellKitCommand/")
    }

    @Test(
        "other widths, commands and spellings are left to ArgumentParser",
        arguments: [
            (["--help"], 79), (["-h"], 120), (["render", "--help"], 0), (["render", "--help", "--json"], 80),
            (["sdk", "install", "--help"], 80), (["help", "--help"], 80), (["check-worker", "--help"], 80),
            (["render", "t.yaml"], 80), (["--help", "render"], 80), (["--version"], 80), (["render", "--HELP"], 80),
        ])
    func leftToArgumentParser(arguments: [String], width: Int) {
        #expect(HelpTexts.requested(arguments[...], width: width) == nil)
    }

    @Test("the built cellkit prints the kept text 80 columns wide and ArgumentParser's at other widths")
    func builtCellkit() throws {
        for command in HelpTexts.commands {
            let arguments = Self.spellings(command)[0]
            let kept = try Fixtures.output(Fixtures.cellkit, arguments, environment: ["COLUMNS": "80"])
            #expect(kept == (HelpTexts.text(for: command) ?? "") + "\n", "cellkit \(arguments)")
            let narrow = try Fixtures.output(Fixtures.cellkit, arguments, environment: ["COLUMNS": "60"])
            #expect(narrow == (Self.generated(arguments, columns: 60) ?? "") + "\n", "cellkit \(arguments)")
            #expect(narrow != kept)
        }
    }

    /// HelpScreens.swift holding `screens`.
    static func source(_ screens: [(command: String?, text: String)]) -> String {
        var lines = [
            "// The help screens HelpTexts prints, as ArgumentParser writes them 80 columns wide. Generated:",
            "// HelpTextsTests writes this file anew when ArgumentParser's text changes. Do not edit.",
            "",
            "extension HelpTexts {",
            "    /// The help `command` (nil: `cellkit` itself) shows at `columns` wide, as ArgumentParser writes it.",
            "    static func text(for command: String?) -> String? {",
            "        switch command {",
        ]
        for (command, text) in screens {
            lines.append("        case \(command.map { "\"\($0)\"?" } ?? "nil"):")
            lines.append("            return #\"\"\"")
            lines += text.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.isEmpty ? "" : "                " + $0
            }
            lines.append("                \"\"\"#")
        }
        lines += ["        default: return nil", "        }", "    }", "}", ""]
        return lines.joined(separator: "\n")
    }
}
