// Hostile plugin files: a malformed .so anywhere on the search path must cost a
// bounded amount of work and end as one line under "Skipped", never as a crash or
// a stall of every command.

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDiscovery

// MARK: - Reading and patching ELF files in tests

/// A little-endian ELF64 file in memory, with its section headers found.
struct ELFBytes {
    var data: Data
    init(_ data: Data) { self.data = data }
    init(contentsOf path: String) throws { data = try Data(contentsOf: URL(fileURLWithPath: path)) }

    func read<T: FixedWidthInteger>(_ offset: Int, as: T.Type) -> T {
        data.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
    }
    mutating func write<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        guard offset >= 0, offset + MemoryLayout<T>.size <= data.count else { return }
        withUnsafeBytes(of: value.littleEndian) {
            data.replaceSubrange(offset..<offset + MemoryLayout<T>.size, with: $0)
        }
    }

    var sectionHeaderOffset: Int { Int(read(0x28, as: UInt64.self)) }
    var sectionCount: Int { Int(read(0x3C, as: UInt16.self)) }
    /// Where section header `i` starts.
    func header(_ i: Int) -> Int { sectionHeaderOffset + i * 64 }
    func type(ofSection i: Int) -> UInt32 { read(header(i) + 4, as: UInt32.self) }
    func offset(ofSection i: Int) -> UInt64 { read(header(i) + 24, as: UInt64.self) }
    func size(ofSection i: Int) -> UInt64 { read(header(i) + 32, as: UInt64.self) }
    func link(ofSection i: Int) -> Int { Int(read(header(i) + 40, as: UInt32.self)) }
    /// The first section of `type` (11 is SHT_DYNSYM, 2 SHT_SYMTAB).
    func section(ofType type: UInt32) -> Int? { (0..<sectionCount).first { self.type(ofSection: $0) == type } }

    /// A shared library for this host made of one `.dynsym` of `symbols` defined function
    /// symbols, every one named by offset `nameOffset` of the `.dynstr` `strings`.
    static func synthetic(symbols: Int, nameOffset: UInt32, strings: [UInt8]) -> ELFBytes {
        let stringsAt = 64, symbolsAt = (64 + strings.count + 7) & ~7
        let symbolBytes = (symbols + 1) * 24, headersAt = symbolsAt + symbolBytes
        var elf = ELFBytes(Data(count: headersAt + 3 * 64))
        elf.data.replaceSubrange(0..<7, with: [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1])
        elf.write(UInt16(3), at: 16)  // ET_DYN
        elf.write(ELFImage.hostMachine, at: 18)
        elf.write(UInt32(1), at: 20)
        elf.write(UInt64(headersAt), at: 0x28)
        elf.write(UInt16(64), at: 0x34)
        elf.write(UInt16(64), at: 0x3A)
        elf.write(UInt16(3), at: 0x3C)
        elf.data.replaceSubrange(stringsAt..<stringsAt + strings.count, with: strings)
        for i in 1...max(1, symbols) where symbols > 0 {
            let at = symbolsAt + i * 24
            elf.write(nameOffset, at: at)
            elf.data[at + 4] = 0x12  // STB_GLOBAL, STT_FUNC
            elf.write(UInt16(2), at: at + 6)
        }
        // Section 1: .dynsym, linked to section 2: .dynstr.
        elf.write(UInt32(11), at: headersAt + 64 + 4)
        elf.write(UInt64(symbolsAt), at: headersAt + 64 + 24)
        elf.write(UInt64(symbolBytes), at: headersAt + 64 + 32)
        elf.write(UInt32(2), at: headersAt + 64 + 40)
        elf.write(UInt64(24), at: headersAt + 64 + 56)
        elf.write(UInt32(3), at: headersAt + 128 + 4)
        elf.write(UInt64(stringsAt), at: headersAt + 128 + 24)
        elf.write(UInt64(strings.count), at: headersAt + 128 + 32)
        return elf
    }
}

/// Reads `bytes` as a plugin file at `path` the way discovery does.
func readMutant(_ bytes: Data, at path: String) throws -> Result<PluginFile, Rejection> {
    try write(bytes, to: path)
    return PluginFile.read(path: path)
}

