// Which files a document may read: regular files inside one folder tree, the
// root. Paths are checked as written, then as the kernel resolves them
// (symbolic links followed); files are opened without blocking (a FIFO never
// hangs a read) and checked with fstat before a byte is read.

import CellKitModel
import Foundation

/// Why a file a document names cannot be read; the caller places it at the line that names the file.
/// The message names the file but never quotes it.
package struct FileProblem: Error, Sendable {
    /// What is wrong, without a place.
    package let message: String
    init(_ message: String) { self.message = message }
}

/// A file a document names, checked against the root.
struct ConfinedPath: Sendable, Equatable {
    /// The path as messages show it: the document's folder joined with what it wrote, `..` folded.
    let display: String
    /// The real path (absolute, no symbolic links), which is what gets opened.
    let real: String
}

/// The folder tree a document may read files from.
struct FileRoot: Sendable, Equatable {
    /// The root's real path: absolute, no symbolic links, no trailing slash ("/" for the whole file system).
    let real: String
    /// The root as given, made absolute with `..` folded, for the check made before touching the file system.
    let lexical: String

    /// The root for the document at `document`: `folder` if given (it must hold the document), else the
    /// document's own folder.
    static func forDocument(_ document: String, folder: String?) throws(FileProblem) -> FileRoot {
        let documentFolder = PathText.folder(of: document)
        let ownFolder = documentFolder.isEmpty ? "." : documentFolder
        guard let ownReal = FileAccess.realPath(ownFolder) else {
            throw FileProblem("the document's folder \(ownFolder) cannot be resolved")
        }
        guard let folder else {
            return FileRoot(real: ownReal, lexical: FileAccess.normalized(FileAccess.absolute(ownFolder)))
        }
        var status = stat()
        guard let real = FileAccess.realPath(folder), stat(real, &status) == 0, status.st_mode & S_IFMT == S_IFDIR
        else {
            throw FileProblem("--root \(folder) is not a folder; give the folder the document may read files from")
        }
        let root = FileRoot(real: real, lexical: FileAccess.normalized(FileAccess.absolute(folder)))
        guard root.holds(ownReal) else {
            throw FileProblem(
                "--root \(folder) does not hold the document (in \(ownReal)); give a folder that holds it, or leave --root out"
            )
        }
        return root
    }

    /// True when `path` (absolute, normalized) is the root or inside it.
    func holds(_ path: String) -> Bool { Self.holds(path, in: real) }

    private static func holds(_ path: String, in folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }

    /// Checks `written`, a path a file at `folder` names: relative to `folder`, or absolute. Refused when it
    /// is outside the root as written, or once symbolic links are followed, and when it does not exist.
    func resolve(_ written: String, from folder: String) throws(FileProblem) -> ConfinedPath {
        guard !written.isEmpty, !written.utf8.contains(0) else {
            throw FileProblem("the path is empty or holds a NUL character; write a file's path")
        }
        let joined = written.hasPrefix("/") ? written : (folder.isEmpty ? written : folder + "/" + written)
        let display = FileAccess.normalized(joined)
        let absolute = FileAccess.normalized(FileAccess.absolute(joined))
        let hint = "the folder this document may read files from; move the file there, or widen it with --root DIR"
        // Checked as written first: a path outside is refused without asking the file system whether it exists.
        guard Self.holds(absolute, in: lexical) || holds(absolute) else {
            throw FileProblem("'\(written)' is outside \(real), \(hint)")
        }
        guard let resolved = FileAccess.realPath(FileAccess.absolute(joined)) else {
            let why = errno == ENOENT || errno == ENOTDIR ? "does not exist" : String(cString: strerror(errno))
            throw FileProblem("'\(written)' \(why) (looked for \(display)); check the path")
        }
        guard holds(resolved) else {
            throw FileProblem("'\(written)' leads through a symbolic link to \(resolved), outside \(real), \(hint)")
        }
        return ConfinedPath(display: display, real: resolved)
    }
}

