// A row's data: what a table document or an embedding program hands a cell.

import Glibc

/// A JSON-like value; hooks read it by key path through the host table.
public enum RowValue: Sendable, Equatable, Hashable {
    /// JSON's `null`. It exists, so a hook's read of it fails as the wrong type, not as missing.
    case null
    /// True or false; `data_bool` reads it.
    case bool(Bool)
    /// A number, integer or not; `data_number` reads it.
    case number(Double)
    /// Text; `data_string` reads it.
    case string(String)
    /// Values in order; `data_count` gives their number, a key such as "0" one of them.
    case list([RowValue])
    /// Values by key; `data_count` gives their number, a key one of them.
    case object([String: RowValue])

    /// The value at a dot-separated key path; a number indexes a list ("logos.0"); "" is the value itself.
    public func value(at keyPath: some StringProtocol) -> RowValue? {
        var current = self
        for key in keyPath.split(separator: ".", omittingEmptySubsequences: false) where !(keyPath.isEmpty) {
            switch current {
            case .object(let fields):
                guard let next = fields[String(key)] else { return nil }
                current = next
            case .list(let items):
                guard let i = Int(key), items.indices.contains(i) else { return nil }
                current = items[i]
            default:
                return nil
            }
        }
        return current
    }

    /// A string as it is, a number as JSON writes it (42, 4.5, 1e+21), a bool as `true` or `false`;
    /// nil for null, a list or an object. What `data_text` answers (cellkit.h, ABI 1.2).
    package var text: String? {
        switch self {
        case .string(let s): s
        case .bool(let b): b ? "true" : "false"
        case .number(let n): Self.jsonNumber(n)
        case .null, .list, .object: nil
        }
    }

    /// `n` as JSON writes it: a whole number below 2^53 without a fraction, others in Swift's shortest
    /// form that reads back the same; not finite ones (YAML's .inf, .nan) as `null`.
    package static func jsonNumber(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        return n == n.rounded() && abs(n) < 9.007_199_254_740_992e15 ? String(Int64(n)) : "\(n)"
    }

    /// The name of the value's type, for error messages.
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a bool"
        case .number: "a number"
        case .string: "a string"
        case .list: "a list"
        case .object: "an object"
        }
    }
}

// MARK: Row data as a cell holds it

/// A row's data: a value, or a JSON Lines record kept as its checked bytes and
/// read key by key when a hook asks. Decoding every record into a dictionary
/// cost more than drawing its row; hooks read one or two keys.
@usableFromInline package enum RowData: Sendable {
    case value(RowValue)
    case json(JSONRecord)

    /// The record `data` holds, unretained; nil when it holds another value. Read through the
    /// pointer, nothing written meanwhile, it is not copied: a method called on `pointee` copied
    /// it first (a retain and a release).
    package static func unretainedRecord(in data: UnsafePointer<RowData>) -> JSONRecord.Unretained? {
        if case .json(let record) = data.pointee { record.unretained } else { nil }
    }

    /// The value at a dot-separated key path ("" is the whole value).
    package func value(at keyPath: String) -> RowValue? {
        switch self {
        case .value(let value): value.value(at: keyPath)
        case .json(let record): record.value(at: keyPath)
        }
    }

    /// The whole value, decoded.
    package var rowValue: RowValue {
        switch self {
        case .value(let value): value
        case .json(let record): record.value(at: "") ?? .null
        }
    }
}

