// The bundled C plugins are linked as `cc` links a plugin (Sources/CPluginLinking/linking.c):
// they need the C library alone, never the Swift runtime that SwiftPM's `swiftc` link adds,
// and look for libraries beside themselves only. The Swift plugins still need their runtime.

import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDiscovery

@Suite("The bundled plugins' links")
struct BundledPluginLinkTests {
    /// The ELF image of the bundled plugin `name`, as `swift build` left it.
    func image(_ name: String) throws -> ELFImage {
        try ELFImage(bytes: try PluginFile.readFile(Fixtures.buildDirectory + "/lib\(name).so").get())
    }

    @Test(
        "FoobarCells and ProjectCells need libc alone, find libraries beside themselves, and read as C",
        arguments: ["FoobarCells", "ProjectCells"])
    func cPluginsNeedLibcAlone(name: String) throws {
        let plugin = try image(name)
        #expect(plugin.neededLibraries == ["libc.so.6"], "\(name)")
        #expect(plugin.libraryFolders(origin: "/plugins") == ["/plugins"], "\(name)")
        #expect(!plugin.isSwift, "\(name)")
    }

    @Test("a Swift plugin still needs the Swift runtime (the check above can fail)")
    func swiftPluginNeedsItsRuntime() throws {
        let plugin = try image("ContactsCells")
        #expect(plugin.neededLibraries.contains { $0.hasPrefix("libswiftCore.so") })
        #expect(plugin.isSwift)
    }
}
