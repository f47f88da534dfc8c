// Trust decided where ids mean what they say. A sandboxed worker enters a user namespace
// that maps only its own ids, where every root-owned folder reads as the overflow uid: the
// ownership rule (`FileTrust`) cannot be judged there. So the worker judges every plugin it
// may load before it enters, on real ids, and pins each one's identity (device, inode, size,
// modification and change times); inside, the loader checks the pin, never the ownership.
// Once pinned, the process is sealed: it writes no registry cache (the sandbox allows no
// writes, and a refused write would read as the plugin's act).

import Foundation
import Synchronization

/// The plugins a worker judged before its sandbox closed, as they were then.
package enum DecidedTrust {
    /// A plugin as it was pinned: its identity, or why it was refused then.
    enum Pin {
        case pinned(RegistryCache.FileKey)
        case refused(path: String, reason: String)
    }

    private static let state = Mutex<[String: Pin]?>(nil)

    /// Pins the plugins at `paths`, which discovery judged on real ids (a catalog's usable
    /// plugins), as they are now (`judged`): from now on only a pinned file, unchanged, loads, and
    /// the registry cache is not written.
    package static func pin(_ paths: [String], checkingTrust: Bool = true) {
        let pins = judged(paths, checkingTrust: checkingTrust)
        state.withLock { $0 = pins }
    }

    /// Each of `paths` as it is now: its identity, taken first, then (unless `checkingTrust` is
    /// false: `--allow-unsafe-permissions`) its permissions judged again (`FileTrust`). Discovery
    /// may have judged a plugin a while ago (`cellkit render` discovers in the supervisor, and a
    /// worker that starts after a fault comes later still): a file swapped since is judged as it
    /// is now, and one swapped after its identity was taken is refused by it.
    static func judged(_ paths: [String], checkingTrust: Bool) -> [String: Pin] {
        var pins: [String: Pin] = [:]
        for path in paths {
            guard let key = RegistryCache.FileKey(path: path) else { continue }
            if checkingTrust, let problem = FileTrust.problem(forPlugin: path) {
                pins[path] = .refused(path: problem.path, reason: problem.reason)
            } else {
                pins[path] = .pinned(key)
            }
        }
        return pins
    }

    /// Whether the process pinned its plugins and is sealed (`pin(_:checkingTrust:)`).
    package static var isSealed: Bool { state.withLock { $0 != nil } }

    /// Why the plugin at `path` must not load: nil if the process is not sealed (then
    /// `FileTrust` judges) or the file is pinned and unchanged.
    package static func problem(forPlugin path: String) -> (path: String, reason: String)?? {
        state.withLock { pins -> (path: String, reason: String)?? in
            guard let pins else { return .none }
            return .some(problem(forPlugin: path, in: pins))
        }
    }

    /// Why the plugin at `path` must not load, as `pins` say; nil if it is pinned and unchanged.
    static func problem(forPlugin path: String, in pins: [String: Pin]) -> (path: String, reason: String)? {
        guard let pin = pins[path] else {
            return (path, "it was not judged before the sandbox closed (only the plugins found then load)")
        }
        switch pin {
        case .refused(let at, let reason): return (at, reason)
        case .pinned(let key):
            guard RegistryCache.FileKey(path: path) == key else {
                return (path, "it changed after its permissions were checked; run the command again")
            }
            return nil
        }
    }
}

extension DiscoveryOptions {
    /// The registry cache file these options read, if they use one: a sandboxed worker may read
    /// it (its records are decoded on demand), never write it.
    package var cacheFile: String? {
        guard useCache else { return nil }
        return (cacheFolder ?? RegistryCache.defaultFolder()) + "/" + RegistryCache.fileName
    }
}
