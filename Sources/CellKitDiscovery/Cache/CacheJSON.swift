// The registry cache's records, written and read by hand: the cache is read on every
// run. Foundation's Codable decoding, and then the package's JSON parser into `RowValue`
// trees, were much of `list`'s time with many plugins (BENCHMARKS.md, "Measurements behind
// the code": CacheJSON): a record is now read straight from its
// bytes by `CacheRecordReader`, which takes exactly what `cacheJSON` writes and nothing
// else (anything else is no record: the plugin is read again and its record rewritten).

import CellKitModel

/// JSON text for the registry cache.
enum CacheJSON {
    /// `text` as a JSON string, quotes included: `"`, `\` and control characters escaped.
    static func quoted(_ text: String) -> String {
        // Most texts (paths, identifiers) need no escape: one check of their bytes, where going
        // scalar by scalar cost far more a character, and a cache of many plugins is written with
        // thousands of such texts (BENCHMARKS.md, "Measurements behind the code": CacheJSON.quoted).
        if RegistryCache.isPlainText(text) { return "\"" + text + "\"" }
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{2028}" || scalar == "\u{2029}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `[a, b, …]` of strings.
    static func list(_ items: [String]) -> String { "[" + items.map(quoted).joined(separator: ",") + "]" }

    /// The integer a number value holds exactly, or nil.
    static func int(_ value: RowValue?) -> Int? {
        guard case .number(let n)? = value, let i = Int(exactly: n) else { return nil }
        return i
    }
}

extension PluginFile {
    /// The record in the cache's form (near misses apart, and without the path, which the entry
    /// holds): `[descriptor, cell types, problems]`, a descriptor `[name, version, summary, major,
    /// minor]`, a cell type `[identifier, [hook, …]]`, a hook `[kind, symbol, result, "p1 p2"]`.
    var cacheJSON: String {
        let d = descriptor
        let descriptorJSON =
            "[\(CacheJSON.quoted(d.name)),\(CacheJSON.quoted(d.version)),\(CacheJSON.quoted(d.summary)),\(d.abiMajor),\(d.abiMinor)]"
        let types = cellTypes.map { type in
            let hooks = type.hooks.map { hook in
                let parameters = hook.signature.parameters.map(\.rawValue).joined(separator: " ")
                return
                    "[\"\(hook.kind.prefix)\",\(CacheJSON.quoted(hook.symbol)),\"\(hook.signature.result.rawValue)\",\"\(parameters)\"]"
            }
            return "[\"\(type.identifier.name)\",[\(hooks.joined(separator: ","))]]"
        }
        return "[\(descriptorJSON),[\(types.joined(separator: ","))],\(CacheJSON.list(problems))]"
    }

    /// The plugin's line in the cache, `[record, near misses, "checksum"]`: the checksum of what comes
    /// before its comma, seeded with `path` (`RegistryCache.Record.checksum`).
    func cacheLine(path: String) -> [UInt8] {
        let body = Array("[\(cacheJSON),\(knownNearMisses.map(NearMiss.cacheJSON) ?? "null")".utf8)
        return body + Array(",\"\(RegistryCache.Record.checksum(path: path, body: body[...]))\"]".utf8)
    }

    /// The plugin at `path` from its cache line, `[record, near misses, "checksum"]`, as
    /// `RegistryCache` writes it: nil unless the line is exactly in that form and its checksum
    /// (of everything before the last comma, seeded with the path) holds.
    init?(cacheLine line: UnsafeBufferPointer<UInt8>, path: String) {
        var reader = CacheRecordReader(line)
        guard reader.take(UInt8(ascii: "[")), let plugin = reader.plugin(path: path), reader.take(UInt8(ascii: ",")),
            let misses = reader.nearMisses(), reader.take(UInt8(ascii: ","))
        else { return nil }
        let comma = reader.position - 1
        guard let sum = reader.string(), reader.take(UInt8(ascii: "]")), reader.isAtEnd,
            sum == RegistryCache.Record.checksum(path: path, body: UnsafeBufferPointer(rebasing: line[..<comma]))
        else { return nil }
        self = plugin
        knownNearMisses = misses
    }
}

/// Reads the registry cache's records from their bytes: exactly the text `cacheJSON` writes
/// (no blanks, the escapes `CacheJSON.quoted` makes, integers without leading zeros), so that
/// whatever it accepts, written again, gives the same bytes; nil at the first byte that differs.
struct CacheRecordReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The index of the next byte to read.
    private(set) var position = 0

