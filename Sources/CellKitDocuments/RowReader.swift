// A long JSON Lines file's rows read and checked on a helper thread, a few batches
// ahead of the table's thread. Checking a row is a good part of a wrapped row's
// work (BENCHMARKS.md, "Measurements behind the code": RowReader) and needs nothing
// from the rows before it, so it overlaps the hooks and the layout of the rows
// already read (`cellkit-bench render wrapped` prints the render with and without it).
//
// What crosses between the threads is bytes only: the helper copies each checked
// record, its member index and where its cell name is into a batch's flat memory;
// the table's thread makes the row's `JSONRecord` and name from them. Handing over
// the records and names themselves was measured slower than no helper at all: each
// was allocated on one thread and freed on the other, and the name's reference
// count moved between the processors every row.
//
// The batches are a ring of `depth` slots; `produced` and `consumed` count them.
// A slot below `produced` and not below `consumed` is the table thread's, the rest
// the helper's. A thread that must wait sleeps on its semaphore after saying so in
// its `asleep` flag and looking again (Dekker's order: both sequentially
// consistent), and the other wakes it. The helper is woken only once half the ring
// is free: a wake-up is dear (BENCHMARKS.md, "Measurements behind the code": RowReader.wake).
//
// Memory is bounded whatever the file holds: a batch ends at 256 rows or 512 KiB, and
// the helper waits while the batches it handed over hold more than 8 MiB (`Limits`);
// before it waits it gives back the memory of the batches returned to it. With records
// of the longest length a data file may have (`RowStream.longestRecord`, 16 MiB), the
// batches hold at most two of them: the one being read and the next, about 33 MiB.

import CellKitModel
import CellKitText
import Dispatch
import Foundation
import Synchronization

