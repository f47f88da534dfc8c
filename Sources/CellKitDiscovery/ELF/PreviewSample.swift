// A plugin's preview samples: rows of data it ships for its cell types, in
// `cellkit_preview_<Id>_<name>` symbols (`CK_PREVIEW`) or in a YAML file beside itself,
// read without running any of its code. `inspect` shows them, `check` runs the hooks
// over them as typical data, and `cellkit preview` draws them.

import CCellKit
import CellKitModel

/// One sample row a plugin ships for one of its cell types: its data, a JSON object.
package struct PreviewSample: Sendable, Equatable {
    /// Where a sample was read from.
    package enum Origin: Sendable, Equatable {
        /// A `cellkit_preview_<Id>_<name>` symbol of the plugin file (`CK_PREVIEW`), by name.
        case symbol(String)
        /// The preview file beside the plugin, at a line counted from 1.
        case file(path: String, line: Int)
    }

    /// The cell identifier the sample is for.
    package let identifier: String
    /// The sample's name, unique among its type's: an ASCII letter, then letters or digits.
    package let name: String
    /// The row's data: always an object.
    package let data: RowValue
    /// Where it was read from.
    package let origin: Origin

    /// A sample of `identifier` named `name` with `data`, read from `origin`.
    package init(identifier: String, name: String, data: RowValue, origin: Origin) {
        (self.identifier, self.name, self.data, self.origin) = (identifier, name, data, origin)
    }

    /// The data as compact JSON, keys sorted: what `inspect` shows.
    package var json: String { Self.json(data) }

    /// "symbol cellkit_preview_Foo_long" or "libfoo.preview.yaml:12", for messages.
    package var place: String {
        switch origin {
        case .symbol(let name): "symbol \(name)"
        case .file(let path, let line): "\(PathText.lastComponent(of: path)):\(line)"
        }
    }
}

// MARK: - The rules every sample follows

extension PreviewSample {
    /// The longest JSON text of one sample, in bytes (`CK_PREVIEW_MAX_BYTES`, 4,096: a long text
    /// of a few paragraphs fits; a table's worth of data belongs in a table document).
    package static let maxBytes = Int(CK_PREVIEW_MAX_BYTES)
    /// The most samples read for one cell type (`CK_PREVIEW_MAX_SAMPLES`, 32); more are reported.
    package static let maxPerType = Int(CK_PREVIEW_MAX_SAMPLES)
    /// The longest sample name, in characters.
    package static let maxNameLength = 32

    /// Why `name` cannot name a sample, with the rule; nil when it can.
    package static func nameProblem(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        let isLetter = { (b: UInt8) in (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
        let isDigit = { (b: UInt8) in b >= 0x30 && b <= 0x39 }
        guard let first = bytes.first, isLetter(first), bytes.count <= maxNameLength,
            bytes.allSatisfy({ isLetter($0) || isDigit($0) })
        else {
            return "'\(name.debugDescriptionEscaped)' is not a sample name: an ASCII letter, then ASCII letters or "
                + "digits (no underscore), at most \(maxNameLength)"
        }
        return nil
    }

    /// The row data a sample's JSON text holds, or what is wrong with it and how to fix it: more than
    /// `maxBytes` bytes, not UTF-8, a control byte outside a string's escapes, not JSON, or not an object.
    package static func data(fromJSON bytes: [UInt8]) -> Result<RowValue, Reason> {
        let example = #"write one JSON object, such as {"text": "Hello"}"#
        guard bytes.count <= maxBytes else {
            return .failure("its JSON text is longer than the limit of \(maxBytes) bytes; shorten it")
        }
        guard bytes.withUnsafeBufferPointer({ UTF8Bytes.isValid($0) }) else {
            return .failure("its text is not UTF-8; save the source as UTF-8")
        }
        if let k = bytes.firstIndex(where: { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) || $0 == 0x7F }) {
            let byte = "0x" + String(bytes[k], radix: 16, uppercase: true)
            return .failure(
                "its text holds the control byte \(byte) at byte \(k + 1); write it escaped inside a string (\\u00XX)")
        }
        let value: RowValue
        do {
            value = try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) in
                var parser = JSONValueParser(buffer)
                return try parser.parseDocument()
            }
        } catch {
            return .failure("not valid JSON at byte \(error.offset + 1): \(error.message); \(example)")
        }
        guard case .object = value else { return .failure("it is \(value.typeName), not an object; \(example)") }
        return .success(value)
    }

    /// Whether `data` (read from YAML) is a sample's: an object whose JSON text fits in `maxBytes`; the
    /// problem and its fix otherwise.
    package static func problem(with data: RowValue) -> String? {
        guard case .object = data else {
            return "it is \(data.typeName), not a mapping; give the sample's keys and values under its name"
        }
        let size = json(data).utf8.count
        guard size <= maxBytes else {
            return "its data, as JSON, has \(size) bytes, over the limit of \(maxBytes); shorten it"
        }
        return nil
    }

    /// `value` as compact JSON with its object keys sorted (texts quoted as the registry cache's are).
    package static func json(_ value: RowValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return RowValue.jsonNumber(n)
        case .string(let s): return CacheJSON.quoted(s)
        case .list(let items): return "[" + items.map(json).joined(separator: ",") + "]"
        case .object(let fields):
            return "{"
                + fields.keys.sorted().map { CacheJSON.quoted($0) + ":" + json(fields[$0]!) }.joined(separator: ",")
                + "}"
        }
    }
}
