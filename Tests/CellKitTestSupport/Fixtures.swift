// Building plugins at test time: C with the plain `cc` line the README gives,
// Swift with swiftc, each into a folder of its own.

import CellKit
import CellKitRuntime
import Foundation

public enum Fixtures {
    /// The repository's root folder (the package's).
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The folder holding cellkit.h.
    public static let headerDirectory = repositoryRoot + "/Sources/CCellKit/include"

    /// The folder `swift build` / `swift test` put the package's plugins in (beside the test binary).
    public static let buildDirectory = SearchPath.executableDirectory()!

    /// A new, empty folder owned by us with mode 0755, inside `root`.
    public static func folder(_ name: String = #function) throws -> String {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let path = root + "/\(safe)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        return path
    }

    /// The folder every test folder of this process goes in, removed with all of them when the
    /// process exits (kept when `CELLKIT_KEEP_TEST_FOLDERS` is set, to look at after a failure).
    /// Each folder used to stay: this project's development machine held 44,913 of them (20 GB).
    public static let root: String = {
        let root = FileManager.default.temporaryDirectory.path + "/cellkit-tests-\(getpid())"
        try? FileManager.default.createDirectory(
            atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        if getenv("CELLKIT_KEEP_TEST_FOLDERS") == nil {
            atexit { try? FileManager.default.removeItem(atPath: Fixtures.root) }
        }
        return root
    }()

    /// Copies the folder `source` (files and subfolders) to `destination`, which must not exist,
    /// as new files of this process's user. `FileManager.copyItem` copies a folder's owner too,
    /// which an ordinary user may not set: CI's ordinary-user run copies root's repository
    /// folders (`Manifests/Tables/Assets`) and was refused ("Operation not permitted").
    public static func copyFolder(_ source: String, to destination: String) throws {
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: false)
        for name in try FileManager.default.contentsOfDirectory(atPath: source) {
            let from = source + "/" + name, to = destination + "/" + name
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: from, isDirectory: &isFolder), isFolder.boolValue {
                try copyFolder(from, to: to)
            } else {
                try Data(contentsOf: URL(fileURLWithPath: from)).write(to: URL(fileURLWithPath: to))
            }
        }
    }

    /// Compiles C `source` into `folder/lib<name>.so` with `cc -shared -fPIC -I <header dir>`.
    @discardableResult
    public static func compileC(_ source: String, name: String, in folder: String, extraFlags: [String] = []) throws
        -> String
    {
        let sourcePath = folder + "/\(name).c", output = folder + "/lib\(name).so"
        try source.write(toFile: sourcePath, atomically: true, encoding: .utf8)
        try run(
            "/usr/bin/env",
            ["cc", "-shared", "-fPIC", "-I", headerDirectory] + extraFlags + [sourcePath, "-o", output])
        try FileManager.default.removeItem(atPath: sourcePath)
        return output
    }

    /// Compiles Swift `source`, linked with the C `descriptor`, into `folder/lib<name>.so`:
    /// a Swift plugin as SwiftPM builds one, from two languages into one library.
    @discardableResult
    public static func compileSwift(_ source: String, descriptor: String, name: String, in folder: String) throws
        -> String
    {
        let swiftPath = folder + "/\(name).swift", cPath = folder + "/\(name)_descriptor.c",
            object = folder + "/\(name)_descriptor.o"
        let output = folder + "/lib\(name).so"
        try source.write(toFile: swiftPath, atomically: true, encoding: .utf8)
        try descriptor.write(toFile: cPath, atomically: true, encoding: .utf8)
        try run("/usr/bin/env", ["cc", "-c", "-fPIC", "-I", headerDirectory, cPath, "-o", object])
        try run("/usr/bin/env", ["swiftc", "-emit-library", "-module-name", name, swiftPath, object, "-o", output])
        for file in [swiftPath, cPath, object] { try FileManager.default.removeItem(atPath: file) }
        return output
    }

    /// A folder holding `Plugins/BenchmarkCells` built with `cc`, once per test process: it is no
    /// package product (it would sit beside every user's `cellkit`).
    public static let benchmarkPlugins: String = {
        let folder = root + "/benchmark-plugins"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let source = try String(
                contentsOfFile: repositoryRoot + "/Plugins/BenchmarkCells/BenchmarkCells.c", encoding: .utf8)
            try compileC(source, name: "BenchmarkCells", in: folder)
        } catch {
            fatalError("cannot build Plugins/BenchmarkCells for the tests: \(error)")
        }
        return folder
    }()

    /// Processes whose command line holds `marker` (a test's own folder), or whose environment has
    /// `TEST_MARK=marker` (a check's worker names no path on its command line), zombies aside: those
    /// a contained test checks are gone when it ends.
    public static func processes(marked marker: String) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { name in
            guard let pid = pid_t(name), pid != getpid(),
                let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                String(decoding: data, as: UTF8.self).contains(marker)
                    || FileManager.default.contents(atPath: "/proc/\(pid)/environ").map({
                        String(decoding: $0, as: UTF8.self).contains("TEST_MARK=" + marker)
                    }) == true,
                let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let state = stat.split(separator: ")").last?.split(separator: " ").first, state != "Z"
            else { return nil }
            return pid
        }
    }

    /// The `prlimit --nproc` a contained run gets: 60 processes for the uid it runs as. As root the
    /// run becomes another user (uid 64123) with none of its own; as an ordinary user the limit
    /// counts every task of that user, this test runner's threads and the other tests' processes
    /// included, so it is 60 above what the user runs now, with room for the tests beside it.
    public static var processLimit: Int {
        guard getuid() != 0 else { return 60 }
        return 60 + 256 + tasksOfThisUser()
    }

    /// The tasks (threads) this process's user runs, from /proc.
    public static func tasksOfThisUser() -> Int {
        let own = getuid()
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return 0 }
        return entries.reduce(0) { count, name in
            var info = stat()
            guard pid_t(name) != nil, stat("/proc/" + name, &info) == 0, info.st_uid == own,
                let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(name)/task")
            else { return count }
            return count + tasks.count
        }
    }

    /// A registry over exactly `paths` (folders or files), in that order.
    public static func registry(_ paths: [String], allowUnsafe: Bool = false) -> CellRegistry {
        CellRegistry(options: options(paths, allowUnsafe: allowUnsafe))
    }

    /// A plugin folder of the test's own holding two of the package's plugins and one file that is
    /// not a library, and a registry cache folder (not created yet) beside it.
    public static func cachedPlugins(_ name: String = #function) throws -> (plugins: String, cache: String) {
        let root = try folder(name)
        let plugins = root + "/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: false)
        for file in ["libFoobarCells.so", "libContactsCells.so"] {
            try FileManager.default.copyItem(atPath: buildDirectory + "/" + file, toPath: plugins + "/" + file)
        }
        try Data("not a library\n".utf8).write(to: URL(fileURLWithPath: plugins + "/libjunk.so"))
        return (plugins, root + "/cache/cellkit")
    }

    /// Discovery of `plugins` with the registry cache in `cache`.
    public static func cachedCatalog(_ plugins: String, cache: String) -> Catalog {
        var options = options([plugins])
        options.useCache = true
        options.cacheFolder = cache
        return Catalog(options: options)
    }

    public static func options(_ paths: [String], allowUnsafe: Bool = false) -> DiscoveryOptions {
        DiscoveryOptions(
            searchPath: SearchPath(entries: paths.map { .init(path: $0, origin: .option) }),
            allowUnsafePermissions: allowUnsafe)
    }

    /// Reads an `int` global a test plugin exports (it must already be loaded).
    public static func counter(_ name: String, in library: String) -> Int32 {
        guard let handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD) else { return -1 }
        defer { dlclose(handle) }
        return dlsym(handle, name)?.load(as: Int32.self) ?? -1
    }

    public struct CommandFailed: Error, CustomStringConvertible {
        public let description: String
    }

    public static func run(_ tool: String, _ arguments: [String]) throws {
        _ = try output(tool, arguments)
    }

    /// Runs `tool` with `arguments` (and `environment` added to this process's); returns its
    /// standard output, or throws with its standard error if it exits with a status other than 0.
    public static func output(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> String
    {
        let result = try execute(tool, arguments, environment: environment)
        guard result.status == 0 else {
            throw CommandFailed(
                description: "\(arguments.joined(separator: " ")) failed: \(result.errors)\(result.output)")
        }
        return result.output
    }

    /// Runs `tool` with `arguments` (and `environment` added to this process's) from `folder`
    /// (default: this process's); returns its exit status, standard output and standard error.
    /// Started through `Spawn`, as this process's own: an isolated render's sweep of its workers'
    /// orphans, in a test running beside this one, spares it (Foundation's `Process` was not told
    /// apart from an orphan).
    public static func execute(
        _ tool: String, _ arguments: [String], environment: [String: String] = [:], unsetting: [String] = [],
        in folder: String? = nil, mergingErrors: Bool = false
    ) throws -> (status: Int32, output: String, errors: String) {
        // Both streams go to files: a tool filling one pipe while we read the other would block.
        let (outputPath, errorPath) = (root + "/stdout-\(UUID().uuidString)", root + "/stderr-\(UUID().uuidString)")
        defer { for path in [outputPath, errorPath] { try? FileManager.default.removeItem(atPath: path) } }
        let pid = try start(
            tool, arguments, environment: environment, unsetting: unsetting, in: folder, output: outputPath,
            errors: mergingErrors ? nil : errorPath)
        let status = try wait(pid, tool)
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let errors = mergingErrors ? "" : (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        return (status, output, errors)
    }

    /// Starts `tool` as `execute` does, its standard output to the file `output` and its standard
    /// error to `errors` (nil: the same file, in the order written); returns its process id.
    public static func start(
        _ tool: String, _ arguments: [String], environment: [String: String] = [:], unsetting: [String] = [],
        in folder: String? = nil, output: String, errors: String? = nil
    ) throws -> pid_t {
        let argv =
            folder.map { ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", $0, tool] + arguments } ?? [tool] + arguments
        let started = Spawn.start(argv[0], Array(argv.dropFirst()), setting: environment, unsetting: unsetting) {
            actions in
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            if let errors {
                posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            } else {
                posix_spawn_file_actions_adddup2(&actions, 1, 2)
            }
        }
        guard case .success(let pid) = started else {
            throw CommandFailed(description: "cannot start \(tool): \(started)")
        }
        return pid
    }

    /// Waits for `pid` (`tool`, for the error); its exit status, or the signal's number that ended
    /// it, as Foundation's `Process` reports them.
    public static func wait(_ pid: pid_t, _ tool: String) throws -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw CommandFailed(description: "waitpid \(tool): errno \(errno)") }
        }
        return status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
    }

    /// The `cellkit` that `swift build` / `swift test` built, beside the tests.
    public static var cellkit: String { buildDirectory + "/cellkit" }

    /// The path of `name` on `PATH`, or nil when it is not installed.
    public static func tool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}

extension Array where Element == Rejection {
    /// The reason given for the file whose name ends with `suffix`.
    public func reason(for suffix: String) -> String? { first { $0.path.hasSuffix(suffix) }?.reason }
}
