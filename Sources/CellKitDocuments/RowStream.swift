// Rows streamed from a JSON Lines or CSV file through one fixed buffer, so a
// million-row file costs the same memory as a ten-row one.

import CScan
import CellKitModel
import CellKitText
import Foundation
import Synchronization

/// A data file a section's rows come from.
public struct DataFile: Sendable {
    /// JSON Lines (one object per line) or CSV (a header line, then records).
    public enum Format: String, Sendable {
        /// `.jsonl` or `.ndjson`: one JSON object per line; a `"cell"` field names the row's identifier.
        case jsonLines
        /// `.csv`: RFC 4180 records under a header line; values are text, a `cell` column names the identifier.
        case csv

        /// The format a file name's extension says, or nil.
        init?(path: String) {
            switch (path as NSString).pathExtension.lowercased() {
            case "jsonl", "ndjson": self = .jsonLines
            case "csv": self = .csv
            default: return nil
            }
        }
    }

    /// The file's path, joined to the document's folder (relative when the document's path is).
    public var path: String
    /// How the file's records are read, from its extension.
    public var format: Format
    /// Where the document names the file.
    public var mark: SourceMark
    /// The file's real path, checked to be inside the document's root when it loaded; what is opened.
    let real: String

    init(path: String, real: String, format: Format, mark: SourceMark) {
        (self.path, self.real, self.format, self.mark) = (path, real, format, mark)
    }
}

/// One row read from a data file.
package struct StreamedRow {
    package var cell: String?
    package var data: RowData
    /// Where the row's `cell` value is, for errors about it.
    package var line: Int, column: Int

    /// A row named `cell` (nil: its section's), with `data`, whose cell name is at `line`, `column`.
    package init(cell: String?, data: RowData, line: Int, column: Int) {
        (self.cell, self.data, self.line, self.column) = (cell, data, line, column)
    }
}

