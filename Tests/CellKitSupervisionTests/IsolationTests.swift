// `cellkit render` with plugins in a worker process: a plugin that crashes, aborts,
// overflows its stack, calls exit() or never returns costs its own rows only. Each
// test mixes a faulty cell type with Foobar rows (the package's FoobarCells) before
// and after it, and compares the table with the one a well-behaved twin of the
// faulty plugin draws: byte for byte the same, the placeholder rows aside (the twin
// draws the placeholder's text itself).

import CellKitTestSupport
import Foundation
import Testing

@Suite("render isolation: a faulty plugin costs its own rows")
struct IsolationTests {
    let command = CellKitTool()

    /// Foobar rows around two rows of Faulty (rows 1.1 and 1.3), in three sections.
    static let table = """
        title: Isolation
        sections:
          - header: Before
            cell: Foobar
            rows: 2
          - header: Mixed
            rows:
              - {cell: Foobar}
              - {cell: Faulty}
              - {cell: Foobar}
              - {cell: Faulty}
              - {cell: Foobar}
          - header: After
            cell: Foobar
            rows: 2

        """

    /// A plugin with cell type Faulty: `body` holds its hooks (and anything else it needs).
    static func faulty(_ body: String) -> String {
        """
        #include <stdlib.h>
        #include <unistd.h>
        #include "cellkit.h"
        CK_PLUGIN("Faulty", "1.0.0", "Faults on purpose");
        static void text(ck_cell *cell) { ck_set_text(ck_text_label(cell), "faulty"); }
        \(body)
        """
    }

    static let crash = "{ volatile int *nowhere = 0; *nowhere = 1; }"

    /// The well-behaved twin: every Faulty row shows the placeholder's text, as a placeholder does.
    static func twin(_ name: String) -> String {
        faulty(
            """
            CK_EXPORT void customizeCellForFaulty(ck_cell *cell, ck_index_path ip) {
                (void)ip; ck_set_text(ck_text_label(cell), "⚠ lib\(name).so faulted: this Faulty row is not drawn");
            }
            """)
    }

    /// Renders the table with the faulty plugin `name` (built from `source`) to out.txt; checks the
    /// exit status (3), the one line on standard error (its start, when `line` ends with "…"), that no temporary is left, and that the file
    /// is the twin's rendering.
    func check(
        _ name: String, _ source: String, line: String, timeout: Double? = nil, format: String = "text",
        table: String = IsolationTests.table, extra: [String: String] = [:]
    ) throws -> String {
        let folder = try Render.write(["t.yaml": table].merging(extra) { a, _ in a }, name: name)
        let plugins = try Fixtures.folder(name + "plugins"), twins = try Fixtures.folder(name + "twins")
        try Fixtures.compileC(source, name: name, in: plugins)
        try Fixtures.compileC(Self.twin(name), name: name, in: twins)
        var arguments = [
            "render", folder + "/t.yaml", "--plugin-path", plugins, "--output", folder + "/out.txt", "--format", format,
        ]
        if let timeout { arguments += ["--hook-timeout", String(timeout)] }
        let (ending, log) = try command.run(arguments, timeout: 60)
        #expect(ending == .exited(3), "\(name): \(log)")
        if line.hasSuffix("…") {  // the line's start (what follows may vary)
            #expect(log.hasPrefix(line.dropLast()) && log.filter { $0 == "\n" }.count == 1, "\(name): the one line")
        } else {
            #expect(log == line + "\n", "\(name): the one line")
        }
        #expect(try command.files(folder) == ["out.txt", "t.yaml"] + extra.keys.sorted(), "no temporary")
        let drawn = try command.contents(folder + "/out.txt")
        let (twinEnding, twinLog) = try command.run([
            "render", folder + "/t.yaml", "--plugin-path", twins, "--output", folder + "/twin.txt", "--format", format,
            "--no-isolation",
        ])
        #expect(twinEnding == .exited(0), "\(twinLog)")
        #expect(drawn == (try command.contents(folder + "/twin.txt")), "\(name): the table around the placeholders")
        return drawn
    }

