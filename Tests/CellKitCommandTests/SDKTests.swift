// `cellkit sdk install`'s files: the embedded header is the header, cellkit.pc says what it must.

import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitCommand

@Suite("cellkit sdk: the embedded header and cellkit.pc")
struct SDKTests {
    @Test("The header cellkit installs is Sources/CCellKit/include/cellkit.h, byte for byte")
    func embeddedHeader() throws {
        let header = try Data(contentsOf: URL(fileURLWithPath: Fixtures.headerDirectory + "/cellkit.h"))
        #expect(
            SDKInstaller.header == Array(header),
            "the embedded header is not cellkit.h: Sources/CellKitCommand/cellkit.h must be a symbolic link to it")
    }

    @Test("cellkit.pc: name, version, Cflags into include/cellkit, pluginsdir from XDG_DATA_HOME or HOME")
    func pkgConfigFile() {
        let installer = SDKInstaller(prefix: "/opt/ck", environment: ["HOME": "/home/ada"])
        let lines = installer.pkgConfigFile.split(separator: "\n").map(String.init)
        for line in [
            "prefix=/opt/ck", "includedir=${prefix}/include", "pluginsdir=/home/ada/.local/share/cellkit/plugins",
            "Name: CellKit", "Version: \(CellKitVersion.current)", "Cflags: -I${includedir}/cellkit",
        ] {
            #expect(lines.contains(line), "cellkit.pc has \(line):\n\(installer.pkgConfigFile)")
        }
        #expect(lines.contains { $0.hasPrefix("Description: ") })
        let xdg = SDKInstaller(prefix: "/opt/ck", environment: ["HOME": "/home/ada", "XDG_DATA_HOME": "/data"])
        #expect(xdg.pluginsDirectory == "/data/cellkit/plugins")
        #expect(installer.includeDirectory == "/opt/ck/include/cellkit")
        #expect(installer.pkgconfigDirectory == "/opt/ck/lib/pkgconfig")
    }

    @Test("The default prefix is ~/.local, and a relative one is made absolute")
    func prefixes() throws {
        let command = try #require(try CellKitCommand.parseAsRoot(["sdk", "install"]) as? SDKInstallCommand)
        #expect(command.prefix == "~/.local")
        #expect(SDKInstaller(prefix: command.prefix).prefix == NSHomeDirectory() + "/.local")
        let relative = SDKInstaller(prefix: "sdk")
        #expect(relative.prefix == FileManager.default.currentDirectoryPath + "/sdk")
    }
}
