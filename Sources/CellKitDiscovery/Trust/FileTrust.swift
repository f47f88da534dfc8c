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

package enum FileTrust {
    /// The most symbolic links followed from a plugin's path to its file: 40, Linux's own limit
    /// (a longer chain fails to open anyway, and is reported as a symbolic link loop).
    static let maxSymlinkHops = 40

    /// Why the host must not load the plugin at `path`, naming the file or folder at
    /// fault, with the fix; nil if it may. The one check discovery (`list`), loading
    /// (`render`) and `inspect` all make, so they always agree: the file (a symlink's
    /// final target), then every folder above the path as named, up to `/`, and every
    /// folder above each symlink's target in turn, nearest first.
    package static func problem(forPlugin path: String) -> (path: String, reason: String)? {
        problem(along: path)
    }

    /// Why the host must not look for plugins in the folder `path` (given on the search
    /// path), with the same rule as `problem(forPlugin:)`: the folder, every folder above
    /// it, and every folder a symlink to it passes through. A sticky folder is accepted
    /// here: each plugin in it is checked on its own when it is found.
    package static func problem(forFolder path: String) -> (path: String, reason: String)? {
        problem(along: path)
    }

    /// The checks of one discovery, which meets many plugins in few folders: what the folders
    /// above a plugin's folder say is worked out once per folder, not once per file. Each file
    /// (and the folder holding it) is still examined every time. Not for sharing between threads.
    final class Memo {
        /// The process's user, asked once per discovery: `getuid` is a system call each time, and
        /// asking it twice for each of 1,000 plugins cost more than the `stat`s themselves. Not kept
        /// for the whole process: an embedder may change its user between discoveries.
        let user = getuid()

        /// What one discovery learns of a folder holding plugins, once. A class: `problem` returns
        /// it for every plugin, and copying a `stat` and two strings each time cost more than the rest.
        private final class Folder {
            /// The folder as the plugins' paths name it, in UTF-8.
            let named: [UInt8]
            /// Where it really is (symlinks resolved).
            let real: String
            /// Its `stat`, nil if it has none.
            let info: stat?
            /// What the folders above it say: the first problem met, nearest first.
            let above: (path: String, reason: String)?
            /// The answer for any file in it that passes its own check, unless the folder's own
            /// check depends on the file (a sticky folder others can write): worked out once.
            let answer: (path: String, reason: String)??

            init(named: [UInt8], real: String, info: stat?, above: (path: String, reason: String)?, user: uid_t) {
                (self.named, self.real, self.info, self.above) = (named, real, info, above)
                if let info, !FileTrust.allows(info, user: user) {
                    answer =
                        info.st_mode & 0o022 != 0
                        ? nil : .some(FileTrust.problem(at: real, info, user: user).map { (real, $0) } ?? above)
                } else {
                    answer = .some(above)
                }
            }
        }
        private var folders: [String: Folder] = [:]
        /// The folder of the last plugin checked: discovery meets a folder's plugins one after
        /// another, and comparing bytes costs less than hashing its name for `folders`.
        private var last: Folder?

        init() {}

        /// `FileTrust.problem(forPlugin:)`, the same answer: a symlink is checked in full; a plain
        /// file is checked (`info` is its `lstat`, if the caller has it), then its folder (holding
        /// it), then the memoized folders above that.
        func problem(forPlugin path: String, lstat known: stat? = nil) -> (path: String, reason: String)? {
            var info = known ?? stat()
            guard known != nil || lstat(path, &info) == 0 else { return FileTrust.problem(forPlugin: path) }
            var path = path
            return path.withUTF8 { problem(forPlugin: $0, lstat: info) }
        }

        /// `problem(forPlugin:lstat:)` of the path whose bytes (UTF-8) are `path` and whose `lstat`
        /// is `info`: no string is made unless a check refuses or the file is a symlink.
        func problem(forPlugin path: UnsafeBufferPointer<UInt8>, lstat info: stat) -> (path: String, reason: String)? {
            func string() -> String { String(decoding: path, as: UTF8.self) }
            // Split by hand: NSString's path methods cost far more a call (BENCHMARKS.md, "Measurements
            // behind the code": FileTrust.split).
            guard path.count > 1, path[0] == UInt8(ascii: "/"), path[path.count - 1] != UInt8(ascii: "/"),
                info.st_mode & S_IFMT != S_IFLNK
            else { return FileTrust.problem(forPlugin: string()) }
            var slash = path.count - 1
            while path[slash] != UInt8(ascii: "/") { slash -= 1 }
            let folder = self.folder(of: path, slash: slash)
            /// The file's path with its folder as it really is.
            func real() -> String {
                (folder.real == "/" ? "" : folder.real) + String(decoding: path[slash...], as: UTF8.self)
            }
            // Named as it really is, as the full check does. (`allows` first: no string unless it refuses.)
            if !FileTrust.allows(info, user: user), FileTrust.problem(at: string(), info, user: user) != nil {
                let real = real()
                return FileTrust.problem(at: real, info, user: user).map { (real, $0) }
            }
            if let answer = folder.answer { return answer }
            // The entry matters only to a sticky folder others can write, and is named only then.
            if let own = folder.info, !FileTrust.allows(own, user: user),
                let reason = FileTrust.problem(
                    at: folder.real, own, holding: own.st_mode & 0o022 != 0 ? real() : nil, user: user)
            {
                return (folder.real, reason)
            }
            return folder.above
        }

        /// What `problem(forPlugin:lstat:)` answers for every regular file in the folder of the plugin
        /// at `path` (UTF-8) that passes its own check (`FileTrust.allows`), if the answer does not
        /// depend on the file; nil if it may. Discovery asks once a folder, not for each of its
        /// plugins (BENCHMARKS.md, "Measurements behind the code": FileTrust.folder).
        func answer(forPluginsBeside path: UnsafeBufferPointer<UInt8>) -> (path: String, reason: String)?? {
            guard path.count > 1, path[0] == UInt8(ascii: "/"), path[path.count - 1] != UInt8(ascii: "/") else {
                return nil
            }
            var slash = path.count - 1
            while path[slash] != UInt8(ascii: "/") { slash -= 1 }
            return folder(of: path, slash: slash).answer
        }

        /// What is known of the folder named by the first `slash` bytes of `path` (`/` if 0).
        private func folder(of path: UnsafeBufferPointer<UInt8>, slash: Int) -> Folder {
            let bytes = UnsafeBufferPointer(rebasing: path[0..<max(slash, 1)])
            if let last, last.named.count == bytes.count,
                last.named.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress!, $0.count) == 0 })
            {
                return last
            }
            let named = String(decoding: bytes, as: UTF8.self)
            if let known = folders[named] {
                last = known
                return known
            }
            let real = FileTrust.realPath(named) ?? named
            var own = stat()
            let info: stat? = stat(real, &own) == 0 ? own : nil
            var above: (path: String, reason: String)?
            for (outer, entry) in FileTrust.folders(above: real) {
                if let reason = FileTrust.problem(at: outer, holding: entry) {
                    above = (outer, reason)
                    break
                }
            }
            let folder = Folder(named: Array(named.utf8), real: real, info: info, above: above, user: user)
            folders[named] = folder
            last = folder
            return folder
        }
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
            let named = PathText.folder(of: current)
            let parent = realPath(named) ?? named
            var entry = (parent == "/" ? "" : parent) + "/" + PathText.lastComponent(of: current)
            var folder = parent
            while true {
                if seen.insert(folder + "\u{0}" + entry).inserted { result.append((folder, entry)) }
                if folder == "/" || folder.isEmpty { break }
                entry = folder
                folder = PathText.folder(of: folder)
            }
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { break }
            current = target.hasPrefix("/") ? target : parent + "/" + target
        }
        return result
    }

    /// `path` with every symlink resolved and `.`/`..` removed, or nil if it does not exist.
    static func realPath(_ path: String) -> String? {
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
        return problem(at: path, info, holding: entry)
    }

    /// Whether the file or folder whose `stat` is `info` passes its own check without more: writable
    /// only by its owner, who is root or `me`. (A sticky folder may pass `problem(at:)` otherwise.)
    static func allows(_ info: stat, user me: uid_t) -> Bool {
        info.st_mode & 0o022 == 0 && (info.st_uid == 0 || info.st_uid == me)
    }

    /// `problem(at:holding:)` for the file or folder at `path` whose `stat` is `info`. The texts
    /// are built only for a refusal: discovery asks this of every plugin on every run. `me` is the
    /// process's user (`getuid()`, unless the caller asked it already).
    static func problem(at path: String, _ info: stat, holding entry: String? = nil, user me: uid_t = getuid())
        -> String?
    {
        if allows(info, user: me) { return nil }
        let isFolder = info.st_mode & S_IFMT == S_IFDIR
        let what = isFolder ? "folder" : "file"
        let mode = String(info.st_mode & 0o7777, radix: 8).leftPadded(to: 4)
        let override = "or pass --allow-unsafe-permissions if you trust everyone who can write it"
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
