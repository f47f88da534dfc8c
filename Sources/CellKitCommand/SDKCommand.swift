// `cellkit sdk install`: the plugin author's kit, installed under a prefix, so a plugin builds
// with `cc -shared -fPIC $(pkg-config --cflags cellkit) …` and no source checkout.

import ArgumentParser
import CellKit
import CellKitRuntime
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
            written to a new temporary beside it and renamed into place, so a reader sees the old file \
            or the new one, never half of one. Below the prefix no symbolic link is followed: a link \
            in place of include/, lib/, their subfolders or a file written is refused (remove it and \
            run again), and a file someone else put there is replaced, never written into. Then:

              export PKG_CONFIG_PATH=PREFIX/lib/pkgconfig   # unless PREFIX is /usr or /usr/local
              cc -shared -fPIC $(pkg-config --cflags cellkit) plugin.c -o libplugin.so
              install -D -m 644 libplugin.so "$(pkg-config --variable=pluginsdir cellkit)/libplugin.so"
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
        try write(Self.header, under: ["include", "cellkit"], named: "cellkit.h")
        try write(Array(pkgConfigFile.utf8), under: ["lib", "pkgconfig"], named: "cellkit.pc")
        return [includeDirectory + "/cellkit.h", pkgconfigDirectory + "/cellkit.pc"]
    }

    /// The plugin header, byte for byte as Sources/CCellKit/include/cellkit.h was when this `cellkit`
    /// was built: embedded by SwiftPM (`.embedInCode`, Package.swift) through the symbolic link
    /// Sources/CellKitCommand/cellkit.h, so a release `cellkit` installs it from anywhere.
    static var header: [UInt8] { PackageResources.cellkit_h }

    /// Writes `bytes` to `PREFIX/folders…/name` atomically, following no symbolic link below the
    /// prefix: each folder is made or opened relative to its parent with `O_NOFOLLOW`, the bytes
    /// go to a fresh temporary made there with `O_CREAT | O_EXCL | O_NOFOLLOW`, and the temporary
    /// is renamed over `name`. A link, hard link, FIFO or file planted at `name` is replaced, never
    /// written into; a symbolic link found there or in place of a folder is refused.
    private func write(_ bytes: [UInt8], under folders: [String], named name: String) throws {
        let path = ([prefix] + folders + [name]).joined(separator: "/")
        try makeFolder(prefix, for: path)
        var folder = open(prefix, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw Failure(description: "cannot open \(prefix.terminalSafe): \(reason); \(fix)") }
        defer { close(folder) }
        var reached = prefix
        for part in folders {
            reached += "/" + part
            guard mkdirat(folder, part, 0o755) == 0 || errno == EEXIST else {
                throw Failure(description: "cannot create the folder \(reached.terminalSafe): \(reason); \(fix)")
            }
            let next = openat(folder, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else {
                if errno == ENOTDIR, !isLink(folder, part) {
                    throw Failure(
                        description:
                            "cannot write \(path.terminalSafe): \(reached.terminalSafe) is a file, not a folder; "
                            + "choose another --prefix or move that file away")
                }
                if errno == ELOOP || errno == ENOTDIR { throw planted(reached, writing: path) }
                throw Failure(description: "cannot open the folder \(reached.terminalSafe): \(reason); \(fix)")
            }
            close(folder)
            folder = next
        }
        var status = stat()
        if fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 {
            if status.st_mode & S_IFMT == S_IFLNK { throw planted(path, writing: path) }
            if status.st_mode & S_IFMT == S_IFDIR {
                throw Failure(
                    description:
                        "cannot write \(path.terminalSafe): it is a folder; move it away or choose another --prefix")
            }
        }
        let (fd, temporary) = try createTemporary(in: folder, beside: name, path: path)
        let directory = (path as NSString).deletingLastPathComponent
        let slot = PendingTemporaries.add(directory + "/" + temporary)
        defer { if let slot { PendingTemporaries.remove(slot) } }
        var failure: String?
        var written = 0
        while written < bytes.count, failure == nil {
            let n = bytes.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n > 0 {
                written += n
            } else if n < 0, errno != EINTR {
                failure = "cannot write \(path.terminalSafe): \(reason)"
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = "cannot write \(path.terminalSafe): \(reason)" }
        close(fd)
        if failure == nil, renameat(folder, temporary, folder, name) != 0 {
            failure = "cannot write \(path.terminalSafe): \(reason)"
        }
        if let failure {
            unlinkat(folder, temporary, 0)
            throw Failure(description: "\(failure); \(fix)")
        }
    }

    /// Makes a new `.NAME.XXXXXX` in `folder` for `name`, exclusively and without following a link
    /// (mode 0644 less the umask); its descriptor and name.
    private func createTemporary(in folder: Int32, beside name: String, path: String) throws -> (Int32, String) {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        for _ in 0..<100 {
            let temporary = "." + name + "." + String((0..<6).map { _ in letters.randomElement()! })
            let fd = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd >= 0 { return (fd, temporary) }
            guard errno == EEXIST else {
                throw Failure(description: "cannot write \(path.terminalSafe): \(reason); \(fix)")
            }
        }
        throw Failure(description: "cannot write \(path.terminalSafe): no free temporary name beside it; \(fix)")
    }

    /// Whether `name` in `folder` is a symbolic link.
    private func isLink(_ folder: Int32, _ name: String) -> Bool {
        var status = stat()
        return fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    /// The refusal of a symbolic link at `link` (below the prefix), met while writing `path`.
    private func planted(_ link: String, writing path: String) -> Failure {
        Failure(
            description:
                "cannot write \(path.terminalSafe): \(link.terminalSafe) is a symbolic link, and sdk install follows "
                + "none below the prefix (another user may have planted it to make cellkit overwrite the file it "
                + "names); check where it points, remove it (rm \(link.terminalSafe)) and run sdk install again, "
                + "or choose another --prefix")
    }

    /// The last error's text.
    private var reason: String { String(cString: strerror(errno)) }

    /// Makes `folder` (the prefix) and its parents (mode 0755 less the umask), or says which one
    /// cannot be made and why. The prefix is the user's: links in it are followed.
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
