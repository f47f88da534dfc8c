// JSON from bytes straight to RowValue, for JSON Lines rows. Foundation's
// JSONSerialization builds NSObjects and costs microseconds per row; streaming
// a million rows a second needs a parser that reads the bytes once.

import CScan
import Foundation

/// A JSON syntax error at a byte offset of the text parsed.
package struct JSONSyntaxError: Error {
    package let offset: Int
    package let message: String
}

/// Parses one JSON value from UTF-8 bytes (RFC 8259; nesting at most 64 deep).
package struct JSONValueParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var i = 0
    /// Where the value of the top-level object's "cell" key starts, if it has one.
    package private(set) var cellOffset: Int?
    /// After `check(members:)`: the text of that value, between its quotes, when it is text written
    /// plainly (`plainText(in:at:)`); found by the one pass in C from its flags when it can be.
    package private(set) var cellText: Range<Int>?
    /// Where `parseDocument` notes the top-level object's members (see `JSONRecord`), if set.
    private var members: UnsafeMutablePointer<MemberIndex>?
    /// Whether the last string `skipString` passed had no escape and was valid UTF-8.
    private var stringWasPlain = false
    /// Whether it was also clean: no DEL and no hidden scalar (`UTF8Bytes.isHidden`).
    private var stringWasClean = false
    /// Whether every byte of it was printable ASCII (0x20...0x7E; clean, then).
    private var stringWasASCII = false
    /// Set on a member's value end (`MemberIndex`) when the value is text with no escape, valid
    /// UTF-8: its bytes between the quotes are its text (a raw control character, NUL too, is an
    /// error), and a hook can be handed them without checking them again.
    package static let plainFlag: UInt32 = 1 << 31
    /// Set with `plainFlag` when the text is also clean (see `stringWasClean`).
    package static let cleanFlag: UInt32 = 1 << 30
    /// Set with `plainFlag` and `cleanFlag` when every byte of the text is printable ASCII: a
    /// column a byte, so that a reader breaking it into lines need not look at its bytes for
    /// that again (BENCHMARKS.md, "Measurements behind the code": JSONValueParser.asciiFlag).
    /// No indexed line reaches this offset (`check(members:)` refuses one that would), so a value's
    /// end is below it whatever flags it has.
    package static let asciiFlag: UInt32 = 1 << 29

    /// Offsets of members, four per member, in memory kept from row to row: appending
    /// to an array per member cost more than parsing the member. In cache lines of their own
    /// (`CacheLine`): a data file's reader writes them row by row beside the table's thread.
    package struct MemberIndex: ~Copyable {
        package private(set) var offsets = CacheLine.allocate(UInt32.self, capacity: 32)
        package private(set) var count = 0
        private var capacity = 32

        package init() {}

        deinit { offsets.deallocate() }

        package mutating func removeAll() { count = 0 }

        /// `bytes` checked in CScan's one pass (`ck_json_check_record`), its members appended: whether
        /// the pass took the record, where its "cell" value starts, and that value's text when the
        /// pass found it plain (no escape, valid UTF-8). Not taken, nothing is appended and the Swift
        /// parser must check the record (and say what is wrong with it). The Swift walk cost half as
        /// much again (BENCHMARKS.md, "Measurements behind the code": JSONValueParser.checkInC). Inline
        /// into the check, as the C entry jumps to its walk (JSONValueParser.checkJump).
        @inline(__always)
        mutating func checkInC(_ bytes: UnsafeBufferPointer<UInt8>) -> (
            taken: Bool, cellOffset: Int?, cellText: Range<Int>?
        ) {
            while true {
                var written = 0, cell = -1, end = 0
                let answer = ck_json_check_record(
                    bytes.baseAddress, bytes.count, offsets + count, capacity - count, &written, &cell, &end)
                switch answer {
                case Int32(CK_JSON_CHECKED):
                    count += written
                    guard cell >= 0 else { return (true, nil, nil) }
                    // A string's end comes with its flags (`plainFlag`): plain, its text is between its quotes.
                    // (Its quotes hold the bounds apart: no check of them needed.)
                    let flags = UInt32(truncatingIfNeeded: end)
                    guard flags & JSONValueParser.plainFlag != 0 else { return (true, cell, nil) }
                    let close = Int(flags & (JSONValueParser.asciiFlag &- 1))
                    return (true, cell, Range(uncheckedBounds: (cell &+ 1, close &- 1)))
                case Int32(CK_JSON_NEEDS_ROOM): grow()
                default: return (false, nil, nil)
                }
            }
        }

        private mutating func grow() {
            let grown = CacheLine.allocate(UInt32.self, capacity: capacity * 2)
            grown.moveInitialize(from: offsets, count: count)
            offsets.deallocate()
            (offsets, capacity) = (grown, capacity * 2)
        }

        package mutating func append(_ a: Int, _ b: Int, _ c: Int, _ d: Int) {
            if count + 4 > capacity { grow() }
            (offsets[count], offsets[count + 1], offsets[count + 2], offsets[count + 3]) = (
                UInt32(a), UInt32(b), UInt32(c), UInt32(d)
            )
            count += 4
        }
    }

    package init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The whole text as one value; anything after it but whitespace is an error.
    /// With `build` false the text is only checked (nothing is allocated) and null returned.
    package mutating func parseDocument(build: Bool = true) throws(JSONSyntaxError) -> RowValue {
        var value = RowValue.null
        if build { value = try parseValue(depth: 0) } else { try checkValue(depth: 0) }
        skipSpace()
        guard i == bytes.count else { throw fail("unexpected text after the value") }
        return value
    }

    /// Checks the whole text, as `parseDocument(build: false)`, and appends to `members`
    /// four offsets per member of a top-level object, "cell" left out: where its quoted
    /// key starts and ends, where its value starts and ends. A well-formed record is taken in
    /// CScan's one pass (`MemberIndex.checkInC`), anything else here (`inC` false: here always).
    package mutating func check(members: inout MemberIndex, inC: Bool = true) throws(JSONSyntaxError) {
        // An index offset has 29 bits below the flags: a longer line could not be indexed. (A data
        // file's records are at most 16 MiB: `RowStream.longestRecord`.)
        guard bytes.count < Int(Self.asciiFlag) else {
            throw JSONSyntaxError(
                offset: 0, message: "a record of \(bytes.count) bytes; a record may have fewer than \(Self.asciiFlag)")
        }
        if inC {
            let (taken, cell, text) = members.checkInC(bytes)
            if taken {
                (cellOffset, i) = (cell, bytes.count)
                // Found from the pass's flags (BENCHMARKS.md, "Measurements behind the code":
                // JSONValueParser.cellText); else as the parser finds it.
                cellText = text ?? cell.flatMap { plainText(at: $0) }
                return
            }
        }
        try withUnsafeMutablePointer(to: &members) { (pointer) throws(JSONSyntaxError) in
            self.members = pointer
            defer { self.members = nil }
            _ = try parseDocument(build: false)
        }
        cellText = cellOffset.flatMap { plainText(at: $0) }
    }

    private func fail(_ message: String) -> JSONSyntaxError { JSONSyntaxError(offset: i, message: message) }

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
    }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> RowValue {
        skipSpace()
        guard i < bytes.count else { throw fail("expected a value, found the end of the line") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("expected a value (object, list, text, number, true, false or null)")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw fail("expected \(word)") }
        for k in 0..<n where bytes[i + k] != word.utf8Start[k] { throw fail("expected \(word)") }
        i += n
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> RowValue {
        var fields: [String: RowValue] = [:]
        try members(depth: depth) { (parser, key) throws(JSONSyntaxError) in
            parser.i = key.lowerBound
            let name = try parser.parseString()  // checked already: decoding cannot fail
            try parser.colon()
            if depth == 0, name == "cell" { parser.cellOffset = parser.i }
            fields[name] = try parser.parseValue(depth: depth + 1)
        }
        return .object(fields)
    }

    /// Walks an object's members from its "{": for each, `body` is called just after its
    /// key (checked; its quoted span given) and must leave `i` after the member's value.
    @inline(__always)
    private mutating func members(
        depth: Int, _ body: (inout JSONValueParser, Range<Int>) throws(JSONSyntaxError) -> Void
    ) throws(JSONSyntaxError) {
        guard depth < 64 else { throw fail("nested more than 64 levels deep") }
        i += 1
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key in quotes") }
            let keyStart = i
            try skipString()
            try body(&self, keyStart..<i)
            skipSpace()
            guard i < bytes.count else { throw fail("expected ',' or '}', found the end of the line") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return }
            throw fail("expected ',' or '}'")
        }
    }

    /// After a key: the ':' and the space around it.
    private mutating func colon() throws(JSONSyntaxError) {
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':' after the key") }
        i += 1
        skipSpace()
    }

    /// Whether the quoted key spanning `range` is "cell", however it is escaped.
    private func isCellKey(_ range: Range<Int>) -> Bool {
        // Written plainly, "cell" is six bytes with its quotes; escaped, it is longer.
        if range.count == 6 { return memcmp(bytes.baseAddress! + range.lowerBound, "\"cell\"", 6) == 0 }
        return range.count > 6 && Self.key(UnsafeBufferPointer(rebasing: bytes[range]), equals: "cell".utf8)
    }

    /// Whether `count` bytes at `a` and at `b` are the same: a short run (a hook's usual key) compared
    /// byte by byte, as a call to memcmp cost more than the bytes (BENCHMARKS.md, "Measurements
    /// behind the code": JSONValueParser.key); a longer one by memcmp.
    @inline(__always)
    package static func sameBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard count <= 16 else { return memcmp(a, b, count) == 0 }
        for k in 0..<count where a[k] != b[k] { return false }
        return true
    }

    /// Whether a quoted key (`quoted`, quotes included, already checked) decodes to `name`.
    package static func key(_ quoted: UnsafeBufferPointer<UInt8>, equals name: some Collection<UInt8>) -> Bool {
        let inner = UnsafeBufferPointer(rebasing: quoted[1..<quoted.count - 1])
        // An escape decodes to fewer bytes than it takes: a key as long as `name` equals it only if
        // it is the same bytes and has none, and a shorter one never does. Most keys a lookup passes
        // differ in length, and are passed over with no call.
        // A short key (a hook's usual one) is compared byte by byte here: a call to memcmp and one
        // to memchr cost more than the bytes (BENCHMARKS.md, "Measurements behind the code": JSONValueParser.key).
        func hasEscape() -> Bool {
            guard inner.count > 16 else {
                for k in 0..<inner.count where inner[k] == 0x5C { return true }
                return false
            }
            return memchr(inner.baseAddress!, 0x5C, inner.count) != nil
        }
        if inner.isEmpty { return name.isEmpty }
        if inner.count < name.count { return false }
        if inner.count == name.count {
            let same =
                name.withContiguousStorageIfAvailable {
                    Self.sameBytes(inner.baseAddress!, $0.baseAddress!, count: inner.count)
                } ?? inner.elementsEqual(name)
            return same && !hasEscape()
        }
        guard hasEscape() else { return false }
        var parser = JSONValueParser(quoted)
        return (try? parser.parseString()).map { $0.utf8.elementsEqual(name) } ?? false
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> RowValue {
        var items: [RowValue] = []
        try elements(depth: depth) { (parser) throws(JSONSyntaxError) in
            items.append(try parser.parseValue(depth: depth + 1))
        }
        return .list(items)
    }

    /// Walks a list's elements from its "[": `body` reads each one.
    @inline(__always)
    private mutating func elements(depth: Int, _ body: (inout JSONValueParser) throws(JSONSyntaxError) -> Void)
        throws(JSONSyntaxError)
    {
        guard depth < 64 else { throw fail("nested more than 64 levels deep") }
        i += 1
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return }
        while true {
            try body(&self)
            skipSpace()
            guard i < bytes.count else { throw fail("expected ',' or ']', found the end of the line") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return }
            throw fail("expected ',' or ']'")
        }
    }

    // MARK: Checking without building

    /// Checks one value and moves past it, building nothing: the JSON Lines pass over
    /// every row. Building values only to drop them cost more than the checking.
    private mutating func checkValue(depth: Int) throws(JSONSyntaxError) {
        skipSpace()
        guard i < bytes.count else { throw fail("expected a value, found the end of the line") }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            try members(depth: depth) { (parser, key) throws(JSONSyntaxError) in
                try parser.colon()
                let valueStart = parser.i
                let isCell = depth == 0 && parser.isCellKey(key)
                if isCell { parser.cellOffset = valueStart }
                try parser.checkValue(depth: depth + 1)
                if depth == 0, !isCell, let members = parser.members {
                    let plain =
                        parser.bytes[valueStart] == UInt8(ascii: "\"") && parser.stringWasPlain
                        && parser.i < Int(Self.asciiFlag)
                    let flags =
                        plain
                        ? Self.plainFlag | (parser.stringWasClean ? Self.cleanFlag : 0)
                            | (parser.stringWasASCII ? Self.asciiFlag : 0) : 0
                    members.pointee.append(key.lowerBound, key.upperBound, valueStart, parser.i | Int(flags))
                }
            }
        case UInt8(ascii: "["):
            try elements(depth: depth) { (parser) throws(JSONSyntaxError) in try parser.checkValue(depth: depth + 1) }
        case UInt8(ascii: "\""): try skipString()
        default: _ = try parseValue(depth: depth)  // a literal or a number: nothing to allocate
        }
    }

    /// Moves past a string, checked: a plain run of ASCII sixteen bytes at a time, then (from the
    /// first byte beyond ASCII) scalar by scalar, each checked as UTF-8 and for hidden scalars as
    /// `UTF8Bytes.check` does, so that a hook's read of the text needs no second pass over it;
    /// escapes and invalid UTF-8 by `parseString`.
    private mutating func skipString() throws(JSONSyntaxError) {
        let n = bytes.count
        var j = asciiRunEnd(from: i &+ 1), clean = true
        if j < n, bytes[j] == UInt8(ascii: "\"") {  // printable ASCII to its end
            (i, stringWasPlain, stringWasClean, stringWasASCII) = (j &+ 1, true, true, true)
            return
        }
        stringWasASCII = false
        while j < n {
            let b = bytes[j]
            if b >= 0x80 {
                guard let length = UTF8Bytes.multiByteScalar(bytes, at: j, clean: &clean) else { break }
                j &+= length
                continue
            }
            if b == UInt8(ascii: "\"") {
                (i, stringWasPlain, stringWasClean) = (j &+ 1, true, clean)
                return
            }
            if b == UInt8(ascii: "\\") || b < 0x20 { break }  // an escape or an error: the slow path
            if b == 0x7F { clean = false }
            j &+= 1
        }
        _ = try parseString(build: false)
        (stringWasPlain, stringWasClean, stringWasASCII) = (false, false, false)
    }

    /// Where the run of plain printable ASCII from byte `start` ends: at the first quote,
    /// backslash, control byte, DEL or byte of 0x80 and above, or the end. Sixteen bytes a step
    /// (CScan, SSE2), as simdjson's first stage scans string bodies; the eight-byte word tests
    /// it replaces kept the check's other steps from being inlined (BENCHMARKS.md,
    /// "Measurements behind the code": JSONValueParser.scan). Testing the first eight bytes
    /// inline first, for short strings, saved nothing.
    @inline(__always)
    private func asciiRunEnd(from start: Int) -> Int {
        start &+ ck_scan_json_string_ascii(bytes.baseAddress! + start, bytes.count &- start)
    }

    private mutating func parseString(build: Bool = true) throws(JSONSyntaxError) -> String {
        i += 1
        let start = i
        i = plainRunEnd(from: i)  // fast path: no escapes
        if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
            defer { i += 1 }
            return build ? String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self) : ""
        }
        var out = Array(bytes[start..<i])
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { i += 1; return String(decoding: out, as: UTF8.self) }
            guard b >= 0x20 else { throw fail("a raw control character in text; write it escaped, as \\n or \\u00XX") }
            if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
            i += 1
            guard i < bytes.count else { break }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar), i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"),
                    bytes[i + 1] == UInt8(ascii: "u")
                {
                    i += 2
                    let low = try hex4()
                    scalar =
                        (0xDC00...0xDFFF).contains(low) ? 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD
                }
                out.append(contentsOf: String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8)
            default: i -= 1; throw fail("unknown escape '\\\(Character(Unicode.Scalar(e)))'")
            }
        }
        throw fail("text not closed with '\"'")
    }

    /// Where the run of plain text from byte `start` ends: at the first quote, backslash
    /// or control byte, or the end. Eight bytes a step, in locals (`i` is a stored
    /// property, written back to memory on every step).
    @inline(__always)
    private func plainRunEnd(from start: Int) -> Int {
        let base = bytes.baseAddress!, n = bytes.count
        var j = start
        while j &+ 8 <= n {
            let stops = Self.plainRunStops(ByteWord(loading: base + j))
            // The lowest flag is exact, and the first byte in memory.
            if stops != 0 { return j &+ ByteWord.firstLane(stops) }
            j &+= 8
        }
        while j < n, base[j] != UInt8(ascii: "\""), base[j] != UInt8(ascii: "\\"), base[j] >= 0x20 { j &+= 1 }
        return j
    }

    /// The high bit of each byte of `word` that is a quote, a backslash or a control
    /// character (`ByteWord`'s tests: the lowest flag is exact).
    @inline(__always)
    private static func plainRunStops(_ word: ByteWord) -> UInt64 {
        word.flags(equalTo: UInt8(ascii: "\"")) | word.flags(equalTo: UInt8(ascii: "\\")) | word.flags(below: 0x20)
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("expected four hex digits after \\u") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
            default: throw fail("expected four hex digits after \\u")
            }
            v = v << 4 | UInt32(d)
            i += 1
        }
        return v
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = i
        var integer: Int64 = 0, simple = true, negative = false
        if bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        let digits = i
        while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) {
            if i - digits < 18 { integer = integer * 10 + Int64(bytes[i] - UInt8(ascii: "0")) } else { simple = false }
            i += 1
        }
        guard i > digits else { throw fail("expected digits") }
        while i < bytes.count,
            [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-")].contains(
                bytes[i])
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i])
        {
            simple = false
            i += 1
        }
        if simple { return Double(negative ? -integer : integer) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { i = start; throw fail("'\(text)' is not a number") }
        return value
    }
}

