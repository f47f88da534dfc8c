// Reads the symbol tables of an ELF shared library from its bytes, without
// loading it: discovery must never run plugin code. The file may be truncated or
// hostile, so every offset, size and count in it is checked with arithmetic that
// cannot trap (an `sh_offset` near 2^64 is a reason to skip the file, not a crash),
// and the work one file can cost is bounded by the limits in `ELFLimits`.

import CellKitModel
import Foundation

// MARK: - Limits

/// How much work discovery spends on one file at most. A file over a limit is skipped
/// with a one-line reason naming the limit; every real CellKit plugin stays far below them.
package enum ELFLimits {
    /// The largest file discovery reads: 64 MiB (a debug build of a Swift plugin is a few MiB).
    package static let maxFileBytes = 64 << 20
    /// The most section headers a file may have: 4,096 (linkers write about 40).
    package static let maxSections = 4096
    /// The most entries one symbol table (`.dynsym` or `.symtab`) may have: 262,144.
    package static let maxSymbolsPerTable = 1 << 18
    /// The longest symbol name, in bytes without its NUL: 16 KiB (long Swift mangled names are a few hundred).
    package static let maxSymbolNameBytes = 16 << 10
    /// The most name bytes all defined symbols of a file may add up to: 16 MiB. A name is
    /// counted once for every symbol that uses it (the later checks look at every symbol's
    /// name), but read and stored only once, however many symbols share it.
    package static let maxTotalNameBytes = 16 << 20
}

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
    /// `what` (a part of the file, with its place) lies past the end of the file.
    case truncated(String)
    /// `what` (a field, with its place) breaks the ELF format.
    case malformed(String)
    /// `what` is over one of `ELFLimits`.
    case overLimit(String)

    package var description: String {
        switch self {
        case .empty: "empty file (0 bytes): not a shared library"
        case .notELF(let bytes):
            "not an ELF file (starts with \(bytes.map { String(format: "%02x", $0) }.joined(separator: " ")))"
        case .wrongClass(let bits): "\(bits)-bit ELF file; this host loads only \(ELFImage.hostBits)-bit libraries"
        case .wrongByteOrder: "big-endian ELF file; this host is little-endian"
        case .wrongMachine(let m): "ELF file for \(m); this host is \(ELFImage.machineName(ELFImage.hostMachine))"
        case .notSharedLibrary(let type): "ELF file of type \(ELFImage.typeName(type)), not a shared library (ET_DYN)"
        case .truncated(let what):
            "truncated file: \(what) lies past its end; rebuild the library, or move it off the plugin path"
        case .malformed(let what):
            "malformed ELF file: \(what); rebuild the library, or move it off the plugin path"
        case .overLimit(let what):
            "too large to discover: \(what); no CellKit plugin needs that much, so the file is skipped (move it off the plugin path)"
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
    /// `symbols: false` reads the sections only (no symbol is listed): what `libraryFolders`
    /// needs, in a fraction of the time, for a plugin a sandboxed worker is about to load (BENCHMARKS.md,
    /// "Measurements behind the code": ELFImage.sections).
    package init(bytes: Data, symbols: Bool = true) throws(ELFProblem) {
        guard bytes.count <= ELFLimits.maxFileBytes else {
            throw .overLimit("the file has \(bytes.count) bytes, over the limit of \(ELFLimits.maxFileBytes)")
        }
        self.bytes = bytes
        let parsed: (sections: [Section], dynamic: [ELFSymbol], static: [ELFSymbol])
        do {
            parsed = try bytes.withUnsafeBytes { raw in
                let file = Reader(raw)
                try Self.checkIdentity(file)
                let sections = try Self.readSections(file)
                guard symbols else { return (sections, [], []) }
                var names = NameBudget()
                let dynamic = try Self.readSymbols(file, sections, type: 11, names: &names)  // SHT_DYNSYM
                let statics = try Self.readSymbols(file, sections, type: 2, names: &names)  // SHT_SYMTAB
                return (sections, dynamic, statics)
            }
        } catch let problem as ELFProblem {
            throw problem
        } catch {
            throw .malformed("\(error)")  // not reached: the parser throws only ELFProblem
        }
        sections = parsed.sections
        dynamicSymbols = parsed.dynamic
        staticSymbols = parsed.static
    }

    /// The folders the dynamic loader searches for this library's dependencies: its DT_RUNPATH
    /// (else DT_RPATH) entries, `$ORIGIN` replaced by `folder` (the library's own); entries with
    /// other tokens are left out. Empty when there are none or the dynamic section is malformed.
    package func libraryFolders(origin folder: String) -> [String] {
        var entries: [(tag: UInt64, text: String)] = []
        guard dynamicStrings(tags: Self.runPathTags, { entries.append(($0, $1)) }) else { return [] }
        return Self.libraryFolders(entries, origin: folder)
    }

    /// DT_RUNPATH and DT_RPATH.
    static let runPathTags: Set<UInt64> = [29, 15]

    /// The folders run-path `entries` (tag, text) name: DT_RUNPATH's, else DT_RPATH's, `$ORIGIN`
    /// replaced by `folder`; entries with other tokens, or not absolute, left out.
    static func libraryFolders(_ entries: [(tag: UInt64, text: String)], origin folder: String) -> [String] {
        var runpath: [String] = [], rpath: [String] = []
        for (tag, text) in entries {
            let folders = text.split(separator: ":").map { Self.substitutingOrigin($0, folder) }
            if tag == 29 { runpath += folders } else { rpath += folders }
        }
        return (runpath.isEmpty ? rpath : runpath).filter { $0.hasPrefix("/") && !$0.contains("$") }
    }

    /// `entry` with `$ORIGIN` and `${ORIGIN}` replaced by `folder`, as the loader reads a run path.
    /// On bytes: Foundation's `replacingOccurrences` (bridged through NSString), and the standard
    /// library's `replacing` too, cost a worker's start more than the rest of reading the run path
    /// (BENCHMARKS.md, "Measurements behind the code": ELFImage.origin).
    static func substitutingOrigin(_ entry: Substring, _ folder: String) -> String {
        let bytes = Array(entry.utf8)
        guard bytes.contains(UInt8(ascii: "$")) else { return String(entry) }
        let tokens = [Array("${ORIGIN}".utf8), Array("$ORIGIN".utf8)]
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "$"), let token = tokens.first(where: { bytes[i...].starts(with: $0) }) {
                out += folder.utf8
                i += token.count
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The libraries this one needs (its DT_NEEDED entries: `libswiftCore.so`), in order; those
    /// before a malformed entry, empty when the dynamic section is malformed.
    package var neededLibraries: [String] {
        var needed: [String] = []
        _ = dynamicStrings(tags: [1]) { _, name in needed.append(name) }  // DT_NEEDED
        return needed
    }

    /// Calls `body` with each entry of the dynamic section whose tag is in `tags` and whose value
    /// names a string of its string table, in order, up to DT_NULL; false when the section is
    /// missing or malformed (at most 4,096 entries), or an entry cannot be read.
    private func dynamicStrings(tags: Set<UInt64>, _ body: (UInt64, String) -> Void) -> Bool {
        guard let dynamic = sections.first(where: { $0.type == 6 }),  // SHT_DYNAMIC
            Int(dynamic.link) < sections.count
        else { return false }
        let strings = sections[Int(dynamic.link)]
        return bytes.withUnsafeBytes { raw -> Bool in
            let file = Reader(raw)
            guard let table = file.range(strings.offset, strings.size), dynamic.size / 16 <= 4096 else { return false }
            for i in 0..<(dynamic.size / 16) {
                guard let at = try? file.entry(dynamic.offset, index: i, stride: 16, "dynamic entry"),
                    let tag = try? file.u64(at, 0, "d_tag"), let value = try? file.u64(at, 8, "d_val")
                else { return false }
                if tag == 0 { break }  // DT_NULL
                guard tags.contains(tag), value <= UInt64(UInt32.max),
                    let text = try? file.name(at: UInt32(value), in: table, "a dynamic entry's string")
                else { continue }
                body(tag, text)
            }
            return true
        }
    }

    /// Whether the library is built from Swift: it needs the Swift runtime (`libswiftCore.so`), or
    /// defines Swift symbols (`$s…`, mangled; a plugin linked with the static Swift runtime needs no
    /// runtime library). Its hooks are then `@_cdecl` functions, exported only when `public`.
    package var isSwift: Bool {
        neededLibraries.contains { $0.hasPrefix("libswiftCore.so") }
            || (dynamicSymbols + staticSymbols).contains { $0.name.hasPrefix("$s") || $0.name.hasPrefix("_$s") }
    }

    /// Whether the library at `path` is built from Swift (`isSwift`); false when it cannot be read.
    package static func isSwiftLibrary(atPath path: String) -> Bool {
        guard case .success(let data) = PluginFile.readFile(path), let image = try? ELFImage(bytes: data) else {
            return false
        }
        return image.isSwift
    }

    /// The dependency folders (`libraryFolders(origin:)`) of the library at `path`, opened as
    /// discovery opens one (a regular file, at most `ELFLimits.maxFileBytes`, never a FIFO that
    /// would block); empty when it cannot be read. The same answer as `libraryFolders(origin:)` of
    /// the whole file, read in pieces (`RunPathPieces`): a sandboxed worker asks it of every plugin it
    /// is about to load, and reading a Swift plugin linked with the static runtime (8.7 MB) whole
    /// for a few hundred bytes made the 4-row render take 13,858 page faults instead of 1,225
    /// (BENCHMARKS.md, "Measurements behind the code": ELFImage.runPathPieces).
    package static func libraryFolders(ofFile path: String) -> [String] {
        guard case .success(let fd) = PluginFile.openFile(path) else { return [] }
        defer { close(fd) }
        guard let entries = RunPathPieces(fd: fd)?.entries() else { return [] }
        return libraryFolders(entries, origin: PathText.folder(of: path))
    }

    /// At most the first `limit` bytes of a data symbol, or nil if the symbol's bytes
    /// do not lie within its section and the file (such as `.bss`, which has none there).
    package func contents(of symbol: ELFSymbol, atMost limit: Int) -> Data? {
        guard Int(symbol.sectionIndex) < sections.count, symbol.size > 0 else { return nil }
        let section = sections[Int(symbol.sectionIndex)]
        guard section.type != 8,  // SHT_NOBITS: .bss has no bytes in the file
            symbol.value >= section.address
        else { return nil }
        let delta = symbol.value - section.address
        guard delta <= section.size, symbol.size <= section.size - delta,
            let start = Reader.sum(section.offset, delta)
        else { return nil }
        let file = UInt64(bytes.count)
        guard start <= file, symbol.size <= file - start else { return nil }
        let length = min(symbol.size, UInt64(max(0, limit)))
        let lower = bytes.startIndex + Int(start)
        return bytes.subdata(in: lower..<(lower + Int(length)))
    }

    // MARK: Header

    fileprivate static func checkIdentity(_ file: Reader) throws(ELFProblem) {
        guard file.count > 0 else { throw .empty }
        guard file.count >= 4, file.bytes.prefix(4).elementsEqual([0x7F, 0x45, 0x4C, 0x46]) else {
            throw .notELF(firstBytes: Array(file.bytes.prefix(4)))
        }
        guard file.count >= 64 else { throw .truncated("the 64-byte ELF header") }
        let elfClass = try file.u8(4, "EI_CLASS")
        guard elfClass == 2 else { throw .wrongClass(bits: elfClass == 1 ? 32 : 0) }
        guard try file.u8(5, "EI_DATA") == 1 else { throw .wrongByteOrder }
        let machine = try file.u16(18, "e_machine")
        guard machine == hostMachine else { throw .wrongMachine(machineName(machine)) }
        let type = try file.u16(16, "e_type")
        guard type == 3 else { throw .notSharedLibrary(type: type) }
    }

    private static func readSections(_ file: Reader) throws(ELFProblem) -> [Section] {
        let offset = try file.u64(0x28, "e_shoff"), entrySize = try file.u16(0x3A, "e_shentsize")
        let count = try file.u16(0x3C, "e_shnum")
        guard offset != 0, count != 0 else {
            throw .malformed("it has no section headers (was it stripped with sstrip?)")
        }
        guard Int(count) <= ELFLimits.maxSections else {
            throw .overLimit("e_shnum says \(count) section headers, over the limit of \(ELFLimits.maxSections)")
        }
        guard entrySize >= 64 else {
            throw .malformed("e_shentsize is \(entrySize) bytes per section header, expected 64")
        }
        // count and entrySize are 16-bit, so their product cannot overflow 64 bits.
        guard file.range(offset, UInt64(count) * UInt64(entrySize)) != nil else {
            throw .truncated(
                "the section header table (e_shoff \(hex(offset)), \(count) entries of \(entrySize) bytes)")
        }
        var result: [Section] = []
        result.reserveCapacity(Int(count))
        for i in 0..<UInt64(count) {
            let at = try file.entry(offset, index: i, stride: UInt64(entrySize), "section header \(i)")
            result.append(
                Section(
                    type: try file.u32(at, 4, "section header \(i)"),
                    address: try file.u64(at, 16, "section header \(i)"),
                    offset: try file.u64(at, 24, "section header \(i)"),
                    size: try file.u64(at, 32, "section header \(i)"),
                    link: try file.u32(at, 40, "section header \(i)"),
                    entrySize: try file.u64(at, 56, "section header \(i)")))
        }
        return result
    }

    // MARK: Symbols

    /// The name bytes a file has used so far, against `ELFLimits.maxTotalNameBytes`.
    private struct NameBudget {
        var used = 0
    }

    private static func readSymbols(_ file: Reader, _ sections: [Section], type: UInt32, names budget: inout NameBudget)
        throws(ELFProblem) -> [ELFSymbol]
    {
        guard let index = sections.firstIndex(where: { $0.type == type }) else { return [] }
        let table = sections[index]
        let what = "the \(type == 11 ? "dynamic" : "static") symbol table (section \(index))"
        guard table.link < sections.count else {
            throw .malformed("\(what) has sh_link \(table.link), but the file has \(sections.count) sections")
        }
        let strings = sections[Int(table.link)]
        guard file.range(table.offset, table.size) != nil else {
            throw .truncated("\(what), \(table.size) bytes at sh_offset \(hex(table.offset)),")
        }
        guard let stringRange = file.range(strings.offset, strings.size) else {
            throw .truncated(
                "the names of \(what) (section \(table.link), \(strings.size) bytes at sh_offset \(hex(strings.offset))),"
            )
        }
        let entrySize = table.entrySize == 0 ? 24 : table.entrySize
        guard entrySize >= 24 else { throw .malformed("\(what) has sh_entsize \(entrySize), expected 24") }
        let count = table.size / entrySize
        guard count <= UInt64(ELFLimits.maxSymbolsPerTable) else {
            throw .overLimit("\(what) has \(count) entries, over the limit of \(ELFLimits.maxSymbolsPerTable)")
        }
        var symbols: [ELFSymbol] = []
        var decoded: [UInt32: String] = [:]  // by offset: a name many symbols share is read once
        for i in 1..<max(1, count) {  // entry 0 is always the null symbol
            let place = { "symbol \(i) of \(what)" }  // built only for a message
            let at = try file.entry(table.offset, index: i, stride: entrySize, place())
            let info = try file.u8(at, 4, place()), other = try file.u8(at, 5, place())
            let sectionIndex = try file.u16(at, 6, place())
            guard sectionIndex != 0 else { continue }  // SHN_UNDEF: imported, not defined here
            let nameOffset = try file.u32(at, 0, place())
            let name: String
            if let known = decoded[nameOffset] {
                name = known
            } else {
                name = try file.name(at: nameOffset, in: stringRange, place())
                decoded[nameOffset] = name
            }
            budget.used += name.utf8.count
            guard budget.used <= ELFLimits.maxTotalNameBytes else {
                throw .overLimit(
                    "its symbol names total more than the limit of \(ELFLimits.maxTotalNameBytes) bytes at \(place())")
            }
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
                    value: try file.u64(at, 8, place()), size: try file.u64(at, 16, place()), sectionIndex: sectionIndex
                ))
        }
        return symbols
    }

    // MARK: Names

    static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

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

// MARK: - Bounds-checked reads

/// The file's bytes while they are parsed. Every offset is a `UInt64` from the file,
/// checked against the file's size with arithmetic that reports overflow instead of trapping;
/// it becomes an `Int` only once it is known to lie inside the file.
private struct Reader {
    let bytes: UnsafeRawBufferPointer
    var count: Int { bytes.count }

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// `a + b`, or nil if it does not fit in 64 bits.
    static func sum(_ a: UInt64, _ b: UInt64) -> UInt64? {
        let (result, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : result
    }

    /// The bytes `offset..<offset + length`, or nil if any of them lies outside the file.
    func range(_ offset: UInt64, _ length: UInt64) -> Range<Int>? {
        guard let end = Self.sum(offset, length), end <= UInt64(count) else { return nil }
        return Int(offset)..<Int(end)
    }

    /// The offset of entry `index` of a table at `base` whose entries are `stride` bytes apart.
    func entry(_ base: UInt64, index: UInt64, stride: UInt64, _ place: @autoclosure () -> String) throws(ELFProblem)
        -> UInt64
    {
        let (distance, overflow) = index.multipliedReportingOverflow(by: stride)
        guard !overflow, let at = Self.sum(base, distance), at < UInt64(count) else {
            throw .truncated(place())
        }
        return at
    }

    func load<T: FixedWidthInteger>(_ base: UInt64, _ field: UInt64, as: T.Type, _ place: () -> String)
        throws(ELFProblem) -> T
    {
        guard let at = Self.sum(base, field), range(at, UInt64(MemoryLayout<T>.size)) != nil else {
            throw .truncated("\(place()) (a field at offset \(ELFImage.hex(base &+ field)))")
        }
        return T(littleEndian: bytes.loadUnaligned(fromByteOffset: Int(at), as: T.self))
    }

    func u8(_ offset: UInt64, _ what: @autoclosure () -> String) throws(ELFProblem) -> UInt8 {
        try load(offset, 0, as: UInt8.self, what)
    }
    func u16(_ offset: UInt64, _ what: @autoclosure () -> String) throws(ELFProblem) -> UInt16 {
        try load(offset, 0, as: UInt16.self, what)
    }
    func u8(_ base: UInt64, _ field: UInt64, _ what: @autoclosure () -> String) throws(ELFProblem) -> UInt8 {
        try load(base, field, as: UInt8.self, what)
    }
    func u16(_ base: UInt64, _ field: UInt64, _ what: @autoclosure () -> String) throws(ELFProblem) -> UInt16 {
        try load(base, field, as: UInt16.self, what)
    }
    func u32(_ base: UInt64, _ field: UInt64, _ what: @autoclosure () -> String) throws(ELFProblem) -> UInt32 {
        try load(base, field, as: UInt32.self, what)
    }
    func u64(_ offset: UInt64, _ what: @autoclosure () -> String) throws(ELFProblem) -> UInt64 {
        try load(offset, 0, as: UInt64.self, what)
    }
    func u64(_ base: UInt64, _ field: UInt64, _ what: @autoclosure () -> String) throws(ELFProblem) -> UInt64 {
        try load(base, field, as: UInt64.self, what)
    }

    /// The NUL-terminated name at `offset` in the string table `table`, read once: the NUL is
    /// looked for in at most `ELFLimits.maxSymbolNameBytes + 1` bytes.
    func name(at offset: UInt32, in table: Range<Int>, _ place: @autoclosure () -> String) throws(ELFProblem)
        -> String
    {
        guard Int(offset) < table.count else {
            throw .malformed(
                "\(place()) has its name at offset \(offset), outside its \(table.count)-byte string table")
        }
        let start = table.lowerBound + Int(offset)
        let searched = min(table.upperBound - start, ELFLimits.maxSymbolNameBytes + 1)
        guard let base = bytes.baseAddress, let nul = memchr(base + start, 0, searched) else {
            if searched > ELFLimits.maxSymbolNameBytes {
                throw .overLimit("\(place()) has a name longer than the limit of \(ELFLimits.maxSymbolNameBytes) bytes")
            }
            throw .malformed("\(place()) has a name with no NUL before the end of its string table")
        }
        let length = base.distance(to: UnsafeRawPointer(nul)) - start
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + length)]), as: UTF8.self)
    }
}

