// The fuzz targets: each takes one input (bytes) and runs it through a reader of
// untrusted files the way the library does. A target crashes (trap, sanitizer
// report, precondition) only on a bug; every refusal the readers throw is fine.
// The same code runs under libFuzzer (Entry.swift, -DCELLKIT_FUZZ) and in the
// replay tool of the normal build.

import CellKitDiscovery
import CellKitDocuments
import CellKitModel
import CellKitRuntime
import CellKitSupervision
import Foundation

/// One fuzz target; its raw value names it on the command line and its corpus folder (`Fuzz/corpus/<name>`).
enum FuzzTarget: String, CaseIterable {
    /// `ELFImage(bytes:)`, the bytes of every symbol, then `PluginFile.read(path:)` on the input as a file
    /// and its preview symbols.
    case elf
    /// A JSON Lines file: every line through `JSONRecord(checking:)` and `JSONValueParser`, then `RowStream`.
    case jsonl
    /// A CSV file through `RowStream`.
    case csv
    /// `TableDocument(contentsOf:)` with a stylesheet, an asset catalog and data files (see `DocumentInput`).
    case document
    /// The supervisor's `FrameDecoder` over bytes from a worker (see `FuzzFrames`).
    case frames

    /// Runs one input; returns the first refusal met (for the replay tool's listing), nil if it was read whole.
    @discardableResult
    func run(_ input: UnsafeRawBufferPointer) -> (any Error)? {
        switch self {
        case .elf: FuzzELF.run(input)
        case .jsonl: FuzzJSONLines.run(input)
        case .csv: FuzzCSV.run(input)
        case .document: FuzzDocument.run(input)
        case .frames: FuzzFrames.run(input)
        }
    }
}

// MARK: - Scratch files

/// A private folder for the files the targets write, made once per process
/// (libFuzzer runs every input in one process; `-fork`/`-jobs` children get their own).
enum Scratch {
    static let folder: String = {
        var template = Array(
            "\((NSTemporaryDirectory() as NSString).appendingPathComponent("cellkit-fuzz-XXXXXX"))".utf8CString)
        guard let made = mkdtemp(&template) else { fatalError("cellkit-fuzz: mkdtemp failed: \(errno)") }
        let path = String(cString: made)
        atexit { Scratch.removeFolder() }
        return path
    }()

    static func removeFolder() { try? FileManager.default.removeItem(atPath: folder) }

    /// Writes `bytes` to `name` in the scratch folder (replacing it) and returns its path.
    @discardableResult
    static func write(_ bytes: UnsafeRawBufferPointer, as name: String) -> String {
        let path = "\(folder)/\(name)"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { fatalError("cellkit-fuzz: cannot write \(path): \(errno)") }
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            guard n > 0 else { fatalError("cellkit-fuzz: cannot write \(path): \(errno)") }
            done += n
        }
        close(fd)
        return path
    }
}

/// A refusal that is not an `Error` of the library (a plugin's problems).
struct Refusal: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

// MARK: - ELF

enum FuzzELF {
    static func run(_ input: UnsafeRawBufferPointer) -> (any Error)? {
        let bytes = Data(input)
        let image: ELFImage
        do { image = try ELFImage(bytes: bytes) } catch { return error }
        for symbol in image.dynamicSymbols + image.staticSymbols { _ = image.contents(of: symbol, atMost: 1 << 20) }
        // The whole discovery path for a file (descriptor, hooks, signatures, near misses):
        // only for inputs that parse, since it costs a file write.
        let path = Scratch.write(input, as: "plugin.so")
        switch PluginFile.read(path: path) {
        case .success(let file):
            _ = file.cellTypes.map(\.hooks.count)
            _ = file.nearMisses.count
            // Its previews (CK_PREVIEW symbols: JSON text, sizes, names), from the image already read.
            _ = file.previewSymbols(in: image).samples.map(\.json)
            return file.problems.isEmpty ? nil : Refusal(file.problems.joined(separator: "; "))
        case .failure(let rejection): return rejection
        }
    }
}

