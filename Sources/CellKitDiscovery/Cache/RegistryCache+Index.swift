// Where each entry of a registry cache file sits, found without decoding any: a render with
// 1,000 plugins installed looks up every plugin file on the path, but building a dictionary of
// every decoded entry first (a JSON parse, four strings and a key each) cost far more
// (BENCHMARKS.md, "Measurements behind the code": CacheIndex). The index keeps byte offsets only
// (each head's line and record), and finds a path by binary search on its text as the file
// writes it, escapes and all (the writer sorts entries by that text); an entry is read when its
// path is asked for, and then only its short first line, in place: the key compared as text, its
// record left until a plugin is used.

import CellKitModel
import Foundation

extension RegistryCache {
    /// The entries of a cache file, as byte offsets into its heads (read into memory) and into
    /// the file (for the records), in the order of their paths as written.
    struct Index {
        /// One entry: its head `["path","key","kind","detail","checksum",length]` in `file.bytes`,
        /// and where its record is in the file. Nothing else is read until the entry is asked for.
        struct Span {
            /// Where the head starts and ends (without the comma that ends its line).
            var head: Int32, headEnd: Int32
            /// Where the comma before the record's length is.
            var lengthComma: Int32
            /// Where the record is in the file, and how long it is (without what ends its line).
            var tail: Int32, tailCount: Int32
        }

        let file: CacheFile
        private(set) var spans: [Span] = []

        /// The entries of a whole file of this format: after the first line, the heads, one a line,
        /// each ending in a comma; then the records in the same order, one a line, each but the last
        /// ending in a comma; then `]}`. Each head says how long its record is, so the records' lines
        /// are known without reading them, and they must end where the file does. Nil for any other
        /// file. Only each line's end and its record's length are read here (a render looks up every
        /// plugin file, but a full check of every head was dear: BENCHMARKS.md, "Measurements behind
        /// the code": CacheIndex.heads); a head is checked (its checksum, then its fields) when it is
        /// looked up, a record when it is decoded. Heads out of order cost lookups (a binary search
        /// may miss them: the file is read again), never a wrong answer.
        init?(_ file: CacheFile) {
            self.file = file
            let bytes = file.bytes, base = bytes.baseAddress!, size = file.size, end = bytes.count
            var spans: [Span] = []
            spans.reserveCapacity((end - file.headsStart) / 100)
            var start = file.headsStart, tail = end
            while start < end {
                guard let found = memchr(base + start, 0x0A, end - start) else { return nil }
                let newline = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
                guard newline > start + 1, base[newline - 1] == UInt8(ascii: ","),
                    let length = Self.recordLength(base, head: start..<newline - 1), tail + length.count <= size
                else { return nil }
                spans.append(
                    Span(
                        head: Int32(truncatingIfNeeded: start), headEnd: Int32(truncatingIfNeeded: newline - 1),
                        lengthComma: Int32(truncatingIfNeeded: length.comma), tail: Int32(truncatingIfNeeded: tail),
                        tailCount: Int32(truncatingIfNeeded: length.count)))
                (start, tail) = (newline + 1, tail + length.count + 2)  // a record's line ends in ",\n"
            }
            // The last record's line ends in "\n" alone, then "]}\n"; with no entry, "]}\n" follows the first line.
            guard tail + (spans.isEmpty ? 3 : 2) == size else { return nil }
            self.spans = spans
        }

        /// The length a head `[…,length]` (at `head` from `base`) gives its record, and where the
        /// comma before it is.
        @inline(__always)
        private static func recordLength(_ base: UnsafePointer<UInt8>, head: Range<Int>) -> (count: Int, comma: Int)? {
            guard head.count > 4, base[head.upperBound - 1] == UInt8(ascii: "]") else { return nil }
            var i = head.upperBound - 2, count = 0, scale = 1
            while i > head.lowerBound, base[i] &- UInt8(ascii: "0") < 10, scale <= 100_000_000 {
                count += Int(base[i] &- UInt8(ascii: "0")) * scale
                (i, scale) = (i - 1, scale * 10)
            }
            guard scale > 1, base[i] == UInt8(ascii: ","), count >= 2 else { return nil }
            return (count, i)
        }

