// Row data as JSON text, for `browse --pick`.

import CellKitModel

/// Row data as one line of JSON (`--pick`).
package enum RowJSON {
    /// `value` as compact JSON: object keys sorted, integers without a fraction, strings escaped as
    /// the JSON format escapes them (`JSONBytes.swift`: controls, bidi and invisible characters).
    package static func text(_ value: RowValue) -> String {
        let sink = StringSink()
        let out = OutputBuffer(sink)
        write(value, to: out)
        try? out.flush()  // a StringSink does not fail
        return sink.text
    }

    static func write(_ value: RowValue, to out: OutputBuffer) {
        switch value {
        case .null: out.raw("null")
        case .bool(let b): out.boolean(b)
        case .number(let n): out.write(RowValue.jsonNumber(n))
        case .string(let s): out.jsonString(s)
        case .list(let items):
            out.raw("[")
            for (i, item) in items.enumerated() {
                if i > 0 { out.raw(",") }
                write(item, to: out)
            }
            out.raw("]")
        case .object(let fields):
            out.raw("{")
            for (i, key) in fields.keys.sorted().enumerated() {
                if i > 0 { out.raw(",") }
                out.jsonString(key)
                out.raw(":")
                write(fields[key]!, to: out)
            }
            out.raw("}")
        }
    }
}
