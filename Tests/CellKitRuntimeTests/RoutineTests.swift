import CellKitModel
import CellKitTestSupport
import Foundation
import Synchronization
import Testing

@testable import CellKitDiscovery
@testable import CellKitRuntime

/// Counts its hook calls in exported globals the tests read back.
let countingPlugin = """
    #include <stdio.h>
    #include "cellkit.h"
    CK_PLUGIN("Counting", "1.0.0", "counts hook calls");
    CK_EXPORT int inits, customizes, prepares, tag_zero_status = -1;

    CK_EXPORT void initCellForCounted(ck_cell *cell, ck_index_path ip) {
        (void)ip;
        inits++;
        ck_view *badge = cell->host->add_subview(cell, CK_VIEW_LABEL, (ck_rect){0, 0, 4, 1}, 1);
        ck_set_text(badge, "new");
    }
    CK_EXPORT void customizeCellForCounted(ck_cell *cell, ck_index_path ip) {
        char text[64];
        snprintf(text, sizeof text, "row %lld, call %d", (long long)ip.row, ++customizes);
        ck_set_text(ck_text_label(cell), text);
        ck_view *badge = cell->host->view_with_tag(cell, 1);
        if (badge) ck_set_text(badge, "found");
    }
    CK_EXPORT void prepareCellForReuseForCounted(ck_cell *cell, ck_index_path ip) {
        (void)ip;
        prepares++;
        ck_set_text(ck_text_label(cell), NULL);
    }

    /* Seed 003's trap: numbering subviews from 0. */
    CK_EXPORT void initCellForTagZero(ck_cell *cell, ck_index_path ip) {
        (void)ip;
        ck_view *v = cell->host->add_subview(cell, CK_VIEW_IMAGE, (ck_rect){0, 0, 2, 1}, 0);
        tag_zero_status = v == NULL ? 0 : 1;
        const char *why = cell->host->last_error(cell);
        ck_set_text(ck_detail_text_label(cell), why);
        int64_t tag = -1;
        ck_view *first = cell->host->add_subview(cell, CK_VIEW_IMAGE, (ck_rect){0, 0, 2, 1}, 1);
        first->host->view_get_int(first, CK_VIEW_TAG, &tag);
        if (cell->host->add_subview(cell, CK_VIEW_IMAGE, (ck_rect){0, 0, 2, 1}, 1) == NULL && tag == 1) tag_zero_status += 10;
    }
    """

@Suite("The cell-creation routine")
struct RoutineTests {
    let library: String
    let queue: CellQueue

    init() throws {
        let dir = try Fixtures.folder("routine")
        library = try Fixtures.compileC(countingPlugin, name: "counting", in: dir)
        queue = CellQueue(registry: Fixtures.registry([dir]))
    }

    func count(_ name: String) -> Int32 { Fixtures.counter(name, in: library) }

    @Test("A new cell runs init then customize; a reused one only customize; prepare runs on the way back")
    func newVersusReused() throws {
        let type = try queue.registry.cellType(named: "Counted")
        let first = queue.dequeueCell(type, at: IndexPath(section: 0, row: 0))
        #expect(first.textLabel.text == "row 0, call 1")
        #expect(first.view(withTag: 1)?.text == "found")
        #expect((count("inits"), count("customizes"), count("prepares")) == (1, 1, 0))

        queue.recycle(first)
        #expect(first.textLabel.text == nil, "prepareCellForReuse cleared the text")
        let second = queue.dequeueCell(type, at: IndexPath(section: 0, row: 1))
        #expect(second === first)
        #expect(second.textLabel.text == "row 1, call 2")
        #expect((count("inits"), count("customizes"), count("prepares")) == (1, 2, 1))
        #expect(queue.statistics(for: type) == CellStatistics(created: 1, reused: 1))

        let third = queue.dequeueCell(type, at: IndexPath(section: 0, row: 2))  // pool empty again
        #expect(third !== first)
        #expect(queue.statistics(for: type) == CellStatistics(created: 2, reused: 1))
        #expect(count("inits") == 2)
    }

    @Test("A reuse slot reaches the same pool as its cell type")
    func reuseSlot() throws {
        let type = try queue.registry.cellType(named: "Counted")
        #expect(queue.registry.cellType(at: type.reuseSlot) === type)
        let first = queue.dequeueCell(type.reuseSlot, at: IndexPath(section: 0, row: 7))
        #expect(first.textLabel.text?.hasPrefix("row 7,") == true && first.reuseIdentifier == type.identifier)
        queue.recycle(first)
        #expect(queue.dequeueCell(type, at: IndexPath(section: 0, row: 8)) === first)
        #expect(queue.statistics(for: type) == CellStatistics(created: 1, reused: 1))
    }

