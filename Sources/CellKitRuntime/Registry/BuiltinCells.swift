// The four standard cell styles as cell types that need no plugin: they fill
// the text, detail, image and accessory from the row's data. Their names are
// declared with discovery (Discovery/BuiltinNames.swift).

import CellKitModel

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
        cell.accessoryType =
            text(cell, accessoryKeys).flatMap { name in AccessoryType.allCases.first { "\($0)" == name } } ?? .none
    }

    /// The first of `keys` present, as text (numbers and bools written out).
    private static func text(_ cell: Cell, _ keys: [String]) -> String? {
        for key in keys {
            switch cell.dataValue(at: key) {
            case .string(let s)?: return s
            case .number(let n)?: return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
            case .bool(let b)?: return b ? "true" : "false"
            default: continue
            }
        }
        return nil
    }
}