/// Writes `bytes` to `path` with plain POSIX calls (Data.write takes milliseconds a file here).
func write(_ bytes: Data, to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    defer { close(fd) }
    let written = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw POSIXError(.EIO) }
}

// MARK: - The corpus

/// Every mutant of one real plugin: header and section-header fields set to edge values,
/// symbol entries pointed outside their tables, truncations at every boundary, overlapping
/// sections and seeded byte flips.
func mutants(of original: ELFBytes, flips: Int, seed: UInt64) -> [(String, Data)] {
    var result: [(String, Data)] = []
    func add(_ label: String, _ change: (inout ELFBytes) -> Void) {
        var copy = original
        change(&copy)
        result.append((label, copy.data))
    }
    let size = UInt64(original.data.count)
    let edges64: [UInt64] = [
        0, 1, 24, 64, 1 << 31, 1 << 32, 1 << 63, UInt64.max, UInt64.max - 7, UInt64.max - 63, size - 1, size, size + 1,
    ]
    let edges32: [UInt32] = [0, 1, 2, 3, 8, 11, 0x7FFF_FFFF, 0xFFFF_FFFF, UInt32(original.sectionCount)]
    let edges16: [UInt16] = [0, 1, 2, 63, 64, 65, 0x7FFF, 0xFFFF]

    // The ELF header: e_phoff, e_shoff, e_shentsize, e_shnum, e_shstrndx, e_type, e_machine.
    for value in edges64 { add("e_shoff=\(value)") { $0.write(value, at: 0x28) } }
    for value in edges64 { add("e_phoff=\(value)") { $0.write(value, at: 0x20) } }
    for field in [0x3A, 0x3C, 0x3E, 0x10, 0x12, 0x36, 0x38] {
        for value in edges16 { add("header[\(field)]=\(value)") { $0.write(value, at: field) } }
    }
    // Every field of every section header.
    for i in 0..<original.sectionCount {
        let at = original.header(i)
        for field in [16, 24, 32, 56] {
            for value in edges64 { add("section \(i)[\(field)]=\(value)") { $0.write(value, at: at + field) } }
        }
        for field in [4, 40] {
            for value in edges32 { add("section \(i)[\(field)]=\(value)") { $0.write(value, at: at + field) } }
        }
        // Overlaps: this section made to cover the whole file, or placed on the section headers.
        add("section \(i) covers the file") {
            $0.write(UInt64(0), at: at + 24)
            $0.write(size, at: at + 32)
        }
        add("section \(i) on the headers") { $0.write(UInt64(original.sectionHeaderOffset), at: at + 24) }
    }
    // Symbol entries: names, sections, values and sizes at their edges.
    for type: UInt32 in [11, 2] {
        guard let table = original.section(ofType: type) else { continue }
        let base = Int(original.offset(ofSection: table)), count = Int(original.size(ofSection: table)) / 24
        for s in stride(from: 1, to: count, by: max(1, count / 16)) {
            let at = base + s * 24
            for value in [0xFFFF_FFFF, 0x7FFF_FFFF, UInt32(original.size(ofSection: original.link(ofSection: table)))] {
                add("symbol \(s) st_name=\(value)") { $0.write(value, at: at) }
            }
            for value: UInt16 in [0xFFFF, 0xFFF1, 0xFFF2, UInt16(original.sectionCount)] {
                add("symbol \(s) st_shndx=\(value)") { $0.write(value, at: at + 6) }
            }
            for field in [8, 16] {
                for value: UInt64 in [1 << 63, UInt64.max, UInt64.max - 271] {
                    add("symbol \(s)[\(field)]=\(value)") { $0.write(value, at: at + field) }
                }
            }
        }
    }
    // Truncations at every boundary: in the header, at each section header, at each section's start and end.
    var cuts = Set([0, 1, 3, 4, 5, 16, 18, 20, 24, 32, 40, 48, 52, 56, 58, 60, 62, 63, 64])
    for i in 0..<original.sectionCount {
        cuts.insert(original.header(i))
        cuts.insert(original.header(i) + 32)
        let start = Int(clamping: original.offset(ofSection: i)),
            end = start + Int(clamping: original.size(ofSection: i))
        cuts.formUnion([start, start + 1, end - 1, end])
    }
    for cut in cuts.sorted() where cut >= 0 && cut < original.data.count {
        result.append(("cut at \(cut)", original.data.prefix(cut)))
    }
    // Seeded byte flips, one to eight bytes at a time.
    var random = SplitMix64(seed: seed)
    for n in 0..<flips {
        var copy = original.data
        for _ in 0...(n % 8) {
            let at = Int.random(in: 0..<copy.count, using: &random)
            copy[at] ^= UInt8.random(in: 1...255, using: &random)
        }
        result.append(("flips #\(n)", copy))
    }
    return result
}

