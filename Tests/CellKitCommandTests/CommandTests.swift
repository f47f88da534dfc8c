// The cellkit command's list, inspect and render: what they show of plugins and built-in cell
// types, hostile names made visible, bad options refused with the fix.

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDiscovery
@testable import CellKitRuntime

@Suite("The cellkit command")
struct CommandTests {
    /// Runs the built `cellkit` with `arguments`; returns its exit status and output.
    func cellkit(_ arguments: [String]) throws -> (Int32, String) { try CellKitTool().cellkit(arguments) }

    @Test("A bidirectional override or escape in a plugin's name and file name is shown visibly by list and inspect")
    func hostileNames() throws {
        let dir = try Fixtures.folder()
        // The descriptor's name holds U+202E (which would show "exe.txt" reversed) and an escape sequence.
        let source = minimalPlugin("Hostile", name: "Evil\\u202Etxt.exe\\x1b[2J")
        let path = try Fixtures.compileC(source, name: "evil\u{202E}os", in: dir)
        for arguments in [["list", "--plugin-path", dir], ["inspect", path]] {
            let (status, text) = try cellkit(arguments)
            #expect(status == 0, "\(arguments[0]): \(text)")
            #expect(text.contains("Evil‹U+202E›txt.exe␛[2J"), "\(arguments[0]) shows the name visibly:\n\(text)")
            #expect(text.contains("libevil‹U+202E›os.so"), "\(arguments[0]) shows the file name visibly")
            #expect(
                !text.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x1B },
                "\(arguments[0]) prints none raw")
        }
        for arguments in [["list", "--json", "--plugin-path", dir], ["inspect", "--json", path]] {
            let (_, json) = try cellkit(arguments)
            #expect(json.contains("Evil\\u202etxt.exe\\u001b[2J"), "\(arguments[0]) --json escapes them:\n\(json)")
            #expect(
                !json.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x1B },
                "\(arguments[0]) --json prints none raw")
        }
    }

    @Test("A plugin built with the plain cc line and given with --plugin-path is listed, first on the path")
    func handCompiled() throws {
        let dir = try Fixtures.folder()
        let path = try Fixtures.compileC(minimalPlugin("Handmade", name: "Handmade"), name: "handmade", in: dir)
        let (status, text) = try cellkit(["list", "--json", "--plugin-path", dir])
        #expect(status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        let types = json["cellTypes"] as! [[String: Any]]
        let handmade = try #require(types.first { $0["identifier"] as? String == "Handmade" })
        #expect(handmade["file"] as? String == path)
        #expect(types.contains { $0["identifier"] as? String == "Partner" }, "the Swift plugin beside the binary")
        #expect(types.contains { $0["identifier"] as? String == "Foobar" }, "the C plugin beside the binary")
    }

    @Test(
        "inspect shows hooks, problems and near misses, and fails for an unusable plugin; hostile text is made visible")
    func inspect() throws {
        let dir = try Fixtures.folder()
        let path = try Fixtures.compileC(
            minimalPlugin("Evil", name: "Evil\\033]0;pwned\\007", abi: (2, 0)), name: "evil", in: dir)
        let (status, text) = try cellkit(["inspect", path])
        #expect(status == 1)
        #expect(text.contains("plugin       Evil␛]0;pwned␇ 9.9"))
        #expect(text.contains("ABI          2.0 (host 1.4: incompatible)"))
        #expect(!text.contains("\u{1B}"), "no escape sequence from the file reaches the terminal")

        let (ok, foobar) = try cellkit(["inspect", "Bar"])
        #expect(ok == 0)
        #expect(
            foobar.contains("customizeCellForBar        void (cell, section, row, data)\n"), "in registers: no mark")

        let (unknown, message) = try cellkit(["inspect", "Fobar"])
        #expect(unknown != 0 && message.contains("Did you mean 'Foobar'?"))
    }

    @Test("inspect lists each type's preview samples, from its symbols and its preview file, and warns of bad ones")
    func inspectPreviews() throws {
        let dir = try Fixtures.folder()
        let source =
            minimalPlugin("Foo") + "\nCK_CUSTOMIZE_CELL_FOR(Bare) { (void)cell; }\n"
                + #"""
                CK_PREVIEW(Foo, empty, "{}");
                CK_PREVIEW(Foo, rtl, "{\"text\": \"שלום \\u001b עולם\"}");
                CK_PREVIEW(Foo, broken, "{\"text\": ");
                """#
        let path = try Fixtures.compileC(source, name: "foo", in: dir)
        let long = String(repeating: "long ", count: 30) + "end"
        try "Foo:\n  long: {text: \(long)}\n".write(
            toFile: dir + "/libfoo.preview.yaml", atomically: true, encoding: .utf8)
        let (status, text) = try cellkit(["inspect", path])
        #expect(status == 0, "a bad sample leaves the plugin usable")
        let json = #"{"text":"\#(long)"}"#
        #expect(
            text.contains(
                """
                    Bare
                      customizeCellForBare  void (cell, indexPath)
                      no previews (ship sample rows with CK_PREVIEW or in libfoo.preview.yaml)
                    Foo
                      customizeCellForFoo  void (cell, indexPath)
                      previews (3):
                        empty  {}  (symbol cellkit_preview_Foo_empty)
                        rtl    {"text":"שלום \\u001b עולם"}  (symbol cellkit_preview_Foo_rtl)
                        long   \(json.prefix(InspectCommandPreviewWidth.value - 1))…  (libfoo.preview.yaml:2)
                  preview warnings:
                    - \(path): preview Foo "broken" (symbol cellkit_preview_Foo_broken) left out: not valid JSON
                """), "\(text)")
        #expect(!text.contains("\u{1B}"))
        let (jsonStatus, output) = try cellkit(["inspect", "--json", path])
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        let samples = object?["previews"] as? [[String: Any]] ?? []
        #expect(jsonStatus == 0 && samples.count == 3)
        #expect(
            samples.last?["name"] as? String == "long" && samples.last?["from"] as? String == "libfoo.preview.yaml:2")
        #expect((samples.last?["data"] as? [String: Any])?["text"] as? String == long)
        #expect((object?["previewWarnings"] as? [String])?.count == 1)
        #expect(object?["cellTypes"] != nil, "the plugin's own keys are kept")
    }

    @Test("inspect of a built-in cell type says what it fills from the row's data")
    func inspectBuiltin() throws {
        let (status, text) = try cellkit(["inspect", "Default"])
        #expect(status == 0, "\(text)")
        #expect(text.hasPrefix("Default: a built-in cell type (no plugin"), "\(text)")
        #expect(text.contains("  text         from \"text\", else \"title\"\n"))
        #expect(text.contains("(not shown in this style)"))
        let (jsonStatus, json) = try cellkit(["inspect", "Value2", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(jsonStatus == 0 && object?["builtin"] as? Bool == true && object?["style"] as? String == "value2")
    }
}

@Suite("cellkit render and the built-in cell types")
struct RenderCommandTests {
    let command = CommandTests()

    @Test("render draws the showcase; every format exits 0")
    func showcase() throws {
        for format in ["text", "ansi", "html", "json"] {
            let (status, text) = try command.cellkit(["render", Render.manifest("showcase.yaml"), "--format", format])
            #expect(status == 0, "\(format): \(text)")
            #expect(text.contains("CellKit showcase"))
        }
    }

    @Test("a broken document fails with file:line:column, and --output leaves the old file as it was")
    func brokenDocument() throws {
        let folder = try Render.write([
            "table.yaml": "sections:\n  - rows:\n      - {cell: Foobr}\n", "out.txt": "previous",
        ])
        let (status, text) = try command.cellkit(["render", folder + "/table.yaml", "--output", folder + "/out.txt"])
        #expect(status != 0)
        #expect(
            text.contains("table.yaml:3:9: no usable plugin provides cell identifier 'Foobr'. Did you mean 'Foobar'?"))
        #expect(try String(contentsOfFile: folder + "/out.txt", encoding: .utf8) == "previous")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["out.txt", "table.yaml"])
    }

    @Test("--output writes the file; bad options are refused with the fix")
    func outputAndOptions() throws {
        let folder = try Fixtures.folder()
        let (status, _) = try command.cellkit([
            "render", Render.manifest("seed-004-foobar.yaml"), "--output", folder + "/t.html", "--format", "html",
        ])
        #expect(status == 0)
        #expect(try String(contentsOfFile: folder + "/t.html", encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        let (bad, message) = try command.cellkit(["render", Render.manifest("seed-004-foobar.yaml"), "--select", "one"])
        #expect(bad != 0)
        #expect(message.contains("--select 'one' is not SECTION.ROW counted from 1; write it like 2.1"))
    }

    @Test("a plugin type named like a built-in is reported as shadowed; the built-in wins")
    func builtinWins() throws {
        let dir = try Fixtures.folder()
        let path = try Fixtures.compileC(minimalPlugin("Subtitle", name: "Impostor"), name: "impostor", in: dir)
        let catalog = Catalog(options: Fixtures.options([dir]))
        #expect(
            catalog.shadowed == [
                Shadowing(identifier: try CellIdentifier("Subtitle"), winner: "built-in", shadowed: path)
            ])
        let registry = CellRegistry(catalog: catalog)
        #expect(try registry.cellType(named: "Subtitle").isBuiltin)
        #expect(!registry.isLoaded(pluginAt: path))
        let (_, text) = try command.cellkit(["list", "--plugin-path", dir])
        #expect(text.contains("Subtitle: \(path)  is shadowed by  built-in"))
    }
}

/// `InspectCommand.previewWidth` (the executable's, which tests cannot import): a sample's JSON is cut there.
enum InspectCommandPreviewWidth { static let value = 72 }
