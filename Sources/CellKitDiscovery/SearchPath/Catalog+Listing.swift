// Listing a search-path entry's library files: a folder's names read (or its kept listing
// used, `FolderListing`), filtered by the naming rule, sorted as bytes and made into paths.
// Catalog.swift walks the entries with these listings and keeps what was found.

import CellKitModel
import Foundation

extension Catalog {
    /// The library files of one search-path entry, in search order: their paths' bytes, each
    /// path followed by a NUL (for system calls), and where each path is.
    struct Listing {
        var bytes: [UInt8] = []
        var paths: [Range<Int>] = []
        /// Where a file's name starts in its path (0 for a single file named on the path).
        var nameOffset = 0
        /// Whether every path is plain ASCII (`RegistryCache.isPlain`): the cache's lookups then
        /// need not check each for what its file escapes.
        var plain = false
        /// Whether the folder was read (not its stored listing used).
        var listed = false

        init() {}

        /// The single file at `path`.
        init(file path: String) {
            bytes = Array(path.utf8) + [0]
            paths = [0..<bytes.count - 1]
            plain = bytes.withUnsafeBufferPointer {
                RegistryCache.isPlain(UnsafeBufferPointer(rebasing: $0.dropLast()))
            }
        }

        /// The files whose names are `joined` (`/name/name…`, plain ASCII, as a folder's stored
        /// listing keeps them) in the folder whose path, with a slash, is `prefix`; nil if a name
        /// is empty.
        init?(prefix: [UInt8], joined: [UInt8]) {
            let slash = UInt8(ascii: "/")
            let count = joined.withUnsafeBufferPointer { Self.count(slash, in: $0) }
            guard (joined.first ?? slash) == slash else { return nil }
            var valid = true, written = 0
            // Raw copies into memory not zeroed first: appending each range and copying with the
            // standard library's generic initializers cost far more a name (BENCHMARKS.md,
            // "Measurements behind the code": LibraryListing.copy).
            bytes = [UInt8](unsafeUninitializedCapacity: joined.count + count * prefix.count) { buffer, filled in
                paths = [Range<Int>](unsafeUninitializedCapacity: count) { paths, made in
                    joined.withUnsafeBufferPointer { joined in
                        prefix.withUnsafeBufferPointer { prefix in
                            (made, filled) = Self.split(joined, prefix: prefix, into: buffer, paths: paths)
                        }
                    }
                    valid = made >= 0
                    made = max(made, 0)
                    written = made
                }
            }
            guard valid, written == count else { return nil }
            (nameOffset, plain) = (prefix.count, true)
        }

        /// How many of `bytes` are `byte`: eight at a time, the lanes equal to it marked exactly
        /// (`ByteWord.exactFlags`) and the marks counted.
        static func count(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
            var i = 0, count = 0
            while i + 8 <= bytes.count {
                count += ByteWord(loading: bytes.baseAddress! + i).exactFlags(equalTo: byte).nonzeroBitCount
                i += 8
            }
            while i < bytes.count {
                if bytes[i] == byte { count += 1 }
                i += 1
            }
            return count
        }

        /// Writes `prefix`, the name and a NUL into `buffer` for each name of `joined` (each after a
        /// slash) and its path's range into `paths`; how many paths and bytes, or -1 paths if a
        /// name is empty. (The names are as plain as when they were stored: the entry's hash says so.)
        private static func split(
            _ joined: UnsafeBufferPointer<UInt8>, prefix: UnsafeBufferPointer<UInt8>,
            into buffer: UnsafeMutableBufferPointer<UInt8>, paths: UnsafeMutableBufferPointer<Range<Int>>
        ) -> (paths: Int, bytes: Int) {
            var at = 0, from = 1, made = 0
            let out = buffer.baseAddress!
            while from <= joined.count {
                let stop =
                    memchr(joined.baseAddress! + from, Int32(UInt8(ascii: "/")), joined.count - from).map {
                        UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - joined.baseAddress!
                    } ?? joined.count
                let name = UnsafeBufferPointer(rebasing: joined[from..<stop])
                guard !name.isEmpty, made < paths.count else { return (-1, 0) }
                memcpy(out + at, prefix.baseAddress!, prefix.count)
                memcpy(out + at + prefix.count, name.baseAddress!, name.count)
                let end = at + prefix.count + name.count
                (paths.baseAddress! + made).initialize(to: at..<end)
                out[end] = 0
                (at, from, made) = (end + 1, stop + 1, made + 1)
            }
            return (made, at)
        }

        /// Calls `body` with each file's name, in order.
        func forEachName(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
            bytes.withUnsafeBufferPointer { bytes in
                for range in paths {
                    body(UnsafeBufferPointer(rebasing: bytes[range.lowerBound + nameOffset..<range.upperBound]))
                }
            }
        }

