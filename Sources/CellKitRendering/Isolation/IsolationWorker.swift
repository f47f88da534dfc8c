// The worker's end of an isolated render: it runs the plugins and the renderer
// as usual, with its hooks recorded in the shared progress record and its output
// buffer in shared memory. After each row the renderer records the rows and bytes
// it finished (plain stores); a full buffer is handed to the supervisor, which
// writes it out, and the worker waits for the word to reuse it.

import CellKitRuntime
import Foundation

/// The render worker's side of the channel to its supervisor (`IsolatedRender`).
package final class IsolationWorker {
    /// The descriptors a worker inherits: the shared memory, its messages, the acknowledgements.
    package static let memoryFD: Int32 = 3, messageFD: Int32 = 4, ackFD: Int32 = 5

    let region: SharedRegion
    /// The buffer a worker renders into: in the shared memory, flushed to the supervisor.
    package let out: OutputBuffer

    /// Attaches to what the supervisor passed on and installs the progress record. Call it before
    /// any plugin is loaded or cell made.
    package init() throws {
        region = try SharedRegion(attaching: Self.memoryFD)
        // Not passed on to anything a plugin starts: a child holding the pipe would hide our end.
        for fd in [Self.memoryFD, Self.messageFD, Self.ackFD] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        HookProgress.install(UnsafeMutableRawPointer(region.record))
        // Handed over 4 MiB at a time: the worker waits while the supervisor writes a chunk out, and
        // at 256 KiB a chunk those waits cost a plain 1,000,000-row table a sixth of its time.
        out = OutputBuffer(
            ChunkSink(region: region), storage: region.output, capacity: SharedRegion.outputCapacity,
            flushAt: 4 << 20)
    }

    /// Hands over what is left in the buffer and tells the supervisor the table is complete,
    /// with this worker's warnings (the buffer is free once the last chunk is acknowledged).
    package func finish(warnings: [String]) throws {
        try out.flush()
        Self.send(WorkerMessage(kind: .done, bytes: region.leave(warnings.joined(separator: "\n"))))
    }

    /// Tells the supervisor the render failed, and why. Call it after flushing what was drawn.
    package func fail(_ message: String) {
        Self.send(WorkerMessage(kind: .failed, bytes: region.leave(message)))
    }

    static func send(_ message: WorkerMessage) {
        var raw = message.encoded
        _ = withUnsafeBytes(of: &raw) { write(messageFD, $0.baseAddress, WorkerMessage.size) }
    }

    /// Hands a full buffer to the supervisor and waits until it is written out.
    final class ChunkSink: OutputSink {
        let region: SharedRegion
        init(region: SharedRegion) { self.region = region }

        func write(_ bytes: UnsafeBufferPointer<UInt8>) throws {
            guard bytes.count > 0 else { return }
            precondition(bytes.baseAddress == UnsafePointer(region.output), "a worker flushes its whole shared buffer")
            IsolationWorker.send(WorkerMessage(kind: .chunk, bytes: bytes.count))
            var ack: UInt8 = 0
            while true {
                let n = read(IsolationWorker.ackFD, &ack, 1)
                if n == 1 { break }
                if n < 0, errno == EINTR { continue }
                throw OutputError(description: "the render's supervisor went away")
            }
            region.record.pointee.bytesDone = 0  // handed over: nothing of it is pending now
        }
    }
}