// MARK: - JSON Lines

enum FuzzJSONLines {
    /// Key paths every row is asked for besides its own keys: nested objects and lists, the "cell" key.
    static let paths = ["", "text", "cell", "a", "a.b", "a.0", "a.0.b", "logos.1", "0", "a..b", "."]

    static func run(_ input: UnsafeRawBufferPointer) -> (any Error)? {
        let bytes = input.bindMemory(to: UInt8.self)
        // Each line on its own, as the row checker and the parser see it.
        var start = 0
        for end in bytes.indices where bytes[end] == 0x0A {
            checkLine(UnsafeBufferPointer(rebasing: bytes[start..<end]))
            start = end + 1
        }
        checkLine(UnsafeBufferPointer(rebasing: bytes[start...]))
        // The same bytes as a data file, through the stream a table reads.
        Scratch.write(input, as: "rows.jsonl")
        return streamRows(ScratchDataFile.jsonLines)
    }

    /// The checking pass and the building parser must agree on what is JSON; a checked
    /// record must answer every key path as the decoded value does.
    static func checkLine(_ line: UnsafeBufferPointer<UInt8>) {
        checkBothWays(line)
        var builder = JSONValueParser(line)
        let built = Result { () throws(JSONSyntaxError) in try builder.parseDocument() }
        let record: JSONRecord
        do throws(JSONSyntaxError) {
            record = try JSONRecord(checking: line)
        } catch {
            if case .success = built { fatalError("the checker refused what the parser accepts: \(error.message)") }
            return
        }
        guard case .success(var value) = built else { fatalError("the parser refused what the checker accepts") }
        if case .object(var fields) = value {  // a record's "cell" is its identifier, not data
            fields["cell"] = nil
            value = .object(fields)
        }
        let whole = record.value(at: "")
        guard whole == value else { fatalError("the record's whole value differs from the parsed one") }
        ask(RowData.json(record), value: value)
    }

    /// The check's one pass in C (CScan) may only take what the Swift parser alone accepts, and must
    /// index it alike: the same offsets and flags, the same "cell".
    static func checkBothWays(_ line: UnsafeBufferPointer<UInt8>) {
        func check(inC: Bool) -> (offsets: [UInt32], cell: Int?, cellText: Range<Int>?)? {
            var members = JSONValueParser.MemberIndex()
            var parser = JSONValueParser(line)
            guard (try? parser.check(members: &members, inC: inC)) != nil else { return nil }
            return (
                Array(UnsafeBufferPointer(start: members.offsets, count: members.count)), parser.cellOffset,
                parser.cellText
            )
        }
        let inC = check(inC: true), inSwift = check(inC: false)
        guard inC?.offsets == inSwift?.offsets, inC?.cell == inSwift?.cell, inC?.cellText == inSwift?.cellText else {
            fatalError(
                "the check in C and the parser differ: \(String(describing: inC)) against \(String(describing: inSwift))"
            )
        }
    }

    /// Reads every key path of `data`, comparing plain top-level keys with `value`.
    static func ask(_ data: RowData, value: RowValue?) {
        for path in paths {
            _ = data.value(at: path)
            if case .json(let record) = data { _ = record.plainString(at: path) }
        }
        guard case .object(let fields)? = value else { return }
        // ASCII keys only: a dictionary merges keys that are canonically equivalent
        // ("é" written precomposed or not) or decode to the same U+FFFD, the byte index does not.
        for (key, expected) in fields.prefix(16) where !key.isEmpty && key.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x2E })
        {
            guard data.value(at: key) == expected else { fatalError("key '\(key)' reads differently from the record") }
            if case .json(let record) = data { _ = record.plainString(at: key) }
        }
    }
}