        /// The files `names` in the folder whose path, with a slash, is `prefix`: in one buffer,
        /// written in place.
        init<Name: Collection<UInt8>>(prefix: [UInt8], names: some Collection<Name>) {
            let total = names.reduce(0) { $0 + prefix.count + $1.count + 1 }
            var paths: [Range<Int>] = []
            paths.reserveCapacity(names.count)
            bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, count in
                var at = 0
                for name in names {
                    let start = at
                    at += UnsafeMutableBufferPointer(rebasing: buffer[at...]).initialize(fromContentsOf: prefix)
                    at += UnsafeMutableBufferPointer(rebasing: buffer[at...]).initialize(fromContentsOf: name)
                    paths.append(start..<at)
                    buffer[at] = 0
                    at += 1
                }
                count = at
            }
            (self.paths, nameOffset) = (paths, prefix.count)
        }
    }

    /// The library files of one search-path entry, sorted by name; unreadable folders become rejections.
    static func candidates(in entry: SearchPath.Entry, rejections: inout [Rejection], allowUnsafe: Bool) -> Listing {
        var cache: RegistryCache?
        return candidates(in: entry, folder: -1, rejections: &rejections, allowUnsafe: allowUnsafe, cache: &cache)
    }

    /// `candidates(in:rejections:allowUnsafe:)`, the folder open as `folder` (-1: not open, or not a
    /// folder); with a cache, its stored listing of the folder if that may be trusted
    /// (`FolderListing`), else the folder's listing, stored in it.
    static func candidates(
        in entry: SearchPath.Entry, folder: Int32, rejections: inout [Rejection], allowUnsafe: Bool,
        cache: inout RegistryCache?
    ) -> Listing {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: entry.path, isDirectory: &isDirectory) else {
            if entry.isExplicit {
                rejections.append(
                    Rejection(path: entry.path, reason: "no such folder (given by \(entry.origin.rawValue))"))
            }
            return Listing()
        }
        guard isDirectory.boolValue else { return Listing(file: entry.path) }  // a single library named on the path
        if !allowUnsafe, let problem = FileTrust.problem(forFolder: entry.path) {
            let reason = problem.path == entry.path ? problem.reason : "\(problem.path): \(problem.reason)"
            rejections.append(Rejection(path: entry.path, reason: reason))
            return Listing()
        }
        let prefix = Array(entry.path.utf8) + [UInt8(ascii: "/")]
        // The clock first, then the folder's key, then its names: the order `FolderListing` relies on.
        let reading = FolderListing.now()
        var info = stat()
        let key = cache != nil && folder >= 0 && fstat(folder, &info) == 0 ? RegistryCache.FileKey(folder: info) : nil
        if let key, let names = cache!.listing(ofFolder: entry.path, key: key),
            let listing = Listing(prefix: prefix, joined: names)
        {
            return listing
        }
        guard let listing = listed(entry.path, folder: folder, prefix: prefix, rejections: &rejections) else {
            return Listing()
        }
        if let key, listing.plain {
            cache!.store(listingOf: entry.path, key: key, reading: reading, listing: listing)
        }
        return listing
    }

    /// The library files of the folder at `path` (open as `folder`, or -1), read from the folder and
    /// sorted by name, their paths starting with `prefix`; nil (and a rejection) if it cannot be listed.
    private static func listed(_ path: String, folder: Int32, prefix: [UInt8], rejections: inout [Rejection])
        -> Listing?
    {
        // opendir/readdir: FileManager.contentsOfDirectory cost far more a name (BENCHMARKS.md,
        // "Measurements behind the code": LibraryListing.readdir). A copy of the descriptor:
        // closedir closes the one it is given.
        guard let directory = folder >= 0 ? fdopendir(dup(folder)) : opendir(path) else {
            rejections.append(
                Rejection(path: path, reason: "cannot list the folder: \(String(cString: strerror(errno)))"))
            return nil
        }
        defer { closedir(directory) }
        // The library names, end to end in one buffer: no string a name.
        var names: [UInt8] = [], found: [Name] = [], plain = true
        while let item = readdir(directory) {
            withUnsafeBytes(of: &item.pointee.d_name) { raw in
                let name = UnsafeBufferPointer(
                    start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    count: strnlen(raw.baseAddress!.assumingMemoryBound(to: CChar.self), raw.count))
                // Plain ASCII (no quote, backslash or control character either): what the cache file
                // writes as it is, and what sorts by bytes as strings sort.
                let isPlain = RegistryCache.isPlain(name)
                guard isPlain ? isLibraryName(ascii: name) : isLibraryName(String(decoding: name, as: UTF8.self))
                else { return }
                plain = plain && isPlain  // (a listing with such a name is not stored: it is listed again)
                if !isPlain, String(validating: name, as: UTF8.self) == nil {
                    // Paths are UTF-8 strings here: a repaired name would name another file (or none).
                    rejections.append(
                        Rejection(
                            path: path + "/" + PathText.escapingInvalidUTF8(name),
                            reason: "its name is not valid UTF-8 (CellKit reads paths as UTF-8); rename the file"))
                    return
                }
                found.append(Name(name, at: names.count))
                names.append(contentsOf: name)
            }
        }
        return names.withUnsafeBufferPointer { names in
            guard plain else {
                // As strings, as before: ill-formed UTF-8 repaired (as `String(cString:)` repairs it), then sorted.
                let sorted = found.map { String(decoding: names[$0.range], as: UTF8.self) }.sorted()
                var listing = Listing(prefix: prefix, names: sorted.map { Array($0.utf8) })
                listing.listed = true
                return listing
            }
            // Sorted by name as strings sort, which for ASCII is byte order: sorting names as strings
            // cost many times as much as by their first sixteen bytes (then `memcmp`) (BENCHMARKS.md,
            // "Measurements behind the code": LibraryListing.order).
            Name.sort(&found, in: names)
            var listing = Listing(
                prefix: prefix, names: found.lazy.map { UnsafeBufferPointer(rebasing: names[$0.range]) })
            listing.plain = prefix.withUnsafeBufferPointer { RegistryCache.isPlain($0) }
            listing.listed = true
            return listing
        }
    }

    /// A file name in a buffer of names, with its first sixteen bytes as two numbers that sort as
    /// they do: most names are shorter, and their order is settled without reading them again.
    private struct Name {
        let high: UInt64, low: UInt64
        let start: Int32, count: Int32
        var range: Range<Int> { Int(start)..<Int(start) + Int(count) }

        init(_ name: UnsafeBufferPointer<UInt8>, at start: Int) {
            var key: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &key) {
                $0.copyMemory(from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: name.prefix(16))))
            }
            (high, low) = (key.0.bigEndian, key.1.bigEndian)
            (self.start, count) = (Int32(start), Int32(name.count))
        }

        /// Sorts `names` by `precedes`: a merge sort, its comparison inlined (the standard library's
        /// sort, calling a closure for each comparison, cost more a name: BENCHMARKS.md, "Measurements
        /// behind the code": LibraryListing.sort).
        static func sort(_ names: inout [Name], in bytes: UnsafeBufferPointer<UInt8>) {
            guard names.count > 1 else { return }
            var other = names
            var width = 1
            var source = true  // whether `names` holds the runs being merged
            while width < names.count {
                names.withUnsafeMutableBufferPointer { a in
                    other.withUnsafeMutableBufferPointer { b in
                        let (from, to) = source ? (a, b) : (b, a)
                        var start = 0
                        while start < from.count {
                            let middle = min(start + width, from.count), end = min(start + 2 * width, from.count)
                            var (i, j, k) = (start, middle, start)
                            while i < middle, j < end {
                                if from[j].precedes(from[i], in: bytes) {
                                    to[k] = from[j]
                                    j += 1
                                } else {
                                    to[k] = from[i]
                                    i += 1
                                }
                                k += 1
                            }
                            while i < middle { (to[k], i, k) = (from[i], i + 1, k + 1) }
                            while j < end { (to[k], j, k) = (from[j], j + 1, k + 1) }
                            start = end
                        }
                    }
                }
                (source, width) = (!source, width * 2)
            }
            if !source { names = other }
        }

        /// Byte order (a name holds no NUL, so the zeros that pad a short key sort first, as its end does).
        func precedes(_ other: Name, in names: UnsafeBufferPointer<UInt8>) -> Bool {
            if high != other.high { return high < other.high }
            if low != other.low { return low < other.low }
            guard count > 16, other.count > 16 else { return count < other.count }
            return RegistryCache.Index.compare(
                UnsafeBufferPointer(rebasing: names[Int(start) + 16..<range.upperBound]),
                UnsafeBufferPointer(rebasing: names[Int(other.start) + 16..<other.range.upperBound])) < 0
        }
    }

    /// `libFoo.so` or `libFoo.so.1.2`.
    static func isLibraryName(_ name: String) -> Bool {
        name.hasSuffix(".so") || name.contains(".so.")
    }

    /// `isLibraryName` of an ASCII name's bytes, compared as bytes: the same answer (in ASCII a
    /// character is a byte, but for "\r\n", which holds no dot), without a string a name.
    static func isLibraryName(ascii name: UnsafeBufferPointer<UInt8>) -> Bool {
        let dotSo = ".so".utf8
        if name.count >= 3, name[(name.count - 3)...].elementsEqual(dotSo) { return true }
        guard name.count >= 4 else { return false }
        for start in 0...(name.count - 4) where name[start] == UInt8(ascii: ".") {
            if name[start + 1] == UInt8(ascii: "s"), name[start + 2] == UInt8(ascii: "o"),
                name[start + 3] == UInt8(ascii: ".")
            {
                return true
            }
        }
        return false
    }
}
