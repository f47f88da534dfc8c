// The attacks of issue 40, each tried by one hostile plugin from its constructor (which now runs
// inside the sandbox) and from a hook, as an ordinary user (uid 64123, not the overflow uid)
// and as root, under root-owned parent folders: every act refused and named with the sandbox
// on, and shown succeeding with it off, so that a pass is the sandbox's doing. Contained as
// ProcessModelTests are: a process limit for the user, a deadline, nothing left behind.

import CellKitRuntime
import CellKitTestSupport
import Foundation
import Testing

@Suite("sandbox attacks: closed before plugin code, nothing inside undoes it, as a user and as root", .serialized)
struct SandboxAttackTests {
    let model = ProcessModelTests()

    /// The uid the user runs take: an ordinary user's, not 65534 (the overflow uid).
    static let user: uid_t = 64123

    /// The attacker: its constructor reads a secret, appends to `~/.bashrc`, plants a file in the
    /// cache, rewrites another plugin and opens sockets; its hook tries the privileged calls,
    /// the terminal, other architectures' calls, the listener, and a file beside the document.
    /// Each result is written into its label as `name=ALLOWED` or `name=refused`.
    static func attacker(home: String, other: String, mountPoint: String) -> String {
        """
        #define _GNU_SOURCE
        #include <errno.h>
        #include <fcntl.h>
        #include <linux/bpf.h>
        #include <linux/perf_event.h>
        #include <linux/seccomp.h>
        #include <netinet/in.h>
        #include <arpa/inet.h>
        #include <sched.h>
        #include <signal.h>
        #include <stdio.h>
        #include <string.h>
        #include <sys/ioctl.h>
        #include <sys/mount.h>
        #include <sys/prctl.h>
        #include <sys/socket.h>
        #include <sys/stat.h>
        #include <sys/syscall.h>
        #include <sys/wait.h>
        #include <termios.h>
        #include <unistd.h>
        #include "cellkit.h"
        CK_PLUGIN("Attack", "1.0.0", "Tries to get out");
        static char result[2048];
        static char *at = result;
        static void note(const char *name, int allowed) { at += sprintf(at, "%s=%s ", name, allowed ? "ALLOWED" : "refused"); }
        static int opens(const char *path, int flags) {
            int fd = open(path, flags, 0644);
            if (fd >= 0) close(fd);
            return fd >= 0;
        }
        __attribute__((constructor)) static void at_load(void) {
            note("ctor-read", opens("\(home)/.ssh/id_rsa", O_RDONLY));
            int fd = open("\(home)/.bashrc", O_WRONLY | O_APPEND);
            note("ctor-bashrc", fd >= 0 && write(fd, "touch PWNED\\n", 12) == 12);
            if (fd >= 0) close(fd);
            note("ctor-cache", opens("\(home)/.cache/cellkit/planted", O_WRONLY | O_CREAT));
            note("ctor-plugin", opens("\(other)", O_WRONLY | O_APPEND));
            int udp = socket(AF_INET, SOCK_DGRAM, 0);
            note("ctor-udp", udp >= 0);
            if (udp >= 0) close(udp);
            int tcp = socket(AF_INET, SOCK_STREAM, 0);
            note("ctor-tcp", tcp >= 0);
            if (tcp >= 0) close(tcp);
        }
        static void hook_attacks(void) {
            char status[4096] = {0};
            int fd = open("/proc/self/status", O_RDONLY);
            if (fd >= 0) { (void)!read(fd, status, sizeof status - 1); close(fd); }
            note("capeff", strstr(status, "CapEff:\\t0000000000000000") == 0);
            union bpf_attr map;
            memset(&map, 0, sizeof map);
            map.map_type = BPF_MAP_TYPE_ARRAY; map.key_size = 4; map.value_size = 4; map.max_entries = 1;
            long bpf = syscall(SYS_bpf, BPF_MAP_CREATE, &map, sizeof map);
            note("bpf", bpf >= 0);
            struct perf_event_attr perf;
            memset(&perf, 0, sizeof perf);
            perf.type = PERF_TYPE_SOFTWARE; perf.size = sizeof perf; perf.config = PERF_COUNT_SW_CPU_CLOCK;
            note("perf", syscall(SYS_perf_event_open, &perf, -1, 0, -1, 0) >= 0);
            note("add_key", syscall(SYS_add_key, "user", "cellkit-attack", "x", 1, -2 /* process keyring */) >= 0);
            note("keyctl", syscall(SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -3, 0) >= 0);
            note("userfaultfd", syscall(SYS_userfaultfd, 0) >= 0);
            int mounted = mount("none", "\(mountPoint)", "tmpfs", 0, 0) == 0;
            note("mount", mounted);
            if (mounted) umount2("\(mountPoint)", MNT_DETACH);
            note("chroot", chroot("/") == 0);
            note("init_module", syscall(SYS_init_module, 0, 0, "") == 0 || errno != EPERM);
            note("chmod", chmod("\(home)/.ssh/id_rsa", 0640) == 0);
            note("chown", chown("\(home)/.ssh/id_rsa", (uid_t)-1, (gid_t)-1) == 0);
            note("hook-read", opens("\(home)/.ssh/id_rsa", O_RDONLY));
            note("hardlink-read", opens("\(home)/beside", O_RDONLY));
            int typed = 0;
            for (int t = 0; t <= 2; t++) typed |= ioctl(t, TIOCSTI, "x") == 0;
            note("tiocsti", typed);
            note("x32", syscall(39 | 0x40000000) > 0);
            long pid = 20; /* i386 getpid */
            __asm__ volatile("int $0x80" : "+a"(pid) : : "memory");
            note("int80", pid > 0);
            /* The listener: stop the process group (it is in it), look for a notification descriptor
             * to answer, then try a fork: it must still be refused, and promptly. */
            note("kill-group", kill(0, SIGCONT) == 0);
            int found = 0;
            for (int d = 3; d < 1024; d++) {
                unsigned long long id = 0;
                if (ioctl(d, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) != 0 && errno == ENOENT) found = 1;
            }
            note("notify-fd", found);
            pid_t child = fork();
            if (child == 0) _exit(0);
            if (child > 0) waitpid(child, 0, 0);
            note("fork", child > 0);
            struct { unsigned entries[32]; } ring;  /* io_uring_params, zeroed */
            memset(&ring, 0, sizeof ring);
            long uring = syscall(SYS_io_uring_setup, 1, &ring);
            note("io_uring", uring >= 0);
            if (uring >= 0) close((int)uring);
            /* Calls no denylist named: outside the allowlist, or allowed only with other arguments. */
            int memfd = (int)syscall(SYS_memfd_create, "hidden", 0);
            note("memfd", memfd >= 0);
            if (memfd >= 0) close(memfd);
            int watcher = (int)syscall(SYS_inotify_init1, 0);
            note("inotify", watcher >= 0);
            if (watcher >= 0) close(watcher);
            note("subreaper", prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0);
            note("setown", fcntl(2, F_SETOWN, getppid()) == 0);
            note("unknown", syscall(1023) == 0 || errno != ENOSYS);
            note("unshare", unshare(CLONE_NEWUSER) == 0);  /* last: off, it moves the worker */
        }
        CK_EXPORT void customizeCellForAttack(ck_cell *cell, ck_index_path ip) {
            (void)ip;
            hook_attacks();
            ck_set_text(ck_text_label(cell), result);
        }
        """
    }

