// `cellkit check` says "Clean" only when the plugin is: each mistake here used to pass as
// clean (or print something else than asked for): a hook's name a letter off, a hook that
// prints to standard output, a read of the wrong type on realistic data, a fault past the
// table rows sampled, a plugin writing to the check's own channel, --json for a refusal.

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@Suite("cellkit check: the verdicts mean it")
struct CheckVerdictTests {
    let checks = CheckCommandTests()
    let spawner = CellKitTool()

    @Test("customiseCellForX beside initCellForX: FAIL in check, named by list, inspect and render")
    func nearMiss() throws {
        let path = try checks.plugin(
            "Near",
            """
            CK_EXPORT void initCellForNear(ck_cell *cell, ck_index_path ip) { (void)ip; ck_set_text(ck_text_label(cell), "init"); }
            CK_EXPORT void customiseCellForNear(ck_cell *cell, ck_index_path ip) { (void)ip; ck_set_text(ck_text_label(cell), "near"); }
            """)
        let line =
            "customiseCellForNear: did you mean customizeCellForNear? 1 letter from customizeCellForNear, a hook of cell type 'Near': as spelled it is never called"
        let (ending, text) = try spawner.run(["check", path])
        #expect(ending == .exited(1), "\(text)")
        #expect(text.contains("FAIL " + line), "\(text)")
        let folder = PathText.folder(of: path)
        let (_, list) = try spawner.run(["list", "--plugin-path", folder])
        #expect(list.contains(line), "list: \(list)")
        let (_, inspect) = try spawner.run(["inspect", path])
        #expect(inspect.contains(line), "inspect: \(inspect)")
        try "sections:\n  - cell: Near\n    rows: 1\n".write(
            toFile: folder + "/t.yaml", atomically: true, encoding: .utf8)
        let (rendered, render) = try spawner.run(["render", folder + "/t.yaml", "--plugin-path", folder])
        #expect(rendered == .exited(0))
        #expect(render.contains("warning: libnear.so: cell type Near has a near miss: " + line), "render: \(render)")
    }

    @Test("a type with no customize hook (a static one in a stripped file looks the same): FAIL naming it")
    func noCustomizeHook() throws {
        let path = try checks.plugin(
            "Bare",
            """
            CK_EXPORT void initCellForBare(ck_cell *cell, ck_index_path ip) { (void)ip; ck_set_text(ck_text_label(cell), "same"); }
            """)
        let (ending, text) = try spawner.run(["check", path])
        #expect(ending == .exited(1), "\(text)")
        #expect(text.contains("FAIL the type has no customizeCellForBare hook"), "\(text)")
        let folder = PathText.folder(of: path)
        try "sections:\n  - cell: Bare\n    rows: 2\n".write(
            toFile: folder + "/t.yaml", atomically: true, encoding: .utf8)
        let (rendered, render) = try spawner.run(["render", folder + "/t.yaml", "--plugin-path", folder])
        #expect(rendered == .exited(0))
        #expect(render.contains("warning: libbare.so: cell type Bare has no customizeCellForBare hook"), "\(render)")
    }

    @Test("a hook that prints to standard output: FAIL quoting what it wrote")
    func printsToStandardOutput() throws {
        let path = try checks.plugin(
            "Printy",
            """
            #include <stdio.h>
            CK_EXPORT void customizeCellForPrinty(ck_cell *cell, ck_index_path ip) {
                printf("debug %lld\\n", (long long)ip.row); ck_set_text(ck_text_label(cell), "printy");
            }
            """)
        let (ending, text) = try spawner.run(["check", path])
        #expect(ending == .exited(1), "\(text)")
        // Named by the first hook that printed (the sandbox's listener sees each write as it is
        // made; standard output is line-buffered in the worker): one line quoted.
        let finding =
            #/FAIL customizeCellForPrinty wrote to standard output at sample "[a-z ]+" \("debug \d+␊"\): in a render that is the table's stream/#
        #expect(text.contains(finding), "\(text)")
        #expect(text.components(separatedBy: "wrote to standard output").count - 1 == 1, "once a type: \(text)")
    }

