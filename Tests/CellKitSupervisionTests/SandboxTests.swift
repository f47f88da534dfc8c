// The worker as untrusted code (issue 30): the sandbox refuses what a cell plugin must not
// do, everything a plugin starts ends with cellkit, and the supervisor's clock and truth
// hold against bytes forged on the channel. Every test runs contained (an unprivileged
// user under a process limit, with a deadline) and checks that nothing of its run is left.

import CellKitRuntime
import CellKitTestSupport
import Foundation
import Testing

@Suite("sandbox: a plugin can't reach files, network or processes, nor fool the supervisor", .serialized)
struct SandboxTests {
    let model = ProcessModelTests()

    /// A plugin whose customize hook tries each act and shows what happened to each in its label:
    /// reads `secret`, connects to 127.0.0.1, forks, calls system(), writes `written`.
    static func probe(secret: String, written: String) -> String {
        ProcessModelTests.plugin(
            "probe(cell);",
            extra: """
                #include <stdio.h>
                #include <errno.h>
                #include <sys/socket.h>
                #include <sys/wait.h>
                #include <netinet/in.h>
                #include <arpa/inet.h>
                static char result[512];
                static void probe(ck_cell *cell) {
                    char *p = result;
                    int fd = open("\(secret)", O_RDONLY);
                    p += sprintf(p, "read=%s ", fd >= 0 ? "ALLOWED" : "refused");
                    if (fd >= 0) close(fd);
                    int s = socket(AF_INET, SOCK_STREAM, 0);
                    int reached = 0;
                    if (s >= 0) {
                        struct sockaddr_in a = {0};
                        a.sin_family = AF_INET; a.sin_port = htons(9); a.sin_addr.s_addr = htonl(0x7f000001);
                        reached = connect(s, (void *)&a, sizeof a) == 0 || errno == ECONNREFUSED;
                        close(s);
                    }
                    p += sprintf(p, "connect=%s ", reached ? "ALLOWED" : "refused");
                    pid_t child = fork();
                    if (child == 0) _exit(0);
                    if (child > 0) waitpid(child, 0, 0);
                    p += sprintf(p, "fork=%s ", child > 0 ? "ALLOWED" : "refused");
                    p += sprintf(p, "system=%s ", system("true") == 0 ? "ALLOWED" : "refused");
                    fd = open("\(written)", O_WRONLY | O_CREAT | O_TRUNC, 0644);
                    p += sprintf(p, "write=%s", fd >= 0 ? "ALLOWED" : "refused");
                    if (fd >= 0) close(fd);
                    ck_set_text(ck_text_label(cell), result);
                }
                """)
    }

    /// Folders for a probe: the document's, the plugin's, a secret outside both (readable by
    /// anyone) and a folder anyone may write to.
    func probeFolders(_ name: String) throws -> (doc: String, plugins: String, secret: String, written: String) {
        let doc = try Render.write(["t.yaml": "sections:\n  - cell: Faulty\n    rows: 2\n"], name: name)
        let plugins = try Fixtures.folder(name + "plugins"), outside = try Fixtures.folder(name + "outside")
        let open = try Fixtures.folder(name + "open")
        chmod(open, 0o777)
        try "secret".write(toFile: outside + "/secret", atomically: true, encoding: .utf8)
        chmod(outside + "/secret", 0o644)
        try Fixtures.compileC(
            Self.probe(secret: outside + "/secret", written: open + "/written"), name: "spy", in: plugins)
        return (doc, plugins, outside + "/secret", open + "/written")
    }

