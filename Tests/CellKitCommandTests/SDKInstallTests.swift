// `cellkit sdk install --prefix P`, then a C plugin built outside the repository with nothing but
// `cc -shared -fPIC $(pkg-config --cflags cellkit)`: the header and cellkit.pc are all it needs.

import CellKitTestSupport
import Foundation
import Testing

@Suite("cellkit sdk install: the header and cellkit.pc")
struct SDKInstallTests {
    let command = CellKitTool()

    /// A plugin as a new author writes it, from the installed header.
    static let plugin = """
        #include <stdio.h>
        #include <cellkit.h>

        CK_PLUGIN("Outside", "2.0.1", "Built with pkg-config alone");

        CK_EXPORT void customizeCellForOutside(ck_cell *cell, ck_index_path ip) {
            char text[48];
            snprintf(text, sizeof text, "outside row %lld", (long long)ip.row);
            ck_set_text(ck_text_label(cell), text);
        }
        """

    @Test("After sdk install --prefix, a plugin built outside the repository with pkg-config's flags lists and renders")
    func pluginFromInstalledSDK() throws {
        let pkgConfig = try #require(
            Fixtures.tool("pkg-config"), "pkg-config is not installed (apt-get install pkg-config)")
        let root = try Fixtures.folder()
        let prefix = root + "/prefix", data = root + "/data", work = root + "/work"
        let installed = try Fixtures.output(
            Fixtures.buildDirectory + "/cellkit", ["sdk", "install", "--prefix", prefix],
            environment: ["XDG_DATA_HOME": data])
        #expect(installed.contains("wrote \(prefix)/include/cellkit/cellkit.h"), "\(installed)")
        #expect(installed.contains("wrote \(prefix)/lib/pkgconfig/cellkit.pc"), "\(installed)")
        #expect(installed.contains("export PKG_CONFIG_PATH=\(prefix)/lib/pkgconfig"), "\(installed)")
        let header = try Data(contentsOf: URL(fileURLWithPath: prefix + "/include/cellkit/cellkit.h"))
        #expect(
            header == (try Data(contentsOf: URL(fileURLWithPath: Fixtures.headerDirectory + "/cellkit.h"))),
            "sdk install writes cellkit.h byte for byte")

        let environment = ["PKG_CONFIG_PATH": prefix + "/lib/pkgconfig"]
        let cflags = try Fixtures.output(pkgConfig, ["--cflags", "cellkit"], environment: environment)
        #expect(cflags.trimmingCharacters(in: .whitespacesAndNewlines) == "-I\(prefix)/include/cellkit")
        let pluginsdir = try Fixtures.output(pkgConfig, ["--variable=pluginsdir", "cellkit"], environment: environment)
        #expect(pluginsdir == data + "/cellkit/plugins\n", "pluginsdir is the user plugin folder cellkit searches")

        // Outside the repository, with the README's line and nothing else.
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: false)
        try Self.plugin.write(toFile: work + "/outside.c", atomically: true, encoding: .utf8)
        _ = try Fixtures.output(
            "/bin/sh",
            [
                "-c",
                #"cd "$0" && cc -shared -fPIC $(pkg-config --cflags cellkit) outside.c -o libOutside.so"#, work,
            ], environment: environment)

        let (listed, list) = try command.cellkit(["list", "--plugin-path", work])
        #expect(listed == 0, "\(list)")
        #expect(list.contains("  Outside  Outside 2.0.1  \(work)/libOutside.so"), "\(list)")
        try "sections:\n  - cell: Outside\n    rows: 2\n".write(
            toFile: work + "/t.yaml", atomically: true, encoding: .utf8)
        let (rendered, table) = try command.cellkit(["render", work + "/t.yaml", "--plugin-path", work])
        #expect(rendered == 0, "\(table)")
        #expect(table.contains("outside row 0") && table.contains("outside row 1"), "\(table)")
    }

    @Test("sdk install names the path and the fix when it cannot write")
    func refusals() throws {
        let root = try Fixtures.folder()
        try Data().write(to: URL(fileURLWithPath: root + "/file"))
        let cases: [(prefix: String, message: String)] = [
            (
                root + "/file",
                "cannot write \(root)/file/include/cellkit/cellkit.h: \(root)/file is a file, not a folder"
            ),
            (root + "/a b", "cannot install under \(root)/a b: its space would break the flags pkg-config gives"),
        ]
        for (prefix, message) in cases {
            let (status, text) = try command.cellkit(["sdk", "install", "--prefix", prefix])
            #expect(status == 1, "\(text)")
            #expect(text.contains(message), "\(text)")
            #expect(text.contains("--prefix"), "the message says what to do: \(text)")
        }
        try FileManager.default.createDirectory(
            atPath: root + "/p/include/cellkit/cellkit.h", withIntermediateDirectories: true)
        let (status, text) = try command.cellkit(["sdk", "install", "--prefix", root + "/p"])
        #expect(status == 1 && text.contains("\(root)/p/include/cellkit/cellkit.h: it is a folder"), "\(text)")
        #expect(
            !FileManager.default.fileExists(atPath: root + "/p/lib/pkgconfig/cellkit.pc"), "nothing more is written")
    }

    @Test("sdk install follows no symbolic link planted below the prefix: refused, the file it names unchanged")
    func plantedLinks() throws {
        let root = try Fixtures.folder()
        let manager = FileManager.default
        let victim = root + "/victim", outside = root + "/outside"
        try "the victim's own text\n".write(toFile: victim, atomically: false, encoding: .utf8)
        try manager.createDirectory(atPath: outside, withIntermediateDirectories: true)

        // A link where the header goes, to a file outside the prefix.
        let prefix = root + "/p"
        try manager.createDirectory(atPath: prefix + "/include/cellkit", withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: prefix + "/include/cellkit/cellkit.h", withDestinationPath: victim)
        var (status, text) = try command.cellkit(["sdk", "install", "--prefix", prefix])
        #expect(status == 1, "\(text)")
        let header = prefix + "/include/cellkit/cellkit.h"
        #expect(text.contains("cannot write \(header): \(header) is a symbolic link"), "\(text)")
        #expect(text.contains("rm \(prefix)/include/cellkit/cellkit.h"), "the message gives the fix: \(text)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "the victim's own text\n")
        #expect(try manager.destinationOfSymbolicLink(atPath: prefix + "/include/cellkit/cellkit.h") == victim)
        #expect(
            try manager.contentsOfDirectory(atPath: prefix + "/include/cellkit") == ["cellkit.h"], "no temporary left")

        // A link in place of a folder below the prefix: nothing is written where it points.
        let second = root + "/q"
        try manager.createDirectory(atPath: second, withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: second + "/lib", withDestinationPath: outside)
        (status, text) = try command.cellkit(["sdk", "install", "--prefix", second])
        #expect(status == 1, "\(text)")
        #expect(text.contains("\(second)/lib is a symbolic link"), "\(text)")
        #expect(try manager.contentsOfDirectory(atPath: outside).isEmpty, "nothing written through the link")

        // A hard link to a file outside, where cellkit.pc goes: replaced, never written into.
        let third = root + "/r"
        try manager.createDirectory(atPath: third + "/lib/pkgconfig", withIntermediateDirectories: true)
        #expect(link(victim, third + "/lib/pkgconfig/cellkit.pc") == 0)
        (status, text) = try command.cellkit(["sdk", "install", "--prefix", third])
        #expect(status == 0, "\(text)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "the victim's own text\n")
        let pc = try String(contentsOfFile: third + "/lib/pkgconfig/cellkit.pc", encoding: .utf8)
        #expect(pc.contains("Name: CellKit"))
    }
}