    /// A home with a secret, a `.bashrc`, a cache folder and a document, a plugin folder holding the
    /// attacker and another plugin, and a mount point, owned by `owner`; the folders above them
    /// (the tests' own, /tmp) stay root's.
    func layout(_ name: String, owner: uid_t) throws -> (home: String, plugins: String, other: String) {
        let base = try Fixtures.folder(name)
        let home = base + "/home", plugins = base + "/plugins", other = plugins + "/libother.so"
        for folder in [home, home + "/.ssh", home + "/.cache/cellkit", plugins, base + "/mnt"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            chmod(folder, 0o755)
        }
        try "PRIVATE KEY\n".write(toFile: home + "/.ssh/id_rsa", atomically: true, encoding: .utf8)
        chmod(home + "/.ssh/id_rsa", 0o600)
        try "# shell\n".write(toFile: home + "/.bashrc", atomically: true, encoding: .utf8)
        link(home + "/.ssh/id_rsa", home + "/beside")  // a hard link placed beside the document
        try "sections:\n  - cell: Attack\n    rows: 1\n".write(
            toFile: home + "/t.yaml", atomically: true, encoding: .utf8)
        try Fixtures.compileC(
            Self.attacker(home: home, other: other, mountPoint: base + "/mnt"), name: "attack", in: plugins)
        try Fixtures.compileC(IsolationTests.faulty(""), name: "other", in: plugins)
        for path in [
            base, home, home + "/.ssh", home + "/.ssh/id_rsa", home + "/.bashrc", home + "/.cache",
            home + "/.cache/cellkit", home + "/t.yaml", plugins, plugins + "/libattack.so", other, base + "/mnt",
        ] {
            chown(path, owner, owner)
        }
        return (home, plugins, other)
    }