    /// Checks the rows of the text rendering: every Foobar row, and both Faulty rows as placeholders.
    func expectRows(_ drawn: String, plugin: String) {
        for row in 0..<5 {
            let count = drawn.components(separatedBy: "Row: \(row)").count - 1
            #expect(count == [3, 2, 1, 0, 1][row], "Foobar rows 'Row: \(row)'")
        }
        #expect(drawn.components(separatedBy: "⚠ \(plugin) faulted: this Faulty row is not drawn").count - 1 == 2)
        #expect(drawn.hasSuffix("\n" + String(repeating: "─", count: 80) + "\n"), "the last section's bottom edge")
    }

    @Test("a segfault in an init hook")
    func initCrash() throws {
        let drawn = try check(
            "faultinit",
            Self.faulty(
                """
                CK_EXPORT void initCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)cell; (void)ip; \(Self.crash) }
                CK_EXPORT void customizeCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)ip; text(cell); }
                """),
            line: "libfaultinit.so: initCellForFaulty crashed (SIGSEGV) at row 2.2 (indexPath [1, 1])")
        expectRows(drawn, plugin: "libfaultinit.so")
    }

    @Test("a segfault in a customize hook")
    func customizeCrash() throws {
        let drawn = try check(
            "faultcustomize",
            Self.faulty(
                "CK_EXPORT void customizeCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)cell; (void)ip; \(Self.crash) }"
            ),
            line: "libfaultcustomize.so: customizeCellForFaulty crashed (SIGSEGV) at row 2.2 (indexPath [1, 1])")
        expectRows(drawn, plugin: "libfaultcustomize.so")
    }

    @Test("a segfault in a height hook")
    func heightCrash() throws {
        let drawn = try check(
            "faultheight",
            Self.faulty(
                """
                CK_EXPORT void customizeCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)ip; text(cell); }
                CK_EXPORT double heightForCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)cell; (void)ip; \(Self.crash) return 1; }
                """),
            line: "libfaultheight.so: heightForCellForFaulty crashed (SIGSEGV) at row 2.2 (indexPath [1, 1])")
        expectRows(drawn, plugin: "libfaultheight.so")
    }

    @Test("a segfault in a prepare-for-reuse hook")
    func prepareCrash() throws {
        let drawn = try check(
            "faultprepare",
            Self.faulty(
                """
                CK_EXPORT void customizeCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)ip; text(cell); }
                CK_EXPORT void prepareCellForReuseForFaulty(ck_cell *cell, ck_index_path ip) { (void)cell; (void)ip; \(Self.crash) }
                """),
            line: "libfaultprepare.so: prepareCellForReuseForFaulty crashed (SIGSEGV) at row 2.2 (indexPath [1, 1])")
        expectRows(drawn, plugin: "libfaultprepare.so")
    }

    @Test("abort() in a customize hook")
    func abortCall() throws {
        let drawn = try check(
            "faultabort",
            Self.faulty(
                "CK_EXPORT void customizeCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)cell; (void)ip; abort(); }"
            ),
            line: "libfaultabort.so: customizeCellForFaulty crashed (SIGABRT) at row 2.2 (indexPath [1, 1])")
        expectRows(drawn, plugin: "libfaultabort.so")
    }

    @Test("a stack overflow (endless recursion) in a customize hook")
    func stackOverflow() throws {
        let drawn = try check(
            "faultstack",
            Self.faulty(
                """
                static int deeper(volatile int n) { volatile char pad[4096]; pad[0] = (char)n; return deeper(n + 1) + pad[0]; }
                CK_EXPORT void customizeCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)ip; text(cell); deeper(0); }
                """),
            line: "libfaultstack.so: customizeCellForFaulty crashed (SIGSEGV) at row 2.2 (indexPath [1, 1])")
        expectRows(drawn, plugin: "libfaultstack.so")
    }

    @Test("exit(3) in an init hook")
    func exitCall() throws {
        let drawn = try check(
            "faultexit",
            Self.faulty(
                """
                CK_EXPORT void initCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)cell; (void)ip; exit(3); }
                CK_EXPORT void customizeCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)ip; text(cell); }
                """),
            line: "libfaultexit.so: initCellForFaulty exited with status 3 at row 2.2 (indexPath [1, 1])")
        expectRows(drawn, plugin: "libfaultexit.so")
    }

    @Test("an endless loop in a customize hook, with --hook-timeout 2")
    func endlessLoop() throws {
        let start = Date()
        let drawn = try check(
            "faultloop",
            Self.faulty(
                "CK_EXPORT void customizeCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)cell; (void)ip; for (;;) {} }"
            ),
            line: "libfaultloop.so: customizeCellForFaulty did not return within 2 s at row 2.2 (indexPath [1, 1])",
            timeout: 2)
        expectRows(drawn, plugin: "libfaultloop.so")
        #expect(Date().timeIntervalSince(start) < 30)
    }