@Suite("Hostile plugin files: bounded work, a one-line reason, never a crash")
struct HostileELFTests {
    @Test("Thousands of mutants of real plugins each return a plugin or a one-line rejection, quickly")
    func mutationCorpus() throws {
        let dir = try Fixtures.folder()
        let small = try Fixtures.compileC(minimalPlugin("Tiny"), name: "tiny", in: dir)
        let stripped = try Fixtures.compileC(minimalPlugin("Bare"), name: "bare", in: dir, extraFlags: ["-s"])
        // (file, byte-flip mutants, every how many mutants to keep): the Swift plugin is ten times larger.
        let sources: [(path: String, flips: Int, every: Int)] = [
            (Fixtures.buildDirectory + "/libFoobarCells.so", 600, 2), (small, 400, 2), (stripped, 200, 2),
            (Fixtures.buildDirectory + "/libDrawnCells.so", 200, 10),
        ]
        let mutant = dir + "/libmutant.so"
        let clock = ContinuousClock(), started = clock.now
        var total = 0, rejected = 0, read = 0
        for (index, source) in sources.enumerated() {
            let original = try ELFBytes(contentsOf: source.path)
            #expect(throws: Never.self) { try PluginFile.read(path: source.path).get() }
            let all = mutants(of: original, flips: source.flips, seed: UInt64(index + 1))
            for (label, bytes) in stride(from: 0, to: all.count, by: source.every).map({ all[$0] }) {
                total += 1
                switch try readMutant(bytes, at: mutant) {
                case .success: read += 1
                case .failure(let rejection):
                    rejected += 1
                    #expect(
                        !rejection.reason.isEmpty && !rejection.reason.contains("\n"),
                        "\(source.path) \(label): \(rejection.reason)")
                }
            }
        }
        let elapsed = clock.now - started
        #expect(total > 4000, "the corpus holds \(total) mutants")
        #expect(rejected > total / 10 && read > 0, "\(rejected) rejected, \(read) still read")
        #expect(elapsed < .seconds(240), "the corpus took \(elapsed)")
    }

    @Test("sh_offset near 2^64: the symbol table's and the descriptor's section each give their exact reason")
    func sectionOffsetNearTop() throws {
        let dir = try Fixtures.folder()
        let foobar = try ELFBytes(contentsOf: Fixtures.buildDirectory + "/libFoobarCells.so")
        let path = dir + "/libhuge.so"

        var bytes = foobar
        let dynsym = try #require(foobar.section(ofType: 11))
        bytes.write(UInt64.max - 15, at: foobar.header(dynsym) + 24)
        let rejection = try #require(try readMutant(bytes.data, at: path).failure)
        #expect(
            rejection.reason
                == "truncated file: the dynamic symbol table (section \(dynsym)), \(foobar.size(ofSection: dynsym)) bytes at sh_offset 0xfffffffffffffff0, lies past its end; rebuild the library, or move it off the plugin path"
        )

        // The descriptor's own section moved to the top of the address space (this trapped: offset + delta).
        let image = try ELFImage(bytes: foobar.data)
        let descriptor = try #require(image.dynamicSymbols.first { $0.name == "cellkit_plugin" })
        bytes = foobar
        bytes.write(UInt64.max - 15, at: foobar.header(Int(descriptor.sectionIndex)) + 24)
        #expect(
            try readMutant(bytes.data, at: path).failure?.reason
                == "its 'cellkit_plugin' symbol is not a 272-byte descriptor stored in the file; declare it with CK_PLUGIN(...)"
        )
        // The descriptor's value and size at the top, too.
        for (field, value) in [(8, UInt64.max - 15), (16, UInt64.max)] {
            bytes = foobar
            let table = Int(foobar.offset(ofSection: dynsym))
            // dynamicSymbols skips undefined entries, so find the entry by its value.
            let count = Int(foobar.size(ofSection: dynsym)) / 24
            let entry = try #require(
                (1..<count).first { foobar.read(table + $0 * 24 + 8, as: UInt64.self) == descriptor.value })
            bytes.write(value, at: table + entry * 24 + field)
            #expect(try readMutant(bytes.data, at: path).failure?.reason.contains("272-byte descriptor") == true)
        }
    }

    @Test("Many symbols naming one huge string: a name over the limit is refused at once")
    func hugeSharedName() throws {
        let dir = try Fixtures.folder()
        // 2 MiB of name with no NUL until its end, named by 80,000 symbols: a 4 MB file.
        let strings = [0] + [UInt8](repeating: UInt8(ascii: "A"), count: 2 << 20) + [0]
        let elf = ELFBytes.synthetic(symbols: 80_000, nameOffset: 1, strings: strings)
        #expect(elf.data.count > 4_000_000)
        let clock = ContinuousClock(), started = clock.now
        let rejection = try #require(try readMutant(elf.data, at: dir + "/libhuge.so").failure)
        #expect(clock.now - started < .seconds(30))
        #expect(
            rejection.reason
                == "too large to discover: symbol 1 of the dynamic symbol table (section 1) has a name longer than the limit of \(ELFLimits.maxSymbolNameBytes) bytes; no CellKit plugin needs that much, so the file is skipped (move it off the plugin path)"
        )
    }

    @Test("Many symbols sharing one long name under the per-name limit: read once, stopped by the total")
    func longSharedName() throws {
        let dir = try Fixtures.folder()
        let length = ELFLimits.maxSymbolNameBytes - 1
        let name = Array("initCellFor".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: length - 11)
        let elf = ELFBytes.synthetic(symbols: 150_000, nameOffset: 1, strings: [0] + name + [0])
        let clock = ContinuousClock(), started = clock.now
        let rejection = try #require(try readMutant(elf.data, at: dir + "/libshared.so").failure)
        #expect(clock.now - started < .seconds(30))
        let stop = ELFLimits.maxTotalNameBytes / length + 1  // the symbol whose name passes the total
        #expect(
            rejection.reason
                == "too large to discover: its symbol names total more than the limit of \(ELFLimits.maxTotalNameBytes) bytes at symbol \(stop) of the dynamic symbol table (section 1); no CellKit plugin needs that much, so the file is skipped (move it off the plugin path)"
        )

        // Under every limit: 100,000 symbols share one 51-byte hook name; the result is bounded and quick.
        let short = Array("initCellFor".utf8) + [UInt8](repeating: UInt8(ascii: "y"), count: 40)
        let many = ELFBytes.synthetic(symbols: 100_000, nameOffset: 1, strings: [0] + short + [0])
        let again = clock.now
        let image = try ELFImage(bytes: many.data)
        #expect(image.dynamicSymbols.count == 100_000)
        let reason = try #require(try readMutant(many.data, at: dir + "/libmany.so").failure?.reason)
        #expect(reason.hasPrefix("exports hooks (initCellForyyy"))
        #expect(clock.now - again < .seconds(60))
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        // The whole test process's peak (tests run in parallel): a bound far below the 6 GB
        // such a file once took, not a measure of this test alone.
        #expect(usage.ru_maxrss < 4 << 20, "peak memory \(usage.ru_maxrss) KiB")
    }

    @Test("Every other limit: symbols per table, sections, file size, signature length and demangled names")
    func otherLimits() throws {
        let dir = try Fixtures.folder()
        let tooMany = ELFBytes.synthetic(symbols: ELFLimits.maxSymbolsPerTable, nameOffset: 1, strings: [0, 65, 0])
        #expect(
            try readMutant(tooMany.data, at: dir + "/libmany.so").failure?.reason
                == "too large to discover: the dynamic symbol table (section 1) has \(ELFLimits.maxSymbolsPerTable + 1) entries, over the limit of \(ELFLimits.maxSymbolsPerTable); no CellKit plugin needs that much, so the file is skipped (move it off the plugin path)"
        )

        var sections = ELFBytes.synthetic(symbols: 1, nameOffset: 1, strings: [0, 65, 0])
        sections.write(UInt16(ELFLimits.maxSections + 1), at: 0x3C)
        #expect(
            try readMutant(sections.data, at: dir + "/libsections.so").failure?.reason
                == "too large to discover: e_shnum says \(ELFLimits.maxSections + 1) section headers, over the limit of \(ELFLimits.maxSections); no CellKit plugin needs that much, so the file is skipped (move it off the plugin path)"
        )

        let big = dir + "/libbig.so"
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        #expect(truncate(big, off_t(ELFLimits.maxFileBytes + 1)) == 0)  // sparse: costs no disk
        #expect(
            PluginFile.read(path: big).failure?.reason
                == "too large to discover: the file has more than \(ELFLimits.maxFileBytes) bytes, over the limit of \(ELFLimits.maxFileBytes); no CellKit plugin needs that much, so the file is skipped (move it off the plugin path)"
        )

        let long = String(repeating: "(cell, ", count: 60)
        let path = try Fixtures.compileC(
            minimalPlugin("Wordy") + "\nCK_SIGNATURE(customizeCellForWordy, \"void \(long)\");", name: "wordy", in: dir)
        let plugin = try PluginFile.read(path: path).get()
        #expect(
            plugin.problems == [
                "hook customizeCellForWordy: its signature cellkit_signature_customizeCellForWordy is longer than the limit of \(PluginFile.maxSignatureBytes) bytes; write it like \"void (cell, row)\""
            ])

        let mangled = "$s6Plugin17initCellForFoobaryyF"
        #expect(NearMiss.swiftFunctionName(mangled) == "initCellForFoobar")
        #expect(
            NearMiss.swiftFunctionName(mangled + String(repeating: "y", count: NearMiss.maxDemangledNameBytes)) == nil)
    }
}

