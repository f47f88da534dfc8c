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
    /// The stylesheet and warnings this queue's cells share.
    public let context: CellContext

    /// One cell type's pool, with its hooks copied beside it.
    private struct Pool {
        var isReady = false
        var cells: UnsafeMutablePointer<Cell>?  // poolLimit places; the first `count` hold cells
        var count = 0
        var statistics = CellStatistics()
        // Standard hooks as bare C pointers: copying one is free, while copying
        // a Hook (an enum that may hold a class) costs an outlined copy per row.
        var customizeDirect: Hook.Standard?
        var prepareDirect: Hook.Standard?
        var customize: Hook?  // only when it goes through libffi
        var prepare: Hook?
    }

    // Indexed by CellType.slot, so the per-row path never hashes an identifier.
    // Raw memory, not arrays: cells move in and out without retain/release,
    // uniqueness or exclusivity checks, which together cost more than the
    // routine's own work. Only this queue's thread touches it.
    private var pools: UnsafeMutablePointer<Pool>
    private var capacity = 0

    public init(registry: CellRegistry, poolLimit: Int = 5, context: CellContext = CellContext()) {
        self.registry = registry
        self.poolLimit = max(0, poolLimit)
        self.context = context
        pools = .allocate(capacity: 0)
    }

    deinit {
        for slot in 0..<capacity {
            guard let cells = pools[slot].cells else { continue }
            cells.deinitialize(count: pools[slot].count)
            cells.deallocate()
        }
        pools.deinitialize(count: capacity)
        pools.deallocate()
    }

    // MARK: The routine

    /// A cell of `type` for the row at `indexPath`: reused if the pool has one,
    /// else made with `style`, its selection style set from `selectable`, and its
    /// init hook run; then, every time, its customize hook.
    public func dequeueCell(
        _ type: CellType, at indexPath: IndexPath, style: CellStyle = .default, selectable: Bool = true,
        rowsInSection: Int = 1, data: consuming RowValue = .null
    ) -> Cell {
        let slot = type.slot
        if slot >= capacity || !pools[slot].isReady { makePool(type) }
        let pool = pools + slot
        let cell: Cell
        if pool.pointee.count > 0 {
            pool.pointee.count -= 1
            cell = (pool.pointee.cells! + pool.pointee.count).move()
            pool.pointee.statistics.reused += 1
            cell.show(indexPath, rowsInSection: rowsInSection, data: consume data)
        } else {
            cell = Cell(reuseIdentifier: type.identifier, type: type, style: style, selectionStyle: selectable ? .blue : .none, context: context)
            pool.pointee.statistics.created += 1
            cell.show(indexPath, rowsInSection: rowsInSection, data: consume data)
            if let initCell = type.initCell { _ = initCell(cell) }
        }
        if let customize = pool.pointee.customizeDirect {
            customize(cell.handle, indexPath.c)
        } else if let customize = pool.pointee.customize {
            _ = customize(cell)
        }
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
    /// `consuming`: the caller's reference moves into the pool without a retain.
    public func recycle(_ cell: consuming Cell) {
        let slot = cell.slot
        guard slot >= 0, slot < capacity, pools[slot].isReady else { return }
        let pool = pools + slot
        guard pool.pointee.count < poolLimit else { return }
        if let prepare = pool.pointee.prepareDirect {
            prepare(cell.handle, cell.indexPath.c)
        } else if let prepare = pool.pointee.prepare {
            _ = prepare(cell)
        }
        cell.isSelected = false
        if !cell.scratch.isEmpty { cell.freeScratch() }
        (pool.pointee.cells! + pool.pointee.count).initialize(to: cell)
        pool.pointee.count += 1
    }

    // MARK: Counters

    /// Cells of `type` made and reused by this queue.
    public func statistics(for type: CellType) -> CellStatistics {
        type.slot < capacity ? pools[type.slot].statistics : CellStatistics()
    }

    /// Cells of `type` waiting in the pool.
    public func pooledCount(for type: CellType) -> Int {
        type.slot < capacity ? pools[type.slot].count : 0
    }

    // MARK: Pools

    /// Makes the pool for `type`, growing the slot table if needed (rare: once per type).
    private func makePool(_ type: CellType) {
        if type.slot >= capacity {
            let newCapacity = max(type.slot + 1, capacity * 2, 8)
            let grown = UnsafeMutablePointer<Pool>.allocate(capacity: newCapacity)
            grown.moveInitialize(from: pools, count: capacity)
            (grown + capacity).initialize(repeating: Pool(), count: newCapacity - capacity)
            pools.deallocate()
            (pools, capacity) = (grown, newCapacity)
        }
        var pool = Pool(isReady: true, cells: .allocate(capacity: max(1, poolLimit)))
        if case .standard(let f) = type.customizeCell { pool.customizeDirect = f } else { pool.customize = type.customizeCell }
        if case .standard(let f) = type.prepareForReuse { pool.prepareDirect = f } else { pool.prepare = type.prepareForReuse }
        pools[type.slot] = pool
    }
}
