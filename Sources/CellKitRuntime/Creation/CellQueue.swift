// The generic cell-creation routine of seed 004, `createCellForIdentifier:
// tableView:indexPath:style:selectable:`, with one bounded reuse pool per cell
// type, style and selectability: a reused cell always has the configuration its
// row asks for, as UIKit ties a cell's style to its reuse identifier.

import CellKitDiscovery
import CellKitModel
import Synchronization

/// How often a queue made and reused cells of one type.
public struct CellStatistics: Sendable, Equatable {
    /// Cells made new, each with its init hook run.
    public var created = 0
    /// Cells handed out again from a pool, without their init hook.
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
    @usableFromInline let registryID: Int
    /// Unique in the process (never 0, which marks cells made by hand): a cell knows the
    /// queue that made it and goes back to no other.
    @usableFromInline let id = CellQueue.count.add(1, ordering: .relaxed).newValue
    private static let count = Atomic<Int>(0)

    /// The pool for cells of the type at `slot` made with `style` and `selectable`:
    /// eight pools a type, so a cell of one style is never handed to a row of another.
    @inlinable @inline(__always)
    static func poolIndex(_ slot: Int, style: CellStyle, selectable: Bool) -> Int {
        slot &<< 3 | Int(style.rawValue & 3) &<< 1 | (selectable ? 1 : 0)
    }

    /// One pool, with its type's hooks copied beside it.
    @usableFromInline struct Pool {
        var isReady = false
        var type: CellType?  // kept here so the per-row path never retains it
        @usableFromInline var cells = Pool.noCells  // poolLimit places; the first `count` hold cells
        @usableFromInline var count = 0
        @usableFromInline var room = 0  // poolLimit once made; 0 before, so `recycle` needs one compare
        @usableFromInline var hasPrepare = false
        @usableFromInline var statistics = CellStatistics()
        // Standard hooks as bare C pointers: copying one is free, while copying
        // a Hook (an enum that may hold a class) costs an outlined copy per row.
        @usableFromInline var customizeDirect: Hook.Standard?
        var prepareDirect: Hook.Standard?
        // The rest (libffi, built-in) unowned: `type` keeps them alive, and copying
        // a Hook retains the class inside it.
        var customizeFFI: Unmanaged<FFIHook>?
        var customizeRegisters: RegisterHook?  // plain values: copied without a retain
        var customize: Hook?  // only when it is neither standard, registers nor libffi
        var prepare: Hook?

        /// The cells of a pool not made yet: never read, as its count stays 0.
        nonisolated(unsafe) static let noCells = UnsafeMutablePointer<Cell>.allocate(capacity: 1)
    }

    // Indexed by CellType.slot, so the per-row path never hashes an identifier.
    // Raw memory, not arrays: cells move in and out without retain/release,
    // uniqueness or exclusivity checks, which together cost more than the
    // routine's own work. Only this queue's thread touches it.
    @usableFromInline @exclusivity(unchecked) var pools: UnsafeMutablePointer<Pool>
    @usableFromInline @exclusivity(unchecked) var capacity = 0
    /// The row width cells are shown at now (the renderer's); a reused cell laid out at another
    /// is laid out again (`relayout`). 0 until a renderer sets it.
    @usableFromInline @exclusivity(unchecked) package var rowWidth = 0

    /// A queue with empty pools that resolves slots through `registry`. Each pool keeps at
    /// most `poolLimit` cells (a negative limit counts as 0: no cell is ever reused); its
    /// cells share `context`, whose stylesheet `ck_apply_style` reads.
    public init(registry: CellRegistry, poolLimit: Int = 5, context: CellContext = CellContext()) {
        self.registry = registry
        self.poolLimit = max(0, poolLimit)
        self.context = context
        registryID = registry.id
        pools = .allocate(capacity: 0)
    }

    deinit {
        for slot in 0..<capacity where pools[slot].isReady {
            pools[slot].cells.deinitialize(count: pools[slot].count)
            pools[slot].cells.deallocate()
        }
        pools.deinitialize(count: capacity)
        pools.deallocate()
    }