// MARK: - Commands go on

@Suite("A broken plugin file stops no command")
struct BrokenPluginCommandTests {
    let command = CellKitTool()

    /// A folder holding a plugin whose dynamic symbol table lies at 2^64 - 16, and garbage named like a library.
    func brokenFolder() throws -> (folder: String, broken: String) {
        let dir = try Fixtures.folder()
        var bytes = try ELFBytes(contentsOf: Fixtures.buildDirectory + "/libFoobarCells.so")
        let dynsym = try #require(bytes.section(ofType: 11))
        let image = try ELFImage(bytes: bytes.data)
        let descriptor = try #require(image.dynamicSymbols.first { $0.name == "cellkit_plugin" })
        bytes.write(UInt64.max - 15, at: bytes.header(Int(descriptor.sectionIndex)) + 24)
        try write(bytes.data, to: dir + "/libbroken.so")
        bytes.write(UInt64.max - 15, at: bytes.header(dynsym) + 24)
        try write(bytes.data, to: dir + "/libbroken2.so")
        let strings = [0] + [UInt8](repeating: UInt8(ascii: "A"), count: 1 << 20) + [0]
        try ELFBytes.synthetic(symbols: 40_000, nameOffset: 1, strings: strings).data.write(
            to: URL(fileURLWithPath: dir + "/libhuge.so"))
        return (dir, dir + "/libbroken.so")
    }