    @Test("a crash in the plugin's constructor, while it loads")
    func constructorCrash() throws {
        let drawn = try check(
            "faultctor",
            Self.faulty(
                """
                __attribute__((constructor)) static void start(void) \(Self.crash)
                CK_EXPORT void customizeCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)ip; text(cell); }
                """),
            line:
                "libfaultctor.so: its constructor crashed (SIGSEGV) while loading cell type Faulty for row 2.2 (indexPath [1, 1])"
        )
        expectRows(drawn, plugin: "libfaultctor.so")
    }

    @Test("a crash in cellkit_plugin_init")
    func pluginInitCrash() throws {
        let drawn = try check(
            "faultpinit",
            Self.faulty(
                """
                CK_EXPORT ck_status cellkit_plugin_init(const ck_host *host, void **context) {
                    (void)host; (void)context; \(Self.crash) return CK_OK;
                }
                CK_EXPORT void customizeCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)ip; text(cell); }
                """),
            line:
                "libfaultpinit.so: cellkit_plugin_init crashed (SIGSEGV) while loading cell type Faulty for row 2.2 (indexPath [1, 1])"
        )
        expectRows(drawn, plugin: "libfaultpinit.so")
    }
}

@Suite("render isolation: resuming, formats, and the line without isolation")
struct IsolationResumeTests {
    let command = CellKitTool()

    /// A Tally plugin that appends "section.row" to `log` each time its customize hook runs, and a
    /// Faulty type in the same plugin that crashes at rows whose number is in `crashAt`.
    static func tally(log: String) -> String {
        IsolationTests.faulty(
            """
            #include <stdio.h>
            CK_EXPORT void customizeCellForTally(ck_cell *cell, ck_index_path ip) {
                FILE *f = fopen("\(log)", "a");
                fprintf(f, "%lld.%lld\\n", (long long)ip.section, (long long)ip.row);
                fclose(f);
                char text[32]; snprintf(text, sizeof text, "tally %lld", (long long)ip.row);
                ck_set_text(ck_text_label(cell), text);
            }
            CK_EXPORT void customizeCellForFaulty(ck_cell *cell, ck_index_path ip) {
                (void)cell; if (ip.row % 7 == 3) \(IsolationTests.crash) text(cell);
            }
            """)
    }