/// Reads a data file's rows in order, one record at a time.
/// Used by one table's thread, so its state skips the runtime exclusivity checks.
package final class RowStream {
    /// First of the stored properties, with `paddingAfter` last: the fields a reader ahead of the
    /// table writes row by row share no cache line with the blocks beside the stream (`CacheLine`).
    private let paddingBefore = CacheLine.Padding()
    package let file: DataFile
    private let fd: Int32
    @exclusivity(unchecked) private var buffer: UnsafeMutableRawBufferPointer
    @exclusivity(unchecked) private var start = 0, end = 0, atEOF = false
    /// The line the next record starts on (1-based).
    @exclusivity(unchecked) private var nextLine = 1
    /// The byte that ends a line: LF (also ending CRLF lines), or CR in a file whose lines end with CR only
    /// (as classic Mac OS wrote them), found from the first line end in the file.
    @exclusivity(unchecked) private var lineEnd: UInt8 = 0x0A
    /// The byte that ends the file's lines: LF, or CR in a file whose lines end with CR only.
    package var lineEndByte: UInt8 { lineEnd }
    @exclusivity(unchecked) private var header: [String] = []
    /// The index of the JSON Lines record being read, kept to reuse its memory.
    @exclusivity(unchecked) private var members = JSONValueParser.MemberIndex()
    /// Cell identifiers met so far (see `knownCell`).
    @exclusivity(unchecked) private var knownCells = KnownCells()
    /// Rows returned so far.
    package var rowsRead: Int { readCount }
    // Read through a getter by other modules: a stored property accessed from another
    // module gets a runtime exclusivity check whatever its own attribute says.
    @exclusivity(unchecked) private var readCount = 0
    /// The file offset of the buffer's first byte.
    @exclusivity(unchecked) private var bufferOffset = 0
    /// The file offset reading stops at (a search's window of rows: `seek(toOffset:…readingUpTo:)`).
    @exclusivity(unchecked) private var readLimit = Int.max
    /// The file offset of the next record not read yet (blank lines before it included).
    package var nextOffset: Int { bufferOffset + start }
    /// The line the next record starts on (1-based).
    package var nextLineNumber: Int { nextLine }

    package static let initialBuffer = 1 << 20
    package static let longestRecord = 16 << 20

    /// A stream of `file`'s rows read through a buffer of `bufferSize` bytes to begin with (tests
    /// make it small, so that records cross its refills); it grows for a longer record.
    package init(_ file: DataFile, bufferSize: Int = initialBuffer) throws(DocumentError) {
        self.file = file
        do throws(FileProblem) { fd = try FileAccess.openRegular(file.real, name: file.path) } catch {
            throw file.mark.error("cannot open the data file: \(error.message)")
        }
        buffer = Self.allocateBuffer(max(16, bufferSize))
        try findLineEnd()
        if file.format == .csv { try readHeader() }
    }

    deinit {
        close(fd)
        CacheLine.deallocatePages(buffer.baseAddress!, byteCount: buffer.count)
    }

    /// The read buffer, in pages of its own (`CacheLine.allocatePages`): a reader ahead of the
    /// table fills it, and a count's second half is read on another thread.
    private static func allocateBuffer(_ byteCount: Int) -> UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: CacheLine.allocatePages(byteCount: byteCount), count: byteCount)
    }

    // MARK: Rows

    /// The next row, or nil at the end of the file.
    package func next() throws(DocumentError) -> StreamedRow? {
        while let (record, line) = try nextRecord() {
            if isBlank(record) { continue }
            readCount += 1
            return file.format == .csv ? try csvRow(record, line: line) : try jsonRow(record, line: line)
        }
        return nil
    }

    /// Goes to byte `offset` of the file, where a record starts on line `line` and `rows` rows
    /// come before it (a place a `RowIndex` noted); reads no further than byte `limit` (where a
    /// record starts: the end of a window of rows a search reads).
    package func seek(toOffset offset: Int, line: Int, rows: Int, readingUpTo limit: Int = .max) throws(DocumentError) {
        guard lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw error(line, column: 1, "cannot seek: \(String(cString: strerror(errno)))")
        }
        (bufferOffset, start, end, atEOF, nextLine, readCount) = (offset, 0, 0, false, line, rows)
        readLimit = max(limit, offset)
    }

    /// The next row whose record `filter` admits (every row for nil), parsed as `next()` parses
    /// it; the rows before it are skipped unparsed (and unchecked), counted in `rowsRead`. Nil at
    /// the end of the file or once `rowsRead` reaches `limit`.
    package func next(admittedBy filter: RowPrefilter?, before limit: Int) throws(DocumentError) -> StreamedRow? {
        while readCount < limit, let (record, line) = try nextRecord() {
            if isBlank(record) { continue }
            readCount += 1
            if let filter, !filter.admits(record) { continue }
            malformedRow = readCount - 1  // if it throws: read past, the stream goes on at the next record
            let row = file.format == .csv ? try csvRow(record, line: line) : try jsonRow(record, line: line)
            malformedRow = nil
            return row
        }
        return nil
    }

    /// The row (counted from the file's start) whose record `next(admittedBy:before:)` last found
    /// malformed: a search steps over it and goes on.
    package private(set) var malformedRow: Int?

    /// Counts the rows, calling `note` with (rows before it, offset, line) before every
    /// `stride`-th row and every `stride` rows with the count so far; `note` returning false stops.
    /// Returns the count, or nil when stopped.
    package func index(every stride: Int, note: (Int, Int, Int) -> Bool) throws(DocumentError) -> Int? {
        var n = 0
        while true {
            let offset = nextOffset, line = nextLine
            guard let (record, _) = try nextRecord() else { return n }
            if isBlank(record) { continue }
            if n % stride == 0, !note(n, offset, line) { return nil }
            n += 1
        }
    }

    /// Skips `count` rows without parsing them.
    package func skip(_ count: Int) throws(DocumentError) {
        var left = count
        while left > 0, let (record, _) = try nextRecord() {
            if isBlank(record) { continue }
            left -= 1
            readCount += 1
        }
    }

    /// How many rows the file holds: one fast pass over its bytes. A JSON Lines file of at least
    /// `halvedCount` bytes is counted in two halves at once, split where a line ends: the pass runs
    /// before the first row is drawn, alone, and its copies out of the page cache were most of it
    /// (BENCHMARKS.md, "Measurements behind the code": RowStream.count). CSV is counted in one pass
    /// (a quoted field may hold a line end, so a half cannot know where its first record starts).
    /// (`halvingFrom`: the size from which a file is halved; tests make it small.)
    package static func count(_ file: DataFile, halvingFrom threshold: Int = halvedCount) throws(DocumentError) -> Int {
        let stream = try RowStream(file)
        if file.format != .csv, let (size, identity) = stream.sizeAndIdentity, size >= max(threshold, 2) {
            return try stream.countInHalves(size: size, identity: identity)
        }
        return try stream.countToEnd()
    }

    /// The size of a file at which `count` counts it in two halves at once.
    package static let halvedCount = 8 << 20

    /// The file's size now and which file it is, from one `fstat`; nil if it cannot be read.
    private var sizeAndIdentity: (size: Int, identity: FileIdentity)? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return (Int(info.st_size), FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
    }

    /// The rows from here to the end of what the stream reads.
    private func countToEnd() throws(DocumentError) -> Int {
        var n = 0
        while true {
            let (counted, atEnd) = try countRecords(atMost: Int.max)
            n += counted
            if atEnd { return n }
        }
    }

    /// `count` of a JSON Lines file `size` bytes long: in two halves when they can be trusted to
    /// give its count (`halvesCounted`), else in one pass from the start as before, so that an
    /// error names its true line and the file this stream opened is the one counted.
    private func countInHalves(size: Int, identity: FileIdentity) throws(DocumentError) -> Int {
        do throws(DocumentError) {
            if let rows = try halvesCounted(size: size, identity: identity) { return rows }
        } catch {}  // counted again in one pass: the error, if it is one, comes with its line
        try seek(toOffset: 0, line: 1, rows: 0)
        return try countToEnd()
    }

    /// The rows before the first line end from the middle on and after it, each counted by a
    /// stream of its own on a thread of its own; nil when no line ends past the middle (a file
    /// being written: its end may not be a record's), or when a half opened another file than
    /// this stream did, `identity` (the file replaced meanwhile).
    private func halvesCounted(size: Int, identity: FileIdentity) throws(DocumentError) -> Int? {
        // The records start after a line end: from the byte before the middle, the first record
        // read is the rest of the one the middle cuts (empty when a record starts at the middle).
        try seek(toOffset: size / 2 - 1, line: 1, rows: 0)
        _ = try nextRecord()
        let middle = nextOffset, file = file
        guard middle < size else { return nil }
        let halves = Mutex<[Result<(rows: Int, identity: FileIdentity?), DocumentError>]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { k in
            let counted = Result { () throws(DocumentError) -> (rows: Int, identity: FileIdentity?) in
                let half = try RowStream(file)
                try half.seek(toOffset: k == 0 ? 0 : middle, line: 1, rows: 0, readingUpTo: k == 0 ? middle : .max)
                return (try half.countToEnd(), half.sizeAndIdentity?.identity)
            }
            halves.withLock { $0.append(counted) }
        }
        var rows = 0
        for half in halves.withLock({ $0 }) {
            let counted = try half.get()
            guard counted.identity == identity else { return nil }
            rows += counted.rows
        }
        return rows
    }

    /// Which file a stream reads: its device and inode.
    private struct FileIdentity: Equatable, Sendable {
        let device: UInt64, inode: UInt64
    }

    /// Reads on past at most `limit` records, counting the rows among them (blank lines are not
    /// rows): how many, and whether the file has ended. A count made a slice at a time
    /// (`RowCount` in the supervisor, between a worker's frames).
    package func countRecords(atMost limit: Int) throws(DocumentError) -> (rows: Int, atEnd: Bool) {
        var rows = 0, records = 0
        while records < limit {
            // The whole records read so far, in C (no quoted line ends): record by record through
            // `nextRecord` the count cost about twice (BENCHMARKS.md, "Measurements behind the
            // code": RowStream.countInC).
            if file.format != .csv {
                var counted = 0, filled = 0
                let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
                start += ck_count_records(base + start, end - start, lineEnd, limit - records, &counted, &filled)
                (records, rows, nextLine) = (records + counted, rows + filled, nextLine + counted)
                if records == limit { break }
            }
            // The record the bytes read end in, read on for (or the last, without a line end).
            guard let (record, _) = try nextRecord() else { return (rows, true) }
            records += 1
            if !isBlank(record) { rows += 1 }
        }
        return (rows, false)
    }

    private func jsonRow(_ record: UnsafeBufferPointer<UInt8>, line: Int) throws(DocumentError) -> StreamedRow {
        let cell = try checkJSON(record, line: line)
        let name =
            cell.isDecoded ? decodedCell : cell.plain.map { knownCells.name(UnsafeBufferPointer(rebasing: record[$0])) }
        return StreamedRow(
            cell: name, data: .json(JSONRecord(line: record, members: members)), line: line, column: cell.column)
    }

    /// A JSON Lines row checked but not yet made a `StreamedRow` (`nextChecked()`). Its bytes are
    /// valid until the stream reads on.
    package struct CheckedRow {
        /// The record's bytes, and its member index (`JSONValueParser.MemberIndex`'s offsets).
        package var record: UnsafeBufferPointer<UInt8>, offsets: UnsafeBufferPointer<UInt32>
        /// Where the `"cell"` member's text is in `record` when it is written plainly.
        package var plainCell: Range<Int>?
        /// Whether the `"cell"` member had to be decoded (it has escapes): its value is then the
        /// stream's `decodedCell`. A flag, so that the row holds no reference: a `String?` in it
        /// was released (nil) on every row by the thread reading ahead (BENCHMARKS.md,
        /// "Measurements behind the code": RowStream.CheckedRow).
        package var isDecoded: Bool
        /// The row's line, and the column of its `"cell"` value.
        package var line: Int, column: Int
    }

    /// The decoded `"cell"` value of the last row checked (`nextChecked()`, `next()`), when it had
    /// to be decoded (`CheckedRow.isDecoded`); else a value of a row before.
    package private(set) var decodedCell: String?
    /// Last of the stored properties (see `paddingBefore`).
    private let paddingAfter = CacheLine.Padding()

    /// The next JSON Lines row, checked as `next()` checks it, or nil at the end of the file.
    package func nextChecked() throws(DocumentError) -> CheckedRow? {
        while let (record, line) = try nextRecord() {
            if isBlank(record) { continue }
            readCount += 1
            let cell = try checkJSON(record, line: line)
            return CheckedRow(
                record: record, offsets: UnsafeBufferPointer(start: members.offsets, count: members.count),
                plainCell: cell.plain, isDecoded: cell.isDecoded, line: line, column: cell.column)
        }
        return nil
    }

    /// Checks a JSON Lines record whole, so errors keep their line and column, indexing its members
    /// into `members` (decoded later, key by key); where its cell identifier is, and whether it had
    /// to be decoded (into `decodedCell`).
    private func checkJSON(
        _ record: UnsafeBufferPointer<UInt8>, line: Int
    ) throws(DocumentError) -> (plain: Range<Int>?, isDecoded: Bool, column: Int) {
        var parser = JSONValueParser(record)
        members.removeAll()
        do { try parser.check(members: &members) } catch {
            throw self.error(line, column: column(in: record, at: error.offset), "JSON: \(error.message)")
        }
        guard record.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "{") else {
            var whole = JSONValueParser(record)
            let found = (try? whole.parseDocument())?.typeName ?? "something else"
            throw self.error(line, column: 1, "expected a JSON object per line, found \(found)")
        }
        let cellColumn = column(in: record, at: parser.cellOffset ?? 0)
        guard let offset = parser.cellOffset else { return (nil, false, cellColumn) }
        if let plain = parser.cellText { return (plain, false, cellColumn) }
        guard case .string(let s)? = parser.value(at: offset) else {
            let found = parser.value(at: offset)?.typeName ?? "something else"
            throw self.error(line, column: cellColumn, "\"cell\" must be a cell identifier in quotes, found \(found)")
        }
        decodedCell = s
        return (nil, true, cellColumn)
    }

    /// Cell identifiers met so far, with their bytes in raw memory: a table names few
    /// cell types, and making a String from the bytes on every row cost more than finding it here.
    struct KnownCells: ~Copyable {
        static let places = 16, longest = 64  // longer names are not identifiers: decoded, then refused
        private let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: places * longest)
        private var lengths: [Int] = []
        private var names: [String] = []
        /// The place of the name met last: looked at first (rows of a table mostly name the cell
        /// type of the row before).
        private var last = -1

        deinit { bytes.deallocate() }

        /// The name written as `text`: the same String as before when it was met before.
        mutating func name(_ text: UnsafeBufferPointer<UInt8>) -> String {
            if let k = known(text) { return names[k] }
            let name = String(decoding: text, as: UTF8.self)
            if names.count < Self.places, text.count <= Self.longest {
                (bytes + names.count * Self.longest).update(from: text.baseAddress!, count: text.count)
                lengths.append(text.count)
                names.append(name)
            }
            return name
        }

        /// `name(text)` into `current`, left as it is when it is that name already: a row naming
        /// the cell type of the row before retains and releases nothing. Inline, with `known`: once
        /// a row, the two calls' entries and exits were half of it (BENCHMARKS.md, "Measurements
        /// behind the code": RowStream.nameInline).
        @inline(__always)
        mutating func name(_ text: UnsafeBufferPointer<UInt8>, into current: inout String?) {
            if let k = known(text) {
                if current != names[k] { current = names[k] }
            } else {
                current = name(text)
            }
        }

        /// The place of the name written as `text`: the last one met first, its bytes compared in
        /// words inline (a `memcmp` call and the loop over the places were most of a row's lookup:
        /// BENCHMARKS.md, "Measurements behind the code": RowStream.lastCell).
        @inline(__always)
        private mutating func known(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
            let n = text.count
            if last >= 0, lengths.withUnsafeBufferPointer({ $0[last] }) == n,
                Self.same(bytes + last &* Self.longest, text.baseAddress!, n)
            {
                return last
            }
            for k in lengths.indices
            where lengths[k] == n && memcmp(bytes + k * Self.longest, text.baseAddress!, n) == 0 {
                last = k
                return k
            }
            return nil
        }

        /// Whether the `n` bytes at `a` and `b` are the same: up to 16 in two overlapping words
        /// (or halves, or bytes), more by `memcmp`. `JSONValueParser.sameBytes` does this byte by
        /// byte in its own module; made inlinable to be called here, it was no longer inlined there
        /// (BENCHMARKS.md, "Measurements behind the code": RowStream.lastCell).
        @inline(__always)
        private static func same(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
            func word(_ p: UnsafePointer<UInt8>, _ at: Int) -> UInt64 {
                UnsafeRawPointer(p).loadUnaligned(fromByteOffset: at, as: UInt64.self)
            }
            func half(_ p: UnsafePointer<UInt8>, _ at: Int) -> UInt32 {
                UnsafeRawPointer(p).loadUnaligned(fromByteOffset: at, as: UInt32.self)
            }
            switch n {
            case 8...16: return word(a, 0) == word(b, 0) && word(a, n &- 8) == word(b, n &- 8)
            case 4..<8: return half(a, 0) == half(b, 0) && half(a, n &- 4) == half(b, n &- 4)
            case 0..<4: return (0..<n).allSatisfy { a[$0] == b[$0] }
            default: return memcmp(a, b, n) == 0
            }
        }
    }

    private func csvRow(_ record: UnsafeBufferPointer<UInt8>, line: Int) throws(DocumentError) -> StreamedRow {
        let values = try csvFields(record, line: line)
        guard values.count == header.count else {
            throw error(
                line, column: 1,
                "the record has \(values.count) fields, the header has \(header.count); quote fields that contain commas"
            )
        }
        var fields: [String: RowValue] = [:]
        var cell: String?
        for (key, value) in zip(header, values) {
            if key == "cell" { cell = value } else { fields[key] = .string(value) }
        }
        return StreamedRow(cell: cell, data: .value(.object(fields)), line: line, column: 1)
    }

    private func readHeader() throws(DocumentError) {
        guard let (record, line) = try nextRecord() else {
            throw error(1, column: 1, "the CSV file is empty; its first line must name the columns")
        }
        header = try csvFields(record, line: line)
        var seen: [String: Int] = [:]
        for (k, name) in header.enumerated() {
            // Positions, not the name: a message never quotes a data file.
            if let first = seen[name] {
                throw error(
                    line, column: 1,
                    "the header names the same column twice (fields \(first + 1) and \(k + 1)); give each column its own name"
                )
            }
            seen[name] = k
        }
    }

    /// RFC 4180 fields: commas separate, quotes wrap fields with commas, quotes or newlines, "" is a quote.
    private func csvFields(_ record: UnsafeBufferPointer<UInt8>, line: Int) throws(DocumentError) -> [String] {
        var fields: [String] = [], field: [UInt8] = [], quoted = false, i = 0
        while i < record.count {
            let b = record[i]
            if quoted {
                if b == UInt8(ascii: "\"") {
                    if i + 1 < record.count, record[i + 1] == UInt8(ascii: "\"") {
                        field.append(b); i += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(b)
                }
            } else if b == UInt8(ascii: ",") {
                fields.append(String(decoding: field, as: UTF8.self)); field.removeAll(keepingCapacity: true)
            } else if b == UInt8(ascii: "\""), field.isEmpty {
                quoted = true
            } else if b != 0x0D || i + 1 < record.count {
                field.append(b)
            }
            i += 1
        }
        if quoted { throw error(line, column: 1, "a quoted field is not closed; end it with '\"'") }
        fields.append(String(decoding: field, as: UTF8.self))
        return fields
    }

    // MARK: Records

    /// The next line (CSV: record, which may span lines inside quotes) without its newline, and its line number.
    private func nextRecord() throws(DocumentError) -> (UnsafeBufferPointer<UInt8>, Int)? {
        var scan = start, inQuotes = false
        while true {
            let bytes = buffer.bindMemory(to: UInt8.self)
            if file.format != .csv {  // no quoted newlines: libc's memchr finds the line end
                let base = bytes.baseAddress!
                scan =
                    memchr(base + scan, Int32(lineEnd), end - scan).map {
                        UnsafeRawPointer($0) - UnsafeRawPointer(base)
                    }
                    ?? end
            }
            while scan < end {
                let b = bytes[scan]
                if b == lineEnd, !inQuotes {
                    let record = UnsafeBufferPointer(rebasing: bytes[start..<scan])
                    let line = nextLine
                    nextLine += 1 + newlines(in: record)
                    start = scan + 1
                    return (record, line)
                }
                if b == UInt8(ascii: "\""), file.format == .csv { inQuotes.toggle() }
                scan += 1
            }
            if atEOF {
                guard start < end else { return nil }
                let record = UnsafeBufferPointer(rebasing: bytes[start..<end])
                let line = nextLine
                start = end
                return (record, line)
            }
            scan -= start
            try refill()
        }
    }

    private func newlines(in record: UnsafeBufferPointer<UInt8>) -> Int {
        file.format == .csv ? record.reduce(0) { $0 + ($1 == lineEnd ? 1 : 0) } : 0
    }

    /// Reads the start of the file and sets `lineEnd`: CR when the first line end is a CR not followed by LF.
    private func findLineEnd() throws(DocumentError) {
        while true {
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[start..<end])
            if let k = bytes.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
                if bytes[k] == 0x0A { return }
                if k + 1 < bytes.count {
                    lineEnd = bytes[k + 1] == 0x0A ? 0x0A : 0x0D
                    return
                }
                if atEOF {
                    lineEnd = 0x0D
                    return
                }
                // The CR is the last byte read so far: read on to see what follows it.
            } else if atEOF || end == buffer.count {
                return  // no line end in the first buffer: LF, as nearly every file has
            }
            try refill()
        }
    }

    /// Moves the unread bytes to the front and reads more; grows the buffer for a long record.
    private func refill() throws(DocumentError) {
        let pending = end - start
        if start > 0 {
            bufferOffset += start
            buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: pending)
            (start, end) = (0, pending)
        }
        if end == buffer.count {
            guard buffer.count < Self.longestRecord else {
                throw error(
                    nextLine, column: 1,
                    "a record longer than \(Self.longestRecord >> 20) MiB; is this a JSON Lines file (one object per line)?"
                )
            }
            let grown = Self.allocateBuffer(buffer.count * 2)
            grown.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: end)
            CacheLine.deallocatePages(buffer.baseAddress!, byteCount: buffer.count)
            buffer = grown
        }
        let room = min(buffer.count - end, readLimit - (bufferOffset + end))
        guard room > 0 else {
            atEOF = true
            return
        }
        var n = read(fd, buffer.baseAddress! + end, room)
        while n < 0, errno == EINTR { n = read(fd, buffer.baseAddress! + end, room) }
        guard n >= 0 else { throw error(nextLine, column: 1, "cannot read: \(String(cString: strerror(errno)))") }
        if n == 0 { atEOF = true } else { end += n }
    }

    // MARK: Helpers

    private func isBlank(_ record: UnsafeBufferPointer<UInt8>) -> Bool {
        record.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// The 1-based column, in unicode scalars, of byte `offset` in `record`.
    @inline(__always)
    private func column(in record: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int {
        // The usual `{"cell": ` (8 to 16 bytes, offset within the record): two overlapping words of
        // printable ASCII, tested inline (BENCHMARKS.md, "Measurements behind the code": RowStream.column).
        if offset >= 8, offset <= 16, let base = record.baseAddress,
            UTF8Bytes.isPrintableASCII(ByteWord(loading: base).bits),
            UTF8Bytes.isPrintableASCII(ByteWord(loading: base + (offset &- 8)).bits)
        {
            return offset + 1
        }
        if UTF8Bytes.printableASCIIPrefix(UnsafeBufferPointer(rebasing: record[..<offset])) == offset {
            return offset + 1
        }
        return record.prefix(offset).reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }

    private func error(_ line: Int, column: Int, _ message: String) -> DocumentError {
        DocumentError(file: file.path, line: line, column: column, message)
    }
}