    @Test("render draws a table of built-in cells though a broken .so sits on the plugin path")
    func renderGoesOn() throws {
        let (dir, _) = try brokenFolder()
        let table = try Render.write([
            "table.yaml": """
            title: Built-ins only
            width: 40
            sections:
              - rows:
                  - {cell: Default, text: Plain row}
                  - {cell: Subtitle, text: Second row, detail: with detail}

            """
        ])
        let (status, text) = try command.cellkit(["render", table + "/table.yaml", "--plugin-path", dir])
        #expect(status == 0, "\(text)")
        #expect(text.contains("Plain row") && text.contains("Second row"), "\(text)")
    }

    @Test("list shows each broken file under Skipped, one line each; inspect gives the same reason")
    func listAndInspect() throws {
        let (dir, broken) = try brokenFolder()
        let (status, text) = try command.cellkit(["list", "--plugin-path", dir])
        #expect(status == 0, "\(text)")
        let expected =
            "  \(broken): its 'cellkit_plugin' symbol is not a 272-byte descriptor stored in the file; declare it with CK_PLUGIN(...)"
        #expect(text.contains("Skipped:\n") && text.contains(expected + "\n"), "\(text)")
        #expect(text.contains("libbroken2.so: truncated file: the dynamic symbol table"))
        #expect(text.contains("libhuge.so: too large to discover: symbol 1 of the dynamic symbol table"))
        #expect(text.contains("Foobar"), "the real plugins beside the binary are still listed")

        let (inspected, output) = try command.cellkit(["inspect", broken])
        #expect(inspected == 1)
        #expect(output == String(expected.dropFirst(2)) + "\n")
    }