    @Test("a read of the wrong type on typical data is a FAIL with the key; on hostile data a note")
    func wrongType() throws {
        let path = try checks.plugin(
            "Typed",
            """
            CK_EXPORT void customizeCellForTyped(ck_cell *cell, ck_index_path ip) {
                (void)ip; const char *s = NULL;
                if (cell->host->data_string(cell->host->row_data(cell), "count", &s) != CK_OK) s = "?";
                ck_set_text(ck_text_label(cell), s);
            }
            """)
        let (ending, text) = try spawner.run(["check", path])
        #expect(ending == .exited(1), "\(text)")
        #expect(
            text.contains(
                "FAIL customizeCellForTyped read the row's data as the wrong type at sample \"typical data\": expected a string at 'count', found a number"
            ), "\(text)")
        #expect(text.components(separatedBy: "FAIL").count - 1 == 1, "hostile samples are notes: \(text)")
        // The notes are counted in one line, and listed with -v.
        let note = "sample \"numbers for every key\": a data read failed (handled through its status)"
        #expect(!text.contains(note), "\(text)")
        #expect(text.contains(" notes; -v shows them"), "\(text)")
        let (verboseEnding, verbose) = try spawner.run(["check", path, "-v"])
        #expect(verboseEnding == .exited(1), "\(verbose)")
        #expect(verbose.contains("  notes:") && verbose.contains(note), "\(verbose)")
        #expect(!verbose.contains("-v shows them"), "\(verbose)")
    }

    @Test("a crash at the table's row 1.151 of 300 (past the 24 sampled) is found and named")
    func faultPastTheSamples() throws {
        let path = try checks.plugin(
            "Late",
            """
            CK_EXPORT void customizeCellForLate(ck_cell *cell, ck_index_path ip) {
                if (ip.row == 150) { volatile int *z = NULL; *z = 1; }
                ck_set_text(ck_text_label(cell), "late");
            }
            """)
        let table = PathText.folder(of: path) + "/t.yaml"
        try "sections:\n  - cell: Late\n    rows: 300\n".write(toFile: table, atomically: true, encoding: .utf8)
        let (ending, text) = try spawner.run(["check", path, "--table", table])
        #expect(ending == .exited(1), "\(text)")
        #expect(
            text.contains(
                "FAIL initCellForLate/customizeCellForLate (the routine) crashed with SIGSEGV (signal 11) at row 1.151 (indexPath [0, 150]) of the table"
            ),
            "\(text)")
        #expect(
            text.contains("33 samples and 276 more table rows; 1364 of 1365 units run, 1 faulted in 2 workers"),
            "\(text)")
    }

    @Test("a plugin that writes to every descriptor cannot forge a verdict: FAIL naming its hook")
    func forgedVerdict() throws {
        let path = try checks.plugin(
            "Forger",
            """
            #include <signal.h>
            #include <string.h>
            #include <unistd.h>
            CK_EXPORT void customizeCellForForger(ck_cell *cell, ck_index_path ip) {
                (void)ip; const char *verdict = "J{\\"done\\":true}\\n";
                signal(SIGPIPE, SIG_IGN);
                for (int fd = 3; fd < 4096; fd++) (void)!write(fd, verdict, strlen(verdict));
                ck_set_text(ck_text_label(cell), "forger");
            }
            """)
        let (ending, text) = try spawner.run(["check", path])
        #expect(ending == .exited(1), "\(text)")
        #expect(
            text.contains(
                "FAIL customizeCellForForger wrote to cellkit's channel to its worker at sample \"empty data\" on a new cell (it sent bytes that are not a CellKit message)"
            ), "\(text)")
        #expect(!text.contains("Clean"), "\(text)")
    }

    @Test("--json prints JSON for a file that is not a plugin, an unknown identifier and a built-in type")
    func jsonForRefusals() throws {
        let folder = try Fixtures.folder()
        try "junk".write(toFile: folder + "/libjunk.so", atomically: true, encoding: .utf8)
        for target in [folder + "/libjunk.so", "NoSuchType", "Default", "not-an-identifier"] {
            let (ending, text) = try spawner.run(["check", target, "--json"])
            #expect(ending == .exited(2), "\(target): \(text)")
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(target): \(text)")
            #expect(json["status"] as? Int == 2)
            #expect(json["clean"] as? Bool == false)
            #expect((json["error"] as? String)?.isEmpty == false)
        }
    }

    @Test("a checkmark set when 'done' is true and never reset: found without --table (rows vary the keys read)")
    func reuseWithoutTable() throws {
        let path = try checks.plugin(
            "Todo",
            """
            CK_EXPORT void customizeCellForTodo(ck_cell *cell, ck_index_path ip) {
                (void)ip; ck_data_bool_out done = 0;
                cell->host->data_bool(cell->host->row_data(cell), "done", &done);
                ck_set_text(ck_text_label(cell), "todo");
                if (done) ck_set_accessory(cell, CK_ACCESSORY_CHECKMARK);
            }
            """)
        let (ending, text) = try spawner.run(["check", path])
        #expect(ending == .exited(1), "\(text)")
        #expect(
            text.contains(
                "FAIL customizeCellForTodo leaves accessoryType = checkmark from sample \"typical data, 'done' true\""
            ),
            "\(text)")
        #expect(text.contains("12 samples;"), "9 built in, 3 that vary 'done': \(text)")
    }
}
