// The registry cache: what discovery learned from each plugin file's contents, kept
// between runs so that an unchanged file's symbol table is not read again (as
// GStreamer's registry does). An entry is used only while the file's device, inode,
// size and modification and change times (nanoseconds) are what they were when it was
// read. The trust checks are never cached: discovery runs them before each lookup.

import CellKitModel
import Foundation

/// The cache file and the entries read from it, updated as discovery goes.
struct RegistryCache {
    /// What identifies one version of a file: if any of these changes, the file is read again.
    struct FileKey: Codable, Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        /// `st_mtim`, in nanoseconds since 1970.
        var modified: Int64
        /// `st_ctim`, in nanoseconds since 1970: it changes even when `touch -d` restores the modification time.
        var changed: Int64

        /// The key of the file `path` leads to (symlinks followed), if it is a regular file.
        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
            changed = Int64(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctim.tv_nsec)
        }
    }

    /// What was learned from one file: its plugin record, or why it is not a plugin.
    struct Entry: Codable {
        var path: String
        var key: FileKey
        var plugin: PluginFile?
        var rejection: String?
    }

    /// The file's layout: `format` first, so that another version's file is recognized and ignored.
    struct Contents: Codable {
        var format: String
        var entries: [Entry]
    }

    /// Names this version's layout and host: a cache written under any other is ignored and
    /// rewritten. The ABI is part of it because a plugin's problems are judged against it.
    /// Raise the number after `cellkit-registry-cache` whenever what `PluginFile.examine` gives
    /// for a file can change (a new rule, a reworded reason, a new field): old entries then go.
    static let format: String = {
        #if arch(x86_64)
        let arch = "x86_64"
        #elseif arch(arm64)
        let arch = "arm64"
        #else
        let arch = "other"
        #endif
        let abi = PluginFile.hostABI
        return
            "cellkit-registry-cache 1; CellKit ABI \(abi.major).\(abi.minor); \(arch), \(MemoryLayout<Int>.size * 8)-bit; ELF limits \(ELFLimits.maxFileBytes)"
    }()

    /// The cache file's name inside the cache folder.
    static let fileName = "registry.json"

    /// The largest cache file read, in bytes: 64 MiB; a larger one is ignored.
    static let maxFileBytes = 64 << 20

    /// `$XDG_CACHE_HOME/cellkit` (a relative `XDG_CACHE_HOME` is ignored, as the XDG rules say),
    /// default `~/.cache/cellkit`.
    static func defaultFolder(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.cache"
        return base + "/cellkit"
    }

    let folder: String
    var file: String { folder + "/" + Self.fileName }
    private(set) var entries: [String: Entry] = [:]
    /// Paths looked up or stored during this discovery.
    private var visited = Set<String>()
    /// True when the entries differ from the file: something to write.
    private(set) var isDirty = false

    /// The cache in `folder`: its entries if the file is whole, ours, safe and of this format;
    /// otherwise none (a corrupt or foreign file is rewritten on `save()`).
    init(folder: String) {
        self.folder = SearchPath.absolute(folder)
        guard let contents = Self.load(file) else {
            isDirty = FileManager.default.fileExists(atPath: file)
            return
        }
        for entry in contents.entries where entry.plugin == nil || entry.plugin?.path == entry.path {
            entries[entry.path] = entry
        }
    }

    /// The file's contents, or nil if it is missing, unsafe, too large, not JSON of this format.
    private static func load(_ file: String) -> Contents? {
        if FileTrust.problem(forPlugin: file) != nil { return nil }  // others could forge what we would load
        let fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid(),
            info.st_mode & 0o022 == 0, info.st_size <= maxFileBytes,
            let data = try? handle.read(upToCount: maxFileBytes + 1), data.count <= maxFileBytes
        else { return nil }
        struct Header: Decodable { var format: String }
        let decoder = JSONDecoder()
        guard let header = try? decoder.decode(Header.self, from: data), header.format == format else { return nil }
        return try? decoder.decode(Contents.self, from: data)
    }

    /// What the cache knows of the file at `path` as it is now, or nil (then read the file and `store`).
    mutating func lookup(_ path: String, key: FileKey) -> Result<PluginFile, Rejection>? {
        visited.insert(path)
        guard let entry = entries[path], entry.key == key else { return nil }
        if let plugin = entry.plugin { return .success(plugin) }
        if let reason = entry.rejection { return .failure(Rejection(path: path, reason: reason)) }
        return nil
    }

    /// Records what reading `path` (as it was at `key`) gave.
    mutating func store(_ path: String, key: FileKey, _ outcome: Result<PluginFile, Rejection>) {
        visited.insert(path)
        switch outcome {
        case .success(let plugin): entries[path] = Entry(path: path, key: key, plugin: plugin)
        case .failure(let rejection): entries[path] = Entry(path: path, key: key, rejection: rejection.reason)
        }
        isDirty = true
    }

    /// Drops the entry for `path`, whose file could not be keyed (gone, or no longer a regular file).
    mutating func forget(_ path: String) {
        visited.insert(path)
        if entries.removeValue(forKey: path) != nil { isDirty = true }
    }

    /// Drops every entry not visited whose file is gone or changed (one `stat` each).
    mutating func prune() {
        for (path, entry) in entries where !visited.contains(path) && FileKey(path: path) != entry.key {
            entries.removeValue(forKey: path)
            isDirty = true
        }
    }

    /// Writes the entries if they changed: a temporary file (mode 0600) in the folder (created
    /// 0700), renamed over the cache file, so readers see the old file or the new, never part of
    /// one; of two processes writing at once the last wins. Failures are ignored: the cache is
    /// only a shortcut.
    func save() {
        guard isDirty, Self.makeFolder(folder), FileTrust.problem(forFolder: folder) == nil else { return }
        let contents = Contents(
            format: Self.format, entries: entries.values.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        )
        guard let data = try? JSONEncoder().encode(contents) else { return }
        let temporary = folder + "/.\(Self.fileName).\(getpid()).\(UInt32.random(in: .min ... .max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
        guard close(fd) == 0, written, rename(temporary, file) == 0 else {
            unlink(temporary)
            return
        }
    }

    /// Creates `folder` and any missing folder above it with mode 0700; true if it exists now.
    private static func makeFolder(_ folder: String) -> Bool {
        var info = stat()
        if stat(folder, &info) == 0 { return info.st_mode & S_IFMT == S_IFDIR }
        let parent = (folder as NSString).deletingLastPathComponent
        guard parent != folder, !parent.isEmpty, makeFolder(parent) else { return false }
        return mkdir(folder, 0o700) == 0 || errno == EEXIST
    }
}
