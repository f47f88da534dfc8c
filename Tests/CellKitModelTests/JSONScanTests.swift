// The JSON Lines check passes over a string's plain ASCII sixteen bytes at a time (CScan): the
// scan must stop exactly where the byte test would, and the check must find the same strings
// plain and clean as before, wherever a special byte lies in a block of sixteen.

import CScan
import CellKitTestSupport
import Testing

@testable import CellKitModel

@Suite("JSON Lines check: string bodies sixteen bytes at a time (CScan)")
struct JSONScanTests {
    /// The bytes a string body's plain ASCII run ends at: a quote, a backslash, a control byte,
    /// DEL, or a byte of 0x80 and above. The oracle the scan is held to.
    static func stops(_ b: UInt8) -> Bool { b < 0x20 || b >= 0x7F || b == 0x22 || b == 0x5C }

    /// Random texts of 0 to 70 bytes, drawn mostly from around the bytes the scan stops at.
    static func texts(seed: UInt64) -> [[UInt8]] {
        SplitMix64.texts(
            seed: seed,
            near: [0x00, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xC3, 0xE2, 0xFF])
    }

    /// `ck_scan_json_string_ascii` stops at the first byte `stops` takes, wherever it lies in a
    /// block of sixteen or in the tail, and only there.
    @Test func stopsAtTheFirstByteNotPlainASCII() {
        for text in Self.texts(seed: 0x15_0A) {
            let expected = text.firstIndex { Self.stops($0) } ?? text.count
            let scanned = text.withUnsafeBufferPointer { ck_scan_json_string_ascii($0.baseAddress, $0.count) }
            #expect(scanned == expected, "\(text)")
        }
    }

