// The generic cell-creation routine of seed 004, `createCellForIdentifier:
// tableView:indexPath:style:selectable:`, with one bounded reuse pool per cell type.

/// How often a queue made and reused cells of one type.
public struct CellStatistics: Sendable, Equatable {
    public var created = 0
    public var reused = 0
}

/// Hands out cells for one table. Not shared between threads: give each table
/// (and so each thread) its own queue; they may share one `CellRegistry`.
public final class CellQueue {
    /// Where identifiers are resolved.
    public let registry: CellRegistry
    /// How many unused cells each pool keeps (RecyclerView's default is 5).
    public let poolLimit: Int
    // Indexed by CellType.slot: the per-row path never hashes an identifier.
    private var pools: [[Cell]] = []
    private var statistics: [CellStatistics] = []

    public init(registry: CellRegistry, poolLimit: Int = 5) {
        self.registry = registry
        self.poolLimit = max(0, poolLimit)
    }

    // MARK: The routine

    /// A cell of `type` for the row at `indexPath`: reused if the pool has one,
    /// else made with `style`, its selection style set from `selectable`, and its
    /// init hook run; then, every time, its customize hook.
    public func dequeueCell(
        _ type: CellType, at indexPath: IndexPath, style: CellStyle = .default, selectable: Bool = true,
        rowsInSection: Int = 1, data: RowValue = .null
    ) -> Cell {
        let slot = type.slot
        if slot >= pools.count { grow(to: slot) }
        let cell: Cell
        if let reused = pools[slot].popLast() {
            cell = reused
            statistics[slot].reused += 1
            cell.show(indexPath, rowsInSection: rowsInSection, data: data)
        } else {
            cell = Cell(reuseIdentifier: type.identifier, type: type, style: style, selectionStyle: selectable ? .blue : .none)
            statistics[slot].created += 1
            cell.show(indexPath, rowsInSection: rowsInSection, data: data)
            if let initCell = type.initCell { _ = initCell(cell) }
        }
        if let customize = type.customizeCell { _ = customize(cell) }
        return cell
    }

    /// The row height the cell's type asks for: its height hook's answer, else
    /// what its hooks set as `rowHeight`, else nil (the table's default).
    public func height(of cell: Cell) -> Double? {
        if let hook = cell.cellType?.heightForCell {
            let height = hook(cell)
            return height.isFinite && height > 0 ? height : nil
        }
        return cell.rowHeight
    }

    /// Gives a cell back once its row is drawn. If its pool has room, the type's
    /// prepare-for-reuse hook runs and the cell waits there; otherwise it is freed.
    public func recycle(_ cell: Cell) {
        guard let type = cell.cellType, type.slot < pools.count, pools[type.slot].count < poolLimit else { return }
        if let prepare = type.prepareForReuse { _ = prepare(cell) }
        cell.isSelected = false
        pools[type.slot].append(cell)
    }

    // MARK: Counters

    /// Cells of `type` made and reused by this queue.
    public func statistics(for type: CellType) -> CellStatistics {
        type.slot < statistics.count ? statistics[type.slot] : CellStatistics()
    }

    /// Cells of `type` waiting in the pool.
    public func pooledCount(for type: CellType) -> Int {
        type.slot < pools.count ? pools[type.slot].count : 0
    }

    private func grow(to slot: Int) {
        pools += Array(repeating: [], count: slot + 1 - pools.count)
        statistics += Array(repeating: CellStatistics(), count: slot + 1 - statistics.count)
    }
}
