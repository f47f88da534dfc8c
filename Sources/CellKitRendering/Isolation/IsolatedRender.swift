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
import CellKitRuntime
import Foundation

/// How an isolated render should start its workers, and what it learned from the ones that faulted.
/// A worker gets all of it, as JSON in the environment variable `environmentName`.
package struct WorkerPlan: Sendable, Codable {
    /// The environment variable that makes a process a render worker (`DocumentRender.runWorkerIfRequested()`).
    package static let environmentName = "CELLKIT_RENDER_WORKER"

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
    /// Rows that faulted outside plugin code: drawn as placeholders.
    package var placeholderRows: [Int] = []
    /// Whether long data files are read ahead on a helper thread (`DocumentTable.readsAhead`);
    /// off after a helper crashed, so that a fault of the same bug falls on the row that has it.
    package var readsAhead = true

    /// A plan for workers `executable arguments…` that render `job`.
    package init(executable: String, arguments: [String], job: DocumentRender.Job, hookTimeout: Double) {
        (self.executable, self.arguments, self.job, self.hookTimeout) = (executable, arguments, job, hookTimeout)
    }

    /// The value of `environmentName` for the next worker.
    var environmentValue: String {
        get throws { String(decoding: try JSONEncoder().encode(self), as: UTF8.self) }
    }
}