    /// A record whose text member holds one special byte at every place from 0 to 40 (across the
    /// blocks of sixteen): a quote written escaped, a backslash escape, a tab (a syntax error
    /// raw), DEL (plain, not clean), a two-byte scalar (plain and clean), a lone continuation
    /// byte (not valid UTF-8: never handed as its bytes). The check answers as it does for the
    /// byte on its own.
    @Test func checkFindsEachSpecialByteWherever() throws {
        let cases: [(bytes: [UInt8], plain: Bool?, clean: Bool)] = [
            (Array(#"\""#.utf8), false, false), (Array(#"\n"#.utf8), false, false), ([0x09], nil, false),
            ([0x7F], true, false), ([0xC3, 0xA9], true, true), ([0x80], false, false), ([], true, true),
        ]
        for (special, plain, clean) in cases {
            for at in 0...40 {
                let text = Array(repeating: UInt8(ascii: "a"), count: at) + special + Array("bc".utf8)
                let line = Array(#"{"cell": "C", "k": ""#.utf8) + text + Array(#"", "z": 1}"#.utf8)
                let record = line.withUnsafeBufferPointer { try? JSONRecord(checking: $0) }
                guard let plain else {
                    #expect(record == nil, "byte \(special) at \(at) should fail the check")
                    continue
                }
                let found = try #require(record, "byte \(special) at \(at)").plainString(at: "k")
                if plain {
                    #expect(found.map { Array($0.bytes) } == text, "byte \(special) at \(at)")
                    #expect(found?.isClean == clean, "byte \(special) at \(at)")
                } else {
                    // Escaped or not UTF-8: not handed as its bytes (a hook gets the decoded text).
                    #expect(found == nil, "byte \(special) at \(at)")
                }
            }
        }
    }

    /// The check flags a member's text as all printable ASCII exactly when it is: the reader then
    /// breaks it into lines without looking at its bytes for that again (`JSONValueParser.asciiFlag`).
    @Test func flagsPrintableASCIIExactly() {
        var flagged = 0, notFlagged = 0
        // Random bytes are seldom valid UTF-8: texts with a scalar beyond ASCII among printable ASCII too.
        let beyond = (0..<2_000).map { k in
            Array(String(repeating: "a~ ", count: k % 7).utf8) + Array(["é", "日本", "✓", "👍🏽"][k % 4].utf8)
                + Array(String(repeating: "z", count: k % 5).utf8)
        }
        for text in Self.texts(seed: 0x15_0B) + beyond {
            let line = Array(#"{"cell": "C", "k": ""#.utf8) + text + Array(#"", "z": "x"}"#.utf8)
            var members = JSONValueParser.MemberIndex()
            let checked = line.withUnsafeBufferPointer { line -> Bool in
                var parser = JSONValueParser(line)
                return (try? parser.check(members: &members)) != nil
            }
            guard checked else { continue }  // a raw control byte, say
            let offsets = UnsafeBufferPointer(start: members.offsets, count: members.count)
            let found = line.withUnsafeBufferPointer { line in
                Array("\"k\"".utf8).withUnsafeBufferPointer {
                    JSONRecord.plainCleanText($0, in: line, offsets: offsets)
                }
            }
            guard let found else { continue }  // escaped, or not clean
            #expect(Array(found.text) == text, "\(text)")
            let printable = text.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
            #expect(found.isASCII == printable, "\(text)")
            if found.isASCII { flagged += 1 } else { notFlagged += 1 }
        }
        #expect(flagged > 1_000 && notFlagged > 1_000, "\(flagged) flagged, \(notFlagged) not")
    }
}

@Suite("A data file's records counted in C (CScan)")
struct RecordCountTests {
    /// `ck_count_records` counts the records a line end closes, at most `limit`, and the rows among
    /// them (a record of spaces, tabs and CRs only is no row), as splitting the bytes does: random
    /// buffers of records, blank lines and line ends of either kind, every limit from 0 to past the
    /// count, and where it stopped. Half the trials have long records and runs of blanks, so that
    /// records and line ends fall across the 128-byte blocks the AVX2 count takes, and a blank line
    /// spans them (a buffer under 128 bytes is counted without AVX2). Each buffer is counted both by
    /// `ck_count_records` (with AVX2 where this processor has it) and by the count without it
    /// (`ck_count_records_bytewise`), so that both are held to the split whatever the machine.
    @Test(arguments: [false, true]) func countsAsSplittingDoes(bytewise: Bool) {
        var random = SplitMix64(seed: 0xC0_0417)
        let short: [[UInt8]] = [Array(#"{"t": 1}"#.utf8), [0x20], [0x09], [0x0D], [0x20, 0x0D], Array("x".utf8), []]
        let long =
            short + [
                Array(#"{"t": "a title", "d": "a description of some length", "w": "日本語"}"#.utf8),
                [UInt8](repeating: 0x20, count: 70), [UInt8](repeating: 0x09, count: 33),
                Array(repeating: 0x78, count: 63),
            ]
        for trial in 0..<3_000 {
            let lineEnd: UInt8 = trial % 2 == 0 ? 0x0A : 0x0D
            let pieces = trial % 4 < 2 ? short : long
            var bytes: [UInt8] = []
            for _ in 0..<Int(random.next() % 12) {
                for _ in 0..<Int(random.next() % 3) { bytes += pieces[Int(random.next() % UInt64(pieces.count))] }
                if random.next() % 5 != 0 { bytes.append(lineEnd) }
            }
            // The reference: records split at each line end (the bytes after the last are no record yet).
            var records: [ArraySlice<UInt8>] = [], from = 0
            for (k, b) in bytes.enumerated() where b == lineEnd {
                records.append(bytes[from..<k])
                from = k + 1
            }
            for limit in 0...(records.count + 1) {
                let taken = records.prefix(limit)
                var counted = 0, rows = 0
                let next = bytes.withUnsafeBufferPointer {
                    bytewise
                        ? ck_count_records_bytewise($0.baseAddress, $0.count, lineEnd, limit, &counted, &rows)
                        : ck_count_records($0.baseAddress, $0.count, lineEnd, limit, &counted, &rows)
                }
                #expect(counted == taken.count, "trial \(trial), limit \(limit)")
                #expect(rows == taken.filter { $0.contains { ![0x20, 0x09, 0x0D].contains($0) } }.count)
                #expect(next == (taken.last.map { $0.endIndex + 1 } ?? 0), "trial \(trial), limit \(limit)")
            }
        }
    }
}
