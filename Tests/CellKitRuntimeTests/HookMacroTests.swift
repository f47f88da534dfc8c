// cellkit.h's hook-definition macros (CK_HEIGHT_FOR_CELL_FOR(Id) & co.) make a hook's signature
// something the compiler checks, and its inline helpers answer a NULL handle with an error
// instead of dereferencing it (issue 41).

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDiscovery
@testable import CellKitRuntime

@Suite("Hook macros and NULL-safe helpers in cellkit.h")
struct HookMacroTests {
    /// The macro that defines `kind`'s hook: its prefix in upper snake case, `CK_HEIGHT_FOR_CELL_FOR`.
    static func macro(_ kind: HookKind) -> String {
        var name = "CK_"
        for character in kind.prefix {
            if character.isUppercase { name += "_" }
            name += character.uppercased()
        }
        return name
    }

    /// Compiles `source` (a `.c` or `.cpp` file named by `fileName`) with `compiler` into a
    /// shared library; its exit status and its diagnostics.
    static func compile(
        _ source: String, fileName: String, compiler: String = "cc", flags: [String] = []
    ) throws -> (status: Int32, errors: String, library: String) {
        let dir = try Fixtures.folder("hookmacro")
        let path = dir + "/" + fileName, library = dir + "/libhookmacro.so"
        try source.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try Fixtures.execute(
            "/usr/bin/env",
            [compiler, "-shared", "-fPIC", "-Wall", "-Wextra", "-I", Fixtures.headerDirectory] + flags
                + [path, "-o", library])
        return (result.status, result.errors + result.output, library)
    }

    @Test("a height hook defined with another return type than the macro declares does not compile")
    func wrongReturnType() throws {
        let definedByHand = """
            #include "cellkit.h"
            CK_PLUGIN("Wrong", "0.1.0", "a height hook returning int");
            CK_CUSTOMIZE_CELL_FOR(Wrong) {}
            CK_HEIGHT_FOR_CELL_FOR(Wrong);
            CK_EXPORT int heightForCellForWrong(ck_cell *cell, ck_index_path indexPath) {
                (void)cell; (void)indexPath; return 2;
            }

            """
        let c = try Self.compile(definedByHand, fileName: "wrong.c")
        #expect(c.status != 0, "cc built a height hook returning int:\n\(c.errors)")
        #expect(c.errors.contains("heightForCellForWrong"), "the diagnostic names the hook:\n\(c.errors)")

        // The same hook without the macro builds (and would return garbage): the macro is the check.
        let unchecked = try Self.compile(
            definedByHand.replacingOccurrences(of: "CK_HEIGHT_FOR_CELL_FOR(Wrong);\n", with: ""), fileName: "open.c")
        #expect(unchecked.status == 0, "\(unchecked.errors)")

        // A body that returns something a double cannot be.
        let body = try Self.compile(
            """
            #include "cellkit.h"
            CK_PLUGIN("Wrong", "0.1.0", "a height hook returning a string");
            CK_HEIGHT_FOR_CELL_FOR(Wrong) { return "tall"; }

            """, fileName: "body.c")
        #expect(body.status != 0, "cc built a height hook returning a string:\n\(body.errors)")
        #expect(body.errors.contains("heightForCellForWrong"), "\(body.errors)")

        // Another parameter list than (cell, indexPath).
        let parameters = try Self.compile(
            """
            #include "cellkit.h"
            CK_PLUGIN("Wrong", "0.1.0", "a customize hook taking a row");
            CK_CUSTOMIZE_CELL_FOR(Wrong);
            CK_EXPORT void customizeCellForWrong(ck_cell *cell, int64_t row) { (void)cell; (void)row; }

            """, fileName: "parameters.c")
        #expect(parameters.status != 0, "\(parameters.errors)")
        #expect(parameters.errors.contains("customizeCellForWrong"), "\(parameters.errors)")
    }

