// The registry cache's records are read straight from their bytes: what is written reads
// back the same, and what reads is exactly what would be written.

import CellKitModel
import CellKitTestSupport
import Testing

@testable import CellKitDiscovery

@Suite("Registry cache records")
struct CacheRecordTests {
    /// Texts that take every escape `CacheJSON.quoted` writes, and raw UTF-8 beside them.
    static let texts = [
        "", "plain", "a \"quoted\" word", "back\\slash", "line\nbreak\ttab\rreturn", "bell\u{07} del\u{7F}",
        "line\u{2028}paragraph\u{2029}", "café 漢字 👨‍👩‍👧", "\u{1B}[31m", "/path/with spaces/lib.so",
    ]

    static func plugins() throws -> [PluginFile] {
        let signature = HookSignature(result: .void, parameters: [.cell, .data])
        let types = [
            CellTypeDeclaration(
                identifier: try CellIdentifier("Foobar"),
                hooks: [
                    HookDeclaration(kind: .initCell, symbol: "initCellForFoobar", signature: signature),
                    HookDeclaration(
                        kind: .heightForCell, symbol: "heightForCellForFoobar",
                        signature: HookSignature(result: .double, parameters: [])),
                ]),
            CellTypeDeclaration(identifier: try CellIdentifier("B_2"), hooks: []),
        ]
        var plugins: [PluginFile] = []
        for (k, text) in texts.enumerated() {
            plugins.append(
                PluginFile(
                    path: "/p/lib\(k).so",
                    descriptor: PluginDescriptor(
                        name: "P\(k)", version: text, summary: texts[(k + 3) % texts.count], abiMajor: 1,
                        abiMinor: k - 2),
                    cellTypes: k % 3 == 0 ? [] : types, problems: k % 2 == 0 ? [] : [text, "second"],
                    knownNearMisses: k % 4 == 0
                        ? nil
                        : [
                            NearMiss(
                                symbol: "initCellFor" + text, suggestion: k % 3 == 0 ? nil : text, explanation: text)
                        ]))
        }
        return plugins
    }

    static func read(_ line: [UInt8], path: String) -> PluginFile? {
        line.withUnsafeBufferPointer { PluginFile(cacheLine: $0, path: path) }
    }

    @Test("a written record reads back the same, near misses included")
    func roundTrip() throws {
        for plugin in try Self.plugins() {
            let line = plugin.cacheLine(path: plugin.path)
            let read = try #require(Self.read(line, path: plugin.path), "\(String(decoding: line, as: UTF8.self))")
            #expect(read.cacheLine(path: plugin.path) == line)
            #expect(read.knownNearMisses == plugin.knownNearMisses)
            #expect(read.path == plugin.path)
        }
    }

    @Test("a record under another path, or with its checksum or form changed, does not read")
    func refused() throws {
        let plugin = try Self.plugins()[1]
        let line = plugin.cacheLine(path: plugin.path)
        #expect(Self.read(line, path: "/p/other.so") == nil)
        #expect(Self.read(line + [0x20], path: plugin.path) == nil)
        #expect(Self.read(Array(line.dropLast()), path: plugin.path) == nil)
        var sum = line
        sum[sum.count - 3] = sum[sum.count - 3] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        #expect(Self.read(sum, path: plugin.path) == nil)
    }

    /// A record whose ABI minor version is written as `number` (its checksum made valid).
    static func withMinor(_ number: String) throws -> (line: [UInt8], path: String) {
        let plugin = try Self.plugins()[1]
        let line = plugin.cacheLine(path: plugin.path)
        let comma = line.lastIndex(of: UInt8(ascii: ","))!
        let marker = Array(",\(plugin.descriptor.abiMinor)]".utf8)
        let original = String(decoding: line[..<comma], as: UTF8.self)
        let body = original.replacing(String(decoding: marker, as: UTF8.self), with: ",\(number)]", maxReplacements: 1)
        try #require(body.count == original.count - marker.count + number.count + 2)
        let sum = RegistryCache.Record.checksum(path: plugin.path, body: Array(body.utf8)[...])
        return (Array(body.utf8) + Array(",\"\(sum)\"]".utf8), plugin.path)
    }

    /// The integers the writer writes read back, up to 18 digits either sign; any other spelling
    /// of a number (a plus, a leading zero, -0, 19 digits, no digit) does not read.
    @Test("integers of up to 18 digits, as `\\(Int)` writes them, read; no other spelling does")
    func integers() throws {
        for number in [0, 1, -1, 9, 10, 42, -99, 100, 123_456_789, 999_999_999_999_999_999, -999_999_999_999_999_999] {
            let (line, path) = try Self.withMinor("\(number)")
            #expect(Self.read(line, path: path)?.descriptor.abiMinor == number, "\(number)")
        }
        for text in [
            "-0", "00", "01", "-01", "+1", "-", "", "1000000000000000000", "-1000000000000000000", "1.0", "1e2",
        ] {
            let (line, path) = try Self.withMinor(text)
            #expect(Self.read(line, path: path) == nil, "\(text)")
        }
    }

    /// Bodies changed byte by byte, then given a valid checksum: each either does not read, or
    /// reads as a record that, written again, is byte for byte the changed line (so nothing the
    /// writer would not write is taken: no blanks, no other escapes, no leading zeros).
    @Test("a changed record with a valid checksum reads only as exactly what it says")
    func mutations() throws {
        var rng = SplitMix64(seed: 33)
        let alphabet =
            Array(#"[]{},:"\ 0123456789-+.eEnulltrue\u00AF"#.utf8) + [0x00, 0x7F, 0xC3, 0xA9, 0xE2, 0x80, 0xA8]
        var accepted = 0
        for plugin in try Self.plugins() {
            let line = plugin.cacheLine(path: plugin.path)
            let comma = line.lastIndex(of: UInt8(ascii: ","))!
            for _ in 0..<400 {
                var body = Array(line[..<comma])
                for _ in 0...Int.random(in: 0...2, using: &rng) {
                    let at = Int.random(in: 0..<body.count, using: &rng)
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0: body[at] = alphabet.randomElement(using: &rng)!
                    case 1: body.remove(at: at)
                    default: body.insert(alphabet.randomElement(using: &rng)!, at: at)
                    }
                    if body.isEmpty { body = [0x5B] }
                }
                let sum = RegistryCache.Record.checksum(path: plugin.path, body: body[...])
                let changed = body + Array(",\"\(sum)\"]".utf8)
                guard let read = Self.read(changed, path: plugin.path) else { continue }
                accepted += 1
                #expect(read.cacheLine(path: plugin.path) == changed, "\(String(decoding: changed, as: UTF8.self))")
            }
        }
        #expect(accepted > 0)  // some changes (inside a text) still make a record
    }
}