    @Test(
        "a probe plugin reads a file outside, connects, forks, calls system() and writes: each refused, named",
        arguments: [false, true])
    func probeUnderRender(execWorker: Bool) throws {
        let (doc, plugins, _, written) = try probeFolders("probe\(execWorker)")
        let environment = execWorker ? ["env", "CELLKIT_WORKER_EXEC=1"] : []
        let argv = ProcessModelTests.contained(["render", doc + "/t.yaml", "--plugin-path", plugins, "--width", "120"])
        let (ending, log) = try model.run(Array(argv.prefix(3)) + environment + Array(argv.dropFirst(3)), timeout: 60)
        #expect(ending == .exited(0), "\(log)")
        #expect(
            log.components(separatedBy: "read=refused connect=refused fork=refused system=refused write=refused")
                .count - 1 == 2, "both rows, every act refused:\n\(log)")
        #expect(!FileManager.default.fileExists(atPath: written), "nothing written")
        #expect(
            log.contains("libspy.so: customizeCellForFaulty tried to start a process (clone): refused by the sandbox"))
        #expect(
            log.contains("libspy.so: customizeCellForFaulty tried to open a socket (socket): refused by the sandbox"))
        #expect(ProcessModelTests.leftOver(doc, within: 2).isEmpty)
        // The same plugin with the sandbox turned off does all of it: the test can fail.
        let off = ProcessModelTests.contained([
            "render", doc + "/t.yaml", "--plugin-path", plugins, "--width", "120", "--sandbox", "off",
        ])
        let (offEnding, offLog) = try model.run(off, timeout: 60)
        #expect(offEnding == .exited(0), "\(offLog)")
        #expect(offLog.contains("read=ALLOWED connect=ALLOWED fork=ALLOWED system=ALLOWED write=ALLOWED"), "\(offLog)")
    }

    @Test("check names each act the sandbox refused: hook, row and act, as a FAIL")
    func probeUnderCheck() throws {
        let (doc, plugins, secret, written) = try probeFolders("probecheck")
        let (ending, log) = try model.run(ProcessModelTests.contained(["check", plugins + "/libspy.so"]), timeout: 120)
        #expect(ending == .exited(1), "\(log)")
        let fails = log.split(separator: "\n").filter { $0.contains("FAIL") && $0.contains("customizeCellForFaulty") }
        #expect(fails.contains { $0.contains("tried to start a process (clone) at sample ") }, "\(log)")
        #expect(log.contains("tried to open a socket (socket)"), "\(log)")
        #expect(log.contains("tried to read a file outside the sandbox (\(secret))"), "\(log)")
        #expect(log.contains("tried to write a file (\(written))"), "\(log)")
        #expect(log.contains("refused by the sandbox"), "\(log)")
        #expect(!FileManager.default.fileExists(atPath: written))
        #expect(ProcessModelTests.leftOver(doc, within: 2).isEmpty)
        #expect(ProcessModelTests.leftOver(plugins, within: 2).isEmpty)
    }

    /// A plugin whose constructor (run while it loads, before the sandbox closes) leaves a helper
    /// from posix_spawn and a double-forked daemon, each with `marker` on its command line, and whose
    /// hook then loops.
    static func spawner(marker: String) -> String {
        ProcessModelTests.plugin(
            "for (;;) {}",
            extra: """
                #include <spawn.h>
                extern char **environ;
                __attribute__((constructor)) static void leave_helpers(void) {
                    char *argv[] = {"sleep", "300", 0};
                    char *marked[] = {"TEST_MARK=\(marker)", 0};  /* found, and killed, by its environment */
                    pid_t helper;
                    posix_spawn(&helper, "/bin/sleep", 0, 0, argv, marked);
                    if (fork() == 0) {
                        setsid();
                        if (fork() == 0) { for (;;) pause(); }
                        _exit(0);
                    }
                }
                """)
    }

    @Test(
        "a plugin's constructor starts a helper and a daemon: refused in the sandbox, nothing left; off, they run",
        arguments: [(SIGTERM, "off"), (SIGKILL, "off"), (SIGTERM, "on"), (SIGKILL, "on")])
    func nothingOutlives(signal: Int32, sandbox: String) throws {
        let folder = try Render.write(
            ["t.yaml": "sections:\n  - cell: Faulty\n    rows: 2\n"], name: "outlive\(signal)\(sandbox)")
        try Fixtures.compileC(Self.spawner(marker: folder), name: "spawner", in: folder)
        let argv = ProcessModelTests.contained([
            "render", folder + "/t.yaml", "--plugin-path", folder, "--hook-timeout", "300", "--sandbox", sandbox,
        ])
        let pid = try model.start(argv, log: folder + "/log")
        // Off: cellkit, its worker, the plugin's helper and daemon (at least three of them seen). On:
        // cellkit, its worker and the sandbox's listener only; the constructor runs inside, where
        // posix_spawn and fork fail.
        ProcessModelTests.waitUntilSpinning(folder)  // the hook loops: the constructor has run
        let before = ProcessModelTests.processes(marked: folder)
        #expect(sandbox == "off" ? before.count >= 3 : before.count == 3, "sandbox \(sandbox): \(before)")
        // The supervisor alone: `prlimit` execs setpriv, which execs cellkit, so `pid` is cellkit.
        kill(pid, signal)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        // Off, the daemon (its own session, its parent gone) outlives cellkit: the act the sandbox
        // refuses succeeds without it, so the "on" case is the sandbox's doing. It is killed here.
        let left = ProcessModelTests.leftOver(folder, within: 2)
        #expect(sandbox == "off" ? !left.isEmpty : left.isEmpty, "sandbox \(sandbox): left \(left)")
    }

    /// A 32-byte frame header, well formed but not tagged, written to every descriptor once.
    static let blindHeader = ProcessModelTests.plugin(
        """
        static int done = 0;
        if (!done) {
            done = 1;
            unsigned char h[32] = {0x43, 0x4B, 0x46, 0x52, 1, 0, 0, 0, 1, 0, 0, 0, 0xE8, 0x03, 0, 0};
            \(ProcessModelTests.everyDescriptor) (void)!write(fd, h, sizeof h);
        }
        """)

    /// A hook that starts a thread which reads every pipe it may: it takes the acknowledgements.
    static let ackThief = ProcessModelTests.plugin(
        """
        static int started = 0;
        if (!started) {
            started = 1;
            for (int i = 0; i < 4; i++) { pthread_t t; pthread_create(&t, 0, thief, 0); }
            usleep(100000);
        }
        """,
        extra: """
            #include <sys/stat.h>
            static void *thief(void *unused) {
                (void)unused;
                for (;;) {
                    for (int fd = 3; fd < 4096; fd++) {
                        struct stat info;
                        int flags = fcntl(fd, F_GETFL);
                        if (flags < 0 || (flags & O_ACCMODE) != O_RDONLY || fstat(fd, &info) != 0) continue;
                        if (!S_ISFIFO(info.st_mode)) continue;
                        char byte;
                        (void)!read(fd, &byte, 1);
                    }
                    usleep(1000);
                }
                return 0;
            }
            """)

    @Test(
        "a blind frame header or a thread taking acknowledgements: exit 3 within the hook timeout + 10 s, named",
        arguments: [("blind", false), ("blind", true), ("thief", false), ("thief", true)])
    func channelStalls(plugin: String, execWorker: Bool) throws {
        let folder = try Render.write(
            ["t.yaml": "sections:\n  - rows:\n      - {cell: Default, text: Innocent}\n      - {cell: Faulty}\n"],
            name: "\(plugin)\(execWorker)")
        try Fixtures.compileC(plugin == "blind" ? Self.blindHeader : Self.ackThief, name: plugin, in: folder)
        let argv = ProcessModelTests.contained([
            "render", folder + "/t.yaml", "--plugin-path", folder, "--hook-timeout", "3",
        ])
        let environment = execWorker ? ["env", "CELLKIT_WORKER_EXEC=1"] : []
        // A thief races the worker for each acknowledgement (four thieves: it loses seldom), and a
        // worker that got it completes the table: each run is complete or the thief's fault, named;
        // within five runs the theft happens.
        var faulted = false
        for _ in 0..<5 where !faulted {
            let start = Date()
            let (ending, log) = try model.run(
                Array(argv.prefix(3)) + environment + Array(argv.dropFirst(3)), timeout: 60)
            #expect(Date().timeIntervalSince(start) < 13, "within --hook-timeout 3 + 10 s")
            #expect(log.contains("Innocent"), "the innocent row drawn:\n\(log)")
            if ending == .exited(0), plugin == "thief", log.contains("faulty") { continue }
            faulted = true
            #expect(ending == .exited(3), "\(log)")
            #expect(log.contains("lib\(plugin).so: customizeCellForFaulty"), "the plugin named:\n\(log)")
        }
        #expect(faulted, "the plugin's attack landed in one of five runs")
        #expect(ProcessModelTests.leftOver(folder, within: 2).isEmpty)
    }

    @Test("a stray byte beside an innocent neighbour: the stray plugin blamed, no innocent row lost (20 runs)")
    func strayWithNeighbour() throws {
        let folder = try Render.write(
            [
                "t.yaml": """
                sections:
                  - rows:
                      - {cell: Default, text: First}
                      - {cell: Foobar}
                      - {cell: Faulty}
                      - {cell: Default, text: Last}
                      - {cell: Foobar}
                  - cell: Default
                    rows: 30
                """
            ], name: "strayneighbour")
        let stray = ProcessModelTests.plugin("\(ProcessModelTests.everyDescriptor) (void)!write(fd, \"x\", 1);")
        try Fixtures.compileC(stray, name: "stray", in: folder)
        for run in 0..<20 {
            let (ending, log) = try model.run(
                ProcessModelTests.contained(["render", folder + "/t.yaml", "--plugin-path", folder]), timeout: 60)
            #expect(ending == .exited(3), "run \(run): \(log)")
            let faults = log.split(separator: "\n").filter { $0.contains("broke the worker's channel") }
            #expect(
                faults.count == 1 && faults[0].hasPrefix("libstray.so: customizeCellForFaulty"), "run \(run): \(log)")
            #expect(
                !log.contains("libFoobarCells.so faulted") && !log.contains("this Default row"), "run \(run): \(log)")
            #expect(
                log.contains("First") && log.contains("Last") && log.contains("Row: 1") && log.contains("Row: 4"),
                "run \(run): \(log)")
            if !faults.isEmpty, faults.count != 1 { break }
        }
        #expect(ProcessModelTests.leftOver(folder, within: 2).isEmpty)
    }

    @Test("an exec'd worker holds no key a plugin can read back from its environment")
    func noKeyInEnvironment() throws {
        let folder = try Render.write(["t.yaml": "sections:\n  - cell: Faulty\n    rows: 1\n"], name: "keyless")
        let reader = ProcessModelTests.plugin(
            "ck_set_text(ck_text_label(cell), seen);",
            extra: """
                #include <stdio.h>
                static char seen[64] = "environment: clean";
                __attribute__((constructor)) static void look(void) {
                    FILE *f = fopen("/proc/self/environ", "r");
                    if (!f) return;
                    char buffer[65536];
                    size_t n = fread(buffer, 1, sizeof buffer - 1, f);
                    fclose(f);
                    for (size_t i = 0; i + 14 < n; i++)
                        if (memcmp(buffer + i, "CELLKIT_RENDER", 14) == 0) { strcpy(seen, "environment: holds the plan"); break; }
                }
                """)
        try Fixtures.compileC(reader, name: "keyless", in: folder)
        let argv = ProcessModelTests.contained(["render", folder + "/t.yaml", "--plugin-path", folder])
        let (ending, log) = try model.run(
            Array(argv.prefix(3)) + ["env", "CELLKIT_WORKER_EXEC=1"] + Array(argv.dropFirst(3)), timeout: 60)
        #expect(ending == .exited(0), "\(log)")
        #expect(log.contains("environment: clean"), "\(log)")
    }

    @Test("check of a plugin that closes every descriptor and loops: a FAIL within 30 s, not a hang")
    func checkClosesAndLoops() throws {
        let folder = try Fixtures.folder("checkcloses")
        try Fixtures.compileC(
            ProcessModelTests.plugin("\(ProcessModelTests.everyDescriptor) close(fd); for (;;) {}"), name: "closes",
            in: folder)
        let start = Date()
        let (ending, log) = try model.run(
            ProcessModelTests.contained(["check", folder + "/libcloses.so"]), timeout: 60)
        #expect(ending == .exited(1), "\(log)")
        #expect(Date().timeIntervalSince(start) < 30)
        #expect(log.contains("FAIL customizeCellForFaulty"), "\(log)")
        #expect(ProcessModelTests.leftOver(folder, within: 2).isEmpty)
    }

    /// How a lying plugin looks for the checker: it behaves only while it sees one.
    static let checkerTells = [
        "environment": """
        extern char **environ;
        for (char **e = environ; *e; e++)
            if (strncmp(*e, "CELLKIT_CHECK", 13) == 0 || strncmp(*e, "CELLKIT_SUPERVISOR", 18) == 0) checker = 1;
        """,
        "argv": """
        char line[4096] = {0};
        FILE *f = fopen("/proc/self/cmdline", "r");
        size_t n = f ? fread(line, 1, sizeof line - 1, f) : 0;
        if (f) fclose(f);
        for (size_t i = 0; i < n; i++) if (!line[i]) line[i] = ' ';
        if (strstr(line, "check")) checker = 1;
        """,
        "stdout": """
        struct stat info;
        if (fstat(1, &info) == 0 && S_ISFIFO(info.st_mode)) checker = 1;
        """,
    ]

    @Test(
        "a plugin that behaves only when it sees the checker (environment, argv, standard output) is caught",
        arguments: ["environment", "argv", "stdout"])
    func lyingPlugin(tell: String) throws {
        let folder = try Fixtures.folder("liar" + tell)
        try Fixtures.compileC(
            ProcessModelTests.plugin(
                "int checker = 0;\n" + Self.checkerTells[tell]! + "\nif (!checker) \(IsolationTests.crash)",
                extra: "#include <stdio.h>\n#include <sys/stat.h>"), name: "liar", in: folder)
        // cellkit's standard error a file, as a terminal would be: not a pipe.
        let (ending, log) = try model.run(ProcessModelTests.contained(["check", folder + "/libliar.so"]), timeout: 120)
        guard tell == "stdout" else {
            #expect(ending == .exited(1), "\(tell): \(log)")
            #expect(log.contains("crashed with SIGSEGV"), "\(tell): \(log)")
            return
        }
        // In the sandbox standard output is the listener's pipe in a render's worker as in a check's:
        // the plugin sees the same in both, so it behaves in both, and the check's Clean is true.
        let doc = try Render.write(["t.yaml": "sections:\n  - cell: Faulty\n    rows: 2\n"], name: "liarrender")
        let (rendered, renderLog) = try model.run(
            ProcessModelTests.contained(["render", doc + "/t.yaml", "--plugin-path", folder]), timeout: 120)
        #expect(ending == .exited(0), "check: \(log)")
        #expect(rendered == .exited(0) && !renderLog.contains("crashed"), "render: \(renderLog)")
    }
}
