// The process model against hostile plugins: a plugin that forks and goes on, a
// supervisor killed while a hook loops, a worker's channel closed, written to or
// forged, a crash on a plugin's own thread, an environment variable that used to make
// any command a worker, and documents from standard input or one-character paths.
// Tests whose plugins fork run contained: as an unprivileged user (when run as root,
// where RLIMIT_NPROC does not bind) under a process limit, with a deadline, and each
// checks that no process of its run is left.

import CellKitDocuments
import CellKitRendering
import CellKitRuntime
import CellKitSupervision
import CellKitTestSupport
import Foundation
import Testing

@Suite("process model: workers can't run away, outlive or fool their supervisor", .serialized)
struct ProcessModelTests {
    let command = CellKitTool()
    let isolation = IsolationTests()

    /// A one-type plugin `Faulty` (IsolationTests.faulty) with `customize` as its customize hook's body.
    static func plugin(_ customize: String, extra: String = "") -> String {
        IsolationTests.faulty(
            """
            #include <fcntl.h>
            #include <signal.h>
            #include <string.h>
            #include <pthread.h>
            \(extra)
            CK_EXPORT void customizeCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)ip; text(cell); \(customize) }
            """)
    }

    /// The command line that runs cellkit contained: under a limit of 60 processes, as uid 64123 when
    /// run as root (the limit binds only a user that is not root). Not 65534: that is the overflow
    /// uid a user namespace shows root's files as, and running as it hid the ownership bug of
    /// issue 40. The test folders' parents (/tmp, the repository) stay root-owned.
    static func contained(_ arguments: [String]) -> [String] {
        let cellkit = Fixtures.buildDirectory + "/cellkit"
        let user = getuid() == 0 ? ["setpriv", "--reuid=64123", "--regid=64123", "--clear-groups"] : []
        return ["/usr/bin/prlimit", "--nproc=\(Fixtures.processLimit)", "--"] + user + [cellkit] + arguments
    }

    /// Processes whose command line holds `marker` (the test's own folder): those the run left.
    static func processes(marked marker: String) -> [pid_t] { Fixtures.processes(marked: marker) }