    @Test("under C++ too, a height hook defined with another return type does not compile")
    func wrongReturnTypeInCpp() throws {
        guard let compiler = ["c++", "g++", "clang++"].first(where: { Fixtures.tool($0) != nil }) else {
            if ProcessInfo.processInfo.environment["CELLKIT_REQUIRE_CXX"] == "1" {
                Issue.record("no C++ compiler, and CELLKIT_REQUIRE_CXX is set")
            }
            return
        }
        let source = """
            #include "cellkit.h"
            CK_PLUGIN("Wrong", "0.1.0", "a height hook returning int");
            CK_HEIGHT_FOR_CELL_FOR(Wrong);
            CK_EXPORT int heightForCellForWrong(ck_cell *, ck_index_path) { return 2; }

            """
        let wrong = try Self.compile(source, fileName: "wrong.cpp", compiler: compiler)
        #expect(wrong.status != 0, "\(compiler) built a height hook returning int:\n\(wrong.errors)")
        #expect(wrong.errors.contains("heightForCellForWrong"), "\(wrong.errors)")
        let right = try Self.compile(
            """
            #include "cellkit.h"
            CK_PLUGIN("Right", "0.1.0", "every hook through its macro");
            CK_INIT_CELL_FOR(Right) { ck_set_alignment(ck_text_label(cell), CK_ALIGN_CENTER); }
            CK_HEIGHT_FOR_CELL_FOR(Right) { return indexPath.row == 0 ? 2.0 : 1.0; }

            """, fileName: "right.cpp", compiler: compiler, flags: ["-Werror"])
        #expect(right.status == 0, "\(right.errors)")
        let type = try #require(try PluginFile.read(path: right.library).get().cellTypes.first)
        #expect(
            type.hook(.initCell) != nil && type.hook(.heightForCell) != nil, "C linkage: the hooks keep their C names")
    }

    @Test("each hook's macro defines it with the table's signature: it builds without a warning and is found")
    func everyMacro() throws {
        var lines = [
            "#include \"cellkit.h\"", "CK_PLUGIN(\"Macros\", \"0.1.0\", \"every hook through its macro\");",
            "CK_PLUGIN_INIT { *context = (void *)host; return CK_OK; }",
        ]
        for kind in HookKind.allCases {
            let header = try String(contentsOfFile: Fixtures.headerDirectory + "/cellkit.h", encoding: .utf8)
            #expect(header.contains("#define \(Self.macro(kind))(Id)"), "cellkit.h defines \(Self.macro(kind))")
            lines.append(
                kind.returnsValue
                    ? "\(Self.macro(kind))(Macros) { return indexPath.row + 1.0; }"
                    : "\(Self.macro(kind))(Macros) { (void)cell; }")
        }
        let built = try Self.compile(lines.joined(separator: "\n") + "\n", fileName: "macros.c", flags: ["-Werror"])
        #expect(built.status == 0, "\(built.errors)")
        let plugin = try PluginFile.read(path: built.library).get()
        #expect(plugin.isUsable, "\(plugin.problems)")
        let type = try #require(plugin.cellTypes.first { $0.identifier.name == "Macros" })
        for kind in HookKind.allCases {
            #expect(type.hook(kind)?.signature == HookSignature.standard(for: kind), "\(kind.prefix)Macros")
        }
        #expect(plugin.nearMisses.isEmpty, "\(plugin.nearMisses)")
    }

    @Test("every inline helper answers a NULL view or cell with an error, and a view helper with NULL")
    func nullHandles() throws {
        let dir = try Fixtures.folder("nullhandles")
        let program = """
            #include <stdio.h>
            #include "cellkit.h"

            static int failures = 0;
            #define EXPECT(condition) \\
                do { if (!(condition)) { printf("failed: %s\\n", #condition); failures++; } } while (0)

            int main(void) {
                ck_view *none = NULL;
                const char *text = NULL;
                ck_data_type type = CK_DATA_NULL;
                EXPECT(ck_text_label(NULL) == NULL);
                EXPECT(ck_detail_text_label(NULL) == NULL);
                EXPECT(ck_image_view(NULL) == NULL);
                EXPECT(ck_set_text(none, "text") == CK_ERR_INVALID_ARGUMENT);
                EXPECT(ck_set_image(none, "star") == CK_ERR_INVALID_ARGUMENT);
                EXPECT(ck_set_text_color(none, CK_RGB(0, 0, 255)) == CK_ERR_INVALID_ARGUMENT);
                EXPECT(ck_set_font(none, 16, CK_WEIGHT_BOLD) == CK_ERR_INVALID_ARGUMENT);
                EXPECT(ck_set_alignment(none, CK_ALIGN_CENTER) == CK_ERR_INVALID_ARGUMENT);
                EXPECT(ck_set_accessory(NULL, CK_ACCESSORY_CHECKMARK) == CK_ERR_INVALID_ARGUMENT);
                EXPECT(ck_apply_style(none, "title") == CK_ERR_INVALID_ARGUMENT);
                EXPECT(ck_apply_optional_style(none, "title") == CK_ERR_INVALID_ARGUMENT);
                EXPECT(ck_data_type_of(NULL, "title", &type) == CK_ERR_INVALID_ARGUMENT);
                EXPECT(ck_data_text(NULL, "title", &text) == CK_ERR_INVALID_ARGUMENT);
                EXPECT(ck_init_fail(NULL, "no host") == CK_ERR_REFUSED);
                EXPECT(ck_set_text(ck_text_label(NULL), "text") == CK_ERR_INVALID_ARGUMENT);
                printf("%d failed\\n", failures);
                return failures;
            }

            """
        try program.write(toFile: dir + "/nulls.c", atomically: true, encoding: .utf8)
        try Fixtures.run(
            "/usr/bin/env",
            [
                "cc", "-Wall", "-Wextra", "-Werror", "-I", Fixtures.headerDirectory, dir + "/nulls.c", "-o",
                dir + "/nulls",
            ])
        let result = try Fixtures.execute(dir + "/nulls", [])
        #expect(result.status == 0, "the helpers with NULL (a crash ends it with its signal):\n\(result.output)")
        #expect(result.output == "0 failed\n", "\(result.output)")
    }

    @Test("a hook that sets the text of view_with_tag(cell, 0) renders; the call fails, nothing crashes")
    func tagZeroThroughHelpers() throws {
        let dir = try Fixtures.folder("tagzerohelper")
        try Fixtures.compileC(
            """
            #include "cellkit.h"
            CK_PLUGIN("TagZeroHelper", "0.1.0", "a helper given a NULL view");
            CK_EXPORT int tag_zero_answer = -1;
            CK_CUSTOMIZE_CELL_FOR(TagZeroHelper) {
                tag_zero_answer = ck_set_text(cell->host->view_with_tag(cell, 0), "lost");
                ck_set_text(ck_text_label(cell), "shown");
            }

            """, name: "tagzerohelper", in: dir)
        let registry = Fixtures.registry([dir])
        let cell = CellQueue(registry: registry).dequeueCell(
            try registry.cellType(named: "TagZeroHelper"), at: IndexPath(section: 0, row: 0))
        #expect(cell.textLabel.text == "shown")
        #expect(Fixtures.counter("tag_zero_answer", in: dir + "/libtagzerohelper.so") == 1)  // CK_ERR_INVALID_ARGUMENT
    }

    @Test("data_bool writes one byte to a 1.4 plugin's bool and four to an older plugin's int32_t")
    func dataBoolWidth() {
        var word: UInt32 = 0xAAAA_AAAA
        withUnsafeMutableBytes(of: &word) { writeBool(true, to: $0.baseAddress!, byte: true) }
        #expect(word == 0xAAAA_AA01, "one byte written, the three beside it kept")
        withUnsafeMutableBytes(of: &word) { writeBool(false, to: $0.baseAddress!, byte: true) }
        #expect(word == 0xAAAA_AA00)
        word = 0xAAAA_AAAA
        withUnsafeMutableBytes(of: &word) { writeBool(true, to: $0.baseAddress!, byte: false) }
        #expect(word == 1, "an int32_t that was not zeroed reads 1")
        withUnsafeMutableBytes(of: &word) { writeBool(false, to: $0.baseAddress!, byte: false) }
        #expect(word == 0)
    }

    @Test("a plugin built against this header reads data_bool right into a variable that was not zeroed")
    func dataBoolInPlugin() throws {
        let dir = try Fixtures.folder("databool")
        try Fixtures.compileC(
            """
            #include <string.h>
            #include "cellkit.h"
            CK_PLUGIN("DataBool", "0.1.0", "reads a bool into a dirty variable");
            CK_EXPORT int data_bool_seen = -1;
            CK_CUSTOMIZE_CELL_FOR(DataBool) {
                ck_data_bool_out value;
                memset(&value, 0xAA, sizeof value);
                if (cell->host->data_bool(cell->host->row_data(cell), "flag", &value) == CK_OK) data_bool_seen = value ? 1 : 0;
            }

            """, name: "databool", in: dir)
        for flag in [true, false] {
            let registry = Fixtures.registry([dir])
            _ = CellQueue(registry: registry).dequeueCell(
                try registry.cellType(named: "DataBool"), at: IndexPath(section: 0, row: 0),
                data: .object(["flag": .bool(flag)]))
            #expect(Fixtures.counter("data_bool_seen", in: dir + "/libdatabool.so") == (flag ? 1 : 0))
        }
    }
}
