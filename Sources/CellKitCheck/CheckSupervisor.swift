// The parent side of `cellkit check`: starts a worker process for a cell type, reads
// what it reports, kills it when a hook runs past the timeout, and turns a worker's
// death (a signal, an exit(), a timeout) into a finding that names the hook and row,
// then starts a new worker after the unit that failed. The parent never runs plugin code.

import CellKitDocuments
import CellKitModel
import CellKitRendering
import CellKitRuntime
import CellKitSupervision
import CellKitText
import Foundation
import Glibc

/// Something a check found that makes the plugin not clean.
package struct CheckFinding: Codable, Sendable, Equatable {
    /// What kind: crash, exit, timeout, hostCall, limit, height, reuse, load, nearMiss, stdout, dataType, channel, noCustomize.
    package var kind: String
    /// The hook concerned, as its symbol; nil when none is known.
    package var hook: String?
    /// The row concerned ("row 1.3 (indexPath [0, 2]) with typical data"); nil when none.
    package var row: String?
    /// One line saying what happened and, where it can, how to fix it.
    package var message: String
}

/// A hook's time per call over the fresh units.
package struct HookTiming: Codable, Sendable {
    /// The hook's symbol.
    package var hook: String
    /// Calls timed.
    package var calls: Int
    /// The median, in microseconds.
    package var medianMicroseconds: Double
    /// The 99th percentile, in microseconds.
    package var p99Microseconds: Double
}

/// What a check found for one cell type.
package struct CheckTypeReport: Codable, Sendable {
    /// The cell type.
    package var identifier: String
    /// Its hooks' symbols.
    package var hooks: [String] = []
    /// The sample rows, "row 1.1 (indexPath [0, 0]) with empty data".
    package var samples: [String] = []
    /// Table rows of the type past the samples: each run once through the routine, after the samples.
    package var tableRowsSkipped = 0
    /// The names of the plugin's preview samples run as typical data; empty when the plugin ships none for
    /// the type, and CellKit's own typical data was run.
    package var previews: [String] = []
    /// Everything that makes the plugin not clean.
    package var findings: [CheckFinding] = []
    /// What is worth knowing but is not a fault: data reads that found no value, missing images.
    package var notes: [String] = []
    /// Time per call of each hook.
    package var timings: [HookTiming] = []
    /// Units run to the end, and planned.
    package var unitsRun = 0, unitsPlanned = 0
    /// Units that ended in a crash, exit, timeout or broken channel (`unitsRun` counts the others);
    /// the rest of `unitsPlanned` were not run.
    package var unitsFaulted = 0
    /// Workers started (one more after each crash, exit or timeout).
    package var workers = 0
    /// Why the type could not be checked (the table or the type cannot be used); nil when it was.
    package var error: String?
    /// Seconds reading `--table` took, timed apart from the hooks; nil without a table.
    package var tableReadSeconds: Double?
}

