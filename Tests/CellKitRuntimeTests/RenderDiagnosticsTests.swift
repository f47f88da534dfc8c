import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDiscovery
@testable import CellKitRuntime

/// What `render` says about plugins it cannot use, near misses and failed host calls.
@Suite("cellkit render explains what cellkit list knows")
struct RenderDiagnosticsTests {
    let command = CellKitTool()

    /// A folder holding `plugin` (C source, built as lib`name`.so) and table.yaml with `rows` rows of `cell`.
    private func setUp(
        _ plugin: String, name: String, cell: String, rows: Int = 2, test: String = #function
    ) throws -> (folder: String, library: String, table: String) {
        let folder = try Fixtures.folder(test)
        let library = try Fixtures.compileC(plugin, name: name, in: folder)
        let table = folder + "/table.yaml"
        try "sections:\n  - {cell: \(cell), rows: \(rows)}\n".write(toFile: table, atomically: true, encoding: .utf8)
        return (folder, library, table)
    }

    /// What `cellkit list` reports about the folder: problems, skipped files' reasons, near misses.
    private func listReasons(_ folder: String) -> [String] {
        let catalog = Catalog(options: Fixtures.options([folder]))
        return catalog.plugins.flatMap { $0.problems + $0.nearMisses.map(\.description) }
            + catalog.rejections.map(\.reason)
    }

    @Test(
        "Each reason list gives for an unusable plugin appears in render's error",
        arguments: [
            (
                "no descriptor",
                "#include \"cellkit.h\"\nCK_EXPORT void customizeCellForFoo(ck_cell *c, ck_index_path p) { (void)c; (void)p; }\n",
                "exports hooks (customizeCellForFoo) but no 'cellkit_plugin' descriptor"
            ),
            (
                "hidden hook",
                minimalPlugin("Other")
                    + "\n__attribute__((visibility(\"hidden\"))) void customizeCellForFoo(ck_cell *c, ck_index_path p) { (void)c; (void)p; }\n",
                "has a near miss: customizeCellForFoo: defined but not exported"
            ),
            (
                "bad signature",
                minimalPlugin("Foo") + "\nCK_SIGNATURE(customizeCellForFoo, \"void (cell, bogus)\");\n",
                "offers 'Foo' but cannot be used: hook customizeCellForFoo: signature \"void (cell, bogus)\""
            ),
            (
                "newer ABI", minimalPlugin("Foo", abi: (1, 7)),
                "offers 'Foo' but cannot be used: built for CellKit ABI 1.7, newer than this host's ABI 1.4"
            ),
            (
                "misspelled prefix",
                minimalPlugin("Other")
                    + "\nCK_EXPORT void initcellForFoo(ck_cell *c, ck_index_path p) { (void)c; (void)p; }\n",
                "has a near miss: initcellForFoo: did you mean initCellForFoo? hook prefixes are case-sensitive"
            ),
        ])
    func unusable(_ kind: String, _ source: String, _ expected: String) throws {
        let (folder, library, table) = try setUp(source, name: "foo", cell: "Foo", test: kind)
        let (status, text) = try command.cellkit(["render", table, "--plugin-path", folder])
        #expect(status == 1, "\(kind): \(text)")
        #expect(text.contains("table.yaml:2:12: no usable plugin provides cell identifier 'Foo'."), "\(kind): \(text)")
        #expect(text.contains(expected), "\(kind): \(text)")
        #expect(text.contains(library), "\(kind): names the file: \(text)")
        #expect(text.contains("Searched: \(folder), "), "\(kind): still names the folders searched: \(text)")
        let reasons = listReasons(folder)
        #expect(!reasons.isEmpty, "\(kind): list has something to say")
        for reason in reasons { #expect(text.contains(reason), "\(kind): list's \"\(reason)\" is in: \(text)") }
    }

    @Test("inspect shows no signature for a hook whose declared one was refused, only the problem")
    func inspectRefusedSignature() throws {
        let source = minimalPlugin("Foo") + "\nCK_SIGNATURE(customizeCellForFoo, \"void (cell, bogus)\");\n"
        let (_, library, _) = try setUp(source, name: "foo", cell: "Foo")
        let (status, text) = try command.cellkit(["inspect", library])
        #expect(status == 1, "\(text)")
        #expect(text.contains("customizeCellForFoo  (declared signature refused: see problems)"), "\(text)")
        #expect(!text.contains("void (cell, indexPath)"), "the standard signature put in its place: \(text)")
        #expect(
            text.contains("- hook customizeCellForFoo: signature \"void (cell, bogus)\": bad token 'bogus'"), "\(text)")
    }

