// The supervisor of an isolated render: plugin code runs in a worker process
// (forked from this one, or this executable started again with the plan in its
// environment), never here. The worker
// renders into shared memory; the supervisor writes out only finished rows. When
// the worker dies — a signal, exit(), or no progress within the hook timeout — the
// supervisor prints one line naming the plugin, the hook, the cell type and the
// row, writes the rows the worker finished, quarantines the cell type (every type
// of the plugin, for a crash while it loads) and starts a new worker that goes on
// from the row that faulted: earlier rows are skipped (their hooks never run
// again) and the faulty type's rows are drawn as placeholders.

import CellKitDocuments
import CellKitRendering
import CellKitRuntime
import Foundation

/// How an isolated render should start its workers, and what it learned from the ones that faulted.
/// An exec'd worker gets all of it as JSON in a memory file at `RenderWorker.planFD` (never in
/// its environment, where a plugin could read the key back); it is a worker only with `argument`
/// first on its command line and the supervisor's shared memory at `RenderWorker.memoryFD` too.
package struct WorkerPlan: Sendable, Codable {
    /// The first argument of an exec'd render worker.
    package static let argument = "--cellkit-render-worker"

    /// The key the worker's frames are tagged with (new for each render).
    package var key = WorkerRole.newKey()
    /// The supervisor's process id: the worker ends if its parent is another.
    package var supervisor = getpid()
    /// Bytes of a document read from standard input, left at the start of the shared output
    /// buffer for an exec'd worker; nil when the worker reads the document's file.
    package var documentBytes: Int?

    /// The executable to start (the program itself) and its arguments after `argv[0]`.
    package var executable: String
    package var arguments: [String]
    /// What to render.
    package var job: DocumentRender.Job
    /// No progress for this long in plugin code (a hook, a constructor, `cellkit_plugin_init`) kills
    /// the worker.
    package var hookTimeout: Double

    /// Rows the workers delivered; the next worker starts there.
    package var resumeAt = 0
    /// Cell types whose hooks faulted: their rows draw placeholders.
    package var quarantinedTypes: [String] = []
    /// Cell types whose plugin faulted while loading: every type of that plugin draws placeholders.
    package var quarantinedPluginsOf: [String] = []
    /// Plugin files (`libfoo.so`) a crash was placed in by address: every type they offer draws
    /// placeholders.
    package var quarantinedFiles: [String] = []
    /// Rows that faulted outside plugin code: drawn as placeholders.
    package var placeholderRows: [Int] = []
    /// Every fault so far, for the placeholder rows to carry (`RowLayout.fault`).
    package var faults: [RowFault] = []
    /// Whether the worker checks its channels after every hook (a system call each): set after a
    /// channel broke somewhere, so that the next worker stops in the very hook that breaks it.
    package var checksChannels = false
    /// Whether the supervisor sends the worker its network and IPC namespaces over
    /// `Sandbox.namespacesFD` (`Sandbox.Ahead`), to join instead of making its own.
    package var joinsNamespacesAhead = false
    /// Whether long data files are read ahead on a helper thread (`DocumentTable.readsAhead`);
    /// off after a helper crashed, so that a fault of the same bug falls on the row that has it.
    package var readsAhead = true

    /// A plan for workers `executable arguments…` that render `job`.
    package init(executable: String, arguments: [String], job: DocumentRender.Job, hookTimeout: Double) {
        (self.executable, self.arguments, self.job, self.hookTimeout) = (executable, arguments, job, hookTimeout)
    }

    /// The plan as the next exec'd worker reads it.
    var encoded: [UInt8] {
        get throws { Array(try JSONEncoder().encode(self)) }
    }
}

