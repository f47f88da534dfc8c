// The registry cache: what discovery learned from each plugin file's contents, kept
// between runs so that an unchanged file's symbol table is not read again (as
// GStreamer's registry does). An entry is used only while the file's device, inode,
// size and modification and change times (nanoseconds) are what they were when it was
// read. The trust checks are never cached: discovery runs them before each lookup.
//
// The file is JSON, two lines an entry: a short list (path, key, kind, identifiers) read
// on every run, then a list of the plugin record and its near misses (or the rejection's
// reason), which is not even scanned until something asks for that plugin. Decoding the
// whole file through Foundation's JSONDecoder took 42 ms for 1,000 plugins on every run,
// even a render that used one of them.

import CellKitModel
import Foundation

/// The cache file and the entries read from it, updated as discovery goes.
struct RegistryCache {
    /// What identifies one version of a file: if any of these changes, the file is read again.
    struct FileKey: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        /// `st_mtim`, in nanoseconds since 1970.
        var modified: Int64
        /// `st_ctim`, in nanoseconds since 1970: it changes even when `touch -d` restores the modification time.
        var changed: Int64

        /// The key of the file `path` leads to (symlinks followed), if it is a regular file.
        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            self.init(info)
        }

        /// The key of a file whose `stat` is `info`, if it is a regular file.
        init?(_ info: stat) {
            guard info.st_mode & S_IFMT == S_IFREG else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
            changed = Int64(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctim.tv_nsec)
        }

        /// "device inode size modified changed": JSON numbers are doubles, which would round nanoseconds.
        var text: String { "\(device) \(inode) \(size) \(modified) \(changed)" }

        /// The key `text` gives, if it is five decimal numbers as `text` writes them.
        init?(text: String) {
            var text = text
            guard let key = text.withUTF8({ FileKey(bytes: $0) }) else { return nil }
            self = key
        }

        /// Whether `text` is this key's `text`: formatting the key and comparing costs about a third
        /// of parsing the text (870 instructions), and a lookup asks this of every plugin.
        func isText(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 5 * 20 + 4) { buffer in
                // Written from the end: changed, modified, size, inode, device.
                let end = buffer.baseAddress! + buffer.count
                var p = Self.write(changed, endingAt: end)
                p = Self.write(modified, endingAt: Self.space(before: p))
                p = Self.write(size, endingAt: Self.space(before: p))
                p = Self.write(inode, endingAt: Self.space(before: p))
                p = Self.write(device, endingAt: Self.space(before: p))
                return end - p == text.count && memcmp(p, text.baseAddress!, text.count) == 0
            }
        }

        /// "00" to "99".
        private static let digitPairs: StaticString =
            "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

        /// Writes `value` in decimal, as `description` does, just before `end`; returns where it starts.
        private static func write(_ value: UInt64, endingAt end: UnsafeMutablePointer<UInt8>)
            -> UnsafeMutablePointer<UInt8>
        {
            let pairs = digitPairs.utf8Start
            var value = value, p = end
            while value >= 10 {
                let pair = Int(value % 100)
                value /= 100
                p -= 2
                (p[0], p[1]) = (pairs[2 * pair], pairs[2 * pair + 1])
            }
            // The last pair written was at least 10: an odd number of digits leaves one, or 0 is all.
            if value > 0 || p == end {
                p -= 1
                p.pointee = UInt8(ascii: "0") + UInt8(value)
            }
            return p
        }

        /// Writes a space just before `p`; returns where it is.
        private static func space(before p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
            (p - 1).pointee = UInt8(ascii: " ")
            return p - 1
        }

        private static func write(_ value: Int64, endingAt end: UnsafeMutablePointer<UInt8>)
            -> UnsafeMutablePointer<UInt8>
        {
            var p = write(value.magnitude, endingAt: end)
            if value < 0 {
                p -= 1
                p.pointee = UInt8(ascii: "-")
            }
            return p
        }

        /// The key the bytes of its `text` give: five decimal numbers of 1 to 19 digits, separated
        /// by one space, the last three may be negative. By hand, one pass: this runs for every
        /// plugin looked up, and a loop with a `switch` a byte cost 1,400 instructions a key.
        init?(bytes: UnsafeBufferPointer<UInt8>) {
            var numbers: (UInt64, UInt64, Int64, Int64, Int64) = (0, 0, 0, 0, 0)
            var i = 0
            for field in 0..<5 {
                if field > 0 {
                    guard i < bytes.count, bytes[i] == UInt8(ascii: " ") else { return nil }
                    i += 1
                }
                let negative = field >= 2 && i < bytes.count && bytes[i] == UInt8(ascii: "-")
                if negative { i += 1 }
                let start = i
                var value: UInt64 = 0
                while i < bytes.count {
                    let digit = bytes[i] &- UInt8(ascii: "0")
                    guard digit < 10 else { break }
                    value = value &* 10 &+ UInt64(digit)  // wraps only past 19 digits, refused below
                    i += 1
                }
                guard i > start, i - start <= 19 else { return nil }
                switch field {
                case 0: numbers.0 = value
                case 1: numbers.1 = value
                default:
                    guard value <= UInt64(Int64.max) else { return nil }
                    let signed = negative ? -Int64(value) : Int64(value)
                    if field == 2 {
                        numbers.2 = signed
                    } else if field == 3 {
                        numbers.3 = signed
                    } else {
                        numbers.4 = signed
                    }
                }
            }
            guard i == bytes.count else { return nil }
            (device, inode, size, modified, changed) = numbers
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
        }
    }

    /// A plugin's record as it sits in the file (the bytes of its JSON, and of its near misses
    /// if known), or as discovery just read it. Decoding is done by `PluginFile(cacheJSON:)`.
    final class Record: @unchecked Sendable {
        /// The entry's second line, `[record, near misses]`, unchecked until decoded, in the
        /// cache file read into memory.
        let line: UnsafeBufferPointer<UInt8>?
        /// Keeps the memory `line` points into.
        private let file: CacheBytes?
        /// Decoded, or read from the file: set once, under the catalog's lock or before sharing.
        var plugin: PluginFile?

        init(line: UnsafeBufferPointer<UInt8>, in file: CacheBytes) {
            (self.line, self.file, plugin) = (line, file, nil)
        }
        init(_ plugin: PluginFile) { (line, file, self.plugin) = (nil, nil, plugin) }

        /// The record, decoding it from the line the first time; nil if the line does not hold one.
        func decoded(path: String) -> PluginFile? {
            if let plugin { return plugin }
            guard let line else { return nil }
            var parser = JSONValueParser(line)
            guard case .list(let parts)? = try? parser.parseDocument(), parts.count == 2 else { return nil }
            plugin = PluginFile(cacheJSON: parts[0], nearMisses: parts[1], path: path)
            return plugin
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
            "cellkit-registry-cache 2; CellKit ABI \(abi.major).\(abi.minor); \(arch), \(MemoryLayout<Int>.size * 8)-bit; ELF limits \(ELFLimits.maxFileBytes)"
    }()

    /// A cache file read whole into memory that is not zeroed first. Not mapped: a file cut short
    /// while mapped (by anything but our writers, which rename a new file over it) would end the
    /// process with SIGBUS on the next read, and reading costs well under a millisecond.
    final class CacheBytes: @unchecked Sendable {  // immutable once read
        let bytes: UnsafeBufferPointer<UInt8>

        init?(fd: Int32, size: Int) {
            guard size > 0 else { return nil }
            let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
            var done = 0
            while done < size {
                let n = read(fd, memory + done, size - done)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }  // an error, or the file got shorter: what was read is all there is
                done += n
            }
            guard done > 0 else {
                memory.deallocate()
                return nil
            }
            bytes = UnsafeBufferPointer(start: memory, count: done)
        }

        deinit { UnsafeMutablePointer(mutating: bytes.baseAddress!).deallocate() }
    }

    /// The first line of a cache file of this format.
    static var header: String { "{\"format\":\(CacheJSON.quoted(format)),\"entries\":[" }

    /// The cache file's name inside the cache folder.
    static let fileName = "registry.json"

    /// The largest cache file read, in bytes: 64 MiB; a larger one is ignored.
    static let maxFileBytes = 64 << 20

    /// `$XDG_CACHE_HOME/cellkit` (a relative `XDG_CACHE_HOME` is ignored, as the XDG rules say),
    /// default `~/.cache/cellkit`.
    static func defaultFolder(_ environment: [String: String] = SearchPath.environment()) -> String {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.cache"
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
    /// paths cost about 1,500 instructions a plugin.
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

    /// The file's entries, or nil if it is missing, unsafe, too large, torn, or not of this format.
    private static func load(_ file: String) -> Index? {
        if FileTrust.problem(forPlugin: file) != nil { return nil }  // others could forge what we would load
        let fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid(),
            info.st_mode & 0o022 == 0, info.st_size <= maxFileBytes
        else { return nil }
        guard let bytes = CacheBytes(fd: fd, size: Int(info.st_size)) else { return nil }
        return Index(bytes)
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
    mutating func lookup(_ path: UnsafeBufferPointer<UInt8>, key: FileKey, identifiers: inout [UInt8]) -> Cached? {
        if !stored.isEmpty, let entry = stored[String(decoding: path, as: UTF8.self)] {
            return entry.key == key ? Self.cached(entry, identifiers: &identifiers) : nil
        }
        guard let index, let n = index.find(path, hint: next), marks[n] != .dropped else { return nil }
        (marks[n], next) = (.visited, n + 1)
        switch index.plainHead(at: n) {
        case .plugin(let keyText, let usable, let ids)?:
            guard Self.matches(keyText, key) else { return nil }
            identifiers += ids
            return .plugin(usable: usable, source: .entry(n))
        case .rejection(let keyText)?:
            guard Self.matches(keyText, key) else { return nil }
            guard case .rejection(let reason)? = index.entry(at: n)?.content else { break }
            return .rejection(reason)
        case nil:
            // Not as this version writes it: the JSON parser decides.
            guard let entry = index.entry(at: n) else { break }
            return entry.key == key ? Self.cached(entry, identifiers: &identifiers) : nil
        }
        drop(n)  // undecodable: the file is read again, and the cache rewritten without the entry
        return nil
    }

    /// Whether the key written as `text` is `key`: compared as text (this version writes it so),
    /// else parsed.
    private static func matches(_ text: UnsafeBufferPointer<UInt8>, _ key: FileKey) -> Bool {
        key.isText(text) || FileKey(bytes: text) == key
    }

    /// `entry` as `lookup` gives it.
    private static func cached(_ entry: Entry, identifiers: inout [UInt8]) -> Cached {
        switch entry.content {
        case .plugin(let usable, let ids, let record):
            identifiers += ids.utf8
            return .plugin(usable: usable, source: .record(record))
        case .rejection(let reason): return .rejection(reason)
        }
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
            if stored[entry.path] == nil, FileKey(path: entry.path) != entry.key { drop(n) }
        }
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

    /// The file's text: the header, two lines an entry (a record read from the file and never
    /// decoded is copied as it was), `]}`.
    func contents() -> [UInt8] {
        var out = Array(Self.header.utf8)
        out.append(UInt8(ascii: "\n"))
        let sorted = entries.values.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        for (n, entry) in sorted.enumerated() {
            switch entry.content {
            case .plugin(let usable, let identifiers, let record):
                out += Array(
                    "[\(CacheJSON.quoted(entry.path)),\"\(entry.key.text)\",\"\(usable ? "usable" : "unusable")\",\"\(identifiers)\"],\n"
                        .utf8)
                if let plugin = record.plugin {
                    out += Array(
                        "[\(plugin.cacheJSON),\(plugin.knownNearMisses.map(NearMiss.cacheJSON) ?? "null")]".utf8)
                } else {
                    out += record.line!  // read from the file and never decoded: copied as it was
                }
            case .rejection(let reason):
                out += Array("[\(CacheJSON.quoted(entry.path)),\"\(entry.key.text)\",\"rejected\",\"\"],\n".utf8)
                out += Array("[\(CacheJSON.quoted(reason))]".utf8)
            }
            if n < sorted.count - 1 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\n"))
        }
        out += Array("]}\n".utf8)
        return out
    }

    /// Writes the entries if they changed: a temporary file (mode 0600) in the folder (created
    /// 0700), renamed over the cache file, so readers see the old file or the new, never part of
    /// one; of two processes writing at once the last wins. Failures are ignored: the cache is
    /// only a shortcut.
    func save() {
        guard isDirty, Self.makeFolder(folder), FileTrust.problem(forFolder: folder) == nil else { return }
        let data = contents()
        let temporary = folder + "/.\(Self.fileName).\(getpid()).\(UInt32.random(in: .min ... .max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
        guard close(fd) == 0, written, rename(temporary, file) == 0 else {
            unlink(temporary)
            return
        }
    }

    /// Creates `folder` and any missing folder above it with mode 0700; true if it exists now.
    private static func makeFolder(_ folder: String) -> Bool {
        var info = stat()
        if stat(folder, &info) == 0 { return info.st_mode & S_IFMT == S_IFDIR }
        let parent = (folder as NSString).deletingLastPathComponent
        guard parent != folder, !parent.isEmpty, makeFolder(parent) else { return false }
        return mkdir(folder, 0o700) == 0 || errno == EEXIST
    }
}
