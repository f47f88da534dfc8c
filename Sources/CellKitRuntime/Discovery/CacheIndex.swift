// Where each entry of a registry cache file sits, found without decoding any: a render with
// 1,000 plugins installed looks up every plugin file on the path, but building a dictionary of
// 1,000 decoded entries first (a JSON parse, four strings and a key each) cost about 9,000
// instructions an entry. The index keeps byte offsets only, and finds a path by binary search
// on its bytes (the writer sorts entries by them); an entry is decoded when its path is asked
// for, and then only its short first line, by hand: its record waits until a plugin is used.

import CellKitModel
import Foundation

extension RegistryCache {
    /// The entries of a cache file, as byte offsets into its heads (read into memory) and into
    /// the file (for the records), in path order.
    struct Index {
        /// One entry: its head `["path","key","kind","identifiers",length]` in `file.bytes`
        /// (without the comma that ends its line), and where its record is in the file.
        struct Span {
            var head: Int32, headEnd: Int32
            /// Where the path's closing quote is, if the path is written as it is (plain ASCII,
            /// nothing escaped); -1 if it is in `decodedPaths`.
            var pathEnd: Int32
            /// Where the comma before the record's length is.
            var lengthComma: Int32
            /// Where the record is in the file, and how long it is (without what ends its line).
            var tail: Int32, tailCount: Int32
        }

        let file: CacheFile
        private(set) var spans: [Span] = []
        /// The paths of entries whose path is escaped or not ASCII in the file, decoded (rare).
        private var decodedPaths: [Int: [UInt8]] = [:]

        /// The entries of a whole file of this format: after the first line, the heads, one a line,
        /// each ending in a comma; then the records in the same order, one a line, each but the last
        /// ending in a comma; then `]}`. Each head says how long its record is, so the records' lines
        /// are known without reading them, and they must end where the file does. The paths must be
        /// in strictly increasing byte order. Nil for any other file. An entry that is not plain is
        /// decoded now, and the file refused if it does not decode; a plain one is checked when it
        /// is looked up, its record when it is decoded.
        init?(_ file: CacheFile) {
            self.file = file
            let bytes = file.bytes, base = bytes.baseAddress!
            spans.reserveCapacity((bytes.count - file.headsStart) / 100)
            var start = file.headsStart, tail = bytes.count
            while start < bytes.count {
                guard
                    let newline = memchr(base + start, 0x0A, bytes.count - start).map({
                        UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - base
                    }), newline > start + 1, bytes[newline - 1] == UInt8(ascii: ","),
                    let length = Self.recordLength(bytes, head: start..<newline - 1)
                else { return nil }
                let head = start..<newline - 1, records = tail..<tail + length.count
                guard let span = plainSpan(head, length.comma, records) ?? decodedSpan(head, length.comma, records)
                else { return nil }
                spans.append(span)
                if spans.count > 1,
                    withPath(at: spans.count - 2, { a in withPath(at: spans.count - 1) { Self.compare(a, $0) } }) >= 0
                {
                    return nil
                }
                (start, tail) = (newline + 1, tail + length.count + 2)  // a record's line ends in ",\n"
            }
            // The last record's line ends in "\n" alone, then "]}\n"; with no entry, "]}\n" follows the first line.
            guard tail + (spans.isEmpty ? 3 : 2) == file.size else { return nil }
        }

        /// The length a head `[…,length]` gives its record, and where the comma before it is.
        private static func recordLength(_ bytes: UnsafeBufferPointer<UInt8>, head: Range<Int>)
            -> (count: Int, comma: Int)?
        {
            guard head.count > 4, bytes[head.upperBound - 1] == UInt8(ascii: "]") else { return nil }
            var i = head.upperBound - 2, count = 0, scale = 1
            while i > head.lowerBound, bytes[i] &- UInt8(ascii: "0") < 10, scale <= 100_000_000 {
                count += Int(bytes[i] - UInt8(ascii: "0")) * scale
                (i, scale) = (i - 1, scale * 10)
            }
            guard scale > 1, bytes[i] == UInt8(ascii: ","), count >= 2 else { return nil }
            return (count, i)
        }

        /// The span of an entry whose path is plain ASCII, written as it is; nil if it is not.
        private func plainSpan(_ head: Range<Int>, _ lengthComma: Int, _ record: Range<Int>) -> Span? {
            let bytes = file.bytes, start = head.lowerBound + 2
            guard head.count > 3, bytes[head.lowerBound] == UInt8(ascii: "["),
                bytes[head.lowerBound + 1] == UInt8(ascii: "\""),
                let quote = memchr(bytes.baseAddress! + start, Int32(UInt8(ascii: "\"")), lengthComma - start)
            else { return nil }
            let pathEnd = UnsafePointer<UInt8>(quote.assumingMemoryBound(to: UInt8.self)) - bytes.baseAddress!
            guard RegistryCache.isPlain(UnsafeBufferPointer(rebasing: bytes[start..<pathEnd])) else { return nil }
            return Span(head, pathEnd: pathEnd, lengthComma: lengthComma, record: record)
        }

