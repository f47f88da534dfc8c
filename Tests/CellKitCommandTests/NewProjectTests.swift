// `cellkit new c|swift NAME`: the project it writes builds with the one command it prints, lists,
// renders its sample table and passes `cellkit check --table` as written.

import CellKitTestSupport
import Foundation
import Testing

@Suite("cellkit new: C and Swift plugin projects that build, list, render and pass check")
struct NewProjectTests {
    let command = CellKitTool()

    /// CI sets CELLKIT_REQUIRE_MAKE=1 (after installing make): a missing make fails there.
    static let makeRequired = ProcessInfo.processInfo.environment["CELLKIT_REQUIRE_MAKE"] == "1"

    /// Whether the `make` tests can run: make is installed, or required (and then they say it is missing).
    static var makeAvailable: Bool { makeRequired || Fixtures.tool("make") != nil }

    /// Fails the test when make is required and missing.
    func requireMake() throws {
        try #require(Fixtures.tool("make") != nil, "make is not on PATH, and CELLKIT_REQUIRE_MAKE is set")
    }

    /// Runs `tool` in `folder`; fails the test with its output unless it exits 0.
    func run(_ tool: String, _ arguments: [String], in folder: String, environment: [String: String] = [:]) throws
        -> String
    {
        let result = try Fixtures.execute(tool, arguments, environment: environment, in: folder)
        try #require(result.status == 0, "\(tool) \(arguments) in \(folder):\n\(result.output)\(result.errors)")
        return result.output + result.errors
    }

