// A folder's listing kept in the registry cache: used while the folder is unchanged and its
// times are settled (git's racy-clean rule, `FolderListing`); a file added, removed or renamed
// right after a listing is seen; a listing made within the margin of a change is never trusted;
// a damaged one is listed again; a file rewritten in place is still read again.

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDiscovery

@Suite("Folder listings in the registry cache")
struct FolderListingTests {
    /// The paths of the plugins and rejections a discovery found.
    func files(_ catalog: Catalog) -> Set<String> {
        Set(catalog.plugins.map(\.path) + catalog.rejections.map(\.path))
    }

    /// Waits until the folder's times are older than `FolderListing.margin`, so that a listing of
    /// it may be kept.
    func settle() { usleep(useconds_t(FolderListing.margin / 1_000) + 100_000) }

    @Test("a settled folder's listing is kept and used; files added, removed, renamed right after are seen")
    func changesAreSeen() throws {
        let (plugins, cache) = try Fixtures.cachedPlugins()
        settle()
        let first = Fixtures.cachedCatalog(plugins, cache: cache)
        #expect(first.listedFolders == [plugins])
        #expect(RegistryCache(folder: cache).entries[plugins + "/"] != nil, "the listing is kept")
        let second = Fixtures.cachedCatalog(plugins, cache: cache)
        #expect(second.listedFolders.isEmpty, "the kept listing is used")
        #expect(files(second) == files(first) && second.filesRead == 0)

        // Rewritten in place: the folder does not change, the file's own key does.
        let foobar = plugins + "/libFoobarCells.so"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: foobar))
        try handle.write(contentsOf: try Data(contentsOf: URL(fileURLWithPath: foobar)))
        try handle.close()
        let rewritten = Fixtures.cachedCatalog(plugins, cache: cache)
        #expect(rewritten.listedFolders.isEmpty && rewritten.filesRead == 1)

        try FileManager.default.copyItem(atPath: foobar, toPath: plugins + "/libAdded.so")
        let added = Fixtures.cachedCatalog(plugins, cache: cache)
        #expect(added.listedFolders == [plugins])
        #expect(files(added) == files(first).union([plugins + "/libAdded.so"]))

        try FileManager.default.removeItem(atPath: plugins + "/libjunk.so")
        #expect(
            files(Fixtures.cachedCatalog(plugins, cache: cache)) == files(added).subtracting([plugins + "/libjunk.so"]))

        #expect(rename(plugins + "/libAdded.so", plugins + "/libRenamed.so") == 0)
        let renamed = Fixtures.cachedCatalog(plugins, cache: cache)
        #expect(files(renamed).contains(plugins + "/libRenamed.so"))
        #expect(!files(renamed).contains(plugins + "/libAdded.so"))

        // The folder changed within the margin: each discovery lists it again until it settles.
        #expect(Fixtures.cachedCatalog(plugins, cache: cache).listedFolders == [plugins])
        settle()
        _ = Fixtures.cachedCatalog(plugins, cache: cache)
        let settled = Fixtures.cachedCatalog(plugins, cache: cache)
        #expect(settled.listedFolders.isEmpty)
        #expect(files(settled) == files(renamed))
    }

    @Test("a listing is trusted only if the folder's times are older than the reading by the margin")
    func racyListings() throws {
        var info = stat()
        info.st_mode = S_IFDIR | 0o755
        let reading: Int64 = 1_800_000_000_000_000_000
        for (modified, changed, settled) in [
            (reading - FolderListing.margin - 1, reading - FolderListing.margin - 1, true),
            (reading - FolderListing.margin, reading - FolderListing.margin - 1, false),
            (reading - FolderListing.margin - 1, reading, false),  // a change in the reading's tick
            (reading + 1, reading - FolderListing.margin - 1, false),  // a time in the future
        ] {
            info.st_mtim = timespec(tv_sec: Int(modified / 1_000_000_000), tv_nsec: Int(modified % 1_000_000_000))
            info.st_ctim = timespec(tv_sec: Int(changed / 1_000_000_000), tv_nsec: Int(changed % 1_000_000_000))
            let key = try #require(RegistryCache.FileKey(folder: info))
            #expect(FolderListing.isSettled(key, reading: reading) == settled)
        }
        #expect(RegistryCache.FileKey(folder: stat()) == nil, "a folder's key is a folder's")
    }

    @Test("a kept listing is refused when the folder's key changes, the listing was racy, or its text is damaged")
    func keptListings() throws {
        let folder = try Fixtures.folder() + "/cache"
        let plugins = "/p/plugins"
        var info = stat()
        info.st_mode = S_IFDIR | 0o755
        info.st_ino = 42
        info.st_mtim = timespec(tv_sec: 1_000, tv_nsec: 5)
        info.st_ctim = info.st_mtim
        let key = try #require(RegistryCache.FileKey(folder: info))
        let listing = Catalog.Listing(
            prefix: Array((plugins + "/").utf8), names: ["liba.so", "libb.so.1"].map { Array($0.utf8) })
        var cache = RegistryCache(folder: folder)
        // Racy (the folder's times within the margin of the reading): not kept.
        cache.store(listingOf: plugins, key: key, reading: key.modified + FolderListing.margin, listing: listing)
        #expect(cache.entries.isEmpty)
        cache.store(listingOf: plugins, key: key, reading: key.modified + FolderListing.margin + 1, listing: listing)
        cache.save()

        var loaded = RegistryCache(folder: folder)
        let kept = loaded.listing(ofFolder: plugins, key: key)
        let names = try #require(kept)
        #expect(String(decoding: names, as: UTF8.self) == "/liba.so/libb.so.1")
        let rebuilt = try #require(Catalog.Listing(prefix: Array((plugins + "/").utf8), joined: names))
        #expect(rebuilt.bytes == listing.bytes && rebuilt.paths == listing.paths)
        var changed = key
        changed.changed += 1
        var reloaded = RegistryCache(folder: folder)
        #expect(reloaded.listing(ofFolder: plugins, key: changed) == nil)

        // Damaged: any byte of the names changed is caught by the hash.
        let file = folder + "/registry.json"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        for (from, to) in [("liba.so", "libc.so"), ("/libb", "libbb"), ("so.1", "so.2")] {
            try text.replacingOccurrences(of: from, with: to).write(toFile: file, atomically: true, encoding: .utf8)
            var damaged = RegistryCache(folder: folder)
            #expect(damaged.listing(ofFolder: plugins, key: key) == nil, "\(from) → \(to)")
        }
        // Random damage: the listing is refused or comes back whole, never different.
        let valid = Array(text.utf8)
        var rng = SplitMix64(seed: 29)
        for _ in 0..<300 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
                case 1: bytes[at] = [0x22, 0x5C, 0x2F, 0x2E, 0x0A, 0x00].randomElement(using: &rng)!
                default: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...8, using: &rng)))
                }
            }
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            var damaged = RegistryCache(folder: folder)
            let got = damaged.listing(ofFolder: plugins, key: key)
            #expect(got == nil || got == names)
        }
        #expect(Catalog.Listing(prefix: Array("/p/".utf8), joined: Array("/a.so//b.so".utf8)) == nil)
        #expect(Catalog.Listing(prefix: Array("/p/".utf8), joined: Array("a.so".utf8)) == nil)
        #expect(Catalog.Listing(prefix: Array("/p/".utf8), joined: [])?.paths.isEmpty == true)
    }
}
