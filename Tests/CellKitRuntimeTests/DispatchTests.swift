import CCellKit
import CLibraries
import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDiscovery
@testable import CellKitRuntime

/// The same work exported three times: with the standard list, and with declared lists in
/// scrambled orders, one of six words (called with its words in registers) and one of eight
/// (through libffi), so each way must place every argument right.
let equivalencePlugin = """
    #include <stdio.h>
    #include "cellkit.h"
    CK_PLUGIN("Equivalence", "1.0.0", "direct, register and libffi hooks doing the same work");
    static char plugin_context[] = "plugin-context";

    CK_EXPORT ck_status cellkit_plugin_init(const ck_host *host, void **context) {
        if (host->abi_major != CK_ABI_MAJOR || !CK_HOST_HAS(host, last_error)) return CK_ERR_INVALID_ARGUMENT;
        *context = plugin_context;
        return CK_OK;
    }

    static void fill(ck_cell *cell, int64_t section, int64_t row, const ck_data *data, const char *context, const ck_host *host) {
        const char *title = "untitled";
        double n = -1;
        host->data_string(data, "title", &title);
        host->data_number(data, "n", &n);
        char text[160];
        snprintf(text, sizeof text, "%lld.%lld %s %.2f %s", (long long)section, (long long)row, title, n, context);
        ck_set_text(ck_text_label(cell), text);
        host->cell_set_int(cell, CK_CELL_INDENTATION_LEVEL, row % 3);
        host->cell_set_int(cell, CK_CELL_ACCESSORY_TYPE, section % 4);
    }

    CK_EXPORT void customizeCellForDirect(ck_cell *cell, ck_index_path ip) {
        fill(cell, ip.section, ip.row, cell->host->row_data(cell), plugin_context, cell->host);
    }
    CK_EXPORT double heightForCellForDirect(ck_cell *cell, ck_index_path ip) { (void)cell; return 1.5 + (double)ip.row; }

    CK_SIGNATURE(customizeCellForViaFFI, "void (data, row, context, indexPath, host, section, cell)");
    CK_EXPORT void customizeCellForViaFFI(const ck_data *data, int64_t row, void *context, ck_index_path ip,
                                          const ck_host *host, int64_t section, ck_cell *cell) {
        if (ip.row != row || ip.section != section) { ck_set_text(ck_text_label(cell), "MISPLACED ARGUMENTS"); return; }
        fill(cell, section, row, data, (const char *)context, host);
    }
    CK_SIGNATURE(heightForCellForViaFFI, "double (indexPath)");
    CK_EXPORT double heightForCellForViaFFI(ck_index_path ip) { return 1.5 + (double)ip.row; }

    CK_SIGNATURE(customizeCellForViaRegisters, "void (data, row, context, indexPath, cell)");
    CK_EXPORT void customizeCellForViaRegisters(const ck_data *data, int64_t row, void *context, ck_index_path ip,
                                                ck_cell *cell) {
        if (ip.row != row) { ck_set_text(ck_text_label(cell), "MISPLACED ARGUMENTS"); return; }
        fill(cell, ip.section, row, data, (const char *)context, cell->host);
    }
    CK_SIGNATURE(heightForCellForViaRegisters, "double (section, indexPath, row)");
    CK_EXPORT double heightForCellForViaRegisters(int64_t section, ck_index_path ip, int64_t row) {
        return ip.section == section && ip.row == row ? 1.5 + (double)row : -1;
    }

    CK_EXPORT void customizeCellForIntHeight(ck_cell *cell, ck_index_path ip) { (void)cell; (void)ip; }
    CK_SIGNATURE(heightForCellForIntHeight, "int32_t (row, section)");
    CK_EXPORT int32_t heightForCellForIntHeight(int64_t row, int64_t section) { return (int32_t)(row * 10 + section); }

    CK_EXPORT void customizeCellForFloatHeight(ck_cell *cell, ck_index_path ip) { (void)cell; (void)ip; }
    CK_SIGNATURE(heightForCellForFloatHeight, "float (row)");
    CK_EXPORT float heightForCellForFloatHeight(int64_t row) { return (float)row + 0.25f; }

    CK_EXPORT void customizeCellForWideIntHeight(ck_cell *cell, ck_index_path ip) { (void)cell; (void)ip; }
    CK_SIGNATURE(heightForCellForWideIntHeight, "int32_t (cell, indexPath, host, context, row, section)");
    CK_EXPORT int32_t heightForCellForWideIntHeight(ck_cell *cell, ck_index_path ip, const ck_host *host, void *context,
                                                    int64_t row, int64_t section) {
        int right = host == cell->host && context == plugin_context && ip.row == row && ip.section == section;
        return right ? (int32_t)(row * 10 + section) : -1;
    }
    """