    @Test("A type or slot from another registry is reported; its cells never enter this queue's pools")
    func foreignRegistry() throws {
        let mine = try queue.registry.cellType(named: "Counted")
        let other = Fixtures.registry([URL(fileURLWithPath: library).deletingLastPathComponent().path])
        let foreign = try other.cellType(named: "Counted")
        #expect(foreign.slot == mine.slot, "slot numbers collide across registries")
        #expect(queue.registry.cellType(at: foreign.reuseSlot) == nil)

        let blank = queue.dequeueCell(foreign.reuseSlot, at: IndexPath(section: 0, row: 1))
        #expect(blank.reuseIdentifier.name == "UnknownCellType" && blank.textLabel.text == nil)
        let served = queue.dequeueCell(foreign, at: IndexPath(section: 0, row: 2))
        #expect(served.textLabel.text?.hasPrefix("row 2,") == true, "the foreign type's hooks still run")
        queue.recycle(served)
        queue.recycle(blank)
        #expect(queue.pooledCount(for: mine) == 0 && queue.statistics(for: mine) == CellStatistics())
        #expect(queue.dequeueCell(mine, at: IndexPath(section: 0, row: 3)) !== served)
        #expect(
            queue.context.warnings == [
                "reuse slot \(foreign.slot) comes from another CellRegistry; resolve cell types with this queue's registry (queue.registry)",
                "cell type Counted comes from another CellRegistry, so its cells are not reused; resolve it with this queue's registry",
            ])
    }

    @Test("Selection style comes from `selectable`; the style is the one asked for")
    func selectionStyle() throws {
        let type = try queue.registry.cellType(named: "Counted")
        let selectable = queue.dequeueCell(type, at: IndexPath(section: 0, row: 0), style: .value1, selectable: true)
        let plain = queue.dequeueCell(type, at: IndexPath(section: 1, row: 0), style: .subtitle, selectable: false)
        #expect((selectable.selectionStyle, selectable.style) == (.default, .value1))  // UIKit's grey
        #expect((plain.selectionStyle, plain.style) == (.none, .subtitle))
    }

    @Test("Reuse is keyed by style: a cell made with one style never serves a row of another")
    func reuseKeyedByStyle() throws {
        let type = try queue.registry.cellType(named: "Counted")
        let subtitle = queue.dequeueCell(type, at: IndexPath(section: 0, row: 0), style: .subtitle)
        queue.recycle(subtitle)
        let plain = queue.dequeueCell(type, at: IndexPath(section: 1, row: 0), style: .default)
        #expect(plain !== subtitle && plain.style == .default, "the subtitle cell waits in its own pool")
        let value1 = queue.dequeueCell(type, at: IndexPath(section: 2, row: 0), style: .value1)
        #expect(value1 !== subtitle && value1.style == .value1)
        let again = queue.dequeueCell(type, at: IndexPath(section: 0, row: 1), style: .subtitle)
        #expect(again === subtitle && again.style == .subtitle)
        #expect(queue.statistics(for: type) == CellStatistics(created: 3, reused: 1))
    }

    @Test("Reuse is keyed by selectability: a cell made for a selectable section never serves one that is not")
    func reuseKeyedBySelectability() throws {
        let type = try queue.registry.cellType(named: "Counted")
        let selectable = queue.dequeueCell(type, at: IndexPath(section: 0, row: 0), selectable: true)
        queue.recycle(selectable)
        let fixed = queue.dequeueCell(type, at: IndexPath(section: 1, row: 0), selectable: false)
        #expect(fixed !== selectable && fixed.selectionStyle == .none)
        queue.recycle(fixed)
        let back = queue.dequeueCell(type, at: IndexPath(section: 0, row: 1), selectable: true)
        #expect(back === selectable && back.selectionStyle == .default)
        #expect(queue.dequeueCell(type, at: IndexPath(section: 1, row: 1), selectable: false) === fixed)
    }

    @Test("recycle refuses a cell made by another queue on the same registry, and reports it")
    func recycleFromAnotherQueue() throws {
        let type = try queue.registry.cellType(named: "Counted")
        let other = CellQueue(registry: queue.registry)
        let cell = queue.dequeueCell(type, at: IndexPath(section: 0, row: 0))
        other.recycle(cell)
        #expect(other.pooledCount(for: type) == 0, "never pooled by the wrong queue")
        #expect(
            other.context.warnings == [
                "recycle refused a Counted cell that was made by another CellQueue; give each cell back to the queue that dequeued it"
            ])
        #expect(other.dequeueCell(type, at: IndexPath(section: 0, row: 1)) !== cell)
        queue.recycle(cell)
        #expect(queue.pooledCount(for: type) == 1 && queue.context.warnings.isEmpty, "its own queue takes it back")
    }

    @Test(
        "recycle refuses a cell of another registry whose slot collides, so that queue never hands out the wrong type")
    func recycleFromAnotherRegistry() throws {
        let other = CellQueue(registry: Fixtures.registry([Fixtures.buildDirectory]))
        let foobar = try other.registry.cellType(named: "Foobar"), bar = try other.registry.cellType(named: "Bar")
        let counted = try queue.registry.cellType(named: "Counted")
        let mine = queue.dequeueCell(counted, at: IndexPath(section: 0, row: 0))
        other.recycle(mine)
        #expect(other.pooledCount(for: foobar) == 0 && other.pooledCount(for: bar) == 0)
        #expect(other.context.warnings.count == 1 && other.context.warnings[0].contains("made by another CellQueue"))
        let handed = other.dequeueCell(bar, at: IndexPath(section: 0, row: 0))
        #expect(handed !== mine && handed.reuseIdentifier.name == "Bar")
        other.recycle(Cell(reuseIdentifier: try CellIdentifier("Bar"), style: .default))
        #expect(other.pooledCount(for: bar) == 0 && other.context.warnings.last?.contains("made by hand") == true)
    }

    @Test("Each pool is bounded; cells past the bound are freed without prepare", arguments: [5, 2, 0])
    func poolBound(limit: Int) throws {
        let queue = CellQueue(registry: self.queue.registry, poolLimit: limit)
        let type = try queue.registry.cellType(named: "Counted")
        let preparesBefore = count("prepares")
        let cells = (0..<8).map { queue.dequeueCell(type, at: IndexPath(section: 0, row: $0)) }
        cells.forEach(queue.recycle)
        #expect(queue.pooledCount(for: type) == limit)
        #expect(count("prepares") - preparesBefore == Int32(limit))
        _ = (0..<8).map { queue.dequeueCell(type, at: IndexPath(section: 0, row: $0)) }
        #expect(queue.statistics(for: type) == CellStatistics(created: 8 + 8 - limit, reused: limit))
    }

    @Test("Tag 0 is refused with a message that explains why; duplicate tags too")
    func tagZero() throws {
        let cell = queue.dequeueCell(try queue.registry.cellType(named: "TagZero"), at: IndexPath(section: 0, row: 0))
        #expect(count("tag_zero_status") == 10, "tag 0 gave NULL, tag 1 worked, a second tag 1 gave NULL")
        #expect(
            cell.detailTextLabel.text?.hasPrefix("add_subview: tag 0 refused: 0 is every view's default tag") == true)
        #expect(cell.subviews.map(\.tag) == [1])
        #expect(cell.lastError?.contains("already has a subview with tag 1") == true)
        #expect(cell.view(withTag: 0) == nil)
        #expect(throws: CellError.self) { try cell.addSubview(.label, frame: .zero, tag: 0) }
    }

    @Test("An unused plugin is never opened; a used one is opened once, on first resolve")
    func lazyLoading() throws {
        let dir = try Fixtures.folder("lazy")
        let used = try Fixtures.compileC(minimalPlugin("LazyUsed"), name: "lazyused", in: dir)
        let unused = try Fixtures.compileC(minimalPlugin("LazyUnused"), name: "lazyunused", in: dir)
        let registry = Fixtures.registry([dir])
        #expect(registry.catalog.registrations.count == 2)
        #expect(!registry.isLoaded(pluginAt: used) && !registry.isLoaded(pluginAt: unused), "discovery opens nothing")
        let type = try registry.cellType(named: "LazyUsed")
        #expect(registry.isLoaded(pluginAt: used))
        #expect(!registry.isLoaded(pluginAt: unused))
        #expect(try registry.cellType(named: "LazyUsed") === type, "an identifier resolves once")
    }

    @Test("Separate tables on separate threads share one registry safely")
    func threads() throws {
        let registry = Fixtures.registry([Fixtures.buildDirectory])
        let results = Mutex<[Int: [String]]>([:])
        DispatchQueue.concurrentPerform(iterations: 4) { table in
            let queue = CellQueue(registry: registry)
            var texts: [String] = []
            for row in 0..<2_000 {
                guard let type = try? registry.cellType(named: row % 2 == 0 ? "Foobar" : "Bar") else { return }
                let cell = queue.dequeueCell(
                    type, at: IndexPath(section: table, row: row), data: .object(["title": .string("t\(row)")]))
                texts.append(cell.textLabel.text ?? "nil")
                queue.recycle(cell)
            }
            results.withLock { $0[table] = texts }
        }
        let all = results.withLock { $0 }
        #expect(all.count == 4)
        for (_, texts) in all {
            #expect(texts.count == 2_000)
            #expect(texts[0] == "Row: 0" && texts[1] == "t1" && texts[1998] == "Row: 1998" && texts[1999] == "t1999")
        }
    }
}
