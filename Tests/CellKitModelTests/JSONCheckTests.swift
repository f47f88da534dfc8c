// The JSON Lines check takes a well-formed record in CScan's one pass (`ck_json_check_record`) and
// leaves everything else to the Swift parser. The pass must never accept what the parser refuses,
// and what it accepts it must index exactly as the parser does: the same member offsets, the same
// flags (plain, clean, ASCII), the same "cell" value. It must also take the records people write,
// or it is only a slower way to the same parser.

import CScan
import CellKitTestSupport
import Glibc
import Testing

@testable import CellKitModel

@Suite("JSON Lines check: the one pass in C against the Swift parser")
struct JSONCheckTests {
    /// What one check found: refused (with the parser's message and place), or the members' offsets,
    /// where "cell" is and its text when written plainly (from the pass's flags in C).
    enum Outcome: Equatable {
        case refused(offset: Int, message: String)
        case checked(offsets: [UInt32], cell: Int?, cellText: Range<Int>?)
    }

    static func check(_ line: [UInt8], inC: Bool) -> Outcome {
        line.withUnsafeBufferPointer { bytes in
            var members = JSONValueParser.MemberIndex()
            var parser = JSONValueParser(bytes)
            do throws(JSONSyntaxError) {
                try parser.check(members: &members, inC: inC)
            } catch {
                return .refused(offset: error.offset, message: error.message)
            }
            return .checked(
                offsets: Array(UnsafeBufferPointer(start: members.offsets, count: members.count)),
                cell: parser.cellOffset, cellText: parser.cellText)
        }
    }

    /// Whether the C pass takes `line` whole on its own.
    static func takenInC(_ line: [UInt8]) -> Bool {
        line.withUnsafeBufferPointer { bytes in
            var members = JSONValueParser.MemberIndex()
            return members.checkInC(bytes).taken
        }
    }

