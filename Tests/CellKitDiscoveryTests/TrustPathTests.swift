// Trust follows the whole path: every folder above a plugin, up to `/`, and every
// folder a symlink on the way passes through. list and inspect agree (and loading:
// LoadingVerdictTests, in CellKitRuntimeTests).

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDiscovery

@Suite("Permissions: every folder above a plugin and along its symlinks")
struct TrustPathTests {
    /// What list and inspect each say about the plugin at `path` found in `folder`.
    func verdicts(_ path: String, in folder: String) throws -> (list: String?, inspect: [String]) {
        let catalog = Catalog(options: Fixtures.options([folder]))
        let listed = catalog.rejections.first { $0.path == path || $0.path == folder }?.reason
        let plugin = try PluginFile.read(path: path).get()
        return (listed, plugin.checkingPermissions().problems)
    }

    @Test(
        "A plugin whose grand-parent folder others can write is refused, naming that folder and the fix",
        arguments: [
            (0o777 as mode_t, "writable by everyone (mode 0777)"), (0o775, "writable by its group (mode 0775)"),
        ])
    func writableGrandparent(_ mode: mode_t, _ words: String) throws {
        let base = try Fixtures.folder()
        let grand = base + "/grand", parent = grand + "/parent"
        try FileManager.default.createDirectory(
            atPath: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let path = try Fixtures.compileC(minimalPlugin("Deep"), name: "deep", in: parent)
        chmod(grand, mode)

        let expected = try #require(FileTrust.problem(at: grand))
        #expect(expected.contains(words) && expected.contains("fix: chmod go-w '\(grand)'"))
        #expect(expected.contains("--allow-unsafe-permissions"))
        #expect(FileTrust.problem(forPlugin: path)! == (grand, expected))

        let (list, inspect) = try verdicts(path, in: parent)
        #expect(list == "\(grand): \(expected)", "the search folder is refused by its grand-parent")
        #expect(inspect == ["\(grand): \(expected)"])

        // The file given directly on the path is refused the same way.
        let direct = Catalog(options: Fixtures.options([path]))
        #expect(direct.plugins.isEmpty && direct.rejections.reason(for: "libdeep.so") == "\(grand): \(expected)")
        // The override still accepts it.
        #expect(Catalog(options: Fixtures.options([parent], allowUnsafe: true)).plugins.count == 1)
    }

    @Test("A plugin in a folder made inside /tmp (sticky, writable by everyone) is accepted")
    func insideTmp() throws {
        var info = stat()
        try #require(stat("/tmp", &info) == 0 && info.st_mode & S_ISVTX != 0, "/tmp is sticky here")
        let folder = "/tmp/cellkit-trust-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        chmod(folder, 0o755)
        let path = try Fixtures.compileC(minimalPlugin("Tmp"), name: "tmp", in: folder)
        #expect(FileTrust.problem(forPlugin: path) == nil)
        #expect(FileTrust.problem(forFolder: folder) == nil)
        let catalog = Catalog(options: Fixtures.options([folder]))
        #expect(catalog.rejections.isEmpty && catalog.plugins.count == 1, "\(catalog.rejections)")

        // A sticky folder of our own is as good as /tmp for a plugin we own.
        let shared = folder + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        chmod(shared, 0o1777)
        let inShared = try Fixtures.compileC(minimalPlugin("Shared"), name: "shared", in: shared)
        #expect(FileTrust.problem(forPlugin: inShared) == nil)
        #expect(Catalog(options: Fixtures.options([shared])).plugins.count == 1)

        // Without the sticky bit, the same folder is refused.
        chmod(shared, 0o777)
        #expect(FileTrust.problem(forPlugin: inShared)?.path == shared)
    }

    @Test("The package's build folder, where the plugins live beside the binary, is accepted")
    func buildFolder() {
        #expect(FileTrust.problem(forFolder: Fixtures.buildDirectory) == nil)
        #expect(FileTrust.problem(forPlugin: Fixtures.buildDirectory + "/libFoobarCells.so") == nil)
    }

    @Test("A chain of symlinks into a writable folder is refused by list and inspect alike")
    func symlinkChain() throws {
        let safe = try Fixtures.folder(), middle = try Fixtures.folder(), open = try Fixtures.folder()
        let target = try Fixtures.compileC(minimalPlugin("Chained"), name: "chained", in: open)
        chmod(open, 0o777)
        try FileManager.default.createSymbolicLink(atPath: middle + "/libhop.so", withDestinationPath: target)
        // Relative, as `ln -s ../x` writes it.
        let relative = "../" + (middle as NSString).lastPathComponent + "/libhop.so"
        try FileManager.default.createSymbolicLink(atPath: safe + "/libchained.so", withDestinationPath: relative)
        let link = safe + "/libchained.so"
        let expected = try #require(FileTrust.problem(at: open))

        let (list, inspect) = try verdicts(link, in: safe)
        #expect(list == "\(open): \(expected)")
        #expect(inspect == ["\(open): \(expected)"])

        let (status, text) = try CellKitTool().cellkit(["inspect", link])
        #expect(status == 1 && text.contains("- \(open): refused: the folder is writable by everyone (mode 0777)"))
    }

    @Test("A symlink that sits in a writable folder is refused though its target is safe: it could be re-pointed")
    func linkInWritableFolder() throws {
        let safe = try Fixtures.folder(), open = try Fixtures.folder(), home = try Fixtures.folder()
        let target = try Fixtures.compileC(minimalPlugin("Pointed"), name: "pointed", in: home)
        chmod(open, 0o777)
        try FileManager.default.createSymbolicLink(atPath: open + "/libhop.so", withDestinationPath: target)
        try FileManager.default.createSymbolicLink(
            atPath: safe + "/libpointed.so", withDestinationPath: open + "/libhop.so")
        let (list, inspect) = try verdicts(safe + "/libpointed.so", in: safe)
        let expected = try #require(FileTrust.problem(at: open))
        #expect(list == "\(open): \(expected)")
        #expect(inspect == ["\(open): \(expected)"])
    }

    @Test("A search folder reached through a symlinked folder is checked where it really is")
    func symlinkedFolder() throws {
        let safe = try Fixtures.folder(), open = try Fixtures.folder()
        try Fixtures.compileC(minimalPlugin("Hidden"), name: "hidden", in: open)
        chmod(open, 0o777)
        try FileManager.default.createSymbolicLink(atPath: safe + "/plugins", withDestinationPath: open)
        let catalog = Catalog(options: Fixtures.options([safe + "/plugins"]))
        #expect(catalog.plugins.isEmpty)
        #expect(catalog.rejections.reason(for: "/plugins") == "\(open): \(FileTrust.problem(at: open)!)")
    }

    @Test(
        "In a sticky folder, an entry owned by someone else is refused: they may swap it",
        .enabled(if: getuid() == 0, "only root can give a file away"))
    func foreignEntryInStickyFolder() throws {
        let home = try Fixtures.folder(), shared = try Fixtures.folder()
        chmod(shared, 0o1777)
        let target = try Fixtures.compileC(minimalPlugin("Swapped"), name: "swapped", in: home)
        let link = shared + "/libswapped.so"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(FileTrust.problem(forPlugin: link) == nil, "our own link in a sticky folder is fine")
        lchown(link, 4242, 4242)
        let problem = try #require(FileTrust.problem(forPlugin: link))
        #expect(problem.path == shared)
        #expect(
            problem.reason.contains(
                "its sticky bit protects only entries owned by root or you, but '\(link)' is owned by uid 4242"))
    }