/// Opening and reading files without following a swapped link, blocking on a FIFO or reading a device.
enum FileAccess {
    /// `path` made absolute against the current folder.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// `path` with `.` and `..` folded as text ("a/b/../c" → "a/c"); a relative path stays relative.
    /// Worked on the path's bytes, split at each `/` as the kernel splits it: `split` and `joined` over
    /// Characters were a visible part of a small render's start (BENCHMARKS.md, "Measurements behind
    /// the code": FileAccess.normalized).
    static func normalized(_ path: String) -> String {
        var path = path
        return path.withUTF8 { bytes in
            let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
            let isAbsolute = bytes.first == slash
            let isDotDot = { (part: Range<Int>) in
                part.count == 2 && bytes[part.lowerBound] == dot && bytes[part.lowerBound + 1] == dot
            }
            var parts: [Range<Int>] = []
            var start = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == slash {
                defer { start = end + 1 }
                let part = start..<end
                if part.isEmpty || (part.count == 1 && bytes[start] == dot) { continue }
                if isDotDot(part), let last = parts.last, !isDotDot(last) {
                    parts.removeLast()
                } else if isDotDot(part), isAbsolute {
                    continue  // "/.." is "/"
                } else {
                    parts.append(part)
                }
            }
            if parts.isEmpty { return isAbsolute ? "/" : "." }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 1)
            for (i, part) in parts.enumerated() {
                if i > 0 || isAbsolute { out.append(slash) }
                out.append(contentsOf: bytes[part])
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// The real path of `path` (symbolic links followed), or nil with `errno` set.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// What a file that is not a regular file is.
    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a folder"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    /// Opens `path` for reading if it is a regular file. `O_NONBLOCK` keeps a FIFO from blocking the open,
    /// `O_NOFOLLOW` refuses a last component that became a symbolic link after it was resolved, and fstat
    /// checks what was opened. `name` is how messages name the file.
    static func openRegular(_ path: String, name: String) throws(FileProblem) -> Int32 {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW)
        guard fd >= 0 else {
            let why =
                switch errno {
                case ENOENT: "does not exist"
                case ELOOP: "is a symbolic link that appeared after the path was checked"
                case EACCES: "cannot be read (check its permissions)"
                default: "cannot be opened: \(String(cString: strerror(errno)))"
                }
            throw FileProblem("'\(name)' \(why)")
        }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            let what = kind(status.st_mode)
            close(fd)
            throw FileProblem("'\(name)' is \(what), not a regular file; name a regular file")
        }
        // A regular file never blocks; clear the flag so reads behave as usual.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// The bytes of the regular file at `path`, at most `limit` of them; `tooLarge` says what to do when it
    /// holds more.
    static func read(_ path: String, name: String, limit: Int, tooLarge: String) throws(FileProblem) -> [UInt8] {
        let fd = try openRegular(path, name: name)
        defer { close(fd) }
        return try read(descriptor: fd, name: name, limit: limit, tooLarge: tooLarge)
    }

    /// The bytes of the regular file open at `fd` (`openRegular`), from where it is, as `read(_:name:limit:tooLarge:)`
    /// reads them; `fd` stays open.
    static func read(descriptor fd: Int32, name: String, limit: Int, tooLarge: String) throws(FileProblem) -> [UInt8] {
        // Sized by the file, not the limit: a zeroed 1 MiB buffer for a small document faulted in
        // every page, a good part of a small render's page faults (BENCHMARKS.md, "Measurements
        // behind the code": FileAccess.read). One byte more shows growth.
        var info = stat()
        let size = fstat(fd, &info) == 0 ? Int(info.st_size) : limit
        var bytes = [UInt8](repeating: 0, count: min(max(size, 0), limit) + 1)
        var count = 0
        while count <= limit {
            if count == bytes.count {  // it grew while being read: up to the limit and one byte
                bytes += repeatElement(0, count: min(bytes.count, limit + 1 - bytes.count))
            }
            let n = bytes.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw FileProblem("'\(name)' cannot be read: \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            count += n
        }
        guard count <= limit else { throw FileProblem("'\(name)' is larger than \(sizeText(limit)); \(tooLarge)") }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// Standard input read to its end, at most `limit` bytes (more is an error that says `tooLarge`).
    static func readStandardInput(limit: Int, tooLarge: String) throws(FileProblem) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count <= limit {
            let n = chunk.withUnsafeMutableBytes { Foundation.read(0, $0.baseAddress!, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else {
                throw FileProblem("standard input cannot be read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { return bytes }
            bytes += chunk[..<n]
        }
        throw FileProblem("standard input is larger than \(sizeText(limit)); \(tooLarge)")
    }

    /// 250000 as "250,000".
    static func grouped(_ n: Int) -> String {
        var digits = String(n), out = ""
        while digits.count > 3 {
            out = "," + digits.suffix(3) + out
            digits.removeLast(3)
        }
        return digits + out
    }

    /// "1 MiB", "64 KiB", "512 bytes".
    static func sizeText(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