    /// `cellkit list`, `render NAME.yaml` and `check lib NAME.so --table NAME.yaml` on the built plugin.
    func checkBuilt(_ name: String, library: String, project: String) throws {
        let folder = (library as NSString).deletingLastPathComponent
        let (listed, list) = try command.cellkit(["list", "--plugin-path", folder])
        #expect(listed == 0 && list.contains("  \(name)  \(name) 0.1.0  \(library)"), "\(list)")
        let (rendered, table) = try command.cellkit(["render", project + "/\(name).yaml", "--plugin-path", folder])
        #expect(rendered == 0, "\(table)")
        for text in ["First row", "Its detail comes from the row's data", "Second row", "Row 2"] {
            #expect(table.contains(text), "render shows \(text):\n\(table)")
        }
        #expect(!table.contains("warning"), "\(table)")
        let (checked, report) = try command.cellkit([
            "check", library, "--table", project + "/\(name).yaml", "--plugin-path", folder,
        ])
        #expect(checked == 0 && report.contains("Clean: 1 cell type checked."), "\(report)")
        // The previews the template ships: CK_PREVIEW in C, lib NAME.preview.yaml at a Swift package's top,
        // in the order written in either.
        #expect(
            report.contains(#"  typical data: the plugin's previews ("typical", "empty", "long", "rtl")"#), "\(report)")
        // The template's own rows and samples leave keys out as real data does: no note about them.
        let (_, verbose) = try command.cellkit([
            "check", library, "--table", project + "/\(name).yaml", "--plugin-path", folder, "-v",
        ])
        #expect(!verbose.contains("of the table: a data read failed"), "\(verbose)")
        for sample in ["typical", "empty", "long", "rtl"] {
            #expect(!verbose.contains("sample \"\(sample)\": a data read failed"), "\(verbose)")
        }
        #expect(verbose.contains("  notes:"), "check's own hostile samples still give notes: \(verbose)")
        #expect(!report.contains("preview warnings"), "\(report)")
        let (inspected, shown) = try command.cellkit(["inspect", library])
        #expect(inspected == 0 && shown.contains("      previews (4):\n"), "\(shown)")
        #expect(shown.contains(#"rtl      {"detail":"مرحبا بالعالم","title":"שלום עולם"}"#), "\(shown)")
    }

    @Test(
        "new c: make (with the installed SDK's pkg-config), then list, render and check",
        .enabled(if: makeAvailable, "make is not installed (apt-get install make); CI installs it"))
    func cProject() throws {
        try requireMake()
        let root = try Fixtures.folder()
        let made = try run(Fixtures.cellkit, ["new", "c", "Weather", "--dir", root], in: root)
        #expect(made.contains("build:        cd \(root)/Weather && make"), "\(made)")
        let project = root + "/Weather"
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: project)) == [
                "Weather.c", "Makefile", "Weather.yaml",
            ])

        _ = try run(Fixtures.cellkit, ["sdk", "install", "--prefix", root + "/sdk"], in: root)
        let environment = ["PKG_CONFIG_PATH": root + "/sdk/lib/pkgconfig"]
        let built = try run("/usr/bin/env", ["make"], in: project, environment: environment)
        #expect(built.contains("-I\(root)/sdk/include/cellkit"), "the Makefile takes pkg-config's flags: \(built)")
        #expect(!built.contains("warning"), "\(built)")
        try checkBuilt("Weather", library: project + "/libWeather.so", project: project)
        let checked = try run(
            "/usr/bin/env", ["make", "check", "CELLKIT=\(Fixtures.cellkit)"], in: project, environment: environment)
        #expect(checked.contains("Clean: 1 cell type checked."), "\(checked)")
        // The snapshot test: golden files written, then compared.
        let cellkit = "CELLKIT=\(Fixtures.cellkit)"
        _ = try run("/usr/bin/env", ["make", "snapshots", cellkit], in: project, environment: environment)
        #expect(
            FileManager.default.fileExists(
                atPath: project + "/snapshots/Weather/typical/grouped-selected-default-light-rtl.txt"))
        let tested = try run("/usr/bin/env", ["make", "test", cellkit], in: project, environment: environment)
        #expect(tested.contains("golden files in snapshots match"), "\(tested)")
    }

    @Test(
        "new c as a stranger runs it: the SDK in ~/.local, no PKG_CONFIG_PATH, no cellkit on PATH",
        .enabled(if: makeAvailable, "make is not installed (apt-get install make); CI installs it"))
    func cProjectDefaults() throws {
        try requireMake()
        let root = try Fixtures.folder()
        let home = ["HOME": root, "PKG_CONFIG_PATH": "", "PATH": "/usr/local/bin:/usr/bin:/bin"]
        _ = try run(Fixtures.cellkit, ["sdk", "install"], in: root, environment: home)  // into $HOME/.local
        _ = try run(Fixtures.cellkit, ["new", "c", "Sunny", "--dir", root], in: root, environment: home)
        // GNU Make before 4.4 gave $(shell) none of the Makefile's exports: pkg-config missed ~/.local.
        let rendered = try Fixtures.execute("/usr/bin/env", ["make", "render"], environment: home, in: root + "/Sunny")
        #expect(rendered.status == 0, "\(rendered.output)\n\(rendered.errors)")
        #expect(rendered.output.contains("Sunny"), "the cellkit that wrote the project draws it:\n\(rendered.output)")
    }

    @Test(
        "new c: make install under umask 002 leaves a plugin, and folders, that cellkit takes",
        .enabled(if: makeAvailable, "make is not installed (apt-get install make); CI installs it"))
    func cProjectInstall() throws {
        try requireMake()
        let root = try Fixtures.folder()
        let data = root + "/data"  // pluginsdir: $XDG_DATA_HOME/cellkit/plugins, not there yet
        let home = ["HOME": root, "XDG_DATA_HOME": data, "PKG_CONFIG_PATH": "", "PATH": "/usr/local/bin:/usr/bin:/bin"]
        _ = try run(Fixtures.cellkit, ["sdk", "install"], in: root, environment: home)
        _ = try run(Fixtures.cellkit, ["new", "c", "Rainy", "--dir", root], in: root, environment: home)
        // cp and mkdir -p made the library and the folders group-writable here: refused.
        _ = try run("/bin/sh", ["-c", "umask 002 && make install"], in: root + "/Rainy", environment: home)
        let installed = data + "/cellkit/plugins/libRainy.so"
        for (path, mode) in [(installed, 0o644), (data + "/cellkit/plugins", 0o755), (data + "/cellkit", 0o755)] {
            let found = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(found == mode, "\(path): mode \(String(found ?? 0, radix: 8))")
        }
        let listed = try run(Fixtures.cellkit, ["list"], in: root, environment: home)
        #expect(listed.contains("  Rainy  Rainy 0.1.0  \(installed)"), "\(listed)")
    }

    @Test("new c without the SDK: make names the missing cellkit.pc and the fix")
    func cProjectWithoutSDK() throws {
        let root = try Fixtures.folder()
        _ = try run(Fixtures.cellkit, ["new", "c", "Bare", "--dir", root], in: root, environment: ["HOME": root])
        guard Self.makeAvailable else { return }
        try requireMake()
        let result = try Fixtures.execute(
            "/usr/bin/env", ["make"], environment: ["HOME": root, "PKG_CONFIG_PATH": root + "/none"], in: root + "/Bare"
        )
        #expect(result.status != 0)
        #expect(result.errors.contains("pkg-config finds no cellkit.pc: run `cellkit sdk install`"), "\(result.errors)")
    }

    @Test("new swift: swift build, then list, render and check")
    func swiftProject() throws {
        let root = try Fixtures.folder()
        let made = try run(
            Fixtures.cellkit, ["new", "swift", "Breeze", "--dir", root, "--cellkit-package", Fixtures.repositoryRoot],
            in: root)
        #expect(made.contains("build:        cd \(root)/Breeze && swift build"), "\(made)")
        let project = root + "/Breeze"
        let built = try run("/usr/bin/env", ["swift", "build"], in: project)
        #expect(!built.contains("warning:"), "\(built)")
        try checkBuilt("Breeze", library: project + "/.build/debug/libBreeze.so", project: project)
    }

    @Test("new refuses a name that is no identifier, a built-in's name, and a folder that exists")
    func refusals() throws {
        let root = try Fixtures.folder()
        try FileManager.default.createDirectory(atPath: root + "/Taken", withIntermediateDirectories: false)
        let cases: [([String], String)] = [
            (["new", "c", "9lives"], "'9lives' cannot name a plugin"),
            (["new", "c", "has-dash"], "'has-dash' cannot name a plugin"),
            (["new", "swift", "Value1"], "'Value1' is a built-in cell type"),
            (["new", "c", "Taken", "--dir", root], "cannot make \(root)/Taken: it already exists"),
            (["new", "c", "Fine", "--cellkit-package", root], "--cellkit-package is for swift projects"),
            (["new", "swift", "Fine", "--dir", root, "--cellkit-package", root], "is not a CellKit checkout"),
        ]
        for (arguments, message) in cases {
            let (status, text) = try command.cellkit(arguments)
            #expect(status != 0 && text.contains(message), "\(arguments): \(text)")
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/Fine"), "nothing is written")
    }
}
