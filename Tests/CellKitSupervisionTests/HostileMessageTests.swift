// Errors and warnings quote documents, file names and plugins: whatever they
// hold, nothing reaches the terminal raw (a clipboard write, a screen clear).

import CellKitTestSupport
import Foundation
import Testing

@Suite("Hostile text in messages")
struct HostileMessageTests {
    let command = CellKitTool()
    /// OSC 52 (write the clipboard), then clear the screen, then a right-to-left override,
    /// as YAML escapes in a double-quoted text (YAML refuses them raw).
    static let payload = #"\e]52;c;aGk=\a\e[2J\u202E"#

    /// Runs `cellkit render` on `yaml` (with `files` beside it) and returns status and output.
    func render(_ yaml: String, files: [String: String] = [:], name: String = #function) throws -> (Int32, String) {
        let folder = try Render.write(files.merging(["table.yaml": yaml]) { a, _ in a }, name: name)
        return try command.cellkit(["render", folder + "/table.yaml"])
    }

    /// No escape, bell or override raw, and the payload shown: as pictures, or (names that
    /// are not identifiers) as Swift escapes.
    func expectInert(_ output: String, _ what: Comment, shown: String = "␛]52;c;aGk=␇␛[2J‹U+202E›") {
        #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E }, what)
        #expect(output.contains(shown), what)
    }

    @Test("An unknown key holding escape sequences is shown visibly in the error")
    func unknownKey() throws {
        let (status, output) = try render("title: t\n\"k\(Self.payload)\": 1\nsections: []\n")
        #expect(status == 1)
        expectInert(output, "unknown key: \(output)")
    }

    @Test("A bad style value, a rowsFrom name and an identifier holding escape sequences are shown visibly")
    func badValues() throws {
        let (s1, o1) = try render("style: \"g\(Self.payload)\"\nsections: []\n")
        #expect(s1 == 1)
        expectInert(o1, "style: \(o1)")
        let (s2, o2) = try render("sections:\n  - {cell: Default, rowsFrom: \"r\(Self.payload).csv\"}\n")
        #expect(s2 == 1)
        expectInert(o2, "rowsFrom: \(o2)")
        let (s3, o3) = try render("sections:\n  - rows: [{cell: \"X\(Self.payload)\"}]\n")
        #expect(s3 == 1)
        expectInert(o3, "identifier: \(o3)", shown: #"X\u{1B}]52;c;aGk=\u{07}\u{1B}[2J‹U+202E›"#)
    }

    @Test("A warning quoting an image name holding escape sequences is shown visibly")
    func warning() throws {
        let (status, output) = try render(
            "sections:\n  - rows: [{cell: Default, text: x, image: \"i\(Self.payload)\"}]\n")
        #expect(status == 0)
        expectInert(output, "warning: \(output)")
    }
}
