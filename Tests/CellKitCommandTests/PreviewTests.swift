// `cellkit preview` on plugins the tests build: snapshots written, a changed plugin caught by
// --compare (naming the type, sample and configuration), --update, and a plugin that crashes in
// a hook or refuses to load shown in place while the preview goes on.

import CellKitTestSupport
import Foundation
import Testing

@Suite("cellkit preview", .serialized)
struct PreviewTests {
    /// Runs the built `cellkit` with `arguments`; returns its exit status and output.
    func cellkit(_ arguments: [String]) throws -> (Int32, String) { try CellKitTool().cellkit(arguments) }

    /// A plugin of one type, Badge, whose label shows `text` (C: `title` is the sample's title);
    /// `extra` is more C run first in its customize hook.
    static func badge(text: String = "title", extra: String = "", initBody: String? = nil) -> String {
        """
        #include "cellkit.h"
        #include <string.h>
        CK_PLUGIN("BadgeCells", "1.0.0", "preview tests");
        \(initBody.map { "CK_PLUGIN_INIT { \($0) }" } ?? "")
        CK_SIGNATURE(customizeCellForBadge, "void (cell, data)");
        CK_EXPORT void customizeCellForBadge(ck_cell *cell, const ck_data *data) {
            const char *title = "";
            cell->host->data_string(data, "title", &title);
            \(extra)
            ck_set_text(ck_text_label(cell), \(text));
        }
        """
    }

