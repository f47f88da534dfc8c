// The worker side of `cellkit check`: loads one plugin, runs one cell type's hooks
// over the sample rows, and reports every step to its parent through a pipe before
// it takes it, so that a crash, an exit() or a hang names the hook and the row.

import CellKitDocuments
import CellKitModel
import CellKitRendering
import CellKitRuntime
import CellKitSupervision
import Foundation
import Glibc

/// Runs the check of one cell type in this process, writing `CheckWire` lines to `fd`.
package struct CheckWorker {
    /// The cell type to check.
    package var identifier: String
    /// Where plugins are found; the plugin under check first.
    package var options: DiscoveryOptions
    /// A table document whose rows of the type are samples too.
    package var tablePath: String?
    /// The first unit to run: units before it ran in an earlier worker.
    package var from = 0
    /// Samples left out of the reuse units.
    package var excluded: [Int] = []
    /// The pipe to the parent, as inherited.
    package var fd: Int32 = 3
    /// The frames to the parent and the capture of standard output, set up by `run()`.
    private let wire = Wire()
    /// Table rows of the type used as samples, at most.
    package var maxTableRows = 24
    /// Columns a cell gets.
    package var contentWidth = 58
    /// Whether the worker closes the sandbox, before the plugin loads.
    package var sandboxed = true
    /// Whether a part of the sandbox the kernel lacks fails the check (`--sandbox require`).
    package var sandboxRequired = false
    /// The worker's memory limit in MiB (0: none).
    package var workerMemoryMiB = Sandbox.defaultMemoryMiB
    /// What plugins may read besides the plugin files, their libraries and the table's files.
    package var allowRead: [String] = []

    /// A worker for `identifier` with plugins found by `options`.
    package init(identifier: String, options: DiscoveryOptions) {
        (self.identifier, self.options) = (identifier, options)
    }

    /// Runs the units from `from` to the end; returns the exit status (0 done; 2 the type or table cannot be used).
    package func run() -> Int32 {
        wire.watching = sandboxed
        guard wire.attach(fd) else { return 2 }
        // Hooks record where they run, in memory the sandbox's listener (outside the worker) reads
        // too, so that a call it refuses names its own hook.
        if sandboxed { _ = HookProgress.installPrivate(shared: true) }
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)  // a crash is a finding, not a core file
        let registry = CellRegistry(options: options)
        // The table is read (not its plugins loaded) before the sandbox closes: its files are what
        // the sandbox lets the worker read.
        var tableDocument: TableDocument?
        if let tablePath {
            do { tableDocument = try TableDocument(contentsOf: tablePath) } catch { return fail("\(error)") }
        }
        // The plugin's own samples of the type, read (not run) while its preview file may still be read.
        let previews = previewSamples(registry.catalog)
        if sandboxed {  // closed as a render's worker is, before the plugin's constructors run
            let catalog = registry.catalog
            var plugins = DocumentRender.pluginsNeeded(tableDocument, catalog).paths
            if let id = try? CellIdentifier(identifier), let found = catalog.registration(for: id) {
                plugins.append(catalog.plugin(at: found.pluginIndex).path)
            }
            do {
                try DocumentRender.closeSandbox(
                    tableDocument, plugins: Array(Set(plugins)).sorted(),
                    allowRead: allowRead + [options.cacheFile].compactMap { $0 },
                    memoryMiB: workerMemoryMiB, required: sandboxRequired, watching: true,
                    allowUnsafePermissions: options.allowUnsafePermissions)
            } catch {
                return fail("\(error)")
            }
            for note in Sandbox.unapplied {
                var message = CheckMessage()
                message.warnings = [note]
                send(message)
            }
        }
        mark(-1, CheckWire.load, sample: -1)
        let type: CellType
        do { type = try registry.cellType(named: identifier) } catch {
            return fail(error.description)
        }
        checkOutput()
        let misses = registry.nearMisses(for: type)
        if !misses.isEmpty {
            var message = CheckMessage()
            message.nearMisses = misses.map(\.description)
            send(message)
        }
        var samples: [CheckSample] = []
        var skipped = 0
        var document: TableDocument?
        var section = 0
        if tablePath != nil {
            mark(-1, CheckWire.table, sample: -1)
            let started = Date()
            defer {
                var message = CheckMessage()
                message.tableSeconds = Date().timeIntervalSince(started)
                send(message)
            }
            do {
                guard let doc = tableDocument else { return fail("the table could not be read") }
                let table = try DocumentTable(doc, registry: registry)
                document = doc
                section = table.numberOfSections()
                for s in 0..<table.numberOfSections() {
                    let info = table.sectionInfo(s)
                    let count = try table.numberOfRows(inSection: s)
                    for r in 0..<count {
                        let row = try table.row(at: IndexPath(section: s, row: r))
                        guard row.identifier == identifier else { continue }
                        guard samples.count < maxTableRows else {
                            skipped += 1
                            continue
                        }
                        samples.append(
                            CheckSample(
                                label: CheckSample.tableLabel, indexPath: IndexPath(section: s, row: r),
                                rowsInSection: count, style: info.cellStyle, selectable: info.selectable,
                                data: row.data))
                    }
                }
            } catch {
                return fail("\(error)")
            }
        }
        samples += CheckSample.synthesized(section: section, previews: previews)
        // A tag-0 lookup is told at once: a crash that dereferences its NULL would lose a message sent later.
        nonisolated(unsafe) let worker = self
        let context = CellContext(
            stylesheet: document?.stylesheet ?? Stylesheet(), recordingKeys: true,
            tagZeroLookup: {
                var message = CheckMessage()
                message.tagZero = true
                worker.send(message)
            })
        context.contentWidth = contentWidth
        let probe = HookProbe(type: type, context: context)
        // Rows that vary every key the hooks read on typical data, so that reuse is tested where it
        // matters even without --table (a probe dequeue; a crash in it is reported, and the next
        // worker goes without: `excluded` holds -1).
        if !excluded.contains(-1), let typical = probeBase(samples) {
            samples += probeKeys(samples[typical], sample: typical, type: type, registry: registry, context: context)
        }
        let sweepStart = samples.count
        var plan = CheckPlan(
            identifier: identifier, hooks: HookKind.inRoutineOrder.filter(probe.has), samples: samples,
            excluded: excluded)
        plan.tableRowsSkipped = skipped
        var message = CheckMessage()
        message.plan = plan
        send(message)

        var run = Run(
            worker: self, registry: registry, type: type, probe: probe, context: context,
            layout: CellLayout(assets: document?.assets ?? AssetCatalog()), samples: samples)
        let pairs = plan.pairs
        let sampled = samples.count + pairs.count
        for unit in min(from, sampled)..<sampled {
            switch plan.unit(unit, pairs: pairs) {
            case .fresh(let i): run.fresh(unit, i)
            case .reuse(let from, let row): run.reuse(unit, from: from, row: row)
            }
            run.sendWarnings()
        }
        if skipped > 0, let document {
            // The table's rows past the samples, each through the routine as a render draws them:
            // a fault at any row of the table is found, not only at the rows sampled.
            do {
                try run.sweep(
                    document, registry: registry, firstUnit: sampled, from: max(from, sampled), base: sweepStart)
            } catch {
                return fail("\(error)")
            }
        }
        var done = CheckMessage()
        done.done = true
        send(done)
        return 0
    }

    /// The typical sample whose keys the probe varies: of the plugin's previews the one with the most
    /// top-level keys (the first of those), else CellKit's typical data; nil when there is none.
    private func probeBase(_ samples: [CheckSample]) -> Int? {
        func keys(_ i: Int) -> Int { if case .object(let fields) = samples[i].data { fields.count } else { 0 } }
        return samples.indices.filter { CheckSample.isTypical(samples[$0].label) }.max {
            keys($0) < keys($1) || (keys($0) == keys($1) && $0 > $1)
        }
    }

    /// The samples the plugin providing the type ships for it (`PluginFile.previews()`); none when no
    /// plugin provides it (loading then fails and says why).
    private func previewSamples(_ catalog: Catalog) -> [PreviewSample] {
        guard let id = try? CellIdentifier(identifier), let found = catalog.registration(for: id) else { return [] }
        return catalog.plugin(at: found.pluginIndex).previews().samples(for: identifier)
    }

    /// Runs the routine once on `base` (sample `sample`) and returns samples that each change one
    /// key the hooks read (`CheckSample.varied`).
    private func probeKeys(
        _ base: CheckSample, sample: Int, type: CellType, registry: CellRegistry, context: CellContext
    ) -> [CheckSample] {
        mark(-1, CheckWire.dequeue, sample: sample)
        _ = context.keysRead?.take()
        let queue = CellQueue(registry: registry, poolLimit: 1, context: context)
        let cell = queue.dequeueCell(
            type, at: base.indexPath, style: base.style, selectable: base.selectable,
            rowsInSection: base.rowsInSection, data: base.data)
        _ = queue.height(of: cell)
        _ = wire.takeOutput()  // what it printed is found, with its row, by the units
        return CheckSample.varied(base, keys: context.keysRead?.take() ?? [], firstRow: base.indexPath.row + 100)
    }

    /// The state of one worker's run.
    private struct Run {
        let worker: CheckWorker
        let registry: CellRegistry
        let type: CellType
        let probe: HookProbe
        let context: CellContext
        let layout: CellLayout
        let samples: [CheckSample]
        /// A fresh cell's properties, by sample and row width.
        var freshProperties: [[Int]: [(String, String)]] = [:]
        var reported: Set<String> = []
        var warningsSent = 0

        init(
            worker: CheckWorker, registry: CellRegistry, type: CellType, probe: HookProbe, context: CellContext,
            layout: CellLayout, samples: [CheckSample]
        ) {
            (self.worker, self.registry, self.type, self.probe) = (worker, registry, type, probe)
            (self.context, self.layout, self.samples) = (context, layout, samples)
        }

        /// Sample `i` on a new cell, each hook on its own, timed.
        mutating func fresh(_ unit: Int, _ i: Int) {
            let s = samples[i]
            let cell = probe.makeCell(
                at: s.indexPath, style: s.style, selectable: s.selectable, rowsInSection: s.rowsInSection,
                data: s.data)
            var times: [String: [UInt64]] = [:]
            var height: Double?
            // Each hook on its own, in the routine's order (the hook table's `moment`): those that run
            // before a cell is recycled, then the layout, then the others.
            for kind in HookKind.inRoutineOrder where kind.row.moment < .cellRecycled && probe.has(kind) {
                let answer = call(kind, on: cell, unit: unit, sample: i, times: &times)
                if kind.returnsValue {
                    let automatic = answer == Cell.automaticDimension && cell.knowsAutomaticDimension
                    if answer != 0, !automatic, !(answer >= 1 && answer <= Double(PluginLimits.maxRowHeight)) {
                        var message = CheckMessage()
                        message.badHeight = .init(sample: i, answer: "\(answer)")
                        worker.send(message)
                    }
                    height = answer >= 1 || automatic ? answer : nil
                }
            }
            let lines = (height ?? cell.rowHeight).flatMap(TableRenderer.fixedLines)
            _ = layout.layout(cell, width: worker.contentWidth, height: lines)
            for kind in HookKind.inRoutineOrder where kind.row.moment >= .cellRecycled && probe.has(kind) {
                _ = call(kind, on: cell, unit: unit, sample: i, times: &times)
            }
            var message = CheckMessage()
            message.times = times
            worker.send(message)
            rightToLeft(unit, i)
        }

        /// Sample `i` through the routine on a new cell left to right, then on another right to left
        /// (its hooks read `CK_CELL_LAYOUT_DIRECTION` as a render's do in a `direction: rtl` section),
        /// both laid out: sends a `rightToLeft` message when views overlap, or a subview is cut, only
        /// right to left (a subview placed by hand beside one placed with a mask, which mirrors).
        private func rightToLeft(_ unit: Int, _ i: Int) {
            func drawn(_ direction: TextDirection) -> RowLayout {
                context.direction = direction
                defer { context.direction = .ltr }
                let queue = CellQueue(registry: registry, poolLimit: 1, context: context)
                queue.rowWidth = worker.contentWidth
                let cell = dequeue(queue, i, unit: unit, hook: CheckWire.dequeue)
                let lines = height(queue, cell, unit: unit, sample: i).flatMap(TableRenderer.fixedLines)
                return layout.layout(cell, width: worker.contentWidth, height: lines)
            }
            let ltr = drawn(.ltr), rtl = drawn(.rtl)
            let problems = RowLayout.rightToLeftProblems(ltr: ltr, rtl: rtl)
            guard !problems.overlaps.isEmpty || !problems.clipped.isEmpty else { return }
            var message = CheckMessage()
            message.rightToLeft = .init(sample: i, overlaps: problems.overlaps, clipped: problems.clipped)
            worker.send(message)
        }

        private func call(
            _ kind: HookKind, on cell: Cell, unit: Int, sample: Int, times: inout [String: [UInt64]]
        ) -> Double {
            worker.mark(unit, kind.prefix, sample: sample)
            let start = DispatchTime.now().uptimeNanoseconds
            let answer = probe.run(kind, on: cell) ?? 0
            times[kind.prefix, default: []].append(DispatchTime.now().uptimeNanoseconds - start)
            worker.checkOutput()
            if let error = cell.lastError {
                var message = CheckMessage()
                message.hostError = .init(hook: kind, sample: sample, message: error)
                worker.send(message)
            }
            return answer
        }

        /// Sample `row` through the routine on the cell sample `from` used, compared with `row` on a new cell.
        mutating func reuse(_ unit: Int, from: Int, row: Int) {
            let queue = CellQueue(registry: registry, poolLimit: 1, context: context)
            queue.rowWidth = worker.contentWidth
            let first = dequeue(queue, from, unit: unit, hook: CheckWire.dequeue)
            _ = height(queue, first, unit: unit, sample: from)
            _ = layout.layout(first, width: worker.contentWidth, height: nil)
            mark(before: .recycle, unit: unit, sample: from)
            queue.recycle(first)
            worker.checkOutput()
            // Every other reuse is shown at another width, as a resized browse shows it: the cell must
            // follow (autoresizing masks, layoutSubviewsFor) and keep its subviews in its content view.
            let width = Self.widths[unit % Self.widths.count]
            (queue.rowWidth, context.contentWidth) = (width, width)
            defer { context.contentWidth = worker.contentWidth }
            let reused = dequeue(queue, row, unit: unit, hook: CheckRole.showsRow.hook.prefix)
            if width != worker.contentWidth {
                // Judged against a new cell at the same width: a layout that does not fit the width at
                // all (a stylesheet's fixed frames) is no fault of reuse.
                let other = CellQueue(registry: registry, poolLimit: 1, context: context)
                other.rowWidth = width
                let fresh = dequeue(other, row, unit: unit, hook: CheckWire.dequeue)
                checkInside(reused, besides: fresh, from: worker.contentWidth, to: width, sample: row)
            }
            let reusedHeight = height(queue, reused, unit: unit, sample: row)
            guard queue.statistics(for: type).reused == 1 else { return }  // not reused: nothing to compare
            let properties = CellSnapshot.properties(of: reused, height: reusedHeight)
            let fresh: [(String, String)]
            if let known = freshProperties[[row, width]] {
                fresh = known
            } else {
                let other = CellQueue(registry: registry, poolLimit: 1, context: context)
                other.rowWidth = width
                let cell = dequeue(other, row, unit: unit, hook: CheckWire.dequeue)
                fresh = CellSnapshot.properties(of: cell, height: height(other, cell, unit: unit, sample: row))
                freshProperties[[row, width]] = fresh
            }
            // Shown at another width, frames are judged by `checkInside` (a resized frame may differ from a
            // new cell's by a column of rounding and still be right).
            let resized = width != worker.contentWidth
            for (property, reusedValue, freshValue) in CellSnapshot.differences(properties, fresh)
            where !(resized && property.hasSuffix(".frame")) && reported.insert(property).inserted {
                var message = CheckMessage()
                message.difference = ReuseDifference(
                    property: property, reused: reusedValue, fresh: freshValue, from: from, row: row)
                worker.send(message)
            }
        }

        /// The row widths reuses are shown at in turn: the worker's, narrower, wider.
        static let widths = [58, 40, 90]

        /// Sends an `outside` message for each visible subview of `cell`, shown `to` columns wide after
        /// it was laid out `from` wide, that lies outside its content view where the same subview of
        /// `fresh`, a new cell made at `to`, does not.
        private func checkInside(_ cell: Cell, besides fresh: Cell, from: Int, to: Int, sample: Int) {
            let content = cell.subviewWidth(inRowWidth: to)
            func outside(_ view: View) -> Bool {
                !view.isHidden && view.frame.width > 0
                    && (view.frame.x < 0 || view.frame.x + view.frame.width > content)
            }
            let freshOutside = Set(fresh.subviews.filter(outside).map(\.tag))
            for view in cell.subviews where outside(view) && !freshOutside.contains(view.tag) {
                let f = view.frame
                var message = CheckMessage()
                message.outside = .init(
                    tag: view.tag, frame: "x \(f.x), width \(f.width)", contentWidth: content, from: from, to: to,
                    sample: sample)
                worker.send(message)
            }
        }

        private func dequeue(_ queue: CellQueue, _ i: Int, unit: Int, hook: String) -> Cell {
            let s = samples[i]
            worker.mark(unit, hook, sample: i)
            defer { worker.checkOutput() }
            return queue.dequeueCell(
                type, at: s.indexPath, style: s.style, selectable: s.selectable, rowsInSection: s.rowsInSection,
                data: s.data)
        }

        private func height(_ queue: CellQueue, _ cell: Cell, unit: Int, sample: Int) -> Double? {
            guard mark(before: .height, unit: unit, sample: sample) else { return queue.height(of: cell) }
            defer { worker.checkOutput() }
            return queue.height(of: cell)
        }

        /// Marks each hook of the type that the queue's `call` runs (`CheckRole.queueCall`), before
        /// the call, so that a fault in it names the hook; whether it marked any.
        @discardableResult
        private func mark(before call: CheckRole.QueueCall, unit: Int, sample: Int) -> Bool {
            var marked = false
            for kind in HookKind.inRoutineOrder where CheckRole(kind).queueCall == call && probe.has(kind) {
                worker.mark(unit, kind.prefix, sample: sample)
                marked = true
            }
            return marked
        }

        /// Runs the table's rows of the type past the first `maxTableRows` (unit `firstUnit + k` for
        /// the k-th), from unit `from`, through one queue, as a render would; marks name each row
        /// (sample `base + k`, with its place).
        mutating func sweep(
            _ document: TableDocument, registry: CellRegistry, firstUnit: Int, from: Int, base: Int
        ) throws {
            let table = try DocumentTable(document, registry: registry)
            let queue = CellQueue(registry: registry, context: context)
            var k = 0, seen = 0
            for s in 0..<table.numberOfSections() {
                let info = table.sectionInfo(s)
                let count = try table.numberOfRows(inSection: s)
                for r in 0..<count {
                    let path = IndexPath(section: s, row: r)
                    let row = try table.row(at: path)
                    guard row.identifier == worker.identifier else { continue }
                    seen += 1
                    guard seen > worker.maxTableRows else { continue }
                    defer { k += 1 }
                    let unit = firstUnit + k
                    guard unit >= from else { continue }
                    worker.mark(unit, CheckWire.routine, sample: base + k, place: CheckPlan.tableRowName(path))
                    let cell = queue.dequeueCell(
                        type, at: path, style: info.cellStyle, selectable: info.selectable, rowsInSection: count,
                        data: row.data)
                    worker.checkOutput()
                    if let error = cell.lastError {
                        var message = CheckMessage()
                        message.hostError = .init(hook: CheckRole.showsRow.hook, sample: base + k, message: error)
                        worker.send(message)
                    }
                    mark(before: .height, unit: unit, sample: base + k)
                    let height = queue.height(of: cell)
                    _ = layout.layout(cell, width: worker.contentWidth, height: height.map(TableRenderer.rowLines))
                    mark(before: .recycle, unit: unit, sample: base + k)
                    queue.recycle(cell)
                    worker.checkOutput()
                    sendWarnings()
                }
            }
        }

        /// Sends the context's warnings not sent yet.
        mutating func sendWarnings() {
            let warnings = context.warnings
            guard warnings.count > warningsSent else { return }
            var message = CheckMessage()
            message.warnings = Array(warnings[warningsSent...])
            warningsSent = warnings.count
            worker.send(message)
        }
    }

    // MARK: The pipe

    /// Says that `hook` is about to run for `sample` in `unit`. What the sandbox refuses from here
    /// on is the supervisor's to see: its listener reports to it, and the supervisor names each
    /// refusal by the hook the progress record shows, else by this mark.
    func mark(_ unit: Int, _ hook: String, sample: Int, place: String? = nil) {
        wire.lastMark = (hook, sample)
        wire.marks += 1
        HookProgress.record?.pointee.step = Int64(wire.marks)  // the listener names refusals by it
        let text = "\(unit) \(hook) \(sample)" + (place.map { " " + $0 } ?? "")
        wire.send(Frame(kind: CheckWire.mark, payload: Array(text.utf8)))
    }

    /// Sends `message` as JSON.
    func send(_ message: CheckMessage) {
        guard let data = try? JSONEncoder().encode(message) else { return }
        wire.send(Frame(kind: CheckWire.message, payload: Array(data)))
    }

    /// Reports what the hook marked last wrote to standard output, if anything.
    func checkOutput() {
        guard let text = wire.takeOutput(), let (hook, sample) = wire.lastMark else { return }
        var message = CheckMessage()
        message.output = .init(hook: hook, sample: sample, text: text)
        send(message)
    }

    private func fail(_ reason: String) -> Int32 {
        var message = CheckMessage()
        message.failure = reason
        send(message)
        return 2
    }

    /// The worker's frames to its parent, and standard output made a pipe it reads itself: a
    /// hook's `printf` is caught, after each hook, and named.
    final class Wire {
        var sender: FrameSender?
        var capture: Int32 = -1
        /// Whether standard output is watched by the sandbox's filter rather than captured by a pipe.
        var watching = false
        var lastMark: (String, Int)?
        /// Marks sent: the step the progress record names.
        var marks = 0

        /// Takes over the parent's pipe at `fd` (moved high) with the key from `CheckWire.keyFD`,
        /// and puts a pipe of its own at standard output.
        func attach(_ fd: Int32) -> Bool {
            guard WorkerRole.isSharedMemory(CheckWire.keyFD, named: CheckWire.keyName),
                let channel = WorkerChannel(adopting: fd)
            else { return false }
            var digits = [UInt8](repeating: 0, count: 32)
            let n = digits.withUnsafeMutableBytes { read(CheckWire.keyFD, $0.baseAddress, $0.count) }
            close(CheckWire.keyFD)
            guard n > 0, let key = UInt64(String(decoding: digits[..<n], as: UTF8.self)) else { return false }
            sender = FrameSender(channel: channel, key: key)
            // In the sandbox standard output stays what a render's worker has (the supervisor's
            // standard error), so a plugin cannot tell a check by it: the filter watches it.
            guard !watching else { return true }
            var ends: [Int32] = [0, 0]
            if pipe(&ends) == 0 {
                for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
                _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
                dup2(ends[1], 1)
                close(ends[1])
                capture = ends[0]
            }
            return true
        }

        func send(_ frame: Frame) { sender?.send(frame) }

        /// What was written to standard output since the last call (at most 200 bytes kept), or nil.
        func takeOutput() -> String? {
            fflush(nil)  // a plugin's printf sits in the C library's buffer until then
            if watching { return nil }  // the sandbox's listener reports it to the supervisor
            guard capture >= 0 else { return nil }
            var kept: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(capture, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { break }
                if kept.count < 200 { kept += buffer[..<min(n, 200 - kept.count)] }
            }
            return kept.isEmpty ? nil : String(decoding: kept, as: UTF8.self)
        }
    }
}