    /// Lets go of every pooled cell (no hook runs: each was prepared for reuse when pooled), so that
    /// the next row of each type gets a new cell, as on a new queue (`cellkit preview`'s fresh cells
    /// drawn by one kept worker). The statistics stay.
    package func removePooledCells() {
        for slot in 0..<capacity where pools[slot].isReady && pools[slot].count > 0 {
            pools[slot].cells.deinitialize(count: pools[slot].count)
            pools[slot].count = 0
        }
    }

    // MARK: The routine

    /// A cell for the row at `indexPath` of the type `slot` stands for: reused if
    /// the pool has one, else made with `style`, its selection style set from
    /// `selectable`, and its init hook run; then, every time, its customize hook.
    /// A slot from another registry is a programmer error: it is reported in the
    /// context's warnings and the row gets a blank cell.
    @inlinable
    public func dequeueCell(
        _ slot: ReuseSlot, at indexPath: IndexPath, style: CellStyle = .default, selectable: Bool = true,
        rowsInSection: Int = 1, data: consuming RowValue = .null
    ) -> Cell {
        dequeue(
            slot, at: indexPath, style: style, selectable: selectable, rowsInSection: rowsInSection,
            data: .value(consume data))
    }

    /// The routine, for row data in either form (see `RowData`). Inlinable, with
    /// the rare paths out of line, so that callers in other modules pay no calls.
    @inlinable @inline(__always)
    package func dequeue(
        _ slot: ReuseSlot, at indexPath: IndexPath, style: CellStyle, selectable: Bool, rowsInSection: Int,
        data: consuming RowData
    ) -> Cell {
        let index = Self.poolIndex(slot.index, style: style, selectable: selectable)
        // The common case, a warm pool, stays small so it needs few registers;
        // everything else is out of line.
        guard slot.registryID == registryID, index < capacity, pools[index].count > 0 else {
            return dequeueNew(
                slot, at: indexPath, style: style, selectable: selectable, rowsInSection: rowsInSection, data: data)
        }
        let pool = pools + index
        pool.pointee.count &-= 1
        let cell = (pool.pointee.cells + pool.pointee.count).move()
        pool.pointee.statistics.reused &+= 1
        cell.show(indexPath, rowsInSection: rowsInSection, data: consume data)
        customize(cell, at: indexPath, pool)
        if cell.laidOutWidth != rowWidth { relayout(cell, pool) }
        return cell
    }

    /// The routine when the pool is empty or not made yet: a new cell, its init hook, its customize hook.
    @usableFromInline @inline(never)
    func dequeueNew(
        _ slot: ReuseSlot, at indexPath: IndexPath, style: CellStyle, selectable: Bool, rowsInSection: Int,
        data: consuming RowData
    ) -> Cell {
        let index = Self.poolIndex(slot.index, style: style, selectable: selectable)
        if slot.registryID != registryID || index >= capacity || !pools[index].isReady {
            guard let type = registry.cellType(at: slot) else { return foreignCell(slot, at: indexPath, style: style) }
            makePool(type, at: index)
        }
        let pool = pools + index  // empty: the fast path takes every pooled cell
        let type = pool.pointee.type!
        let cell = makeCell(type, style: style, selectable: selectable, pool: index)
        pool.pointee.statistics.created += 1
        cell.show(indexPath, rowsInSection: rowsInSection, data: consume data)
        if let initCell = type.hook(.initCell) { _ = run(.initCell, initCell, on: cell) }
        customize(cell, at: indexPath, pool)
        cell.laidOutWidth = rowWidth  // made at this width: nothing to lay out again
        return cell
    }

