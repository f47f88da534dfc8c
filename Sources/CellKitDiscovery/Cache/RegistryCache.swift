// The registry cache: what discovery learned from each plugin file's contents, kept
// between runs so that an unchanged file's symbol table is not read again (as
// GStreamer's registry does). An entry is used only while the file's device, inode,
// size and modification and change times (nanoseconds) are what they were when it was
// read. The trust checks are never cached: discovery runs them before each lookup.
//
// The file is JSON, a line an entry's head, then a line an entry's record: the heads (path,
// key, kind, identifiers or a rejection's reason, and how long the record is) are read on
// every run and looked up one at a time as discovery meets each file (see RegistryCache+Index.swift);
// the records (a plugin's hooks and signatures, and its near misses) are read from the file
// only when something asks for that plugin (see CacheFile.swift). Decoding the whole file
// through Foundation's JSONDecoder was dear with many plugins on every run, even a render that
// used one of them, and so was building a dictionary of every entry's head (BENCHMARKS.md,
// "Measurements behind the code": RegistryCache). A folder's entry (its path with a `/` after
// it) keeps its listing of library names (see FolderListing.swift).

import CellKitModel
import Foundation

/// The cache file and the entries read from it, updated as discovery goes.
package struct RegistryCache {
    /// What identifies one version of a file: if any of these changes, the file is read again.
    package struct FileKey: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        /// `st_mtim`, in nanoseconds since 1970.
        var modified: Int64
        /// `st_ctim`, in nanoseconds since 1970: it changes even when `touch -d` restores the modification time.
        var changed: Int64

        /// The key of the file `path` leads to (symlinks followed), if it is a regular file.
        package init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            self.init(info)
        }

        /// The key of a file whose `stat` is `info`, if it is a regular file.
        init?(_ info: stat) {
            guard info.st_mode & S_IFMT == S_IFREG else { return nil }
            self.init(any: info)
        }

        /// The key of a folder whose `stat` is `info`, if it is a folder (for its stored listing).
        init?(folder info: stat) {
            guard info.st_mode & S_IFMT == S_IFDIR else { return nil }
            self.init(any: info)
        }

        private init(any info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
            changed = Int64(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctim.tv_nsec)
        }

        /// "device inode size modified changed", each as 16 lowercase hexadecimal digits (the last
        /// three as the bits of a signed number): JSON numbers are doubles, which would round
        /// nanoseconds, and a lookup reads the key of every plugin on every run: fixed-width
        /// hexadecimal is read eight digits at a time (`init(bytes:)`).
        var text: String { withText { String(decoding: $0, as: UTF8.self) } }

        /// How long `text` is: five numbers of 16 digits, four spaces.
        static let textCount = 5 * 16 + 4

        /// The key `text` gives, if it is as `text` writes it.
        init?(text: String) {
            var text = text
            guard let key = text.withUTF8({ FileKey(bytes: $0) }) else { return nil }
            self = key
        }

        /// Calls `body` with the bytes of `text`, written in place.
        func withText<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.textCount) { buffer in
                let p = UnsafeMutableRawPointer(buffer.baseAddress!)
                for (n, value) in numbers.enumerated() {
                    p.storeBytes(
                        of: Self.digits(UInt32(truncatingIfNeeded: value >> 32)), toByteOffset: 17 * n, as: UInt64.self)
                    p.storeBytes(
                        of: Self.digits(UInt32(truncatingIfNeeded: value)), toByteOffset: 17 * n + 8, as: UInt64.self)
                    if n < 4 { p.storeBytes(of: UInt8(ascii: " "), toByteOffset: 17 * n + 16, as: UInt8.self) }
                }
                return body(UnsafeBufferPointer(buffer))
            }
        }

        /// The five numbers `text` writes, in order.
        private var numbers: [UInt64] {
            [device, inode, UInt64(bitPattern: size), UInt64(bitPattern: modified), UInt64(bitPattern: changed)]
        }

        /// Whether the `textCount` bytes at `p` are this key's `text`: each eight digits worked out in
        /// one word and compared as one, no buffer (a lookup asks this of every plugin on every run;
        /// reading the text as numbers, checked, cost more: BENCHMARKS.md, "Measurements behind the
        /// code": RegistryCache.FileKey).
        func isWritten(at p: UnsafeRawPointer) -> Bool {
            let space = UInt8(ascii: " ")
            return Self.isWritten(device, at: p) && p.load(fromByteOffset: 16, as: UInt8.self) == space
                && Self.isWritten(inode, at: p + 17) && p.load(fromByteOffset: 33, as: UInt8.self) == space
                && Self.isWritten(UInt64(bitPattern: size), at: p + 34)
                && p.load(fromByteOffset: 50, as: UInt8.self) == space
                && Self.isWritten(UInt64(bitPattern: modified), at: p + 51)
                && p.load(fromByteOffset: 67, as: UInt8.self) == space
                && Self.isWritten(UInt64(bitPattern: changed), at: p + 68)
        }

        /// Whether `value`'s 16 digits are at `p`.
        @inline(__always)
        private static func isWritten(_ value: UInt64, at p: UnsafeRawPointer) -> Bool {
            p.loadUnaligned(as: UInt64.self) == digits(UInt32(truncatingIfNeeded: value >> 32))
                && p.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == digits(UInt32(truncatingIfNeeded: value))
        }

        /// `value`'s eight lowercase hexadecimal digits, the first in the lowest byte (as they lie in
        /// memory on a little-endian machine): the number's halves, quarters and nibbles spread each
        /// to their own part of the word, then each nibble made its digit (`0` + n, or `a` + n - 10).
        @inline(__always)
        static func digits(_ value: UInt32) -> UInt64 {
            let ones = ByteWord.ones  // packing, not a test: only the constant is shared
            var v = UInt64(value)
            v = ((v >> 16) | (v << 32)) & 0x0000_FFFF_0000_FFFF
            v = ((v >> 8) | (v << 16)) & 0x00FF_00FF_00FF_00FF
            v = ((v >> 4) | (v << 8)) & 0x0F0F_0F0F_0F0F_0F0F
            let letters = ((v &+ ones &* 6) >> 4) & ones  // 1 in each byte whose nibble is 10 or more
            return (v &+ ones &* 0x30 &+ letters &* 39).littleEndian
        }

        /// The key the bytes of its `text` give: five numbers of 16 lowercase hexadecimal digits,
        /// separated by one space. Read eight digits at a time: every plugin's key is read on every run.
        init?(bytes: UnsafeBufferPointer<UInt8>) {
            guard bytes.count == Self.textCount else { return nil }
            let p = UnsafeRawPointer(bytes.baseAddress!)
            let space = UInt8(ascii: " ")
            guard p.load(fromByteOffset: 16, as: UInt8.self) == space,
                p.load(fromByteOffset: 33, as: UInt8.self) == space,
                p.load(fromByteOffset: 50, as: UInt8.self) == space,
                p.load(fromByteOffset: 67, as: UInt8.self) == space,
                let device = Self.hex16(p), let inode = Self.hex16(p + 17), let size = Self.hex16(p + 34),
                let modified = Self.hex16(p + 51), let changed = Self.hex16(p + 68)
            else { return nil }
            (self.device, self.inode) = (device, inode)
            (self.size, self.modified, self.changed) = (
                Int64(bitPattern: size), Int64(bitPattern: modified), Int64(bitPattern: changed)
            )
        }

        /// The number the 16 lowercase hexadecimal digits at `p` write; nil if they are not that.
        static func hex16(_ p: UnsafeRawPointer) -> UInt64? {
            guard let high = hex8(p), let low = hex8(p + 8) else { return nil }
            return high << 32 | low
        }

        /// The number the 8 lowercase hexadecimal digits at `p` write; nil if they are not that.
        /// All eight at once, in one word: each byte checked to be `0`–`9` or `a`–`f` (no byte has
        /// its high bit set, so adding below 0x80 to each carries into no other), made its value,
        /// then the values packed pairwise (the first digit is the lowest byte, and the highest).
        @inline(__always)
        private static func hex8(_ p: UnsafeRawPointer) -> UInt64? {
            let ones = ByteWord.ones, highs = ByteWord.highs
            let w = UInt64(littleEndian: ByteWord(loading: p).bits)
            guard !ByteWord(w).hasHigh else { return nil }
            // A byte's high bit set when it is at least the first bound and below the second: sums of
            // an ASCII word, which carry into no other byte (no `| w` as `ByteWord.flags(atLeast:)` needs).
            let digit = (w &+ ones &* (0x80 - 0x30)) & ~(w &+ ones &* (0x80 - 0x3A))
            let letter = (w &+ ones &* (0x80 - 0x61)) & ~(w &+ ones &* (0x80 - 0x67))
            guard (digit | letter) & highs == highs else { return nil }
            var v = (w & (ones &* 0x0F)) &+ ((w >> 6) & ones) &* 9
            v = ((v << 4) | (v >> 8)) & 0x00FF_00FF_00FF_00FF
            v = ((v << 8) | (v >> 16)) & 0x0000_FFFF_0000_FFFF
            return ((v << 16) | (v >> 32)) & 0xFFFF_FFFF
        }
    }

    /// What was learned from one file: a plugin (its identifiers at hand, its record decoded on
    /// demand) or why it is not a plugin.
    struct Entry {
        var path: String
        var key: FileKey
        var content: Content

        enum Content {
            /// A plugin: whether it is usable (its own problems, not the trust checks), the
            /// identifiers of its cell types, space-separated (one string, not a thousand arrays of
            /// them), and its record, as JSON text or decoded.
            case plugin(usable: Bool, identifiers: String, record: Record)
            case rejection(String)
            /// A folder's library names as last listed (`FolderListing`): the entry's path is the
            /// folder's with a `/` after it, its key the folder's.
            case listing(String)
        }
    }

    /// A plugin's record as it sits in the file (its JSON, and its near misses if known), read
    /// from there when it is decoded; or as discovery just read it. Decoding is done by
    /// `PluginFile(cacheLine:path:)`.
    final class Record: @unchecked Sendable {
        /// Where the entry's second line, `[record, near misses]`, is in the cache file, and whether
        /// it is the file's last (its line ends the list): unchecked until decoded.
        let line: (file: CacheFile, range: Range<Int>, isLast: Bool)?
        /// Decoded, or read from the file: set once, under the catalog's lock or before sharing.
        var plugin: PluginFile?

        init(_ range: Range<Int>, isLast: Bool, in file: CacheFile) { (line, plugin) = ((file, range, isLast), nil) }
        init(_ plugin: PluginFile) { (line, self.plugin) = (nil, plugin) }

        /// The record, decoding it from the file the first time; nil if the file no longer holds
        /// it (another version replaced it) or its line does not hold one.
        func decoded(path: String) -> PluginFile? {
            if let plugin { return plugin }
            guard let line, let bytes = line.file.read(line.range.lowerBound..<line.range.upperBound + 2),
                let text = Self.text(of: bytes, isLast: line.isLast)
            else { return nil }
            // `[record, near misses, "checksum"]`: a record edited or corrupted (yet still in form) is
            // not trusted; the caller reads the file again and stores what it gives.
            plugin = text.withUnsafeBufferPointer { PluginFile(cacheLine: $0, path: path) }
            return plugin
        }

        /// The checksum of a record's line without its last element (`body`) for the plugin at
        /// `path`: `Hash64` of the body, seeded with the path's, as 16 hexadecimal digits.
        static func checksum<Bytes: Collection<UInt8>>(path: String, body: Bytes) -> String {
            Hash64.hex(Hash64.of(body, seed: Hash64.of(path.utf8, seed: 0)))
        }

        /// The record's line in `tails` (what follows the heads, read at once, from `start` in the
        /// file), to copy into a new file as it was; nil if it is not from the file or not there.
        func copy(from tails: (bytes: [UInt8], start: Int)) -> ArraySlice<UInt8>? {
            guard let line, line.range.lowerBound >= tails.start,
                line.range.upperBound + 2 <= tails.start + tails.bytes.count
            else { return nil }
            return Self.text(
                of: tails.bytes[line.range.lowerBound - tails.start..<line.range.upperBound + 2 - tails.start],
                isLast: line.isLast)
        }

        /// A record's line read with the two bytes after it: without them, if they end it as they
        /// must (`,` and a newline, or for the last a newline and the list's `]`).
        private static func text<Bytes: RandomAccessCollection<UInt8>>(of bytes: Bytes, isLast: Bool) -> Bytes
            .SubSequence?
        where Bytes.Index == Int {
            let end = bytes.endIndex
            guard bytes.count >= 2 else { return nil }
            let ending = isLast ? (UInt8(ascii: "\n"), UInt8(ascii: "]")) : (UInt8(ascii: ","), UInt8(ascii: "\n"))
            guard bytes[end - 2] == ending.0, bytes[end - 1] == ending.1 else { return nil }
            return bytes[bytes.startIndex..<end - 2]
        }
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
            "cellkit-registry-cache 8; CellKit ABI \(abi.major).\(abi.minor); \(arch), \(MemoryLayout<Int>.size * 8)-bit; ELF limits \(ELFLimits.maxFileBytes)"
    }()

    /// The first line of a cache file of this format, whose heads are `heads` bytes long:
    /// `headerPrefix`, that number, `headerSuffix`.
    static func header(heads: Int) -> String { headerPrefix + String(heads) + headerSuffix }
    static var headerPrefix: String { "{\"format\":\(CacheJSON.quoted(format)),\"heads\":" }
    static let headerSuffix = ",\"entries\":["

    /// The cache file's name inside the cache folder.
    package static let fileName = "registry.json"

    /// The largest cache file read, in bytes: 64 MiB; a larger one is ignored.
    package static let maxFileBytes = 64 << 20

    /// `$XDG_CACHE_HOME/cellkit` (a relative `XDG_CACHE_HOME` is ignored, as the XDG rules say),
    /// default `~/.cache/cellkit`.
    package static func defaultFolder(_ environment: [String: String] = SearchPath.environment()) -> String {
        defaultFolder(home: environment["HOME"], cacheHome: environment["XDG_CACHE_HOME"])
    }

    /// The same folder from `HOME` and `XDG_CACHE_HOME` as given (nil: not set), without a
    /// dictionary of the environment: `cellkit --version` makes none, as the first one a process
    /// makes costs it the dictionary's type metadata (Sandbox.remembered in BENCHMARKS.md).
    package static func defaultFolder(home: String?, cacheHome: String?) -> String {
        let base = cacheHome.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (home ?? NSHomeDirectory()) + "/.cache"
        return base + "/cellkit"
    }

    let folder: String
    var file: String { folder + "/" + Self.fileName }
    /// The file's entries as read, each decoded when asked for.
    private var index: Index?
    /// What this discovery did with each of `index`'s entries, by position.
    private var marks: [Mark] = []
    /// Where in `index` the next lookup probably is: the one after the last found.
    private var next = 0
    /// Entries stored by this discovery, by path: they replace the file's.
    private var stored: [String: Entry] = [:]
    /// True when the entries differ from the file: something to write.
    private(set) var isDirty = false

    /// What became of an entry of the file: a byte each, where a `Set<String>` of the visited
    /// paths cost far more a plugin (BENCHMARKS.md, "Measurements behind the code": RegistryCache.Mark).
    private enum Mark: UInt8 {
        /// Not asked for yet: `prune` checks its file.
        case unvisited
        /// Asked for: its file was keyed by this discovery.
        case visited
        /// Gone from the cache: replaced by a stored entry, forgotten, pruned, or undecodable.
        case dropped
    }

    /// The cache in `folder`: its entries if the file is whole, ours, safe and of this format;
    /// otherwise none (a corrupt or foreign file is rewritten on `save()`).
    init(folder: String) {
        self.folder = SearchPath.absolute(folder)
        guard let loaded = Self.load(file) else {
            isDirty = FileManager.default.fileExists(atPath: file)
            return
        }
        index = loaded
        marks = Array(repeating: .unvisited, count: loaded.count)
    }

    /// A cache in `folder` that reads no entry of its file and, when saved, replaces the file with
    /// what was stored since (`DiscoveryOptions.rebuildCache`); nil if there is no file to replace.
    init?(rebuilding folder: String) {
        self.folder = SearchPath.absolute(folder)
        var info = stat()
        guard lstat(file, &info) == 0 else { return nil }
        isDirty = true
    }

    /// The file's entries, or nil if it is missing, unsafe, too large, torn, or not of this format.
    private static func load(_ file: String) -> Index? {
        guard let (fd, info) = openOwnFile(file, limit: maxFileBytes) else { return nil }
        defer { close(fd) }
        return CacheFile(fd: fd, path: file, info: info).flatMap(Index.init)
    }

    /// The file at `path` opened for reading, and its `stat`, if it is a regular file of this
    /// user's that others cannot write, in folders they cannot change (`FileTrust`: others could
    /// forge what we would read), of at most `limit` bytes; else nil. The caller closes it.
    package static func openOwnFile(_ path: String, limit: Int) -> (fd: Int32, info: stat)? {
        if FileTrust.problem(forPlugin: path) != nil { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid(),
            info.st_mode & 0o022 == 0, info.st_size <= limit
        else {
            close(fd)
            return nil
        }
        return (fd, info)
    }

    /// Every entry, decoded: the file's (but those dropped or undecodable) and those stored since.
    /// For saving, and for tests; discovery looks entries up one at a time.
    var entries: [String: Entry] {
        var all: [String: Entry] = [:]
        if let index {
            for n in 0..<index.count where marks[n] != .dropped {
                if let entry = index.entry(at: n) { all[entry.path] = entry }
            }
        }
        all.merge(stored) { _, new in new }
        return all
    }

    /// Where a plugin's record is: the cache file's entry at an index (decoded when asked for,
    /// so that a lookup allocates nothing), or a record at hand.
    enum Source {
        case entry(Int)
        case record(Record)
    }

    /// What the cache knows of a file, as `lookup` gives it.
    enum Cached {
        /// A plugin: whether it is usable (its own problems, not the trust checks), and its record.
        case plugin(usable: Bool, source: Source)
        case rejection(String)
    }

    /// What the cache knows of the file whose path is `path` (UTF-8) as it is now (`key`), or nil
    /// (then read the file and `store`). For a plugin, its identifiers (space-separated) are
    /// appended to `identifiers`: discovery keeps every plugin's in one buffer.
    /// `plain`: the caller knows `path` to be plain ASCII (`isPlain`), which saves checking it.
    mutating func lookup(
        _ path: UnsafeBufferPointer<UInt8>, key: FileKey, identifiers: inout [UInt8], plain: Bool = false
    ) -> Cached? {
        if !stored.isEmpty, let entry = stored[String(decoding: path, as: UTF8.self)] {
            return entry.key == key ? Self.cached(entry, identifiers: &identifiers) : nil
        }
        guard index != nil else { return nil }
        if plain || Self.needsNoEscape(path) { return lookup(written: path, key: key, identifiers: &identifiers) }
        return Self.withWritten(path) { lookup(written: $0, key: key, identifiers: &identifiers) }
    }

    /// `lookup` of the path written `written` in the file.
    private mutating func lookup(written: UnsafeBufferPointer<UInt8>, key: FileKey, identifiers: inout [UInt8])
        -> Cached?
    {
        // `index!`, not a copy of it: each copy retained and released its references.
        guard let n = index!.find(written: written, hint: next), marks[n] != .dropped else { return nil }
        (marks[n], next) = (.visited, n + 1)
        if let head = index!.head(at: n, pathCount: written.count) {
            // Another key: the file changed, and is read again.
            guard key.isWritten(at: UnsafeRawPointer(head.key.baseAddress!)) else { return nil }
            switch head.kind {
            case .usable, .unusable:
                identifiers.append(contentsOf: head.detail)
                return .plugin(usable: head.kind == .usable, source: .entry(n))
            case .rejected: return .rejection(String(decoding: head.detail, as: UTF8.self))
            case .listing: return nil
            }
        }
        // Not as this version writes it: the JSON parser decides.
        if let entry = index!.entry(at: n) {
            return entry.key == key ? Self.cached(entry, identifiers: &identifiers) : nil
        }
        drop(n)  // undecodable: the file is read again, and the cache rewritten without the entry
        return nil
    }

    /// Reads all the file's records at once (one read, not one a plugin: four system calls each),
    /// for when every plugin is about to be decoded.
    func readRecords() { _ = index?.file.tails() }

    /// `entry` as `lookup` gives it (nil for a folder's listing).
    private static func cached(_ entry: Entry, identifiers: inout [UInt8]) -> Cached? {
        switch entry.content {
        case .plugin(let usable, let ids, let record):
            identifiers += ids.utf8
            return .plugin(usable: usable, source: .record(record))
        case .rejection(let reason): return .rejection(reason)
        case .listing: return nil
        }
    }

    /// The library names (`/name/name…`, in listing order) stored for the folder at `path`, whose
    /// key is now `key`, if that listing may be trusted (`FolderListing`); nil: list the folder.
    mutating func listing(ofFolder path: String, key: FileKey) -> [UInt8]? {
        let entryPath = path + "/"
        // Only plain paths' listings are stored; one was stored in this discovery: list again.
        guard Self.isPlainText(entryPath), stored[entryPath] == nil else { return nil }
        guard let index, let n = index.find(entryPath), marks[n] != .dropped else { return nil }
        marks[n] = .visited
        let written = entryPath.utf8.count  // plain: written as it is
        guard let head = index.head(at: n, pathCount: written), head.kind == .listing,
            key.isWritten(at: UnsafeRawPointer(head.key.baseAddress!))
        else {
            drop(n)  // the folder changed (or the entry is damaged): its listing is of no more use
            return nil
        }
        // Nil here too if the listing was racy (kept: the folder has not changed) or damaged.
        return FolderListing.names(in: head.detail, key: key).map(Array.init)
    }

    /// Whether `text` is plain ASCII (`isPlain`).
    static func isPlainText(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isPlain($0) }
    }

    /// Stores the library names of `listing` (plain ASCII) of the folder at `path`, listed after
    /// reading the clock (`reading`) and statting the folder (`key`), if that listing could be
    /// trusted later (`FolderListing.isSettled`); else leaves the cache as it is.
    mutating func store(listingOf path: String, key: FileKey, reading: Int64, listing: Catalog.Listing) {
        guard FolderListing.isSettled(key, reading: reading), Self.isPlainText(path) else { return }
        let detail = FolderListing.detail(reading: reading, listing: listing)
        replace(Entry(path: path + "/", key: key, content: .listing(detail)))
    }

    /// The record `source` names (the plugin at `path`), from `cache`'s file if it is there; nil
    /// if the entry does not decode.
    static func record(_ source: Source, in cache: RegistryCache?, path: String) -> Record? {
        switch source {
        case .record(let record): return record
        case .entry(let n):
            guard case .plugin(_, _, let record)? = cache?.index?.entry(at: n, path: path)?.content else { return nil }
            return record
        }
    }

    /// What the cache knows of the file at `path` as it is now (`key`), decoded whole, or nil.
    private mutating func entry(_ path: String, key: FileKey) -> Entry? {
        if let entry = stored[path] { return entry.key == key ? entry : nil }
        guard let index, let n = index.find(path), marks[n] != .dropped else { return nil }
        marks[n] = .visited
        return index.entry(at: n, path: path).flatMap { $0.key == key ? $0 : nil }
    }

    /// Records what reading `path` (as it was at `key`) gave.
    mutating func store(_ path: String, key: FileKey, _ outcome: Result<PluginFile, Rejection>) {
        switch outcome {
        case .success(let plugin):
            replace(
                Entry(
                    path: path, key: key,
                    content: .plugin(
                        usable: plugin.isUsable,
                        identifiers: plugin.cellTypes.map(\.identifier.name).joined(separator: " "),
                        record: Record(plugin))))
        case .failure(let rejection): replace(Entry(path: path, key: key, content: .rejection(rejection.reason)))
        }
    }

    /// Records the near misses found in `plugin` (read at `key`), if its entry is still of that version.
    mutating func store(nearMissesOf plugin: PluginFile, key: FileKey) {
        guard let entry = entry(plugin.path, key: key), case .plugin(let usable, let ids, _) = entry.content
        else { return }
        replace(
            Entry(
                path: plugin.path, key: key, content: .plugin(usable: usable, identifiers: ids, record: Record(plugin)))
        )
    }

    /// Drops the entry for `path`, whose file could not be keyed (gone, or no longer a regular file).
    mutating func forget(_ path: String) {
        if stored.removeValue(forKey: path) != nil { isDirty = true }
        if let n = index?.find(path), marks[n] != .dropped { drop(n) }
    }

    /// Drops every entry of the file not visited whose file is gone or changed (one `stat` each):
    /// a visited entry's file was keyed by this discovery. An entry left stale would do no harm
    /// (every use compares a fresh key), but the file would grow with every plugin ever seen.
    mutating func prune() {
        guard let index else { return }
        for n in 0..<index.count where marks[n] == .unvisited {
            marks[n] = .visited
            guard let entry = index.entry(at: n) else {
                drop(n)
                continue
            }
            if stored[entry.path] == nil, Self.currentKey(of: entry) != entry.key { drop(n) }
        }
    }

    /// The key of what `entry` describes as it is now: a folder's for its listing, else a file's.
    private static func currentKey(of entry: Entry) -> FileKey? {
        guard case .listing = entry.content else { return FileKey(path: entry.path) }
        var info = stat()
        return stat(entry.path, &info) == 0 ? FileKey(folder: info) : nil
    }

    /// `entry` in place of any entry for its path.
    private mutating func replace(_ entry: Entry) {
        if let n = index?.find(entry.path) { marks[n] = .dropped }
        stored[entry.path] = entry
        isDirty = true
    }

    private mutating func drop(_ n: Int) {
        marks[n] = .dropped
        isDirty = true
    }

    /// The checksum of a head, written between its detail (`body` ends with it) and the length of
    /// its record (`length`: `,<length>]`): `Hash64` of the two, the first seeding the second.
    static func headChecksum(_ body: UnsafeBufferPointer<UInt8>, length: UnsafeBufferPointer<UInt8>) -> UInt64 {
        Hash64.of(length, seed: Hash64.of(body, seed: 0x6865_6164))
    }

    /// How many bytes a head's checksum takes: `,"`, 16 hexadecimal digits, `"`.
    static let headChecksumCount = 19

    /// The file's text: the first line, the heads (one a line, sorted by the bytes of their paths
    /// as written, escaped, each with its checksum and saying how long its record is), the records
    /// in the same order (one a line; a record read from the file and never decoded is copied as
    /// it was), `]}`. An entry whose record cannot be copied
    /// (another version of the file replaced the one read) is left out: it is read again next time.
    func contents() -> [UInt8] {
        // In the order of the paths as written (escaped), which the index's binary search compares.
        let sorted = entries.values.map {
            (written: Array(CacheJSON.quoted($0.path).utf8.dropFirst().dropLast()), entry: $0)
        }
        .sorted { a, b in  // memcmp: lexicographicallyPrecedes was far dearer (BENCHMARKS.md: RegistryCache.sort)
            a.written.withUnsafeBufferPointer { a in b.written.withUnsafeBufferPointer { Index.compare(a, $0) < 0 } }
        }
        let needsTails = sorted.contains {
            if case .plugin(_, _, let record) = $0.entry.content { return record.plugin == nil }
            return false
        }
        let tails = needsTails ? index?.file.tails() : nil
        var heads: [UInt8] = [], records: [[UInt8]] = []
        for (written, entry) in sorted {
            let kind: String, detail: String, record: [UInt8]
            switch entry.content {
            case .plugin(let usable, let identifiers, let stored):
                if let plugin = stored.plugin {
                    record = plugin.cacheLine(path: entry.path)
                } else if let tails, let line = stored.copy(from: tails) {
                    record = Array(line)  // read from the file and never decoded: copied as it was
                } else {
                    continue
                }
                (kind, detail) = (usable ? "usable" : "unusable", CacheJSON.quoted(identifiers))
            case .rejection(let reason):
                (kind, detail, record) = ("rejected", CacheJSON.quoted(reason), Array("[]".utf8))
            case .listing(let names):
                (kind, detail, record) = ("listing", CacheJSON.quoted(names), Array("[]".utf8))
            }
            let head = Array("[\"".utf8) + written + Array("\",\"\(entry.key.text)\",\"\(kind)\",\(detail)".utf8)
            let length = Array(",\(record.count)]".utf8)
            let sum = head.withUnsafeBufferPointer { head in
                length.withUnsafeBufferPointer { Self.headChecksum(head, length: $0) }
            }
            heads += head + Array(",\"\(Hash64.hex(sum))\"".utf8) + length + [UInt8(ascii: ","), 0x0A]
            records.append(record)
        }
        var out = Array((Self.header(heads: heads.count) + "\n").utf8) + heads
        for (n, record) in records.enumerated() {
            out += record
            out += Array((n < records.count - 1 ? ",\n" : "\n").utf8)
        }
        out += Array("]}\n".utf8)
        return out
    }

    /// Writes the entries if they changed (`write(_:named:in:)`). Failures are ignored: the cache
    /// is only a shortcut.
    func save() {
        guard isDirty else { return }
        Self.write(contents(), named: Self.fileName, in: folder)
    }

    /// Writes `data` as the file `name` in `folder` (created 0700 if missing, and used only if it
    /// passes the trust checks): a temporary file (mode 0600) in the folder, renamed over the file,
    /// so readers see the old file or the new, never part of one; of two processes writing at once
    /// the last wins. True if written.
    @discardableResult
    package static func write(_ data: [UInt8], named name: String, in folder: String) -> Bool {
        guard !DecidedTrust.isSealed, makeFolder(folder), FileTrust.problem(forFolder: folder) == nil else {
            return false
        }
        sweepStaleTemporaries(in: folder, of: name)
        let temporary = folder + "/.\(name).\(getpid()).\(UInt32.random(in: .min ... .max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return false }
        // Removed if a signal ends the process mid-save (SIGKILL aside: the next save sweeps it).
        let slot = PendingTemporaries.add(temporary)
        defer { if let slot { PendingTemporaries.remove(slot) } }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
        guard close(fd) == 0, written, rename(temporary, folder + "/" + name) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    /// Removes the temporaries `write` left in `folder` for the file `name` when a process was
    /// killed mid-save: `.<name>.<pid>.<n>` whose process no longer runs.
    static func sweepStaleTemporaries(in folder: String, of name: String = fileName) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        let stem = ".\(name)."
        for name in names where name.hasPrefix(stem) {
            let parts = name.dropFirst(stem.count).split(separator: ".")
            guard parts.count == 2, let pid = pid_t(parts[0]), pid != getpid(), UInt32(parts[1]) != nil else {
                continue
            }
            if kill(pid, 0) != 0, errno == ESRCH { unlink(folder + "/" + name) }
        }
    }

    /// Creates `folder` and any missing folder above it with mode 0700; true if it exists now.
    private static func makeFolder(_ folder: String) -> Bool {
        var info = stat()
        if stat(folder, &info) == 0 { return info.st_mode & S_IFMT == S_IFDIR }
        let parent = PathText.folder(of: folder)
        guard parent != folder, !parent.isEmpty, makeFolder(parent) else { return false }
        return mkdir(folder, 0o700) == 0 || errno == EEXIST
    }
}