    @Test("--snapshot writes a file per type, sample and configuration; --compare names a change; --update accepts it")
    func snapshots() throws {
        let dir = try Fixtures.folder()
        let plugin = try Fixtures.compileC(Self.badge(), name: "badge", in: dir)
        let golden = dir + "/golden"
        var (status, text) = try cellkit(["preview", plugin, "--snapshot", golden])
        #expect(status == 0, "\(text)")
        for name in ["grouped-selected-default-light-rtl", "plain-unselected-narrow-light-ltr"] {
            let file = golden + "/Badge/typical/\(name).txt"
            let written = try String(contentsOfFile: file, encoding: .utf8)
            #expect(written.contains("Title"), "\(file):\n\(written)")
            #expect(!written.contains("\u{1B}"), "\(file) holds an escape")
            #expect(FileManager.default.fileExists(atPath: golden + "/Badge/long-text/\(name).json"))
        }
        #expect(
            FileManager.default.fileExists(atPath: golden + "/Badge/typical/plain-unselected-resized-light-ltr.txt"))
        // Dark drawings are their light twins without escapes: no file of their own.
        #expect(
            !FileManager.default.fileExists(atPath: golden + "/Badge/typical/grouped-selected-default-dark-rtl.txt"))
        (status, text) = try cellkit(["preview", plugin, "--compare", golden])
        #expect(status == 0, "\(text)")

        // The plugin rebuilt to draw another text; a golden file missing, and one for no configuration.
        try FileManager.default.removeItem(atPath: plugin)
        try Fixtures.compileC(Self.badge(text: "\"Changed\""), name: "badge", in: dir)
        try FileManager.default.removeItem(atPath: golden + "/Badge/typical/plain-unselected-wide-light-ltr.json")
        try "old".write(toFile: golden + "/Badge/typical/gone.txt", atomically: true, encoding: .utf8)
        (status, text) = try cellkit(["preview", plugin, "--compare", golden])
        #expect(status == 1, "\(text)")
        // In the gallery's order: the first changed text named by type, sample and configuration,
        // with its diff; a few diffs in all, then names, then counts by sample.
        #expect(
            text.contains(
                "changed: \(golden)/Badge/typical/plain-unselected-default-light-ltr.txt (type Badge, sample typical, "
                    + "configuration plain-unselected-default-light-ltr)"), "\(text)")
        #expect(text.contains("\n  - ┃Title") || text.contains("\n  - Title"), "the old line, removed: \(text)")
        #expect(text.contains("\n  + ┃Changed") || text.contains("\n  + Changed"), "the new line, added: \(text)")
        let hunks = text.components(separatedBy: "\n").filter { $0.hasPrefix("  @@ line") }.count
        #expect(hunks >= 1 && hunks <= 3 * 4, "at most three files' diffs: \(hunks) hunks")
        #expect(text.contains(" more files of type Badge, sample "), "\(text)")
        #expect(text.components(separatedBy: "\n").count < 120, "a short report: \(text)")
        #expect(
            text.contains(
                "missing (drawn now, no golden file): \(golden)/Badge/typical/plain-unselected-wide-light-ltr.json"))
        #expect(text.contains("extra (a golden file for no configuration drawn now): \(golden)/Badge/typical/gone.txt"))
        #expect(text.contains(", 1 missing, 1 extra (exit 1)"), "\(text)")
        #expect(text.contains("--update accepts the changes"), "\(text)")

        (status, text) = try cellkit(["preview", plugin, "--compare", golden, "--update"])
        #expect(status == 0, "\(text)")
        #expect(!FileManager.default.fileExists(atPath: golden + "/Badge/typical/gone.txt"))
        (status, text) = try cellkit(["preview", plugin, "--compare", golden])
        #expect(status == 0 && text.contains("match"), "\(text)")
    }

    @Test(
        "Each bundled plugin: every sample it ships in every configuration, none failed (the terminal view's text)",
        arguments: ["FoobarCells", "ContactsCells", "DrawnCells", "ProjectCells"])
    func bundled(plugin name: String) throws {
        let (status, text) = try cellkit(["preview", Fixtures.buildDirectory + "/lib\(name).so", "--no-check"])
        #expect(status == 0, "\(text)")
        let lines = text.split(separator: "\n")
        let samples = lines.filter { $0.hasPrefix("── ") }.count
        #expect(samples >= 2, "\(name) ships samples: \(text.prefix(400))")
        #expect(lines.filter { $0.hasPrefix("▸ ") }.count == samples * 48, "\(name): 48 configurations a sample")
        #expect(!text.contains("not drawn") && !text.contains("faulted"), "\(text)")
    }

    /// Every file under `folder`, by its path relative to it, with its bytes.
    static func tree(_ folder: String) -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: folder)
        while let path = walker?.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: folder + "/" + path) { files[path] = data }
        }
        return files
    }

    /// `cellkit preview` with one worker for each configuration, as the preview drew first.
    func previewAlone(_ arguments: [String]) throws -> (Int32, String) {
        let result = try Fixtures.execute(
            Fixtures.cellkit, ["preview"] + arguments, environment: ["CELLKIT_PREVIEW_WORKERS": "each"],
            mergingErrors: true)
        return (result.status, result.output)
    }

    @Test(
        "One kept worker for a document's text configurations draws byte for byte what a worker for each does: text, golden files (text and JSON), the HTML page",
        arguments: ["FoobarCells", "ContactsCells", "DrawnCells", "ProjectCells", "crashy"])
    func sharedWorkersDrawTheSame(plugin name: String) throws {
        let dir = try Fixtures.folder()
        let plugin: String
        if name == "crashy" {  // a fault in place: the same drawings and fault lines either way
            let crash = "if (strlen(title) > 30) { volatile int *p = 0; *p = 1; }"
            plugin = try Fixtures.compileC(Self.badge(extra: crash), name: "crashy", in: dir)
        } else {
            plugin = Fixtures.buildDirectory + "/lib\(name).so"
        }
        let (status, text) = try cellkit(["preview", plugin, "--no-check"])
        let (aloneStatus, aloneText) = try previewAlone([plugin, "--no-check"])
        #expect(status == aloneStatus && status == (name == "crashy" ? 3 : 0), "\(text)")
        #expect(text == aloneText, "\(LineDiffText.of(aloneText, text))")
        _ = try cellkit(["preview", plugin, "--snapshot", dir + "/shared"])
        _ = try previewAlone([plugin, "--snapshot", dir + "/alone"])
        let (shared, alone) = (Self.tree(dir + "/shared"), Self.tree(dir + "/alone"))
        #expect(shared.count == alone.count && !shared.isEmpty)
        for (path, data) in alone where shared[path] != data {
            Issue.record("\(path) differs: \(LineDiffText.of(data, shared[path]))")
        }
        _ = try cellkit(["preview", plugin, "--no-check", "--output", dir + "/shared.html"])
        _ = try previewAlone([plugin, "--no-check", "--output", dir + "/alone.html"])
        let page = FileManager.default.contents(atPath: dir + "/shared.html")
        #expect(page != nil && page == FileManager.default.contents(atPath: dir + "/alone.html"))
    }

    @Test("The samples a plugin ships (CK_PREVIEW) are the ones drawn, each named by its own name")
    func shippedSamples() throws {
        let dir = try Fixtures.folder()
        let source =
            Self.badge() + "\nCK_PREVIEW(Badge, short, \"{\\\"title\\\": \\\"Hi\\\"}\");\n"
            + "CK_PREVIEW(Badge, hebrew, \"{\\\"title\\\": \\\"שלום\\\"}\");\n"
        let plugin = try Fixtures.compileC(source, name: "shipped", in: dir)
        let (status, text) = try cellkit(["preview", plugin, "--no-check"])
        #expect(status == 0, "\(text)")
        #expect(text.contains("── Badge / short ──") && text.contains("── Badge / hebrew ──"), "\(text)")
        // In the order the plugin declares them, not by name.
        let short = try #require(text.range(of: "── Badge / short ──")),
            hebrew = try #require(text.range(of: "── Badge / hebrew ──"))
        #expect(short.lowerBound < hebrew.lowerBound, "declaration order")
        #expect(!text.contains("── Badge / typical ──"), "CellKit's own samples only for a type that ships none")
        #expect(text.contains(" Hi ") && text.contains("שלום"), "\(text)")
    }

    @Test(
        "A sample the plugin ships but is left out (its name taken, its type unknown) is said at the top, as inspect says it"
    )
    func leftOutSamplesSaid() throws {
        let dir = try Fixtures.folder()
        let source = Self.badge() + "\nCK_PREVIEW(Badge, short, \"{\\\"title\\\": \\\"Hi\\\"}\");\n"
        let plugin = try Fixtures.compileC(source, name: "leftout", in: dir)
        try "Badge:\n  short: {title: Again}\nNope:\n  x: {}\n".write(
            toFile: dir + "/libleftout.preview.yaml", atomically: true, encoding: .utf8)
        let (status, text) = try cellkit(["preview", plugin, "--no-check"])
        #expect(status == 0, "\(text)")
        let head = text.components(separatedBy: "\n").prefix(6).joined(separator: "\n")
        #expect(head.contains("⚠ ") && head.contains("\"short\"") && head.contains("comes first"), "\(head)")
        #expect(head.contains("no cell type Nope"), "\(head)")
        #expect(text.contains(" Hi ") && !text.contains("Again"), "the first sample of the name drawn: \(text)")
    }

    @Test(
        "Check's findings beside a sample name it as the preview heads it (sample \"boom\"), not by check's row number")
    func findingsNameTheSample() throws {
        let dir = try Fixtures.folder()
        let crash = "if (strcmp(title, \"boom\") == 0) { volatile int *p = 0; *p = 1; }"
        let source =
            Self.badge(extra: crash) + "\nCK_PREVIEW(Badge, calm, \"{\\\"title\\\": \\\"Hi\\\"}\");\n"
            + "CK_PREVIEW(Badge, boom, \"{\\\"title\\\": \\\"boom\\\"}\");\n"
        let plugin = try Fixtures.compileC(source, name: "findings", in: dir)
        let (status, text) = try cellkit(["preview", plugin])
        #expect(status == 3, "\(text)")
        let boom = try #require(text.components(separatedBy: "── Badge / boom ──\n").last)
        let check = boom.split(separator: "\n").first.map(String.init) ?? ""
        #expect(check.hasPrefix("  check: ") && check.contains(#"at sample "boom" on a new cell"#), "\(check)")
        #expect(!check.contains("row 1."), "check's numbering is not the preview's: \(check)")
        let calm = try #require(text.components(separatedBy: "── Badge / calm ──\n").last)
        #expect(!calm.hasPrefix("  check: "), "the finding is beside the sample it names")
    }

    @Test("--snapshot and --update remove the folders of a renamed sample they emptied, and nothing they did not write")
    func renamedSampleLeavesNoFolder() throws {
        let dir = try Fixtures.folder()
        func build(_ sample: String) throws -> String {
            let source = Self.badge() + "\nCK_PREVIEW(Badge, \(sample), \"{\\\"title\\\": \\\"Hi\\\"}\");\n"
            try? FileManager.default.removeItem(atPath: dir + "/libsamples.so")
            return try Fixtures.compileC(source, name: "samples", in: dir)
        }
        let golden = dir + "/golden"
        var plugin = try build("first")
        var (status, text) = try cellkit(["preview", plugin, "--snapshot", golden])
        #expect(status == 0, "\(text)")
        #expect(FileManager.default.fileExists(atPath: golden + "/Badge/first"))
        // Files the preview did not write: an author's note beside the samples, and one in a sample's folder.
        try "notes".write(toFile: golden + "/Badge/NOTES.md", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: golden + "/Other/kept", withIntermediateDirectories: true)
        plugin = try build("second")
        (status, text) = try cellkit(["preview", plugin, "--snapshot", golden])
        #expect(status == 0, "\(text)")
        #expect(!FileManager.default.fileExists(atPath: golden + "/Badge/first"), "the renamed sample's folder is gone")
        #expect(FileManager.default.fileExists(atPath: golden + "/Badge/second/plain-unselected-default-light-ltr.txt"))
        #expect(FileManager.default.fileExists(atPath: golden + "/Badge/NOTES.md"))
        #expect(
            FileManager.default.fileExists(atPath: golden + "/Other/kept"), "an empty folder it did not empty stays")
        // --update likewise; a type's folder it emptied goes too, the snapshot folder itself stays.
        try FileManager.default.removeItem(atPath: golden + "/Badge/NOTES.md")
        plugin = try build("third")
        try FileManager.default.moveItem(atPath: golden + "/Badge", toPath: golden + "/Gone")
        (status, text) = try cellkit(["preview", plugin, "--compare", golden, "--update"])
        #expect(status == 0, "\(text)")
        #expect(!FileManager.default.fileExists(atPath: golden + "/Gone"), "\(text)")
        #expect(FileManager.default.fileExists(atPath: golden + "/Badge/third"))
        #expect(FileManager.default.fileExists(atPath: golden + "/Other/kept"))
    }

    @Test("A hook that crashes on one sample shows the fault in place of its configurations; the rest are drawn")
    func crashInPlace() throws {
        let dir = try Fixtures.folder()
        let crash = "if (strlen(title) > 30) { volatile int *p = 0; *p = 1; }"
        let plugin = try Fixtures.compileC(Self.badge(extra: crash), name: "crashy", in: dir)
        let (status, text) = try cellkit(["preview", plugin, "--no-check"])
        #expect(status == 3, "\(text)")
        let long = try #require(text.components(separatedBy: "── Badge / long-text ──").last)
        // The typical sample's configurations are drawn; only those reusing a long-text cell fault.
        let typical = try #require(text.components(separatedBy: "▸ plain-unselected-default-light-ltr-reused").first)
        #expect(typical.contains("Title") && !typical.contains("⚠"), "\(typical)")
        #expect(long.contains("▸ insetGrouped-unselected-wide-light-rtl"), "\(long)")
        #expect(long.contains("⚠") && long.contains("customizeCellForBadge"), "\(long)")
        // A reused configuration whose drawing faulted says it was not compared, not "the same".
        let reused = try #require(long.components(separatedBy: "▸ plain-unselected-default-light-ltr-reused").last)
        #expect(reused.contains("reuse: not compared (the drawing faulted)"), "\(reused.prefix(600))")
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B }, "no escape reaches a pipe")
    }

    @Test("A hook that hangs on one sample times out once; that sample's other configurations say so at once")
    func hangInPlace() throws {
        let dir = try Fixtures.folder()
        let hang = "if (strlen(title) > 30) for (;;) {}"
        let plugin = try Fixtures.compileC(Self.badge(extra: hang), name: "hangs", in: dir)
        let started = Date()
        let (status, text) = try cellkit(["preview", plugin, "--no-check", "--hook-timeout", "0.5"])
        #expect(status == 3, "\(text)")
        #expect(Date().timeIntervalSince(started) < 60, "each configuration did not wait out the timeout")
        let long = try #require(text.components(separatedBy: "── Badge / long-text ──").last)
        #expect(long.contains("did not return within"), "\(long)")
        #expect(long.contains("not drawn after an earlier configuration's timeout"), "\(long)")
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B })
    }

    @Test("A plugin that refuses to load shows why in place of every configuration; preview still ends")
    func refusesToLoad() throws {
        let dir = try Fixtures.folder()
        let refuse = "return host->init_error(host, \"no licence file\");"
        let plugin = try Fixtures.compileC(Self.badge(initBody: refuse), name: "refusing", in: dir)
        let (status, text) = try cellkit(["preview", plugin, "--no-check"])
        #expect(status == 3, "\(text)")
        #expect(text.contains("no licence file"), "\(text)")
        #expect(text.contains("▸ plain-selected-default-dark-rtl"), "\(text)")
    }

    @Test("--look DOC draws the samples with that table's stylesheet and assets; each warning shown once a sample")
    func look() throws {
        let plugin = Fixtures.buildDirectory + "/libProjectCells.so"
        var (status, text) = try cellkit(["preview", plugin, "--no-check"])
        #expect(status == 0, "\(text)")
        #expect(text.contains("warning: Project: no style 'title'; styles: none"), "\(text)")
        let samples = text.components(separatedBy: "── Project / ").count - 1
        #expect(samples > 0 && text.components(separatedBy: "no style 'title'").count - 1 == samples, "once a sample")
        let table = Fixtures.repositoryRoot + "/Manifests/Tables/seed-003-projects.yaml"
        (status, text) = try cellkit(["preview", plugin, "--no-check", "--look", table])
        #expect(status == 0, "\(text)")
        #expect(!text.contains("no style"), "\(text)")
        #expect(text.contains("NiftyWow"), "\(text)")
        (status, text) = try cellkit(["preview", plugin, "--look", "/nowhere/table.yaml"])
        #expect(status == 2 && text.contains("--look /nowhere/table.yaml"), "\(text)")
    }

    @Test("Preview refuses a built-in type and a missing file with exit 2; --update goes with --compare")
    func refusals() throws {
        var (status, text) = try cellkit(["preview", "Subtitle"])
        #expect(status == 2 && text.contains("built-in"), "\(text)")
        (status, text) = try cellkit(["preview", "/nowhere/libnone.so"])
        #expect(status == 2, "\(text)")
        let plugin = Fixtures.buildDirectory + "/libFoobarCells.so"
        (status, text) = try cellkit(["preview", plugin, "--compare", "/nowhere/golden"])
        #expect(status == 1 && text.contains("no golden files: /nowhere/golden is not a folder"), "\(text)")
        (status, text) = try cellkit(["preview", "/nowhere/libnone.so", "--update"])
        #expect(status == 64 && text.contains("--update goes with --compare"), "\(text)")
    }
}

/// Where two texts first differ, for a test's message: the line number and both lines.
enum LineDiffText {
    static func of(_ expected: String, _ actual: String) -> String {
        let (a, b) = (
            expected.split(separator: "\n", omittingEmptySubsequences: false),
            actual.split(separator: "\n", omittingEmptySubsequences: false)
        )
        for i in 0..<max(a.count, b.count) where i >= a.count || i >= b.count || a[i] != b[i] {
            let x = i < a.count ? String(a[i]) : "(none)", y = i < b.count ? String(b[i]) : "(none)"
            return "line \(i + 1): alone \(x.debugDescription), shared \(y.debugDescription)"
        }
        return "the same"
    }

    static func of(_ expected: Data, _ actual: Data?) -> String {
        of(String(decoding: expected, as: UTF8.self), String(decoding: actual ?? Data(), as: UTF8.self))
    }
}