    /// cellkit with `arguments`, as `uid` (root: 0), with HOME set, under a process limit.
    static func run(_ arguments: [String], as uid: uid_t, home: String) -> [String] {
        let cellkit = Fixtures.buildDirectory + "/cellkit"
        let user = uid == 0 ? [] : ["setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"]
        return ["/usr/bin/prlimit", "--nproc=\(Fixtures.processLimit)", "--"] + user
            + ["/usr/bin/env", "HOME=" + home, "XDG_CACHE_HOME=" + home + "/.cache", cellkit] + arguments
    }

    static let acts = [
        "ctor-read", "ctor-bashrc", "ctor-cache", "ctor-plugin", "ctor-udp", "ctor-tcp", "capeff", "bpf", "perf",
        "add_key", "keyctl", "userfaultfd", "mount", "chroot", "init_module", "chmod", "chown", "hook-read",
        "hardlink-read", "tiocsti", "x32", "int80", "kill-group", "notify-fd", "fork", "io_uring", "memfd", "inotify",
        "subreaper", "setown", "unknown", "unshare",
    ]

    /// What "off" cannot show: no process has a notification descriptor without a filter, the
    /// test's standard streams are no terminal, this kernel has no x32 and no call 1023; and what
    /// the kernel itself refuses a user (no capabilities).
    static func refusedAnyway(_ act: String, root: Bool) -> Bool {
        let always = ["notify-fd", "tiocsti", "x32", "unknown"]
        let privileged = ["capeff", "bpf", "perf", "userfaultfd", "mount", "chroot"]
        return always.contains(act) || (!root && privileged.contains(act))
    }