/// Runs a render in worker processes and writes what they draw to a sink.
package final class IsolatedRender {
    /// How a render ended.
    package enum Ending: Equatable {
        /// The table is complete; `faults` workers faulted on the way (0: none).
        case complete(faults: Int)
        /// A worker failed with this error message and exited; nothing more comes.
        case failed(String)
    }

    var plan: WorkerPlan
    /// The warnings of the worker that completed the table, one a line.
    package private(set) var warnings: [String] = []
    let sink: OutputSink
    let report: (String) -> Void
    let region: SharedRegion
    /// Whether workers may be forked (`ForkedWorker.mayFork`) rather than started with exec.
    let forking: Bool
    /// The document, when the caller has read it: a forked worker renders it without reading it again.
    let document: TableDocument?

    /// A render by `plan`'s workers into `sink`, forked from this process if `forking` and it may
    /// be; each fault's line goes to `report`.
    package init(
        plan: WorkerPlan, sink: OutputSink, forking: Bool = false, document: TableDocument? = nil,
        report: @escaping (String) -> Void
    ) throws {
        self.plan = plan
        self.sink = sink
        self.report = report
        self.forking = forking
        self.document = document
        region = try SharedRegion()
    }

    /// Runs workers until one completes the table or fails; every fault is reported and skipped.
    package func run() throws -> Ending {
        var faults = 0
        while true {
            region.resetRecord(written: faults > 0)
            let worker = try Worker(plan: plan, region: region, forking: forking, document: document)
            let death = try supervise(worker)
            switch death {
            case .completed: return .complete(faults: faults)
            case .failed(let message): return .failed(message)
            case .died(let outcome):
                faults += 1
                try recover(outcome)
            }
        }
    }

    enum Death {
        case completed
        case failed(String)
        case died(FaultOutcome)
    }

    /// Reads the worker's messages until it ends; writes its chunks out.
    private func supervise(_ worker: Worker) throws -> Death {
        var done = false, failed: String?, timedOut = false, ended = false
        var lastCounter = region.record.pointee.counter
        var lastChange = Date()
        let tick = Int32(max(10, min(100, plan.hookTimeout * 100)))
        var descriptor = pollfd(fd: worker.messages, events: Int16(POLLIN), revents: 0)
        loop: while true {
            let ready = poll(&descriptor, 1, ended ? 0 : tick)
            if ready < 0, errno == EINTR { continue }
            if ready > 0 {
                var raw: (UInt64, UInt64) = (0, 0)
                let n = withUnsafeMutableBytes(of: &raw) { read(worker.messages, $0.baseAddress, WorkerMessage.size) }
                if n < 0, errno == EINTR { continue }
                guard n == WorkerMessage.size, let message = WorkerMessage(raw) else { break loop }  // it is gone
                switch message.kind {
                case .chunk:
                    do {
                        try sink.write(UnsafeBufferPointer(start: region.output, count: message.bytes))
                    } catch {
                        worker.kill()
                        throw error
                    }
                    worker.acknowledge()
                case .done:
                    done = true
                    let text = region.text(count: message.bytes)  // a done message carries the warnings
                    warnings = text.isEmpty ? [] : text.components(separatedBy: "\n")
                case .failed: failed = region.text(count: message.bytes)
                }
                lastChange = Date()
                continue
            }
            // No message: has it ended (a process it started may hold the pipe open), or is plugin code stuck?
            if ended { break loop }  // and its last messages are read
            if worker.hasEnded() {
                ended = true
                continue
            }
            let counter = region.record.pointee.counter
            if counter != lastCounter {
                (lastCounter, lastChange) = (counter, Date())
            } else if region.record.pointee.phase != HookProgress.Phase.host.rawValue,
                Date().timeIntervalSince(lastChange) >= plan.hookTimeout
            {
                timedOut = true
                worker.kill()
                break loop
            }
        }
        let status = worker.wait()
        if timedOut { return .died(.timeout(tenths: Int((plan.hookTimeout * 10).rounded()))) }
        if done, status == .exit(0) { return .completed }
        if let failed { return .failed(failed) }
        return .died(status)
    }

    /// After a worker died: its line, the rows it finished, and the next worker's plan.
    private func recover(_ outcome: FaultOutcome) throws {
        let record = region.record
        report(FaultLine.text(record, outcome))
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

    /// One worker process, with the shared memory and two pipes at the descriptors `IsolationWorker`
    /// expects and its standard output sent to standard error (a plugin's printing never mixes into
    /// the table). Forked from this process when it may be (`ForkedWorker`): no second start-up,
    /// and the document already read. Otherwise `posix_spawn` of the plan's executable, with the
    /// Swift runtime's backtracer off.
    final class Worker {
        let pid: pid_t
        let messages: Int32
        let acks: Int32
        private var reaped: FaultOutcome?

        init(plan: WorkerPlan, region: SharedRegion, forking allowed: Bool, document: TableDocument?) throws {
            let forking = allowed && ForkedWorker.mayFork(plan)
            let planText = forking ? "" : try plan.environmentValue
            var fromWorker: [Int32] = [0, 0], toWorker: [Int32] = [0, 0]
            guard pipe(&fromWorker) == 0 else { throw Self.failure("pipe") }
            guard pipe(&toWorker) == 0 else {
                close(fromWorker[0])
                close(fromWorker[1])
                throw Self.failure("pipe")
            }
            for fd in fromWorker + toWorker { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            // Copies above the target numbers, so that no dup2 overwrites a source.
            let sources = [region.fd, fromWorker[1], toWorker[0]].map { fcntl($0, F_DUPFD_CLOEXEC, 10) }
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
            let targets = [IsolationWorker.memoryFD, IsolationWorker.messageFD, IsolationWorker.ackFD]
            if forking {
                // The child must not hold the supervisor's ends: they would hide the other side's death.
                let kept = [fromWorker[0], toWorker[1]]
                let started = ForkedWorker.start(moving: Array(zip(sources, targets)), closing: kept) {
                    DocumentRender.work(plan, document: document)
                }
                switch started {
                case .success(let started): pid = started
                case .failure(let failure):
                    for fd in kept { close(fd) }
                    throw OutputError(description: "cannot start the render worker (fork): \(failure)")
                }
                (messages, acks) = (fromWorker[0], toWorker[1])
                return
            }
            let started = Spawn.start(
                plan.executable, plan.arguments,
                setting: ["SWIFT_BACKTRACE": "enable=no", WorkerPlan.environmentName: planText],
                defaultSignals: [SIGINT, SIGTERM, SIGHUP, SIGPIPE]
            ) { actions in
                for (source, target) in zip(sources, targets) {
                    posix_spawn_file_actions_adddup2(&actions, source, target)
                }
                posix_spawn_file_actions_adddup2(&actions, 2, 1)
            }
            let pid: pid_t
            switch started {
            case .success(let started): pid = started
            case .failure(let failure):
                close(fromWorker[0])
                close(toWorker[1])
                throw OutputError(description: "cannot start the render worker \(plan.executable): \(failure)")
            }
            self.pid = pid
            messages = fromWorker[0]
            acks = toWorker[1]
        }

        deinit {
            close(messages)
            close(acks)
            if reaped == nil {
                Glibc.kill(pid, SIGKILL)
                _ = wait()
            }
        }

        /// Lets the worker write its buffer again.
        /// If it has died, the write fails with EPIPE: SIGPIPE is blocked meanwhile and a pending one
        /// taken back, so the supervisor lives on.
        func acknowledge() {
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

        func kill() { Glibc.kill(pid, SIGKILL) }

        /// Whether the worker has ended (reaping it if so), without waiting.
        func hasEnded() -> Bool {
            if reaped != nil { return true }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return false }
            reaped = Self.outcome(status)
            return true
        }

        private static func outcome(_ status: Int32) -> FaultOutcome {
            status & 0x7f == 0 ? .exit((status >> 8) & 0xff) : .signal(status & 0x7f)
        }

        /// Waits for the worker to end: how it ended.
        @discardableResult
        func wait() -> FaultOutcome {
            if let reaped { return reaped }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            let outcome = Self.outcome(status)
            reaped = outcome
            return outcome
        }

        private static func failure(_ what: String) -> OutputError {
            OutputError(description: "cannot start the render worker (\(what)): \(String(cString: strerror(errno)))")
        }
    }
}
