// The names documents write for enumerations (`style: insetGrouped`) are spelled out rather than
// made by reflection at each read: each must be its case's Swift name, every case named once.

import CellKitDocuments
import CellKitModel
import Testing

@Suite("Names of cases in documents")
struct NamedCaseTests {
    static func check<E: NamedCases>(_ type: E.Type) {
        let names = E.allCases.map(\.name)
        #expect(names == E.allCases.map { "\($0)" }, "\(E.self)")
        #expect(Set(names).count == names.count, "\(E.self)")
        for value in E.allCases { #expect(E.named(value.name).map { "\($0)" } == "\(value)") }
        #expect(E.named("nonsense") == nil)
    }

    @Test("every case's name is its Swift name, and reads back as it")
    func names() {
        Self.check(CellStyle.self)
        Self.check(TextAlignment.self)
        Self.check(LineBreakMode.self)
        Self.check(FontWeight.self)
        Self.check(TextDirection.self)
        Self.check(TableStyle.self)
        Self.check(AccessoryType.self)
    }
}