    @Test(
        "every act of the attacker refused in the sandbox and named; with it off the same acts succeed",
        arguments: [SandboxAttackTests.user, 0])
    func attacker(uid: uid_t) throws {
        guard getuid() == 0 else { return }  // needs root to act as the user and as root
        let name = uid == 0 ? "attackroot" : "attackuser"
        let (home, plugins, other) = try layout(name, owner: uid)
        let otherBefore = try Data(contentsOf: URL(fileURLWithPath: other))
        let render = ["render", home + "/t.yaml", "--plugin-path", plugins, "--format", "json"]
        let (ending, log) = try model.run(Self.run(render, as: uid, home: home), timeout: 60)
        #expect(ending == .exited(0), "\(log)")
        for act in Self.acts { #expect(log.contains("\(act)=refused"), "\(act) as uid \(uid): \(log)") }
        // Named, by the kernel's listener outside the worker, not the worker's word.
        for named in [
            "tried to start a process (clone)",
            "tried to load a BPF program or map (bpf)", "tried to use the kernel's keyrings (add_key)",
            "tried to mount a file system (mount)", "tried to change the root folder (chroot)",
            "tried to load a kernel module (init_module)", "tried to change a file's permissions (chmod)",
            "tried to type into the terminal (ioctl TIOCSTI)",
            "tried to make a system call of another architecture (i386 or x32)",
            "tried to signal another process (kill)", "tried to set up io_uring (io_uring_setup)",
            "tried to change namespaces (unshare)",
            "tried to make a system call outside the sandbox's allowlist (memfd_create)",
            "tried to make a system call outside the sandbox's allowlist (inotify_init1)",
            "tried to change a process setting (prctl)",
            "tried to aim a descriptor's signals at another process (fcntl)",
            "tried to make a system call unknown to the sandbox",
        ] {
            #expect(log.contains("libattack.so: customizeCellForAttack " + named), "\(named): \(log)")
        }
        #expect(log.contains("libattack.so: its constructor tried to open a socket (socket): refused by the sandbox"))
        #expect(try String(contentsOfFile: home + "/.bashrc", encoding: .utf8) == "# shell\n")
        #expect(!FileManager.default.fileExists(atPath: home + "/.cache/cellkit/planted"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == otherBefore)
        var info = stat()
        stat(home + "/.ssh/id_rsa", &info)
        #expect(info.st_mode & 0o777 == 0o600, "the secret's mode is unchanged")
        #expect(ProcessModelTests.leftOver(home, within: 2).isEmpty)

        // The same plugin with the sandbox off: what the kernel lets this user do succeeds.
        let (offEnding, offLog) = try model.run(
            Self.run(render + ["--sandbox", "off"], as: uid, home: home), timeout: 60)
        #expect(offEnding == .exited(0), "\(offLog)")
        for act in Self.acts where !Self.refusedAnyway(act, root: uid == 0) {
            #expect(offLog.contains("\(act)=ALLOWED"), "\(act) off, uid \(uid): \(offLog)")
        }
        #expect(try String(contentsOfFile: home + "/.bashrc", encoding: .utf8).contains("touch PWNED"))
        #expect(ProcessModelTests.leftOver(home, within: 2).isEmpty)
    }

    @Test(
        "an installed layout (cellkit and a plugin in a root-owned folder, a user's plugin under root-owned parents): an ordinary user renders and checks with the sandbox on"
    )
    func installedLayout() throws {
        guard getuid() == 0 else { return }  // needs root to lay out root's folders and act as the user
        let prefix = try Fixtures.folder("installed") + "/usr/local"
        let bin = prefix + "/bin", home = prefix + "/../home/user"
        for folder in [bin, home + "/.local/share/cellkit/plugins"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        for file in ["cellkit", "libFoobarCells.so"] {
            try FileManager.default.copyItem(atPath: Fixtures.buildDirectory + "/" + file, toPath: bin + "/" + file)
        }
        // The user's own plugin, in the folder the docs name, under root-owned parents.
        try Fixtures.compileC(ProcessModelTests.plugin(""), name: "mine", in: home + "/.local/share/cellkit/plugins")
        for path in [
            home, home + "/.local", home + "/.local/share", home + "/.local/share/cellkit",
            home + "/.local/share/cellkit/plugins", home + "/.local/share/cellkit/plugins/libmine.so",
        ] {
            chown(path, Self.user, Self.user)
        }
        try "sections:\n  - cell: Foobar\n    rows: 2\n  - cell: Faulty\n    rows: 1\n".write(
            toFile: home + "/t.yaml", atomically: true, encoding: .utf8)
        chown(home + "/t.yaml", Self.user, Self.user)
        let installed = bin + "/cellkit"
        let user = ["setpriv", "--reuid=\(Self.user)", "--regid=\(Self.user)", "--clear-groups"]
        let run =
            ["/usr/bin/prlimit", "--nproc=\(Fixtures.processLimit)", "--"] + user + ["/usr/bin/env", "HOME=" + home]
        let (ending, log) = try model.run(run + [installed, "render", home + "/t.yaml"], timeout: 60)
        #expect(ending == .exited(0), "\(log)")
        #expect(log.components(separatedBy: "Row: ").count - 1 == 2, "Foobar, from the root-owned folder: \(log)")
        #expect(!log.contains("refused") && !log.contains("uid 65534"), "\(log)")
        let (checked, checkLog) = try model.run(run + [installed, "check", "Foobar"], timeout: 120)
        #expect(checked == .exited(0), "\(checkLog)")
        let (mine, mineLog) = try model.run(
            run + [installed, "check", home + "/.local/share/cellkit/plugins/libmine.so"], timeout: 120)
        #expect(mine == .exited(0), "\(mineLog)")
    }

    /// A Swift plugin whose hook uses Dispatch's pool and Swift concurrency (a task group), and
    /// says on standard error what it summed.
    static let swiftWork = """
        import Dispatch
        import Glibc
        final class Box: @unchecked Sendable { var sum = 0; let lock = DispatchSemaphore(value: 1) }
        @_cdecl("customizeCellForSwiftWork") public func customize(_ cell: UnsafeMutableRawPointer?) {
            let box = Box()
            DispatchQueue.concurrentPerform(iterations: 8) { i in box.lock.wait(); box.sum += i; box.lock.signal() }
            let done = DispatchSemaphore(value: 0)
            Task.detached {
                let tasks = await withTaskGroup(of: Int.self) { group in
                    for i in 0..<4 { group.addTask { try? await Task.sleep(nanoseconds: 1_000_000); return i } }
                    return await group.reduce(0, +)
                }
                box.lock.wait(); box.sum += tasks; box.lock.signal()
                done.signal()
            }
            done.wait()
            fputs("swiftwork: \\(box.sum)\\n", stderr)
        }
        """

    @Test(
        "ordinary plugin work (threads, sleeps, random numbers, its own files, big allocations, Dispatch, Swift concurrency) runs in the sandbox with nothing refused",
        .enabled(if: Fixtures.tool("c++") != nil, "c++ is not installed (apt-get install g++); CI installs it"))
    func ordinaryWork() throws {
        let folder = try Fixtures.folder("ordinary")
        let workload = Fixtures.repositoryRoot + "/Scripts/sandbox-workload"
        _ = try Fixtures.output(
            try #require(Fixtures.tool("c++")),
            [
                "-std=c++17", "-shared", "-fPIC", "-pthread", "-I", Fixtures.headerDirectory,
                workload + "/WorkloadCells.cpp", "-o", folder + "/libWorkloadCells.so",
            ])
        try FileManager.default.copyItem(atPath: workload + "/workload.txt", toPath: folder + "/workload.txt")
        try Fixtures.compileSwift(
            Self.swiftWork, descriptor: "#include \"cellkit.h\"\nCK_PLUGIN(\"SwiftWork\", \"1.0.0\", \"work\");",
            name: "SwiftWork", in: folder)
        try "sections:\n  - cell: Workload\n    rows: 3\n  - cell: SwiftWork\n    rows: 2\n".write(
            toFile: folder + "/t.yaml", atomically: true, encoding: .utf8)
        let render = ["render", folder + "/t.yaml", "--plugin-path", folder, "--strict"]
        for uid in getuid() == 0 ? [Self.user, 0] : [getuid()] {
            for path in [folder, folder + "/t.yaml"] { chown(path, uid, uid) }
            let run =
                getuid() == 0
                ? Self.run(render, as: uid, home: folder) : [Fixtures.buildDirectory + "/cellkit"] + render
            let (ending, log) = try model.run(run, timeout: 60)
            #expect(ending == .exited(0), "uid \(uid): \(log)")
            // Three workload rows, each 3 (threads) + 7 (a future) + 31 (its data line) + 4 files.
            #expect(log.components(separatedBy: " 45 \n").count - 1 == 3, "uid \(uid): \(log)")
            #expect(log.components(separatedBy: "swiftwork: 34").count - 1 == 2, "uid \(uid): \(log)")
            #expect(!log.contains("warning") && !log.contains("refused"), "uid \(uid): \(log)")
        }
    }

    @Test(
        "a refused read or write is put on the hook and row that made it, every time (the worker waits while its open is judged); a thread's name is not worth a warning"
    )
    func refusalBlame() throws {
        let folder = try Render.write(["t.yaml": "sections:\n  - cell: Faulty\n    rows: 3\n"], name: "blame")
        try "secret\n".write(toFile: folder + "/outside.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: folder + "/plugins", withIntermediateDirectories: true)
        try Fixtures.compileC(
            ProcessModelTests.plugin(
                """
                pthread_t other;
                pthread_create(&other, 0, idle, 0);
                pthread_setname_np(other, "named");  /* another thread's name: /proc/self/task/N/comm */
                pthread_join(other, 0);
                int fd = open(ip.row == 1 ? "\(folder)/outside.txt" : "\(folder)/written.txt",
                              ip.row == 1 ? O_RDONLY : O_WRONLY | O_CREAT, 0644);
                if (fd >= 0) close(fd);
                """, extra: "#include <unistd.h>\nstatic void *idle(void *unused) { return unused; }"),
            name: "blame", in: folder + "/plugins")
        for run in 0..<10 {
            let (ending, log) = try model.run(
                ProcessModelTests.contained(["render", folder + "/t.yaml", "--plugin-path", folder + "/plugins"]),
                timeout: 60)
            #expect(ending == .exited(0), "run \(run): \(log)")
            #expect(
                log.contains(
                    "libblame.so: customizeCellForFaulty tried to read a file outside the sandbox (\(folder)/outside.txt): refused by the sandbox at row 1.2 (indexPath [0, 1])"
                ), "run \(run): \(log)")
            #expect(
                log.contains(
                    "libblame.so: customizeCellForFaulty tried to write a file (\(folder)/written.txt): refused by the sandbox at row 1.1 (indexPath [0, 0]); a cell plugin may not write files"
                ), "run \(run): \(log)")
            #expect(!log.contains("outside plugin code") && !log.contains("/comm"), "run \(run): \(log)")
        }
    }

    @Test("a flood of 200 MB with terminal escapes on standard error: capped, nothing raw reaches the terminal")
    func standardErrorFlood() throws {
        guard getuid() == 0 else { return }
        let folder = try Render.write(["t.yaml": "sections:\n  - cell: Faulty\n    rows: 1\n"], name: "flood")
        try Fixtures.compileC(
            ProcessModelTests.plugin(
                """
                static char block[1 << 20];
                memset(block, 'A', sizeof block);
                memcpy(block, "\\033c\\033]0;owned\\007", 12);
                for (int i = 0; i < 200; i++) (void)!write(2, block, sizeof block);
                """, extra: "#include <unistd.h>"), name: "flood", in: folder)
        chown(folder, Self.user, Self.user)
        let (ending, log) = try model.run(
            Self.run(["render", folder + "/t.yaml", "--plugin-path", folder], as: Self.user, home: folder), timeout: 60)
        #expect(ending == .exited(0), "\(log.prefix(2000))")
        #expect(!log.utf8.contains(0x1B), "no raw escape reaches the terminal")
        #expect(log.utf8.count < 200_000, "capped: \(log.utf8.count) bytes")
        #expect(
            log.contains("more bytes a plugin wrote to standard output or error were dropped"), "\(log.suffix(500))")
        // Off, the bytes go straight through: the cap and the cleaning are the sandbox's.
        let (_, offLog) = try model.run(
            Self.run(
                ["render", folder + "/t.yaml", "--plugin-path", folder, "--sandbox", "off"], as: Self.user, home: folder
            ),
            timeout: 60)
        #expect(offLog.utf8.contains(0x1B) && offLog.utf8.count > 100_000_000)
    }

