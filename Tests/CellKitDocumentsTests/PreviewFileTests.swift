// The preview file beside a plugin (libfoo.preview.yaml): its name, its samples after the
// plugin's own CK_PREVIEW ones, and a warning naming the file, sample and fix for each bad one.

import CellKitDiscovery
import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDocuments

@Suite struct PreviewFileTests {
    /// `libfoo.so` with the type `Foo` and `source` added, and `yaml` as its preview file when given.
    private func plugin(_ source: String = "", yaml: String? = nil, in dir: String) throws -> PluginFile {
        let path = try Fixtures.compileC(minimalPlugin("Foo") + "\n" + source + "\n", name: "foo", in: dir)
        if let yaml { try yaml.write(toFile: dir + "/libfoo.preview.yaml", atomically: true, encoding: .utf8) }
        return try PluginFile.read(path: path).get()
    }

    @Test func isNamedAfterThePluginWithoutItsSuffix() {
        #expect(PreviewFile.path(forPlugin: "/p/libfoo.so") == "/p/libfoo.preview.yaml")
        #expect(PreviewFile.path(forPlugin: "/p/libfoo.so.1.2") == "/p/libfoo.preview.yaml")
        #expect(PreviewFile.path(forPlugin: "/p/libfoo.so.x") == "/p/libfoo.so.x.preview.yaml")
        #expect(PreviewFile.path(forPlugin: "libfoo.so") == "libfoo.preview.yaml")
        #expect(PreviewFile.path(forPlugin: "./libfoo.so") == "./libfoo.preview.yaml")
    }