        /// The span of an entry whose path is escaped or not ASCII, its path decoded (the whole
        /// head checked, as every head was before the index); nil if it does not decode.
        private mutating func decodedSpan(_ head: Range<Int>, _ lengthComma: Int, _ record: Range<Int>) -> Span? {
            let span = Span(head, pathEnd: -1, lengthComma: lengthComma, record: record)
            guard let entry = RegistryCache.decodeEntry(span, isLast: false, in: file) else { return nil }
            decodedPaths[spans.count] = Array(entry.path.utf8)
            return span
        }

        /// How many entries the file holds.
        var count: Int { spans.count }

        /// Calls `body` with the path bytes of the entry at `index`.
        func withPath<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            let span = spans[index]
            guard span.pathEnd >= 0 else { return decodedPaths[index]!.withUnsafeBufferPointer(body) }
            return body(UnsafeBufferPointer(rebasing: file.bytes[Int(span.head) + 2..<Int(span.pathEnd)]))
        }

        /// The path of the entry at `index`, as a string.
        func pathString(at index: Int) -> String { withPath(at: index) { String(decoding: $0, as: UTF8.self) } }

        /// The index of the entry for `path`; nil if there is none.
        func find(_ path: String) -> Int? {
            var path = path
            return path.withUTF8 { find($0) }
        }

        /// The index of the entry whose path has the bytes `wanted`, by binary search; nil if there
        /// is none. The entry at `hint` is tried first: discovery asks for paths in the file's
        /// order, and a search cost about 700 instructions a path.
        func find(_ wanted: UnsafeBufferPointer<UInt8>, hint: Int = -1) -> Int? {
            if hint >= 0, hint < spans.count, withPath(at: hint, { Self.compare($0, wanted) }) == 0 { return hint }
            var low = 0, high = spans.count
            while low < high {
                let middle = (low + high) / 2
                let order = withPath(at: middle) { Self.compare($0, wanted) }
                if order == 0 { return middle }
                if order < 0 { low = middle + 1 } else { high = middle }
            }
            return nil
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
            switch plainHead(at: index) {
            case .plugin(let keyText, let usable, let identifiers)?:
                guard let key = FileKey(bytes: keyText) else { break }
                return Entry(
                    path: path ?? pathString(at: index), key: key,
                    content: .plugin(
                        usable: usable, identifiers: String(decoding: identifiers, as: UTF8.self),
                        record: Record(span.record, isLast: isLast, in: file)))
            case .rejection(let keyText, let reason)?:
                guard let key = FileKey(bytes: keyText) else { break }
                return Entry(
                    path: path ?? pathString(at: index), key: key,
                    content: .rejection(String(decoding: reason, as: UTF8.self)))
            case nil: break
            }
            return RegistryCache.decodeEntry(span, isLast: isLast, in: file)
        }
    }

    /// The text of the string field at `i` of a head, `,"text"` (the closing quote the first
    /// after the opening one), `i` moved past it; nil if there is none before `end`. Nothing is
    /// checked: each field's reader refuses what it does not expect, a backslash included.
    static func field(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int, upTo end: Int)
        -> UnsafeBufferPointer<UInt8>?
    {
        guard i + 2 < end, bytes[i] == UInt8(ascii: ","), bytes[i + 1] == UInt8(ascii: "\"") else { return nil }
        let start = i + 2
        guard let quote = memchr(bytes.baseAddress! + start, Int32(UInt8(ascii: "\"")), end - start) else { return nil }
        let stop = UnsafePointer<UInt8>(quote.assumingMemoryBound(to: UInt8.self)) - bytes.baseAddress!
        i = stop + 1
        return UnsafeBufferPointer(rebasing: bytes[start..<stop])
    }

    /// Whether `bytes` are printable ASCII without a backslash or a quote: a JSON string's text as
    /// it is. Eight bytes at a time (a byte at a time cost 7 instructions a byte, for every path read).
    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var i = 0, bad: UInt64 = 0
        while i + 8 <= bytes.count {
            let word = UnsafeRawPointer(bytes.baseAddress! + i).loadUnaligned(as: UInt64.self)
            // Some byte's high bit ends up set if any byte is below 0x20, above 0x7E, or a backslash
            // (the borrows and carries can mark more bytes only when one is: exact for "any").
            let below = (word &- ones &* 0x20) & ~word
            let above = (word &+ ones) | word
            let backslash = word ^ (ones &* 0x5C), quote = word ^ (ones &* 0x22)
            bad |= below | above | ((backslash &- ones) & ~backslash) | ((quote &- ones) & ~quote)
            i += 8
        }
        while i < bytes.count {
            let byte = bytes[i]
            if byte &- 0x20 >= 0x5F || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") { return false }
            i += 1
        }
        return bad & highs == 0
    }

    /// Whether `bytes` are `text`'s UTF-8.
    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount && memcmp(bytes.baseAddress!, text.utf8Start, bytes.count) == 0
    }

    /// The fields of a head written as this version writes it, read in place.
    enum PlainHead {
        /// A plugin's: its key's text, whether it is usable, and its identifiers (space-separated,
        /// printable ASCII), in the file's memory.
        case plugin(key: UnsafeBufferPointer<UInt8>, usable: Bool, identifiers: UnsafeBufferPointer<UInt8>)
        /// A rejection's: its key's text and the reason.
        case rejection(key: UnsafeBufferPointer<UInt8>, reason: UnsafeBufferPointer<UInt8>)
    }
}

