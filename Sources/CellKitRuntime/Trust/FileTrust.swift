// Whom the host trusts to supply code: a plugin file, or a folder on the search
// path, must be writable only by its owner, and owned by root or the current user.
// None of the comparable loaders checks this; a writable plugin folder is a
// standing invitation to run someone else's code in the host.

import CellKitModel
import Foundation

enum FileTrust {
    /// Why the host must not load the plugin at `path`, naming the file or folder at
    /// fault, with the fix; nil if it may. The one check discovery (`list`), loading
    /// (`render`) and `inspect` all make, so they always agree: the file as named, the
    /// file a symlink resolves to, and the folders holding each.
    static func problem(forPlugin path: String) -> (path: String, reason: String)? {
        let target = (path as NSString).resolvingSymlinksInPath
        var places = [path, (path as NSString).deletingLastPathComponent]
        if target != path { places += [target, (target as NSString).deletingLastPathComponent] }
        for place in places {
            if let reason = problem(at: place) { return (place, reason) }
        }
        return nil
    }

    /// Why the host must not take code from the file or folder at `path` (writable by
    /// others, or owned by someone else), with the fix; nil if it may.
    static func problem(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }  // a missing file is reported elsewhere
        let what = info.st_mode & S_IFMT == S_IFDIR ? "folder" : "file"
        let mode = String(info.st_mode & 0o7777, radix: 8).leftPadded(to: 4)
        let override = "or pass --allow-unsafe-permissions if you trust everyone who can write it"
        if info.st_mode & 0o022 != 0 {
            let who = info.st_mode & 0o002 != 0 ? "everyone" : "its group"
            return
                "refused: the \(what) is writable by \(who) (mode \(mode)), who could replace code the host runs; fix: chmod go-w '\(path)', \(override)"
        }
        let me = getuid()
        if info.st_uid != 0, info.st_uid != me {
            return
                "refused: the \(what) is owned by uid \(info.st_uid), neither root nor you (uid \(me)); fix: chown \(me) '\(path)', \(override)"
        }
        return nil
    }
}
