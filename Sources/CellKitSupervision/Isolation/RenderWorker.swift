// The worker's end of an isolated render: it runs the plugins and the renderer
// as usual, with its hooks recorded in the shared progress record and its output
// buffer in shared memory. After each row the renderer records the rows and bytes
// it finished (plain stores); a full buffer is handed to the supervisor, which
// writes it out, and the worker waits for the word to reuse it. Its messages are
// frames (CellKitSupervision) on high, close-on-exec descriptors.

import CProcess
import CellKitDocuments
import CellKitRendering
import CellKitRuntime
import Foundation
import Synchronization

/// The kinds of frame a render worker sends (`Frame.kind`).
enum RenderFrame: UInt16 {
    /// `value` bytes at the start of the output buffer are ready; the worker waits for an
    /// acknowledgement before it writes there again.
    case chunk = 1
    /// The table is complete (its last chunk sent); `value` is the rows of its window drawn (those a
    /// worker before drew included). A browse worker's payload is its reply (`BrowseService`).
    case done = 2
    /// The render failed; the payload is a `WorkerFailure` as JSON.
    case failed = 3
}

/// Why a worker's render failed, as it crosses to the supervisor: a document's, a plugin's or the
/// output's error keeps its type (and a document's its place); anything else is its message.
struct WorkerFailure: Codable {
    var message: String
    var document: DocumentError?
    var plugin: CellKitError?
    var output: OutputError?

    init(_ error: any Error) {
        message = String(describing: error)
        document = error as? DocumentError
        plugin = error as? CellKitError
        output = error as? OutputError
    }

    /// The error as the worker met it.
    var error: any Error {
        if let document { return document }
        if let plugin { return plugin }
        if let output { return output }
        return DocumentRender.WorkerError(description: message)
    }
}

/// The render worker's side of the channel to its supervisor (`RenderSupervisor`).
final class RenderWorker {
    /// The descriptors an exec'd worker inherits: the shared memory, its messages, the acknowledgements.
    static let memoryFD: Int32 = 3, messageFD: Int32 = 4, ackFD: Int32 = 5
    /// Where an exec'd worker finds its plan (a memory file named `planName`): read, then closed.
    static let planFD: Int32 = 6, planName = "cellkit-plan"

    let region: SharedRegion
    let sender: ChunkSink
    /// The buffer a worker renders into: in the shared memory, flushed to the supervisor.
    let out: OutputBuffer

    /// Attaches to what the supervisor passed on (moving the channels to high descriptors) and
    /// installs the progress record. Call it before any plugin is loaded or cell made.
    init(_ plan: WorkerPlan) throws {
        guard let memory = WorkerChannel(adopting: Self.memoryFD),
            let messages = WorkerChannel(adopting: Self.messageFD),
            let acks = WorkerChannel(adopting: Self.ackFD)
        else { throw OutputError(description: "the render worker's descriptors are missing") }
        region = try SharedRegion(attaching: memory.fd)
        HookProgress.install(UnsafeMutableRawPointer(region.record))
        if plan.checksChannels {
            Self.checked.withLock { $0 = (messages, acks) }
            ck_process_check_after_hooks(Self.checkChannels)
        }
        sender = ChunkSink(
            region: region, frames: FrameSender(channel: messages, key: plan.key), acks: acks,
            supervisor: WorkerRole.expectedParent)
        // Handed over 4 MiB at a time: the worker waits while the supervisor writes a chunk out, and
        // with smaller chunks those waits were a large part of a long plain table's time (BENCHMARKS.md,
        // "Measurements behind the code": RenderWorker.chunk).
        out = OutputBuffer(sender, storage: region.output, capacity: SharedRegion.outputCapacity, flushAt: 4 << 20)
    }

    /// The channels checked after every hook, when the plan asks for it.
    private static let checked = Mutex<(WorkerChannel, WorkerChannel)?>(nil)

    /// Ends the worker (`WorkerExit.channelBroken`) if a channel is no longer the supervisor's: run
    /// after every hook, while the progress record still names it, so the line names that hook.
    /// A hook's stray bytes are still in the pipe here: the supervisor of a worker that checks
    /// reads only while `HookProgress.Header.sending` says a frame is on its way.
    private static let checkChannels: @convention(c) () -> Void = {
        guard let (messages, acks) = RenderWorker.checked.withLock({ $0 }) else { return }
        if !messages.check() || !acks.check() || messages.pendingBytes() != 0 { _exit(WorkerExit.channelBroken) }
    }

    /// Hands over what is left in the buffer and tells the supervisor the table is complete
    /// (`rows` rows of its window). Its warnings are in its journal (`WarningJournal`).
    func finish(rows: Int) throws {
        try out.flush()
        sender.announce()
        sender.send(Frame(kind: RenderFrame.done.rawValue, value: UInt64(rows)))
    }

    /// Tells the supervisor the render failed, and why. Call it after flushing what was drawn.
    func fail(_ error: any Error) {
        let failure = WorkerFailure(error)
        let payload = (try? JSONEncoder().encode(failure)).map(Array.init) ?? Array(failure.message.utf8)
        sender.announce()
        sender.send(Frame(kind: RenderFrame.failed.rawValue, payload: payload))
    }

    /// Hands a full buffer to the supervisor and waits until it is written out.
    final class ChunkSink: OutputSink {
        let region: SharedRegion
        var frames: FrameSender
        let acks: WorkerChannel
        let supervisor: pid_t

        init(region: SharedRegion, frames: FrameSender, acks: WorkerChannel, supervisor: pid_t) {
            (self.region, self.frames, self.acks, self.supervisor) = (region, frames, acks, supervisor)
        }

        func send(_ frame: Frame) { frames.send(frame) }

        /// Frames sent so far (those announced).
        private var announced: Int64 = 0

        /// Marks a frame on its way (`HookProgress.Header.sending`) until the next acknowledgement.
        func announce() {
            announced += 1
            region.record.pointee.sending = announced
        }

        /// Waits for the supervisor's acknowledgement; false if it went away.
        func awaitAcknowledgement() -> Bool {
            defer { region.record.pointee.sending = 0 }
            return acks.readByte(supervisor: supervisor)
        }

        func write(_ bytes: UnsafeBufferPointer<UInt8>) throws {
            guard bytes.count > 0 else { return }
            precondition(bytes.baseAddress == UnsafePointer(region.output), "a worker flushes its whole shared buffer")
            announce()
            frames.send(Frame(kind: RenderFrame.chunk.rawValue, value: UInt64(bytes.count)))
            guard awaitAcknowledgement() else {
                throw OutputError(description: "the render's supervisor went away")
            }
            region.record.pointee.bytesDone = 0  // handed over: nothing of it is pending now
            region.record.pointee.rowsHandedOver = region.record.pointee.rowsDone
        }
    }
}
