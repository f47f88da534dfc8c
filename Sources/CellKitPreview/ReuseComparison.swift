// The reuse diff of a preview: a sample's row laid out on a cell another sample gave back,
// compared property by property (the render's JSON) with the same row on a fresh cell.

import CellKitText
import Foundation

/// Compares the last row of two `cellkit.render` JSON documents.
package enum ReuseComparison {
    /// Keys that say where a row is, not how it looks: they differ between the two documents.
    static let placeKeys: Set<String> = ["index", "row", "section", "position"]

    /// Each property of the reused drawing's last row that differs from the fresh one's:
    /// "views[0].text: reused \"Hello\", fresh \"Other\"". Empty when either cannot be read or faulted
    /// (the fault is shown instead).
    package static func differences(reused: PreviewDrawing, fresh: PreviewDrawing) -> [String] {
        guard reused.faults.isEmpty, fresh.faults.isEmpty, let a = lastRow(reused.output), let b = lastRow(fresh.output)
        else { return [] }
        var left: [(String, String)] = [], right: [(String, String)] = []
        flatten(a, "", into: &left)
        flatten(b, "", into: &right)
        let freshValues = Dictionary(right, uniquingKeysWith: { x, _ in x })
        let reusedValues = Dictionary(left, uniquingKeysWith: { x, _ in x })
        var out: [String] = []
        for (key, value) in left where freshValues[key] != value {
            out.append("\(key): reused \(value), fresh \(freshValues[key] ?? "absent")")
        }
        for (key, value) in right where reusedValues[key] == nil { out.append("\(key): reused absent, fresh \(value)") }
        return out.map { TextSanitizer.visible($0) }
    }

    /// The last row of the first section of a render's JSON, without its place.
    static func lastRow(_ json: String) -> [String: Any]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let sections = object["sections"] as? [[String: Any]], let rows = sections.first?["rows"] as? [Any],
            var row = rows.last as? [String: Any]
        else { return nil }
        for key in placeKeys { row[key] = nil }
        return row
    }

    /// `value` as (path, JSON text) pairs in a fixed order.
    static func flatten(_ value: Any, _ path: String, into out: inout [(String, String)]) {
        switch value {
        case let object as [String: Any]:
            for key in object.keys.sorted() { flatten(object[key]!, path.isEmpty ? key : "\(path).\(key)", into: &out) }
        case let list as [Any]:
            for (i, item) in list.enumerated() { flatten(item, "\(path)[\(i)]", into: &out) }
        default:
            let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys])
            let text = data.map { String(decoding: $0, as: UTF8.self) } ?? "?"
            out.append((path, String(text.dropFirst().dropLast())))
        }
    }
}
