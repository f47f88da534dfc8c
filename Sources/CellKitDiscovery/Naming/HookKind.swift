// The hook table: every hook a cell type may export, and everything the host knows
// about it. Discovery, near misses, dispatch, the progress record and its fault
// lines, `cellkit list`, `inspect`, `check` and the tool's help all read it. Adding a
// hook is a case and its row here, its declaration in cellkit.h and its docs
// (CONTRIBUTING.md, "Adding a hook"); no switch over `HookKind` has a `default:`, so
// the compiler names each place that must decide what the new hook does (its call in
// the routine, its slot in `CellType`).

import CellKitModel

/// The hooks a cell type may export, each named `<prefix><Identifier>`.
///
/// The raw value is the hook's wire code: its number in the progress record that a crash
/// handler and a supervisor read (`HookProgress`). Codes are stable; a new hook takes the
/// next one. Encoded (JSON, the registry cache) as its prefix.
public enum HookKind: Int32, CaseIterable, Sendable, Codable {
    /// `initCellFor<Id>`: runs once, when a new cell of the type is made.
    case initCell = 0
    /// `customizeCellFor<Id>`: runs every time a cell is handed out for a row.
    case customizeCell = 1
    /// `heightForCellFor<Id>`: returns the row's height, after customize ran.
    case heightForCell = 2
    /// `prepareCellForReuseFor<Id>`: runs when a used cell goes back to the reuse pool.
    case prepareCellForReuse = 3
    /// `layoutSubviewsFor<Id>` (ABI 1.3): runs when a reused cell is shown at another width than
    /// it was laid out at, after customize and the subviews' autoresizing.
    case layoutSubviews = 4

    /// When a hook runs, in the order the routine runs a type's hooks for one row on a new
    /// cell. `cellkit check` runs them in this order on a new cell for each sample: those
    /// before `cellRecycled` before the cell is laid out, the others after.
    package enum Moment: Int, Comparable, Sendable {
        /// Once, when a new cell of the type is made, before it shows its first row.
        case cellMade
        /// Every time a cell (new or reused) is handed out for a row.
        case rowShown
        /// After the row is shown, when the cell's width is not the one it was laid out at.
        case widthChanged
        /// After the row is shown, when the table asks how tall it is.
        case rowMeasured
        /// When a used cell goes back to its type's reuse pool.
        case cellRecycled

        /// Earlier in the routine first.
        package static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

    /// One row of the hook table: everything about one hook.
    package struct Row: Sendable {
        /// The symbol prefix, `initCellFor`: the hook for `<Id>` is named `<prefix><Id>`.
        package let prefix: String
        /// The result of the standard signature, `(cell, indexPath)`: `void`, or `double` for a
        /// hook that answers with a value. A hook that returns a value may declare `float` or
        /// `int32_t` instead (`HookSignature`); the others return `void`.
        package let result: HookResult
        /// When the routine runs it.
        package let moment: Moment
        /// Whether exporting it registers the cell type: a type needs at least one such hook
        /// (the rest only add to a type that has one).
        package let registersType: Bool
        /// What it does, in a few words (`cellkit list`, `inspect`, the tool's help): "runs
        /// once, when a new cell of the type is made".
        package let summary: String
    }

    /// The hook table's row for this hook. Its only string values are literals, so reading
    /// `prefix` allocates nothing: a signal handler may (`FaultLine`).
    package var row: Row {
        switch self {
        case .initCell:
            Row(
                prefix: "initCellFor", result: .void, moment: .cellMade, registersType: true,
                summary: "runs once, when a new cell of the type is made")
        case .customizeCell:
            Row(
                prefix: "customizeCellFor", result: .void, moment: .rowShown, registersType: true,
                summary: "runs every time a cell is handed out for a row")
        case .heightForCell:
            Row(
                prefix: "heightForCellFor", result: .double, moment: .rowMeasured, registersType: false,
                summary: "returns the row's height in lines, after customize ran")
        case .prepareCellForReuse:
            Row(
                prefix: "prepareCellForReuseFor", result: .void, moment: .cellRecycled, registersType: false,
                summary: "runs when a used cell goes back to the reuse pool")
        case .layoutSubviews:
            Row(
                prefix: "layoutSubviewsFor", result: .void, moment: .widthChanged, registersType: false,
                summary: "runs when a reused cell is shown at another width than it was laid out at")
        }
    }

    // MARK: Read from the table

    /// The symbol prefix, e.g. `initCellFor`.
    public var prefix: String { row.prefix }

    /// The symbol this hook has for `identifier`. Only call with a validated identifier.
    public func symbol(for identifier: CellIdentifier) -> String { prefix + identifier.name }

    /// Whether the hook returns a value (only the height hook does).
    package var returnsValue: Bool { row.result != .void }

    /// The hook's number in the progress record (`HookProgress`): its raw value.
    @inlinable package var wireCode: Int32 { rawValue }

    /// The hook whose wire code is `code`, or nil. A switch the compiler writes: no
    /// allocation, so a signal handler may call it.
    @inlinable package init?(wireCode code: Int32) { self.init(rawValue: code) }

    /// The hook whose prefix is `prefix` (`initCellFor`), or nil.
    package init?(prefix: String) {
        guard let kind = Self.allCases.first(where: { $0.prefix == prefix }) else { return nil }
        self = kind
    }

    /// The hooks that register a cell type (`Row.registersType`), in table order.
    package static let registeringType = allCases.filter(\.row.registersType)

    /// The hooks that register a type, as a reader would list them: "initCellForFoo or
    /// customizeCellForFoo" for `suffix` "Foo" (`<Id>` in general), joined with `conjunction`.
    package static func registeringNames(_ suffix: String, _ conjunction: String = "or") -> String {
        let names = registeringType.map { $0.prefix + suffix }
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " \(conjunction) " + names.last!
    }

    /// "neither initCellForFoo nor customizeCellForFoo" for `suffix` "Foo": what a type that
    /// cannot be registered lacks ("none of …" were there more than two such hooks).
    package static func noneOfRegisteringNames(_ suffix: String) -> String {
        registeringType.count == 2
            ? "neither \(registeringNames(suffix, "nor"))"
            : "none of \(registeringNames(suffix))"
    }

    /// Every hook's name for `<Id>` as a reader would list them: "initCellFor<Id>, …
    /// and prepareCellForReuseFor<Id>" (the tool's help).
    package static var allNames: String {
        let names = allCases.map { $0.prefix + "<Id>" }
        return names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    /// Every hook in the order the routine runs them (`Row.moment`): what `cellkit check` runs
    /// on a new cell for each sample.
    package static let inRoutineOrder = allCases.sorted { $0.row.moment < $1.row.moment }

    // Longest prefix first, so that no prefix shadows a longer one.
    static let byPrefixLength = allCases.sorted { $0.prefix.count > $1.prefix.count }

    /// Splits a symbol into its hook kind and identifier, if it follows the rule exactly.
    package static func parse(symbol: String) -> (HookKind, CellIdentifier)? {
        for kind in byPrefixLength where symbol.hasPrefix(kind.prefix) {
            let rest = String(symbol.dropFirst(kind.prefix.count))
            guard let identifier = try? CellIdentifier(rest) else { return nil }
            return (kind, identifier)
        }
        return nil
    }

    // MARK: Coding

    /// Decodes the hook's prefix (`"initCellFor"`); an unknown one throws.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let kind = HookKind(prefix: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not a hook prefix")
        }
        self = kind
    }

    /// Encodes the hook as its prefix (`"initCellFor"`), as `cellkit list --json` shows it.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(prefix)
    }
}
