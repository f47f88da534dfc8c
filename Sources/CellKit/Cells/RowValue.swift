// A row's data: what a table document or an embedding program hands a cell.

/// A JSON-like value; hooks read it by key path through the host table.
public enum RowValue: Sendable, Equatable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case list([RowValue])
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

    /// The name of the value's type, for error messages.
    public var typeName: String {
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
enum RowData: Sendable {
    case value(RowValue)
    case json(JSONRecord)

    /// The value at a dot-separated key path ("" is the whole value).
    func value(at keyPath: String) -> RowValue? {
        switch self {
        case .value(let value): value.value(at: keyPath)
        case .json(let record): record.value(at: keyPath)
        }
    }

    /// The whole value, decoded.
    var rowValue: RowValue {
        switch self {
        case .value(let value): value
        case .json(let record): record.value(at: "") ?? .null
        }
    }
}

/// One JSON Lines record whose syntax was checked when it was read.
struct JSONRecord: Sendable {
    let bytes: [UInt8]

    func value(at keyPath: String) -> RowValue? {
        bytes.withUnsafeBufferPointer { JSONValueParser.value(in: $0, at: keyPath) }
    }

    /// Calls `body` with the bytes of the text at `keyPath` if it is written with no
    /// escapes and is valid UTF-8 (what decoding it would give, byte for byte); else nil.
    func withPlainString<R>(at keyPath: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        bytes.withUnsafeBufferPointer { all in
            guard let span = JSONValueParser.plainString(in: all, at: keyPath) else { return nil }
            let text = UnsafeBufferPointer(rebasing: all[span])
            return Unicode.isValidUTF8(text) && !text.contains(0) ? body(text) : nil
        }
    }
}

extension Unicode {
    /// Whether `bytes` is well-formed UTF-8 (RFC 3629: no overlong forms, surrogates or values past U+10FFFF).
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = TextWidth.printableASCIIPrefix(bytes)
        while i < bytes.count {
            let lead = bytes[i]
            if lead < 0x80 { i += 1; continue }
            let (length, smallest): (Int, UInt32) = lead & 0xE0 == 0xC0 ? (2, 0x80) : lead & 0xF0 == 0xE0 ? (3, 0x800)
                : lead & 0xF8 == 0xF0 ? (4, 0x10000) : (0, 0)
            guard length > 0, i + length <= bytes.count else { return false }
            var value = UInt32(lead) & (0x7F >> UInt32(length))
            for k in 1..<length {
                guard bytes[i + k] & 0xC0 == 0x80 else { return false }
                value = value << 6 | UInt32(bytes[i + k] & 0x3F)
            }
            guard value >= smallest, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return false }
            i += length
        }
        return true
    }
}