/// Reads a data file as a table does: counts its rows, then streams them and reads their data.
@discardableResult
func streamRows(_ file: DataFile) -> (any Error)? {
    do throws(DocumentError) {
        let count = try RowStream.count(file)
        let stream = try RowStream(file)
        while let row = try stream.next() {
            if file.format == .csv {
                FuzzJSONLines.ask(row.data, value: row.data.rowValue)
            } else {
                _ = row.data.rowValue
            }
            _ = row.cell
        }
        guard stream.rowsRead == count else { fatalError("counted \(count) rows, read \(stream.rowsRead)") }
        return nil
    } catch {
        return error
    }
}

/// The `DataFile` of `rows.jsonl` or `rows.csv` in the scratch folder. Its initializer is internal
/// to CellKitDocuments, so it comes from a document that names the file, as a table's does.
enum ScratchDataFile {
    static let jsonLines = make("rows.jsonl")
    static let csv = make("rows.csv")

    private static func make(_ name: String) -> DataFile {
        let yaml = "sections:\n  - cell: Row\n    rowsFrom: \(name)\n"
        let path = yaml.utf8CString.withUnsafeBytes {
            Scratch.write(UnsafeRawBufferPointer(rebasing: $0.dropLast()), as: "\(name).yaml")
        }
        guard let document = try? TableDocument(contentsOf: path), case .file(let file) = document.sections.first?.rows
        else { fatalError("cellkit-fuzz: the document naming \(name) did not load") }
        return file
    }
}

// MARK: - CSV

enum FuzzCSV {
    static func run(_ input: UnsafeRawBufferPointer) -> (any Error)? {
        Scratch.write(input, as: "rows.csv")
        return streamRows(ScratchDataFile.csv)
    }
}

// MARK: - Documents

/// A document input is up to five files, separated by lines holding only `%%`:
/// `table.yaml`, `style.yaml`, `assets.yaml`, `rows.jsonl`, `rows.csv`, in that order,
/// so one input can name its stylesheet, asset catalog and data files by those names.
/// `image.svg` always exists for assets' `file:`.
enum FuzzDocument {
    static let names = ["table.yaml", "style.yaml", "assets.yaml", "rows.jsonl", "rows.csv"]
    static let separator = Array("\n%%\n".utf8)

    static func run(_ input: UnsafeRawBufferPointer) -> (any Error)? {
        let bytes = input.bindMemory(to: UInt8.self)
        var parts: [UnsafeBufferPointer<UInt8>] = []
        var start = 0, i = 0
        while parts.count < names.count - 1, i + separator.count <= bytes.count {
            if memcmp(bytes.baseAddress! + i, separator, separator.count) == 0 {
                parts.append(UnsafeBufferPointer(rebasing: bytes[start..<i]))
                i += separator.count
                start = i
            } else {
                i += 1
            }
        }
        parts.append(UnsafeBufferPointer(rebasing: bytes[start...]))
        for (name, part) in zip(names, parts) { Scratch.write(UnsafeRawBufferPointer(part), as: name) }
        for name in names.dropFirst(parts.count) { unlink("\(Scratch.folder)/\(name)") }
        Scratch.write(UnsafeRawBufferPointer(start: nil, count: 0), as: "image.svg")

        let document: TableDocument
        do { document = try TableDocument(contentsOf: "\(Scratch.folder)/table.yaml") } catch { return error }
        _ = document.stylesheet.styles.count
        _ = document.assets.images.values.map(\.glyph)
        for section in document.sections {
            // Only the files of this input: a document may name any path, and /dev/zero never ends.
            if case .file(let file) = section.rows, file.path.hasPrefix(Scratch.folder + "/rows.") {
                if let error = streamRows(file) { return error }
            }
        }
        return nil
    }
}

// MARK: - Worker frames

/// What a supervisor reads from a worker, two ways by the first byte. Even: the bytes as they
/// are, in pieces of a size the second byte gives (a hostile or broken worker). Odd: the rest cut
/// into payloads that are sent as real frames and read back, each equal to what was sent, then
/// the same bytes with one byte changed, which must be refused or read as other frames, never trap.
enum FuzzFrames {
    static let key: UInt64 = 0x0123_4567_89AB_CDEF

