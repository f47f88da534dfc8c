// The structures that keep discovery of 1,000 installed plugins cheap give the answers the plain
// ones they replace gave: the registry cache's index and a dictionary of its entries, the set of
// files met and `Set`, the key's fixed-width text and the key, byte checks and string checks,
// the listing's byte order and string order; and a record the cache file no longer holds (another
// process replaced the file) is read from the plugin instead.

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDiscovery

@Suite("Discovery's lookup structures")
struct DiscoveryStructureTests {
    /// A random path: mostly plain ASCII, sometimes with bytes the cache file must escape or that
    /// are not ASCII, so that the index meets both kinds of entry.
    func randomPath(_ rng: inout SplitMix64) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789_-.".unicodeScalars)
        let odd: [Unicode.Scalar] = ["\"", "\\", "\n", "é", "\u{2028}", "ü", " ", "日"]
        var path = "/p"
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            path += "/"
            for _ in 0..<Int.random(in: 1...12, using: &rng) {
                let scalar =
                    Int.random(in: 0..<20, using: &rng) == 0
                    ? odd.randomElement(using: &rng)! : alphabet.randomElement(using: &rng)!
                path.unicodeScalars.append(scalar)
            }
        }
        return path + ".so"
    }

    func randomKey(_ rng: inout SplitMix64) -> RegistryCache.FileKey {
        var info = stat()
        info.st_mode = S_IFREG | 0o644
        info.st_dev = UInt.random(in: 0...UInt.max, using: &rng)
        info.st_ino = UInt.random(in: 0...UInt.max, using: &rng)
        info.st_size = Int.random(in: 0...Int.max, using: &rng)
        info.st_mtim = timespec(tv_sec: Int.random(in: -1 << 40...1 << 40, using: &rng), tv_nsec: 999_999_999)
        info.st_ctim = timespec(tv_sec: Int.random(in: -1 << 40...1 << 40, using: &rng), tv_nsec: 0)
        return RegistryCache.FileKey(info)!
    }

    @Test("the cache index answers as a dictionary of its entries, for paths it holds and paths it does not")
    func indexAgreesWithDictionary() throws {
        let folder = try Fixtures.folder() + "/cache"
        var rng = SplitMix64(seed: 21)
        var expected: [[UInt8]: (RegistryCache.FileKey, String)] = [:]
        var cache = RegistryCache(folder: folder)
        for n in 0..<300 {
            let path = randomPath(&rng), key = randomKey(&rng)
            let reason = "reason \(n)" + (n % 7 == 0 ? " with \"quotes\" and ü" : "")
            cache.store(path, key: key, .failure(Rejection(path: path, reason: reason)))
            expected[Array(path.utf8)] = (key, reason)
        }
        cache.save()
        var loaded = RegistryCache(folder: folder)
        #expect(loaded.entries.count == expected.count)
        var asked = Array(expected.keys)
        for _ in 0..<300 { asked.append(Array(randomPath(&rng).utf8)) }
        asked.shuffle(using: &rng)
        for path in asked {
            let want = expected[path]
            var identifiers: [UInt8] = []
            let key = want?.0 ?? randomKey(&rng)
            let found = path.withUnsafeBufferPointer { loaded.lookup($0, key: key, identifiers: &identifiers) }
            if let want {
                guard case .rejection(let reason)? = found else {
                    Issue.record("no entry for \(String(decoding: path, as: UTF8.self))")
                    continue
                }
                #expect(reason == want.1)
            } else {
                #expect(found == nil)
            }
        }
        // The same paths with another key: a changed file is not an entry's.
        var stale = RegistryCache(folder: folder)
        for path in expected.keys {
            var identifiers: [UInt8] = []
            #expect(
                path.withUnsafeBufferPointer { stale.lookup($0, key: randomKey(&rng), identifiers: &identifiers) }
                    == nil)
        }
    }

    @Test("the set of files met answers as a Set of device and inode pairs")
    func fileIDSetAgreesWithSet() {
        var rng = SplitMix64(seed: 5)
        var set = FileIDSet(), reference = Set<[UInt64]>()
        set.reserve(100)
        for _ in 0..<5_000 {
            // Few devices and nearby inodes: many collisions, many repeats.
            let device = UInt64.random(in: 0..<3, using: &rng), inode = UInt64.random(in: 0..<3_000, using: &rng)
            #expect(set.insert(device: device, inode: inode) == reference.insert([device, inode]).inserted)
        }
        #expect(set.count == reference.count)
        for _ in 0..<1_000 {
            let device = UInt64.random(in: 0..<4, using: &rng), inode = UInt64.random(in: 0..<4_000, using: &rng)
            #expect(set.contains(device: device, inode: inode) == reference.contains([device, inode]))
        }
    }

    @Test("a key's text gives the key back, is compared as the key is, and refuses any other text")
    func keyText() {
        var rng = SplitMix64(seed: 8)
        for _ in 0..<500 {
            let key = randomKey(&rng), other = randomKey(&rng)
            #expect(RegistryCache.FileKey(text: key.text) == key)
            var text = Array(key.text.utf8)
            #expect(text.withUnsafeBytes { key.isWritten(at: $0.baseAddress!) })
            #expect(text.withUnsafeBytes { other.isWritten(at: $0.baseAddress!) } == (key == other))
            let device = String(key.device, radix: 16).leftPadded(to: 16)
            #expect(key.text.hasPrefix(device + " "), "hexadecimal, digits worked out as they are written")
            text[Int.random(in: 0..<text.count, using: &rng)] = [0x20, 0x2D, 0x41, 0x67, 0x30].randomElement(
                using: &rng)!
            if text != Array(key.text.utf8) {
                #expect(RegistryCache.FileKey(text: String(decoding: text, as: UTF8.self)) != key)
                #expect(!text.withUnsafeBytes { key.isWritten(at: $0.baseAddress!) })
            }
        }
    }

    @Test("sixteen digits are read, and eight written, as the standard library reads and writes hexadecimal")
    func hexadecimal() {
        var rng = SplitMix64(seed: 17)
        let alphabet = Array("0123456789abcdefABCDEFgG/:`@ \u{0}\u{7F}".utf8) + [0x80, 0xE9, 0xFF]
        for n in 0..<20_000 {
            let value = UInt64.random(in: 0...UInt64.max, using: &rng) >> UInt64.random(in: 0..<64, using: &rng)
            var text = Array(String(value, radix: 16).leftPadded(to: 16).utf8)
            #expect(text.withUnsafeBytes { RegistryCache.FileKey.hex16($0.baseAddress!) } == value)
            var digits = RegistryCache.FileKey.digits(UInt32(truncatingIfNeeded: value))
            #expect(withUnsafeBytes(of: &digits) { Array($0) } == Array(text[8...]))
            // Any byte changed, most often to another that some reader might take for a digit.
            text[Int.random(in: 0..<16, using: &rng)] =
                n % 4 == 0 ? UInt8.random(in: 0...255, using: &rng) : alphabet.randomElement(using: &rng)!
            let parsed = UInt64(String(decoding: text, as: UTF8.self), radix: 16)
            let lowercase = text.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
            #expect(text.withUnsafeBytes { RegistryCache.FileKey.hex16($0.baseAddress!) } == (lowercase ? parsed : nil))
        }
    }

    @Test("byte checks answer as the checks on strings: library names, plain JSON text")
    func byteChecks() {
        var rng = SplitMix64(seed: 3)
        let pieces = ["lib", "a", ".so", ".so.", "1", ".", "s", "o", "x", "\r\n", "-"]
        for _ in 0..<3_000 {
            let name = (0..<Int.random(in: 0...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            var bytes = Array(name.utf8)
            #expect(bytes.withUnsafeBufferPointer { Catalog.isLibraryName(ascii: $0) } == Catalog.isLibraryName(name))
            bytes = (0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if Int.random(in: 0..<2, using: &rng) == 0 { bytes = bytes.map { 0x20 + $0 % 0x5F } }  // mostly plain
            let plain = bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x5C && $0 != 0x22 }
            #expect(bytes.withUnsafeBufferPointer { RegistryCache.isPlain($0) } == plain)
        }
    }

    @Test("a folder's libraries are listed in the order of their names as strings")
    func listingOrder() throws {
        let folder = try Fixtures.folder()
        var rng = SplitMix64(seed: 11)
        var names = Set<String>()
        for _ in 0..<200 {
            let stem = (0..<Int.random(in: 1...24, using: &rng)).map { _ in
                String("abcABC012_.-".randomElement(using: &rng)!)
            }.joined()
            names.insert("lib" + stem + (Int.random(in: 0..<3, using: &rng) == 0 ? ".so.1" : ".so"))
        }
        for name in names { #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data())) }
        var rejections: [Rejection] = []
        let listing = Catalog.candidates(
            in: SearchPath.Entry(path: folder, origin: .program), rejections: &rejections, allowUnsafe: true)
        let listed = listing.paths.map { String(decoding: listing.bytes[$0], as: UTF8.self) }
        #expect(listed == names.sorted().map { folder + "/" + $0 })
        #expect(listing.paths.allSatisfy { listing.bytes[$0.upperBound] == 0 }, "each path ends in a NUL")

        // A name that is not ASCII: the listing is sorted as strings.
        for name in ["libé.so", "libz.so", "libÅ.so", "lib日本.so.2", "libe.so"] {
            #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data()))
            names.insert(name)
        }
        let mixed = Catalog.candidates(
            in: SearchPath.Entry(path: folder, origin: .program), rejections: &rejections, allowUnsafe: true)
        #expect(
            mixed.paths.map { String(decoding: mixed.bytes[$0], as: UTF8.self) }
                == names.sorted().map { folder + "/" + $0 })
    }

    @Test("a record the cache file no longer holds (another process replaced it) is read from the plugin")
    func recordAfterReplacement() throws {
        let root = try Fixtures.folder()
        let plugins = root + "/plugins", other = root + "/other"
        for folder in [plugins, other] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        }
        try FileManager.default.copyItem(
            atPath: Fixtures.buildDirectory + "/libFoobarCells.so", toPath: plugins + "/libFoobarCells.so")
        try FileManager.default.copyItem(
            atPath: Fixtures.buildDirectory + "/libContactsCells.so", toPath: other + "/libContactsCells.so")
        func options(_ folder: String) -> DiscoveryOptions {
            var options = Fixtures.options([folder])
            (options.useCache, options.cacheFolder) = (true, root + "/cache")
            return options
        }
        let cold = Catalog(options: options(plugins))
        let warm = Catalog(options: options(plugins))
        #expect(warm.filesRead == 0)
        let file = root + "/cache/registry.json"
        let before = try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int
        _ = Catalog(options: options(other))  // another discovery renames a new cache file over it
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int != before)
        #expect(try summary(warm) == summary(cold))
        #expect(warm.registration(for: try CellIdentifier("Foobar")) != nil)
    }

    func summary(_ catalog: Catalog) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(catalog.plugins), as: UTF8.self)
    }
}
