// Reads the symbol tables of an ELF shared library from its bytes, without
// loading it: discovery must never run plugin code. Every offset in the file is
// checked before it is read, because the file may be truncated or hostile.

import CellKitModel
import Foundation

// MARK: - Symbols

/// One entry of an ELF symbol table that is defined in the file.
package struct ELFSymbol: Sendable, Equatable {
    /// What the symbol names.
    package enum Kind: Sendable { case function, object, other }
    /// The symbol's name as stored (Swift symbols are mangled).
    package let name: String
    package let kind: Kind
    /// Whether another module can see it: global or weak binding and default or protected visibility.
    package let isExported: Bool
    let value: UInt64
    let size: UInt64
    let sectionIndex: UInt16
}

// MARK: - Problems

/// Why a file is not a loadable ELF shared library for this machine.
package enum ELFProblem: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case notELF(firstBytes: [UInt8])
    case wrongClass(bits: Int)
    case wrongByteOrder
    case wrongMachine(String)
    case notSharedLibrary(type: UInt16)
    case truncated(String)
    case malformed(String)

    package var description: String {
        switch self {
        case .empty: "empty file (0 bytes): not a shared library"
        case .notELF(let bytes):
            "not an ELF file (starts with \(bytes.map { String(format: "%02x", $0) }.joined(separator: " ")))"
        case .wrongClass(let bits): "\(bits)-bit ELF file; this host loads only \(ELFImage.hostBits)-bit libraries"
        case .wrongByteOrder: "big-endian ELF file; this host is little-endian"
        case .wrongMachine(let m): "ELF file for \(m); this host is \(ELFImage.machineName(ELFImage.hostMachine))"
        case .notSharedLibrary(let type): "ELF file of type \(ELFImage.typeName(type)), not a shared library (ET_DYN)"
        case .truncated(let what): "truncated file: \(what) lies past its end"
        case .malformed(let what): "malformed ELF file: \(what)"
        }
    }
}

// MARK: - The image