@Suite("Dispatch: typed pointers and libffi")
struct DispatchTests {
    @Test("libffi, libseccomp and libtinfo open on first use, and their calls answer as the libraries do")
    func librariesOnFirstUse() throws {
        for library in [CK_LIBRARY_FFI, CK_LIBRARY_SECCOMP, CK_LIBRARY_TINFO] {
            let failure = ck_library_load(library).map { String(cString: $0) }
            #expect(failure == nil, "\(library): \(failure ?? "")")
            #expect(ck_library_load(library) == nil, "opened once, and so still")
        }
        #expect(ck_library_load(ck_library(rawValue: 7)).map { String(cString: $0) } == "no such library")
        #expect(ck_ffi_type_sint64()?.pointee.size == 8 && ck_ffi_type_double()?.pointee.size == 8)
        #expect(ck_ffi_type_sint32()?.pointee.size == 4 && ck_ffi_type_float()?.pointee.size == 4)
        #expect(ck_ffi_type_pointer()?.pointee.size == 8 && ck_ffi_type_void() != nil)
        #expect(ck_seccomp_api_get() >= 1)
        #if arch(x86_64)
        #expect(ck_seccomp_syscall_resolve_name("write") == 1)
        let name = ck_seccomp_syscall_resolve_num_arch(0xC000_003E, 0)  // AUDIT_ARCH_X86_64, read
        #expect(name.map { String(cString: $0) } == "read")
        free(name)
        #endif
        var error: Int32 = 0
        #expect(ck_tinfo_setupterm("xterm", -1, &error) == 0, "terminfo has xterm (ncurses-base)")
        #expect(ck_tinfo_tigetnum("colors") == 8)
        #expect(ck_tinfo_tiparm2(ck_tinfo_tigetstr("cup"), 2, 4).map { String(cString: $0) } == "\u{1B}[3;5H")
    }