    /// A reader at the start of `bytes`.
    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Whether every byte has been read.
    var isAtEnd: Bool { position == bytes.count }

    /// Reads `byte` if it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// Reads `[descriptor, [cell type, …], [problem, …]]`.
    mutating func plugin(path: String) -> PluginFile? {
        guard take(UInt8(ascii: "[")), take(UInt8(ascii: "[")), let name = string(), take(UInt8(ascii: ",")),
            let version = string(), take(UInt8(ascii: ",")), let summary = string(), take(UInt8(ascii: ",")),
            let major = int(), take(UInt8(ascii: ",")), let minor = int(), take(UInt8(ascii: "]")),
            take(UInt8(ascii: ","))
        else { return nil }
        guard let cellTypes = list({ $0.cellType() }), take(UInt8(ascii: ",")),
            let problems = list({ $0.string() }), take(UInt8(ascii: "]"))
        else { return nil }
        return PluginFile(
            path: path,
            descriptor: PluginDescriptor(
                name: name, version: version, summary: summary, abiMajor: major, abiMinor: minor),
            cellTypes: cellTypes, problems: problems, knownNearMisses: nil)
    }

    /// Reads `null` (nil inside: not diagnosed yet) or `[[symbol, suggestion or null, explanation], …]`.
    mutating func nearMisses() -> [NearMiss]?? {
        if literal("null") { return .some(nil) }
        return list { reader -> NearMiss? in
            guard reader.take(UInt8(ascii: "[")), let symbol = reader.string(), reader.take(UInt8(ascii: ",")) else {
                return nil
            }
            let suggestion: String?
            if reader.literal("null") {
                suggestion = nil
            } else {
                guard let text = reader.string() else { return nil }
                suggestion = text
            }
            guard reader.take(UInt8(ascii: ",")), let explanation = reader.string(), reader.take(UInt8(ascii: "]"))
            else { return nil }
            return NearMiss(symbol: symbol, suggestion: suggestion, explanation: explanation)
        }.map { .some($0) }
    }

    /// Reads `[identifier, [[kind, symbol, result, "parameter parameter"], …]]`.
    private mutating func cellType() -> CellTypeDeclaration? {
        guard take(UInt8(ascii: "[")), let id = string(), let identifier = try? CellIdentifier(id),
            take(UInt8(ascii: ",")), let hooks = list({ $0.hook() }), take(UInt8(ascii: "]"))
        else { return nil }
        return CellTypeDeclaration(identifier: identifier, hooks: hooks)
    }

    private mutating func hook() -> HookDeclaration? {
        guard take(UInt8(ascii: "[")), let kindText = string(), let kind = HookKind(prefix: kindText),
            take(UInt8(ascii: ",")), let symbol = string(), take(UInt8(ascii: ",")),
            let resultText = string(), let result = HookResult(rawValue: resultText), take(UInt8(ascii: ",")),
            let parameters = parameterList(), take(UInt8(ascii: "]"))
        else { return nil }
        return HookDeclaration(
            kind: kind, symbol: symbol, signature: HookSignature(result: result, parameters: parameters))
    }

    /// Each parameter with its name's bytes (its raw value, made once, not per hook read).
    private static let parameterNames = HookParameter.allCases.map { (parameter: $0, name: Array($0.rawValue.utf8)) }

