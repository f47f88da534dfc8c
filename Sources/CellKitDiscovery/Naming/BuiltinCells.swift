// The identifiers the host reserves for its built-in cell types: discovery needs
// them to report a plugin type of the same name as shadowed. What the built-ins
// do is in Registry/BuiltinCells.swift.

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
    static func isBuiltin(_ name: String) -> Bool { names.contains(name) }
}
