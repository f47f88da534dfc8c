// Whom the host trusts to supply code: a plugin file, or a folder on the search
// path, must be writable only by its owner, and owned by root or the current user;
// so must every folder above it, up to `/`, and every folder a symbolic link on the
// way passes through: whoever can write any of them can swap the plugin for their own.
// A sticky folder such as /tmp is the one exception, for entries owned by root or
// you (no one else may rename or delete them), as OpenSSH's path check treats it.
// None of the comparable loaders checks this; a writable plugin folder is a
// standing invitation to run someone else's code in the host.

import CellKitModel
import Foundation

enum FileTrust {
    /// The most symbolic links followed from a plugin's path to its file: 40, Linux's own limit
    /// (a longer chain fails to open anyway, and is reported as a symbolic link loop).
    static let maxSymlinkHops = 40

    /// Why the host must not load the plugin at `path`, naming the file or folder at
    /// fault, with the fix; nil if it may. The one check discovery (`list`), loading
    /// (`render`) and `inspect` all make, so they always agree: the file (a symlink's
    /// final target), then every folder above the path as named, up to `/`, and every
    /// folder above each symlink's target in turn, nearest first.
    static func problem(forPlugin path: String) -> (path: String, reason: String)? {
        problem(along: path)
    }

    /// Why the host must not look for plugins in the folder `path` (given on the search
    /// path), with the same rule as `problem(forPlugin:)`: the folder, every folder above
    /// it, and every folder a symlink to it passes through. A sticky folder is accepted
    /// here: each plugin in it is checked on its own when it is found.
    static func problem(forFolder path: String) -> (path: String, reason: String)? {
        problem(along: path)
    }

    /// The rule both checks share.
    private static func problem(along path: String) -> (path: String, reason: String)? {
        let path = path.hasPrefix("/") ? path : SearchPath.absolute(path)
        // The file or folder itself: where a symlink leads, named as it really is.
        let real = realPath(path) ?? path
        if let reason = problem(at: real) { return (real, reason) }
        for (folder, entry) in folders(above: path) {
            if let reason = problem(at: folder, holding: entry) { return (folder, reason) }
        }
        return nil
    }

    /// Every folder on the way to `path`, each with the entry in it that the way goes
    /// through, nearest first, each once: the folders above `path` as named (resolved),
    /// then, while the entry is a symlink, the folders above its target.
    static func folders(above path: String) -> [(folder: String, entry: String)] {
        var result: [(folder: String, entry: String)] = [], seen = Set<String>()
        var current = path
        for _ in 0...maxSymlinkHops {
            let named = (current as NSString).deletingLastPathComponent
            let parent = realPath(named) ?? named
            var entry = (parent == "/" ? "" : parent) + "/" + (current as NSString).lastPathComponent
            var folder = parent
            while true {
                if seen.insert(folder + "\u{0}" + entry).inserted { result.append((folder, entry)) }
                if folder == "/" || folder.isEmpty { break }
                entry = folder
                folder = (folder as NSString).deletingLastPathComponent
            }
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { break }
            current = target.hasPrefix("/") ? target : parent + "/" + target
        }
        return result
    }

    /// `path` with every symlink resolved and `.`/`..` removed, or nil if it does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Why the host must not take code from the file or folder at `path` (writable by
    /// others, or owned by someone else), with the fix; nil if it may. A folder writable by
    /// others but sticky is accepted when `entry`, the file or folder in it on the way to a
    /// plugin, is owned by root or you (or when `entry` is nil: each entry is checked later).
    static func problem(at path: String, holding entry: String? = nil) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }  // a missing file is reported elsewhere
        let isFolder = info.st_mode & S_IFMT == S_IFDIR
        let what = isFolder ? "folder" : "file"
        let mode = String(info.st_mode & 0o7777, radix: 8).leftPadded(to: 4)
        let override = "or pass --allow-unsafe-permissions if you trust everyone who can write it"
        let me = getuid()
        if info.st_mode & 0o022 != 0 {
            let who = info.st_mode & 0o002 != 0 ? "everyone" : "its group"
            let sticky = isFolder && info.st_mode & S_ISVTX != 0
            guard sticky else {
                return
                    "refused: the \(what) is writable by \(who) (mode \(mode)), who could replace code the host runs; fix: chmod go-w '\(path)', \(override)"
            }
            // Sticky: others may add entries but not rename or delete one they do not own.
            var below = stat()
            if let entry, lstat(entry, &below) == 0, below.st_uid != 0, below.st_uid != me {
                return
                    "refused: the folder is writable by \(who) (mode \(mode)) and its sticky bit protects only entries owned by root or you, but '\(entry)' is owned by uid \(below.st_uid); fix: move the plugin to a folder only you can write, \(override)"
            }
        }
        if info.st_uid != 0, info.st_uid != me {
            return
                "refused: the \(what) is owned by uid \(info.st_uid), neither root nor you (uid \(me)); fix: chown \(me) '\(path)', \(override)"
        }
        return nil
    }
}