    /// Reads `"name name …"`, parameter names joined by single spaces, matched as bytes (a String made
    /// and split a hook was a noticeable part of decoding a record: BENCHMARKS.md, "Measurements behind
    /// the code": CacheJSON.parameterList); nil at a name that is none or a stray space.
    private mutating func parameterList() -> [HookParameter]? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        var parameters: [HookParameter] = []
        if take(UInt8(ascii: "\"")) { return parameters }
        repeat {
            let start = position
            while position < bytes.count, bytes[position] != UInt8(ascii: " "), bytes[position] != UInt8(ascii: "\"") {
                position += 1
            }
            let word = UnsafeBufferPointer(rebasing: bytes[start..<position])
            guard let parameter = Self.parameterNames.first(where: { $0.name.elementsEqual(word) })?.parameter else {
                return nil
            }
            parameters.append(parameter)
        } while take(UInt8(ascii: " "))
        return take(UInt8(ascii: "\"")) ? parameters : nil
    }

    /// Reads `[]` or `[item, item, …]`, each item read by `item`.
    private mutating func list<T>(_ item: (inout CacheRecordReader) -> T?) -> [T]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var items: [T] = []
        if take(UInt8(ascii: "]")) { return items }
        repeat {
            guard let next = item(&self) else { return nil }
            items.append(next)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? items : nil
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard bytes.count - position >= n,
            UnsafeBufferPointer(rebasing: bytes[position..<position + n]).elementsEqual(
                UnsafeBufferPointer(start: word.utf8Start, count: n))
        else { return false }
        position += n
        return true
    }

    /// Reads an integer as `\(Int)` writes one (no `+`, no leading zero, no `-0`), of at most 18
    /// digits (none of which overflows), straight from its digits.
    private mutating func int() -> Int? {
        let negative = take(UInt8(ascii: "-"))
        let digits = position
        var value = 0
        while position < bytes.count, bytes[position] &- 0x30 < 10 {
            value = value &* 10 &+ Int(bytes[position] &- 0x30)  // wraps only past 18 digits, refused below
            position += 1
        }
        let count = position - digits
        guard count > 0, count < 19, count == 1 || bytes[digits] != 0x30, !(negative && value == 0) else { return nil }
        return negative ? -value : value
    }

    /// Reads a string as `CacheJSON.quoted` writes one: raw UTF-8 but for `\"`, `\\`, `\n`, `\t`,
    /// `\r` and `\u00XX` (lower-case hex) for other controls, DEL, U+2028 and U+2029.
    mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = position
        while position < bytes.count, bytes[position] >= 0x20, bytes[position] < 0x7F,
            bytes[position] != UInt8(ascii: "\""), bytes[position] != UInt8(ascii: "\\")
        {
            position += 1
        }
        if take(UInt8(ascii: "\"")) {  // plain ASCII, nearly every string here
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position - 1]), as: UTF8.self)
        }
        var text = Array(bytes[start..<position])
        while position < bytes.count {
            let b = bytes[position]
            position += 1
            switch b {
            case UInt8(ascii: "\""):
                return String(validating: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = escape() else { return nil }
                text.append(contentsOf: escaped.utf8)
            case ..<0x20, 0x7F: return nil  // written escaped
            case 0xE2
            where bytes.count - position >= 2 && bytes[position] == 0x80 && bytes[position + 1] & 0xFE == 0xA8:
                return nil  // U+2028 or U+2029, written escaped
            default: text.append(b)
            }
        }
        return nil
    }

    /// The character of the escape after a backslash, if `CacheJSON.quoted` writes it so.
    private mutating func escape() -> String? {
        guard position < bytes.count else { return nil }
        let e = bytes[position]
        position += 1
        switch e {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "u"):
            guard bytes.count - position >= 4 else { return nil }
            let hex = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<position + 4]), as: UTF8.self)
            position += 4
            guard hex.utf8.allSatisfy({ $0 &- 0x30 < 10 || $0 &- 0x61 < 6 }), let value = UInt32(hex, radix: 16),
                let scalar = Unicode.Scalar(value),
                value < 0x20 && value != 0x0A && value != 0x09 && value != 0x0D || value == 0x7F || value == 0x2028
                    || value == 0x2029
            else { return nil }
            return String(scalar)
        default: return nil
        }
    }
}

extension NearMiss {
    /// Near misses in the cache's form: `[[symbol, suggestion or null, explanation], …]`.
    static func cacheJSON(_ misses: [NearMiss]) -> String {
        "["
            + misses.map {
                "[\(CacheJSON.quoted($0.symbol)),\($0.suggestion.map(CacheJSON.quoted) ?? "null"),\(CacheJSON.quoted($0.explanation))]"
            }.joined(separator: ",") + "]"
    }
}