    /// A reused cell shown at another row width than it was laid out at: each subview with an
    /// autoresizing mask follows the content view's change in width, then the type's
    /// `layoutSubviewsFor<Id>` hook runs (UIKit's layoutSubviews), so that no cell is handed out
    /// with frames made for another width.
    @usableFromInline @inline(never)
    func relayout(_ cell: Cell, _ pool: UnsafeMutablePointer<Pool>) {
        let old = cell.laidOutWidth
        cell.laidOutWidth = rowWidth
        guard old >= 0 else { return }
        let from = cell.subviewWidth(inRowWidth: old), to = cell.subviewWidth(inRowWidth: rowWidth)
        for view in cell.subviews where !view.autoresizingMask.isEmpty {
            view.frame = view.autoresizingMask.resize(view.frame, from: from, to: to)
        }
        guard let hook = pool.pointee.type?.hook(.layoutSubviews) else { return }
        _ = run(.layoutSubviews, hook, on: cell)
    }

    /// Runs `hook`, its type's hook of `kind`, on `cell` with the progress record naming it (a
    /// fault in it names the hook); returns its answer (a height) or 0.
    @inline(__always)
    private func run(_ kind: HookKind, _ hook: Hook, on cell: Cell) -> Double {
        cell.enterHook(kind)
        let answer = hook(cell)
        cell.leaveHook()
        return answer
    }

    /// Runs the pool's customize hook on `cell`: a typed C pointer inline, anything else out of line.
    @inlinable @inline(__always)
    func customize(_ cell: Cell, at indexPath: IndexPath, _ pool: UnsafeMutablePointer<Pool>) {
        cell.enterHook(.customizeCell)  // host calls are served on this thread only (cellkit.h, THREADS)
        if let customize = pool.pointee.customizeDirect {
            customize(cell.handle, indexPath.c)
        } else {
            customizeIndirect(cell, pool)
        }
        cell.leaveHook()
    }

    /// Runs a customize hook that is not a standard typed C pointer: a declared list, or built-in.
    @usableFromInline @inline(never)
    func customizeIndirect(_ cell: Cell, _ pool: UnsafeMutablePointer<Pool>) {
        if let customize = pool.pointee.customizeRegisters {
            _ = customize.call(cell)
        } else if let customize = pool.pointee.customizeFFI {
            _ = customize._withUnsafeGuaranteedRef { $0.call(cell) }
        } else if let customize = pool.pointee.customize {
            _ = customize(cell)
        }
    }

    /// The routine for a `CellType` object: the same as passing `type.reuseSlot`.
    /// A type from another registry is served without a pool (and a warning):
    /// its slot numbers would collide with this registry's.
    public func dequeueCell(
        _ type: CellType, at indexPath: IndexPath, style: CellStyle = .default, selectable: Bool = true,
        rowsInSection: Int = 1, data: consuming RowValue = .null
    ) -> Cell {
        guard type.registryID != registryID else {
            return dequeueCell(
                type.reuseSlot, at: indexPath, style: style, selectable: selectable, rowsInSection: rowsInSection,
                data: data)
        }
        context.warn(
            "cell type \(type.identifier) comes from another CellRegistry, so its cells are not reused; resolve it with this queue's registry"
        )
        let cell = makeCell(type, style: style, selectable: selectable, pool: -1)
        cell.show(indexPath, rowsInSection: rowsInSection, data: .value(consume data))
        if let initCell = type.hook(.initCell) { _ = run(.initCell, initCell, on: cell) }
        if let customize = type.hook(.customizeCell) { _ = run(.customizeCell, customize, on: cell) }
        return cell
    }

    /// The row height the cell's type asks for: its height hook's answer, else
    /// what its hooks set as `rowHeight`, else nil (the table's default).
    /// A cell this queue did not make from a registry type (made by hand, by another
    /// queue, or for a type of another registry) has no height hook here.
    /// A hook's answer of 0 or less, or one that is not finite, counts as none; any other
    /// is returned as given. Every answer outside 1...`PluginLimits.maxRowHeight` but 0 is
    /// reported in the context's warnings, once per type: `TableRenderer` draws a row
    /// at most `PluginLimits.maxRowHeight` lines tall (and at least 1).
    public func height(of cell: Cell) -> Double? {
        if cell.owner == id, UInt(bitPattern: cell.slot) < UInt(bitPattern: capacity),
            let hook = pools[cell.slot].type?.hook(.heightForCell)
        {
            let height = run(.heightForCell, hook, on: cell)
            // One compare pair on the common path; NaN fails both.
            if height >= 1, height <= Double(PluginLimits.maxRowHeight) { return height }
            if height == Cell.automaticDimension, cell.knowsAutomaticDimension { return height }
            return Self.outOfRange(height, of: cell)
        }
        return cell.rowHeight
    }

