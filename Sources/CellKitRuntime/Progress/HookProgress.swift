// Where plugin code is running: which plugin, hook, cell type and row. Kept in
// memory that outlives a crash of the process for a supervisor (a memory page
// shared with the parent of an isolated render worker) or that a signal handler
// can read (CrashReporter.swift). Entering a hook costs a few plain stores and
// no system call; nothing is recorded until a record is installed.

import CProcess
import CellKitDiscovery
import CellKitModel
import Glibc

/// The progress record plugin code runs under: what runs now (a hook of a cell type at a row, or
/// a plugin's constructor or `cellkit_plugin_init` while it loads), how many rows a renderer has
/// finished, and the names of the cell types, all in one block of raw memory with a fixed layout.
/// `CrashReporter` reads it; its members are the package's own.
@usableFromInline package enum HookProgress {
    /// What the process is doing, as the record's `phase` says.
    @usableFromInline package enum Phase: Int32 {
        /// Host code: nothing of a plugin's runs.
        case host = 0
        /// `dlopen` of a plugin: its constructors run.
        case constructor = 1
        /// The plugin's `cellkit_plugin_init`.
        case pluginInit = 2
        /// One of a cell type's hooks.
        case hook = 3
    }

    /// The fixed part of the record. Plain stores by the process it describes; read by a signal
    /// handler in that process, or by another process once it has died (or to watch its progress).
    @usableFromInline package struct Header {
        /// Counts hook entries, loads and finished rows: a supervisor sees progress when it changes.
        @usableFromInline package var counter: UInt64 = 0
        /// A `Phase`.
        @usableFromInline package var phase: Int32 = 0
        /// The hook running (`code(_:)`), during `Phase.hook`.
        @usableFromInline package var hook: Int32 = 0
        /// The cell type's slot in its registry (an entry of the type table), or -1.
        @usableFromInline package var typeSlot: Int64 = -1
        /// The row the hook runs for (or the plugin loads for).
        @usableFromInline package var section: Int64 = -1
        @usableFromInline package var row: Int64 = -1
        /// Rows a renderer has finished, counted from 0 across sections in its window.
        @usableFromInline package var rowsDone: Int64 = 0
        /// Bytes of finished rows in the renderer's output buffer that were not flushed yet.
        @usableFromInline package var bytesDone: Int64 = 0
        /// The type table's entries in use (one past the highest slot registered).
        package var typeCount: Int64 = 0
        /// The signal that crashed one of CellKit's own threads beside the plugins
        /// (`HelperThreads`), or 0: when set, the crash is CellKit's whatever `phase` says.
        package var helperFault: Int32 = 0
        /// The library a crash's faulting instruction is in, as its entry in the library table
        /// plus one (`FaultBlame`), or 0 when the crash was not placed.
        package var faultLibrary: Int32 = 0
        /// The library table's entries in use.
        package var libraryCount: Int64 = 0
        /// Rows whose bytes the supervisor has acknowledged (written out): where a worker whose
        /// channel broke is resumed, its unsent output not trusted.
        package var rowsHandedOver: Int64 = 0
        /// While the worker sends a frame and waits for its acknowledgement: how many it has sent
        /// (from 1); 0 otherwise. The supervisor reads the channel only then when it checks every
        /// hook (a hook's stray bytes stay in the pipe for the worker's own check to see), and
        /// knows an acknowledgement was taken by another reader when the worker still waits.
        package var sending: Int64 = 0
        /// The steps a check worker has marked (`cellkit check`): the sandbox's listener names a
        /// refused call by the step it was made in.
        package var step: Int64 = 0
        /// The worker's memory limit in MiB when it crashed with its address space at that limit
        /// (`FaultBlame`): the crash is an allocation the limit refused. 0 otherwise.
        package var memoryExceeded: Int64 = 0

        /// A record of nothing: host code, no rows.
        package init() {}
    }

    /// The identifier of the type at `slot` in `record`'s type table, or nil.
    package static func identifier(_ record: UnsafePointer<Header>, slot: Int) -> String? {
        guard slot >= 0, slot < Int(record.pointee.typeCount), slot < maxTypes else { return nil }
        return string(UnsafeRawPointer(record) + typesOffset + slot * entrySize)
    }

    /// The identifier the last load was for, or nil.
    package static func loadingIdentifier(_ record: UnsafePointer<Header>) -> String? {
        let name = string(UnsafeRawPointer(record) + loadIdentifierOffset)
        return name.isEmpty ? nil : name
    }

    private static func string(_ place: UnsafeRawPointer) -> String {
        let bytes = place.assumingMemoryBound(to: UInt8.self)
        var count = 0
        while count < nameLength, bytes[count] != 0 { count += 1 }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Bytes of the whole record: header, the plugin being loaded, the type table.
    package static let size = 1 << 19
    /// Where the identifier a load is for (a C string) and the plugin's file name start.
    package static let loadIdentifierOffset = 256, loadFileOffset = 384, nameLength = 256
    /// The type table: an identifier and a plugin file name per slot, C strings.
    package static let typesOffset = 1024, entrySize = 384, entryFileOffset = 80, maxTypes = 1024

    /// The library table: each loaded plugin's address range (two words) and file name (a C
    /// string), so that a crash handler can name the library an address is in without a lock.
    package static let librariesOffset = 401_408, libraryEntrySize = 272, maxLibraries = 256

    /// Enters the loaded object that holds `address` (a symbol of the plugin at `path`) in the
    /// library table.
    package static func registerLibrary(containing address: UnsafeRawPointer, path: String) {
        guard let record, Int(record.pointee.libraryCount) < maxLibraries else { return }
        var start: UInt = 0, end: UInt = 0
        guard ck_process_object_range(address, &start, &end) == 0 else { return }
        let entry =
            UnsafeMutableRawPointer(record) + librariesOffset + Int(record.pointee.libraryCount) * libraryEntrySize
        entry.storeBytes(of: UInt64(start), as: UInt64.self)
        entry.storeBytes(of: UInt64(end), toByteOffset: 8, as: UInt64.self)
        copy(fileName(path), to: entry + 16)
        record.pointee.libraryCount += 1
    }

    /// The table entry (plus one) of the library holding `address`, or 0. Loads only: a signal
    /// handler calls it.
    package static func library(holding address: UInt, in record: UnsafePointer<Header>) -> Int32 {
        let count = min(Int(record.pointee.libraryCount), maxLibraries)
        let table = UnsafeRawPointer(record) + librariesOffset
        for i in 0..<count {
            let start = table.load(fromByteOffset: i * libraryEntrySize, as: UInt64.self)
            let end = table.load(fromByteOffset: i * libraryEntrySize + 8, as: UInt64.self)
            if UInt64(address) >= start, UInt64(address) < end { return Int32(i + 1) }
        }
        return 0
    }

    /// The file name of the library a crash was placed in (`Header.faultLibrary`), or nil.
    package static func faultLibraryName(_ record: UnsafePointer<Header>) -> String? {
        let index = Int(record.pointee.faultLibrary) - 1
        guard index >= 0, index < min(Int(record.pointee.libraryCount), maxLibraries) else { return nil }
        return string(UnsafeRawPointer(record) + librariesOffset + index * libraryEntrySize + 16)
    }

    /// The file name of the plugin the last load was of.
    package static func loadingFile(_ record: UnsafePointer<Header>) -> String {
        string(UnsafeRawPointer(record) + loadFileOffset)
    }

    /// The file name (`libfoo.so`) of the plugin of the type at `slot`, or nil.
    package static func pluginFile(_ record: UnsafePointer<Header>, slot: Int) -> String? {
        guard slot >= 0, slot < Int(record.pointee.typeCount), slot < maxTypes else { return nil }
        return string(UnsafeRawPointer(record) + typesOffset + slot * entrySize + entryFileOffset)
    }

    /// The record the process writes to, or nil for none. Set before any cell is made, for the
    /// life of the process: cells take it when they are made.
    nonisolated(unsafe) package private(set) static var record: UnsafeMutablePointer<Header>?

    /// Makes `memory` (at least `size` bytes, zeroed) the process's record.
    package static func install(_ memory: UnsafeMutableRawPointer) {
        let header = memory.bindMemory(to: Header.self, capacity: 1)
        header.initialize(to: Header())
        record = header
    }

    /// Installs a record in private memory if there is none; returns it.
    @discardableResult
    package static func installPrivate(shared: Bool = false) -> UnsafeMutablePointer<Header> {
        if let record { return record }
        // Anonymous pages are zero until touched: zeroing the record by hand faulted in all of
        // its pages, a good part of a small render's page faults (BENCHMARKS.md, "Measurements behind
        // the code": HookProgress.record).
        // Shared (`shared`): a process forked later (the sandbox's listener) reads it as it changes.
        var memory = mmap(nil, size, PROT_READ | PROT_WRITE, (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0)
        if memory == nil || memory == MAP_FAILED {
            memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
            memory!.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        }
        install(memory!)
        return record!
    }

    /// A hook's number in the record: its wire code in the hook table (`HookKind`).
    @inlinable @inline(__always)
    package static func code(_ hook: HookKind) -> Int32 { hook.wireCode }

    /// The hook a number stands for, or nil for a number no hook has (a damaged record).
    package static func hook(code: Int32) -> HookKind? { HookKind(wireCode: code) }

    /// Records that `hook` of the type in pool `poolSlot` (a `CellQueue` pool index: the type's
    /// slot shifted left by 3, or -1) starts for the row at `indexPath`. Six plain stores.
    @inlinable @inline(__always)
    package static func enter(
        _ record: UnsafeMutablePointer<Header>, _ hook: HookKind, poolSlot: Int, indexPath: IndexPath
    ) {
        record.pointee.counter &+= 1
        record.pointee.hook = code(hook)
        record.pointee.typeSlot = Int64(poolSlot >> 3)
        record.pointee.section = Int64(indexPath.section)
        record.pointee.row = Int64(indexPath.row)
        record.pointee.phase = Phase.hook.rawValue
    }

    /// Records that the hook returned.
    @inlinable @inline(__always)
    package static func leave(_ record: UnsafeMutablePointer<Header>) {
        record.pointee.phase = Phase.host.rawValue
    }

    /// Records that a renderer finished `rows` rows, `bytes` of them still in its buffer.
    @inlinable @inline(__always)
    package static func rowsDone(_ record: UnsafeMutablePointer<Header>, rows: Int, bytes: Int) {
        record.pointee.counter &+= 1
        record.pointee.rowsDone = Int64(rows)
        record.pointee.bytesDone = Int64(bytes)
        record.pointee.phase = Phase.host.rawValue
    }

    /// Records the identifier about to be resolved for the row at `section`.`row` (-1: none): if
    /// resolving it loads a plugin, a crash there names it.
    package static func resolving(_ identifier: String, section: Int, row: Int) {
        guard let record else { return }
        copy(identifier, to: UnsafeMutableRawPointer(record) + loadIdentifierOffset)
        record.pointee.section = Int64(section)
        record.pointee.row = Int64(row)
    }

    /// Records that the plugin at `path` starts loading (`phase` constructor) or runs its init.
    package static func loading(_ path: String, _ phase: Phase) {
        guard let record else { return }
        copy(fileName(path), to: UnsafeMutableRawPointer(record) + loadFileOffset)
        record.pointee.counter &+= 1
        record.pointee.typeSlot = -1
        record.pointee.phase = phase.rawValue
    }

    /// Records that loading is over.
    package static func loaded() {
        guard let record else { return }
        record.pointee.counter &+= 1
        record.pointee.phase = Phase.host.rawValue
    }

    /// Enters a cell type in the type table, so that a record naming its slot names it.
    package static func register(slot: Int, identifier: String, pluginPath: String) {
        guard let record, slot >= 0, slot < maxTypes else { return }
        let entry = UnsafeMutableRawPointer(record) + typesOffset + slot * entrySize
        copy(identifier, to: entry)
        copy(fileName(pluginPath), to: entry + entryFileOffset, limit: entrySize - entryFileOffset)
        record.pointee.typeCount = max(record.pointee.typeCount, Int64(slot + 1))
    }

    /// The last part of a path: "libfoo.so".
    package static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Copies `text` as a C string of at most `limit` bytes (cut short if longer).
    private static func copy(_ text: String, to place: UnsafeMutableRawPointer, limit: Int = nameLength) {
        let bytes = Array(text.utf8.prefix(limit - 1))
        place.copyMemory(from: bytes, byteCount: bytes.count)
        place.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self)
    }
}
