// The one loop a supervisor runs over a worker, for render, browse and check alike: read the
// channel, hand each whole frame to the watcher, keep the supervisor's own clock, and end the
// worker when the watcher says it is overdue, when a frame is malformed, or when the channel
// closes while the worker lives on. What a frame means and when a worker is late is the
// watcher's (`RenderSupervisor`'s, `CheckSupervisor`'s); how the channel is read is this file's.

import CellKitRuntime
import Foundation
import Glibc

/// What a supervisor makes of one worker's frames and of its own clock.
package protocol WorkerWatcher {
    /// Acts on one whole frame. A `WorkerWatch.Fault` thrown here is the worker's fault (a frame
    /// that cannot be, out of order or forged); any other error ends the worker and reaches the
    /// supervisor's caller.
    mutating func receive(_ frame: Frame) throws
    /// Why the worker must be stopped now, if it must (a deadline passed, a stalled channel):
    /// asked whenever no byte is waiting. `quiet`: seconds since bytes last came; `partialBytes`:
    /// bytes of a frame begun and not ended.
    mutating func overdue(quiet: Double, partialBytes: Int) -> WorkerWatch.Stop?
    /// Whether the worker has said its last word: its channel may close before it ends.
    var isFinished: Bool { get }
    /// Whether the worker answered what it was asked and stays alive for more (a browse window).
    var isAnswered: Bool { get }
    /// Whether the channel is left unread for now: bytes a hook wrote stay in the pipe for the
    /// worker's own check, which names that hook.
    var holdsChannel: Bool { get }
    /// Called once when the channel closes, before the worker is seen to end.
    mutating func channelClosed()
    /// Does a slice of the supervisor's own work while the worker runs and no byte is waiting
    /// (render's count of the rows, `RowCount`): true while more is left, and the channel is
    /// then polled without waiting.
    mutating func idle() -> Bool
}

extension WorkerWatcher {
    package var isAnswered: Bool { false }
    package var holdsChannel: Bool { false }
    package mutating func channelClosed() {}
    package mutating func idle() -> Bool { false }
}

/// Reads one worker's channel until it ends, answers, or must be stopped.
package enum WorkerWatch {
    /// Why the supervisor stopped a worker.
    package enum Stop: Equatable, Sendable {
        /// The watcher's deadline passed.
        case timedOut
        /// The watcher found the channel stuck, with its reason.
        case stalled(String)
        /// A frame could not be read: what was wrong with it (`FrameError`).
        case malformed(String)
        /// The watcher refused a frame: why (`Fault`).
        case fault(String)
        /// The channel closed and the worker lived on past the grace period, unfinished.
        case closed
    }

    /// A frame a watcher refuses: a chunk longer than the buffer, a message after the last...
    package struct Fault: Error {
        /// Why, as a clause: "it sent a message after its last".
        package let reason: String
        /// A fault saying `reason`.
        package init(_ reason: String) { self.reason = reason }
    }

    /// How watching a worker ended.
    package struct Ending {
        /// How the worker process ended; nil when it answered and lives on (`isAnswered`).
        package var status: FaultOutcome?
        /// Why it was stopped, if it was (it was killed then).
        package var stop: Stop?
    }

    /// A closed channel's grace: a dying process closes its descriptors before it can be reaped.
    static let closeGrace = 0.5

    /// Watches `process` through `channel` (read with `decoder`) until it ends, answers or is
    /// stopped; a stopped worker is killed; an ended one is reaped (`FaultOutcome`). `tick`: the
    /// longest wait, in milliseconds, before the watcher's clock is asked again.
    package static func run<Watcher: WorkerWatcher>(
        _ process: WorkerProcess, channel: Int32, decoder: inout FrameDecoder, watcher: inout Watcher, tick: Int32
    ) throws -> Ending {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var descriptor = pollfd(fd: channel, events: Int16(POLLIN), revents: 0)
        var lastBytes = Date()
        var closedAt: Date?
        var ended = false
        var stop: Stop?
        var busy = true  // the watcher's own work (`idle`) is left
        while stop == nil {
            let holding = watcher.holdsChannel && !ended
            let ready = closedAt != nil ? 0 : poll(&descriptor, 1, ended || busy ? 0 : holding ? 5 : tick)
            if ready < 0, errno == EINTR { continue }
            let hungUp = descriptor.revents & Int16(POLLHUP | POLLERR) != 0
            if ready > 0, !holding || hungUp || !watcher.holdsChannel {
                let n = buffer.withUnsafeMutableBytes { read(channel, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR || errno == EAGAIN { continue }
                if n <= 0 {  // every writer closed the channel
                    closedAt = Date()
                    watcher.channelClosed()
                    continue
                }
                lastBytes = Date()
                buffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
                do {
                    while stop == nil, let frame = try decoder.nextFrame() { try watcher.receive(frame) }
                } catch let error as FrameError {
                    stop = .malformed(error.description)
                    break
                } catch let fault as Fault {
                    stop = .fault(fault.reason)
                    break
                } catch {
                    process.kill()
                    throw error
                }
                if watcher.isAnswered { return Ending(status: nil, stop: nil) }
                continue
            }
            if busy, ready == 0, !ended, closedAt == nil { busy = watcher.idle() }  // then the clock, as ever
            if ended || (closedAt != nil && process.hasEnded()) { break }  // and its last frames are read
            if process.hasEnded() {
                ended = true
                continue
            }
            if let closedAt {
                let waited = Date().timeIntervalSince(closedAt)
                if !watcher.isFinished, waited > closeGrace {
                    stop = .closed
                    break
                }
                // Short naps first: a worker that is ending is reaped soon (BENCHMARKS.md, "Measurements
                // behind the code": WorkerWatch.naps).
                usleep(useconds_t(min(10_000, 50 + waited * 20_000)))
            }
            if ready > 0 { usleep(5_000) }  // held bytes: the worker's check ends it, or it sends
            stop = watcher.overdue(quiet: Date().timeIntervalSince(lastBytes), partialBytes: decoder.partialBytes)
        }
        if stop != nil { process.kill() }
        return Ending(status: process.wait(), stop: stop)
    }
}