    /// Strings as a record writes them (quotes included): ASCII short and past sixteen bytes, escapes
    /// of every kind (and broken ones), text beyond ASCII (CJK, emoji, hidden scalars, DEL), bytes
    /// that are not UTF-8 (a lone continuation, overlong, a surrogate, past U+10FFFF, cut short).
    static let strings: [[UInt8]] =
        [
            "\"\"", "\"a\"", "\"Item 12\"", "\"\(String(repeating: "lorem ipsum ", count: 5))\"",
            #""a\"b""#, #""\\""#, #""\/\b\f\n\r\t""#, #""\u0041\u00e9""#, #""\uD83D\uDE00""#, #""\uD800""#,
            #""\u12G4""#, #""\x""#, #""\u12""#, "\"日本語日本語 0 日本語\"", "\"한국어🚀 2 テスト\"", "\"✅ 👍\"",
            "\"a\u{200B}b\"", "\"\u{FEFF}\"", "\"\u{202E}x\"", "\"\u{85}\"", "\"\u{AD}\"", "\"\u{61C}\"",
            "\"\u{7F}del\"",
            "\"é\"", "\"\u{10FFFF}\"", "\"\u{2028}\"",
        ].map { Array($0.utf8) } + [
            [0x22, 0x80, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xE0, 0x80, 0xAF, 0x22],
            [0x22, 0xED, 0xA0, 0x80, 0x22],
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xF0, 0x80, 0x80, 0x80, 0x22], [0x22, 0xE6, 0x97, 0x22],
            [0x22, 0xE6, 0x22], [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], [0x22, 0xC2, 0x22], [0x22, 0x61, 0x09, 0x22],
            [0x22, 0x00, 0x22], [0x22, 0x61],
        ]
    /// Numbers, literals and such: JSON's strict grammar and what lies around it.
    static let scalars = [
        "0", "-0", "7", "-12", "1.5", "0.25", "1e5", "1E+5", "2.5e-3", "123456789012345678901234567890",
        "1e250", "1e-250", "1e251", "1e999", "1e-400", "01", "1.", ".5", "-", "1e", "1e+", "+1", "1.5.5", "1e0001",
        String(repeating: "9", count: 41), "0x10", "true", "false", "null", "tru", "nul", "falsey", "NaN",
    ].map { Array($0.utf8) }
    static let spaces: [[UInt8]] = [[], [], [], [0x20], [0x20, 0x20], [0x09], [0x0D], [0x0A]]
    static let keys: [[UInt8]] =
        [
            "\"t\"", "\"d\"", "\"w\"", "\"cell\"", "\"c\\u0065ll\"", "\"ce\\\"ll\"", "\"cellx\"", "\"\"", "\"日本\"",
            "\"\u{7F}\"",
        ].map { Array($0.utf8) } + [[0x22, 0xFF, 0x22]]

    /// A random value `depth` levels down: mostly strings and scalars, some objects and lists.
    static func value(_ random: inout SplitMix64, depth: Int) -> [UInt8] {
        switch random.next() % 10 {
        case 0 where depth < 4:
            let members = (0..<Int(random.next() % 4)).map { _ in
                key(&random) + space(&random) + [0x3A] + space(&random) + value(&random, depth: depth + 1)
            }
            return [0x7B] + space(&random) + members.joined(separator: [0x2C, 0x20]) + space(&random) + [0x7D]
        case 1 where depth < 4:
            let elements = (0..<Int(random.next() % 4)).map { _ in space(&random) + value(&random, depth: depth + 1) }
            return [0x5B] + elements.joined(separator: [0x2C]) + space(&random) + [0x5D]
        case 2, 3: return scalars[Int(random.next() % UInt64(scalars.count))]
        default: return strings[Int(random.next() % UInt64(strings.count))]
        }
    }

    static func key(_ random: inout SplitMix64) -> [UInt8] { keys[Int(random.next() % UInt64(keys.count))] }
    static func space(_ random: inout SplitMix64) -> [UInt8] { spaces[Int(random.next() % UInt64(spaces.count))] }

    /// A random record: an object of 0 to 9 members (past the index's first room of eight), now and
    /// then something else at the top, then one byte in four records changed at random.
    static func record(_ random: inout SplitMix64) -> [UInt8] {
        var line: [UInt8]
        if random.next() % 16 == 0 {
            line = space(&random) + value(&random, depth: 0) + space(&random)
        } else {
            let members = (0..<Int(random.next() % 10)).map { _ in
                key(&random) + space(&random) + [0x3A] + space(&random) + value(&random, depth: 1)
            }
            line =
                space(&random) + [0x7B] + members.joined(separator: [0x2C] + space(&random)) + [0x7D] + space(&random)
        }
        if random.next() % 4 == 0, !line.isEmpty {
            let at = Int(random.next() % UInt64(line.count))
            switch random.next() % 3 {
            case 0: line.remove(at: at)
            case 1: line.insert(UInt8(truncatingIfNeeded: random.next()), at: at)
            default: line[at] = [0x22, 0x5C, 0x2C, 0x3A, 0x7D, 0x5D, 0x20, 0x80][Int(random.next() % 8)]
            }
        }
        return line
    }

    /// On 60,000 random records, well-formed and not, the check with the C pass answers exactly as
    /// the Swift parser alone: the same refusals (the parser's), the same offsets and flags, the same
    /// "cell". And the pass takes most well-formed records itself.
    @Test func onePassAnswersAsTheParser() {
        var random = SplitMix64(seed: 0x4A53_4F4E)
        var accepted = 0, taken = 0, refused = 0
        for _ in 0..<60_000 {
            let line = Self.record(&random)
            let swift = Self.check(line, inC: false)
            #expect(Self.check(line, inC: true) == swift, "\(String(decoding: line, as: UTF8.self))")
            if case .checked = swift { accepted += 1 } else { refused += 1 }
            if Self.takenInC(line) {
                taken += 1
                if case .refused = swift { Issue.record("taken in C, refused by the parser: \(line)") }
            }
        }
        // The mix is made so that both kinds are many, and the C pass takes the well-formed records
        // but those the parser must decide (escaped "cell" keys, loose numbers).
        #expect(accepted > 10_000 && refused > 10_000, "accepted \(accepted), refused \(refused)")
        #expect(taken > accepted / 3, "taken in C \(taken) of \(accepted)")
    }

    /// The records people write are taken in C: the same-work table's rows, nested data, numbers.
    @Test(arguments: [
        #"{"cell": "Columns", "t": "Item 0", "d": "Lorem ipsum dolor sit amet #0", "w": "日本語日本語 0 日本語"}"#,
        #"{"cell":"Subtitle","text":"a","detail":"b","n":12,"price":-3.25e2,"ok":true,"x":null}"#,
        #"{"a": {"b": [1, 2, {"c": "d"}]}, "e": [], "f": {}}"#, #"{}"#, #"  { "text" : "x" }  "#,
        #"{"escaped": "line\nbreak \"quoted\" \u00e9"}"#,
    ])
    func usualRecordsAreTakenInC(_ text: String) {
        #expect(Self.takenInC(Array(text.utf8)))
    }

    /// What the pass leaves to the parser: errors (so the message is the parser's), a top-level key
    /// with an escape (it may be "cell"), numbers outside the strict grammar or its bounds, a top
    /// level that is not an object, nesting at 64 levels.
    @Test(arguments: [
        #"{"t": "a",}"#, #"{"t" "a"}"#, #"{"t": "a"} x"#, #"{"t": "a\x"}"#, "{\"t\": \"a\tb\"}", #"{"c\u0065ll": "X"}"#,
        #"{"t": "#, #"{"t":"#, #"{"t": "a""#, #"{"t": [1, "#, "{", #"{""#,
        #"{"n": 01}"#, #"{"n": 1e999}"#, #"{"n": 1e-400}"#, #"{"n": 1.}"#, #"["not", "an", "object"]"#, #""text""#, "",
        "{\"a\": " + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}",
    ])
    func othersAreLeftToTheParser(_ text: String) {
        let line = Array(text.utf8)
        #expect(!Self.takenInC(line))
        #expect(Self.check(line, inC: true) == Self.check(line, inC: false))
    }

    /// Every scalar of the first plane beyond ASCII (surrogates left out), alone and between letters
    /// in a member's text: the C pass finds it clean or hidden (`UTF8Bytes.isHidden`), as the parser
    /// does, and takes the record.
    @Test func everyScalarCleanAsTheParserFindsIt() {
        var hidden = 0
        for v in UInt32(0x80)...0xFFFF where !(0xD800...0xDFFF).contains(v) {
            let text = String(Unicode.Scalar(v)!)
            for line in [#"{"k": "\#(text)"}"#, #"{"k": "a\#(text)b", "n": 1}"#].map({ Array($0.utf8) }) {
                let swift = Self.check(line, inC: false)
                #expect(Self.check(line, inC: true) == swift, "U+\(String(v, radix: 16))")
                #expect(Self.takenInC(line), "U+\(String(v, radix: 16))")
            }
            if UTF8Bytes.isHidden(v) { hidden += 1 }
        }
        #expect(hidden > 30)
    }

    /// The pass's quick ways for the usual `": "` after a key and `, "` before the next, beside
    /// what they must leave to its loops (more spaces, tabs, the line ending right there): the same
    /// answers as the parser's.
    @Test(arguments: [
        #"{"a": 1, "b": 2}"#, #"{"a":1,"b":2}"#, #"{"a":  1}"#, "{\"a\": \t1}", "{\"a\":\t1}", #"{"a":1,  "b":2}"#,
        "{\"a\":1,\t\"b\":2}", #"{"a": 1, ""#, #"{"a": 1, "#, #"{"a": "#, #"{"a":"#, #"{"a": 1,"#, #"{"a": }"#,
        #"{"a": 1, "b"}"#, #"{"a": 1 , "b": 2}"#,
    ])
    func quickWaysAnswerAsTheParser(_ text: String) {
        let line = Array(text.utf8)
        #expect(Self.check(line, inC: true) == Self.check(line, inC: false), "\(text)")
    }

    /// At the edges the C pass draws: nesting 63 levels deep is taken (64 is the parser's error),
    /// a number of 40 digits is taken (41 is the parser's to read), an exponent of 250 is taken.
    @Test func edgesAreTakenAsTheParserTakesThem() {
        let deep = "{\"a\": " + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "}"
        let cases = [
            (deep, true), ("{\"n\": " + String(repeating: "9", count: 40) + "}", true),
            ("{\"n\": " + String(repeating: "9", count: 41) + "}", false), (#"{"n": 1.5e250}"#, true),
            (#"{"n": 1.5e-250}"#, true), (#"{"n": 1e251}"#, false),
        ]
        for (text, taken) in cases {
            let line = Array(text.utf8)
            #expect(Self.takenInC(line) == taken, "\(text)")
            #expect(Self.check(line, inC: true) == Self.check(line, inC: false), "\(text)")
        }
    }

    /// Pieces of a string's body: ASCII, CJK, emoji, scalars at UTF-8's edges (the least of each
    /// length, the last before the surrogates, the last of all), hidden scalars and their neighbours
    /// (each lead byte the AVX2 check doubts, with a second byte it does not), bytes that are not
    /// UTF-8 (a lone continuation, overlong, a surrogate, past U+10FFFF, a lead cut short by the
    /// next piece), DEL, a control byte and escapes.
    static let pieces: [[UInt8]] =
        [
            "a", "Item 12 ", "lorem ipsum dolor sit amet ", "日本語", "한국어", "テスト", "🚀", "✅", "👍🏽",
            "\u{80}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFD}", "\u{10000}", "\u{10FFFF}", "\u{A0}",
            "\u{AD}", "\u{85}", "\u{9F}", "\u{61C}", "\u{61B}", "\u{180E}", "\u{1800}", "\u{200B}", "\u{2010}",
            "\u{2060}", "\u{2070}", "\u{202E}", "\u{FEFF}", "\u{FEFE}", "\u{FFF9}", "\u{FFFC}", "\u{7F}", #"\n"#,
            #"\u00e9"#, #"\""#,
        ].map { Array($0.utf8) } + [
            [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80],
            [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80], [0xFF], [0xE6, 0x97], [0xF0, 0x9F],
            [0xC3], [0x01],
        ]

    /// A string (quotes included) of 0 to 24 random pieces, mostly text that is well-formed.
    static func longString(_ random: inout SplitMix64) -> [UInt8] {
        var body: [UInt8] = []
        for _ in 0..<Int(random.next() % 25) {
            let well = random.next() % 4 != 0
            let index = Int(random.next() % UInt64(well ? 9 : pieces.count))
            body += pieces[index]
        }
        return [0x22] + body + [0x22]
    }

    /// The check with AVX2 answers exactly as the check without: on 40,000 records of long strings
    /// beyond ASCII at every offset (each held to the Swift parser too), the same answer, members,
    /// flags and "cell" value. Most of them reach the AVX2 steps (32 bytes or more, a string past
    /// the first three bytes). On a processor without AVX2 there is nothing to hold apart.
    @Test(.enabled(if: ck_scan_avx2() != 0, "the processor takes no AVX2"))
    func avx2AnswersAsPortable() {
        var random = SplitMix64(seed: 0x5349_4D44)
        var both = 0
        for _ in 0..<40_000 {
            let members = (0..<Int(random.next() % 6)).map { _ -> [UInt8] in
                let value = random.next() % 5 == 0 ? Self.value(&random, depth: 1) : Self.longString(&random)
                return Self.key(&random) + [0x3A] + Self.space(&random) + value
            }
            let line = Self.space(&random) + [0x7B] + members.joined(separator: [0x2C, 0x20]) + [0x7D]
            func answer(_ portable: Bool) -> [Int] {
                line.withUnsafeBufferPointer { bytes in
                    var offsets = [UInt32](repeating: 0, count: 64)
                    var count = 0, cell = 0, end = 0
                    let check = portable ? ck_json_check_record_portable : ck_json_check_record
                    let result = check(bytes.baseAddress, bytes.count, &offsets, 64, &count, &cell, &end)
                    return [Int(result), count, cell, end] + offsets.prefix(count).map(Int.init)
                }
            }
            let portable = answer(true)
            #expect(answer(false) == portable, "\(line)")
            #expect(Self.check(line, inC: true) == Self.check(line, inC: false), "\(line)")
            if portable[0] == Int(CK_JSON_CHECKED), line.count >= 32 { both += 1 }
        }
        #expect(both > 10_000, "checked in C, 32 bytes or more: \(both)")
    }

    /// The check reads nothing outside its record: each record is checked where it starts a page
    /// whose page before is unreadable, and where it ends a page whose page after is unreadable
    /// (a read past either edge is a crash). Records of 32 bytes or more, with text beyond ASCII
    /// near their start and their end, as the AVX2 steps look back and ahead 32 bytes at a time;
    /// each answers as the portable check on the same memory.
    @Test func readsOnlyItsRecord() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let mapped = mmap(nil, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        let base = try #require(mapped == MAP_FAILED ? nil : mapped)
        defer { munmap(base, 3 * page) }
        #expect(mprotect(base, page, PROT_NONE) == 0 && mprotect(base + 2 * page, page, PROT_NONE) == 0)
        let middle = (base + page).assumingMemoryBound(to: UInt8.self)
        var random = SplitMix64(seed: 0x4544_4745)
        var records = [
            #"{"t":"é","xxxxxxxxxxxxxxxxxxxxxxxx":1}"#, #"{"日本":"語","n":12345678901234567890123}"#,
            #"{"a": 1, "b": "padding padding padding", "w": "日本語日本語 0 日本語"}"#,
            #"{"w": "中文字符✅ 1 👍", "pad": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}"#,
        ].map { Array($0.utf8) }
        for _ in 0..<3_000 {
            let members = (0..<Int(1 + random.next() % 4)).map { _ in
                Self.key(&random) + [0x3A] + Self.longString(&random)
            }
            records.append([0x7B] + members.joined(separator: [0x2C]) + [0x7D])
        }
        var checked = 0
        for record in records where record.count >= 32 && record.count <= page {
            for start in [middle, middle + (page - record.count)] {
                record.withUnsafeBufferPointer { start.update(from: $0.baseAddress!, count: record.count) }
                var offsets = [UInt32](repeating: 0, count: 64), portable = offsets
                var (count, cell, end) = (0, 0, 0)
                var (pCount, pCell, pEnd) = (0, 0, 0)
                let answer = ck_json_check_record(start, record.count, &offsets, 64, &count, &cell, &end)
                let expected = ck_json_check_record_portable(
                    start, record.count, &portable, 64, &pCount, &pCell, &pEnd)
                #expect(
                    answer == expected && count == pCount && cell == pCell && end == pEnd
                        && offsets.prefix(count) == portable.prefix(pCount), "\(record)")
                if answer == CK_JSON_CHECKED { checked += 1 }
            }
        }
        #expect(checked > 1_000, "checked at the pages' edges: \(checked)")
    }

    /// The C line breaker's modes are `LineBreakMode`'s raw values.
    @Test func lineBreakModesAgree() {
        let modes: [(LineBreakMode, Int)] = [
            (.wordWrap, Int(CK_ASCII_WORD_WRAP)), (.charWrap, Int(CK_ASCII_CHAR_WRAP)), (.clip, Int(CK_ASCII_CLIP)),
            (.truncateHead, Int(CK_ASCII_TRUNCATE_HEAD)), (.truncateTail, Int(CK_ASCII_TRUNCATE_TAIL)),
            (.truncateMiddle, Int(CK_ASCII_TRUNCATE_MIDDLE)),
        ]
        #expect(modes.count == LineBreakMode.allCases.count)
        for (mode, raw) in modes { #expect(Int(mode.rawValue) == raw, "\(mode)") }
    }

    /// The C pass's flags are the parser's: one header, one Swift type.
    @Test func flagsAgree() {
        #expect(JSONValueParser.plainFlag == CK_JSON_PLAIN_FLAG)
        #expect(JSONValueParser.cleanFlag == CK_JSON_CLEAN_FLAG)
        #expect(JSONValueParser.asciiFlag == CK_JSON_ASCII_FLAG)
    }
}