    static func run(_ input: UnsafeRawBufferPointer) -> (any Error)? {
        guard input.count >= 2 else { return nil }
        let bytes = Array(input)
        let piece = Int(bytes[1] % 64) + 1
        if bytes[0] % 2 == 0 { return decode(Array(bytes.dropFirst(2)), piece: piece).error }
        var frames: [Frame] = []
        var stream: [UInt8] = []
        for (n, chunk) in bytes.dropFirst(2).split(separator: 0xFF, omittingEmptySubsequences: false).enumerated() {
            let frame = Frame(kind: UInt16(chunk.first ?? 0), value: UInt64(chunk.count), payload: Array(chunk))
            frames.append(frame)
            stream += frame.encoded(sequence: UInt32(n + 1), key: key)
        }
        let (read, error) = decode(stream, piece: piece)
        precondition(error == nil && read == frames, "frames sent are read back unchanged")
        if stream.count > 1 {  // the same stream cut short: a frame begun, which the clock ends in time
            let (_, cutError, partial) = decode(Array(stream.dropLast()), piece: piece, partial: true)
            if cutError == nil { expectClock(partial: partial, seed: bytes) }
        }
        let at = Int(bytes[1]) * 7 % stream.count
        stream[at] ^= bytes[0] | 1
        return decode(stream, piece: piece).error
    }

    /// Reads `stream` in pieces of `piece` bytes: the frames before the first refusal, and it.
    static func decode(_ stream: [UInt8], piece: Int) -> (frames: [Frame], error: FrameError?) {
        let (frames, error, _) = decode(stream, piece: piece, partial: false)
        return (frames, error)
    }

    /// `decode(_:piece:)`, with the bytes of a frame begun and not ended at the end; checks that
    /// the decoder's count of them is what was fed and not taken, after every piece.
    static func decode(_ stream: [UInt8], piece: Int, partial: Bool) -> ([Frame], FrameError?, Int) {
        var decoder = FrameDecoder(key: key)
        var frames: [Frame] = []
        var start = 0, taken = 0
        while start < stream.count {
            let end = min(stream.count, start + piece)
            stream[start..<end].withUnsafeBytes { decoder.append($0) }
            start = end
            do {
                while let frame = try decoder.nextFrame() {
                    frames.append(frame)
                    taken += Frame.headerSize + frame.payload.count
                }
            } catch { return (frames, error, decoder.partialBytes) }
            precondition(decoder.partialBytes == start - taken, "the bytes waiting are those fed and not taken")
        }
        return (frames, nil, decoder.partialBytes)
    }

    /// The supervisor's clock over a stream that stopped `partial` bytes into a frame: no stall
    /// before the limit, a stall from it on; and a stolen acknowledgement the same.
    static func expectClock(partial: Int, seed: [UInt8]) {
        precondition(partial > 0, "a stream cut short leaves a frame begun")
        let clock = ChannelClock(limit: Double(seed[1] % 20 + 1) / 4)
        let before = clock.limit * Double(seed[0]) / 256, after = clock.limit * (1 + Double(seed[0]) / 64)
        precondition(
            clock.stall(partialBytes: partial, quiet: before, waitingFor: 0, acknowledged: 0, sinceAcknowledged: nil)
                == nil, "no stall before the limit")
        precondition(
            clock.stall(partialBytes: partial, quiet: after, waitingFor: 0, acknowledged: 0, sinceAcknowledged: nil)
                != nil, "a stall at the limit")
        let sent = Int64(seed.count % 7 + 1)
        precondition(
            clock.stall(
                partialBytes: 0, quiet: after, waitingFor: sent, acknowledged: sent - 1, sinceAcknowledged: after)
                == nil, "waiting for an acknowledgement not sent yet is no stall")
        precondition(
            clock.stall(partialBytes: 0, quiet: 0, waitingFor: sent, acknowledged: sent, sinceAcknowledged: after)
                != nil,
            "an acknowledgement sent and still waited for is a stall")
    }
}