// MARK: - Run paths read in pieces

/// An open library's run-path entries, read with `pread` in pieces: its ELF header, its section
/// headers, its dynamic section, and each string an entry names (looked for in at most
/// `ELFLimits.maxSymbolNameBytes` + 1 bytes). The checks are those of `ELFImage(bytes:symbols:)`
/// and `dynamicStrings`, on offsets against the file's size, so that a truncated or hostile file
/// gives the answer it gives read whole (`RunPathTests.piecesMatchWhole`).
private struct RunPathPieces {
    let fd: Int32
    let size: UInt64

    /// Nil when the file cannot be examined, is empty or is over `ELFLimits.maxFileBytes`.
    init?(fd: Int32) {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0, info.st_size <= Int64(ELFLimits.maxFileBytes) else {
            return nil
        }
        (self.fd, self.size) = (fd, UInt64(info.st_size))
    }

    /// The bytes `offset..<offset + length`, or nil if any lies past the end or the read falls short.
    func read(_ offset: UInt64, _ length: UInt64) -> [UInt8]? {
        let (end, overflow) = offset.addingReportingOverflow(length)
        guard !overflow, end <= size else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buffer in
                pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            done += n
        }
        return bytes
    }

    static func load<T: FixedWidthInteger>(_ bytes: [UInt8], _ at: Int, as: T.Type) -> T {
        bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: T.self)) }
    }

    /// Whether `header` (the file's first 64 bytes, or all of a shorter one) passes the whole
    /// parse's checks of identity: an ELF64 little-endian shared library for this host.
    static func isLibrary(_ header: [UInt8]) -> Bool {
        header.withUnsafeBytes { raw in
            do {
                try ELFImage.checkIdentity(Reader(raw))
                return true
            } catch { return false }
        }
    }

    /// The dynamic section's entries tagged DT_RUNPATH or DT_RPATH, with their text, in order up to
    /// DT_NULL; nil when the file is not a shared library for this host, or its section headers or
    /// dynamic section are missing, truncated or malformed.
    func entries() -> [(tag: UInt64, text: String)]? {
        guard let header = read(0, min(64, size)), Self.isLibrary(header) else { return nil }
        let offset = Self.load(header, 0x28, as: UInt64.self), stride = Int(Self.load(header, 0x3A, as: UInt16.self))
        let count = Int(Self.load(header, 0x3C, as: UInt16.self))
        // The whole table must lie in the file, as read whole; only the 64 bytes of each header
        // that are read are read (a hostile e_shentsize of 65,535 would make it 256 MiB).
        let (tableEnd, past) = offset.addingReportingOverflow(UInt64(count * stride))
        guard offset != 0, count != 0, count <= ELFLimits.maxSections, stride >= 64, !past, tableEnd <= size,
            let table = headers(at: offset, count: count, stride: stride)
        else { return nil }
        func field<T: FixedWidthInteger>(_ section: Int, _ at: Int, _ type: T.Type) -> T {
            Self.load(table, section * 64 + at, as: T.self)
        }
        // The first SHT_DYNAMIC section, and the string table it links to.
        guard let dynamic = (0..<count).first(where: { field($0, 4, UInt32.self) == 6 }) else { return nil }
        let link = Int(field(dynamic, 40, UInt32.self))
        guard link < count else { return nil }
        let (stringsAt, stringsSize) = (field(link, 24, UInt64.self), field(link, 32, UInt64.self))
        let (dynamicAt, entryCount) = (field(dynamic, 24, UInt64.self), field(dynamic, 32, UInt64.self) / 16)
        let (stringsEnd, overflow) = stringsAt.addingReportingOverflow(stringsSize)
        guard !overflow, stringsEnd <= size, entryCount <= 4096 else { return nil }
        // The entries that lie in the file, read at once: one past them is a failure, as read whole.
        let inFile = dynamicAt <= size ? min(entryCount * 16, (size - dynamicAt) / 16 * 16) : 0
        guard let section = read(dynamicAt, inFile) else { return nil }
        var found: [(tag: UInt64, text: String)] = []
        for i in 0..<Int(entryCount) {
            guard (i + 1) * 16 <= section.count else { return nil }
            let tag = Self.load(section, i * 16, as: UInt64.self)
            let value = Self.load(section, i * 16 + 8, as: UInt64.self)
            if tag == 0 { break }  // DT_NULL
            guard ELFImage.runPathTags.contains(tag), value < stringsSize,
                let text = string(at: stringsAt + value, before: stringsEnd)
            else { continue }
            found.append((tag, text))
        }
        return found
    }

    /// The first 64 bytes of each of `count` section headers `stride` bytes apart from `offset`,
    /// one after another: the table in one read when it has no more than them.
    func headers(at offset: UInt64, count: Int, stride: Int) -> [UInt8]? {
        if stride == 64 { return read(offset, UInt64(count * 64)) }
        var table: [UInt8] = []
        table.reserveCapacity(count * 64)
        for i in 0..<count {
            guard let header = read(offset + UInt64(i * stride), 64) else { return nil }
            table += header
        }
        return table
    }

    /// The NUL-terminated string at `at`, looked for in at most `ELFLimits.maxSymbolNameBytes` + 1
    /// bytes before `end`; nil without a NUL there.
    func string(at: UInt64, before end: UInt64) -> String? {
        guard let bytes = read(at, min(end - at, UInt64(ELFLimits.maxSymbolNameBytes + 1))),
            let nul = bytes.firstIndex(of: 0)
        else { return nil }
        return String(decoding: bytes[..<nul], as: UTF8.self)
    }
}