    @Test("list marks a search-path folder that does not exist, and says so under Skipped")
    func listMissingFolder() throws {
        let missing = try Fixtures.folder() + "/no-such-plugins"
        let (status, text) = try command.cellkit(["list", "--plugin-path", missing])
        #expect(status == 0, "\(text)")
        #expect(text.contains("  1. \(missing) (no such folder)  (--plugin-path)\n"), "\(text)")
        #expect(text.contains("  \(missing): no such folder (given by --plugin-path)\n"), "\(text)")
    }
}

extension Result {
    /// The error, if this is a failure.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

@Suite("Run paths")
struct RunPathTests {
    /// The file cut inside and after each dynamic entry of `original`; each entry whose tag is
    /// DT_RUNPATH, DT_RPATH or DT_NULL pointed at the edges of its string table and retagged, and the
    /// string it names cut or unterminated.
    static func dynamicMutants(of original: ELFBytes) -> [(String, Data)] {
        guard let dynamic = original.section(ofType: 6) else { return [] }
        let base = Int(original.offset(ofSection: dynamic)), strings = original.link(ofSection: dynamic)
        let stringsSize = original.size(ofSection: strings), stringsAt = Int(original.offset(ofSection: strings))
        var result: [(String, Data)] = []
        // The section moved to the file's end, after the section headers (which ld writes last, so
        // that a file cut anywhere before them fails at them, read whole or in pieces), then cut
        // inside and after each entry: the entries before DT_NULL must all be in the file.
        let entries = original.data[base..<(base + Int(original.size(ofSection: dynamic)))]
        var moved = original
        moved.write(UInt64(original.data.count), at: original.header(dynamic) + 24)
        moved.data += entries
        for end in stride(from: 0, through: entries.count, by: 8) {
            result.append(
                ("the dynamic section at the end, cut at \(end)", moved.data.prefix(original.data.count + end)))
        }
        // The section headers laid out again 80 and 200 bytes apart (e_shentsize), at the file's end.
        for stride in [80, 200] {
            var spaced = original
            spaced.write(UInt64(original.data.count), at: 0x28)
            spaced.write(UInt16(stride), at: 0x3A)
            for k in 0..<original.sectionCount {
                spaced.data += original.data[original.header(k)..<(original.header(k) + 64)]
                spaced.data += Data(count: stride - 64)
            }
            result.append(("section headers \(stride) bytes apart", spaced.data))
        }
        for i in 0..<Int(original.size(ofSection: dynamic)) / 16 {
            let at = base + i * 16, tag = original.read(at, as: UInt64.self)
            guard [29, 15, 0].contains(tag) else { continue }
            let value = original.read(at + 8, as: UInt64.self)
            for edge: UInt64 in [0, 1, stringsSize - 1, stringsSize, stringsSize + 1, 1 << 32, UInt64.max] {
                var copy = original
                copy.write(edge, at: at + 8)
                result.append(("entry \(i) value=\(edge)", copy.data))
            }
            for newTag: UInt64 in [29, 15, 0, 1] where newTag != tag {
                var copy = original
                copy.write(newTag, at: at)
                result.append(("entry \(i) tag=\(newTag)", copy.data))
            }
            if tag != 0, Int(value) < Int(stringsSize) {
                let text = stringsAt + Int(value)
                for size in [value, value + 1, value + 2] {  // the string table ending in or before the string
                    var cut = original
                    cut.write(size, at: original.header(strings) + 32)
                    result.append(("entry \(i)'s string table \(size) bytes", cut.data))
                }
                var copy = original  // its NUL and every later one gone: no end before the table's
                for k in text..<(stringsAt + Int(stringsSize)) where copy.data[k] == 0 { copy.data[k] = 0x41 }
                result.append(("entry \(i)'s string unterminated", copy.data))
            }
        }
        return result
    }

