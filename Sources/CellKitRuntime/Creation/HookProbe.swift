// One cell type's hooks run one at a time, for `cellkit check`: the routine runs
// init and customize in one call, while a check names and times each hook.

import CellKitDiscovery
import CellKitModel

/// Runs the hooks of one cell type one by one on cells made for it, outside any pool.
/// For vetting a plugin (`cellkit check`); tables use `CellQueue`.
package struct HookProbe {
    /// The type whose hooks run.
    package let type: CellType
    /// The context the probe's cells share: the stylesheet and the warnings.
    package let context: CellContext

    /// A probe of `type`'s hooks whose cells share `context`.
    package init(type: CellType, context: CellContext) { (self.type, self.context) = (type, context) }

    /// Whether the type has the hook `kind`.
    package func has(_ kind: HookKind) -> Bool { hook(kind) != nil }

    private func hook(_ kind: HookKind) -> Hook? { type.hook(kind) }

    /// A new cell of the type showing the row at `indexPath`, as the routine makes one,
    /// before any hook runs.
    package func makeCell(
        at indexPath: IndexPath, style: CellStyle, selectable: Bool, rowsInSection: Int, data: RowValue
    ) -> Cell {
        let cell = Cell(
            reuseIdentifier: type.identifier, owner: 0, slot: -1, style: style,
            selectionStyle: selectable ? .default : .none, context: context,
            pluginFile: type.pluginPath.split(separator: "/").last.map(String.init) ?? type.pluginPath)
        cell.show(indexPath, rowsInSection: rowsInSection, data: .value(data))
        return cell
    }

    /// Runs the hook `kind` on `cell` with its last error cleared first, as the routine
    /// runs it (prepare-for-reuse also clears the selection and frees the C strings hooks
    /// were handed). Returns the hook's answer (0 for hooks that return nothing), or nil
    /// when the type has no such hook.
    package func run(_ kind: HookKind, on cell: Cell) -> Double? {
        guard let hook = hook(kind) else { return nil }
        cell._lastError = nil
        cell.enterHook(kind)
        let answer = hook(cell)
        cell.leaveHook()
        if kind.row.moment == .cellRecycled {
            cell.isSelected = false
            if cell.hasScratch { cell.freeScratch() }
        }
        return answer
    }

    /// Whether a failed host call's message is a read of the row's data that found a value of
    /// another type than the one asked for.
    package static func isWrongType(_ message: String) -> Bool { message.hasPrefix("expected ") }

    /// Whether a failed host call's message is a read of the row's data that found no value.
    package static func isMissingValue(_ message: String) -> Bool {
        message.hasPrefix("the row's data has no value at")
    }

    /// Whether a failed host call's message is a read of the row's data that found no value,
    /// or a value of another type.
    package static func isDataRead(_ message: String) -> Bool {
        message.hasPrefix("the row's data has no value at") || message.hasPrefix("expected ")
    }
}

extension Cell {
    /// Forgets the last failed host call's message.
    package func clearLastError() { _lastError = nil }
}