    /// A height hook's answer outside 1...maxRowHeight: for 0, negatives and values that are not
    /// finite, the cell's own `rowHeight` (nil if it has none), as UIKit's automatic dimension
    /// falls back to the cell's; else as given, for the renderer to clamp; a warning for all but 0.
    @inline(never)
    private static func outOfRange(_ height: Double, of cell: Cell) -> Double? {
        if height == 0 { return cell.rowHeight }
        let rule = PluginLimits.rowHeightRule
        guard height.isFinite, height > 0 else {
            let why = height.isFinite ? "it is negative" : "it is not a finite number"
            cell.warnLimit(.rowHeight, "returned a row height of \(height)", "ignored, as \(why) (\(rule))")
            return cell.rowHeight
        }
        let lines = height < 1 ? 1 : PluginLimits.maxRowHeight
        cell.warnLimit(
            .rowHeight, "returned a row height of \(height)",
            "clamped to \(lines) \(lines == 1 ? "line" : "lines") (\(rule))")
        return height
    }

    /// Gives a cell back once its row is drawn. If its pool has room, the type's
    /// prepare-for-reuse hook runs and the cell waits there; otherwise it is freed.
    /// A cell this queue did not make is refused (and reported in the context's
    /// warnings): pooled here, a later row of another type could be handed it.
    /// `consuming`: the caller's reference moves into the pool without a retain.
    @inlinable
    public func recycle(_ cell: consuming Cell) {
        guard cell.owner == id else { return refuse(cell) }
        // One unsigned compare covers slot -1 (unpooled cells) and slots past the table.
        let slot = cell.slot
        guard UInt(bitPattern: slot) < UInt(bitPattern: capacity) else { return }
        let pool = pools + slot
        guard pool.pointee.count < pool.pointee.room else { return }
        // The common case, no hook and nothing to free, makes no call: a leaf
        // function saves no registers.
        if pool.pointee.hasPrepare || cell.hasScratch { return prepareAndPool(cell, pool) }
        cell.isSelected = false
        (pool.pointee.cells + pool.pointee.count).initialize(to: cell)
        pool.pointee.count &+= 1
    }

    /// `recycle` for a cell whose type has a prepare-for-reuse hook or that holds C strings.
    @usableFromInline @inline(never)
    func prepareAndPool(_ cell: consuming Cell, _ pool: UnsafeMutablePointer<Pool>) {
        if let prepare = pool.pointee.prepareDirect {
            cell.enterHook(.prepareCellForReuse)
            prepare(cell.handle, cell.indexPath.c)
            cell.leaveHook()
        } else if let prepare = pool.pointee.prepare {
            _ = run(.prepareCellForReuse, prepare, on: cell)
        }
        cell.isSelected = false
        if cell.hasScratch { cell.freeScratch() }
        (pool.pointee.cells + pool.pointee.count).initialize(to: cell)
        pool.pointee.count &+= 1
    }

    /// `recycle` for a cell another queue made, or that was made by hand: never pooled.
    @usableFromInline @inline(never)
    func refuse(_ cell: Cell) {
        let maker = cell.owner == 0 ? "was made by hand, not by a CellQueue" : "was made by another CellQueue"
        context.warn(
            "recycle refused a \(cell.reuseIdentifier) cell that \(maker); give each cell back to the queue that dequeued it"
        )
    }

    // MARK: Counters

    /// Cells of `type` made and reused by this queue, over every style and selectability.
    public func statistics(for type: CellType) -> CellStatistics {
        pools(of: type).reduce(into: CellStatistics()) { total, pool in
            total.created += pool.statistics.created
            total.reused += pool.statistics.reused
        }
    }