    @Test("A refused --plugin-path folder or file warns with the chmod every time, though a copy is found elsewhere")
    func refusedPluginPathWarns() throws {
        let base = try Fixtures.folder()
        let installed = base + "/data/cellkit/plugins", shared = base + "/shared", single = base + "/single"
        for folder in [installed, shared, single] {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        }
        try Fixtures.compileC(minimalPlugin("Echoed", name: "Old"), name: "echoed", in: installed)
        try Fixtures.compileC(minimalPlugin("Echoed", name: "New"), name: "echoed", in: shared)
        let file = try Fixtures.compileC(minimalPlugin("Echoed", name: "New"), name: "echoed", in: single)
        chmod(shared, 0o775)
        chmod(file, 0o664)
        try "sections:\n  - {cell: Echoed, rows: 1}\n"
            .write(toFile: base + "/t.yaml", atomically: true, encoding: .utf8)
        let environment = [
            "XDG_DATA_HOME": base + "/data", "XDG_CACHE_HOME": base + "/cache", "CELLKIT_PLUGIN_PATH": "",
        ]
        for given in [shared, file] {
            let arguments: [[String]] = [
                ["render", base + "/t.yaml", "--plugin-path", given],
                ["render", base + "/t.yaml", "--plugin-path", given],  // the cache warm now
                ["list", "--plugin-path", given],
            ]
            for command in arguments {
                let run = try Fixtures.execute(Fixtures.cellkit, command, environment: environment)
                #expect(run.status == 0, "\(command): \(run.errors)")
                if command[0] == "render" { #expect(run.output.contains("Old"), "the installed copy draws the row") }
                #expect(
                    run.errors.contains("warning: --plugin-path \(given) is refused, so no plugin is loaded from it: "),
                    "\(command): \(run.errors)")
                #expect(run.errors.contains("chmod go-w '\(given)'"), "\(command): \(run.errors)")
            }
        }
        // Allowed, or a folder that passes: no warning.
        let allowed = try Fixtures.execute(
            Fixtures.cellkit, ["render", base + "/t.yaml", "--plugin-path", shared, "--allow-unsafe-permissions"],
            environment: environment)
        #expect(allowed.status == 0 && !allowed.errors.contains("refused"), "\(allowed.errors)")
        #expect(allowed.output.contains("New"))
        chmod(shared, 0o755)
        let fixed = try Fixtures.execute(
            Fixtures.cellkit, ["render", base + "/t.yaml", "--plugin-path", shared], environment: environment)
        #expect(fixed.status == 0 && fixed.errors.isEmpty, "\(fixed.errors)")
        #expect(fixed.output.contains("New"))
    }
}
