// The sandbox a worker closes around the plugins it runs (SECURITY.md, "The sandbox"): a PID
// namespace of its own, entered before any plugin loads, then Landlock and a seccomp filter,
// applied once the plugins the job needs are loaded. What this kernel cannot apply is said,
// never skipped in silence; a refused call fails with EPERM and is noted with the hook that
// made it.

import CProcess
import CSandbox
import CellKitRuntime
import CellKitText
import Glibc
import Synchronization

/// The worker's sandbox: what it applies, and the calls it refused.
package enum Sandbox {
    /// One call the sandbox refused: what it would have done, and where plugin code was.
    package struct Refusal: Sendable, Equatable {
        /// What the call would have done: "start a process (fork)".
        package var act: String
        /// The plugin file, hook and cell type that made it (the line up to the act): one report
        /// each per act is enough.
        package var maker: String
        /// The running hook's prefix ("customizeCellFor"), when a hook was running.
        package var hook: String?
        /// The line that names it: `libspy.so: customizeCellForSpy tried to start a process
        /// (fork): refused by the sandbox at row 0.1`.
        package var line: String
    }

    /// What of the sandbox this machine can apply.
    package struct Support: Sendable, Equatable {
        /// Whether a worker can have a PID namespace of its own.
        package var pidNamespace: Bool
        /// The kernel's Landlock ABI (0: none).
        package var landlockABI: Int
        /// Whether a seccomp filter can be installed.
        package var seccomp: Bool

        /// What a machine supports: each part as found.
        package init(pidNamespace: Bool, landlockABI: Int, seccomp: Bool) {
            (self.pidNamespace, self.landlockABI, self.seccomp) = (pidNamespace, landlockABI, seccomp)
        }

        /// What cannot be applied, one phrase each; empty when all of it can.
        package var missing: [String] {
            var parts: [String] = []
            if !pidNamespace { parts.append("no PID namespace (the kernel refuses to make one)") }
            if landlockABI < 1 {
                parts.append("no Landlock (the kernel has none): plugins can read and write your files")
            }
            if !seccomp { parts.append("no seccomp filter: processes, programs and sockets stay allowed") }
            return parts
        }

        /// One line for `cellkit --version`. Built by concatenation: `joined(separator:)` is
        /// generic, and its metadata was a third of `--version`'s instructions after the loader.
        package var summary: String {
            let landlock = landlockABI > 0 ? "Landlock ABI \(landlockABI)" : "no Landlock"
            return "sandbox: " + (pidNamespace ? "PID namespace" : "no PID namespace") + ", " + landlock + ", "
                + (seccomp ? "seccomp" : "no seccomp")
        }
    }

    /// What this machine supports, found by trying. The PID namespace is made for this process's
    /// next children, with no child started (a fork of this process and two in the namespace took
    /// most of `cellkit --version`'s time); only when that is refused does a child process try it
    /// as a worker would, so that a refusal is never guessed. Where this process's children go is
    /// changed for good: only a process that starts none afterwards calls it (`cellkit --version`).
    package static func probeBeforeExit() -> Support {
        Support(
            pidNamespace: ck_sandbox_pid_namespace_here() != 0 || namespaceInChild(),
            landlockABI: Int(ck_sandbox_landlock_abi()), seccomp: ck_sandbox_seccomp_available() != 0)
    }

    /// What this machine supports, the PID namespace tried as a worker enters it (a child process
    /// makes one, and two processes start in it). CLIConventionsTests holds `probeBeforeExit()` to it.
    package static func probeInChild() -> Support {
        Support(
            pidNamespace: namespaceInChild(), landlockABI: Int(ck_sandbox_landlock_abi()),
            seccomp: ck_sandbox_seccomp_available() != 0)
    }

    /// Whether a child process can enter a PID namespace as a worker does.
    private static func namespaceInChild() -> Bool {
        let child = fork()
        if child == 0 { _exit(ck_sandbox_enter_pid_namespace() == 0 ? 0 : 1) }
        guard child > 0 else { return false }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        return status & 0x7f == 0 && (status >> 8) & 0xff == 0
    }

    /// Notes of the parts this worker could not apply, for its warnings.
    private static let notes = Mutex<[String]>([])

    /// In a worker, before any plugin loads: moves the worker into a PID namespace of its own, so
    /// that everything it starts ends with it. The process that calls it waits there and ends as
    /// the worker ends; the worker returns. When the namespace cannot be made, a note says so.
    package static func enterNamespace() {
        guard ck_sandbox_enter_pid_namespace() != 0 else { return }
        let reason = String(cString: strerror(errno))
        notes.withLock {
            $0.append("sandbox: no PID namespace (\(reason)): what a plugin starts may outlive its worker")
        }
    }

    /// In a worker, once the plugins its job needs are loaded: restricts it to reading `readable`
    /// (files and folders) and installs the system-call filter. Refused calls are noted from now on
    /// (`takeRefusals()`). What cannot be applied is noted (`notes`). `watchingOutput` (check):
    /// writes to standard output go through and their first bytes are kept (`takeOutput()`).
    package static func close(readable: [String], watchingOutput: Bool = false) {
        runLeakCheckNow()
        ck_process_collect_refusals_with(collect)
        let paths = readable.map { strdup($0) }
        defer { for path in paths { free(path) } }
        let landlock = paths.map { UnsafePointer($0) }.withUnsafeBufferPointer {
            ck_sandbox_restrict_files($0.baseAddress, Int32($0.count))
        }
        if landlock < 0 {
            let reason = String(cString: strerror(errno))
            notes.withLock { $0.append("sandbox: no Landlock (\(reason)): plugins can read and write your files") }
        }
        if ck_sandbox_filter_calls(watchingOutput ? 1 : 0) != 0 {
            let reason = String(cString: strerror(errno))
            notes.withLock { $0.append("sandbox: no seccomp filter (\(reason)): plugins can start processes") }
        }
    }

    /// What a worker may read once closed: `paths` (plugins, their folders, the document's root),
    /// the system's library folders, and the folder of every object loaded now (a Swift plugin's
    /// runtime, the toolchain's libraries).
    package static func readable(adding paths: [String]) -> [String] {
        let system = [
            "/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib", "/etc/ld.so.cache", "/usr/share/zoneinfo",
        ]
        var folders = Set<String>()
        if let maps = fopen("/proc/self/maps", "r") {
            defer { fclose(maps) }
            var line = [UInt8](repeating: 0, count: 4096)
            while line.withUnsafeMutableBufferPointer({ buffer in
                buffer.withMemoryRebound(to: CChar.self) { fgets($0.baseAddress, Int32($0.count), maps) != nil }
            }) {
                let text = String(decoding: line.prefix { $0 != 0 }, as: UTF8.self)
                guard let slash = text.firstIndex(of: "/") else { continue }
                var path = text[slash...]
                while let last = path.last, last == "\n" || last == " " { path = path.dropLast() }
                if let end = path.lastIndex(of: "/"), end > path.startIndex { folders.insert(String(path[..<end])) }
            }
        }
        return paths + system + folders.sorted()
    }

    /// What plugin code wrote to standard output since the last call (its first 200 bytes), or nil
    /// when it wrote nothing; `close(readable:watchingOutput:)` must have been asked to watch.
    package static func takeOutput() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 200)
        let n = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { ck_sandbox_take_output($0.baseAddress, 200) }
        }
        return n < 0 ? nil : Array(buffer[..<Int(n)])
    }

    /// The folders the dynamic loader would search for the dependencies of the libraries at
    /// `paths` (their run paths) and those in `LD_LIBRARY_PATH`: for plugins loaded after closing.
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

    /// The notes of what this worker could not apply.
    package static var unapplied: [String] { notes.withLock { $0 } }

    private static let refusals = Mutex<[Refusal]>([])

    /// The calls refused since the last take, with the hook that made each.
    package static func takeRefusals() -> [Refusal] {
        collectNow()
        return refusals.withLock { taken in
            defer { taken = [] }
            return taken
        }
    }

    /// Run after a hook in which a call was refused, while the progress record still names it.
    private static let collect: @convention(c) () -> Void = { Sandbox.collectNow() }

    private static func collectNow() {
        var numbers = [Int](repeating: 0, count: 64)
        let count = Int(numbers.withUnsafeMutableBufferPointer { ck_process_take_refusals($0.baseAddress, 64) })
        guard count > 0 else { return }
        // -1: opens Landlock refused (check), taken with their paths.
        var acts = numbers.prefix(min(count, 64)).filter { $0 != -1 }.map { String(cString: ck_sandbox_act($0)) }
        if numbers.prefix(min(count, 64)).contains(-1) { acts += fileActs() }
        let found = acts.map { act in
            let line =
                HookProgress.record.map { FaultLine.text($0, .refused(act)) }
                ?? "a plugin tried to \(act): refused by the sandbox"
            let maker = line.range(of: " tried to ").map { String(line[..<$0.lowerBound]) } ?? line
            return Refusal(act: act, maker: maker, hook: runningHook(), line: line)
        }
        refusals.withLock { $0 += found }
    }

    /// The opens refused since the last call: "read a file outside the sandbox (/etc/hostname)".
    private static func fileActs() -> [String] {
        var buffer = [UInt8](repeating: 0, count: 8192)
        let used = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { ck_sandbox_take_file_acts($0.baseAddress, 8192) }
        }
        return buffer[..<Int(max(0, used))].split(separator: 0).map { entry in
            let text = String(decoding: entry, as: UTF8.self)
            let (verb, path) = (text.prefix { $0 != " " }, text.drop { $0 != " " }.dropFirst())
            let shown = TextSanitizer.visible(String(path))
            return verb == "write" ? "write a file (\(shown))" : "read a file outside the sandbox (\(shown))"
        }
    }
}