/// Runs the worker for one cell type and watches it.
package struct CheckSupervisor {
    /// The program to start: the command itself (`/proc/self/exe`).
    package var executable: String
    /// The worker's arguments for a run from unit `from` with `excluded` samples.
    package var arguments: @Sendable (_ from: Int, _ excluded: [Int]) -> [String]
    /// Seconds a hook may run before its worker is killed.
    package var hookTimeout: Double
    /// Crashes, exits and timeouts after which the type's check stops.
    package var maxFatal = 3
    /// Whether the plugin is built from Swift (`ELFImage.isSwift`): a missing hook is then
    /// explained by the rule a release build applies (`NearMiss.swiftPublicRule`).
    package var swiftPlugin = false

    /// A supervisor starting `executable` with `arguments`, killing a worker whose hook runs past `hookTimeout` seconds.
    package init(
        executable: String, hookTimeout: Double, arguments: @escaping @Sendable (Int, [Int]) -> [String]
    ) {
        (self.executable, self.hookTimeout, self.arguments) = (executable, hookTimeout, arguments)
    }

    /// How a worker ended.
    enum Ending: Equatable {
        case exited(Int32), signaled(Int32), timedOut
        /// The worker's channel carried what its own code did not write (a plugin's).
        case channel(String)
    }

    /// Checks the cell type `identifier`.
    package func run(identifier: String) -> CheckTypeReport {
        var report = CheckTypeReport(identifier: identifier)
        var state = State(identifier: identifier)
        var from = 0, excluded: [Int] = [], fatal = 0
        while true {
            report.workers += 1
            let (ending, last) = runWorker(from: from, excluded: excluded, state: &state, report: &report)
            if state.done || report.error != nil { break }
            if let last, last.unit == -1, last.hook == CheckWire.dequeue, !excluded.contains(-1) {
                // The key probe (typical data, before the plan) faulted: the next worker goes without
                // it, and the same fault is found, with its row, by the units.
                excluded.append(-1)
                continue
            }
            fatal += 1
            state.findings.append(state.fatal(ending, at: last, timeout: hookTimeout))
            guard let plan = state.plan, let last, last.unit >= 0 else { break }
            if last.unit < plan.samples.count { excluded.append(last.unit) }
            from = last.unit + 1
            var next = plan
            next.excluded = excluded
            if fatal >= maxFatal, from < next.unitCount {
                report.notes.append(
                    "stopped after \(fatal) crashes, exits or timeouts: the \(next.unitCount - from) units after the last one that faulted were not run"
                )
                break
            }
            if from >= next.unitCount { break }
        }
        if let plan = state.plan {
            for kind in HookKind.allCases where !plan.hooks.contains(kind) {
                let hook = kind.prefix + identifier
                switch CheckRole(kind) {
                case .showsRow:  // e.g. a static customize hook in a stripped file
                    report.findings.append(
                        CheckFinding(
                            kind: "noCustomize", hook: nil, row: nil,
                            message:
                                "the type has no \(hook) hook, so every row shows only what its other hooks set, whatever its data; "
                                + (swiftPlugin
                                    ? "export \(hook): \(NearMiss.swiftPublicRule)"
                                    : "export \(hook) (CK_EXPORT in C, public @_cdecl in Swift)")
                        ))
                case .makesCell, .followsWidth, .answersHeight, .resetsCell:
                    break  // a type may do without it
                }
            }
            report.hooks = plan.hooks.map(plan.symbol)
            report.samples = plan.samples.indices.map(plan.name)
            report.previews = plan.previewNames
            report.tableRowsSkipped = plan.tableRowsSkipped
            report.unitsPlanned = plan.unitCount
            report.timings = plan.hooks.compactMap { hook in
                guard let times = state.times[hook.prefix], !times.isEmpty else { return nil }
                let sorted = times.sorted()
                let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
                return HookTiming(
                    hook: plan.symbol(hook), calls: sorted.count,
                    medianMicroseconds: Double(sorted[sorted.count / 2]) / 1000, p99Microseconds: Double(p99) / 1000)
            }
        }
        report.unitsRun = state.unitsRun
        report.unitsFaulted = fatal
        report.findings += state.findings
        report.notes = state.notes + report.notes
        return report
    }

    /// Where a worker was: the unit, the hook (or routine step) and the sample.
    struct Mark {
        var unit: Int, hook: String, sample: Int
    }

    /// What the workers of one type reported, across restarts.
    struct State {
        let identifier: String
        var plan: CheckPlan?
        var times: [String: [UInt64]] = [:]
        var findings: [CheckFinding] = []
        var notes: [String] = []
        var seen: Set<String> = []
        var done = false
        var unitsRun = 0
        /// The step (counted from 1 in this worker's marks) in which a hook last looked up tag 0, or nil.
        var tagZeroStep: Int?
        /// Marks this worker sent: the step running when it ended.
        var stepsMarked = 0
        /// Where the table rows past the samples are (`CheckPlan.tableRowName`), by their sample number.
        var places: [Int: String] = [:]

        init(identifier: String) { self.identifier = identifier }

        mutating func note(_ text: String) {
            if seen.insert(text).inserted, notes.count < 40 { notes.append(text) }
        }

        mutating func find(_ finding: CheckFinding, key: String) {
            if seen.insert(key).inserted { findings.append(finding) }
        }

        func row(_ sample: Int) -> String? {
            if let place = places[sample] { return place }
            guard let plan, plan.samples.indices.contains(sample) else { return nil }
            return plan.name(sample)
        }

        /// The hooks a dequeue runs (up to `rowShown` in the hook table), "initCellForFoo/customizeCellForFoo".
        var routine: String {
            HookKind.inRoutineOrder.filter { $0.row.moment <= .rowShown }.map { $0.prefix + identifier }
                .joined(separator: "/")
        }

        func symbol(_ hook: String) -> String {
            switch hook {
            case CheckWire.load: "loading the plugin (cellkit_plugin_init)"
            case CheckWire.table: "reading the table (--table)"
            case CheckWire.dequeue: "\(routine) (the routine, new cell)"
            case CheckWire.routine: "\(routine) (the routine)"
            default: hook + identifier
            }
        }

        mutating func receive(_ message: CheckMessage, report: inout CheckTypeReport) {
            if let plan = message.plan { self.plan = plan }
            if let times = message.times { for (hook, t) in times { self.times[hook, default: []] += t } }
            if let e = message.hostError {
                let hook = e.hook.prefix + identifier
                let row = row(e.sample) ?? "a row"
                // The host names the row by its place in check's table: the finding names it already.
                let said =
                    plan.flatMap { plan in
                        plan.samples.indices.contains(e.sample) && !plan.isTableRow(e.sample)
                            ? e.message.replacingOccurrences(of: " in \(plan.samples[e.sample].row)", with: "") : nil
                    } ?? e.message
                let realistic = plan.map { $0.isTypical(e.sample) || $0.isTableRow(e.sample) } ?? false
                if HookProbe.isWrongType(said), realistic {
                    // A hostile sample has every key of the wrong type on purpose; typical data and
                    // the table's own rows do not: there a read of the wrong type is a bug.
                    find(
                        CheckFinding(
                            kind: "dataType", hook: hook, row: row,
                            message:
                                "\(hook) read the row's data as the wrong type at \(row): \(said); read it with the type the data has, or convert it"
                        ), key: "type \(hook) \(said)")
                } else if HookProbe.isDataRead(said) {
                    // A key missing from a realistic row (the table's, typical data) is an optional key
                    // left out, as real data does: the hook handled it, nothing to note.
                    if !(realistic && HookProbe.isMissingValue(said)) {
                        note("\(hook) at \(row): a data read failed (handled through its status): \(said)")
                    }
                } else {
                    find(
                        CheckFinding(
                            kind: "hostCall", hook: hook, row: row,
                            message: "\(hook) made a host call that failed at \(row): last_error: \(said)"),
                        key: "host \(hook) \(said)")
                }
            }
            for warning in message.warnings ?? [] {
                if warning.hasPrefix("image '") || warning.hasPrefix("sandbox: ") {  // what a kernel lacks is no fault
                    note(warning)
                } else {
                    find(CheckFinding(kind: "limit", hook: nil, row: nil, message: warning), key: "warning \(warning)")
                }
            }
            if let o = message.outside {
                let hook = CheckRole.followsWidth.hook.prefix + identifier
                let row = row(o.sample) ?? "a row"
                find(
                    CheckFinding(
                        kind: "layout", hook: nil, row: row,
                        message:
                            "a reused cell laid out \(o.from) columns wide and shown \(o.to) wide keeps subview tag \(o.tag) at \(o.frame), outside its content view (\(o.contentWidth) columns) at \(row); give it an autoresizing mask (CK_VIEW_AUTORESIZING_MASK) or place it in \(hook)"
                    ), key: "outside \(o.tag)")
            }
            if let r = message.rightToLeft {
                let row = row(r.sample) ?? "a row"
                let fix =
                    "give every subview of the row an autoresizing mask (CK_VIEW_AUTORESIZING_MASK: a masked "
                    + "subview mirrors, one without keeps its frame), or place them all by ck_cell_is_right_to_left"
                    + "(cell) with no mask"
                for pair in r.overlaps {
                    find(
                        CheckFinding(
                            kind: "rightToLeft", hook: nil, row: row,
                            message:
                                "right to left (direction: rtl), cell type \(identifier)'s \(pair.joined(separator: " overlaps ")) at \(row), which left to right do not overlap; \(fix)"
                        ), key: "rtl overlap \(pair)")
                }
                for view in r.clipped {
                    find(
                        CheckFinding(
                            kind: "rightToLeft", hook: nil, row: row,
                            message:
                                "right to left (direction: rtl), cell type \(identifier)'s \(view) is cut at \(row), which left to right shows whole; \(fix)"
                        ), key: "rtl clipped \(view)")
                }
            }
            if let bad = message.badHeight {
                let hook = CheckRole.answersHeight.hook.prefix + identifier
                find(
                    CheckFinding(
                        kind: "height", hook: hook, row: row(bad.sample),
                        message:
                            "\(hook) returned \(bad.answer) at \(row(bad.sample) ?? "a row"); rows are 1 to \(PluginLimits.maxRowHeight) lines tall (0: the table's default)"
                    ), key: "height")
            }
            if let d = message.difference, let plan {
                let shows = CheckRole.showsRow.hook
                let customize = (plan.hooks.contains(shows) ? shows : CheckRole.makesCell.hook).prefix + identifier
                let prepare = CheckRole.resetsCell.hook.prefix + identifier
                find(
                    CheckFinding(
                        kind: "reuse", hook: customize, row: plan.name(d.row),
                        message:
                            "\(customize) leaves \(d.property) = \(d.reused) from \(plan.name(d.from)) on \(plan.name(d.row)) (a new cell has \(d.fresh)): reset it in \(customize) or in \(prepare)"
                    ), key: "reuse \(d.property)")
            }
            for miss in message.nearMisses ?? [] {
                find(
                    CheckFinding(kind: "nearMiss", hook: nil, row: nil, message: TextSanitizer.visible(miss)),
                    key: "near \(miss)")
            }
            if let output = message.output {
                let hook = symbol(output.hook)
                let text = CellSnapshot.quoted(output.text)
                find(
                    CheckFinding(
                        kind: "stdout", hook: hook, row: row(output.sample),
                        message:
                            "\(hook) wrote to standard output at \(row(output.sample) ?? "a row") (\(text)): in a render that is the table's stream; write to standard error, or not at all"
                    ), key: "stdout")
            }
            if let refused = message.refused {
                let hook = symbol(refused.hook)
                let place = refused.sample < 0 ? "while loading" : "at \(row(refused.sample) ?? "a row")"
                for act in refused.acts {
                    find(
                        CheckFinding(
                            kind: "sandbox", hook: hook, row: refused.sample < 0 ? nil : row(refused.sample),
                            message:
                                "\(hook) tried to \(act) \(place): refused by the sandbox; a cell plugin must not "
                                + "start processes, run programs, open sockets or touch files outside its sandbox "
                                + "(see SECURITY.md)"),
                        key: "sandbox \(act)")
                }
            }
            if let seconds = message.tableSeconds { report.tableReadSeconds = seconds }
            if let failure = message.failure { report.error = failure }
            if message.done == true { done = true }
        }

        /// The finding for a worker that ended without finishing, in `last`.
        func fatal(_ ending: Ending, at last: Mark?, timeout: Double) -> CheckFinding {
            let hook = last.map { symbol($0.hook) }
            var place = ""
            if let last, let row = row(last.sample) {
                place = " at \(row)"
                if let plan, last.unit >= plan.samples.count + plan.pairs.count {
                    // a table row past the samples: its place says it all
                } else if let plan, last.unit >= plan.samples.count {
                    let pair = plan.pairs[last.unit - plan.samples.count]
                    if last.sample == pair.row, last.hook != CheckWire.dequeue {
                        place += " on a cell reused from \(plan.name(pair.from))"
                    } else if let kind = HookKind(prefix: last.hook), CheckRole(kind).queueCall == .recycle {
                        place += ", recycling its cell"
                    }
                } else {
                    place += " on a new cell"
                }
            }
            let who = hook ?? "the worker, before any hook ran,"
            switch ending {
            case .signaled(let signal):
                // A lookup of tag 0 in the step that crashed: the NULL it returned is the likely cause.
                let tagZero =
                    tagZeroStep != nil && tagZeroStep == stepsMarked
                    ? "; it looked up tag 0 just before: view_with_tag(cell, 0) returns NULL (0 is every view's "
                        + "default tag, so no subview has it): number subviews from 1, and check the view for NULL"
                    : ""
                return CheckFinding(
                    kind: "crash", hook: hook, row: last.flatMap { row($0.sample) },
                    message: "\(who) crashed with \(Self.signalName(signal))\(place)\(tagZero)")
            case .exited(let status):
                return CheckFinding(
                    kind: "exit", hook: hook, row: last.flatMap { row($0.sample) },
                    message: "\(who) called exit(\(status))\(place): a plugin must return, never end the process")
            case .channel(let what):
                return CheckFinding(
                    kind: "channel", hook: hook, row: last.flatMap { row($0.sample) },
                    message:
                        "\(who) wrote to cellkit's channel to its worker\(place) (it sent \(what)): a plugin must not touch descriptors it did not open"
                )
            case .timedOut:
                let limit = last?.hook == CheckWire.table ? max(timeout, CheckWire.tableSeconds) : timeout
                let seconds = limit == limit.rounded() ? "\(Int(limit))" : "\(limit)"
                return CheckFinding(
                    kind: "timeout", hook: hook, row: last.flatMap { row($0.sample) },
                    message: "\(who) did not return within \(seconds) s\(place); its worker was killed")
            }
        }

        static func signalName(_ signal: Int32) -> String {
            let names: [Int32: String] = [
                SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGABRT: "SIGABRT", SIGFPE: "SIGFPE", SIGILL: "SIGILL",
                SIGKILL: "SIGKILL", SIGTRAP: "SIGTRAP", SIGTERM: "SIGTERM", SIGPIPE: "SIGPIPE", SIGSYS: "SIGSYS",
            ]
            return "\(names[signal] ?? "signal \(signal)") (signal \(signal))"
        }
    }

    // MARK: One worker

    /// Starts a worker from unit `from`, reads it to its end; how it ended and the last step it began.
    private func runWorker(
        from: Int, excluded: [Int], state: inout State, report: inout CheckTypeReport
    ) -> (Ending, Mark?) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            report.error = "cannot make a pipe: \(String(cString: strerror(errno)))"
            return (.exited(-1), nil)
        }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }  // fd 3 in the worker is a dup2: not close-on-exec
        let key = WorkerRole.newKey()
        let worker: WorkerProcess
        // The sandbox's listener reports here what it refused: this process's own view.
        let notes = Sandbox.Report()
        do {
            worker = try spawn(arguments(from, excluded), pipe: fds[1], key: key, report: notes?.writeEnd ?? -1)
        } catch {
            close(fds[0])
            close(fds[1])
            report.error = "\(error)"
            return (.exited(-1), nil)
        }
        close(fds[1])
        notes?.closeWriteEnd()
        defer {
            close(fds[0])
            worker.finish()  // its process group, and whatever it left behind
        }
        var decoder = FrameDecoder(key: key)
        var watcher = Watcher(state: state, report: report, hookTimeout: hookTimeout, notes: notes)
        let ending: Ending
        do {
            let watched = try WorkerWatch.run(worker, channel: fds[0], decoder: &decoder, watcher: &watcher, tick: 100)
            switch (watched.stop, watched.status) {
            case (.timedOut, _): ending = .timedOut
            case (.malformed(let what), _), (.fault(let what), _), (.stalled(let what), _): ending = .channel(what)
            case (.closed, _): ending = .channel("nothing more: its channel was closed")
            case (nil, .exit(let code)): ending = .exited(code)
            case (nil, .signal(let signal)): ending = .signaled(signal)
            case (nil, _): ending = .timedOut
            }
        } catch {  // the watcher throws nothing else; kept for the loop's contract
            watcher.report.error = "\(error)"
            ending = .exited(-1)
        }
        watcher.takeNotes(awaiting: true)  // its listener ended: every note is in the pipe
        worker.companion = notes?.listener
        worker.finish()
        watcher.takeNotes(final: true)
        (state, report) = (watcher.state, watcher.report)
        if state.done, watcher.last != nil { state.unitsRun += 1 }
        return (ending, watcher.last)
    }

    /// What the supervisor makes of one check worker: its marks (where it is) and messages, and a
    /// deadline that each mark moves (a hook's timeout; reading the table, `CheckWire.tableSeconds`).
    private struct Watcher: WorkerWatcher {
        var state: State
        var report: CheckTypeReport
        let hookTimeout: Double
        /// The sandbox listener's notes: read before each frame, so that a refusal is named by the
        /// step it happened in (the refused call waits for the listener, which notes it first).
        let notes: Sandbox.Report?
        /// Notes of steps whose mark has not been read yet.
        private var pendingNotes: [Sandbox.Note] = []
        /// Every mark read, in order: step N is `marks[N - 1]` (nil when its text did not parse).
        private var marks: [Mark?] = []
        var last: Mark?
        /// Until the first step: the worker's own start-up, allowed more time than a hook.
        private var deadline: Date
        private var started = false

        init(state: State, report: CheckTypeReport, hookTimeout: Double, notes: Sandbox.Report?) {
            (self.state, self.report, self.hookTimeout, self.notes) = (state, report, hookTimeout, notes)
            self.state.tagZeroStep = nil  // steps are counted anew for each worker
            deadline = Date().addingTimeInterval(max(hookTimeout, 30))
        }

        /// Turns the listener's notes into findings of the step marked last: a refused call, a
        /// refused open, bytes written to standard output.
        mutating func takeNotes(final: Bool = false, awaiting: Bool = false) {
            // Held until the plan names the samples (the first dequeues run before it is sent).
            let taken = pendingNotes + ((awaiting ? notes?.awaitListener() : notes?.take()) ?? [])
            if !final, state.plan == nil {
                pendingNotes = taken
                return
            }
            pendingNotes = final ? [] : taken.filter { $0.step > marks.count }
            var seen = Set<String>()
            for note in taken where final || note.step <= marks.count {
                let step = min(note.step, marks.count)
                let mark = step > 0 ? marks[step - 1] : nil
                let hook = mark?.hook ?? CheckWire.load, sample = mark?.sample ?? -1
                var message = CheckMessage()
                switch note.kind {
                case .refused:
                    guard seen.insert((note.hook ?? hook) + " " + note.act).inserted else { continue }
                    message.refused = .init(hook: note.hook ?? hook, sample: sample, acts: [note.act])
                case .output:
                    message.output = .init(hook: note.hook ?? hook, sample: sample, text: note.act)
                }
                state.receive(message, report: &report)
            }
        }

        var isFinished: Bool { state.done }

        mutating func overdue(quiet: Double, partialBytes: Int) -> WorkerWatch.Stop? {
            Date() >= deadline ? .timedOut : nil
        }

        mutating func receive(_ frame: Frame) throws {
            takeNotes()
            if frame.kind == CheckWire.mark {
                let parts = String(decoding: frame.payload, as: UTF8.self).split(separator: " ", maxSplits: 3)
                if parts.count >= 3, let unit = Int(parts[0]), let sample = Int(parts[2]) {
                    if parts.count == 4 { state.places[sample] = String(parts[3]) }
                    if let previous = last, previous.unit != unit, previous.unit >= 0 { state.unitsRun += 1 }
                    last = Mark(unit: unit, hook: String(parts[1]), sample: sample)
                    marks.append(last)
                } else {
                    marks.append(nil)
                }
                state.stepsMarked = marks.count
                started = true
                let table = parts.count > 1 && parts[1] == CheckWire.table
                deadline = Date().addingTimeInterval(table ? max(hookTimeout, CheckWire.tableSeconds) : hookTimeout)
            } else if let message = try? JSONDecoder().decode(CheckMessage.self, from: Data(frame.payload)) {
                if message.tagZero == true { state.tagZeroStep = marks.count }
                state.receive(message, report: &report)
                if started { deadline = Date().addingTimeInterval(hookTimeout) }
            }
        }
    }

    /// A memory file named `name` holding `bytes`, above the descriptors a worker gets.
    private static func memoryFile(_ name: String, _ bytes: [UInt8]) throws -> Int32 {
        guard let made = SharedRegion.memoryFile(named: name, holding: bytes) else {
            throw SpawnError(description: "cannot hand the worker its job: \(String(cString: strerror(errno)))")
        }
        let high = fcntl(made, F_DUPFD_CLOEXEC, 10)
        close(made)
        guard high >= 0 else { throw SpawnError(description: "cannot hand the worker its job (dup)") }
        return high
    }

    struct SpawnError: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts the worker as a render's exec'd worker starts (`/proc/self/exe --cellkit-render-worker`,
    /// the same environment, standard output sent to standard error), so that a plugin cannot tell
    /// a check from a render by them: its arguments come in a memory file at `CheckWire.planFD`, its
    /// key at `CheckWire.keyFD`, the pipe's write end at fd 3. No signal blocked or ignored, the
    /// Swift runtime's crash backtracer off (a crash is a finding), in a process group of its own.
    private func spawn(_ arguments: [String], pipe: Int32, key: UInt64, report: Int32) throws -> WorkerProcess {
        let key = try Self.memoryFile(CheckWire.keyName, Array("\(key)".utf8))
        defer { close(key) }
        let plan = try Self.memoryFile(CheckWire.planName, Array(try JSONEncoder().encode(arguments)))
        defer { close(plan) }
        let environment = ["SWIFT_BACKTRACE": "enable=no"]
        let started = WorkerProcess.spawn(
            executable, [WorkerPlan.argument], setting: environment, keeping: Sandbox.reportFD + 1
        ) { actions in
            posix_spawn_file_actions_adddup2(&actions, pipe, 3)
            if report >= 0 { posix_spawn_file_actions_adddup2(&actions, report, Sandbox.reportFD) }
            posix_spawn_file_actions_adddup2(&actions, key, CheckWire.keyFD)
            posix_spawn_file_actions_adddup2(&actions, plan, CheckWire.planFD)
            posix_spawn_file_actions_adddup2(&actions, 2, 1)
        }
        switch started {
        case .success(let worker): return worker
        case .failure(let failure):
            throw SpawnError(description: "cannot start the worker \(executable): \(failure)")
        }
    }
}

extension CheckWire {
    /// In a process started as a check's worker: its arguments (`check-worker …`), with the
    /// plan's descriptor closed; nil in any other process.
    package static func workerArguments() -> [String]? {
        guard CommandLine.arguments.dropFirst().first == WorkerPlan.argument,
            WorkerRole.isSharedMemory(planFD, named: planName)
        else { return nil }
        let bytes = SharedRegion.readAll(planFD, atMost: 1 << 20)
        close(planFD)
        return try? JSONDecoder().decode([String].self, from: Data(bytes))
    }
}