extension RegistryCache.Index {
    /// What a lookup needs of a head whose key is the one it wants.
    enum Probe {
        /// A plugin's: whether it is usable, and its identifiers (in the file's memory).
        case plugin(usable: Bool, identifiers: UnsafeBufferPointer<UInt8>)
        /// A rejection's reason (in the file's memory).
        case rejection(reason: UnsafeBufferPointer<UInt8>)
    }

    /// The head of the entry at `index`, if it is written as this version writes it and its key's
    /// text is `key`: compared in place, each field where it must be, no search for its end (the
    /// lookup of every plugin on every run). Nil otherwise (then `plainHead` and `entry` decide).
    func probe(at index: Int, key: UnsafeBufferPointer<UInt8>) -> Probe? {
        let span = spans[index], bytes = file.bytes, base = bytes.baseAddress!, end = Int(span.lengthComma)
        /// Whether `text` is at `i`, which then moves past it.
        func take(_ text: StaticString, _ i: inout Int) -> Bool {
            guard i + text.utf8CodeUnitCount <= end, memcmp(base + i, text.utf8Start, text.utf8CodeUnitCount) == 0
            else { return false }
            i += text.utf8CodeUnitCount
            return true
        }
        var i = Int(span.pathEnd) + 1
        guard span.pathEnd >= 0, take(",\"", &i), i + key.count < end,
            memcmp(base + i, key.baseAddress!, key.count) == 0
        else { return nil }
        i += key.count
        let usable = take("\",\"usable\",\"", &i)
        let kind = usable || take("\",\"unusable\",\"", &i) ? 0 : take("\",\"rejected\",\"", &i) ? 1 : 2
        guard kind < 2, i < end, bytes[end - 1] == UInt8(ascii: "\"") else { return nil }
        let detail = UnsafeBufferPointer(rebasing: bytes[i..<end - 1])
        guard RegistryCache.isPlain(detail) else { return nil }
        return kind == 0 ? .plugin(usable: usable, identifiers: detail) : .rejection(reason: detail)
    }

    /// The head of the entry at `index` read by hand, in place (what the JSON parser would give);
    /// nil if it is not written as this version writes it (then `entry(at:)` decides).
    func plainHead(at index: Int) -> RegistryCache.PlainHead? {
        let span = spans[index], bytes = file.bytes, end = Int(span.lengthComma)
        guard span.pathEnd >= 0 else { return nil }
        var i = Int(span.pathEnd) + 1
        guard let key = RegistryCache.field(bytes, &i, upTo: end), let kind = RegistryCache.field(bytes, &i, upTo: end),
            let detail = RegistryCache.field(bytes, &i, upTo: end), i == end, RegistryCache.isPlain(detail)
        else { return nil }
        let usable = RegistryCache.equal(kind, "usable")
        if usable || RegistryCache.equal(kind, "unusable") {
            return .plugin(key: key, usable: usable, identifiers: detail)
        }
        return RegistryCache.equal(kind, "rejected") ? .rejection(key: key, reason: detail) : nil
    }
}

extension RegistryCache.Index.Span {
    /// The span of the head at `head` (without its line's comma), whose path ends at `pathEnd`
    /// (-1: not plain), whose record's length follows the comma at `lengthComma`, and whose record
    /// is at `record` in the file.
    init(_ head: Range<Int>, pathEnd: Int, lengthComma: Int, record: Range<Int>) {
        (self.head, headEnd, self.pathEnd) = (Int32(head.lowerBound), Int32(head.upperBound), Int32(pathEnd))
        (self.lengthComma, tail, tailCount) = (Int32(lengthComma), Int32(record.lowerBound), Int32(record.count))
    }

    /// Where the record is in the file.
    var record: Range<Int> { Int(tail)..<Int(tail) + Int(tailCount) }
}

extension RegistryCache {
    /// Any entry, through the JSON parser: its head `[path, key, kind, identifiers or reason,
    /// record length]` (checked now); a plugin's record, `[record, near misses]`, is checked when
    /// it is decoded. `isLast`: the entry is the file's last, so its record's line ends the list.
    static func decodeEntry(_ span: Index.Span, isLast: Bool, in file: CacheFile) -> Entry? {
        let head = UnsafeBufferPointer(rebasing: file.bytes[Int(span.head)..<Int(span.headEnd)])
        var parser = JSONValueParser(head)
        let value = try? parser.parseDocument()
        guard case .list(let parts)? = value, parts.count == 5, case .string(let path) = parts[0],
            case .string(let keyText) = parts[1], let key = FileKey(text: keyText), case .string(let kind) = parts[2],
            case .string(let detail) = parts[3], CacheJSON.int(parts[4]) == Int(span.tailCount)
        else { return nil }
        switch kind {
        case "rejected": return Entry(path: path, key: key, content: .rejection(detail))
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