    @Test("streamed rows: the rows before a crash are not drawn again, their hooks never run twice")
    func streamedResume() throws {
        var rows = ""
        for n in 0..<300 {
            let cell = n % 7 == 3 ? "Faulty" : n % 2 == 0 ? "Tally" : "Foobar"
            rows += #"{"cell":"\#(cell)","n":\#(n)}"# + "\n"
        }
        let folder = try Render.write([
            "t.yaml": "sections:\n  - header: Streamed\n    rowsFrom: rows.jsonl\n  - cell: Foobar\n    rows: 2\n",
            "rows.jsonl": rows,
        ])
        let plugins = try Fixtures.folder()
        try Fixtures.compileC(Self.tally(log: folder + "/tally.log"), name: "tally", in: plugins)
        // The tally hook writes a file: the sandbox would refuse it (SandboxTests).
        let (ending, log) = try command.run([
            "render", folder + "/t.yaml", "--plugin-path", plugins, "--output", folder + "/out.txt", "--sandbox", "off",
        ])
        #expect(ending == .exited(3))
        #expect(log == "libtally.so: customizeCellForFaulty crashed (SIGSEGV) at row 1.4 (indexPath [0, 3])\n")
        let tallied = try command.contents(folder + "/tally.log").split(separator: "\n")
        let expected = (0..<300).filter { $0 % 7 != 3 && $0 % 2 == 0 }.map { "0.\($0)" }
        #expect(tallied.map(String.init) == expected, "each Tally row's hook ran once, in order")
        let drawn = try command.contents(folder + "/out.txt")
        #expect(drawn.components(separatedBy: "⚠ libtally.so faulted: this Faulty row is not drawn").count - 1 == 43)
        #expect(drawn.components(separatedBy: "\n tally ").count - 1 == expected.count)
        #expect(
            drawn.components(separatedBy: "Row: ").count - 1 == (0..<300).filter { $0 % 7 != 3 && $0 % 2 == 1 }.count
                + 2)
        #expect(try command.files(folder) == ["out.txt", "rows.jsonl", "t.yaml", "tally.log"])
    }

    @Test("every format draws the placeholder naming the plugin; standard output gets the whole table")
    func formats() throws {
        let folder = try Render.write(["t.yaml": IsolationTests.table])
        let plugins = try Fixtures.folder()
        try Fixtures.compileC(
            IsolationTests.faulty(
                "CK_EXPORT void customizeCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)cell; (void)ip; abort(); }"
            ),
            name: "formats", in: plugins)
        for format in ["text", "ansi", "html", "json"] {
            let (ending, log) = try command.run([
                "render", folder + "/t.yaml", "--plugin-path", plugins, "--format", format, "--color", "always",
            ])
            #expect(ending == .exited(3), "\(format)")
            #expect(
                log.contains("libformats.so: customizeCellForFaulty crashed (SIGABRT) at row 2.2 (indexPath [1, 1])\n"),
                "\(format)")
            let drawn = format == "json" ? "[\"" : ""  // json has each text twice: whole, and drawn in "lines"
            #expect(
                log.components(separatedBy: drawn + "⚠ libformats.so faulted: this Faulty row is not drawn").count - 1
                    == 2, "\(format)")
            #expect(log.components(separatedBy: drawn + "Row: ").count - 1 == 7, "\(format): every Foobar row")
        }
    }

    @Test("workers are forked while cellkit has one thread, started with exec under CELLKIT_WORKER_EXEC=1: same table")
    func forkOrExec() throws {
        let plugins = try Fixtures.folder()
        // Each row says how its worker started: an exec'd worker's argv[0] is /proc/self/exe.
        try Fixtures.compileC(
            IsolationTests.faulty(
                """
                #include <stdio.h>
                #include <string.h>
                CK_EXPORT void customizeCellForFaulty(ck_cell *cell, ck_index_path ip) {
                    char name[64] = {0};
                    FILE *f = fopen("/proc/self/cmdline", "r");
                    if (f) { fread(name, 1, sizeof name - 1, f); fclose(f); }
                    ck_set_text(ck_text_label(cell), strcmp(name, "/proc/self/exe") == 0 ? "exec" : "fork");
                    if (ip.row == 3) { volatile int *nowhere = 0; *nowhere = 1; }
                }
                """),
            name: "which", in: plugins)
        let folder = try Render.write(["t.yaml": IsolationTests.table])
        var drawn: [String: String] = [:]
        for (mode, environment) in [("fork", [:]), ("exec", ["CELLKIT_WORKER_EXEC": "1"])] {
            let out = folder + "/\(mode).txt"
            let (ending, log) = try command.run(
                ["render", folder + "/t.yaml", "--plugin-path", plugins, "--output", out], environment: environment)
            #expect(ending == .exited(3), "\(mode): \(log)")
            #expect(
                log == "libwhich.so: customizeCellForFaulty crashed (SIGSEGV) at row 2.4 (indexPath [1, 3])\n",
                "\(mode)")
            let text = try command.contents(out)
            #expect(text.components(separatedBy: "\n \(mode) ").count - 1 == 1, "row 2.2 drawn by a worker by \(mode)")
            #expect(text.contains("⚠ libwhich.so faulted: this Faulty row is not drawn"))
            drawn[mode] = text.replacingOccurrences(of: "\n \(mode) ", with: "\n WORKER ")
        }
        #expect(drawn["fork"] == drawn["exec"], "the same table either way")
    }

    /// libffi is opened when first used (CLibraries): in a worker, before its sandbox closes the
    /// file system to it. A hook whose declared list takes more than six registers goes through it.
    @Test("a hook called through libffi in the sandboxed worker, forked or exec'd: drawn, exit status 0")
    func libffiInTheSandbox() throws {
        let plugins = try Fixtures.folder()
        try Fixtures.compileC(
            IsolationTests.faulty(
                """
                #include <stdio.h>
                CK_SIGNATURE(customizeCellForFaulty, "void (data, row, context, indexPath, host, section, cell)");
                CK_EXPORT void customizeCellForFaulty(const ck_data *data, int64_t row, void *context, ck_index_path ip,
                                                      const ck_host *host, int64_t section, ck_cell *cell) {
                    (void)data; (void)context; (void)host;
                    char line[64];
                    snprintf(line, sizeof line, "via libffi %lld.%lld %s", (long long)section, (long long)row,
                             ip.row == row && ip.section == section ? "placed" : "MISPLACED");
                    ck_set_text(ck_text_label(cell), line);
                }
                """),
            name: "viaffi", in: plugins)
        for (environment, ending, log) in try renderSandboxed(plugins) {
            #expect(ending == .exited(0), "\(environment): \(log)")
            #expect(log.contains("via libffi 1.1 placed") && log.contains("via libffi 1.3 placed"), "\(log)")
            #expect(!log.contains("MISPLACED") && !log.contains("faulted"), "\(log)")
        }
    }

    /// `ck_sandbox_enter` opens libffi before the sandbox closes, so that a library found outside
    /// what Landlock lets the worker read can still be called: a hook of the standard list (which
    /// needs no libffi) finds it mapped, in a worker forked from cellkit (which never opened it)
    /// and in one exec'd.
    @Test("the sandboxed worker has libffi open before any plugin code runs, forked or exec'd")
    func libffiOpenedBeforeTheSandbox() throws {
        let plugins = try Fixtures.folder()
        try Fixtures.compileC(
            IsolationTests.faulty(
                """
                #include <stdio.h>
                #include <string.h>
                CK_EXPORT void customizeCellForFaulty(ck_cell *cell, ck_index_path ip) {
                    (void)ip;
                    char line[512];
                    int mapped = 0, read = 0;
                    FILE *maps = fopen("/proc/self/maps", "r");
                    if (maps) {
                        read = 1;
                        while (fgets(line, sizeof line, maps)) if (strstr(line, "/libffi.so")) mapped = 1;
                        fclose(maps);
                    }
                    ck_set_text(ck_text_label(cell), !read ? "maps unreadable" : mapped ? "libffi open" : "libffi closed");
                }
                """),
            name: "ffimapped", in: plugins)
        for (environment, ending, log) in try renderSandboxed(plugins) {
            #expect(ending == .exited(0), "\(environment): \(log)")
            #expect(log.components(separatedBy: "libffi open").count - 1 == 2, "both Faulty rows: \(log)")
        }
    }

    /// The table rendered with `plugins`, the sandbox on, by a forked worker and by an exec'd one:
    /// each run's environment, how it ended and what it wrote.
    func renderSandboxed(_ plugins: String) throws -> [([String: String], CellKitTool.Ending, String)] {
        let folder = try Render.write(["t.yaml": IsolationTests.table])
        return try [[:], ["CELLKIT_WORKER_EXEC": "1"]].map { environment in
            let (ending, log) = try command.run(
                ["render", folder + "/t.yaml", "--plugin-path", plugins, "--sandbox", "on"], environment: environment)
            return (environment, ending, log)
        }
    }

    @Test("no fault: exit status 0 and the same bytes as --no-isolation")
    func noFault() throws {
        for name in ["showcase.yaml", "seed-004-foobar.yaml", "seed-003-projects.yaml"] {
            let (isolated, a) = try command.run(["render", Render.manifest(name), "--format", "html"])
            let (inProcess, b) = try command.run([
                "render", Render.manifest(name), "--format", "html", "--no-isolation",
            ])
            #expect(isolated == .exited(0) && inProcess == .exited(0))
            #expect(a == b, "\(name)")
        }
    }

    @Test("--no-isolation: the crash handler prints the same line, then the process dies by the signal")
    func crashReporter() throws {
        let folder = try Render.write(["t.yaml": IsolationTests.table])
        let plugins = try Fixtures.folder()
        try Fixtures.compileC(
            IsolationTests.faulty(
                """
                static int deeper(volatile int n) { volatile char pad[4096]; pad[0] = (char)n; return deeper(n + 1) + pad[0]; }
                CK_EXPORT void customizeCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)ip; text(cell); deeper(0); }
                """),
            name: "inprocess", in: plugins)
        let (ending, log) = try command.run([
            "render", folder + "/t.yaml", "--plugin-path", plugins, "--no-isolation", "--output", folder + "/out.txt",
        ])
        #expect(ending == .signaled(SIGSEGV))
        #expect(
            log.hasPrefix("libinprocess.so: customizeCellForFaulty crashed (SIGSEGV) at row 2.2 (indexPath [1, 1])\n"),
            "\(log.prefix(300))")
        #expect(try command.files(folder) == ["t.yaml"], "no temporary, no file")

        try Fixtures.compileC(
            IsolationTests.faulty(
                """
                CK_EXPORT void initCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)cell; (void)ip; exit(3); }
                CK_EXPORT void customizeCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)ip; text(cell); }
                """),
            name: "inprocess", in: plugins)
        let (exited, said) = try command.run(["render", folder + "/t.yaml", "--plugin-path", plugins, "--no-isolation"])
        #expect(exited == .exited(3))
        #expect(
            said.hasSuffix("libinprocess.so: initCellForFaulty exited with status 3 at row 2.2 (indexPath [1, 1])\n"),
            "\(said)")
    }

    @Test("--no-isolation and --output: a SIGSYS (a seccomp filter's, say) removes the temporary as other crashes do")
    func sigsysRemovesTemporary() throws {
        let folder = try Render.write(["t.yaml": IsolationTests.table])
        let plugins = try Fixtures.folder()
        try Fixtures.compileC(
            IsolationTests.faulty(
                """
                #include <signal.h>
                CK_EXPORT void customizeCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)ip; text(cell); raise(SIGSYS); }
                """),
            name: "insigsys", in: plugins)
        let (ending, log) = try command.run([
            "render", folder + "/t.yaml", "--plugin-path", plugins, "--no-isolation", "--output", folder + "/out.txt",
        ])
        #expect(ending == .signaled(SIGSYS))
        #expect(
            log.hasPrefix("libinsigsys.so: customizeCellForFaulty crashed (SIGSYS) at row 2.2 (indexPath [1, 1])\n"),
            "\(log.prefix(300))")
        #expect(try command.files(folder) == ["t.yaml"], "no temporary, no file")
    }
}