    @Test("A refused file (writable by others) is named with list's reason: its cell types are unknown")
    func refusedPermissions() throws {
        let (folder, library, table) = try setUp(minimalPlugin("Foo"), name: "foo", cell: "Foo")
        chmod(library, 0o666)
        let (status, text) = try command.cellkit(["render", table, "--plugin-path", folder])
        #expect(status == 1, "\(text)")
        let reason = try #require(Catalog(options: Fixtures.options([folder])).rejections.reason(for: "/libfoo.so"))
        #expect(reason.contains("writable by everyone"))
        #expect(
            text.contains(
                "Refused or skipped on the search path, so the cell types they offer are unknown: \(library): \(reason)"
            ), "\(text)")
    }

    @Test("An unknown identifier with nothing to explain keeps the nearest suggestion and says no more")
    func nothingKnown() throws {
        let (folder, _, table) = try setUp(minimalPlugin("Foo"), name: "foo", cell: "Fooo")
        let (status, text) = try command.cellkit(["render", table, "--plugin-path", folder])
        #expect(status == 1)
        #expect(
            text.contains("no usable plugin provides cell identifier 'Fooo'. Did you mean 'Foo'? Searched: \(folder), ")
        )
    }

    @Test("A misspelled customize hook beside a correct init: a warning; --strict exits 2 and still draws the table")
    func nearMissWarning() throws {
        let source = """
            #include "cellkit.h"
            CK_PLUGIN("Near", "1.0.0", "almost right");
            CK_EXPORT void initCellForFoo(ck_cell *c, ck_index_path p) { (void)p; ck_set_text(ck_text_label(c), "made"); }
            CK_EXPORT void customizeCellForfoo(ck_cell *c, ck_index_path p) { (void)c; (void)p; }
            """
        let (folder, _, table) = try setUp(source, name: "near", cell: "Foo")
        let warning =
            "warning: libnear.so: cell type Foo has a near miss: customizeCellForfoo: did you mean customizeCellForFoo? identifiers are case-sensitive, so this is a separate cell type 'foo' beside 'Foo'"
        let (status, text) = try command.cellkit(["render", table, "--plugin-path", folder])
        #expect(status == 0, "\(text)")
        #expect(text.contains(warning), "\(text)")
        #expect(text.components(separatedBy: warning).count == 2, "warned once: \(text)")
        let (strict, strictText) = try command.cellkit(["render", table, "--plugin-path", folder, "--strict"])
        #expect(strict == 2, "\(strictText)")
        #expect(strictText.contains("made"), "the table is drawn: \(strictText)")
        #expect(strictText.contains(warning) && strictText.contains("cellkit: --strict: 1 warning; exit status 2"))
    }

    @Test("--strict exits 0 when nothing is warned about")
    func strictClean() throws {
        let (folder, _, table) = try setUp(minimalPlugin("Foo", name: "Clean"), name: "clean", cell: "Foo")
        let (status, text) = try command.cellkit(["render", table, "--plugin-path", folder, "--strict"])
        #expect(status == 0, "\(text)")
        #expect(text.contains("Clean") && !text.contains("warning"), "\(text)")
    }

    /// Tag 0 and an accessory type of 99 on every row, the accessory once more in init.
    static let failing = """
        #include "cellkit.h"
        CK_PLUGIN("Failing", "1.0.0", "calls the host wrongly");
        CK_EXPORT void initCellForFoo(ck_cell *c, ck_index_path p) { (void)p; ck_set_accessory(c, 99); }
        CK_EXPORT void customizeCellForFoo(ck_cell *c, ck_index_path p) {
            (void)p;
            c->host->view_with_tag(c, 0);
            ck_set_accessory(c, 99);
            ck_set_text(ck_text_label(c), "drawn");
        }
        """

    @Test("Failed host calls are summed up per plugin and hook at the end of render; --strict fails on them")
    func failureSummary() throws {
        let (folder, _, table) = try setUp(Self.failing, name: "failing", cell: "Foo", rows: 1000)
        let (status, text) = try command.cellkit(["render", table, "--plugin-path", folder])
        #expect(status == 0, "\(text)")
        #expect(
            text.contains(
                "warning: libfailing.so: customizeCellForFoo: 2,000 host calls failed; the first: view_with_tag: tag 0 refused: 0 is every view's default tag"
            ), "\(text)")
        #expect(
            text.contains(
                "warning: libfailing.so: initCellForFoo: 1 host call failed; the first: cell_set_int: 99 is not a accessory type"
            ), "\(text)")
        let (strict, strictText) = try command.cellkit(["render", table, "--plugin-path", folder, "--strict"])
        #expect(strict == 2, "\(strictText)")
        #expect(strictText.contains("cellkit: --strict: 2 warnings; exit status 2"), "\(strictText)")
    }

    @Test("Embedders read the counts from the context; a missing data key is an answer, not a failure")
    func failureCounts() throws {
        let (folder, library, _) = try setUp(
            Self.failing
                + "\nCK_EXPORT void customizeCellForProbe(ck_cell *c, ck_index_path p) { (void)p; const char *s; c->host->data_string(c->host->row_data(c), \"absent\", &s); }\n",
            name: "failing", cell: "Foo")
        let registry = Fixtures.registry([folder])
        let queue = CellQueue(registry: registry)
        let foo = try registry.cellType(named: "Foo"), probe = try registry.cellType(named: "Probe")
        for row in 0..<3 {
            for type in [foo, probe] {
                let cell = queue.dequeueCell(type.reuseSlot, at: CellKitModel.IndexPath(section: 0, row: row))
                if type === probe { #expect(cell.lastError == "the row's data has no value at 'absent'") }
                queue.recycle(cell)
            }
        }
        let failures = queue.context.failedHostCalls
        #expect(failures.map(\.hook) == ["initCellForFoo", "customizeCellForFoo"], "\(failures)")
        #expect(failures.map(\.count) == [1, 6])
        #expect(failures.allSatisfy { $0.pluginFile == (library as NSString).lastPathComponent })
        #expect(failures.first?.first.hasPrefix("cell_set_int: 99 is not a accessory type") == true)
        #expect(FailedHostCalls.grouped(1_234_567) == "1,234,567" && FailedHostCalls.grouped(999) == "999")
    }
}