    @Test(
        "Run paths read in pieces are those read whole: plugins with DT_RUNPATH and DT_RPATH, and every mutant of them"
    )
    func piecesMatchWhole() throws {
        let dir = try Fixtures.folder()
        let runpath = try Fixtures.compileC(
            minimalPlugin("Ran"), name: "ran", in: dir,
            extraFlags: ["-Wl,-rpath,$ORIGIN/lib:/opt/x/lib", "-Wl,-rpath,${ORIGIN}/../y", "-Wl,--enable-new-dtags"])
        let rpath = try Fixtures.compileC(
            minimalPlugin("Old"), name: "old", in: dir, extraFlags: ["-Wl,-rpath,$ORIGIN/r", "-Wl,--disable-new-dtags"])
        #expect(ELFImage.libraryFolders(ofFile: runpath) == [dir + "/lib", "/opt/x/lib", dir + "/../y"])
        #expect(ELFImage.libraryFolders(ofFile: rpath) == [dir + "/r"])
        let bundled = Fixtures.buildDirectory + "/libFoobarCells.so"  // SwiftPM's: the Swift runtime's folder
        let bundledWhole = try ELFImage(bytes: Data(contentsOf: URL(fileURLWithPath: bundled)), symbols: false)
            .libraryFolders(origin: Fixtures.buildDirectory)
        #expect(!bundledWhole.isEmpty && ELFImage.libraryFolders(ofFile: bundled) == bundledWhole, "\(bundledWhole)")
        let mutant = dir + "/libmutant.so"
        var total = 0, nonEmpty = 0
        for (index, source) in [runpath, rpath].enumerated() {
            let original = try ELFBytes(contentsOf: source)
            let all = Self.dynamicMutants(of: original) + mutants(of: original, flips: 300, seed: UInt64(index + 7))
            for (label, bytes) in all {
                try write(bytes, to: mutant)
                let whole = (try? ELFImage(bytes: bytes, symbols: false))?.libraryFolders(origin: dir) ?? []
                let pieces = ELFImage.libraryFolders(ofFile: mutant)
                #expect(pieces == whole, "\(source) \(label)")
                total += 1
                if !pieces.isEmpty { nonEmpty += 1 }
            }
        }
        #expect(total > 1000 && nonEmpty > total / 4 && nonEmpty < total, "\(nonEmpty) of \(total) have folders")
    }

    @Test(
        "$ORIGIN and ${ORIGIN} become the plugin's folder wherever they stand; other entries stay as written",
        arguments: [
            ("$ORIGIN", "/p/lib"), ("${ORIGIN}/../lib", "/p/lib/../lib"), ("/usr/lib/swift", "/usr/lib/swift"),
            ("$ORIGIN/a:$ORIGIN", "/p/lib/a:/p/lib"), ("$LIB/x", "$LIB/x"),
        ])
    func substitutes(entry: String, expected: String) {
        let substituted = entry.split(separator: ":").map { ELFImage.substitutingOrigin($0, "/p/lib") }
        #expect(substituted.joined(separator: ":") == expected)
    }
}
