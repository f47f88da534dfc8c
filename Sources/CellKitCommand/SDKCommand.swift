// `cellkit sdk install`: the plugin author's kit, installed under a prefix, so a plugin builds
// with `cc -shared -fPIC $(pkg-config --cflags cellkit) …` and no source checkout.

import ArgumentParser
import CellKit
import Foundation

/// `cellkit sdk`: the plugin SDK (the header and its pkg-config file).
struct SDKCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sdk",
        abstract: "Install the plugin SDK: cellkit.h and a pkg-config file (cellkit.pc).",
        subcommands: [SDKInstallCommand.self])
}

/// `cellkit sdk install [--prefix P]`.
struct SDKInstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Write PREFIX/include/cellkit/cellkit.h and PREFIX/lib/pkgconfig/cellkit.pc.",
        discussion: """
            The header is the one this cellkit was built with. cellkit.pc gives the compiler flags \
            and, as the variable pluginsdir, the user plugin folder cellkit searches \
            ($XDG_DATA_HOME/cellkit/plugins, default ~/.local/share/cellkit/plugins). Each file is \
            written to a temporary beside it and renamed into place, so a reader sees the old file \
            or the new one, never half of one. Then:

              export PKG_CONFIG_PATH=PREFIX/lib/pkgconfig   # unless PREFIX is /usr or /usr/local
              cc -shared -fPIC $(pkg-config --cflags cellkit) plugin.c -o libplugin.so
              cp libplugin.so "$(pkg-config --variable=pluginsdir cellkit)"
            """)

    /// The prefix as given (`~` is expanded and a relative path made absolute by `SDKInstaller`).
    @Option(
        help: ArgumentHelp(
            "The folder to install under (include/ and lib/pkgconfig/ are made in it).", valueName: "dir"))
    var prefix: String = "~/.local"

    func run() throws {
        let installer = SDKInstaller(prefix: prefix)
        for path in try installer.install() { print("wrote \(path.terminalSafe)") }
        print("compile a plugin with:  cc -shared -fPIC $(pkg-config --cflags cellkit) plugin.c -o libplugin.so")
        let searched = (ProcessInfo.processInfo.environment["PKG_CONFIG_PATH"] ?? "").split(separator: ":")
        let folder = installer.pkgconfigDirectory
        if !SDKInstaller.defaultPkgConfigDirectories.contains(folder), !searched.contains(Substring(folder)) {
            print("pkg-config finds cellkit.pc with:  export PKG_CONFIG_PATH=\(folder.terminalSafe)")
        }
    }
}

/// What `cellkit sdk install` writes, and where.
struct SDKInstaller {
    /// An error naming the path that could not be written and what to do about it.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The folders pkg-config searches without PKG_CONFIG_PATH on common Linux systems.
    static let defaultPkgConfigDirectories: Set<String> = [
        "/usr/lib/pkgconfig", "/usr/share/pkgconfig", "/usr/local/lib/pkgconfig", "/usr/local/share/pkgconfig",
    ]

    /// The prefix, absolute, with `~` expanded.
    let prefix: String
    /// The user plugin folder cellkit searches (`$XDG_DATA_HOME/cellkit/plugins`).
    let pluginsDirectory: String

    /// An installer for `prefix` (made absolute), with the user plugin folder `environment` gives.
    init(prefix: String, environment: [String: String] = SearchPath.environment()) {
        self.prefix = SearchPath.custom([prefix]).entries[0].path
        let standard = SearchPath.standard(environment: environment, executableDirectory: nil)
        pluginsDirectory = standard.entries.first { $0.origin == .userData }?.path ?? ""
    }

    /// `PREFIX/include/cellkit`, where cellkit.h goes.
    var includeDirectory: String { prefix + "/include/cellkit" }
    /// `PREFIX/lib/pkgconfig`, where cellkit.pc goes.
    var pkgconfigDirectory: String { prefix + "/lib/pkgconfig" }

    /// The text of cellkit.pc.
    var pkgConfigFile: String {
        """
        # cellkit.pc: written by `cellkit sdk install` (cellkit \(CellKitVersion.current)).
        prefix=\(prefix)
        includedir=${prefix}/include
        # The user plugin folder cellkit searches: copy a built plugin here.
        pluginsdir=\(pluginsDirectory)

        Name: CellKit
        Description: Table-cell plugins for cellkit: the plugin header cellkit.h (C and C++)
        Version: \(CellKitVersion.current)
        Cflags: -I${includedir}/cellkit

        """
    }

    /// Writes the header and cellkit.pc; returns their paths.
    func install() throws -> [String] {
        // pkg-config splits Cflags at spaces and expands `$`: such a prefix gives flags that do not work.
        if let bad = prefix.first(where: { $0.isWhitespace || "$\"'\\#".contains($0) }) {
            throw Failure(
                description:
                    "cannot install under \(prefix.terminalSafe): its \(bad == " " ? "space" : "'\(bad)'") would break "
                    + "the flags pkg-config gives; choose a --prefix without spaces, quotes, '$', '#' or '\\'")
        }
        let header = includeDirectory + "/cellkit.h", pc = pkgconfigDirectory + "/cellkit.pc"
        try write(EmbeddedHeader.text, to: header)
        try write(pkgConfigFile, to: pc)
        return [header, pc]
    }

    /// Writes `text` to `path` atomically (a temporary beside it, renamed over it), making its folder.
    private func write(_ text: String, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try makeFolder(folder, for: path)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw Failure(
                description:
                    "cannot write \(path.terminalSafe): it is a folder; move it away or choose another --prefix")
        }
        do {
            let sink = try AtomicFileSink(path: path)
            do {
                try Array(text.utf8).withUnsafeBufferPointer { try sink.write($0) }
                try sink.commit()
            } catch {
                sink.abort()
                throw error
            }
        } catch {
            throw Failure(description: "\(error); \(fix)")
        }
    }

    /// Makes `folder` and its parents (mode 0755 less the umask), or says which one cannot be made and why.
    private func makeFolder(_ folder: String, for path: String) throws {
        var partial = ""
        for part in folder.split(separator: "/") {
            partial += "/" + part
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: partial, isDirectory: &isFolder) {
                guard isFolder.boolValue else {
                    throw Failure(
                        description:
                            "cannot write \(path.terminalSafe): \(partial.terminalSafe) is a file, not a folder; "
                            + "choose another --prefix or move that file away")
                }
                continue
            }
            guard mkdir(partial, 0o755) == 0 || errno == EEXIST else {
                let reason = String(cString: strerror(errno))
                throw Failure(description: "cannot create the folder \(partial.terminalSafe): \(reason); \(fix)")
            }
        }
    }

    /// What to do when a path under the prefix cannot be written.
    private var fix: String {
        "choose a --prefix you can write (the default is ~/.local), or run cellkit sdk install with sudo"
    }
}