/// The parts of an ELF64 little-endian shared library that discovery needs.
package struct ELFImage: Sendable {
    /// Symbols in the dynamic symbol table (what dlsym can find).
    package let dynamicSymbols: [ELFSymbol]
    /// Symbols in the static symbol table, if the file was not stripped (includes hidden and local ones).
    package let staticSymbols: [ELFSymbol]
    private let bytes: Data
    private let sections: [Section]

    struct Section {
        let type: UInt32, address: UInt64, offset: UInt64, size: UInt64, link: UInt32, entrySize: UInt64
    }

    #if arch(x86_64)
    static let hostMachine: UInt16 = 62
    #elseif arch(arm64)
    static let hostMachine: UInt16 = 183
    #else
    static let hostMachine: UInt16 = 0
    #endif
    static let hostBits = MemoryLayout<Int>.size * 8

    /// Parses `bytes`; throws the first reason the file cannot be a plugin for this host.
    package init(bytes: Data) throws(ELFProblem) {
        self.bytes = bytes
        try Self.checkIdentity(bytes)
        sections = try Self.readSections(bytes)
        dynamicSymbols = try Self.readSymbols(bytes, sections, type: 11)  // SHT_DYNSYM
        staticSymbols = try Self.readSymbols(bytes, sections, type: 2)  // SHT_SYMTAB
    }

    /// Reads and parses the file at `path`.
    package init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        try self.init(bytes: data)
    }

    /// The bytes a data symbol occupies in the file, or nil if they are not stored there.
    package func contents(of symbol: ELFSymbol) -> Data? {
        guard Int(symbol.sectionIndex) < sections.count, symbol.size > 0, symbol.size < 1 << 20 else { return nil }
        let section = sections[Int(symbol.sectionIndex)]
        guard section.type != 8,  // SHT_NOBITS: .bss has no bytes in the file
            symbol.value >= section.address, symbol.value - section.address + symbol.size <= section.size
        else { return nil }
        let start = section.offset + (symbol.value - section.address)
        guard let range = Self.range(start, symbol.size, in: bytes) else { return nil }
        return bytes.subdata(in: range)
    }

    // MARK: Header

    private static func checkIdentity(_ b: Data) throws(ELFProblem) {
        guard !b.isEmpty else { throw .empty }
        guard b.count >= 4, b.prefix(4).elementsEqual([0x7F, 0x45, 0x4C, 0x46]) else {
            throw .notELF(firstBytes: Array(b.prefix(4)))
        }
        guard b.count >= 64 else { throw .truncated("the 64-byte ELF header") }
        let base = b.startIndex
        guard b[base + 4] == 2 else { throw .wrongClass(bits: b[base + 4] == 1 ? 32 : 0) }
        guard b[base + 5] == 1 else { throw .wrongByteOrder }
        let machine = try u16(b, 18)
        guard machine == hostMachine else { throw .wrongMachine(machineName(machine)) }
        let type = try u16(b, 16)
        guard type == 3 else { throw .notSharedLibrary(type: type) }
    }

    private static func readSections(_ b: Data) throws(ELFProblem) -> [Section] {
        let offset = try u64(b, 0x28), entrySize = try u16(b, 0x3A), count = try u16(b, 0x3C)
        guard offset != 0, count != 0 else {
            throw .malformed("it has no section headers (was it stripped with sstrip?)")
        }
        guard entrySize >= 64 else { throw .malformed("section header entries of \(entrySize) bytes, expected 64") }
        guard range(offset, UInt64(count) * UInt64(entrySize), in: b) != nil else {
            throw .truncated("the section header table (\(count) entries at offset \(offset))")
        }
        var result: [Section] = []
        for i in 0..<Int(count) {
            let at = Int(offset) + i * Int(entrySize)
            result.append(
                Section(
                    type: try u32(b, at + 4), address: try u64(b, at + 16), offset: try u64(b, at + 24),
                    size: try u64(b, at + 32), link: try u32(b, at + 40), entrySize: try u64(b, at + 56)))
        }
        return result
    }

    // MARK: Symbols

    private static func readSymbols(_ b: Data, _ sections: [Section], type: UInt32) throws(ELFProblem) -> [ELFSymbol] {
        guard let table = sections.first(where: { $0.type == type }) else { return [] }
        guard Int(table.link) < sections.count else { throw .malformed("symbol table links to section \(table.link)") }
        let strings = sections[Int(table.link)]
        guard range(table.offset, table.size, in: b) != nil else { throw .truncated("the symbol table") }
        guard let stringRange = range(strings.offset, strings.size, in: b) else { throw .truncated("the symbol names") }
        let entrySize = table.entrySize == 0 ? 24 : table.entrySize
        guard entrySize >= 24 else { throw .malformed("symbol entries of \(entrySize) bytes, expected 24") }
        var symbols: [ELFSymbol] = []
        for i in 1..<max(1, Int(table.size / entrySize)) {  // entry 0 is always the null symbol
            let at = Int(table.offset) + i * Int(entrySize)
            let info = try u8(b, at + 4), other = try u8(b, at + 5), sectionIndex = try u16(b, at + 6)
            guard sectionIndex != 0 else { continue }  // SHN_UNDEF: imported, not defined here
            let name = try string(b, in: stringRange, at: Int(try u32(b, at)))
            let kind: ELFSymbol.Kind =
                switch info & 0xF {
                case 2, 10: .function;
                case 1: .object;
                default: .other
                }
            let bind = info >> 4, visibility = other & 3
            symbols.append(
                ELFSymbol(
                    name: name, kind: kind,
                    isExported: (bind == 1 || bind == 2) && (visibility == 0 || visibility == 3),
                    value: try u64(b, at + 8), size: try u64(b, at + 16), sectionIndex: sectionIndex))
        }
        return symbols
    }

    private static func string(_ b: Data, in table: Range<Int>, at offset: Int) throws(ELFProblem) -> String {
        guard offset < table.count else { throw .malformed("a symbol name lies outside the string table") }
        let start = table.lowerBound + offset
        guard let end = b[start..<table.upperBound].firstIndex(of: 0) else {
            throw .malformed("an unterminated symbol name")
        }
        return String(decoding: b[start..<end], as: UTF8.self)
    }

    // MARK: Bounds-checked reads

    static func range(_ offset: UInt64, _ length: UInt64, in b: Data) -> Range<Int>? {
        let (end, overflow) = offset.addingReportingOverflow(length)
        guard !overflow, end <= UInt64(b.count) else { return nil }
        return (b.startIndex + Int(offset))..<(b.startIndex + Int(end))
    }

    private static func load<T: FixedWidthInteger>(_ b: Data, _ offset: Int, as: T.Type) throws(ELFProblem) -> T {
        guard offset >= 0, offset + MemoryLayout<T>.size <= b.count else {
            throw .truncated("a field at offset \(offset)")
        }
        return b.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
    }
    private static func u8(_ b: Data, _ o: Int) throws(ELFProblem) -> UInt8 { try load(b, o, as: UInt8.self) }
    private static func u16(_ b: Data, _ o: Int) throws(ELFProblem) -> UInt16 { try load(b, o, as: UInt16.self) }
    private static func u32(_ b: Data, _ o: Int) throws(ELFProblem) -> UInt32 { try load(b, o, as: UInt32.self) }
    private static func u64(_ b: Data, _ o: Int) throws(ELFProblem) -> UInt64 { try load(b, o, as: UInt64.self) }

    // MARK: Names

    static func machineName(_ m: UInt16) -> String {
        switch m {
        case 3: "i386"
        case 8: "MIPS"
        case 20: "PowerPC"
        case 21: "PowerPC64"
        case 40: "ARM (32-bit)"
        case 62: "x86_64"
        case 183: "aarch64"
        case 243: "RISC-V"
        default: "machine \(m)"
        }
    }

    static func typeName(_ t: UInt16) -> String {
        switch t {
        case 1: "ET_REL (an object file: link it with -shared)"
        case 2: "ET_EXEC (an executable)"
        case 4: "ET_CORE (a core dump)"
        default: "\(t)"
        }
    }
}