        /// How many entries the file holds.
        var count: Int { spans.count }

        /// The text of the path of the entry at `index` as the file has it, up to the first quote
        /// that no backslash escapes (escapes left as they are); nil if the head does not start `["`.
        func writtenPath(at index: Int) -> UnsafeBufferPointer<UInt8>? {
            let span = spans[index], bytes = file.bytes, start = Int(span.head) + 2, end = Int(span.lengthComma)
            guard start < end, bytes[start - 2] == UInt8(ascii: "["), bytes[start - 1] == UInt8(ascii: "\"")
            else { return nil }
            var from = start
            while let quote = memchr(bytes.baseAddress! + from, Int32(UInt8(ascii: "\"")), end - from) {
                let stop = UnsafePointer<UInt8>(quote.assumingMemoryBound(to: UInt8.self)) - bytes.baseAddress!
                var backslashes = 0
                while stop - backslashes - 1 >= start, bytes[stop - backslashes - 1] == UInt8(ascii: "\\") {
                    backslashes += 1
                }
                if backslashes % 2 == 0 { return UnsafeBufferPointer(rebasing: bytes[start..<stop]) }
                from = stop + 1
            }
            return nil
        }

        /// The index of the entry for `path`; nil if there is none.
        func find(_ path: String) -> Int? {
            var path = path
            return path.withUTF8 { path in RegistryCache.withWritten(path) { find(written: $0) } }
        }

        /// The index of the entry whose path is written `wanted` in the file (see
        /// `RegistryCache.withWritten`), by binary search; nil if there is none. The entry at `hint`
        /// is tried first, without searching for the end of its path: discovery asks for paths in
        /// the file's order, and a search costs far more than that one comparison (BENCHMARKS.md,
        /// "Measurements behind the code": CacheIndex.hint).
        func find(written wanted: UnsafeBufferPointer<UInt8>, hint: Int = -1) -> Int? {
            if hint >= 0, hint < spans.count, isPath(wanted, at: hint) { return hint }
            var low = 0, high = spans.count
            while low < high {
                let middle = (low + high) / 2
                guard let path = writtenPath(at: middle) else { return nil }  // not a head this version wrote
                let order = Self.compare(path, wanted)
                if order == 0 { return middle }
                if order < 0 { low = middle + 1 } else { high = middle }
            }
            return nil
        }

        /// Whether the path of the entry at `index` is written `wanted`: its bytes, then a quote.
        private func isPath(_ wanted: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
            let span = spans[index], base = UnsafeRawPointer(file.bytes.baseAddress!), start = Int(span.head) + 2
            guard start + wanted.count < Int(span.lengthComma),
                base.load(fromByteOffset: start - 1, as: UInt8.self) == UInt8(ascii: "\""),
                base.load(fromByteOffset: start + wanted.count, as: UInt8.self) == UInt8(ascii: "\""),
                base.load(fromByteOffset: start - 2, as: UInt8.self) == UInt8(ascii: "[")
            else { return false }
            return wanted.isEmpty || memcmp(base + start, wanted.baseAddress!, wanted.count) == 0
        }

        /// Byte order: negative if `a` comes first, 0 if equal, positive if `b` comes first.
        static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
            let common = min(a.count, b.count)
            if common > 0 {
                let order = memcmp(a.baseAddress!, b.baseAddress!, common)
                if order != 0 { return Int(order) }
            }
            return a.count - b.count
        }

