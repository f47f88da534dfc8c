// What a table document lends the preview's documents: its stylesheet files, its asset catalog
// and its row height, so that a plugin whose hooks apply styles and draw images is previewed as
// its own tables draw it (`cellkit preview --look DOC`).

import CellKitDocuments
import Foundation
import Yams

/// The stylesheets, asset catalog and row height of a table document, by absolute path.
package struct PreviewLook: Sendable, Equatable {
    /// The stylesheet files, in the document's order.
    package var stylesheets: [String] = []
    /// The asset catalog file; nil when none.
    package var assets: String?
    /// The table's row height in lines; nil when none.
    package var rowHeight: Double?

    /// A look of these files (see each property).
    package init(stylesheets: [String] = [], assets: String? = nil, rowHeight: Double? = nil) {
        (self.stylesheets, self.assets, self.rowHeight) = (stylesheets, assets, rowHeight)
    }

    /// The look of the table document at `path`: read whole first (its errors are the document's),
    /// then its `stylesheet`, `assets` and `rowHeight` keys, paths made absolute from its folder.
    package static func of(table path: String) throws -> PreviewLook {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let document = try TableDocument(contentsOf: absolute)
        let text = try String(contentsOfFile: absolute, encoding: .utf8)
        guard let top = try Yams.load(yaml: text) as? [String: Any] else { return PreviewLook() }
        let folder = (absolute as NSString).deletingLastPathComponent
        func resolved(_ value: Any?) -> String? {
            guard let name = value as? String else { return nil }
            return name.hasPrefix("/") ? name : folder + "/" + name
        }
        let sheets = (top["stylesheet"] as? [Any] ?? [top["stylesheet"] as Any]).compactMap(resolved)
        return PreviewLook(stylesheets: sheets, assets: resolved(top["assets"]), rowHeight: document.rowHeight)
    }

    /// The document keys that carry it, as JSON text: `,"stylesheet":[…],"assets":…,"rowHeight":…`.
    var json: String {
        func quoted(_ text: String) -> String {
            let data = try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
            return data.map { String(String(decoding: $0, as: UTF8.self).dropFirst().dropLast()) } ?? "\"\""
        }
        var out = ""
        if !stylesheets.isEmpty { out += ",\"stylesheet\":[\(stylesheets.map(quoted).joined(separator: ","))]" }
        if let assets { out += ",\"assets\":\(quoted(assets))" }
        if let rowHeight { out += ",\"rowHeight\":\(rowHeight)" }
        return out
    }
}
