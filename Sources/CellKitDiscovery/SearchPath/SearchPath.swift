// Where plugins are looked for, in order; the first plugin to offer an identifier wins.

import CellKitModel
import Foundation

/// The ordered list of folders (or single files) discovery reads.
public struct SearchPath: Sendable, Equatable, Codable {
    /// Where a search-path entry came from.
    public enum Origin: String, Sendable, Codable {
        /// A `--plugin-path` option of the `cellkit` tool (`standard(options:)`).
        case option = "--plugin-path"
        /// One colon-separated part of `CELLKIT_PLUGIN_PATH`.
        case environment = "CELLKIT_PLUGIN_PATH"
        /// The folder of the running executable.
        case executable = "executable's folder"
        /// `$XDG_DATA_HOME/cellkit/plugins`, default `~/.local/share/cellkit/plugins`.
        case userData = "user data folder"
        /// A path an embedding program gave `custom(_:)`.
        case program = "set by the program"
    }

    /// One folder or file on the path.
    public struct Entry: Sendable, Equatable, Codable {
        /// A folder, or one library file; absolute when `standard` or `custom` made the entry.
        public let path: String
        /// Where the entry came from; says whether a missing folder is reported.
        public let origin: Origin
        /// An entry for `path`, taken as it is: make it absolute first (`standard` and `custom` do).
        public init(path: String, origin: Origin) { (self.path, self.origin) = (path, origin) }
        /// Whether a missing folder is worth reporting (it was asked for by name).
        var isExplicit: Bool { origin == .option || origin == .environment || origin == .program }
    }

    /// The folders and files to read, first to last.
    public var entries: [Entry]

    /// A path of exactly `entries`; `.custom(_:)` builds one from plain paths.
    public init(entries: [Entry]) { self.entries = entries }

    /// The documented order: `--plugin-path` options, then `CELLKIT_PLUGIN_PATH` (colon-separated),
    /// then the running executable's folder, then `$XDG_DATA_HOME/cellkit/plugins`
    /// (default `~/.local/share/cellkit/plugins`). Relative paths are made absolute.
    public static func standard(
        options: [String] = [],
        environment: [String: String] = SearchPath.environment(),
        executableDirectory: String? = SearchPath.executableDirectory()
    ) -> SearchPath {
        var entries = options.map { Entry(path: absolute($0), origin: .option) }
        let fromEnvironment = environment["CELLKIT_PLUGIN_PATH"]?.split(separator: ":").map(String.init) ?? []
        entries += fromEnvironment.map { Entry(path: absolute($0), origin: .environment) }
        if let executableDirectory { entries.append(Entry(path: executableDirectory, origin: .executable)) }
        entries.append(Entry(path: userDataFolder(environment), origin: .userData))
        return SearchPath(entries: entries)
    }

    /// The entries' paths for messages, each missing one marked `(no such folder)`: a
    /// typo in a folder name must not look like a missing plugin.
    package var describedPaths: [String] {
        entries.map {
            !$0.isExplicit || FileManager.default.fileExists(atPath: $0.path) ? $0.path : "\($0.path) (no such folder)"
        }
    }

    /// A search path set in code by an embedding program: `paths` (folders, or single
    /// `.so` files) in the order given, then, if asked for, the running executable's
    /// folder and the user's data folder (`$XDG_DATA_HOME/cellkit/plugins`). No
    /// `CELLKIT_PLUGIN_PATH` is read; `HOME` and `XDG_DATA_HOME` only for the user's data
    /// folder, from `environment` (nil: this process's). Relative paths are made absolute.
    public static func custom(
        _ paths: [String], includingExecutableFolder: Bool = false, includingUserDataFolder: Bool = false,
        environment: [String: String]? = nil
    ) -> SearchPath {
        var entries = paths.map { Entry(path: absolute($0), origin: .program) }
        if includingExecutableFolder, let folder = executableDirectory() {
            entries.append(Entry(path: folder, origin: .executable))
        }
        if includingUserDataFolder {
            entries.append(Entry(path: userDataFolder(environment ?? SearchPath.environment()), origin: .userData))
        }
        return SearchPath(entries: entries)
    }

    /// The variables a search path and the registry cache's folder read (`CELLKIT_PLUGIN_PATH`,
    /// `HOME`, `XDG_DATA_HOME`, `XDG_CACHE_HOME`), from this process's environment. Not
    /// `ProcessInfo.processInfo.environment`: that copies every variable into a new dictionary at
    /// each call, three times in a small render (BENCHMARKS.md, "Measurements behind the code": Environment).
    public static func environment() -> [String: String] {
        Environment.values(["CELLKIT_PLUGIN_PATH", "HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"])
    }

    /// `$XDG_DATA_HOME/cellkit/plugins`, default `~/.local/share/cellkit/plugins`.
    static func userDataFolder(_ environment: [String: String]) -> String {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
        return data + "/cellkit/plugins"
    }

    /// The folder of the running executable (where `swift build` puts plugin libraries).
    public static func executableDirectory() -> String? {
        guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return PathText.folder(of: exe)
    }

    /// `path` made absolute against the current folder, with `~` expanded to `$HOME` as a shell does
    /// (Foundation's expansion reads the password file, not `HOME`) and `~user` to that user's home.
    package static func absolute(_ path: String) -> String {
        let home = Environment.value("HOME").flatMap { $0.isEmpty ? nil : $0 }
        let expanded =
            if let home, path == "~" || path.hasPrefix("~/") { home + path.dropFirst() } else {
                (path as NSString).expandingTildeInPath
            }
        let full = expanded.hasPrefix("/") ? expanded : FileManager.default.currentDirectoryPath + "/" + expanded
        return (full as NSString).standardizingPath
    }
}