    /// Waits (up to `seconds`, a deadline for a hung test) until a process marked `marker` has run
    /// `ticks` clock ticks on the CPU (/proc/PID/stat's utime): a hook that loops is looping.
    static func waitUntilSpinning(_ marker: String, ticks: Int = 10, within seconds: Double = 20) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            for pid in processes(marked: marker) {
                guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                    let end = stat.lastIndex(of: ")")
                else { continue }
                // After "pid (comm)": state is field 3, utime field 14.
                let fields = stat[stat.index(after: end)...].split(separator: " ")
                if fields.count > 11, let utime = Int(fields[11]), utime >= ticks { return }
            }
            usleep(20_000)
        }
    }

    /// Waits up to `seconds` for no process marked `marker` to be left; kills what is, and returns it.
    static func leftOver(_ marker: String, within seconds: Double) -> [pid_t] {
        let deadline = Date().addingTimeInterval(seconds)
        var left = processes(marked: marker)
        while !left.isEmpty, Date() < deadline {
            usleep(50_000)
            left = processes(marked: marker)
        }
        for pid in left { kill(pid, SIGKILL) }
        return left
    }

    /// Starts `argv` with its output (both streams) in `log`; its process id.
    func start(_ argv: [String], log: String, stdin: String? = nil) throws -> pid_t {
        try Programs().start(argv, log: log, stdin: stdin)
    }

    /// Runs `argv` to its end (at most `timeout` seconds); how it ended and what it printed.
    func run(_ argv: [String], timeout: Double = 60, stdin: String? = nil) throws -> (CellKitTool.Ending, String) {
        try Programs().run(argv, timeout: timeout, stdin: stdin)
    }

    // MARK: The sweep of a worker's orphans

    @Test("a worker's sweep ends a child it did not start, and spares one this process started through Spawn")
    func sweepSparesOwn() throws {
        let own = try Spawn.start("/bin/sleep", ["30"]).get()
        defer { kill(own, SIGKILL); waitpid(own, nil, 0) }
        var orphan = pid_t()  // as an orphan a plugin left is: not started through Spawn
        let argv = [strdup("/bin/sleep"), strdup("30"), nil]
        defer { for p in argv { free(p) } }
        try #require(posix_spawn(&orphan, "/bin/sleep", nil, nil, argv, environ) == 0)
        Descendants.sweep(sparing: [])
        #expect(kill(own, 0) == 0, "this process's own child lives")
        var status: Int32 = 0
        let waited = waitpid(orphan, &status, WNOHANG)
        #expect(waited == -1 && errno == ECHILD, "the other was killed and reaped (waitpid: \(waited))")
    }

    // MARK: Forks

    static let forks = plugin("fork();")

    @Test("a hook that forks and returns: render draws the table once, nothing is left running")
    func forkInRender() throws {
        let folder = try Render.write(["t.yaml": "title: Forks\nsections:\n  - cell: Faulty\n    rows: 3\n"])
        try Fixtures.compileC(Self.forks, name: "forks", in: folder)
        let (ending, log) = try run(
            Self.contained(["render", folder + "/t.yaml", "--plugin-path", folder]), timeout: 60)
        #expect(ending == .exited(0), "\(log)")
        #expect(log.components(separatedBy: "\n faulty").count - 1 == 3, "three rows, drawn once:\n\(log)")
        #expect(log.components(separatedBy: "Forks").count - 1 == 1, "one title:\n\(log)")
        #expect(Self.leftOver(folder, within: 2).isEmpty)
    }

    @Test("a hook that forks and returns: check runs each unit once, in one worker, and FAILs it (the sandbox)")
    func forkInCheck() throws {
        let folder = try Fixtures.folder()
        try Fixtures.compileC(Self.forks, name: "forks", in: folder)
        let (ending, log) = try run(Self.contained(["check", folder + "/libforks.so"]), timeout: 120)
        #expect(ending == .exited(1), "\(log)")
        #expect(log.contains("tried to start a process (clone)"), "\(log)")
        let counts = log.split(separator: "\n").first { $0.contains("units run in") }
        let numbers = counts?.split(separator: " ").compactMap { Int($0) } ?? []
        #expect(numbers.count == 4 && numbers[1] == numbers[2] && numbers[1] > 0, "S samples; N of N units: \(log)")
        #expect(log.contains("run in 1 worker\n"), "\(log)")
        #expect(log.components(separatedBy: "Not clean:").count - 1 == 1, "one verdict: \(log)")
        #expect(Self.leftOver(folder, within: 2).isEmpty)
    }

    // MARK: The supervisor killed

    /// Starts a render whose hook loops, waits for its worker, sends `signal` to the supervisor alone;
    /// nothing of it may be left after 2 s.
    func killSupervisor(_ signal: Int32, command: String) throws {
        let folder = try Render.write(["t.yaml": "sections:\n  - cell: Faulty\n    rows: 2\n"])
        try Fixtures.compileC(Self.plugin("for (;;) {}"), name: "loops", in: folder)
        var arguments = [command, command == "render" ? folder + "/t.yaml" : folder + "/libloops.so"]
        arguments += ["--plugin-path", folder, "--hook-timeout", "300"]
        // Marked in the environment too: a check's worker has no path on its command line.
        let argv = Self.contained(arguments)
        let pid = try start(
            Array(argv.prefix(3)) + ["env", "TEST_MARK=" + folder] + argv.dropFirst(3), log: folder + "/log")
        // Its worker: a second process marked with the folder, seen within 20 s.
        let deadline = Date().addingTimeInterval(20)
        while Self.processes(marked: folder).count < 2, Date() < deadline { usleep(20_000) }
        Self.waitUntilSpinning(folder)  // the hook is looping
        let ours = Self.processes(marked: folder)
        #expect(ours.count >= 2, "cellkit and its worker: \(ours)")
        // prlimit and setpriv exec: the spawned process is cellkit itself.
        kill(pid, signal)
        _ = self.command.wait(pid, timeout: 10)
        let left = Self.leftOver(folder, within: 2)
        #expect(left.isEmpty, "\(command), \(signal): left running: \(left)")
    }

    @Test("SIGKILL to render alone while a hook loops: its worker dies with it")
    func renderKilled() throws { try killSupervisor(SIGKILL, command: "render") }

    @Test("SIGTERM to render alone while a hook loops: its worker dies with it")
    func renderTerminated() throws { try killSupervisor(SIGTERM, command: "render") }

    @Test("SIGKILL to check alone while a hook loops: its worker dies with it")
    func checkKilled() throws { try killSupervisor(SIGKILL, command: "check") }

    // MARK: The channel

    /// Every descriptor from 3 to 4095 (SIGPIPE ignored: some are pipes no one reads, inherited
    /// from the test process).
    static let everyDescriptor = "signal(SIGPIPE, SIG_IGN); for (int fd = 3; fd < 4096; fd++)"

    @Test("a hook that closes every descriptor and returns: that plugin's fault, its rows placeholders")
    func closesAll() throws {
        let drawn = try isolation.check(
            "closesall", Self.plugin("\(Self.everyDescriptor) close(fd);"),
            // Where the worker was when cellkit saw the channel close may be a later hook; the worker
            // that runs again checking its channels after every hook stops in this one.
            line:
                "libclosesall.so: customizeCellForFaulty broke the worker's channel to cellkit (it closed, replaced or wrote to a descriptor it does not own) at row 2.2 (indexPath [1, 1])"
        )
        isolation.expectRows(drawn, plugin: "libclosesall.so")
    }

    @Test("a hook that closes every descriptor and loops: named within the timeout, not a hang")
    func closesAllAndLoops() throws {
        let start = Date()
        let drawn = try isolation.check(
            "closesloops", Self.plugin("\(Self.everyDescriptor) close(fd); for (;;) {}"),
            line:
                "libclosesloops.so: customizeCellForFaulty broke the worker's channel to cellkit (it closed, replaced or wrote to a descriptor it does not own) at row 2.2 (indexPath [1, 1])",
            timeout: 30)
        isolation.expectRows(drawn, plugin: "libclosesloops.so")
        #expect(Date().timeIntervalSince(start) < 25, "well within --hook-timeout 30 + 10 s")
    }

    @Test("a hook that writes a stray byte to every descriptor: a named fault, never a trusted length")
    func strayByte() throws {
        let drawn = try isolation.check(
            "straybyte", Self.plugin("\(Self.everyDescriptor) (void)!write(fd, \"x\", 1); sleep(2);"),
            line:
                "libstraybyte.so: customizeCellForFaulty broke the worker's channel to cellkit (it closed, replaced or wrote to a descriptor it does not own) at row 2.2 (indexPath [1, 1])"
        )
        isolation.expectRows(drawn, plugin: "libstraybyte.so")
    }

    @Test(
        "a worker holds only the descriptors it is given: a file its host left open is out of a plugin's reach",
        arguments: [[:], ["CELLKIT_WORKER_EXEC": "1"]])
    func workerKeepsNoHostDescriptor(environment: [String: String]) throws {
        let folder = try Render.write(["t.yaml": IsolationTests.table], name: "hostfile")
        let plugins = try Fixtures.folder("hostfileplugins"), host = folder + "/host.txt"
        try Fixtures.compileC(
            Self.plugin("\(Self.everyDescriptor) (void)!write(fd, \"x\", 1);"), name: "x", in: plugins)
        try "the host's".write(toFile: host, atomically: true, encoding: .utf8)
        let log = folder + "/log"
        let arguments = ["render", folder + "/t.yaml", "--plugin-path", plugins]
        // As an embedding program's file: descriptor 7, open for writing, not close-on-exec.
        let started = Spawn.start(
            Self.contained(arguments)[0], Array(Self.contained(arguments).dropFirst()),
            setting: environment, keeping: 8
        ) { actions in
            posix_spawn_file_actions_addopen(&actions, 7, host, O_WRONLY | O_APPEND, 0)
            posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        guard case .success(let pid) = started else { throw CellKitTool.SpawnFailed(description: "\(started)") }
        let ending = command.wait(pid, timeout: 60)
        let said = try command.contents(log)
        #expect(ending == .exited(3), "\(said)")
        #expect(try command.contents(host) == "the host's", "a plugin wrote into its host's file")
        #expect(Self.leftOver(folder, within: 2).isEmpty)
    }

    @Test("forged messages (a chunk of 4 MB past the buffer, a 'done'): no over-read, no exit 0")
    func forged() throws {
        // The old 16-byte messages, and a frame with the right magic but no key.
        let forge = """
            unsigned long long chunk[2] = {1, 300ull << 20}, done[2] = {2, 0};
            unsigned char frame[32] = {'C', 'K', 'F', 'R', 2, 0, 0, 0, 1, 0, 0, 0};
            \(Self.everyDescriptor) {
                (void)!write(fd, chunk, 16); (void)!write(fd, done, 16); (void)!write(fd, frame, 32);
            }
            sleep(2);
            """
        let drawn = try isolation.check(
            "forged", Self.plugin(forge),
            line:
                "libforged.so: customizeCellForFaulty broke the worker's channel to cellkit (it closed, replaced or wrote to a descriptor it does not own) at row 2.2 (indexPath [1, 1])"
        )
        isolation.expectRows(drawn, plugin: "libforged.so")
    }

    // MARK: Blame by address

    @Test(
        "a plugin's thread that crashes outside any plugin's code (a null call) is blamed on its plugin, found on that thread's stack; the innocent type keeps every row",
        arguments: ["on", "off"])
    func threadCrashOutsideItsCode(sandbox: String) throws {
        let folder = try Self.threadCrashTable(
            later: """
                static void *later(void *p) {
                    usleep(300000);
                    void (*volatile nowhere)(void) = 0;
                    nowhere();  /* the faulting address is 0: in no library */
                    return p;
                }
                """)
        let (ending, log) = try command.run(
            ["render", folder + "/t.yaml", "--plugin-path", folder, "--sandbox", sandbox], timeout: 60)
        #expect(ending == .exited(3), "\(log)")
        #expect(log.hasPrefix("libthreads.so crashed (SIGSEGV) in its own code; at that moment libslow.so"), "\(log)")
        #expect(!log.contains("libslow.so faulted"), "the innocent type is not quarantined: \(log)")
        #expect(log.components(separatedBy: "\n slow").count - 1 == 2, "both Slow rows drawn: \(log)")
    }

    /// A table of Faulty, Slow, Slow, Faulty rows; `libthreads.so` (Faulty) starts a thread running
    /// `later` (C, given) at its first row; `libslow.so`'s hook sleeps 2 s, meanwhile.
    static func threadCrashTable(later: String) throws -> String {
        let folder = try Render.write([
            "t.yaml":
                "sections:\n  - rows:\n      - {cell: Faulty}\n      - {cell: Slow}\n      - {cell: Slow}\n      - {cell: Faulty}\n"
        ])
        let threads = Self.plugin("pthread_t t; pthread_create(&t, 0, later, 0); pthread_detach(t);", extra: later)
        try Fixtures.compileC(threads, name: "threads", in: folder, extraFlags: ["-pthread"])
        let slow = """
            #include <unistd.h>
            #include "cellkit.h"
            CK_PLUGIN("Slow", "1.0.0", "Takes its time");
            CK_EXPORT void customizeCellForSlow(ck_cell *cell, ck_index_path ip) {
                (void)ip; sleep(2); ck_set_text(ck_text_label(cell), "slow");
            }
            """
        try Fixtures.compileC(slow, name: "slow", in: folder)
        return folder
    }

    @Test("a crash on a thread a plugin started is blamed on that plugin, not the hook that was running")
    func threadCrashBlamed() throws {
        let folder = try Self.threadCrashTable(
            later: "static void *later(void *p) { usleep(300000); volatile int *z = 0; *z = (int)(long)p; return p; }")
        let (ending, log) = try command.run(["render", folder + "/t.yaml", "--plugin-path", folder], timeout: 60)
        #expect(ending == .exited(3), "\(log)")
        #expect(
            log.hasPrefix(
                "libthreads.so crashed (SIGSEGV) in its own code; at that moment libslow.so: customizeCellForSlow was running at row 1.2 (indexPath [0, 1])"
            ), "\(log)")
        // Row 0.0 was drawn before the crash; the Faulty row after it is a placeholder.
        #expect(log.components(separatedBy: "\n faulty").count - 1 == 1, "\(log)")
        #expect(log.contains("⚠ libthreads.so faulted: this Faulty row is not drawn"), "\(log)")
        #expect(log.components(separatedBy: "\n slow").count - 1 == 2, "Slow is not quarantined: \(log)")
    }

    // MARK: Start-up

    @Test("CELLKIT_RENDER_WORKER in the environment makes no worker: list runs, descriptor 3 is untouched")
    func environmentMakesNoWorker() throws {
        let folder = try Fixtures.folder()
        let kept = folder + "/kept"
        try "previous".write(toFile: kept, atomically: true, encoding: .utf8)
        let log = folder + "/log"
        let started = Spawn.start(
            Fixtures.buildDirectory + "/cellkit", ["list", "--json"], setting: ["CELLKIT_RENDER_WORKER": "{}"],
            keeping: 4
        ) { actions in
            posix_spawn_file_actions_addopen(&actions, 3, kept, O_RDWR, 0)
            posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        guard case .success(let pid) = started else { throw CellKitTool.SpawnFailed(description: "\(started)") }
        #expect(command.wait(pid, timeout: 60) == .exited(0))
        #expect(try command.contents(kept) == "previous")
        #expect(try command.contents(log).hasPrefix("{"), "list's JSON")
    }

    // MARK: Paths

    static let small = "title: Small\nsections:\n  - cell: Default\n    rows:\n      - Hello\n"

    @Test("render - reads the document from standard input; /dev/stdin too")
    func standardInput() throws {
        let folder = try Render.write(["t.yaml": Self.small])
        for path in ["-", "/dev/stdin"] {
            let (ending, log) = try run(
                [Fixtures.buildDirectory + "/cellkit", "render", path], stdin: folder + "/t.yaml")
            #expect(ending == .exited(0), "\(path): \(log)")
            #expect(log.contains("\n Hello"), "\(path): \(log)")
        }
        let (ending, log) = try run(
            [Fixtures.buildDirectory + "/cellkit", "render", "-"], stdin: "/dev/null")
        #expect(ending == .exited(1), "an empty document is an error, named: \(log)")
        #expect(log.hasPrefix("Error: -:1:1: the document is empty"), "\(log)")
    }

    @Test("one-character paths (a, t, .) render or say what is wrong; no trap")
    func oneCharacterPaths() throws {
        let folder = try Render.write(["a": Self.small])
        let cellkit = Fixtures.buildDirectory + "/cellkit"
        let (ending, log) = try run(["/bin/sh", "-c", "cd \"$0\" && exec \"$1\" render a", folder, cellkit])
        #expect(ending == .exited(0), "\(log)")
        #expect(log.contains("\n Hello"))
        for name in ["t", "."] {
            let (ending, log) = try run([
                "/bin/sh", "-c", "cd \"$0\" && exec \"$1\" render \"$2\"", folder, cellkit, name,
            ])
            #expect(ending == .exited(1), "\(name): \(log)")
            #expect(log.hasPrefix("Error: \(name):1:1:"), "\(name): \(log)")
        }
    }

    @Test("non-UTF-8 names: an argument is refused with its bytes shown and the fix; a plugin file is skipped, named")
    func nonUTF8Names() throws {
        let folder = try Render.write(["t.yaml": Self.small])
        // `t\xFF.yaml` and `lib\xFF.so`, made through the C library: a Swift string cannot hold them.
        func make(_ bytes: [UInt8], from source: String) throws {
            let data = try Data(contentsOf: URL(fileURLWithPath: source))
            let fd = (Array(folder.utf8) + [UInt8(ascii: "/")] + bytes + [0]).withUnsafeBufferPointer {
                $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
            }
            #expect(fd >= 0)
            _ = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        try make([UInt8(ascii: "t"), 0xFF] + Array(".yaml".utf8), from: folder + "/t.yaml")
        let plugins = try Fixtures.folder()
        try Fixtures.compileC(Self.forks, name: "forks", in: plugins)
        let cellkit = Fixtures.buildDirectory + "/cellkit"
        let (ending, log) = try run([
            "/bin/sh", "-c", "cd \"$0\" && exec \"$1\" render \"$(printf 't\\377.yaml')\"", folder, cellkit,
        ])
        #expect(ending == .exited(64), "\(log)")
        #expect(log.hasPrefix("Error: argument 2, 't\\xFF.yaml', is not valid UTF-8"), "\(log)")
        #expect(log.contains("cellkit render - < FILE"), "the fix: \(log)")
        let (piped, table) = try run([
            "/bin/sh", "-c", "cd \"$0\" && exec \"$1\" render - < \"$(printf 't\\377.yaml')\"", folder, cellkit,
        ])
        #expect(piped == .exited(0), "\(table)")
        #expect(table.contains("\n Hello"))
        let oddFolder = try Fixtures.folder()
        try FileManager.default.copyItem(atPath: plugins + "/libforks.so", toPath: oddFolder + "/libforks.so")
        _ = (Array(oddFolder.utf8) + Array("/libforks.so".utf8) + [0]).withUnsafeBufferPointer { from in
            (Array(oddFolder.utf8) + Array("/lib".utf8) + [0xFF] + Array(".so".utf8) + [0]).withUnsafeBufferPointer {
                to in
                from.withMemoryRebound(to: CChar.self) { f in
                    to.withMemoryRebound(to: CChar.self) { rename(f.baseAddress!, $0.baseAddress!) }
                }
            }
        }
        let (_, list) = try run([cellkit, "list", "--plugin-path", oddFolder])
        #expect(
            list.contains(
                "\(oddFolder)/lib\\xFF.so: its name is not valid UTF-8 (CellKit reads paths as UTF-8); rename the file"),
            "\(list)")
    }

    @Test("a document's error met in an exec'd worker arrives as a DocumentError, with its file and line")
    func typedErrorAcrossTheBoundary() throws {
        let folder = try command.streamedTable(rows: 100, unknownAt: 50)
        var render = DocumentRender(
            documentPath: folder + "/t.yaml", discovery: Fixtures.options([Fixtures.buildDirectory]))
        render.executable = Fixtures.buildDirectory + "/cellkit"  // this test process is no cellkit
        let error = #expect(throws: DocumentError.self) { try render.run(to: StringSink()) }
        #expect(error?.file == folder + "/rows.jsonl")
        #expect(error?.line == 50)
        #expect(
            error?.message.hasPrefix("no usable plugin provides cell identifier 'Nowhere'") == true,
            "\(String(describing: error))")
    }
}
