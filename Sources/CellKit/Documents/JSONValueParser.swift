// JSON from bytes straight to RowValue, for JSON Lines rows. Foundation's
// JSONSerialization builds NSObjects and costs microseconds per row; streaming
// a million rows a second needs a parser that reads the bytes once.

/// A JSON syntax error at a byte offset of the text parsed.
struct JSONSyntaxError: Error {
    let offset: Int
    let message: String
}

/// Parses one JSON value from UTF-8 bytes (RFC 8259; nesting at most 64 deep).
struct JSONValueParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var i = 0
    /// Where the value of the top-level object's "cell" key starts, if it has one.
    private(set) var cellOffset: Int?

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The whole text as one value; anything after it but whitespace is an error.
    mutating func parseDocument() throws(JSONSyntaxError) -> RowValue {
        let value = try parseValue(depth: 0)
        skipSpace()
        guard i == bytes.count else { throw fail("unexpected text after the value") }
        return value
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
        guard depth < 64 else { throw fail("nested more than 64 levels deep") }
        i += 1
        var fields: [String: RowValue] = [:]
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key in quotes") }
            let key = try parseString()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':' after the key") }
            i += 1
            if depth == 0, key == "cell" { skipSpace(); cellOffset = i }
            fields[key] = try parseValue(depth: depth + 1)
            skipSpace()
            guard i < bytes.count else { throw fail("expected ',' or '}', found the end of the line") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
            throw fail("expected ',' or '}'")
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> RowValue {
        guard depth < 64 else { throw fail("nested more than 64 levels deep") }
        i += 1
        var items: [RowValue] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .list(items) }
        while true {
            items.append(try parseValue(depth: depth + 1))
            skipSpace()
            guard i < bytes.count else { throw fail("expected ',' or ']', found the end of the line") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .list(items) }
            throw fail("expected ',' or ']'")
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        i += 1
        let start = i
        // Fast path: no escapes.
        while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 { i += 1 }
        if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
            defer { i += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
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
                if (0xD800...0xDBFF).contains(scalar), i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
                    i += 2
                    let low = try hex4()
                    scalar = (0xDC00...0xDFFF).contains(low) ? 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD
                }
                out.append(contentsOf: String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8)
            default: i -= 1; throw fail("unknown escape '\\\(Character(Unicode.Scalar(e)))'")
            }
        }
        throw fail("text not closed with '\"'")
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
        while i < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-")].contains(bytes[i])
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) {
            simple = false
            i += 1
        }
        if simple { return Double(negative ? -integer : integer) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { i = start; throw fail("'\(text)' is not a number") }
        return value
    }
}
