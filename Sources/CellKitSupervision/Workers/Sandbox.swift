// The worker's sandbox (SECURITY.md, "The sandbox"), closed in one call before any plugin
// code runs (CSandbox's `ck_sandbox_enter`): namespaces, no terminal, no capabilities,
// Landlock, and a seccomp filter whose refused calls are answered by a listener outside the
// worker. The listener names each refused call on the supervisor's report pipe; the
// supervisor reads it (`Sandbox.Report`), so nothing a plugin does in the worker can change
// what is refused or what is reported. What this kernel cannot apply is said, never skipped
// in silence, and `--sandbox require` refuses to run without it.

import CProcess
import CSandbox
import CellKitRuntime
import CellKitText
import Foundation
import Glibc
import Synchronization

/// The worker's sandbox: what it applies, and what its listener reports.
package enum Sandbox {
    /// What a worker's sandbox must be.
    package enum Mode: String, Sendable, Codable, CaseIterable {
        /// Applied where the kernel allows; a missing part is a warning.
        case on
        /// Applied whole, or the command fails (exit 2) naming the missing part.
        case require
        /// Not applied: plugins run with the user's full rights.
        case off
    }

    /// The descriptor a worker finds its supervisor's report pipe at.
    package static let reportFD: Int32 = 7
    /// Where a forked worker finds the socket its namespaces come over (`Ahead`).
    package static let namespacesFD: Int32 = 8

    /// The sandbox's network and IPC namespaces made by the supervisor while its forked worker
    /// starts, and sent to it (`ck_sandbox_send_namespaces`): the worker joins them instead of
    /// making its own, the dearest of the sandbox's steps, on the processor the supervisor leaves
    /// idle meanwhile (BENCHMARKS.md, "Measurements behind the code": Sandbox.namespacesAhead).
    /// Made on a helper thread, which is left in them and ends; joined before the next worker
    /// forks. Only a supervisor with CAP_SYS_ADMIN makes them (without it the worker needs a user
    /// namespace, which a thread of a process with more than one cannot make): tried as root.
    package final class Ahead {
        private var thread: pthread_t?

        /// Starts the helper that sends the namespaces over `socket` (and closes it); nil, with
        /// `socket` closed, when this process is not root or no thread starts: the worker then
        /// makes its own when the socket closes.
        package init?(sendingOver socket: Int32) {
            guard geteuid() == 0 else {
                close(socket)
                return nil
            }
            var started = pthread_t()
            let context = UnsafeMutableRawPointer(bitPattern: Int(socket) + 1)  // never null
            guard
                pthread_create(
                    &started, nil,
                    { context in
                        _ = ck_sandbox_send_namespaces(Int32(Int(bitPattern: context) - 1))
                        return nil
                    }, context) == 0
            else {
                close(socket)
                return nil
            }
            thread = started
        }

        deinit { join() }

        /// Waits for the helper to end, and for the kernel to stop listing it (before another
        /// fork: `ForkedWorker.mayFork`).
        package func join() {
            guard let thread else { return }
            pthread_join(thread, nil)
            self.thread = nil
            ForkedWorker.awaitOneThread()
        }
    }

    /// A worker's memory limit when none is given (`--worker-memory`), in MiB.
    package static let defaultMemoryMiB = 4096

    /// The descriptors a worker may hold open at once (RLIMIT_NOFILE).
    package static let openFiles: UInt64 = 1024

    /// One act the listener saw: a call it refused, a file the worker could not open (check),
    /// or bytes written to standard output (check).
    package struct Note: Sendable, Equatable {
        /// What was seen.
        package enum Kind: String, Sendable {
            /// A call refused (EPERM), or an open Landlock refused (check).
            case refused
            /// Bytes written to standard output (check).
            case output
        }
        /// What was seen.
        package var kind: Kind
        /// The running hook's prefix ("customizeCellFor"), when a hook was running.
        package var hook: String?
        /// What the call would have done ("start a process (fork)"), or the bytes written, shown.
        package var act: String
        /// The line naming it: `libspy.so: customizeCellForSpy tried to start a process (fork):
        /// refused by the sandbox at row 0.1`.
        package var line: String
        /// The step a check worker had marked when the call was made (`HookProgress.Header.step`).
        package var step: Int
        /// The line up to the act: the plugin file, hook and cell type (one report each is enough).
        package var maker: String { line.range(of: " tried to ").map { String(line[..<$0.lowerBound]) } ?? line }

        /// The note as the listener sends it: five tab-separated fields.
        var encoded: String { [kind.rawValue, String(step), hook ?? "", act, line].joined(separator: "\t") }

        /// A note decoded from its line, or nil if the line is not one.
        init?(encoded text: Substring) {
            let fields = text.split(separator: "\t", maxSplits: 4, omittingEmptySubsequences: false)
            guard fields.count == 5, let kind = Kind(rawValue: String(fields[0])), let step = Int(fields[1]) else {
                return nil
            }
            (self.kind, self.step, self.act, self.line) = (kind, step, String(fields[3]), String(fields[4]))
            hook = fields[2].isEmpty ? nil : String(fields[2])
        }

        init(kind: Kind, step: Int, hook: String?, act: String, line: String) {
            (self.kind, self.step, self.hook, self.act, self.line) = (kind, step, hook, act, line)
        }
    }

    /// The supervisor's end of a worker's report pipe: the listener's notes, read without
    /// blocking. Not `Sendable`: one supervisor reads it.
    package final class Report {
        /// The read end (the supervisor's).
        let fd: Int32
        /// The write end, for the worker's start (close it once the worker has it).
        package private(set) var writeEnd: Int32
        private var pending: [UInt8] = []

        /// A new report pipe (both ends close-on-exec), or nil when none can be made.
        package init?() {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { return nil }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)  // the listener sets its own end non-blocking
            (fd, writeEnd) = (ends[0], ends[1])
        }

        deinit {
            close(fd)
            closeWriteEnd()
        }

        /// Closes this process's copy of the write end (the worker holds its own).
        package func closeWriteEnd() {
            if writeEnd >= 0 { close(writeEnd) }
            writeEnd = -1
        }

        /// Once the worker has ended: waits (at most `seconds`) for its listener to end, which
        /// closes the pipe, so that the worker's last output is forwarded and every note is here
        /// before anything is killed or reaped; then the notes not taken yet.
        package func awaitListener(seconds: Double = 1) -> [Note] {
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 65536)
            while Date() < deadline {
                var check = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&check, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000)))
                if ready < 0, errno == EINTR { continue }
                guard ready > 0 else { break }
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR || errno == EAGAIN { continue }
                guard n > 0 else { break }  // end of file: the listener has ended
                pending += buffer[..<n]
            }
            return take()
        }

        /// The listener's process id, once its first line has been read: a child of this process
        /// once the worker has ended (this process is their subreaper), for `WorkerProcess.finish`.
        package private(set) var listener: pid_t?

        /// The notes written since the last call.
        package func take() -> [Note] {
            pending += SharedRegion.readAll(fd, atMost: 1 << 20)  // non-blocking: what is there
            guard let end = pending.lastIndex(of: 0x0A) else { return [] }
            let text = String(decoding: pending[...end], as: UTF8.self)
            pending.removeSubrange(...end)
            return text.split(separator: "\n").compactMap { line in
                if line.hasPrefix("listener\t") {
                    listener = pid_t(line.dropFirst("listener\t".count))
                    return nil
                }
                return Note(encoded: line)
            }
        }
    }

    /// What of the sandbox this machine can apply.
    package struct Support: Sendable, Equatable {
        /// Whether a worker can have network and IPC namespaces of its own.
        package var namespaces: Bool
        /// The kernel's Landlock ABI (0: none).
        package var landlockABI: Int
        /// Whether a seccomp filter can be installed.
        package var seccomp: Bool

        /// What a machine supports: each part as found.
        package init(namespaces: Bool, landlockABI: Int, seccomp: Bool) {
            (self.namespaces, self.landlockABI, self.seccomp) = (namespaces, landlockABI, seccomp)
        }

        /// What cannot be applied, one phrase each; empty when all of it can.
        package var missing: [String] {
            var parts: [String] = []
            if !namespaces { parts.append("no network namespace (the kernel refuses to make one)") }
            if landlockABI < 1 {
                parts.append("no Landlock (the kernel has none): plugins can read and write your files")
            }
            if !seccomp { parts.append("no seccomp filter: processes, programs and sockets stay allowed") }
            return parts
        }

        /// One line for `cellkit --version`. Built by concatenation: `joined(separator:)` is
        /// generic, and its metadata was a large part of `--version`'s instructions after the loader
        /// (BENCHMARKS.md, "Measurements behind the code": Sandbox.summary).
        package var summary: String {
            let landlock = landlockABI > 0 ? "Landlock ABI \(landlockABI)" : "no Landlock"
            return "sandbox: " + (namespaces ? "network namespace" : "no network namespace") + ", " + landlock + ", "
                + (seccomp ? "seccomp" : "no seccomp")
        }
    }

    /// What this machine supports, found by trying. The namespaces are made for this process, with
    /// no child started; only when that is refused does a child process try, so that a refusal is
    /// never guessed. This process is moved for good: only a process about to exit calls it
    /// (`cellkit --version`).
    package static func probeBeforeExit() -> Support {
        Support(
            namespaces: ck_sandbox_namespaces_here() != 0 || namespaceInChild(),
            landlockABI: Int(ck_sandbox_landlock_abi()), seccomp: ck_sandbox_seccomp_available() != 0)
    }

    /// What this machine supports, the namespaces tried in a child process. CLIConventionsTests
    /// holds `probeBeforeExit()` to it.
    package static func probeInChild() -> Support {
        Support(
            namespaces: namespaceInChild(), landlockABI: Int(ck_sandbox_landlock_abi()),
            seccomp: ck_sandbox_seccomp_available() != 0)
    }

    /// What this machine supports, for `cellkit --version`: the namespace answer kept in
    /// `folder/sandbox-support` under `rememberKey()` (this boot, this user, the namespace and
    /// seccomp state this process starts in, the kernel's settings for namespaces), found by
    /// trying (`probeBeforeExit()`, which moves this process for good) only when no answer is
    /// kept for that key: making a network namespace was a large part of `--version`'s time
    /// (BENCHMARKS.md, "Measurements behind the code": Sandbox.remembered).
    /// Landlock and seccomp are asked each time: one system call each.
    package static func rememberedBeforeExit(in folder: String) -> Support {
        let key = rememberKey()
        let file = folder + "/sandbox-support"
        let kept = readSmallFile(file) ?? []
        if kept.count == key.count + 3, kept.starts(with: key), kept[key.count] == 0x09, kept.last == 0x0A,
            let answer = [UInt8(ascii: "0"), UInt8(ascii: "1")].firstIndex(of: kept[key.count + 1])
        {
            return Support(
                namespaces: answer == 1, landlockABI: Int(ck_sandbox_landlock_abi()),
                seccomp: ck_sandbox_seccomp_available() != 0)
        }
        let support = probeBeforeExit()
        writeAtomically(file, key + [0x09, UInt8(ascii: support.namespaces ? "1" : "0"), 0x0A])
        return support
    }

    /// What the namespace answer depends on, as one line of bytes: the real and effective user,
    /// the boot, the kernel's namespace settings, the user and network namespaces and the seccomp
    /// and no-new-privileges state this process starts in (a container, a sandbox around
    /// cellkit). Worked on bytes, as `readSmallFile` is: Strings split and joined, and Foundation's
    /// `firstRange(of:)`, cost more than the probe they spare (Sandbox.remembered).
    package static func rememberKey() -> [UInt8] {
        var key = Array("\(getuid()),\(geteuid())".utf8)
        key.reserveCapacity(256)  // grown once, not at each part (BENCHMARKS.md: Sandbox.remembered)
        for setting in [
            "/proc/sys/kernel/random/boot_id", "/proc/sys/user/max_user_namespaces",
            "/proc/sys/user/max_net_namespaces", "/proc/sys/user/max_ipc_namespaces",
            "/proc/sys/kernel/unprivileged_userns_clone", "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
        ] {
            key.append(0x20)
            key += readSmallFile(setting).map { $0.prefix { $0 != 0x0A } } ?? [UInt8(ascii: "-")]
        }
        for namespace in ["/proc/self/ns/user", "/proc/self/ns/net"] {
            var buffer = [UInt8](repeating: 0, count: 64)
            let n = buffer.withUnsafeMutableBytes { readlink(namespace, $0.baseAddress!, 63) }
            key.append(0x20)
            key += n > 0 ? buffer[..<n] : [UInt8(ascii: "-")]
        }
        // Asked of prctl, as /proc/self/status shows them (NoNewPrivs, Seccomp): the kernel writing out
        // that whole file for two of its lines was most of what `--version` spends beyond `--help`
        // (BENCHMARKS.md, "Measurements behind the code": Sandbox.remembered).
        key += Array(" NoNewPrivs:\(ck_sandbox_no_new_privs()) Seccomp:\(ck_sandbox_seccomp_mode())".utf8)
        return key
    }

    /// The first 4 KiB of a small file (a setting under /proc, a kept answer),
    /// or nil when it cannot be opened.
    private static func readSmallFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // Uninitialized: zeroing 4 KiB for each of the eight files was a fifth of `rememberKey`.
        return [UInt8](unsafeUninitializedCapacity: 4096) { buffer, count in
            var used = 0
            while used < buffer.count {
                let n = read(fd, buffer.baseAddress! + used, buffer.count - used)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { break }
                used += n
            }
            count = used
        }
    }

    /// Writes `text` to `path` through a temporary file renamed over it (a reader sees the old
    /// answer or the new one); the folder is made if missing. Quietly nothing when it cannot be.
    private static func writeAtomically(_ path: String, _ bytes: [UInt8]) {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        if let parent = folder.lastIndex(of: "/") { mkdir(String(folder[..<parent]), 0o700) }
        mkdir(folder, 0o700)
        let temporary = path + ".\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        if written != bytes.count || rename(temporary, path) != 0 { unlink(temporary) }
    }

    /// Whether a child process can make the namespaces a worker does.
    private static func namespaceInChild() -> Bool {
        let child = fork()
        if child == 0 { _exit(ck_sandbox_namespaces_here() != 0 ? 0 : 1) }
        guard child > 0 else { return false }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        return status & 0x7f == 0 && (status >> 8) & 0xff == 0
    }

    /// Notes of the parts this worker could not apply, for its warnings.
    private static let notes = Mutex<[String]>([])

    /// The parts `ck_sandbox_enter` reports missing, each with what it means.
    private static let parts: [(bit: Int32, note: String)] = [
        (
            Int32(CK_SANDBOX_NO_NETWORK_NAMESPACE),
            "no network namespace: sockets opened by other means reach the network"
        ),
        (Int32(CK_SANDBOX_NO_IPC_NAMESPACE), "no IPC namespace: plugins share System V IPC with your processes"),
        (Int32(CK_SANDBOX_NO_LANDLOCK), "no Landlock: plugins can read and write your files"),
        (Int32(CK_SANDBOX_NO_SECCOMP), "no seccomp filter: plugins can start processes, run programs and open sockets"),
        (Int32(CK_SANDBOX_NO_CAPABILITY_DROP), "capabilities could not be dropped: plugins keep your privileges"),
    ]

    /// In a worker, with a single thread, before any plugin is loaded: closes the sandbox around
    /// this process for good (`ck_sandbox_enter`; its listener is a child outside the sandbox), and
    /// returns the parts that could not be applied (also kept for `unapplied`). `readable`: what plugins may read (`readable(adding:)`); `watching` (check):
    /// opens and writes to standard output are noted too; `reportFD`: the supervisor's report
    /// pipe (-1: none); `memoryMiB`: the worker's address-space limit (0: none); `joiningAhead`: the
    /// supervisor sends namespaces made ahead (`Ahead`) over `namespacesFD`, to be joined.
    @discardableResult
    package static func enter(
        readable: [String], watching: Bool = false, reportFD: Int32, memoryMiB: Int, joiningAhead: Bool = false
    ) -> [String] {
        runLeakCheckNow()
        let paths = readable.map { strdup($0) }
        defer { for path in paths { free(path) } }
        // Under AddressSanitizer (the sanitizer builds) the shadow memory is terabytes of address space.
        let memory = isSanitized ? 0 : UInt64(max(0, memoryMiB)) << 20
        let result = paths.map { UnsafePointer($0) }.withUnsafeBufferPointer { buffer in
            var plan = ck_sandbox_plan(
                readable: buffer.baseAddress, readable_count: Int32(buffer.count),
                watch: Int32(CK_SANDBOX_WATCH_OPENS) | (watching ? Int32(CK_SANDBOX_WATCH_OUTPUT) : 0),
                report_fd: isOpenFD(reportFD) ? reportFD : -1, memory_limit: memory, open_files: openFiles,
                namespaces_fd: joiningAhead ? namespacesFD : -1)
            return ck_sandbox_enter(&plan, noteCallback, forwardCallback)
        }
        let missing =
            result < 0
            ? ["no sandbox (\(String(cString: strerror(errno))))"]
            : parts.filter { result & $0.bit != 0 }.map(\.note)
        notes.withLock { $0 = missing.map { "sandbox: " + $0 } }
        return missing
    }

    private static func isOpenFD(_ fd: Int32) -> Bool { fd >= 0 && fcntl(fd, F_GETFD) >= 0 }

    private static let isSanitized = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil

    /// The notes of what this worker could not apply.
    package static var unapplied: [String] { notes.withLock { $0 } }

    /// Runs in the listener: the note line for what it saw, under the progress record the worker
    /// shares (the hook running when the call was made: the call waits for the answer). The
    /// listener is a forked child: nothing here takes a lock.
    private static let noteCallback: ck_sandbox_note_fn = { kind, act, detail, length, line, capacity in
        let bytes = UnsafeRawBufferPointer(start: detail, count: Int(max(0, length)))
        let shown = TextSanitizer.visible(String(decoding: bytes, as: UTF8.self)).replacingTabs()
        let note: Note
        let step = Int(HookProgress.record?.pointee.step ?? 0)
        switch Int(kind) {
        case Int(CK_SANDBOX_NOTE_OUTPUT):
            note = Note(kind: .output, step: step, hook: runningHook(), act: shown, line: "")
        default:
            let what =
                switch Int(kind) {
                case Int(CK_SANDBOX_NOTE_READ): "read a file outside the sandbox (\(shown))"
                case Int(CK_SANDBOX_NOTE_WRITE): "write a file (\(shown))"
                default: act.map { String(cString: $0) } ?? "make a refused system call"
                }
            let text =
                HookProgress.record.map { FaultLine.text($0, .refused(what)) }
                ?? "a plugin tried to \(what): refused by the sandbox"
            note = Note(kind: .refused, step: step, hook: runningHook(), act: what, line: text)
        }
        let encoded = String(note.encoded.map { $0 == "\n" ? " " : $0 }).utf8.prefix(Int(capacity)).map {
            CChar(bitPattern: $0)
        }
        encoded.withUnsafeBufferPointer { line?.update(from: $0.baseAddress!, count: $0.count) }
        return Int32(encoded.count)
    }

    /// Runs in the listener: a line the worker wrote to standard output or error, shown on this
    /// process's standard error with every control character made visible.
    private static let forwardCallback: ck_sandbox_forward_fn = { bytes, length in
        guard let bytes, length > 0 else { return }
        var text = String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(length)), as: UTF8.self)
        let newline = text.hasSuffix("\n")
        if newline { text.removeLast() }
        let line = Array((TextSanitizer.visible(text) + "\n").utf8)
        line.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return }
                offset += n
            }
        }
    }

    /// What a worker may read once closed: `paths` (plugins, their folders, the files the document
    /// names), the system's library folders, and the folder of every object loaded now (the
    /// toolchain's libraries).
    package static func readable(adding paths: [String]) -> [String] {
        // The C library reads the processor count from /sys/devices/system/cpu (a Swift plugin's
        // runtime asks while it loads; /proc/stat is its fallback), the time zone from
        // /etc/localtime, and locales' aliases and definitions (setlocale) from /usr/share/locale
        // and /usr/share/i18n, and its allocator whether the kernel overcommits
        // (/proc/sys/vm/overcommit_memory, read once when a thread's arena first shrinks: seen
        // after 20,000 rows of a self-sizing table): facts about the machine, no one's data.
        let system = [
            "/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib", "/etc/ld.so.cache", "/usr/share/zoneinfo",
            "/etc/localtime", "/sys/devices/system/cpu", "/usr/share/locale", "/usr/share/i18n",
            "/proc/sys/vm/overcommit_memory",
        ]
        // Read whole and walked with memchr: a line at a time through fgets and a String each took a
        // large part of the worker's start, and so did splitting it into an array of lines
        // (BENCHMARKS.md, "Measurements behind the code": Sandbox.maps).
        let fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return paths + system }
        defer { close(fd) }
        return paths + system + mappedFolders(SharedRegion.readAll(fd, atMost: 64 << 20))
    }

    /// The folders of the files `maps` (the text of /proc/self/maps) names, sorted: each line's
    /// path is from its first slash, its folder up to its last. A file's mappings come one after
    /// another, so a line in the folder of the line before is passed over without a String.
    package static func mappedFolders(_ maps: [UInt8]) -> [String] {
        var folders = Set<String>()
        maps.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            /// Where `byte` first is in `start..<end`, if it is.
            func first(_ byte: UInt8, _ start: Int, _ end: Int) -> Int? {
                memchr(base + start, Int32(byte), end - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) }
            }
            var start = 0, previous = 0..<0
            while start < bytes.count {
                let end = first(0x0A, start, bytes.count) ?? bytes.count
                defer { start = end + 1 }
                guard let slash = first(0x2F, start, end) else { continue }
                var last = end - 1
                while last > slash, bytes[last] != 0x2F { last -= 1 }
                let folder = slash..<last
                guard last > slash,
                    folder.count != previous.count
                        || memcmp(base + folder.lowerBound, base + previous.lowerBound, folder.count) != 0
                else { continue }
                previous = folder
                folders.insert(String(decoding: UnsafeBufferPointer(rebasing: bytes[folder]), as: UTF8.self))
            }
        }
        return folders.sorted()
    }

    /// The folders the dynamic loader would search for the dependencies of the libraries at
    /// `paths` (their run paths) and those in `LD_LIBRARY_PATH`: found without loading them.
    package static func libraryFolders(of paths: [String]) -> [String] {
        let environment = getenv("LD_LIBRARY_PATH").map { String(cString: $0) } ?? ""
        let listed = environment.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return Array(Set(paths.flatMap(ELFImage.libraryFolders(ofFile:)) + listed)).sorted()
    }

    /// The prefix of the hook the progress record names, if one is running.
    private static func runningHook() -> String? {
        guard let record = HookProgress.record, record.pointee.phase == HookProgress.Phase.hook.rawValue else {
            return nil
        }
        return FaultLine.prefix(record.pointee.hook)
    }

    /// Under LeakSanitizer (the sanitizer builds): its end-of-process check stops the world with
    /// ptrace from a cloned tracer, which the filter refuses, so it runs now, once, and not at exit.
    private static func runLeakCheckNow() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__lsan_do_leak_check") else { return }
        unsafeBitCast(symbol, to: (@convention(c) () -> Void).self)()
    }

    /// The warning lines of a render's notes: each refused act once per plugin, hook and type,
    /// with what a plugin may not do, or for a refused read the option that allows it.
    package static func warnings(_ notes: [Note]) -> [String] {
        var seen = Set<String>()
        let fix = "; a cell plugin may not start processes, run programs or open sockets (SECURITY.md, --sandbox off)"
        let writeFix = "; a cell plugin may not write files: it draws into its cell (SECURITY.md, --sandbox off)"
        let readPrefix = "read a file outside the sandbox ("
        return notes.filter { $0.kind == .refused && seen.insert($0.maker + "\u{0}" + $0.act).inserted }.map { note in
            if note.act.hasPrefix("write a file (") { return note.line + writeFix }
            guard note.act.hasPrefix(readPrefix) else { return note.line + fix }
            let path = note.act.dropFirst(readPrefix.count).dropLast()
            return note.line
                + "; if the plugin may read it, pass --allow-read '\(path)' (a plugin's own data belongs in its folder)"
        }
    }
}

extension String {
    /// Tabs made spaces: a note's fields are tab-separated.
    fileprivate func replacingTabs() -> String { String(map { $0 == "\t" ? " " : $0 }) }
}
