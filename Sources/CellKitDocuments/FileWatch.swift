// Files watched for a change (`cellkit browse --watch`, `cellkit preview --watch`): polled by
// their identity, so that a file replaced by a build (a new inode), rewritten in place, removed or
// made is seen alike, without a kernel watch per folder. A change is reported once the files have
// been still for a moment, so that a plugin a linker is still writing is not loaded half-written.

import Foundation
import Glibc

/// A set of files polled for a change of their identity (device, inode, size, modification and
/// change times; "missing" for a file that is not there).
package struct FileWatch {
    /// What one file is now.
    struct Identity: Equatable {
        var device: UInt64 = 0, inode: UInt64 = 0, size: Int64 = -1
        var modified: Int = 0, changed: Int = 0
    }

    /// The files watched, as given.
    package let paths: [String]
    /// Seconds the files must stay as they are before a change is reported.
    package let settle: Double
    private var seen: [Identity]
    /// The identities last read while a change settles, and since when they have been so.
    private var pending: (identities: [Identity], since: Date)?

    /// Watches `paths` as they are now; a change is reported after `settle` seconds of stillness.
    package init(paths: [String], settle: Double = 0.15) {
        (self.paths, self.settle) = (paths, settle)
        seen = paths.map(Self.identity)
    }

    /// Whether the files changed since the watch began or the last change it reported, and have
    /// since stayed still for `settle` seconds (`now` is the caller's clock, for tests).
    package mutating func changed(now: Date = Date()) -> Bool {
        let current = paths.map(Self.identity)
        if current == seen {
            pending = nil
            return false
        }
        let since = pending?.identities == current ? pending!.since : now
        guard now.timeIntervalSince(since) >= settle else {
            pending = (current, since)
            return false
        }
        (seen, pending) = (current, nil)
        return true
    }

    /// What `path` is now: its identity, or all zero (size -1) when it cannot be read.
    static func identity(_ path: String) -> Identity {
        var info = stat()
        guard stat(path, &info) == 0 else { return Identity() }
        return Identity(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec,
            changed: info.st_ctim.tv_sec * 1_000_000_000 + info.st_ctim.tv_nsec)
    }
}
