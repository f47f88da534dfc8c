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
    private static let state = Mutex<[String: RegistryCache.FileKey]?>(nil)

    /// Pins the plugins at `paths`, which this process's discovery judged on its real ids (a
    /// catalog's usable plugins), as they are now: from now on only a pinned file, unchanged,
    /// loads, and the registry cache is not written.
    package static func pin(_ paths: [String]) {
        var pins: [String: RegistryCache.FileKey] = [:]
        for path in paths { if let key = RegistryCache.FileKey(path: path) { pins[path] = key } }
        state.withLock { $0 = pins }
    }

    /// Whether the process pinned its plugins and is sealed (`pin(_:)`).
    package static var isSealed: Bool { state.withLock { $0 != nil } }

    /// Why the plugin at `path` must not load: nil if the process is not sealed (then
    /// `FileTrust` judges) or the file is pinned and unchanged.
    package static func problem(forPlugin path: String) -> (path: String, reason: String)?? {
        state.withLock { pins -> (path: String, reason: String)?? in
            guard let pins else { return .none }
            guard let pinned = pins[path] else {
                return .some((path, "it was not judged before the sandbox closed (only the plugins found then load)"))
            }
            guard RegistryCache.FileKey(path: path) == pinned else {
                return .some((path, "it changed after its permissions were checked; run the command again"))
            }
            return .some(nil)
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