/// A data file's rows in order, as `RowStream.next()` gives them: read on the calling thread or,
/// for a JSON Lines file with many rows left, checked by a helper thread up to `depth` batches
/// ahead, within `Limits`. Rows, errors and the end of the file come in the file's order either way.
/// Use it from one thread at a time (so its state skips the runtime exclusivity checks); the
/// helper is stopped and joined when it goes.
package final class RowReader {
    /// How far ahead a helper reads, and when there is one.
    package struct Limits: Sendable {
        /// Below this many rows to read, a helper thread (its start, and a batch read before the
        /// first row) costs more than it saves (BENCHMARKS.md, "Measurements behind the code":
        /// RowReader.minimumRows).
        package var minimumRows = 2048
        /// A batch ends at this many rows, or once its rows take `batchBytes` bytes; the helper
        /// waits while the batches it handed over take more than `bytesAhead`.
        package var batchRows = 256, batchBytes = 512 << 10, bytesAhead = 8 << 20

        /// The limits a render uses.
        package static let standard = Limits()
    }

    /// The batches in the ring.
    static let depth = 8

    /// The file read.
    package let file: DataFile
    /// Rows returned so far, counted from the start of the file (skipped rows included).
    package var rowsRead: Int { read }
    // Read through a getter by other modules: a stored property accessed from another
    // module gets a runtime exclusivity check whatever its own attribute says.
    @exclusivity(unchecked) private var read = 0

    /// Whether a helper thread reads the rows ahead.
    package var readsAhead: Bool { helper != nil }
    /// The most bytes of rows the helper had handed over and this thread had not given back;
    /// read it after the last row (tests).
    package var mostBytesAhead: Int { helper?.shared.mostHandedOver ?? 0 }
    /// The bytes of rows the helper has handed over and this thread has not given back, now: a
    /// test waits on it instead of sleeping.
    package var bytesAhead: Int { helper?.shared.bytesHandedOver.load(ordering: .sequentiallyConsistent) ?? 0 }

    /// The stream: read here when there is no helper, the helper's alone while there is one.
    private let stream: RowStream
    /// The helper, if one reads ahead: what it shares with this thread, and its thread.
    private let helper: (shared: Shared, thread: pthread_t)?
    /// The helper's ring and the plan its records ask, copied out of `Shared` and read per row
    /// here: this thread then neither retains `Shared` per row (its reference count sits in memory
    /// the helper reads per row: an atomic write on one processor, a cache miss on the other) nor
    /// reads the memory the helper writes per row.
    private let ring: Ring?, plan: Unmanaged<LinePlan>?
    /// Batches taken from the ring so far; the current one's next row and where it is.
    @exclusivity(unchecked) private var taken = 0, row = 0, offset = 0
    /// The cell names read, made into strings on this thread.
    @exclusivity(unchecked) private var names = RowStream.KnownCells()
    /// The records of the last two rows, kept to be written over (`JSONRecord.refill`): the one
    /// before last is free again once its cell has shown the next row, and the next record goes
    /// into its memory. A record made and freed per row was a noticeable part of a row's instructions
    /// (BENCHMARKS.md, "Measurements behind the code": RowReader.recent).
    @exclusivity(unchecked) private var recent: (last: JSONRecord?, beforeLast: JSONRecord?)

    /// Opens `file` and skips its first `skipping` rows. A helper reads ahead when `readAhead` is set,
    /// the file is JSON Lines, at least `minimumRows` of its `rows` are left, and a thread can start.
    /// The helper calls `marking` with true when it starts and false before it ends (crash
    /// attribution: `HelperThreads.mark`).
    package init(
        _ file: DataFile, skipping: Int, rows: Int, readAhead: Bool, limits: Limits = .standard,
        marking: (@Sendable (Bool) -> Void)? = nil, from start: RowIndex.Place? = nil
    ) throws(DocumentError) {
        self.file = file
        stream = try RowStream(file)
        if let place = start {
            try stream.seek(toOffset: place.offset, line: place.line, rows: place.row)
        }
        try stream.skip(skipping - stream.rowsRead)
        read = stream.rowsRead
        guard readAhead, file.format == .jsonLines, rows - stream.rowsRead >= limits.minimumRows else {
            (helper, ring, plan) = (nil, nil, nil)
            return
        }
        let shared = Shared(stream, limits: limits, marking: marking)
        helper = shared.start().map { (shared, $0) }
        // Unretained: `helper` holds `shared`, which holds the plan (a retained one was retained
        // and released a row when it was read: BENCHMARKS.md, "Measurements behind the code":
        // RowReader.plan).
        (ring, plan) = helper == nil ? (nil, nil) : (shared.ring, .passUnretained(shared.plan))
    }

    deinit {
        guard let (shared, thread) = helper else { return }
        shared.stopping.store(true, ordering: .sequentiallyConsistent)
        shared.helperWake.signal()  // wakes it if it sleeps, else its next wait returns at once
        pthread_join(thread, nil)
    }

    /// The next row, or nil at the end of the file; an error at its place in the file.
    package func next() throws(DocumentError) -> StreamedRow? {
        var streamed = StreamedRow(cell: nil, data: .value(.null), line: 0, column: 0)
        return try next(into: &streamed) ? streamed : nil
    }

    /// The next row into `streamed`, or false at the end of the file; an error at its place in the
    /// file. A caller that keeps `streamed` from row to row has its cell name written only when it
    /// changes: the name is not retained and released each row.
    package func next(into streamed: inout StreamedRow) throws(DocumentError) -> Bool {
        guard let ring else {
            defer { read = stream.rowsRead }
            guard let row = try stream.next() else { return false }
            streamed = row
            return true
        }
        while true {
            if taken > 0 {
                let batch = ring[taken - 1]
                if row < batch.pointee.rows {
                    row += 1
                    read += 1
                    swap(&recent.last, &recent.beforeLast)
                    plan.unsafelyUnwrapped._withUnsafeGuaranteedRef { plan in
                        batch.pointee.row(
                            at: &offset, names: &names, plan: plan, reusing: &recent.last, into: &streamed)
                    }
                    return true
                }
                if let error = batch.pointee.error { throw error }
                if batch.pointee.atEnd { return false }
                helper!.shared.give(bytes: batch.pointee.used)
            }
            helper!.shared.take(taken)
            (taken, row, offset) = (taken + 1, 0, 0)
        }
    }

    /// Skips the rows before row `row` (counted from the start of the file), or to the end of the
    /// file; nothing when it is at or past `row` already.
    package func skip(to row: Int) throws(DocumentError) {
        guard helper != nil else {
            try stream.skip(row - rowsRead)
            read = stream.rowsRead
            return
        }
        var streamed = StreamedRow(cell: nil, data: .value(.null), line: 0, column: 0)
        while rowsRead < row, try next(into: &streamed) {}
    }

    /// One batch of checked rows in flat memory, each an `Entry`, then its record's bytes, member
    /// offsets and planned lines as a `JSONRecord` lays them out (`JSONRecord.writeLayout`: copied
    /// into a record whole); in the batch that ends the file, then the error or the end. The memory
    /// is in cache lines of its own (`CacheLine`): the helper fills it row by row.
    struct Batch: ~Copyable {
        private var bytes = CacheLine.allocatePages(byteCount: 64 << 10)
        private var capacity = 64 << 10
        /// Bytes and rows in the batch.
        private(set) var used = 0, rows = 0
        /// Cell names that had to be decoded (escapes), by `Entry.cellStart`.
        private var decoded: [String] = []
        var error: DocumentError?
        var atEnd = false

        /// Where a row is: its line, the column of its cell name, its record's and index's sizes,
        /// and its cell name's bytes in the record (`cellLength` -1: none; -2: `decoded[cellStart]`).
        struct Entry {
            var line: Int, column: Int, recordBytes: Int, offsetCount: Int, cellStart: Int, cellLength: Int
            /// Bytes of the lines worked out ahead for the row (`JSONRecord`'s planned part).
            var plannedBytes = 0

            /// Bytes from the entry's start to its record's layout, the layout's bytes, and the bytes
            /// to the next entry (8-byte aligned).
            static let recordStart = MemoryLayout<Entry>.stride
            var layoutBytes: Int {
                JSONRecord.layoutBytes(line: recordBytes, offsets: offsetCount, planned: plannedBytes)
            }
            var size: Int { (Self.recordStart + layoutBytes + 7) & ~7 }
        }

        deinit { CacheLine.deallocatePages(bytes, byteCount: capacity) }

        /// Empties the batch, and gives back the memory a long record made it take.
        mutating func removeAll() {
            (used, rows) = (0, 0)
            decoded.removeAll(keepingCapacity: true)
            if capacity > 1 << 20 {
                CacheLine.deallocatePages(bytes, byteCount: capacity)
                (bytes, capacity) = (CacheLine.allocatePages(byteCount: 64 << 10), 64 << 10)
            }
        }

        /// Appends a checked row, with the lines worked out ahead for it (`planned`).
        /// `decodedCell`: the row's decoded cell name when `checked.isDecoded` (`RowStream.decodedCell`).
        mutating func append(
            _ checked: RowStream.CheckedRow, decodedCell: String?, planned: UnsafeBufferPointer<UInt32>
        ) {
            var entry = Entry(
                line: checked.line, column: checked.column, recordBytes: checked.record.count,
                offsetCount: checked.offsets.count, cellStart: checked.plainCell?.lowerBound ?? 0,
                cellLength: checked.plainCell?.count ?? -1, plannedBytes: planned.count * 4)
            if checked.isDecoded, let name = decodedCell {
                (entry.cellStart, entry.cellLength) = (decoded.count, -2)
                decoded.append(name)
            }
            reserve(used + entry.size)
            (bytes + used).storeBytes(of: entry, as: Entry.self)
            JSONRecord.writeLayout(
                to: bytes + used + Entry.recordStart, line: checked.record, offsets: checked.offsets,
                planned: UnsafeRawBufferPointer(planned))
            used += entry.size
            rows += 1
        }

        /// Records up to this size are kept to be written over (see `RowReader.recent`).
        static let reusedRecordBytes = 16 << 10

        /// The row at `offset` (moved past it) into `streamed`, its name found in `names`; its record
        /// asks `plan`, written into `spare`'s memory when it can be (`JSONRecord.refill`), else made
        /// and kept there.
        func row(
            at offset: inout Int, names: inout RowStream.KnownCells, plan: LinePlan, reusing spare: inout JSONRecord?,
            into streamed: inout StreamedRow
        ) {
            let entry = (bytes + offset).load(as: Entry.self)
            let layout = UnsafeRawBufferPointer(start: bytes + offset + Entry.recordStart, count: entry.layoutBytes)
            let record = UnsafeBufferPointer(
                start: layout.baseAddress!.assumingMemoryBound(to: UInt8.self), count: entry.recordBytes)
            offset += entry.size
            switch entry.cellLength {
            case -1: streamed.cell = nil
            case -2: streamed.cell = decoded[entry.cellStart]
            default:
                names.name(
                    UnsafeBufferPointer(rebasing: record[entry.cellStart..<entry.cellStart + entry.cellLength]),
                    into: &streamed.cell)
            }
            (streamed.line, streamed.column) = (entry.line, entry.column)
            if spare == nil || !spare!.refill(layout: layout, plan: plan) {
                let kept = entry.size <= Self.reusedRecordBytes  // room to spare only in a record kept
                let made = JSONRecord(layout: layout, plan: plan, room: kept ? entry.size + entry.size / 2 : 0)
                guard kept else {
                    spare = nil
                    streamed.data = .json(made)
                    return
                }
                spare = made
            }
            streamed.data = .json(spare!)
        }

        private mutating func reserve(_ size: Int) {
            guard size > capacity else { return }
            var grown = capacity
            while grown < size { grown *= 2 }
            let larger = CacheLine.allocatePages(byteCount: grown)
            larger.copyMemory(from: bytes, byteCount: used)
            CacheLine.deallocatePages(bytes, byteCount: capacity)
            (bytes, capacity) = (larger, grown)
        }
    }

    /// The ring's `depth` batches, each in cache lines of its own: the helper writes the counts of
    /// the batch it fills row by row while this thread reads the batch before it.
    struct Ring {
        private static let stride = (MemoryLayout<Batch>.stride + CacheLine.size - 1) & ~(CacheLine.size - 1)
        private let base: UnsafeMutableRawPointer

        init() {
            base = .allocate(byteCount: Self.stride * RowReader.depth, alignment: CacheLine.size)
            for k in 0..<RowReader.depth { (base + k * Self.stride).initializeMemory(as: Batch.self, to: Batch()) }
        }

        /// Batch `n` of the file (slot `n % depth`).
        subscript(n: Int) -> UnsafeMutablePointer<Batch> {
            (base + n % RowReader.depth * Self.stride).assumingMemoryBound(to: Batch.self)
        }

        /// Ends the batches and frees the ring; once, when neither thread uses it any more.
        func deallocate() {
            for k in 0..<RowReader.depth { self[k].deinitialize(count: 1) }
            base.deallocate()
        }
    }

    /// UInt32 words in memory reused row after row (the planned lines of the row being read).
    struct Words: ~Copyable {
        // In cache lines of their own (`CacheLine`): the helper writes them row by row.
        private var base = CacheLine.allocate(UInt32.self, capacity: 64), capacity = 64
        var count = 0
        var buffer: UnsafeBufferPointer<UInt32> { UnsafeBufferPointer(start: base, count: count) }

        deinit { base.deallocate() }

        /// Makes room for `n` more words.
        mutating func reserve(_ n: Int) {
            guard count + n > capacity else { return }
            let larger = CacheLine.allocate(UInt32.self, capacity: 2 * (count + n))
            larger.update(from: base, count: count)
            base.deallocate()
            (base, capacity) = (larger, 2 * (count + n))
        }

        /// Appends `value` as a UInt32 (an offset, width or count of one record), after `reserve`.
        @inline(__always) mutating func put(_ value: Int) {
            base[count] = UInt32(truncatingIfNeeded: value)
            count += 1
        }

        /// Appends six words at once (a planned layout's header), after `reserve`: one store of the
        /// count, not one a word (the words live in a class's memory, written back at each `put`:
        /// BENCHMARKS.md, "Measurements behind the code": RowReader.Words.put).
        @inline(__always) mutating func put(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int, _ f: Int) {
            let p = base + count
            (p[0], p[1], p[2]) = (
                UInt32(truncatingIfNeeded: a), UInt32(truncatingIfNeeded: b), UInt32(truncatingIfNeeded: c)
            )
            (p[3], p[4], p[5]) = (
                UInt32(truncatingIfNeeded: d), UInt32(truncatingIfNeeded: e), UInt32(truncatingIfNeeded: f)
            )
            count &+= 6
        }

        /// Where the next word goes, for a writer that fills the room `reserve` made in place; it
        /// then adds what it wrote to `count`.
        var next: UnsafeMutablePointer<UInt32> { base + count }

        /// Sets word `i` (below `count`) to `value`.
        @inline(__always) mutating func set(_ i: Int, to value: Int) {
            base[i] = UInt32(truncatingIfNeeded: value)
        }
    }

    /// What the reader and its helper share: the ring, its two counts, and how each side sleeps.
    private final class Shared: @unchecked Sendable {
        // @unchecked: slot k of batch n (n % depth == k) is the helper's until it raises
        // `produced` past n, then the table thread's until it raises `consumed` past n: one
        // thread has it at a time, and the counts' sequentially consistent stores and loads
        // order its memory. `stream` is the helper's alone once it starts.
        /// First of the stored properties, with `paddingAfter` last: the fields the helper writes row
        /// by row (its lines worked out ahead) share no cache line with the blocks beside this object.
        private let paddingBefore = CacheLine.Padding()
        let stream: RowStream
        let limits: Limits
        /// The layouts the table's thread asks for, and the version of them the helper read last.
        let plan = LinePlan()
        @exclusivity(unchecked) private var plannedVersion = 0
        /// The helper's copy of the plan's entries, flattened when the plan changes: every key's bytes in one
        /// list, and each entry's layout with where its key lies. Read in place a batch at a time:
        /// the entries' keys read from a copy of the entries were retained and released, three retains and four
        /// releases a row (BENCHMARKS.md, "Measurements behind the code": RowReader.keys).
        @exclusivity(unchecked) private var plannedKeys: [UInt8] = []
        @exclusivity(unchecked) private var plannedLayouts: [PlannedLayout] = []

        /// An entry of the plan without its key: where the key lies in `plannedKeys`, and the layout.
        private struct PlannedLayout {
            let keyStart: Int, keyCount: Int, width: Int, maxLines: Int, mode: Int32
        }
        /// The lines worked out for the row being read (the helper's, reused row after row):
        /// `JSONRecord`'s planned part.
        @exclusivity(unchecked) private var plannedLines = Words()
        let marking: (@Sendable (Bool) -> Void)?
        let ring = Ring()
        let produced = Atomic(0), consumed = Atomic(0)
        /// Bytes of the batches produced and not yet given back, and the most they were (the
        /// helper's; read once it has handed over the last batch).
        let bytesHandedOver = Atomic(0)
        var mostHandedOver = 0
        let helperAsleep = Atomic(false), readerAsleep = Atomic(false), stopping = Atomic(false)
        // Made at 0: libdispatch traps when a semaphore goes while its value is below the one
        // it was made with.
        let helperWake = DispatchSemaphore(value: 0), readerWake = DispatchSemaphore(value: 0)
        /// Last of the stored properties (see `paddingBefore`).
        private let paddingAfter = CacheLine.Padding()

        init(_ stream: RowStream, limits: Limits, marking: (@Sendable (Bool) -> Void)?) {
            (self.stream, self.limits, self.marking) = (stream, limits, marking)
        }

        deinit {
            ring.deallocate()
        }

        /// Starts the helper; nil if the thread cannot start.
        func start() -> pthread_t? {
            var thread = pthread_t()
            let context = Unmanaged.passRetained(self).toOpaque()
            guard pthread_create(&thread, nil, { Shared.helperMain($0) }, context) == 0 else {
                Unmanaged<Shared>.fromOpaque(context).release()
                return nil
            }
            return thread
        }

        /// The table's thread: waits until batch `n` is produced.
        func take(_ n: Int) {
            while produced.load(ordering: .sequentiallyConsistent) <= n {
                readerAsleep.store(true, ordering: .sequentiallyConsistent)
                if produced.load(ordering: .sequentiallyConsistent) <= n { readerWake.wait() }
                readerAsleep.store(false, ordering: .sequentiallyConsistent)
            }
        }

        /// The table's thread: gives back its batch of `bytes` bytes; wakes the helper once half the
        /// ring and half the bytes it may hand over are free (so, at the latest, when the table's
        /// thread has given back every batch and must wait).
        func give(bytes: Int) {
            let left = bytesHandedOver.subtract(bytes, ordering: .sequentiallyConsistent).newValue
            let now = consumed.add(1, ordering: .sequentiallyConsistent).newValue
            guard helperAsleep.load(ordering: .sequentiallyConsistent),
                produced.load(ordering: .sequentiallyConsistent) - now <= RowReader.depth / 2,
                left <= limits.bytesAhead / 2,
                helperAsleep.exchange(false, ordering: .sequentiallyConsistent)
            else { return }
            helperWake.signal()
        }

        /// The helper, with `n` batches produced: whether it must wait for the table's thread.
        private func mustWait(_ n: Int) -> Bool {
            n - consumed.load(ordering: .sequentiallyConsistent) == RowReader.depth
                || bytesHandedOver.load(ordering: .sequentiallyConsistent) > limits.bytesAhead
        }

        /// The helper: fills batch after batch until the file ends, an error, or the reader goes.
        static func helperMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
            let shared = Unmanaged<Shared>.fromOpaque(context!).takeRetainedValue()
            shared.marking?(true)
            defer { shared.marking?(false) }
            var n = 0
            while !shared.stopping.load(ordering: .sequentiallyConsistent) {
                if shared.mustWait(n) {
                    shared.sleepWhileFull(n)
                    continue
                }
                let batch = shared.ring[n]
                let last = shared.fill(batch)
                let handedOver = shared.bytesHandedOver.add(batch.pointee.used, ordering: .sequentiallyConsistent)
                shared.mostHandedOver = max(shared.mostHandedOver, handedOver.newValue)
                n += 1
                shared.produced.store(n, ordering: .sequentiallyConsistent)
                if shared.readerAsleep.load(ordering: .sequentiallyConsistent),
                    shared.readerAsleep.exchange(false, ordering: .sequentiallyConsistent)
                {
                    shared.readerWake.signal()
                }
                if last { break }
            }
            return nil
        }

        /// The helper, with `n` batches produced and the ring full: sleeps until woken. First it
        /// empties the batches given back, so that those long records made large keep no memory.
        private func sleepWhileFull(_ n: Int) {
            let free = consumed.load(ordering: .sequentiallyConsistent) + RowReader.depth - n
            for k in 0..<free { ring[n + k].pointee.removeAll() }
            helperAsleep.store(true, ordering: .sequentiallyConsistent)
            if mustWait(n), !stopping.load(ordering: .sequentiallyConsistent) {
                helperWake.wait()
            }
            helperAsleep.store(false, ordering: .sequentiallyConsistent)
        }

        /// Works out the lines the plan asks for from `row`'s text members, into `plannedLines`: per
        /// layout the text's start and length, the width, lines at most and mode, the line count,
        /// then each line's start, end and columns from the text's start. A one-line layout truncated
        /// at its tail is its line's cut, flagged (`LinePlan.ellipsisFlag`): the table's thread adds
        /// the ellipsis (measuring the cut there was about 3,600 instructions a truncated row on the
        /// same-work table: BENCHMARKS.md, "Measurements behind the code": RowReader.tailCut). Other
        /// layouts that would change the text (an ellipsis after wrapped lines) are left out: the
        /// table's thread breaks those itself.
        private func workOutLines(
            _ row: RowStream.CheckedRow, keys: UnsafeBufferPointer<UInt8>, layouts: UnsafeBufferPointer<PlannedLayout>
        ) {
            plannedLines.count = 0
            for layout in layouts {
                let (width, maxLines, raw) = (layout.width, layout.maxLines, layout.mode)
                let key = UnsafeBufferPointer(rebasing: keys[layout.keyStart..<(layout.keyStart + layout.keyCount)])
                guard let mode = LineBreakMode(rawValue: raw),
                    let (start, text, isASCII) = JSONRecord.plainCleanText(key, in: row.record, offsets: row.offsets)
                else { continue }
                // The layout's own code on the member's bytes in place: no text object, no line list
                // (made, reference counted and freed per row, a noticeable part of a row's instructions:
                // BENCHMARKS.md, "Measurements behind the code": RowReader.layout).
                let header = plannedLines.count
                // Room for the header and every line at once (a line takes a byte of the text at least):
                // a call per line to make room was a tenth of this function.
                let room = max(0, min(maxLines, text.count &+ 1))
                plannedLines.reserve(6 &+ 3 &* room)
                // the line count (last) once known
                plannedLines.put(start, text.count, width, maxLines, Int(UInt32(bitPattern: raw)), 0)
                var lines = 0, whole: Bool
                // Printable ASCII: written in place by C, `room` holding every line it may write
                // (BENCHMARKS.md, "Measurements behind the code": TextLayout.asciiLinesInC).
                if isASCII {
                    (whole, lines) = TextLayout.asciiLineRanges(
                        text, width: width, maxLines: maxLines, mode: mode, into: plannedLines.next)
                    plannedLines.count &+= 3 &* lines
                } else {
                    // Plain and clean: no newline in it.
                    whole = TextLayout.lineRanges(text, width: width, maxLines: maxLines, mode: mode, isClean: true) {
                        lineStart, end, columns in
                        if lines >= room { plannedLines.reserve(3) }  // never so far: a bound, not a guess
                        plannedLines.put(lineStart)
                        plannedLines.put(end)
                        plannedLines.put(columns)
                        lines += 1
                    }
                }
                if whole {
                    plannedLines.set(header + 5, to: lines)
                } else if maxLines == 1, mode == .truncateTail, width > 0 {
                    let cut = TextLayout.tailCut(text, width: width)
                    plannedLines.count = header + 6  // one line: the cut, then the ellipsis
                    plannedLines.reserve(3)
                    plannedLines.put(0)
                    plannedLines.put(cut.end | Int(LinePlan.ellipsisFlag))
                    plannedLines.put(cut.columns)
                    plannedLines.set(header + 5, to: 1)
                } else {
                    plannedLines.count = header
                }
            }
        }

        #if DEBUG
        /// Tests only: the helper crashes (SIGSEGV) as it reaches this row of the file, to show that
        /// the crash is blamed on CellKit, not on the plugin whose hook runs at that moment.
        static let crashAt = getenv("CELLKIT_TEST_CRASH_READING_AHEAD").flatMap { Int(String(cString: $0)) }
        #endif

        /// Reads rows into `batch` up to the limits of a batch; true when the batch ends the file.
        private func fill(_ batch: UnsafeMutablePointer<Batch>) -> Bool {
            batch.pointee.removeAll()
            if let changed = plan.entries(after: plannedVersion) {
                plannedVersion = changed.version
                (plannedKeys, plannedLayouts) = ([], [])
                for entry in changed.entries {
                    plannedLayouts.append(
                        PlannedLayout(
                            keyStart: plannedKeys.count, keyCount: entry.key.count, width: entry.width,
                            maxLines: entry.maxLines, mode: entry.mode))
                    plannedKeys += entry.key
                }
            }
            return plannedKeys.withUnsafeBufferPointer { keys in
                plannedLayouts.withUnsafeBufferPointer { layouts in fill(batch, keys: keys, layouts: layouts) }
            }
        }

        /// `fill(_:)` with the plan's keys and layouts read in place.
        private func fill(
            _ batch: UnsafeMutablePointer<Batch>, keys: UnsafeBufferPointer<UInt8>,
            layouts: UnsafeBufferPointer<PlannedLayout>
        ) -> Bool {
            do {
                while batch.pointee.rows < limits.batchRows, batch.pointee.used < limits.batchBytes {
                    #if DEBUG
                    if stream.rowsRead == Self.crashAt { raise(SIGSEGV) }
                    #endif
                    guard let row = try stream.nextChecked() else {
                        batch.pointee.atEnd = true
                        return true
                    }
                    workOutLines(row, keys: keys, layouts: layouts)
                    // nil written out when it is: no String passed (retained and released) per row
                    if row.isDecoded {
                        batch.pointee.append(row, decodedCell: stream.decodedCell, planned: plannedLines.buffer)
                    } else {
                        batch.pointee.append(row, decodedCell: nil, planned: plannedLines.buffer)
                    }
                }
                return false
            } catch {
                batch.pointee.error = error
                return true
            }
        }
    }
}
