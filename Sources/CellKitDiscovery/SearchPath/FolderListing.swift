// A folder's library names as one discovery listed them, kept in the registry cache so that the
// next discovery need not list the folder again (listing a folder of many files, sorting their
// names and building their paths cost system time and instructions for each file: BENCHMARKS.md,
// "Measurements behind the code": FolderListing). Every file is still stat'ed and checked on
// every run: a file rewritten in place (`cp new.so old.so`) changes no folder, and its own key
// catches it.
//
// When a stored listing may be trusted is git's "racy clean" rule. Adding, removing or renaming
// an entry sets the folder's modification and change times to the current time, which the
// kernel takes from the same coarse clock as CLOCK_REALTIME_COARSE (or, for file systems with
// multigrain timestamps, from a finer reading that is never earlier). So discovery reads that
// clock just before it stats the folder and lists it, and stores the reading with the listing
// and the folder's key (device, inode, size, both times). The next discovery trusts the listing
// only if the folder's key is unchanged and both of its times are strictly older than the
// reading, by `margin`. Any change made after the reading would have set the times to at least
// the reading (less the file system's granularity, which the margin covers), which differs from
// the stored times: the key changes, and the folder is listed again. A change made in the same
// clock tick as an earlier one, before the reading, leaves the times equal to the stored ones
// but also within the margin of the reading: that listing is never trusted, and the folder is
// listed again (and the listing stored once its times are old enough).
//
// Not covered, as git's rule does not cover them: a clock set back by exactly the right amount,
// and a network file system whose server's clock lags this machine's by more than the margin or
// whose folder times are cached by the client.

import CellKitModel
import Foundation

/// The detail text of a folder listing's cache entry.
///
/// `<reading>.<hash>` (16 lowercase hexadecimal digits each), then `/name` for each library
/// name, in listing order. Names are stored only when all are plain ASCII (`RegistryCache.isPlain`),
/// so the text is written as it is, and `/`, which no name holds, separates them. The hash, of
/// the reading and the names, catches a damaged entry: it is listed again, never believed.
enum FolderListing {
    /// How much older than the clock reading the folder's times must be: 2 s, the coarsest
    /// granularity of common file systems' times (FAT's; ext3's and HFS+'s are 1 s).
    static let margin: Int64 = 2_000_000_000

    /// The current time of CLOCK_REALTIME_COARSE, in nanoseconds since 1970: what the kernel stamps
    /// a folder's times with when it changes.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME_COARSE, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    /// Whether a listing made at `reading` of a folder whose key is `key` may be trusted later
    /// while the key is unchanged: both times strictly older than the reading, by `margin`.
    static func isSettled(_ key: RegistryCache.FileKey, reading: Int64) -> Bool {
        let latest = max(key.modified, key.changed)
        return reading > Int64.min + margin && latest < reading - margin
    }

    /// The detail text for the names of `listing` (each plain ASCII, none empty) listed at `reading`.
    static func detail(reading: Int64, listing: Catalog.Listing) -> String {
        var joined: [UInt8] = []
        listing.forEachName { name in
            joined.append(UInt8(ascii: "/"))
            joined.append(contentsOf: name)
        }
        let hash = joined.withUnsafeBufferPointer { Hash64.of($0, seed: UInt64(bitPattern: reading)) }
        return Hash64.hex(UInt64(bitPattern: reading)) + "." + Hash64.hex(hash)
            + String(decoding: joined, as: UTF8.self)
    }

    /// The names part (`/name/name…`) of `detail` if it is whole (its hash agrees) and the listing
    /// it records may be trusted for a folder whose key is `key`; nil otherwise.
    static func names(in detail: UnsafeBufferPointer<UInt8>, key: RegistryCache.FileKey)
        -> UnsafeBufferPointer<UInt8>?
    {
        guard detail.count >= 33, detail[16] == UInt8(ascii: "."),
            let reading = RegistryCache.FileKey.hex16(UnsafeRawPointer(detail.baseAddress!)),
            let hash = RegistryCache.FileKey.hex16(UnsafeRawPointer(detail.baseAddress! + 17))
        else { return nil }
        let names = UnsafeBufferPointer(rebasing: detail[33...])
        guard isSettled(key, reading: Int64(bitPattern: reading)), Hash64.of(names, seed: reading) == hash,
            names.isEmpty || names[0] == UInt8(ascii: "/")
        else { return nil }
        return names
    }
}
