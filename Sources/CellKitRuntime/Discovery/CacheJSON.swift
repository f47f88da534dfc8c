// The registry cache's records, written and read by hand: the cache is read on every
// run, and Foundation's Codable decoding cost about 40 µs a plugin record, which made
// `cellkit list` of 1,000 plugins spend 40 ms decoding before it printed a line. These
// lists are decoded by the package's JSON parser, which is fuzzed, into `RowValue`s.

import CellKitModel

/// JSON text for the registry cache.
enum CacheJSON {
    /// `text` as a JSON string, quotes included: `"`, `\` and control characters escaped.
    static func quoted(_ text: String) -> String {
        // Most texts (paths, identifiers) need no escape: one check of their bytes, where going
        // scalar by scalar cost about 200 instructions a character (a cache of 1,000 plugins is
        // written with 4,000 such texts).
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

    /// The strings of a list value, or nil if it is not a list of strings.
    static func strings(_ value: RowValue?) -> [String]? {
        guard case .list(let items)? = value else { return nil }
        var result: [String] = []
        result.reserveCapacity(items.count)
        for item in items {
            guard case .string(let text) = item else { return nil }
            result.append(text)
        }
        return result
    }

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

    /// The record `cacheJSON` wrote, for the file at `path`, with the near misses if the cache
    /// holds them (`nearMisses` is null until something diagnosed the file); nil if it is malformed.
    init?(cacheJSON value: RowValue, nearMisses: RowValue?, path: String) {
        guard case .list(let parts) = value, parts.count == 3,
            case .list(let d) = parts[0], d.count == 5,
            case .string(let name) = d[0], case .string(let version) = d[1], case .string(let summary) = d[2],
            let major = CacheJSON.int(d[3]), let minor = CacheJSON.int(d[4]),
            case .list(let types) = parts[1], let problems = CacheJSON.strings(parts[2])
        else { return nil }
        var cellTypes: [CellTypeDeclaration] = []
        for type in types {
            guard case .list(let t) = type, t.count == 2, case .string(let id) = t[0],
                let identifier = try? CellIdentifier(id), case .list(let hookValues) = t[1]
            else { return nil }
            var hooks: [HookDeclaration] = []
            for hookValue in hookValues {
                guard case .list(let h) = hookValue, h.count == 4, case .string(let kindText) = h[0],
                    let kind = HookKind(prefix: kindText), case .string(let symbol) = h[1],
                    case .string(let resultText) = h[2], let result = HookResult(rawValue: resultText),
                    case .string(let parameterText) = h[3]
                else { return nil }
                var parameters: [HookParameter] = []
                for word in parameterText.split(separator: " ") {
                    guard let parameter = HookParameter(rawValue: String(word)) else { return nil }
                    parameters.append(parameter)
                }
                hooks.append(
                    HookDeclaration(
                        kind: kind, symbol: symbol, signature: HookSignature(result: result, parameters: parameters)))
            }
            cellTypes.append(CellTypeDeclaration(identifier: identifier, hooks: hooks))
        }
        var misses: [NearMiss]?
        if let nearMisses, nearMisses != .null {
            guard let decoded = NearMiss.decode(cacheJSON: nearMisses) else { return nil }
            misses = decoded
        }
        self.init(
            path: path,
            descriptor: PluginDescriptor(
                name: name, version: version, summary: summary, abiMajor: major, abiMinor: minor),
            cellTypes: cellTypes, problems: problems, knownNearMisses: misses)
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

    /// What `cacheJSON(_:)` wrote, or nil if it is malformed.
    static func decode(cacheJSON value: RowValue) -> [NearMiss]? {
        guard case .list(let items) = value else { return nil }
        var misses: [NearMiss] = []
        for item in items {
            guard case .list(let m) = item, m.count == 3, case .string(let symbol) = m[0],
                case .string(let explanation) = m[2]
            else { return nil }
            let suggestion: String?
            switch m[1] {
            case .null: suggestion = nil
            case .string(let text): suggestion = text
            default: return nil
            }
            misses.append(NearMiss(symbol: symbol, suggestion: suggestion, explanation: explanation))
        }
        return misses
    }
}
