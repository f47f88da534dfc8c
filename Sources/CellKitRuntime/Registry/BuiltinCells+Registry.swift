// The four standard cell styles as cell types that need no plugin: they fill
// the text, detail, image and accessory from the row's data. Their names are
// declared with discovery (CellKitDiscovery/Naming/BuiltinCells.swift).

import CellKitDiscovery
import CellKitModel
import CellKitText

extension BuiltinCells {
    static func style(of name: String) -> CellStyle? {
        names.firstIndex(of: name).flatMap { CellStyle(rawValue: Int32($0)) }
    }

    /// The row data keys each part is filled from, the first present winning.
    package static let textKeys = ["text", "title"], detailKeys = ["detail", "subtitle", "value"]
    package static let imageKeys = ["image"], accessoryKeys = ["accessory"]

    /// The customize hook every built-in shares; the style is set when the cell is made.
    static func customize(_ cell: Cell) {
        cell.textLabel.text = text(cell, textKeys)
        cell.detailTextLabel.text = text(cell, detailKeys)
        cell.imageView.imageName = text(cell, imageKeys)
        cell.accessoryType = text(cell, accessoryKeys).map { accessory(named: $0, for: cell) } ?? .none
    }

    /// The accessory called `name`; an unknown name is none, with a warning that lists the names
    /// and the first row that gave it (`RowName`).
    private static func accessory(named name: String, for cell: Cell) -> AccessoryType {
        if let type = AccessoryType.named(name) { return type }
        cell.context.warn(once: "accessory \(cell.reuseIdentifier) \(name)") {
            let names = AccessoryType.allCases.map(\.name).joined(separator: ", ")
            return
                "\(cell.reuseIdentifier) rows: the accessory '\(TextSanitizer.visible(name))' is not one of: \(names);"
                + " drawn with none (first at \(RowName.of(cell.indexPath)))"
        }
        return .none
    }

    /// The first of `keys` present, as text (numbers and bools written out). A list or a mapping
    /// there is not drawn, with a warning that says so (once per type and key, as every warning).
    private static func text(_ cell: Cell, _ keys: [String]) -> String? {
        for key in keys {
            guard let value = cell.dataValue(at: key) else { continue }
            if let text = value.text { return text }
            switch value {
            case .list, .object:
                let kind = if case .list = value { "a list" } else { "a mapping" }
                cell.context.warn(
                    "\(cell.reuseIdentifier) rows: '\(key)' is \(kind), not drawn; give one value (\(key): TEXT)")
            default: continue
            }
        }
        return nil
    }
}
