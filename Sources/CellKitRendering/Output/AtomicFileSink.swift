// A file that appears only when complete: written to a temporary beside it and renamed into
// place. Never over a device, a FIFO, a directory or a file the render reads; through a
// symbolic link to the file it names; with the old file's permissions; and the temporary
// never outlives the process (PendingTemporaries.swift).

import CellKitDocuments
import CellKitModel
import CellKitRuntime
import Foundation

/// A file a render reads, which its output must never replace.
public struct InputFile: Sendable, Equatable {
    /// The file's path, as the document resolved it.
    public var path: String
    /// What the file is, for messages: "the table document", "the stylesheet".
    public var role: String

    /// The file at `path`, read as `role`.
    public init(path: String, role: String) { (self.path, self.role) = (path, role) }
}

extension TableDocument {
    /// Every file rendering the document reads: the document itself, its stylesheet, its asset
    /// catalog and the catalog's image files, and each section's rows data file.
    public var inputFiles: [InputFile] {
        var files =
            TableDocument.isStandardInput(path) ? [] : [InputFile(path: path, role: "the table document")]
        if let source = stylesheet.source { files.append(InputFile(path: source, role: "the stylesheet")) }
        if let source = assets.source { files.append(InputFile(path: source, role: "the asset catalog")) }
        for (name, image) in assets.images.sorted(by: { $0.key < $1.key }) {
            if let file = image.file { files.append(InputFile(path: file, role: "the file of image '\(name)'")) }
        }
        for (number, section) in sections.enumerated() {
            if case .file(let data) = section.rows {
                files.append(InputFile(path: data.path, role: "the rows data file of section \(number)"))
            }
        }
        return files
    }
}

/// A file written atomically: to a temporary file beside it, renamed into place by `commit()`.
/// Until then (or after `abort()`) the destination is untouched.
///
/// - A symbolic link is written through: the file at the end of its chain is replaced, and the
///   link stays a link.
/// - Only a regular file is replaced: a directory, FIFO, socket or device is refused, and so is
///   any of the `protecting` files (compared by device and inode, so a link or another name for
///   one is refused too).
/// - A replaced file keeps its permission bits, and its owner and group when running as root;
///   a new file gets 0666 less the umask, as the shell's `>` gives.
/// - The temporary is removed by `abort()`, by dropping the sink, when the process calls
///   `exit()`, and on SIGINT, SIGTERM, SIGHUP or a crash. The handlers for those signals are in
///   place only while a sink is pending.
public final class AtomicFileSink: OutputSink {
    /// The destination file as given, which appears or is replaced only by `commit()`.
    public let path: String
    /// The file that is replaced: `path`, or the file its chain of symbolic links ends at.
    public let target: String
    private let temporary: String
    private let file: DescriptorSink
    private let slot: Int?
    private var finished = false

    /// Checks the destination and creates the temporary file (`.NAME.XXXXXX`) in the target's
    /// folder; throws an `OutputError` naming the path and why if the destination is refused or
    /// the temporary cannot be made. Dropping the sink without `commit()` removes it.
    public init(path: String, protecting inputs: [InputFile] = []) throws {
        self.path = path
        let target = try Self.resolve(path)
        let shown = target == path ? path : "\(path) (a link to \(target))"
        var existing = stat()
        var exists = true
        if stat(target, &existing) != 0 {
            guard errno == ENOENT else { throw OutputError(description: "cannot write \(shown): \(Self.reason())") }
            exists = false
        }
        if exists {
            if let kind = Self.kind(existing.st_mode) {
                throw OutputError(description: "cannot write \(shown): it is \(kind), not a regular file")
            }
            for input in inputs {
                var read = stat()
                if stat(input.path, &read) == 0, read.st_dev == existing.st_dev, read.st_ino == existing.st_ino {
                    let other = input.path == path || input.path == target ? "" : " (\(input.path))"
                    throw OutputError(
                        description: "cannot write \(shown): it is \(input.role)\(other), which the render reads")
                }
            }
        }
        let (fd, temporary) = try Self.createTemporary(beside: target, for: path)
        if exists {
            var mode = existing.st_mode & 0o7777
            if geteuid() == 0 {
                _ = fchown(fd, existing.st_uid, existing.st_gid)
            } else if existing.st_uid != geteuid() {
                mode &= 0o777  // not ours: no set-user-ID or set-group-ID bits for our copy
            } else if existing.st_gid != getegid(), fchown(fd, uid_t.max, existing.st_gid) != 0 {
                mode &= ~0o2000
            }
            if fchmod(fd, mode) != 0 {
                let reason = Self.reason()
                close(fd)
                unlink(temporary)
                throw OutputError(description: "cannot keep the permissions of \(shown): \(reason)")
            }
        }
        self.target = target
        self.temporary = temporary
        file = DescriptorSink(fd: fd, name: path)
        slot = PendingTemporaries.add(temporary)
    }