        /// The entry at `index`, decoded (its record left in the file); nil if it does not decode.
        /// `path`, if given, is its path (the caller found it by that path), which saves a copy.
        func entry(at index: Int, path: String? = nil) -> Entry? {
            let span = spans[index], isLast = index == spans.count - 1
            if let written = writtenPath(at: index), RegistryCache.needsNoEscape(written),
                let head = head(at: index, pathCount: written.count), let key = FileKey(bytes: head.key)
            {
                let path = path ?? String(decoding: written, as: UTF8.self)
                switch head.kind {
                case .usable, .unusable:
                    return Entry(
                        path: path, key: key,
                        content: .plugin(
                            usable: head.kind == .usable, identifiers: String(decoding: head.detail, as: UTF8.self),
                            record: Record(span.record, isLast: isLast, in: file)))
                case .rejected:
                    return Entry(
                        path: path, key: key, content: .rejection(String(decoding: head.detail, as: UTF8.self)))
                case .listing:
                    return Entry(path: path, key: key, content: .listing(String(decoding: head.detail, as: UTF8.self)))
                }
            }
            return RegistryCache.decodeEntry(span, isLast: isLast, in: file)
        }
    }

    /// Calls `body` with the text `path` (UTF-8) is written as in the cache file, between its
    /// quotes: the bytes themselves unless `CacheJSON.quoted` escapes one (rare: a quote, a
    /// backslash, a control character, U+2028 or U+2029).
    static func withWritten<R>(_ path: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if needsNoEscape(path) { return body(path) }
        var quoted = CacheJSON.quoted(String(decoding: path, as: UTF8.self))
        return quoted.withUTF8 { body(UnsafeBufferPointer(rebasing: $0.dropFirst().dropLast())) }
    }

    /// Whether the `count` bytes at `a` and `b` are equal: eight at a time, inlined (a call to
    /// `memcmp` cost more than comparing a path).
    @inline(__always)
    static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        var i = 0
        while i + 8 <= count {
            guard
                a.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    == b.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            else { return false }
            i += 8
        }
        while i < count {
            guard a.load(fromByteOffset: i, as: UInt8.self) == b.load(fromByteOffset: i, as: UInt8.self) else {
                return false
            }
            i += 1
        }
        return true
    }

    /// Whether `CacheJSON.quoted` writes `bytes` as they are (valid UTF-8 assumed: no `String`
    /// here is otherwise). Plain ASCII eight bytes at a time, the rest a byte at a time.
    static func needsNoEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if isPlain(bytes) { return true }
        for (i, byte) in bytes.enumerated() {
            if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F { return false }
            // U+2028 and U+2029: E2 80 A8 and E2 80 A9.
            if byte == 0xE2, i + 2 < bytes.count, bytes[i + 1] == 0x80, bytes[i + 2] & 0xFE == 0xA8 { return false }
        }
        return true
    }

    /// Whether `bytes` are printable ASCII without a backslash or a quote: a JSON string's text as
    /// it is. Eight bytes at a time (a byte at a time was dearer, for every path read: BENCHMARKS.md,
    /// "Measurements behind the code": CacheIndex.isPlain).
    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0, bad: UInt64 = 0
        while i + 8 <= bytes.count {
            let word = ByteWord(loading: bytes.baseAddress! + i)
            // A flag if any byte is below 0x20, above 0x7E, a backslash or a quote (exact for "any").
            bad |=
                word.flags(below: 0x20) | word.flags(atLeast: 0x7F) | word.flags(equalTo: 0x5C)
                | word.flags(equalTo: 0x22)
            i += 8
        }
        while i < bytes.count {
            let byte = bytes[i]
            if byte &- 0x20 >= 0x5F || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") { return false }
            i += 1
        }
        return bad == 0
    }

    /// What a head says after its path, in the file's memory.
    struct Head {
        enum Kind { case usable, unusable, rejected, listing }
        /// The key's text (`FileKey.textCount` bytes), unchecked.
        var key: UnsafeBufferPointer<UInt8>
        var kind: Kind
        /// The identifiers (space-separated) or the reason, without an escape.
        var detail: UnsafeBufferPointer<UInt8>
    }
}

