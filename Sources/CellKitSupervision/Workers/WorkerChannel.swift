// The worker's end of its channels: descriptors moved high and close-on-exec, checked
// before each use to still be the pipe the supervisor gave, written only by the worker
// process itself (never by a child a plugin forked).

import CProcess
import Glibc

/// Exit statuses a worker uses to tell its supervisor what its channels could not.
package enum WorkerExit {
    /// A channel to the supervisor was closed or replaced (by plugin code): the worker cannot report.
    package static let channelBroken: Int32 = 86
}

/// One descriptor the worker talks to its supervisor through.
package struct WorkerChannel: Sendable {
    /// The descriptor, high and close-on-exec.
    package let fd: Int32
    private let device: UInt64, inode: UInt64
    private let owner: pid_t

    /// Takes over `fd` (inherited from the supervisor): moves it to a high close-on-exec
    /// descriptor, closes the original, and remembers what file it is. Nil when `fd` is not open.
    package init?(adopting fd: Int32) {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let high = fcntl(fd, F_DUPFD_CLOEXEC, Self.highDescriptor)
        guard high >= 0 else { return nil }
        close(fd)
        self.fd = high
        (device, inode, owner) = (UInt64(info.st_dev), UInt64(info.st_ino), getpid())
    }

    /// The lowest number channels are moved to: high above what a program opens, below the limit
    /// (read once).
    static let highDescriptor: Int32 = {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        let soft = limit.rlim_cur > 1 << 20 ? 4096 : Int(limit.rlim_cur)
        return Int32(max(16, min(soft - 16, 1000)))
    }()

    /// Whether the descriptor is still the file the supervisor gave and this is still the worker
    /// process. A child that a plugin forked ends here, silently.
    package func check() -> Bool {
        if getpid() != owner || ck_process_forked() != 0 { _exit(0) }
        var info = stat()
        return fstat(fd, &info) == 0 && UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    /// Bytes written to the pipe and not read yet (FIONREAD), or 0 when that cannot be told.
    package func pendingBytes() -> Int32 {
        var count: Int32 = 0
        return ioctl(fd, UInt(FIONREAD), &count) == 0 ? count : 0
    }

    /// Writes all of `bytes`; ends the worker with `WorkerExit.channelBroken` if the channel is gone.
    package func write(_ bytes: [UInt8]) {
        guard check() else { _exit(WorkerExit.channelBroken) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { _exit(WorkerExit.channelBroken) }
            offset += n
        }
    }

    /// Reads one byte; ends the worker with `WorkerExit.channelBroken` if the channel is gone or
    /// closed while the supervisor still lives (`supervisor`: the parent it expects,
    /// `WorkerRole.expectedParent`), returns false if the supervisor is gone.
    package func readByte(supervisor: pid_t) -> Bool {
        guard check() else { _exit(WorkerExit.channelBroken) }
        var byte: UInt8 = 0
        while true {
            let n = read(fd, &byte, 1)
            if n == 1 { return true }
            if n < 0, errno == EINTR { continue }
            if getppid() != supervisor { return false }
            _exit(WorkerExit.channelBroken)
        }
    }
}

/// A sender of frames over a `WorkerChannel`, numbering them from 1.
package struct FrameSender: Sendable {
    /// The channel frames go through.
    package let channel: WorkerChannel
    let key: UInt64
    var sequence: UInt32 = 1

    /// A sender over `channel` tagging frames with `key`.
    package init(channel: WorkerChannel, key: UInt64) { (self.channel, self.key) = (channel, key) }

    /// Sends `frame` (its payload cut to `Frame.maxPayload`).
    package mutating func send(_ frame: Frame) {
        var frame = frame
        if frame.payload.count > Frame.maxPayload { frame.payload.removeLast(frame.payload.count - Frame.maxPayload) }
        channel.write(frame.encoded(sequence: sequence, key: key))
        sequence &+= 1
    }
}
