// Where each entry of a registry cache file sits, found without decoding any: a render with
// 1,000 plugins installed looks up every plugin file on the path, but building a dictionary of
// 1,000 decoded entries first (a JSON parse, four strings and a key each) cost about 9,000
// instructions an entry. The index keeps byte offsets only, and finds a path by binary search
// on its bytes (the writer sorts entries by them); an entry is decoded when its path is asked
// for, and then only its short first line, by hand: its record waits until a plugin is used.

import CellKitModel
import Foundation

extension RegistryCache {
    /// The entries of a cache file read into memory, as byte offsets into it, in path order.
    struct Index {
        /// One entry: its first line `["path","key","kind","identifiers"]` (without the comma
        /// that ends it) and its second (`[record, near misses]` or `[reason]`, also without).
        struct Span {
            var head: Int32, headEnd: Int32, tail: Int32, tailEnd: Int32
            /// Where the path's closing quote is, if the path is written as it is (plain ASCII,
            /// nothing escaped); -1 if it is in `decodedPaths`.
            var pathEnd: Int32
        }

        let file: CacheBytes
        private(set) var spans: [Span] = []
        /// The paths of entries whose path is escaped or not ASCII in the file, decoded (rare).
        private var decodedPaths: [Int: [UInt8]] = [:]

        /// The entries of a whole file of this format (the header line, two lines an entry, each
        /// but the last ending in a comma, `]}`) whose paths are in strictly increasing byte
        /// order; nil for any other file. An entry that is not plain is decoded now, and the
        /// file refused if it does not decode; a plain one is checked when it is looked up.
        init?(_ file: CacheBytes) {
            self.file = file
            let bytes = file.bytes, base = bytes.baseAddress!
            var lines: [Range<Int>] = []
            lines.reserveCapacity(bytes.count / 128)
            var start = 0
            while start < bytes.count {
                let end =
                    memchr(base + start, 0x0A, bytes.count - start)
                    .map { UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - base } ?? bytes.count
                lines.append(start..<end)
                start = end + 1
            }
            guard lines.count >= 2, lines.count % 2 == 0, bytes[lines.first!].elementsEqual(RegistryCache.header.utf8),
                bytes[lines.last!].elementsEqual("]}".utf8)
            else { return nil }
            spans.reserveCapacity(lines.count / 2)
            var n = 1
            while n < lines.count - 1 {
                let head = lines[n]
                var tail = lines[n + 1]
                guard head.count > 1, bytes[head.upperBound - 1] == UInt8(ascii: ","), !tail.isEmpty else { return nil }
                if n + 2 < lines.count - 1 {  // every line but the last entry's second ends in a comma
                    guard bytes[tail.upperBound - 1] == UInt8(ascii: ",") else { return nil }
                    tail = tail.lowerBound..<tail.upperBound - 1
                }
                let span =
                    plainSpan(head: head.lowerBound, headEnd: head.upperBound - 1, tail: tail)
                    ?? decodedSpan(head: head.lowerBound, headEnd: head.upperBound - 1, tail: tail)
                guard let span else { return nil }
                spans.append(span)
                if spans.count > 1,
                    withPath(at: spans.count - 2, { a in withPath(at: spans.count - 1) { Self.compare(a, $0) } }) >= 0
                {
                    return nil
                }
                n += 2
            }
        }

        /// The span of an entry whose path is plain ASCII, written as it is; nil if it is not.
        private func plainSpan(head: Int, headEnd: Int, tail: Range<Int>) -> Span? {
            let bytes = file.bytes
            guard headEnd - head > 3, bytes[head] == UInt8(ascii: "["), bytes[head + 1] == UInt8(ascii: "\"") else {
                return nil
            }
            let start = head + 2
            guard let quote = memchr(bytes.baseAddress! + start, Int32(UInt8(ascii: "\"")), headEnd - start) else {
                return nil
            }
            let i = UnsafePointer<UInt8>(quote.assumingMemoryBound(to: UInt8.self)) - bytes.baseAddress!
            guard RegistryCache.isPlain(UnsafeBufferPointer(rebasing: bytes[start..<i])) else { return nil }
            return Span(
                head: Int32(head), headEnd: Int32(headEnd), tail: Int32(tail.lowerBound),
                tailEnd: Int32(tail.upperBound),
                pathEnd: Int32(i))
        }