/// Runs a render in worker processes and writes what they draw to a sink.
package final class RenderSupervisor {
    /// How a render ended.
    package enum Ending {
        /// The table is complete; `faults` workers faulted on the way (0: none).
        case complete(faults: Int)
        /// A worker failed with this error and exited; nothing more comes.
        case failed(any Error)
    }

    var plan: WorkerPlan
    /// The warnings of the render, one a line: every worker's, a crashed one's too (their
    /// journals merged, `WarningJournal.merged`), then the sandbox's refusals.
    package private(set) var warnings: [String] = []
    /// The journal of each worker that has ended, in the order they ran.
    private var journals: [WarningJournal.Contents] = []
    let sink: OutputSink
    /// Where each fault's line goes.
    package var report: (String) -> Void
    let region: SharedRegion
    /// Whether workers may be forked (`ForkedWorker.mayFork`) rather than started with exec.
    let forking: Bool
    /// The document, when the caller has read it: a forked worker renders it without reading it again.
    let document: TableDocument?
    /// What discovery found, when the caller ran it: a forked worker starts from it.
    let catalog: Catalog?

    /// A render by `plan`'s workers into `sink`, forked from this process if `forking` and it may
    /// be; each fault's line goes to `report`.
    package init(
        plan: WorkerPlan, sink: OutputSink, forking: Bool = false, document: TableDocument? = nil,
        catalog: Catalog? = nil, report: @escaping (String) -> Void
    ) throws {
        self.plan = plan
        self.sink = sink
        self.report = report
        self.forking = forking
        self.document = document
        self.catalog = catalog
        region = try SharedRegion()
    }

    /// Whether a worker that completed a window stays alive for the next (`cellkit browse`): its
    /// cells and loaded plugins are kept, and `request(_:)` asks it for another window.
    package var keepsWorker = false
    /// The worker kept alive, and what was read of it (its frames are numbered across windows).
    private var live: (worker: Worker, decoder: FrameDecoder)?
    /// Whether a worker ever wrote to the progress record (a new one then gets it zeroed).
    private var recordWritten = false
    /// What the last `done` frame carried besides warnings, for a kept worker (JSON).
    package private(set) var reply: [UInt8] = []
    /// Called when a kept worker's window is drawn again from its first row, after a fault: the
    /// sink is to be emptied.
    package var restartsWindow: () -> Void = {}

    /// A broken channel's line, held while a worker that checks its channels after every hook
    /// looks for the hook that breaks it; reported as it is if none does.
    private var heldLine: String?

    /// Runs workers until one completes the table or fails; every fault is reported and skipped.
    package func run() throws -> Ending {
        var faults = 0
        while true {
            var (worker, decoder) = try live ?? newWorker()
            let death = try supervise(worker, &decoder)
            live = keepsWorker && isCompleted(death) ? (worker, decoder) : nil
            switch death {
            case .completed:
                if let heldLine { report(heldLine) }  // the fault did not come back: it is what was seen
                heldLine = nil
                if !keepsWorker { warnings = WarningJournal.merged(journals) + takeSandboxWarnings() }
                return .complete(faults: faults)
            case .failed(let message): return .failed(message)
            case .died(let outcome):
                faults += 1
                try recover(outcome)
                if keepsWorker {  // the window again from its first row, the faulty type quarantined
                    plan.resumeAt = 0
                    restartsWindow()
                }
            }
        }
    }

    /// What the sandbox's listeners reported of the workers so far (the calls refused), not
    /// taken yet: read by this process from each worker's report pipe, never the worker's word.
    private var sandboxNotes: [Sandbox.Note] = []

    /// The warnings of the calls the sandbox refused since the last call, once per plugin, hook,
    /// type and act.
    package func takeSandboxWarnings() -> [String] {
        if let (worker, _) = live { sandboxNotes += worker.report?.take() ?? [] }
        defer { sandboxNotes = [] }
        return Sandbox.warnings(sandboxNotes)
    }

    private func isCompleted(_ death: Death) -> Bool { if case .completed = death { true } else { false } }

    /// A worker started by the plan, with the progress record made ready for it.
    private func newWorker() throws -> (Worker, FrameDecoder) {
        region.resetRecord(written: recordWritten)
        recordWritten = true
        return (
            try Worker(plan: plan, region: region, forking: forking, document: document, catalog: catalog),
            FrameDecoder(key: plan.key)
        )
    }

    /// Asks for another render of the job with `job` changed (a window of `cellkit browse`): a kept
    /// worker gets `request` (bytes the worker reads at the start of the output buffer, after their
    /// length as four bytes) and a word on its channel; a new one gets the changed job in its plan.
    package func request(_ job: DocumentRender.Job, _ request: [UInt8]) throws -> Ending {
        plan.job = job
        plan.resumeAt = 0
        plan.placeholderRows = []
        if let (worker, _) = live {
            var length = UInt32(request.count).littleEndian
            withUnsafeBytes(of: &length) {
                UnsafeMutableRawPointer(region.output).copyMemory(from: $0.baseAddress!, byteCount: 4)
            }
            request.withUnsafeBytes {
                (region.output + 4).update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: request.count)
            }
            let record = region.record
            (record.pointee.rowsDone, record.pointee.bytesDone, record.pointee.rowsHandedOver) = (0, 0, 0)
            record.pointee.phase = HookProgress.Phase.host.rawValue
            record.pointee.counter &+= 1
            worker.acknowledge()
        }
        return try run()
    }

    enum Death {
        case completed
        case failed(any Error)
        case died(FaultOutcome)
    }

    /// Reads the worker's frames until it ends (`WorkerWatch`); writes its chunks out. The worker's
    /// word is checked, never trusted: a frame that is malformed, forged or out of order, a chunk
    /// longer than the buffer, or a channel closed while the worker lives is that worker's fault.
    private func supervise(_ worker: Worker, _ decoder: inout FrameDecoder) throws -> Death {
        var watcher = Watcher(render: self, worker: worker)
        let tick = Int32(max(10, min(100, plan.hookTimeout * 100)))
        let ending = try WorkerWatch.run(
            worker.process, channel: worker.messages, decoder: &decoder, watcher: &watcher, tick: tick)
        guard let status = ending.status else { return .completed }  // a kept worker waits for more
        sandboxNotes += worker.report?.awaitListener() ?? []  // all of them, its last output shown
        journals.append(WarningJournal.read(region.journal))  // before the next worker clears it
        worker.process.companion = worker.report?.listener
        worker.process.finish()
        worker.namespaces?.join()  // long done: the process has one thread again for the next fork
        let fault: String? =
            switch ending.stop {
            case .malformed(let what): "it sent \(what)"
            case .fault(let reason), .stalled(let reason): reason
            case .closed: "its channel was closed"
            case .timedOut, nil: nil
            }
        let timedOut = ending.stop == .timedOut
        if fault != nil || status == .exit(WorkerExit.channelBroken), let closed = watcher.closedRecord {
            Self.restore(closed, into: region.record)  // blame where it was when the channel closed
        }
        if let fault { return .died(.channel(fault)) }
        if watcher.done, status == .exit(0) || timedOut { return .completed }
        if timedOut { return .died(.timeout(tenths: Int((plan.hookTimeout * 10).rounded()))) }
        if let failed = watcher.failed { return .failed(failed) }
        if status == .exit(WorkerExit.channelBroken) { return .died(.channel("its channel was closed or replaced")) }
        return .died(status)
    }

    /// Puts back where plugin code was (phase, hook, type, row) as `saved` says.
    private static func restore(_ saved: HookProgress.Header, into record: UnsafeMutablePointer<HookProgress.Header>) {
        record.pointee.phase = saved.phase
        record.pointee.hook = saved.hook
        record.pointee.typeSlot = saved.typeSlot
        record.pointee.section = saved.section
        record.pointee.row = saved.row
    }

    /// What the supervisor makes of one render or browse worker: its frames, and its progress
    /// record against the supervisor's own clock.
    private struct Watcher: WorkerWatcher {
        let render: RenderSupervisor
        let worker: Worker
        var done = false
        var failed: (any Error)?
        /// Where the worker was when its channel closed: if it lives on, the hook it was in (or had
        /// run last) broke the channel.
        var closedRecord: HookProgress.Header?
        private var lastCounter: UInt64
        private var lastChange = Date()

        init(render: RenderSupervisor, worker: Worker) {
            (self.render, self.worker) = (render, worker)
            lastCounter = render.region.record.pointee.counter
        }

        mutating func receive(_ frame: Frame) throws {
            lastChange = Date()
            try render.act(on: frame, worker, &self)
        }

        var isFinished: Bool { done || failed != nil }
        /// Counts a slice of the job's rows while the worker draws (`RowCount`).
        mutating func idle() -> Bool { !render.keepsWorker && render.rowCount?.advance(records: 4_096) == true }
        var isAnswered: Bool { render.keepsWorker && done }
        /// A worker that checks every hook is read only while it sends.
        var holdsChannel: Bool { render.plan.checksChannels && render.region.record.pointee.sending == 0 }
        mutating func channelClosed() { closedRecord = render.region.record.pointee }

        /// The supervisor's own clock bounds every wait: plugin code (or a worker that said it is
        /// done) that makes no progress within the hook timeout is stopped, whatever the worker does
        /// with its channel; so is a frame begun and never ended, and a worker still waiting for an
        /// acknowledgement it was sent (another reader took it): `ChannelClock`.
        mutating func overdue(quiet: Double, partialBytes: Int) -> WorkerWatch.Stop? {
            let record = render.region.record
            let limit = render.plan.hookTimeout
            if let stall = ChannelClock(limit: limit).stall(
                partialBytes: partialBytes, quiet: quiet, waitingFor: record.pointee.sending,
                acknowledged: worker.acknowledgements,
                sinceAcknowledged: worker.lastAcknowledgement.map { Date().timeIntervalSince($0) })
            {
                return .stalled(stall)
            }
            let counter = record.pointee.counter
            if counter != lastCounter {
                (lastCounter, lastChange) = (counter, Date())
            } else if record.pointee.phase != HookProgress.Phase.host.rawValue || done,
                Date().timeIntervalSince(lastChange) >= limit
            {
                return .timedOut
            }
            return nil
        }
    }

    /// Writes out a chunk, or takes the worker's last word; a frame that cannot be is a fault.
    private func act(on frame: Frame, _ worker: Worker, _ watcher: inout Watcher) throws {
        guard !watcher.done, watcher.failed == nil else { throw WorkerWatch.Fault("it sent a message after its last") }
        switch RenderFrame(rawValue: frame.kind) {
        case .chunk:
            guard frame.value > 0, frame.value <= UInt64(SharedRegion.outputCapacity) else {
                throw WorkerWatch.Fault(
                    "it sent a chunk of \(frame.value) bytes (the buffer holds \(SharedRegion.outputCapacity))")
            }
            do {
                try sink.write(UnsafeBufferPointer(start: region.output, count: Int(frame.value)))
            } catch {
                worker.process.kill()
                throw error
            }
            worker.acknowledge()
        case .done:
            if !keepsWorker, let expected = expectedRows {  // the supervisor's count, not the worker's word
                let drawn = max(Int(region.record.pointee.rowsDone), plan.resumeAt)
                guard frame.value == UInt64(expected), drawn == expected else {
                    throw WorkerWatch.Fault(
                        "it said the table was complete after \(min(drawn, Int(clamping: frame.value))) of its \(expected) rows"
                    )
                }
            }
            watcher.done = true
            if keepsWorker {
                reply = frame.payload
                return
            }
        // The payload's warnings are in the worker's journal too, read once it has ended.
        case .failed: watcher.failed = Self.failure(frame.payload)
        case nil: throw WorkerWatch.Fault("it sent a message of unknown kind \(frame.kind)")
        }
    }

    /// The rows of the job's window, counted here from the document (a data file's records a
    /// slice at a time between the worker's frames: `RowCount`), once for the whole render.
    private lazy var rowCount: RowCount? = RowCount(plan.job, document)

    /// The whole count, finished now if it is not yet (`RowCount.finish`).
    private var expectedRows: Int? { rowCount?.finish() }

    /// The rows of `job`'s window in `document`, counted whole now (`RowCount`); nil for browse's
    /// windows, or when the document cannot be read here.
    package static func countRows(_ job: DocumentRender.Job, _ document: TableDocument?) -> Int? {
        var count = RowCount(job, document)
        return count?.finish()
    }

    /// The error a `failed` frame carries: the document's own error when it is one.
    private static func failure(_ payload: [UInt8]) -> any Error {
        guard let failure = try? JSONDecoder().decode(WorkerFailure.self, from: Data(payload)) else {
            return DocumentRender.WorkerError(description: String(decoding: payload, as: UTF8.self))
        }
        return failure.error
    }

    /// After a worker died: its line, the rows it finished, and the next worker's plan.
    private func recover(_ outcome: FaultOutcome) throws {
        let record = region.record
        if case .channel = outcome, record.pointee.phase == HookProgress.Phase.host.rawValue,
            HookProgress.identifier(record, slot: Int(record.pointee.typeSlot)) != nil
        {
            record.pointee.phase = HookProgress.Phase.hook.rawValue  // the hook that ran last broke it
        }
        let blamed: String? = if case .signal = outcome { FaultLine.blamedLibrary(record) } else { nil }
        if case .channel = outcome {  // what it drew since its last acknowledged chunk is not trusted
            record.pointee.bytesDone = 0
            record.pointee.rowsDone = record.pointee.rowsHandedOver
            if !plan.checksChannels {
                // Seen from here, the hook that broke it is only where the worker was when it was
                // noticed: run again from the last chunk, checking after every hook, to catch it.
                plan.checksChannels = true
                heldLine = FaultLine.text(record, outcome)
                plan.resumeAt = Int(record.pointee.rowsHandedOver)
                return
            }
            plan.checksChannels = false  // caught in the act: the hook is known
            heldLine = nil
        }
        let line = FaultLine.text(record, outcome)
        report(line)
        plan.faults.append(RowFault(record: record, outcome: outcome, line: line, blamed: blamed))
        if let blamed {  // placed by address in another plugin than the running hook's
            let pending = Int(record.pointee.bytesDone)
            if pending > 0 { try sink.write(UnsafeBufferPointer(start: region.output, count: pending)) }
            guard !plan.quarantinedFiles.contains(blamed) else { throw stuck(Int(record.pointee.rowsDone)) }
            plan.quarantinedFiles.append(blamed)
            plan.resumeAt = Int(record.pointee.rowsDone)
            return
        }
        let pending = Int(record.pointee.bytesDone)
        if pending > 0 { try sink.write(UnsafeBufferPointer(start: region.output, count: pending)) }
        let rows = Int(record.pointee.rowsDone)
        if record.pointee.helperFault != 0 {  // CellKit's own, rows ahead of the one drawn: no placeholder
            guard plan.readsAhead else { throw stuck(rows) }
            plan.readsAhead = false
            plan.resumeAt = rows
            return
        }
        switch HookProgress.Phase(rawValue: record.pointee.phase) ?? .host {
        case .hook:
            guard let name = HookProgress.identifier(record, slot: Int(record.pointee.typeSlot)),
                !plan.quarantinedTypes.contains(name)
            else { throw stuck(rows) }
            plan.quarantinedTypes.append(name)
        case .constructor, .pluginInit:
            guard let name = HookProgress.loadingIdentifier(record), !plan.quarantinedPluginsOf.contains(name) else {
                throw stuck(rows)
            }
            plan.quarantinedPluginsOf.append(name)
        case .host:
            guard !plan.placeholderRows.contains(rows) else { throw stuck(rows) }
            plan.placeholderRows.append(rows)
        }
        plan.resumeAt = rows
    }

    private func stuck(_ rows: Int) -> OutputError {
        OutputError(description: "the render worker faulted again at the same place (after \(rows) rows); giving up")
    }

    /// One worker process, with the shared memory and two pipes at the descriptors `RenderWorker`
    /// expects and its standard output sent to standard error (a plugin's printing never mixes into
    /// the table). Forked from this process when it may be (`ForkedWorker`): no second start-up,
    /// and the document already read. Otherwise `posix_spawn` of the plan's executable, with the
    /// Swift runtime's backtracer off. Either way in a process group of its own (`WorkerProcess`).
    final class Worker {
        let process: WorkerProcess
        let messages: Int32
        let acks: Int32
        /// Where the worker's sandbox listener reports (nil when no pipe could be made).
        let report: Sandbox.Report?
        /// The helper making the worker's namespaces, if one was started (`Sandbox.Ahead`).
        let namespaces: Sandbox.Ahead?
        /// Acknowledgements sent, and when the last was.
        private(set) var acknowledgements: Int64 = 0
        private(set) var lastAcknowledgement: Date?

        init(
            plan: WorkerPlan, region: SharedRegion, forking allowed: Bool, document: TableDocument?, catalog: Catalog?
        ) throws {
            let forking = allowed && ForkedWorker.mayFork(executable: plan.executable)
            var plan = plan
            if !forking, let bytes = document?.standardInputBytes { plan.documentBytes = region.leave(bytes) }
            var planFile: Int32 = -1
            if !forking {
                guard let file = SharedRegion.memoryFile(named: RenderWorker.planName, holding: try plan.encoded)
                else { throw Self.failure("memfd_create") }
                planFile = fcntl(file, F_DUPFD_CLOEXEC, 10)  // above the targets, as the sources below
                close(file)
                guard planFile >= 0 else { throw Self.failure("dup") }
            }
            defer { if planFile >= 0 { close(planFile) } }
            var fromWorker: [Int32] = [0, 0], toWorker: [Int32] = [0, 0]
            guard pipe(&fromWorker) == 0 else { throw Self.failure("pipe") }
            guard pipe(&toWorker) == 0 else {
                close(fromWorker[0])
                close(fromWorker[1])
                throw Self.failure("pipe")
            }
            for fd in fromWorker + toWorker { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            let report = plan.job.sandbox ? Sandbox.Report() : nil
            defer { report?.closeWriteEnd() }
            // Copies above the target numbers, so that no dup2 overwrites a source.
            let sources = ([region.fd, fromWorker[1], toWorker[0]] + (report.map { [$0.writeEnd] } ?? []))
                .map { fcntl($0, F_DUPFD_CLOEXEC, 10) }
            defer {
                for fd in sources where fd >= 0 { close(fd) }
                close(fromWorker[1])
                close(toWorker[0])
            }
            guard sources.allSatisfy({ $0 >= 0 }) else {
                close(fromWorker[0])
                close(toWorker[1])
                throw Self.failure("dup")
            }
            let targets =
                [RenderWorker.memoryFD, RenderWorker.messageFD, RenderWorker.ackFD]
                + (report == nil ? [] : [Sandbox.reportFD])
            // A forked, sandboxed worker of a root supervisor gets its namespaces made beside its
            // start: one end of a socket for it (above the targets, as the sources), the other for
            // the helper (`Sandbox.Ahead`). Made here, after the last step that can throw.
            var ahead: [Int32] = [-1, -1]
            if forking, plan.job.sandbox, geteuid() == 0,
                socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ahead) == 0
            {
                let moved = fcntl(ahead[0], F_DUPFD_CLOEXEC, 10)
                close(ahead[0])
                ahead[0] = moved
                if moved < 0 {  // the worker makes its own
                    close(ahead[1])
                    ahead[1] = -1
                }
            }
            defer { if ahead[0] >= 0 { close(ahead[0]) } }
            plan.joinsNamespacesAhead = ahead[0] >= 0
            let moving =
                zip(sources, targets).map { ($0, $1) }
                + (plan.joinsNamespacesAhead ? [(ahead[0], Sandbox.namespacesFD)] : [])
            let started: Result<WorkerProcess, Spawn.Failure>
            if forking {
                // The child must not hold the supervisor's ends: they would hide the other side's death.
                started = WorkerProcess.fork(
                    moving: moving, closing: [fromWorker[0], toWorker[1]] + (ahead[1] >= 0 ? [ahead[1]] : []),
                    prepare: PendingTemporaries.forgetInChild
                ) {
                    DocumentRender.work(plan, document: document, catalog: catalog)
                }
            } else {
                started = WorkerProcess.spawn(
                    plan.executable, [WorkerPlan.argument] + plan.arguments,
                    setting: ["SWIFT_BACKTRACE": "enable=no"],
                    keeping: Sandbox.reportFD + 1
                ) { actions in
                    for (source, target) in zip(sources, targets) {
                        posix_spawn_file_actions_adddup2(&actions, source, target)
                    }
                    posix_spawn_file_actions_adddup2(&actions, planFile, RenderWorker.planFD)
                    posix_spawn_file_actions_adddup2(&actions, 2, 1)
                }
            }
            switch started {
            case .success(let started):
                process = started
                namespaces = ahead[1] >= 0 ? Sandbox.Ahead(sendingOver: ahead[1]) : nil
            case .failure(let failure):
                close(fromWorker[0])
                close(toWorker[1])
                if ahead[1] >= 0 { close(ahead[1]) }
                let how = forking ? "(fork)" : plan.executable
                throw OutputError(description: "cannot start the render worker \(how): \(failure)")
            }
            (messages, acks, self.report) = (fromWorker[0], toWorker[1], report)
        }

        deinit {
            close(messages)
            close(acks)
            process.finish()
            namespaces?.join()
        }

        /// Lets the worker write its buffer again.
        /// If it has died, the write fails with EPIPE: SIGPIPE is blocked meanwhile and a pending one
        /// taken back, so the supervisor lives on.
        func acknowledge() {
            acknowledgements += 1
            lastAcknowledgement = Date()
            var pipeSignal = sigset_t(), previous = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
            var byte: UInt8 = 1
            var written = Glibc.write(acks, &byte, 1)
            while written < 0, errno == EINTR { written = Glibc.write(acks, &byte, 1) }
            if written < 0, errno == EPIPE, sigismember(&previous, SIGPIPE) == 0 {
                var zero = timespec()
                _ = sigtimedwait(&pipeSignal, nil, &zero)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }

        private static func failure(_ what: String) -> OutputError {
            OutputError(description: "cannot start the render worker (\(what)): \(String(cString: strerror(errno)))")
        }
    }
}