/// One JSON Lines record whose syntax was checked when it was read, with an index
/// of its top-level members made by the same pass, so a hook's key finds its value
/// without parsing the line again. One allocation: the line's bytes, then four
/// UInt32 offsets per member (key start and end, value start and end; the "cell"
/// member left out), then the lines a reader worked out ahead (`LinePlan`), then the member
/// count and the planned lines' byte count.
@usableFromInline package struct JSONRecord: @unchecked Sendable {  // storage is written only while unique (refill)
    /// The header is the byte count and the plan. Not an array: `[UInt8](unsafeUninitializedCapacity:)`
    /// went through an unspecialized allocation path, dear on every row (BENCHMARKS.md, "Measurements
    /// behind the code": JSONRecord.storage). The plan in the
    /// header, not beside it: a copy of the record (a hook's every data read) retains one object.
    private var storage: ManagedBuffer<Header, UInt8>

    fileprivate struct Header {
        var total: Int
        /// The bytes the storage was made for: at least `total`.
        let room: Int
        let plan: LinePlan?
    }

    /// The record's storage, not retained (`Unretained`).
    package var unretained: Unretained { Unretained(storage: .passUnretained(storage)) }

    /// A record read without retaining its storage, by a holder that keeps the record itself for
    /// as long as it reads (a cell keeps its row's data). A copy of the record, which
    /// `case .json(let record)` makes, retained and released its storage on each of a hook's data
    /// reads (BENCHMARKS.md, "Measurements behind the code": JSONRecord.Unretained).
    package struct Unretained {
        fileprivate let storage: Unmanaged<ManagedBuffer<Header, UInt8>>

        /// `JSONRecord.plainString(at:)`.
        package func plainString(at keyPath: UnsafeBufferPointer<UInt8>) -> (
            bytes: UnsafeBufferPointer<UInt8>, isClean: Bool
        )? {
            storage._withUnsafeGuaranteedRef { JSONRecord(storage: $0).plainString(at: keyPath) }
        }

        /// `JSONRecord.hasPlan`.
        package var hasPlan: Bool { storage._withUnsafeGuaranteedRef { JSONRecord(storage: $0).hasPlan } }
        /// `JSONRecord.plan` (retained: to ask it for lines, which is rare).
        package var plan: LinePlan? { storage._withUnsafeGuaranteedRef { JSONRecord(storage: $0).plan } }

        /// `JSONRecord.plannedLines(for:width:maxLines:mode:)`.
        package func plannedLines(
            for text: UnsafeBufferPointer<UInt8>, width: Int, maxLines: Int, mode: Int32
        ) -> UnsafeBufferPointer<UInt32>? {
            storage._withUnsafeGuaranteedRef {
                JSONRecord(storage: $0).plannedLines(for: text, width: width, maxLines: maxLines, mode: mode)
            }
        }

        /// `JSONRecord.key(ofMemberWithText:)`.
        package func key(ofMemberWithText text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
            storage._withUnsafeGuaranteedRef { JSONRecord(storage: $0).key(ofMemberWithText: text) }
        }
    }

    fileprivate init(storage: ManagedBuffer<Header, UInt8>) { self.storage = storage }

    /// Which memory the record's bytes are in: the same for a record written over (`refill`).
    package var storageIdentity: ObjectIdentifier { ObjectIdentifier(storage) }

    /// Where to ask for lines worked out ahead, for the rows to come; nil when nobody reads ahead.
    package var plan: LinePlan? { storage.header.plan }
    /// Whether a reader works lines out ahead for this record's file (`plan` is not nil), read
    /// without retaining the plan.
    package var hasPlan: Bool { storage.withUnsafeMutablePointerToHeader { $0.pointee.plan != nil } }

    /// Checks `line` (a JSON object, or anything for the decoding paths) and indexes it.
    package init(checking line: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) {
        var members = JSONValueParser.MemberIndex()
        var parser = JSONValueParser(line)
        try parser.check(members: &members)
        self.init(line: line, members: members)
    }

    /// A record from a line and the members `JSONValueParser.check` found in it.
    package init(line: UnsafeBufferPointer<UInt8>, members: borrowing JSONValueParser.MemberIndex) {
        self.init(line: line, offsets: UnsafeBufferPointer(start: members.offsets, count: members.count))
    }

    /// A record from a line and a copy of the offsets of a `JSONValueParser.MemberIndex` made for it,
    /// with the lines a reader worked out ahead for it (`PlannedLines`' bytes) and its plan.
    /// `room`: bytes to make the storage for, when more than the record takes (one that `refill`
    /// will write later records into).
    package init(
        line: UnsafeBufferPointer<UInt8>, offsets: UnsafeBufferPointer<UInt32>,
        planned: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0), plan: LinePlan? = nil,
        room: Int = 0
    ) {
        let total = Self.layoutBytes(line: line.count, offsets: offsets.count, planned: planned.count)
        storage = Self.storage(total: total, room: room, plan: plan)
        storage.withUnsafeMutablePointerToElements {
            Self.writeLayout(to: UnsafeMutableRawPointer($0), line: line, offsets: offsets, planned: planned)
        }
    }

    /// Storage for a record of `total` bytes (`layoutBytes`), with room for `room` when more.
    private static func storage(total: Int, room: Int, plan: LinePlan?) -> ManagedBuffer<Header, UInt8> {
        let room = max(total, room)
        return ManagedBuffer<Header, UInt8>.create(minimumCapacity: room) { _ in
            Header(total: total, room: room, plan: plan)
        }
    }

    /// A record from its bytes as `writeLayout` lays them out, with its plan (see
    /// `init(line:offsets:planned:plan:room:)`).
    package init(layout: UnsafeRawBufferPointer, plan: LinePlan?, room: Int = 0) {
        storage = Self.storage(total: layout.count, room: room, plan: plan)
        storage.withUnsafeMutablePointerToElements {
            UnsafeMutableRawPointer($0).copyMemory(from: layout.baseAddress!, byteCount: layout.count)
        }
    }

    /// Rewrites this record in place as `init(layout:plan:)` makes it, when nothing else holds its
    /// storage, the storage has room and the record asks `plan`; false, unchanged, otherwise. A
    /// reader that keeps the records of its last rows writes each new one into the memory of one
    /// whose row is done: no allocation, and no free, per row. The reader lays a record out ahead
    /// of its row (`RowReader`), and it is copied in whole, not in its three parts (BENCHMARKS.md,
    /// "Measurements behind the code": JSONRecord.layout).
    package mutating func refill(layout: UnsafeRawBufferPointer, plan: LinePlan?) -> Bool {
        let total = layout.count
        guard isKnownUniquelyReferenced(&storage),
            storage.withUnsafeMutablePointerToHeader({ $0.pointee.room >= total && $0.pointee.plan === plan })
        else { return false }
        storage.withUnsafeMutablePointers { header, elements in
            header.pointee.total = total
            UnsafeMutableRawPointer(elements).copyMemory(from: layout.baseAddress!, byteCount: total)
        }
        return true
    }

    /// The bytes of a record after its header, of a line of `line` bytes, `offsets` member offsets
    /// (four a member) and `planned` bytes of planned lines: what `writeLayout` writes.
    @inlinable @inline(__always)
    package static func layoutBytes(line: Int, offsets: Int, planned: Int) -> Int {
        line &+ offsets &* 4 &+ planned &+ 8
    }

    /// Lays a record's bytes out at `base` (`layoutBytes` of them): the line, the member offsets
    /// (`JSONValueParser.MemberIndex`'s), the planned lines (`PlannedLines`' bytes), then the member
    /// count and the planned lines' byte count, as UInt32s. Inlined into the reader, which writes one
    /// a row.
    @inlinable @inline(__always)
    package static func writeLayout(
        to base: UnsafeMutableRawPointer, line: UnsafeBufferPointer<UInt8>, offsets: UnsafeBufferPointer<UInt32>,
        planned: UnsafeRawBufferPointer
    ) {
        let total = layoutBytes(line: line.count, offsets: offsets.count, planned: planned.count)
        if line.count > 0 { base.copyMemory(from: line.baseAddress!, byteCount: line.count) }
        if offsets.count > 0 {
            base.advanced(by: line.count).copyMemory(from: offsets.baseAddress!, byteCount: offsets.count * 4)
        }
        if planned.count > 0 {
            base.advanced(by: line.count + offsets.count * 4).copyMemory(
                from: planned.baseAddress!, byteCount: planned.count)
        }
        base.storeBytes(of: UInt32(offsets.count / 4), toByteOffset: total - 8, as: UInt32.self)
        base.storeBytes(of: UInt32(planned.count), toByteOffset: total - 4, as: UInt32.self)
    }

    /// Calls `body` with the line's bytes, all the bytes (the index starts where the line
    /// ends), and the number of members in the index.
    private func withParts<R>(
        _ body: (_ line: UnsafeBufferPointer<UInt8>, _ all: UnsafeRawBufferPointer, _ members: Int) -> R
    ) -> R {
        storage.withUnsafeMutablePointers { header, elements in
            let all = UnsafeRawBufferPointer(start: elements, count: header.pointee.total)
            let n = Int(all.loadUnaligned(fromByteOffset: all.count - 8, as: UInt32.self))
            let planned = Int(all.loadUnaligned(fromByteOffset: all.count - 4, as: UInt32.self))
            return body(UnsafeBufferPointer(start: elements, count: all.count - 8 - planned - n * 16), all, n)
        }
    }

    // MARK: Lines worked out ahead

    /// The lines worked out ahead for `text` broken into at most `maxLines` lines of `width`
    /// columns in `mode` (a `LineBreakMode`'s raw value), when the reader worked them out for a
    /// member whose text is byte for byte `text`: three UInt32s a line, its start, end and
    /// columns, counted from the text's start; the record's own memory, valid while it is. Nil
    /// when it did not. Not generic, so that the layout gets this module's specialized code.
    package func plannedLines(
        for text: UnsafeBufferPointer<UInt8>, width: Int, maxLines: Int, mode: Int32
    ) -> UnsafeBufferPointer<UInt32>? {
        withParts { line, all, n in
            var at = line.count + n * 16
            let end = all.count - 8
            while at < end {
                let entry = (all.baseAddress! + at).assumingMemoryBound(to: UInt32.self)
                let count = Int(entry[5])
                if Int(entry[1]) == text.count, Int(entry[2]) == width, Int(entry[3]) == maxLines,
                    Int32(bitPattern: entry[4]) == mode, text.count <= line.count - Int(entry[0]),
                    text.count == 0 || memcmp(line.baseAddress! + Int(entry[0]), text.baseAddress!, text.count) == 0
                {
                    return UnsafeBufferPointer(start: entry + 6, count: count * 3)
                }
                at += (6 + count * 3) * 4
            }
            return nil
        }
    }

    /// The key, as the line writes it (quotes included), of a top-level text member written
    /// plainly and clean whose text is byte for byte `text`; nil if there is none.
    package func key(ofMemberWithText text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        withParts { line, all, n in
            for m in 0..<n {
                func offset(_ k: Int) -> Int {
                    Int(all.loadUnaligned(fromByteOffset: line.count + m * 16 + k * 4, as: UInt32.self))
                }
                guard let found = Self.plainCleanText(line, offset(2), offset(3)), found.count == text.count,
                    text.isEmpty || memcmp(found.baseAddress!, text.baseAddress!, text.count) == 0
                else { continue }
                return Array(line[offset(0)..<offset(1)])
            }
            return nil
        }
    }

    /// The text of the top-level member written `key` (quotes included) in `line`, whose index is
    /// `offsets` (`JSONValueParser.MemberIndex`'s), where it starts, and whether it is all printable
    /// ASCII (`JSONValueParser.asciiFlag`), if it is written plainly and clean; else nil. For a
    /// reader working lines out before the record is made.
    package static func plainCleanText(
        _ key: UnsafeBufferPointer<UInt8>, in line: UnsafeBufferPointer<UInt8>, offsets: UnsafeBufferPointer<UInt32>
    ) -> (start: Int, text: UnsafeBufferPointer<UInt8>, isASCII: Bool)? {
        guard let k = key.baseAddress, let o = offsets.baseAddress, let bytes = line.baseAddress, key.count > 0 else {
            return nil
        }
        // Read through the pointers, from the last member: the index's offsets lie inside the line
        // (the check wrote them). With checked subscripts and a stride the lookup was 133
        // instructions a key (BENCHMARKS.md, "Measurements behind the code": JSONRecord.cleanTextLookup).
        let count = key.count
        var m = offsets.count / 4
        while m > 0 {
            m &-= 1
            let entry = o + m &* 4
            let keyStart = Int(entry[0])
            guard Int(entry[1]) &- keyStart == count, JSONValueParser.sameBytes(bytes + keyStart, k, count: count)
            else { continue }
            let start = Int(entry[2]), flagged = Int(entry[3])
            let value = member(start, flagged)
            assert(Int(entry[1]) <= line.count && value.range.upperBound <= line.count, "an index past its line")
            guard value.plain, value.clean else { return nil }
            let text = UnsafeBufferPointer(start: bytes + (start &+ 1), count: value.range.count &- 2)
            return (start &+ 1, text, flagged & Int(JSONValueParser.asciiFlag) != 0)
        }
        return nil
    }

    /// The text between the quotes of a value from `start` to `end` (with the index's flags) if
    /// the check found it plain and clean.
    private static func plainCleanText(
        _ line: UnsafeBufferPointer<UInt8>, _ start: Int, _ flaggedEnd: Int
    ) -> UnsafeBufferPointer<UInt8>? {
        let value = member(start, flaggedEnd)
        return value.plain && value.clean ? value.range.text(of: line) : nil
    }

    /// A member's value (its range, quotes included) and whether it is text written plainly and
    /// clean, from the index's start and flagged end (`JSONValueParser.plainFlag`, `cleanFlag`).
    private static func member(_ start: Int, _ flaggedEnd: Int) -> (range: Range<Int>, plain: Bool, clean: Bool) {
        let plain = Int(JSONValueParser.plainFlag), clean = Int(JSONValueParser.cleanFlag)
        let flags = plain | clean | Int(JSONValueParser.asciiFlag)
        return (start..<(flaggedEnd & ~flags), flaggedEnd & plain != 0, flaggedEnd & clean != 0)
    }

    package func value(at keyPath: String) -> RowValue? {
        if keyPath.isEmpty { return withParts { line, _, _ in JSONValueParser.value(in: line, at: "") } }
        return withMember(keyPath) { line, member, _, _, rest in
            JSONValueParser.value(in: line, from: member.lowerBound, at: rest)
        }
    }

    /// Calls `body` with the bytes of the text at `keyPath` (UTF-8 bytes) if it is written with no
    /// escapes and is valid UTF-8 (what decoding it would give, byte for byte), and whether it is
    /// clean (`UTF8Bytes.check`); else nil.
    package func withPlainString<R>(
        at keyPath: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>, Bool) -> R
    ) -> R? {
        guard !keyPath.isEmpty else { return nil }
        return withMember(keyPath) { line, member, plain, clean, rest -> R? in
            // A top-level member the line's check found plain is its bytes between the quotes, already
            // checked as UTF-8 and for cleanliness, with no NUL (a raw control character is a syntax
            // error); a nested one is found and scanned now.
            if rest == nil, plain { return body(member.text(of: line), clean) }
            guard let span = JSONValueParser.plainString(in: line, from: member.lowerBound, at: rest) else {
                return nil
            }
            let text = UnsafeBufferPointer(rebasing: line[span])
            // memchr: `contains(0)` went a byte at a time, a large part of this function's time
            // (BENCHMARKS.md, "Measurements behind the code": RowValue.memchr)
            if !text.isEmpty, memchr(text.baseAddress!, 0, text.count) != nil { return nil }
            let (valid, clean) = UTF8Bytes.check(text)
            return valid ? body(text, clean) : nil
        } ?? nil
    }

    /// The bytes of the text at `keyPath` (UTF-8 bytes, as a hook passes it) if it is written
    /// plainly (see `withPlainString`), and whether it is clean; else nil. The bytes are the
    /// record's own, valid while the record is (its storage is a heap object that never moves).
    /// Not generic, so that callers in other modules get this module's specialized code: a generic
    /// member of a non-public type is neither inlined nor specialized across modules, and ran the
    /// runtime's generic metadata lookup on every row.
    package func plainString(at keyPath: UnsafeBufferPointer<UInt8>) -> (
        bytes: UnsafeBufferPointer<UInt8>, isClean: Bool
    )? {
        switch plainMember(keyPath) {
        case .found(let bytes, let isClean): (bytes, isClean)
        case .missing: nil
        case .elsewhere: withPlainString(at: keyPath) { ($0, $1) }
        }
    }

    /// What `plainMember` finds.
    private enum PlainMember {
        /// The text of a plain top-level member.
        case found(UnsafeBufferPointer<UInt8>, Bool)
        /// No top-level member has the key.
        case missing
        /// A case `withPlainString` settles: a key path with a dot, a key that is written with an
        /// escape or is long, or a member whose value is not plain text.
        case elsewhere
    }

    /// `plainString(at:)` for a hook's usual key — a short name with no dot or backslash — looked up
    /// in the member index with a loop of its own: the general lookup (a `memchr` for the dot, a
    /// generic key comparison, two closures) was about 170 instructions a key, a third of a
    /// `data_string` call (BENCHMARKS.md, "Measurements behind the code": JSONRecord.plainMember).
    /// The last member with the key wins, as in `withMember`: a later member whose key is written
    /// with an escape might be the one, so meeting one hands the lookup over.
    private func plainMember(_ key: UnsafeBufferPointer<UInt8>) -> PlainMember {
        let count = key.count
        guard count > 0, count <= 32, let k = key.baseAddress else { return .elsewhere }
        for i in 0..<count where k[i] == 0x2E || k[i] == 0x5C { return .elsewhere }  // a dot or a backslash
        // The record's parts found as `withParts` finds them, written out: through its closure the
        // lookup was 15 instructions more a key (callgrind).
        return storage.withUnsafeMutablePointers { header, elements -> PlainMember in
            let all = UnsafeRawPointer(elements), total = header.pointee.total
            let n = Int(all.loadUnaligned(fromByteOffset: total &- 8, as: UInt32.self))
            let planned = Int(all.loadUnaligned(fromByteOffset: total &- 4, as: UInt32.self))
            let line = UnsafeBufferPointer(start: elements, count: total &- 8 &- planned &- n &* 16)
            var m = n &- 1
            while m >= 0 {
                let entry = line.count &+ m &* 16
                let keyStart = Int(all.loadUnaligned(fromByteOffset: entry, as: UInt32.self))
                let keyEnd = Int(all.loadUnaligned(fromByteOffset: entry &+ 4, as: UInt32.self))
                let inner = keyEnd &- keyStart &- 2  // the key's bytes between its quotes
                m &-= 1
                if inner < count { continue }
                let name = line.baseAddress! + (keyStart &+ 1)
                if inner > count {
                    // Longer: equal only when written with an escape, which the general lookup decodes.
                    if memchr(name, 0x5C, inner) != nil { return .elsewhere }
                    continue
                }
                guard JSONValueParser.sameBytes(name, k, count: count) else { continue }
                let value = Self.member(
                    Int(all.loadUnaligned(fromByteOffset: entry &+ 8, as: UInt32.self)),
                    Int(all.loadUnaligned(fromByteOffset: entry &+ 12, as: UInt32.self)))
                guard value.plain else { return .elsewhere }
                let text = UnsafeBufferPointer(
                    start: elements + (value.range.lowerBound &+ 1), count: value.range.count &- 2)
                return .found(text, value.clean)
            }
            return .missing
        }
    }

    /// `plainString(at:)` with the key path as a String.
    package func plainString(at keyPath: String) -> (bytes: UnsafeBufferPointer<UInt8>, isClean: Bool)? {
        keyPath.withBorrowedUTF8 { plainString(at: $0) }
    }

    // MARK: The index

    /// Calls `body` with the line, the value of the top-level member named by `keyPath`'s
    /// first key (the last such member, as a dictionary would keep), whether that value is text
    /// with no escape and whether it is clean (`JSONValueParser.plainFlag`, `cleanFlag`), and the
    /// rest of the path after its dot (nil if none); nil if there is no such member.
    private func withMember<R>(
        _ keyPath: String, _ body: (UnsafeBufferPointer<UInt8>, Range<Int>, Bool, Bool, Substring.UTF8View?) -> R?
    ) -> R? {
        keyPath.withBorrowedUTF8 { withMember($0, body) }
    }

    /// `withMember` with the key path's UTF-8 bytes; a String is made of the rest of the path
    /// only when there is one (a hook's usual key has no dot).
    private func withMember<R>(
        _ path: UnsafeBufferPointer<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>, Range<Int>, Bool, Bool, Substring.UTF8View?) -> R?
    ) -> R? {
        let dot =
            path.isEmpty
            ? nil
            : memchr(path.baseAddress!, Int32(UInt8(ascii: ".")), path.count).map {
                UnsafeRawPointer($0) - UnsafeRawPointer(path.baseAddress!)
            }
        let key = UnsafeBufferPointer(rebasing: path[..<(dot ?? path.count)])
        let rest = dot.map {
            Substring(String(decoding: UnsafeBufferPointer(rebasing: path[($0 + 1)...]), as: UTF8.self)).utf8
        }
        return withParts { line, all, n in
            for m in stride(from: n - 1, through: 0, by: -1) {
                func offset(_ k: Int) -> UInt32 {
                    all.loadUnaligned(fromByteOffset: line.count + m * 16 + k * 4, as: UInt32.self)
                }
                let quoted = UnsafeBufferPointer(rebasing: line[Int(offset(0))..<Int(offset(1))])
                guard JSONValueParser.key(quoted, equals: key) else { continue }
                let value = Self.member(Int(offset(2)), Int(offset(3)))
                return body(line, value.range, value.plain, value.clean, rest)
            }
            return nil
        }
    }
}

extension Range<Int> {
    /// The bytes of `line` inside the quotes of the text value this range spans.
    fileprivate func text(of line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: line[(lowerBound + 1)..<(upperBound - 1)])
    }
}
