// `cellkit list` keeps its output beside the registry cache (`Catalog.derivedOutput`): a warm
// list gives back the same bytes a fresh one writes, in text and JSON, and a kept file is shown
// only if a terminal would show it as it is.

import CellKitTestSupport
import CellKitText
import Foundation
import Testing

@testable import CellKitCommand

@Suite("list's kept output")
struct ListOutputTests {
    /// `lines`, each with its newline, as bytes.
    func bytes(_ lines: [String]) -> [UInt8] { Array(lines.map { $0 + "\n" }.joined().utf8) }

    @Test("what the sanitizer writes is terminal-safe; raw controls, hidden characters and broken UTF-8 are not")
    func terminalSafe() {
        let hostile = "a\u{1B}[31mred\u{202E}x\u{0085}y\u{7F}\u{200B}\tz\r"
        #expect(Output.isTerminalSafe([]))
        #expect(Output.isTerminalSafe(bytes(["plain", "", "日本語 👍🏽 ﷽", TextSanitizer.visible(hostile)])))
        let json = try? Output.jsonBytes(["name": hostile, "日本": "👍"])
        #expect(json.map(Output.isTerminalSafe) == true)
        for bad in ["\u{1B}[2J", "\u{0085}", "\u{202E}", "\u{7F}", "\u{200B}", "tab\there", "cr\r", "nul\u{0}"] {
            #expect(!Output.isTerminalSafe(bytes(["fine", "日本 " + bad])), "\(Array(bad.unicodeScalars))")
        }
        #expect(!Output.isTerminalSafe(Array("no newline at the end".utf8)))
        #expect(!Output.isTerminalSafe(Array("ok\n".utf8) + [0xFF, 0x41, 0x0A]), "not UTF-8")
        #expect(!Output.isTerminalSafe(Array("ok\n".utf8) + [0xE6, 0x97, 0x0A]), "a character cut short")
    }

    @Test("a warm list gives back what a fresh one writes, in text and JSON, and follows a changed plugin")
    func warmEqualsFresh() throws {
        let (plugins, cache) = try Fixtures.cachedPlugins()
        let home = (cache as NSString).deletingLastPathComponent
        func list(_ extra: [String] = []) throws -> String {
            try Fixtures.output(
                Fixtures.cellkit, ["list", "--plugin-path", plugins] + extra, environment: ["XDG_CACHE_HOME": home])
        }
        for format in [[], ["--json"]] {
            let first = try list(format), second = try list(format)
            #expect(first == second)
            #expect(first.contains("FoobarCells") && first.contains("libjunk.so"))
            #expect(try list(format + ["--no-cache"]) == first)
        }
        func kept() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasPrefix("list.") }
        }
        let keptNow = try kept()
        #expect(keptNow.count == 2, "text and JSON, each written anew by --no-cache: \(keptNow)")
        try FileManager.default.removeItem(atPath: plugins + "/libContactsCells.so")
        let after = try list()
        let fresh = try list(["--no-cache"])
        #expect(!after.contains(plugins + "/libContactsCells.so") && after == fresh)
    }
}