        /// The span of an entry whose path is escaped or not ASCII, its path decoded (the
        /// whole entry checked, as every entry was before the index); nil if it does not decode.
        private mutating func decodedSpan(head: Int, headEnd: Int, tail: Range<Int>) -> Span? {
            let span = Span(
                head: Int32(head), headEnd: Int32(headEnd), tail: Int32(tail.lowerBound),
                tailEnd: Int32(tail.upperBound),
                pathEnd: -1)
            guard let entry = RegistryCache.decodeEntry(span, in: file) else { return nil }
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

        /// The entry at `index`, decoded (its record left as text); nil if it does not decode.
        /// `path`, if given, is its path (the caller found it by that path), which saves a copy.
        func entry(at index: Int, path: String? = nil) -> Entry? {
            let span = spans[index]
            let tail = UnsafeBufferPointer(rebasing: file.bytes[Int(span.tail)..<Int(span.tailEnd)])
            switch plainHead(at: index) {
            case .plugin(let keyText, let usable, let identifiers)?:
                guard let key = FileKey(bytes: keyText) else { return RegistryCache.decodeEntry(span, in: file) }
                return Entry(
                    path: path ?? pathString(at: index), key: key,
                    content: .plugin(
                        usable: usable, identifiers: String(decoding: identifiers, as: UTF8.self),
                        record: Record(line: tail, in: file)))
            case .rejection(let keyText)?:
                guard let key = FileKey(bytes: keyText) else { return RegistryCache.decodeEntry(span, in: file) }
                return RegistryCache.rejection(path: path ?? pathString(at: index), key: key, tail: tail)
            case nil: return RegistryCache.decodeEntry(span, in: file)
            }
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

    /// Whether `bytes` are printable ASCII without a backslash: a JSON string's text as it is.
    /// No early exit: the loop is a reduction the compiler vectorizes.
    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var bad: UInt8 = 0
        for byte in bytes { bad |= (byte &- 0x20 >= 0x5F ? 1 : 0) | (byte == UInt8(ascii: "\\") ? 1 : 0) }
        return bad == 0
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
        /// A rejection's: its key's text (the reason is in the entry's second line).
        case rejection(key: UnsafeBufferPointer<UInt8>)
    }
}

extension RegistryCache.Index {
    /// The head of the entry at `index` read by hand, in place (what the JSON parser would give);
    /// nil if it is not written as this version writes it (then `entry(at:)` decides).
    func plainHead(at index: Int) -> RegistryCache.PlainHead? {
        let span = spans[index], bytes = file.bytes, end = Int(span.headEnd)
        guard span.pathEnd >= 0 else { return nil }
        var i = Int(span.pathEnd) + 1
        guard let key = RegistryCache.field(bytes, &i, upTo: end), let kind = RegistryCache.field(bytes, &i, upTo: end),
            let identifiers = RegistryCache.field(bytes, &i, upTo: end),
            i == end - 1, bytes[i] == UInt8(ascii: "]"),
            RegistryCache.isPlain(identifiers)
        else { return nil }
        let usable = RegistryCache.equal(kind, "usable")
        if usable || RegistryCache.equal(kind, "unusable") {
            return .plugin(key: key, usable: usable, identifiers: identifiers)
        }
        return RegistryCache.equal(kind, "rejected") ? .rejection(key: key) : nil
    }
}

extension RegistryCache {
    /// Any entry, through the JSON parser: its head `[path, key, kind, identifiers]` (checked
    /// now) and its tail, `[record, near misses]` (checked when decoded) or `[reason]`.
    static func decodeEntry(_ span: Index.Span, in file: CacheBytes) -> Entry? {
        let head = UnsafeBufferPointer(rebasing: file.bytes[Int(span.head)..<Int(span.headEnd)])
        let tail = UnsafeBufferPointer(rebasing: file.bytes[Int(span.tail)..<Int(span.tailEnd)])
        var parser = JSONValueParser(head)
        let value = try? parser.parseDocument()
        guard case .list(let parts)? = value, parts.count == 4, case .string(let path) = parts[0],
            case .string(let keyText) = parts[1], let key = FileKey(text: keyText), case .string(let kind) = parts[2],
            case .string(let identifiers) = parts[3]
        else { return nil }
        switch kind {
        case "rejected": return rejection(path: path, key: key, tail: tail)
        case "usable", "unusable":
            return Entry(
                path: path, key: key,
                content: .plugin(
                    usable: kind == "usable", identifiers: identifiers, record: Record(line: tail, in: file)))
        default: return nil
        }
    }

    /// A rejection's entry: its tail is `[reason]`.
    static func rejection(path: String, key: FileKey, tail: UnsafeBufferPointer<UInt8>) -> Entry? {
        var parser = JSONValueParser(tail)
        let reason = try? parser.parseDocument()
        guard case .list(let r)? = reason, r.count == 1, case .string(let text) = r[0] else { return nil }
        return Entry(path: path, key: key, content: .rejection(text))
    }
}