    deinit { abort() }

    /// Writes `bytes` to the temporary file; throws an `OutputError` on failure.
    public func write(_ bytes: UnsafeBufferPointer<UInt8>) throws { try file.write(bytes) }

    /// Makes the file durable and renames it over the target.
    public func commit() throws {
        guard !finished else { return }
        finished = true
        defer {
            close(file.fd)
            if let slot { PendingTemporaries.remove(slot) }
        }
        guard fsync(file.fd) == 0, rename(temporary, target) == 0 else {
            let reason = Self.reason()
            unlink(temporary)
            throw OutputError(description: "cannot write \(path): \(reason)")
        }
        let folder = open(Self.folder(of: target), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)  // the rename itself durable; best effort
            close(folder)
        }
    }

    /// Removes the temporary file; the destination keeps what it had.
    public func abort() {
        guard !finished else { return }
        finished = true
        close(file.fd)
        unlink(temporary)
        if let slot { PendingTemporaries.remove(slot) }
    }

    // MARK: Helpers

    /// `path`, or the file at the end of its chain of symbolic links (which need not exist).
    static func resolve(_ path: String) throws -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & 0o170000 == 0o120000 else { return current }
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = buffer.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    readlink(current, $0, buffer.count - 1)
                }
            }
            guard count >= 0 else { throw OutputError(description: "cannot write \(path): \(reason())") }
            let link = String(decoding: buffer[..<count], as: UTF8.self)
            let base = PathText.folder(of: current)
            current = link.hasPrefix("/") || base.isEmpty ? link : base + "/" + link
        }
        throw OutputError(description: "cannot write \(path): too many levels of symbolic links")
    }

    /// Why a file of `mode` is refused ("a FIFO (named pipe)"), or nil for a regular file.
    static func kind(_ mode: mode_t) -> String? {
        switch mode & 0o170000 {
        case 0o100000: nil
        case 0o040000: "a directory"
        case 0o010000: "a FIFO (named pipe)"
        case 0o020000: "a character device"
        case 0o060000: "a block device"
        case 0o140000: "a socket"
        default: "not a regular file"
        }
    }

    /// Opens a new `.NAME.XXXXXX` beside `target`, exclusively, with mode 0666 less the umask.
    private static func createTemporary(beside target: String, for path: String) throws -> (Int32, String) {
        let folder = folder(of: target)
        let stem = folder + "/." + PathText.lastComponent(of: target) + "."
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        for _ in 0..<100 {
            let name = stem + String(decoding: (0..<6).map { _ in letters.randomElement()! }, as: UTF8.self)
            let fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 { return (fd, name) }
            guard errno == EEXIST else { break }
        }
        throw OutputError(description: "cannot create a file in \(folder) for \(path): \(reason())")
    }

    /// The folder holding `path`: "." for a bare name.
    private static func folder(of path: String) -> String {
        let folder = PathText.folder(of: path)
        return folder.isEmpty ? "." : folder
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