extension RegistryCache.Index {
    /// The head of the entry at `index`, whose path is written in `pathCount` bytes, read by hand
    /// in place if it is written as this version writes it: every field where it must be. Nil
    /// otherwise (then the JSON parser decides, `entry(at:)`). The key is left as text: a lookup
    /// compares it with the key it wants (`FileKey.isWritten(at:)`), a decoding reads it.
    func head(at index: Int, pathCount: Int) -> RegistryCache.Head? {
        let span = spans[index], bytes = file.bytes, base = UnsafeRawPointer(bytes.baseAddress!)
        guard RegistryCache.isIntact(span, in: file) else { return nil }
        let end = Int(span.lengthComma) - RegistryCache.headChecksumCount
        /// Whether `text` is at `i`, which then moves past it (`memcmp` calls cost more for these few bytes).
        @inline(__always)
        func take(_ text: StaticString, _ i: inout Int) -> Bool {
            let count = text.utf8CodeUnitCount
            guard i + count <= end, RegistryCache.equal(base + i, UnsafeRawPointer(text.utf8Start), count: count)
            else { return false }
            i += count
            return true
        }
        var i = Int(span.head) + 2 + pathCount
        let keyCount = RegistryCache.FileKey.textCount
        guard take("\",\"", &i), i + keyCount < end else { return nil }
        let key = UnsafeBufferPointer(rebasing: bytes[i..<i + keyCount])
        i += keyCount
        let kind: RegistryCache.Head.Kind
        if take("\",\"usable\",\"", &i) {
            kind = .usable
        } else if take("\",\"unusable\",\"", &i) {
            kind = .unusable
        } else if take("\",\"rejected\",\"", &i) {
            kind = .rejected
        } else if take("\",\"listing\",\"", &i) {
            kind = .listing
        } else {
            return nil
        }
        // The detail ends at the last quote; with no backslash in it, it holds no escape (a quote
        // inside would be one), so its bytes are its text.
        guard i < end, bytes[end - 1] == UInt8(ascii: "\""),
            i == end - 1 || memchr(base + i, Int32(UInt8(ascii: "\\")), end - 1 - i) == nil
        else { return nil }
        return RegistryCache.Head(key: key, kind: kind, detail: UnsafeBufferPointer(rebasing: bytes[i..<end - 1]))
    }
}

extension RegistryCache {
    /// Whether the head of `span` in `file` holds the checksum of its other bytes (`headChecksum`),
    /// written `,"<16 hexadecimal digits>"` just before the record's length. A head that does not
    /// is not used: its entry is dropped, the file it names read again, and the cache rewritten.
    static func isIntact(_ span: Index.Span, in file: CacheFile) -> Bool {
        let bytes = file.bytes, comma = Int(span.lengthComma), start = comma - headChecksumCount
        guard start > Int(span.head), bytes[start] == UInt8(ascii: ","), bytes[start + 1] == UInt8(ascii: "\""),
            bytes[comma - 1] == UInt8(ascii: "\""),
            let written = FileKey.hex16(UnsafeRawPointer(bytes.baseAddress! + start + 2))
        else { return false }
        let sum = headChecksum(
            UnsafeBufferPointer(rebasing: bytes[Int(span.head)..<start]),
            length: UnsafeBufferPointer(rebasing: bytes[comma..<Int(span.headEnd)]))
        return written == sum
    }
}

extension RegistryCache.Index.Span {
    /// Where the record is in the file.
    var record: Range<Int> { Int(tail)..<Int(tail) + Int(tailCount) }
}

extension RegistryCache {
    /// Any entry, through the JSON parser: its head `[path, key, kind, identifiers or reason,
    /// checksum, record length]` (checked now, its checksum first); a plugin's record, `[record,
    /// near misses, checksum]`, is checked when it is decoded. `isLast`: the entry is the file's
    /// last, so its record's line ends the list.
    static func decodeEntry(_ span: Index.Span, isLast: Bool, in file: CacheFile) -> Entry? {
        guard isIntact(span, in: file) else { return nil }
        let head = UnsafeBufferPointer(rebasing: file.bytes[Int(span.head)..<Int(span.headEnd)])
        var parser = JSONValueParser(head)
        let value = try? parser.parseDocument()
        guard case .list(let parts)? = value, parts.count == 6, case .string(let path) = parts[0],
            case .string(let keyText) = parts[1], let key = FileKey(text: keyText), case .string(let kind) = parts[2],
            case .string(let detail) = parts[3], case .string = parts[4], CacheJSON.int(parts[5]) == Int(span.tailCount)
        else { return nil }
        switch kind {
        case "rejected": return Entry(path: path, key: key, content: .rejection(detail))
        case "listing": return Entry(path: path, key: key, content: .listing(detail))
        case "usable", "unusable":
            return Entry(
                path: path, key: key,
                content: .plugin(
                    usable: kind == "usable", identifiers: detail,
                    record: Record(span.record, isLast: isLast, in: file)))
        default: return nil
        }
    }
}