    @Test func isLookedForBesideThePluginThenAtTheTopOfItsSwiftPMPackage() throws {
        #expect(PreviewFile.candidates(forPlugin: "/p/libfoo.so") == ["/p/libfoo.preview.yaml"])
        #expect(
            PreviewFile.candidates(forPlugin: "/p/Foo/.build/x86_64-unknown-linux-gnu/debug/libFoo.so") == [
                "/p/Foo/.build/x86_64-unknown-linux-gnu/debug/libFoo.preview.yaml", "/p/Foo/libFoo.preview.yaml",
            ])
        #expect(
            PreviewFile.candidates(forPlugin: ".build/debug/libFoo.so") == [
                ".build/debug/libFoo.preview.yaml", "libFoo.preview.yaml",
            ])
        let dir = try Fixtures.folder()
        let build = dir + "/.build/debug"
        try FileManager.default.createDirectory(atPath: build, withIntermediateDirectories: true)
        let path = try Fixtures.compileC(minimalPlugin("Foo"), name: "foo", in: build)
        let file = try PluginFile.read(path: path).get()
        try "Foo:\n  top: {text: a}\n".write(toFile: dir + "/libfoo.preview.yaml", atomically: true, encoding: .utf8)
        #expect(file.previews().samples.map(\.name) == ["top"])
        try "Foo:\n  beside: {text: b}\n".write(
            toFile: build + "/libfoo.preview.yaml", atomically: true, encoding: .utf8)
        #expect(file.previews().samples.map(\.name) == ["beside"], "the file beside the plugin wins")
    }

    @Test func addsTheFilesSamplesAfterTheSymbols() throws {
        let dir = try Fixtures.folder()
        let file = try plugin(
            #"CK_PREVIEW(Foo, empty, "{}");"#,
            yaml: """
                # samples for libfoo.so
                Foo:
                  long:
                    text: \(String(repeating: "word ", count: 60))
                    count: 3
                    on: yes
                  rtl: {text: "مرحبا بالعالم", tags: [a, 2, null]}
                """, in: dir)
        let previews = file.previews()
        #expect(previews.warnings == [])
        #expect(previews.samples.map(\.name) == ["empty", "long", "rtl"])
        #expect(previews.samples[1].origin == .file(path: dir + "/libfoo.preview.yaml", line: 3))
        #expect(previews.samples[1].place == "libfoo.preview.yaml:3")
        #expect(previews.samples[1].data.value(at: "count") == .number(3))
        #expect(previews.samples[1].data.value(at: "on") == .bool(true))
        #expect(
            previews.samples[2].data
                == .object(["text": .string("مرحبا بالعالم"), "tags": .list([.string("a"), .number(2), .null])]))
    }

    @Test func aPluginWithoutAFileHasItsSymbolsAlone() throws {
        let dir = try Fixtures.folder()
        let previews = try plugin(#"CK_PREVIEW(Foo, a, "{\"text\": \"x\"}");"#, in: dir).previews()
        #expect(previews.warnings == [])
        #expect(previews.samples.map(\.name) == ["a"])
    }

    @Test func seesAnEditedFileAtOnce() throws {
        let dir = try Fixtures.folder()
        let file = try plugin(yaml: "Foo:\n  one: {text: a}\n", in: dir)
        #expect(file.previews().samples.map(\.name) == ["one"])
        try "Foo:\n  two: {text: b}\n".write(toFile: dir + "/libfoo.preview.yaml", atomically: true, encoding: .utf8)
        #expect(file.previews().samples.map(\.name) == ["two"])
    }

    @Test func leavesOutEachBadSampleWithAWarning() throws {
        let dir = try Fixtures.folder()
        let long = String(repeating: "x", count: PreviewSample.maxBytes)
        let file = try plugin(
            #"CK_PREVIEW(Foo, taken, "{}");"#,
            yaml: """
                Foo:
                  taken: {}
                  bad_name: {}
                  scalar: 3
                  list: [1]
                  huge: {text: \(long)}
                  fine: {}
                Bar:
                  x: {}
                Baz: 3
                """, in: dir)
        let previews = file.previews()
        #expect(previews.samples.map(\.name) == ["taken", "fine"])
        let p = file.path
        func warning(_ id: String, _ name: String, _ line: Int, _ problem: String) -> String {
            "\(p): preview \(id) \"\(name)\" (libfoo.preview.yaml:\(line)) left out: \(problem)"
        }
        #expect(
            previews.warnings == [
                warning(
                    "Foo", "taken", 2, "a sample of that name comes first; give each sample of a type its own name"),
                warning(
                    "Foo", "bad_name", 3,
                    "'bad_name' is not a sample name: an ASCII letter, then ASCII letters or digits (no underscore), at most 32"
                ),
                warning(
                    "Foo", "scalar", 4,
                    "it is a number, not a mapping; give the sample's keys and values under its name"),
                warning(
                    "Foo", "list", 5, "it is a list, not a mapping; give the sample's keys and values under its name"),
                warning(
                    "Foo", "huge", 6,
                    "its data, as JSON, has \(PreviewSample.maxBytes + 11) bytes, over the limit of \(PreviewSample.maxBytes); shorten it"
                ),
                warning("Bar", "x", 9, "the plugin has no cell type Bar (its types: Foo); name one of its types"),
                "\(p): preview file: \(dir)/libfoo.preview.yaml:10:6: expected a mapping of sample names to their data, found '3'",
            ])
    }

    @Test func aFileThatCannotBeReadIsOneWarningAndNoCrash() throws {
        let dir = try Fixtures.folder()
        let yamlPath = dir + "/libfoo.preview.yaml"
        let cases: [(bytes: [UInt8], message: String)] = [
            (
                Array("Foo:\n  a: {text: caf".utf8) + [0xE9] + Array("}\n".utf8),
                "1:1: the file is not UTF-8 text; save it as UTF-8"
            ),
            (
                Array("Foo:\n  a: {text: \"x".utf8) + [0x1B] + Array("\"}\n".utf8),
                #"2:15: the control byte 0x1B is not allowed in YAML; write it as an escape in a double-quoted text ("\e", "\x1B")"#
            ),
            (Array("- a\n- b\n".utf8), "1:1: expected a mapping of cell identifiers to their samples, found a list"),
            (Array("".utf8), "1:1: the document is empty; expected a mapping"),
        ]
        let file = try plugin(in: dir)
        for (bytes, message) in cases {
            try Data(bytes).write(to: URL(fileURLWithPath: yamlPath))
            let previews = file.previews()
            #expect(previews.samples.isEmpty)
            #expect(previews.warnings == ["\(file.path): its preview file cannot be read: \(yamlPath):\(message)"])
        }
        try Data("Foo: {a: [".utf8).write(to: URL(fileURLWithPath: yamlPath))
        let broken = file.previews()
        #expect(broken.samples.isEmpty && broken.warnings.count == 1)
        #expect(broken.warnings.first?.hasPrefix("\(file.path): its preview file cannot be read: \(yamlPath):") == true)
        try FileManager.default.removeItem(atPath: yamlPath)
        try FileManager.default.createDirectory(atPath: yamlPath, withIntermediateDirectories: false)
        #expect(file.previews().warnings.first?.contains("not a regular file") == true)
    }
}