// MARK: Reading one value out of checked text

extension JSONValueParser {
    /// The value at `keyPath` in a JSON Lines record `parseDocument(build: false)`
    /// accepted, or nil: dot-separated keys, a number indexing a list ("logos.0"),
    /// "" for the whole record. The record's top-level "cell" key is not data.
    /// Only the values on the path are decoded; the rest is skipped.
    package static func value(in bytes: UnsafeBufferPointer<UInt8>, at keyPath: String) -> RowValue? {
        var parser = JSONValueParser(bytes)
        guard let depth = parser.seek(keyPath) else { return nil }
        guard var value = try? parser.parseValue(depth: depth) else { return nil }
        if depth == 0, case .object(var fields) = value {
            fields["cell"] = nil
            value = .object(fields)
        }
        return value
    }

    /// Where the text at dot-separated `path` below the value at `offset` (or that value,
    /// for nil) is, inside its quotes, if it has no escapes; else nil.
    package static func plainString(
        in bytes: UnsafeBufferPointer<UInt8>, from offset: Int, at path: Substring.UTF8View?
    ) -> Range<Int>? {
        var parser = JSONValueParser(bytes)
        parser.i = offset
        if let path, parser.seek(path, depth: 1) == nil { return nil }
        parser.skipSpace()
        return parser.plainText(at: parser.i)
    }

