// A faulted plugin's placeholder rows in the JSON formats: each carries a `fault` object
// (plugin file, hook, cell type, signal or exit status, the line printed), so a tool can
// tell them from real rows; the rows around them carry none.

import CellKitTestSupport
import Foundation
import Testing

@Suite("JSON output: placeholder rows carry their fault")
struct JSONFaultTests {
    let command = CellKitTool()

    /// CI installs jsonschema and sets this (JSONFormatTests has the schema tests proper).
    static let required = ProcessInfo.processInfo.environment["CELLKIT_REQUIRE_JSONSCHEMA"] == "1"

    /// The Python with jsonschema: .ci/run's virtual environment under .build, else python3; nil for none.
    static let python: String? = [Render.root + "/.build/jsonschema-venv/bin/python3", Fixtures.tool("python3")]
        .compactMap { $0 }.first { (try? Fixtures.execute($0, ["-c", "import jsonschema"]))?.status == 0 }

    /// Renders IsolationTests' table with plugin `name` built from `body` as `format` to a file; the
    /// rows, and standard error.
    func render(_ name: String, _ body: String, format: String) throws -> ([[String: Any]], String) {
        let folder = try Render.write(["t.yaml": IsolationTests.table], name: name + format)
        let plugins = try Fixtures.folder(name + format + "plugins")
        try Fixtures.compileC(IsolationTests.faulty(body), name: name, in: plugins)
        let out = folder + "/out." + format
        let (ending, log) = try command.run([
            "render", folder + "/t.yaml", "--plugin-path", plugins, "--output", out,
        ])
        #expect(ending == .exited(3), "\(log)")
        let text = try command.contents(out)
        if let python = Self.python {  // the fault object is in the schema too
            let check = try Fixtures.execute(python, [Render.root + "/Scripts/check-json-schema.py", out])
            #expect(check.status == 0, "\(check.output)\(check.errors)")
        } else {
            #expect(!Self.required, "the Python package jsonschema is missing (pip install jsonschema)")
        }
        if format == "jsonl" {
            let lines = try text.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) }
            return (lines.dropFirst().map { $0 as! [String: Any] }, log)
        }
        let document = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        return ((document["sections"] as! [[String: Any]]).flatMap { $0["rows"] as! [[String: Any]] }, log)
    }

    @Test(
        "a crash (SIGABRT in a customize hook): plugin, hook, type, signal and the line", arguments: ["json", "jsonl"])
    func crash(_ format: String) throws {
        let (rows, log) = try render(
            "jsonabort",
            "CK_EXPORT void customizeCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)cell; (void)ip; abort(); }",
            format: format)
        #expect(rows.count == 9)
        let faulted = rows.filter { $0["identifier"] as? String == "Faulty" }
        #expect(faulted.count == 2)
        for row in faulted {
            let fault = try #require(row["fault"] as? [String: Any], "\(row)")
            #expect(fault["outcome"] as? String == "signal")
            #expect(fault["plugin"] as? String == "libjsonabort.so")
            #expect(fault["hook"] as? String == "customizeCellForFaulty")
            #expect(fault["identifier"] as? String == "Faulty")
            #expect(fault["signal"] as? String == "SIGABRT" && fault["signalNumber"] as? Int == 6)
            let message = try #require(fault["message"] as? String)
            #expect(log.contains(message + "\n"), "the line printed: \(log)")
        }
        #expect(rows.filter { $0["fault"] != nil }.count == 2, "real rows carry no fault")
        if format == "jsonl" {  // each section's texts once, on its first row, though workers resumed inside one
            #expect(rows.compactMap { $0["sectionTexts"] as? [String: Any] }.count == 3)
            #expect(rows.filter { $0["sectionTexts"] != nil }.map { $0["row"] as? Int } == [0, 0, 0])
        }
    }

    @Test("exit(3) in an init hook: outcome exit, the status")
    func exitStatus() throws {
        let (rows, _) = try render(
            "jsonexit",
            """
            CK_EXPORT void initCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)cell; (void)ip; exit(3); }
            CK_EXPORT void customizeCellForFaulty(ck_cell *cell, ck_index_path ip) { (void)ip; text(cell); }
            """, format: "json")
        let faults = rows.compactMap { $0["fault"] as? [String: Any] }
        #expect(faults.count == 2)
        #expect(faults.allSatisfy { $0["outcome"] as? String == "exit" && $0["exitStatus"] as? Int == 3 })
        #expect(faults.allSatisfy { $0["hook"] as? String == "initCellForFaulty" })
    }
}