    @Test("data_string hands a plain JSON Lines text over as its own bytes, and decodes the rest as before")
    func dataStringFromJSONLines() throws {
        let line =
            Array(
                #"{"cell": "X", "plain": "日本語 ✓", "esc": "a\"b", "nul": "a\u0000b", "n": {"t": "deep"}, "num": 3, "bad": ""#
                    .utf8)
            + [0xFF, 0x41] + Array(#""}"#.utf8)
        let cell = Cell(reuseIdentifier: try CellIdentifier("X"), style: .default)
        cell.show(
            IndexPath(section: 0, row: 0), rowsInSection: 1,
            data: .json(try line.withUnsafeBufferPointer { try JSONRecord(checking: $0) }))
        func read(_ path: String) -> (ck_status, String?) {
            var out: UnsafePointer<CChar>?
            let status = HostTable.pointer.pointee.data_string(OpaquePointer(cell.handle), path, &out)
            return (status, out.map { String(cString: $0) })
        }
        #expect(
            cell.plainDataString(at: "plain") != nil && cell.plainDataString(at: "n.t") != nil, "the fast path is taken"
        )
        #expect(
            ["esc", "nul", "bad", "num", "cell", "missing"].allSatisfy { path in
                path.withCString { cell.plainDataString(at: $0) == nil }
            })
        #expect(read("plain") == (CK_OK, "日本語 ✓"))
        #expect(read("n.t") == (CK_OK, "deep"))
        #expect(read("esc") == (CK_OK, "a\"b"))
        #expect(read("nul") == (CK_OK, "a"), "C strings end at NUL, as before")
        #expect(read("bad") == (CK_OK, "\u{FFFD}A"), "invalid UTF-8 is repaired, as decoding does")
        #expect(
            read("num").0 == CK_ERR_WRONG_TYPE && read("cell").0 == CK_ERR_NOT_FOUND
                && read("missing").0 == CK_ERR_NOT_FOUND)
    }

    @Test("set_text takes a text data_string handed out without checking it again, and checks one a hook changed")
    func handedText() throws {
        let line = Array(#"{"cell": "X", "plain": "日本語 ✓", "other": "abc"}"#.utf8)
        let cell = Cell(reuseIdentifier: try CellIdentifier("X"), style: .default)
        cell.show(
            IndexPath(section: 0, row: 0), rowsInSection: 1,
            data: .json(try line.withUnsafeBufferPointer { try JSONRecord(checking: $0) }))
        let label = try cell.addSubview(.label, frame: Rect(x: 0, y: 0, width: 10, height: 1), tag: 1)
        let host = HostTable.pointer.pointee
        var out: UnsafePointer<CChar>?
        #expect(host.data_string(OpaquePointer(cell.handle), "plain", &out) == CK_OK)
        #expect(cell.handedText(out!) != nil, "the quick way is taken")
        #expect(host.view_set_string(label.handle, CK_VIEW_TEXT, out) == CK_OK)
        #expect(label.text == "日本語 ✓" && label.textBytes?.isClean == true)
        // A hook that writes into the text it was handed (const) gets it checked as any other text.
        #expect(host.data_string(OpaquePointer(cell.handle), "other", &out) == CK_OK)
        UnsafeMutablePointer(mutating: out!)[1] = 0x1B
        #expect(cell.handedText(out!) == nil)
        #expect(host.view_set_string(label.handle, CK_VIEW_TEXT, out) == CK_OK)
        #expect(label.text == "a\u{1B}c" && label.textBytes?.isClean == false)
        UnsafeMutablePointer(mutating: out!)[1] = 0
        #expect(cell.handedText(out!) == nil, "a NUL written into it ends it, as a C string")
        #expect(host.view_set_string(label.handle, CK_VIEW_TEXT, out) == CK_OK)
        #expect(label.text == "a")
        // Its NUL written over (and one written after it, in the cell's memory for such copies), the
        // text runs on past the record's bytes: checked as any other text.
        #expect(host.data_string(OpaquePointer(cell.handle), "other", &out) == CK_OK)
        (UnsafeMutablePointer(mutating: out!)[3], UnsafeMutablePointer(mutating: out!)[4]) = (0x2D, 0)
        #expect(cell.handedText(out!) == nil, "a text longer than the record's is not the handed one")
        #expect(host.view_set_string(label.handle, CK_VIEW_TEXT, out) == CK_OK)
        #expect(label.text == "abc-")
        // The next row's data frees the record the handed text was copied from: it is forgotten.
        #expect(host.data_string(OpaquePointer(cell.handle), "plain", &out) == CK_OK)
        cell.show(
            IndexPath(section: 0, row: 1), rowsInSection: 2,
            data: .json(try line.withUnsafeBufferPointer { try JSONRecord(checking: $0) }))
        #expect(cell.handedText(out!) == nil)
    }

    let queue: CellQueue

    init() throws {
        let dir = try Fixtures.folder("dispatch")
        try Fixtures.compileC(equivalencePlugin, name: "equivalence", in: dir)
        queue = CellQueue(registry: Fixtures.registry([dir]))
    }

    @Test("Hooks with declared lists, in registers and through libffi, leave the cells a direct hook leaves")
    func sameResults() throws {
        let direct = try queue.registry.cellType(named: "Direct")
        let declared = [
            try queue.registry.cellType(named: "ViaRegisters"), try queue.registry.cellType(named: "ViaFFI"),
        ]
        for section in 0..<3 {
            for row in [0, 1, 2, 7, 1_000_003, Int(Int32.max) + 5] {
                let data = RowValue.object(["title": .string("t\(row)"), "n": .number(Double(row) / 4)])
                let a = queue.dequeueCell(
                    direct, at: IndexPath(section: section, row: row), rowsInSection: 8, data: data)
                #expect(
                    a.textLabel.text
                        == "\(section).\(row) t\(row) \(String(format: "%.2f", Double(row) / 4)) plugin-context")
                #expect(queue.height(of: a) == 1.5 + Double(row))
                for type in declared {
                    let b = queue.dequeueCell(
                        type, at: IndexPath(section: section, row: row), rowsInSection: 8, data: data)
                    #expect(b.textLabel.text == a.textLabel.text, "\(type.identifier)")
                    #expect((b.indentationLevel, b.accessoryType) == (a.indentationLevel, a.accessoryType))
                    #expect(queue.height(of: b) == queue.height(of: a), "\(type.identifier)")
                    queue.recycle(b)
                }
                queue.recycle(a)
            }
        }
    }

    @Test("Narrow results come back right, in registers and through libffi (which widens int32_t to a register)")
    func narrowResults() throws {
        let int = try queue.registry.cellType(named: "IntHeight"),
            float = try queue.registry.cellType(named: "FloatHeight"),
            wide = try queue.registry.cellType(named: "WideIntHeight")
        #expect(queue.height(of: queue.dequeueCell(int, at: IndexPath(section: 3, row: 4))) == 43)
        #expect(queue.height(of: queue.dequeueCell(float, at: IndexPath(section: 0, row: 2))) == 2.25)
        #expect(queue.height(of: queue.dequeueCell(wide, at: IndexPath(section: 3, row: 4))) == 43)
        #expect(queue.height(of: queue.dequeueCell(wide, at: IndexPath(section: 2, row: 9))) == 92)
    }

    @Test("A declared list of at most six argument words is called in registers; a longer one through libffi")
    func callPaths() throws {
        func hooks(_ name: String) throws -> (declared: [Bool], resolved: [String]) {
            let type = try queue.registry.cellType(named: name)
            let declaration = try #require(
                queue.registry.catalog.registration(for: try CellIdentifier(name))?.declaration)
            let resolved = [type.hook(.customizeCell), type.hook(.heightForCell)].compactMap { hook -> String? in
                switch hook {
                case .standard, .standardHeight: "standard"
                case .registers: "registers"
                case .ffi: "libffi"
                case .builtin: "built-in"
                case nil: nil
                }
            }
            return (declaration.hooks.map(\.usesFFI), resolved)
        }
        #expect(try hooks("Direct") == ([false, false], ["standard", "standard"]))
        #expect(try hooks("ViaRegisters") == ([false, false], ["registers", "registers"]), "six words")
        #expect(try hooks("ViaFFI") == ([true, false], ["libffi", "registers"]), "eight words, then two")
        #expect(try hooks("WideIntHeight") == ([false, true], ["standard", "libffi"]), "seven words")
        #expect(try hooks("IntHeight") == ([false, false], ["standard", "registers"]))
    }

    @Test("Row data: wrong types and missing keys are errors the hook can read")
    func rowDataErrors() throws {
        let cell = queue.dequeueCell(
            try queue.registry.cellType(named: "Direct"), at: IndexPath(section: 0, row: 0),
            data: .object(["title": .number(3)]))
        #expect(cell.textLabel.text == "0.0 untitled -1.00 plugin-context")
        #expect(cell.lastError == "the row's data has no value at 'n'")
        #expect(
            RowValue.object(["logos": .list([.string("apple"), .string("github")])]).value(at: "logos.1")
                == .string("github"))
        #expect(RowValue.list([.null]).value(at: "3") == nil)
    }
}