    /// Where the text starting at byte `offset` of checked bytes is, inside its quotes,
    /// if it has no escapes; else nil (also when no text starts there).
    package static func plainText(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Range<Int>? {
        JSONValueParser(bytes).plainText(at: offset)
    }

    private func plainText(at offset: Int) -> Range<Int>? {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { return nil }
        let end = plainRunEnd(from: offset + 1)  // checked text: its closing quote, or an escape
        return end < bytes.count && bytes[end] == UInt8(ascii: "\"") ? offset + 1..<end : nil
    }

    /// Moves to the value at `keyPath`; returns its depth, or nil if there is none.
    private mutating func seek(_ keyPath: String) -> Int? {
        keyPath.isEmpty ? 0 : seek(Substring(keyPath).utf8, depth: 0)
    }

    /// From a value at `depth`, moves down the dot-separated `path` (at least one key,
    /// maybe empty); returns the depth reached, or nil if there is nothing there.
    private mutating func seek(_ path: Substring.UTF8View, depth: Int) -> Int? {
        var depth = depth
        var rest = path  // bytes: searching Characters for "." costs more than the lookup
        while true {
            let dot = rest.firstIndex(of: UInt8(ascii: "."))
            let key = rest[..<(dot ?? rest.endIndex)]
            skipSpace()
            guard i < bytes.count else { return nil }
            switch bytes[i] {
            case UInt8(ascii: "{"): guard seekMember(key, topLevel: depth == 0) else { return nil }
            case UInt8(ascii: "["):
                guard let index = Int(Substring(key)), index >= 0, seekElement(index, depth: depth) else { return nil }
            default: return nil
            }
            depth += 1
            guard let dot else { return depth }
            rest = rest[rest.index(after: dot)...]
        }
    }

    /// The value at dot-separated `path` below the value at `offset` (depth 1) of checked text.
    package static func value(in bytes: UnsafeBufferPointer<UInt8>, from offset: Int, at path: Substring.UTF8View?)
        -> RowValue?
    {
        var parser = JSONValueParser(bytes)
        parser.i = offset
        let depth = path.map { parser.seek($0, depth: 1) } ?? 1
        guard let depth else { return nil }
        return try? parser.parseValue(depth: depth)
    }

    /// The value starting at byte `offset` of checked text (such as `cellOffset`), decoded.
    package func value(at offset: Int) -> RowValue? {
        var parser = self
        parser.i = offset
        return try? parser.parseValue(depth: 1)
    }

    /// From an object's "{", moves to the value of its last member named `name`
    /// (the last, as a dictionary built from the object would keep); false if none.
    private mutating func seekMember(_ name: some Collection<UInt8>, topLevel: Bool) -> Bool {
        i += 1
        var found: Int?
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { break }  // the "}" of an empty object
            let keyStart = i
            guard (try? parseString(build: false)) != nil else { return false }
            let quoted = UnsafeBufferPointer(rebasing: bytes[keyStart..<i])
            skipSpace()
            i += 1  // ':'
            skipSpace()
            if Self.key(quoted, equals: name), !(topLevel && Self.key(quoted, equals: "cell".utf8)) { found = i }
            guard (try? checkValue(depth: 1)) != nil else { return false }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { break }
            i += 1
        }
        guard let found else { return false }
        i = found
        return true
    }

    /// From a list's "[", moves to element `index`; false if the list is shorter.
    private mutating func seekElement(_ index: Int, depth: Int) -> Bool {
        i += 1
        skipSpace()
        guard i < bytes.count, bytes[i] != UInt8(ascii: "]") else { return false }
        for _ in 0..<index {
            guard (try? checkValue(depth: depth + 1)) != nil else { return false }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { return false }
            i += 1
        }
        return true
    }
}