    /// Whether this build runs under AddressSanitizer: its shadow memory takes terabytes of address
    /// space, so a sanitized worker has no memory limit (`Sandbox.enter`).
    static let sanitized = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil

    @Test(
        "a plugin that allocates past --worker-memory: named as over the limit, its rows placeholders; off, it gets 2 GiB",
        .disabled(if: SandboxAttackTests.sanitized, "no memory limit under AddressSanitizer"))
    func memoryLimit() throws {
        let folder = try Render.write(["t.yaml": "sections:\n  - cell: Faulty\n    rows: 2\n"], name: "memory")
        try Fixtures.compileC(
            ProcessModelTests.plugin(
                """
                static long total = 0;
                while (total < (2L << 30)) {  /* 2 GiB, 16 MiB at a time, each touched */
                    char *block = malloc(16 << 20);
                    if (!block) { volatile int *nowhere = 0; *nowhere = 1; }  /* as most code fails */
                    memset(block, 1, 16 << 20);
                    total += 16 << 20;
                }
                char said[64];
                snprintf(said, sizeof said, "allocated=%ld MiB", total >> 20);
                ck_set_text(ck_text_label(cell), said);
                """, extra: "#include <stdio.h>\n#include <stdlib.h>"), name: "hungry", in: folder)
        for uid in [Self.user, 0] where getuid() == 0 {
            let render = ["render", folder + "/t.yaml", "--plugin-path", folder, "--worker-memory", "1024"]
            let (ending, log) = try model.run(Self.run(render, as: uid, home: folder), timeout: 60)
            #expect(ending == .exited(3), "\(log)")
            #expect(
                log.hasPrefix(
                    "libhungry.so: customizeCellForFaulty exceeded its memory limit of 1024 MiB (SIGSEGV; --worker-memory) at row 1.1 (indexPath [0, 0])"
                ), "uid \(uid): \(log)")
            #expect(log.contains("⚠ libhungry.so faulted: this Faulty row is not drawn"))
            // Touching 2 GiB takes a second alone, and more than the 10 s hook timeout beside a loaded
            // machine's other jobs (CI failed so once): this run is about memory, not time.
            let (offEnding, offLog) = try model.run(
                Self.run(render + ["--sandbox", "off", "--hook-timeout", "60"], as: uid, home: folder), timeout: 90)
            #expect(offEnding == .exited(0) && offLog.contains("allocated=2048 MiB"), "uid \(uid) off: \(offLog)")
        }
    }

    /// Faulty and Shower cells that show their worker's network and IPC namespaces
    /// (`NS net:[…] ipc:[…] END`); a Faulty cell crashes on its second row.
    static let namespaceShower = ProcessModelTests.plugin(
        """
        show(cell);
        if (ip.row == 1) raise(SIGSEGV);
        """,
        extra: """
            #include <stdio.h>
            static void show(ck_cell *cell) {
                char net[64] = {0}, ipc[64] = {0}, line[160];
                (void)!readlink("/proc/self/ns/net", net, sizeof net - 1);
                (void)!readlink("/proc/self/ns/ipc", ipc, sizeof ipc - 1);
                snprintf(line, sizeof line, "NS %s %s END", net, ipc);
                ck_set_text(ck_text_label(cell), line);
            }
            CK_EXPORT void customizeCellForShower(ck_cell *cell, ck_index_path ip) { (void)ip; show(cell); }
            """)

    @Test(
        "each worker runs in network and IPC namespaces of its own, made by a root supervisor beside its start or by the worker itself, as root and as a user",
        arguments: getuid() == 0 ? [SandboxAttackTests.user, 0] : [getuid()])
    func namespacesOfTheirOwn(uid: uid_t) throws {
        let folder = try Fixtures.folder("namespaces\(uid)")
        try Fixtures.compileC(Self.namespaceShower, name: "nsshow", in: folder)
        try "sections:\n  - cell: Faulty\n    rows: 2\n  - cell: Shower\n    rows: 1\n".write(
            toFile: folder + "/t.yaml", atomically: true, encoding: .utf8)
        let render = ["render", folder + "/t.yaml", "--plugin-path", folder, "--width", "70"]
        let run =
            getuid() == 0 ? Self.run(render, as: uid, home: folder) : [Fixtures.buildDirectory + "/cellkit"] + render
        if getuid() == 0 {
            for path in [folder, folder + "/t.yaml", folder + "/libnsshow.so"] { chown(path, uid, uid) }
        }
        let (ending, log) = try model.run(run, timeout: 60)
        #expect(ending == .exited(3), "the second row's crash: \(log)")
        let shown = log.split(separator: "\n").compactMap { line -> [Substring]? in
            guard let start = line.range(of: "NS "), let end = line.range(of: " END") else { return nil }
            return line[start.upperBound..<end.lowerBound].split(separator: " ")
        }
        #expect(shown.count == 2, "a Faulty row, then the Shower row drawn by the next worker: \(log)")
        let own = ["net", "ipc"].map {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/\($0)")) ?? ""
        }
        for namespaces in shown {
            #expect(
                namespaces.count == 2 && namespaces[0].hasPrefix("net:[") && namespaces[1].hasPrefix("ipc:["), "\(log)")
            #expect(namespaces[0] != own[0] && namespaces[1] != own[1], "not the supervisor's: \(log)")
        }
    }

    @Test(
        "--sandbox require renders where the kernel has every part; where it lacks one, fails with exit 2 naming it (on: a warning)"
    )
    func requireMode() throws {
        let folder = try Render.write(["t.yaml": "sections:\n  - cell: Faulty\n    rows: 1\n"], name: "require")
        try Fixtures.compileC(ProcessModelTests.plugin(""), name: "fine", in: folder)
        let (ending, log) = try model.run(
            ProcessModelTests.contained(["render", folder + "/t.yaml", "--plugin-path", folder, "--sandbox", "require"]
            ),
            timeout: 60)
        #expect(ending == .exited(0), "\(log)")
        #expect(!log.contains("sandbox:"), "every part applied here: \(log)")
        // A kernel that makes no network namespace (none left in a user namespace whose limit is 0):
        // `require` fails, exit 2, naming the part; `on` warns and draws.
        let limited = try Fixtures.folder("netlimit") + "/run.sh"
        try """
        echo 0 > /proc/sys/user/max_net_namespaces || exit 99
        exec "$@"
        """.write(toFile: limited, atomically: true, encoding: .utf8)
        // Inside that user namespace only the caller's own ids are mapped: root's folders above the
        // test's read as the overflow uid, so trust is not what is tested here.
        let base = [
            Fixtures.buildDirectory + "/cellkit", "render", folder + "/t.yaml", "--plugin-path", folder,
            "--allow-unsafe-permissions",
        ]
        for mode in ["require", "on"] {
            let (limitedEnding, limitedLog) = try model.run(
                ["/usr/bin/unshare", "--user", "--map-root-user", "/bin/sh", limited] + base + ["--sandbox", mode],
                timeout: 60)
            if mode == "require" {
                #expect(limitedEnding == .exited(2), "\(limitedLog)")
                #expect(
                    limitedLog.contains(
                        "the sandbox is required (--sandbox require) but this machine cannot apply it whole: no network namespace"
                    ), "\(limitedLog)")
            } else {
                #expect(limitedEnding == .exited(0), "\(limitedLog)")
                #expect(limitedLog.contains("warning: sandbox: no network namespace"), "\(limitedLog)")
                #expect(!limitedLog.contains("no IPC namespace"), "the IPC namespace alone: \(limitedLog)")
            }
        }
    }
}
