import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDiscovery

@Suite("Discovery: reading ELF files without loading them")
struct DiscoveryTests {
    @Test("The package's own C and Swift plugins are read from their symbol tables")
    func realPlugins() throws {
        let foobar = try PluginFile.read(path: Fixtures.buildDirectory + "/libFoobarCells.so").get()
        #expect(
            foobar.descriptor
                == PluginDescriptor(
                    name: "FoobarCells", version: "1.0.0",
                    summary: "Seed 004: the generic cell-creation routine's Foobar and Bar cells", abiMajor: 1,
                    abiMinor: 4))
        #expect(foobar.cellTypes.map(\.identifier.name) == ["Bar", "Foobar"])
        let bar = foobar.cellTypes[0]
        #expect(bar.hooks.map(\.kind) == [.customizeCell, .heightForCell, .prepareCellForReuse])
        #expect(bar.hook(.customizeCell)?.signature.description == "void (cell, section, row, data)")
        #expect(bar.hook(.heightForCell)?.signature.description == "int32_t (row)")
        #expect(bar.hook(.prepareCellForReuse)?.usesFFI == false)
        #expect(foobar.isUsable && foobar.nearMisses.isEmpty)

        let contacts = try PluginFile.read(path: Fixtures.buildDirectory + "/libContactsCells.so").get()
        #expect(contacts.descriptor.name == "ContactsCells")
        #expect(contacts.cellTypes.map(\.identifier.name) == ["OtherCell", "Partner"])
        #expect(contacts.cellTypes[1].hooks.map(\.kind) == [.initCell, .customizeCell, .heightForCell])
        #expect(contacts.nearMisses.isEmpty, "the Swift plugin's mangled twins of @_cdecl hooks are not near misses")
    }

    @Test("Each kind of broken file gets its own one-line reason")
    func brokenFiles() throws {
        let dir = try Fixtures.folder()
        let real = try Data(contentsOf: URL(fileURLWithPath: Fixtures.buildDirectory + "/libFoobarCells.so"))
        func write(_ name: String, _ data: Data) throws { try data.write(to: URL(fileURLWithPath: dir + "/" + name)) }
        func patched(_ offset: Int, _ bytes: [UInt8]) -> Data {
            var d = real
            d.replaceSubrange(offset..<offset + bytes.count, with: bytes)
            return d
        }
        try write("libtext.so", Data("#!/bin/sh\necho not a library\n".utf8))
        try write("libempty.so", Data())
        try write("libelf32.so", patched(4, [1]))
        try write("libarm.so", patched(18, [183, 0]))
        try write("libbig.so", patched(5, [2]))
        try write("libobject.so", patched(16, [1, 0]))
        try write("libheader.so", real.prefix(40))
        try write("libcut.so", real.prefix(real.count / 2))
        try FileManager.default.createDirectory(atPath: dir + "/libdir.so", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(
            atPath: dir + "/libloop1.so", withDestinationPath: dir + "/libloop2.so")
        try FileManager.default.createSymbolicLink(
            atPath: dir + "/libloop2.so", withDestinationPath: dir + "/libloop1.so")
        try FileManager.default.createSymbolicLink(
            atPath: dir + "/libdangling.so", withDestinationPath: dir + "/nowhere.so")
        try Fixtures.compileC("int plain_function(void) { return 1; }", name: "notplugin", in: dir)
        try Fixtures.compileC(
            "#include \"cellkit.h\"\nCK_EXPORT void initCellForLost(ck_cell *c, ck_index_path p) {(void)c;(void)p;}",
            name: "nodescriptor", in: dir)

        let catalog = Catalog(options: Fixtures.options([dir]))
        let r = catalog.rejections
        #expect(catalog.plugins.isEmpty)
        #expect(r.reason(for: "libtext.so") == "not an ELF file (starts with 23 21 2f 62)")
        #expect(r.reason(for: "libempty.so") == "empty file (0 bytes): not a shared library")
        #expect(r.reason(for: "libelf32.so") == "32-bit ELF file; this host loads only 64-bit libraries")
        #expect(r.reason(for: "libarm.so") == "ELF file for aarch64; this host is x86_64")
        #expect(r.reason(for: "libbig.so") == "big-endian ELF file; this host is little-endian")
        #expect(r.reason(for: "libobject.so")?.hasPrefix("ELF file of type ET_REL") == true)
        #expect(
            r.reason(for: "libheader.so")
                == "truncated file: the 64-byte ELF header lies past its end; rebuild the library, or move it off the plugin path"
        )
        #expect(r.reason(for: "libcut.so")?.hasPrefix("truncated file:") == true)
        #expect(r.reason(for: "libdir.so") == "a directory named like a library")
        #expect(r.reason(for: "libloop1.so") == "a symbolic link loop")
        #expect(r.reason(for: "libdangling.so") == "a dangling symbolic link")
        #expect(
            r.reason(for: "libnotplugin.so")
                == "a shared library, but not a CellKit plugin: it exports no 'cellkit_plugin' descriptor")
        #expect(
            r.reason(for: "libnodescriptor.so")?.contains(
                "exports hooks (initCellForLost) but no 'cellkit_plugin' descriptor") == true)
        #expect(r.count == 14)
    }

    @Test("An unreadable file is reported, not fatal", .enabled(if: getuid() != 0, "root reads any file"))
    func unreadable() throws {
        let dir = try Fixtures.folder()
        let path = try Fixtures.compileC(minimalPlugin("Secret"), name: "secret", in: dir)
        chmod(path, 0)
        #expect(
            Catalog(options: Fixtures.options([dir])).rejections.reason(for: "libsecret.so")
                == "unreadable: Permission denied")
    }

    @Test(
        "ABI: a different major or a newer minor is refused, naming both versions",
        arguments: [
            ((2, 0), "built for CellKit ABI 2.0, this host speaks ABI 1.4: the major versions differ"),
            ((1, 7), "built for CellKit ABI 1.7, newer than this host's ABI 1.4"),
            ((0, 9), "built for CellKit ABI 0.9, this host speaks ABI 1.4: the major versions differ"),
        ])
    func abiMismatch(_ abi: (Int, Int), _ message: String) throws {
        let dir = try Fixtures.folder()
        try Fixtures.compileC(minimalPlugin("Versioned", abi: abi), name: "versioned", in: dir)
        let catalog = Catalog(options: Fixtures.options([dir]))
        let plugin = try #require(catalog.plugins.first)
        #expect(!plugin.isUsable)
        #expect(plugin.problems.first?.hasPrefix(message) == true, "\(plugin.problems)")
        #expect(catalog.registrations.isEmpty, "a plugin with the wrong ABI registers nothing")
    }

    @Test("The same identifier in two plugins: the first on the path wins, the other is shadowed")
    func shadowing() throws {
        let first = try Fixtures.folder("first"), second = try Fixtures.folder("second")
        let winner = try Fixtures.compileC(minimalPlugin("Shared", name: "Winner"), name: "a", in: first)
        let loser = try Fixtures.compileC(minimalPlugin("Shared", name: "Loser"), name: "b", in: second)
        let catalog = Catalog(options: Fixtures.options([first, second]))
        #expect(
            catalog.shadowed == [Shadowing(identifier: try CellIdentifier("Shared"), winner: winner, shadowed: loser)])
        #expect(catalog.plugins[catalog.registration(for: try CellIdentifier("Shared"))!.pluginIndex].path == winner)

        let reversed = Catalog(options: Fixtures.options([second, first]))
        #expect(reversed.shadowed.first?.winner == loser)
    }

    @Test("The search path's documented order")
    func searchPathOrder() {
        let path = SearchPath.standard(
            options: ["/opt/a", "rel"], environment: ["CELLKIT_PLUGIN_PATH": "/e1:/e2", "HOME": "/home/u"],
            executableDirectory: "/bin/dir")
        #expect(
            path.entries.map(\.path) == [
                "/opt/a", FileManager.default.currentDirectoryPath + "/rel", "/e1", "/e2", "/bin/dir",
                "/home/u/.local/share/cellkit/plugins",
            ])
        #expect(path.entries.map(\.origin) == [.option, .option, .environment, .environment, .executable, .userData])
        let xdg = SearchPath.standard(
            environment: ["XDG_DATA_HOME": "/xdg", "HOME": "/home/u"], executableDirectory: nil)
        #expect(xdg.entries.map(\.path) == ["/xdg/cellkit/plugins"])
    }

    @Test("An embedder's default options read no environment; fromEnvironment and the cellkit tool do")
    func environmentOptIn() throws {
        let dir = try Fixtures.folder()
        try Fixtures.compileC(minimalPlugin("FromEnvironment", name: "FromEnvironment"), name: "fromenv", in: dir)
        let environment = ["CELLKIT_PLUGIN_PATH": dir, "HOME": "/home/u"]
        // The defaults: an empty path whatever the environment holds, so only the built-in types.
        #expect(DiscoveryOptions().searchPath.entries.isEmpty)
        #expect(Catalog().options.searchPath.entries.isEmpty)
        #expect(Catalog().plugins.isEmpty && Catalog().rejections.isEmpty)
        #expect(SearchPath.custom([dir]).entries.map(\.origin) == [.program], "custom reads no CELLKIT_PLUGIN_PATH")
        // Asked for: the cellkit tool's order, environment included.
        let asked = DiscoveryOptions.fromEnvironment(pluginPaths: ["/opt/a"], environment: environment)
        #expect(asked.searchPath == .standard(options: ["/opt/a"], environment: environment))
        #expect(asked.searchPath.entries.contains(.init(path: dir, origin: .environment)))
        #expect(Catalog(options: asked).registration(for: try CellIdentifier("FromEnvironment")) != nil)
        // The tool opts in: CELLKIT_PLUGIN_PATH set for `cellkit list` is searched, as before.
        let listed = try Fixtures.output(Fixtures.cellkit, ["list"], environment: ["CELLKIT_PLUGIN_PATH": dir])
        #expect(listed.contains("\(dir)  (CELLKIT_PLUGIN_PATH)"), "\(listed)")
        #expect(listed.contains("  FromEnvironment  FromEnvironment 0.1.0  \(dir)/libfromenv.so"), "\(listed)")
    }

    @Test("A missing folder given by name is reported; a missing default folder is not")
    func missingFolders() {
        let catalog = Catalog(
            options: DiscoveryOptions(
                searchPath: SearchPath(entries: [
                    .init(path: "/nonexistent/cellkit-a", origin: .option),
                    .init(path: "/nonexistent/cellkit-b", origin: .userData),
                ])))
        #expect(
            catalog.rejections == [
                Rejection(path: "/nonexistent/cellkit-a", reason: "no such folder (given by --plugin-path)")
            ])
    }

}