@Suite("render isolation: a crash of CellKit's own thread reading rows ahead")
struct ReadAheadCrashTests {
    let command = CellKitTool()

    /// 5,000 streamed rows of the package's Foobar and Bar cells (their hooks run on every row),
    /// read ahead on a helper thread.
    func table() throws -> String {
        let rows = (0..<5_000).map { n in
            n % 2 == 0 ? #"{"cell":"Foobar","n":\#(n)}"# + "\n" : #"{"cell":"Bar","title":"row \#(n)"}"# + "\n"
        }
        let folder = try Render.write([
            "t.yaml": "sections:\n  - header: Streamed\n    rowsFrom: rows.jsonl\n", "rows.jsonl": rows.joined(),
        ])
        return folder
    }

    @Test("isolated: no plugin is blamed, the worker goes on without reading ahead, the table is whole")
    func isolated() throws {
        let folder = try table()
        let (ending, log) = try command.run(
            ["render", folder + "/t.yaml", "--output", folder + "/out.txt"],
            environment: ["CELLKIT_TEST_CRASH_READING_AHEAD": "3000"])
        #expect(ending == .exited(3), "\(log)")
        #expect(log.hasPrefix("cellkit: the render, reading a data file ahead, crashed (SIGSEGV) after "), "\(log)")
        #expect(log.hasSuffix(" rows\n") && log.split(separator: "\n").count == 1, "one line: \(log)")
        let (plainEnding, plainLog) = try command.run([
            "render", folder + "/t.yaml", "--output", folder + "/plain.txt", "--no-isolation",
        ])
        #expect(plainEnding == .exited(0), "\(plainLog)")
        let drawn = try command.contents(folder + "/out.txt")
        #expect(drawn.contains("row 4999"))
        #expect(drawn == (try command.contents(folder + "/plain.txt")), "every row, none a placeholder")
    }

    @Test("without isolation: the process ends by the signal, and no plugin's line is printed")
    func inProcess() throws {
        let folder = try table()
        let (ending, log) = try command.run(
            ["render", folder + "/t.yaml", "--output", folder + "/out.txt", "--no-isolation"],
            environment: ["CELLKIT_TEST_CRASH_READING_AHEAD": "3000", "SWIFT_BACKTRACE": "enable=no"])
        #expect(ending == .signaled(SIGSEGV), "\(log)")
        #expect(!log.contains("crashed"), "\(log)")
        #expect(try command.files(folder) == ["rows.jsonl", "t.yaml"], "no output, no temporary")
    }
}
