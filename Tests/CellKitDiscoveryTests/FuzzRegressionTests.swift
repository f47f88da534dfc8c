import Foundation
import Testing

@testable import CellKitDiscovery

/// Inputs the fuzzers (Scripts/fuzz.sh) found crashing the ELF reader, from `Fuzz/corpus/elf/crash-*`.
@Suite("Fuzz regressions: the ELF reader")
struct ELFFuzzRegressionTests {
    static func input(_ name: String) throws -> Data {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try Data(contentsOf: root.appendingPathComponent("Fuzz/corpus/elf/\(name)"))
    }

    /// Symbols whose value, size and section overflow the bounds check of `contents(of:)`
    /// (ELFImage.swift): `symbol.value - section.address + symbol.size` (crash-contents-overflow)
    /// and `section.offset + (symbol.value - section.address)` (crash-contents-offset-overflow)
    /// trap on arithmetic overflow; `PluginFile.read` gets there when the symbol is the
    /// descriptor. Now each file must be read or refused, and every symbol's bytes lie in the file.
    @Test(
        "Symbol bounds that overflow are refused, not trapped",
        arguments: ["crash-contents-overflow", "crash-contents-offset-overflow"])
    func contentsOverflow(_ name: String) throws {
        let bytes = try Self.input(name)
        guard let image = try? ELFImage(bytes: bytes) else { return }  // refused whole: fine
        for symbol in image.dynamicSymbols + image.staticSymbols {
            if let data = image.contents(of: symbol, atMost: 1 << 20) { #expect(data.count <= bytes.count) }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cellkit-\(name)-\(UUID().uuidString).so"
        ).path
        try bytes.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = PluginFile.read(path: path)
    }
}
