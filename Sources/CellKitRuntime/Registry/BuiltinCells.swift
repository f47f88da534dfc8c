// The four standard cell styles as cell types that need no plugin: they fill
// the text, detail, image and accessory from the row's data.

import CellKitModel

/// Built-in cell types `Default`, `Subtitle`, `Value1` and `Value2`.
///
/// A row's data may hold `text` (or `title`), `detail` (or `subtitle`, `value`),
/// `image` (an asset name) and `accessory` (`disclosureIndicator`, `checkmark`,
/// `detailButton`). A built-in always wins over a plugin type of the same name:
/// a document that says `Subtitle` means the standard style wherever it runs.
public enum BuiltinCells {
    /// The built-in identifiers, in style order.
    public static let names = ["Default", "Subtitle", "Value1", "Value2"]

    /// Whether `name` is a built-in identifier.
    public static func isBuiltin(_ name: String) -> Bool { names.contains(name) }

    static func style(of name: String) -> CellStyle? {
        names.firstIndex(of: name).flatMap { CellStyle(rawValue: Int32($0)) }
    }

    /// The customize hook every built-in shares; the style is set when the cell is made.
    static func customize(_ cell: Cell) {
        cell.textLabel.text = text(cell, "text", "title")
        cell.detailTextLabel.text = text(cell, "detail", "subtitle", "value")
        cell.imageView.imageName = text(cell, "image")
        cell.accessoryType = text(cell, "accessory").flatMap { name in AccessoryType.allCases.first { "\($0)" == name } } ?? .none
    }

    /// The first of `keys` present, as text (numbers and bools written out).
    private static func text(_ cell: Cell, _ keys: String...) -> String? {
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