@Suite("Permissions: whom the host trusts to supply code")
struct PermissionTests {
    @Test("A folder writable by others is refused, with the fix; the override accepts it")
    func writableFolder() throws {
        let dir = try Fixtures.folder()
        try Fixtures.compileC(minimalPlugin("Open"), name: "open", in: dir)
        chmod(dir, 0o777)
        let refused = Catalog(options: Fixtures.options([dir]))
        #expect(refused.plugins.isEmpty)
        let reason = try #require(refused.rejections.reason(for: dir))
        #expect(
            reason.contains("writable by everyone (mode 0777)") && reason.contains("chmod go-w '\(dir)'")
                && reason.contains("--allow-unsafe-permissions"))

        #expect(Catalog(options: Fixtures.options([dir], allowUnsafe: true)).plugins.count == 1)
    }

    @Test("A group-writable plugin file is refused")
    func writableFile() throws {
        let dir = try Fixtures.folder()
        let path = try Fixtures.compileC(minimalPlugin("Group"), name: "group", in: dir)
        chmod(path, 0o775)
        #expect(
            Catalog(options: Fixtures.options([dir])).rejections.reason(for: "libgroup.so")?.contains(
                "writable by its group (mode 0775)") == true)
    }

    @Test("A plugin owned by another user is refused", .enabled(if: getuid() == 0, "only root can give a file away"))
    func foreignOwner() throws {
        let dir = try Fixtures.folder()
        let path = try Fixtures.compileC(minimalPlugin("Foreign"), name: "foreign", in: dir)
        chown(path, 4242, 4242)
        let reason = Catalog(options: Fixtures.options([dir])).rejections.reason(for: "libforeign.so")
        #expect(reason?.contains("owned by uid 4242, neither root nor you") == true)
        #expect(Catalog(options: Fixtures.options([dir], allowUnsafe: true)).plugins.count == 1)
    }

    @Test("A symlink in a safe folder to a plugin in a writable folder: discovery and inspect refuse it")
    func symlinkToUnsafeFolder() throws {
        let safe = try Fixtures.folder(), open = try Fixtures.folder()
        let target = try Fixtures.compileC(minimalPlugin("Linked"), name: "linked", in: open)
        chmod(open, 0o777)
        let link = safe + "/liblinked.so"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)

        let catalog = Catalog(options: Fixtures.options([safe]))
        #expect(catalog.plugins.isEmpty, "list does not register it")
        let reason = try #require(catalog.rejections.reason(for: "liblinked.so"))
        #expect(reason.contains(open) && reason.contains("writable by everyone (mode 0777)"))

        let inspected = try PluginFile.read(path: link).get().checkingPermissions()
        #expect(
            !inspected.isUsable && inspected.problems.contains { $0.contains("writable by everyone") }, "inspect agrees"
        )
    }
}