    /// Cells made and reused by this queue, over every cell type, style and selectability.
    public var totalStatistics: CellStatistics {
        (0..<capacity).filter { pools[$0].isReady }.reduce(into: CellStatistics()) { total, index in
            total.created += pools[index].statistics.created
            total.reused += pools[index].statistics.reused
        }
    }

    /// Cells of `type` waiting in this queue's pools.
    public func pooledCount(for type: CellType) -> Int {
        pools(of: type).reduce(0) { $0 + $1.count }
    }

    /// The pools made so far for `type`'s styles and selectabilities.
    private func pools(of type: CellType) -> [Pool] {
        guard type.registryID == registryID else { return [] }
        let first = Self.poolIndex(type.slot, style: .default, selectable: false)
        return (first..<first + 8).filter { $0 < capacity && pools[$0].isReady }.map { pools[$0] }
    }

    // MARK: Making cells

    /// A new cell of `type` that goes back to the pool at `pool` (-1: to none).
    private func makeCell(_ type: CellType, style: CellStyle, selectable: Bool, pool: Int) -> Cell {
        Cell(
            reuseIdentifier: type.identifier, owner: id, slot: pool, style: style,
            selectionStyle: selectable ? .default : .none, context: context,
            pluginFile: type.pluginPath.split(separator: "/").last.map(String.init) ?? type.pluginPath,
            knowsAutomaticDimension: type.knowsAutomaticDimension, writesBoolByte: type.writesBoolByte)
    }

    /// The blank cell a row gets when its slot is not this registry's.
    private func foreignCell(_ slot: ReuseSlot, at indexPath: IndexPath, style: CellStyle) -> Cell {
        context.warn(
            "reuse slot \(slot.index) comes from another CellRegistry; resolve cell types with this queue's registry (queue.registry)"
        )
        let cell = Cell(
            reuseIdentifier: Self.foreignIdentifier, owner: id, slot: -1, style: style, selectionStyle: .none,
            context: context, pluginFile: "an unknown cell type")
        cell.show(indexPath, rowsInSection: 1, data: .value(.null))
        return cell
    }

    private static let foreignIdentifier = try! CellIdentifier("UnknownCellType")

    // MARK: Pools

    /// Makes the pool at `index` for `type`, growing the table if needed (rare: once per
    /// type, style and selectability).
    private func makePool(_ type: CellType, at index: Int) {
        if index >= capacity {
            let newCapacity = max(index + 1, capacity * 2, 32)
            let grown = UnsafeMutablePointer<Pool>.allocate(capacity: newCapacity)
            grown.moveInitialize(from: pools, count: capacity)
            (grown + capacity).initialize(repeating: Pool(), count: newCapacity - capacity)
            pools.deallocate()
            (pools, capacity) = (grown, newCapacity)
        }
        var pool = Pool(
            isReady: true, type: type, cells: .allocate(capacity: max(1, poolLimit)), room: poolLimit)
        // How the routine runs each hook: the switch has no `default:`, so a new hook kind fails to
        // compile here until the routine decides; then it calls the hook where its `Moment` says.
        for kind in HookKind.allCases {
            let hook = type.hook(kind)
            switch kind {
            case .initCell, .heightForCell, .layoutSubviews:
                // Read from the type where they run (`dequeueNew`, `height(of:)`, `relayout`): once a
                // cell, once a row after the routine, or on a change of width.
                break
            case .customizeCell:
                // Every row: copied into the pool by how it is called (see `Pool`).
                switch hook {
                case .standard(let f): pool.customizeDirect = f
                case .registers(let hook): pool.customizeRegisters = hook
                case .ffi(let hook): pool.customizeFFI = .passUnretained(hook)
                case let other: pool.customize = other
                }
            case .prepareCellForReuse:
                // Every recycle: `recycle` makes no call for a type without it.
                pool.hasPrepare = hook != nil
                if case .standard(let f) = hook { pool.prepareDirect = f } else { pool.prepare = hook }
            }
        }
        pools[index] = pool
        HookProgress.register(slot: type.slot, identifier: type.identifier.name, pluginPath: type.pluginPath)
    }
}
