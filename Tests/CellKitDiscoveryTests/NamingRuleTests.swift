import CCellKit
import CellKitModel
import CellKitTestSupport
import Testing

@testable import CellKitDiscovery

@Suite("Naming rule and identifiers")
struct NamingRuleTests {
    @Test(
        "Valid identifiers are accepted", arguments: ["Foobar", "a", "Cell_2", "X" + String(repeating: "y", count: 63)])
    func validIdentifiers(_ name: String) throws {
        #expect(try CellIdentifier(name).name == name)
    }

    @Test(
        "Invalid identifiers are refused with the reason",
        arguments: [
            ("", "it is empty"),
            ("2Fast", "must start with an ASCII letter, not '2'"),
            ("_private", "must start with an ASCII letter, not '_'"),
            ("Foo-Bar", "not '-'"),
            ("Foo Bar", "not byte 0x20"),
            ("Café", "not byte 0xC3"),
            ("Foo\u{1B}[31m", "not byte 0x1B"),
            ("X" + String(repeating: "y", count: 64), "65 bytes long; the limit is 64"),
        ])
    func invalidIdentifiers(_ name: String, _ reason: String) {
        #expect(throws: IdentifierError.self) { try CellIdentifier(name) }
        do { _ = try CellIdentifier(name) } catch {
            #expect(error.description.contains(reason), "\(error.description)")
            #expect(!error.description.contains("\u{1B}"), "the message must not carry the escape")
        }
    }

    @Test("Hook symbols split into kind and identifier; the longest prefix wins")
    func parseSymbols() throws {
        #expect(HookKind.parse(symbol: "initCellForFoobar")! == (.initCell, try CellIdentifier("Foobar")))
        #expect(HookKind.parse(symbol: "customizeCellForBar")! == (.customizeCell, try CellIdentifier("Bar")))
        #expect(HookKind.parse(symbol: "heightForCellForX1")! == (.heightForCell, try CellIdentifier("X1")))
        #expect(HookKind.parse(symbol: "prepareCellForReuseForY")! == (.prepareCellForReuse, try CellIdentifier("Y")))
        #expect(HookKind.parse(symbol: "initCellFor") == nil)
        #expect(HookKind.parse(symbol: "initCellFor-Foo") == nil)
        #expect(HookKind.parse(symbol: "initcellForFoo") == nil)
        #expect(HookKind.parse(symbol: "cellkit_plugin") == nil)
    }

    @Test("Symbols are built only from validated identifiers")
    func buildSymbols() throws {
        let id = try CellIdentifier("Foobar")
        #expect(
            HookKind.allCases.map { $0.symbol(for: id) } == [
                "initCellForFoobar", "customizeCellForFoobar", "heightForCellForFoobar", "prepareCellForReuseForFoobar",
                "layoutSubviewsForFoobar",
            ])
    }

    @Test("Swift enums carry cellkit.h's values")
    func enumValuesMatchHeader() {
        #expect(CellStyle.value2.rawValue == Int32(CK_STYLE_VALUE2.rawValue))
        #expect(SelectionStyle.default.rawValue == Int32(CK_SELECTION_DEFAULT.rawValue))
        #expect(AccessoryType.detailButton.rawValue == Int32(CK_ACCESSORY_DETAIL_BUTTON.rawValue))
        #expect(TextAlignment.right.rawValue == Int32(CK_ALIGN_RIGHT.rawValue))
        #expect(LineBreakMode.truncateMiddle.rawValue == Int32(CK_BREAK_TRUNCATE_MIDDLE.rawValue))
        #expect(FontWeight.bold.rawValue == Int32(CK_WEIGHT_BOLD.rawValue))
        #expect(ViewKind.image.rawValue == Int32(CK_VIEW_IMAGE.rawValue))
    }
}

@Suite("Hook signatures")
struct SignatureTests {
    @Test(
        "Well-formed signatures parse",
        arguments: [
            ("(cell, indexPath)", HookKind.customizeCell, "void (cell, indexPath)"),
            ("void (cell, section, row, data)", .customizeCell, "void (cell, section, row, data)"),
            ("()", .initCell, "void ()"),
            ("double (row)", .heightForCell, "double (row)"),
            ("(row)", .heightForCell, "double (row)"),
            ("int (section,row)", .heightForCell, "int32_t (section, row)"),
            ("float(context, host, cell)", .heightForCell, "float (context, host, cell)"),
        ])
    func parses(_ text: String, _ kind: HookKind, _ expected: String) throws {
        #expect(try HookSignature(parsing: text, for: kind).description == expected)
    }

    @Test("The standard list needs no libffi")
    func standard() throws {
        #expect(try HookSignature(parsing: "void (cell, indexPath)", for: .initCell).isStandard(for: .initCell))
        #expect(
            try HookSignature(parsing: "double (cell, indexPath)", for: .heightForCell).isStandard(for: .heightForCell))
        #expect(try !HookSignature(parsing: "(indexPath, cell)", for: .initCell).isStandard(for: .initCell))
    }

    @Test(
        "Malformed signatures name the bad token",
        arguments: [
            ("(cell, indexpath)", HookKind.customizeCell, "indexpath", "unknown parameter"),
            ("(cell, cell)", .customizeCell, "cell", "parameter given twice"),
            ("double (cell)", .customizeCell, "double", "customizeCellFor hooks return void"),
            ("void (row)", .heightForCell, "void", "return a height"),
            ("long (row)", .heightForCell, "long", "expected a result type"),
            ("(cell row)", .customizeCell, "row", "expected ',' or ')'"),
            ("(cell, row", .customizeCell, "(cell, row", "missing ')'"),
            ("(cell) extra", .customizeCell, "extra", "unexpected text after ')'"),
            ("cell, row", .customizeCell, "cell", "expected a result type"),
        ])
    func malformed(_ text: String, _ kind: HookKind, _ token: String, _ problem: String) {
        #expect {
            try HookSignature(parsing: text, for: kind)
        } throws: { error in
            guard let e = error as? SignatureError else { return false }
            return e.token == token && e.problem.contains(problem)
        }
    }
}
