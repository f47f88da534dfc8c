// The one text policy for invisible and format characters in a table's text, as the terminal
// formats draw it (`TextSanitizer.tableAction`, `TextLayout.tableLines`): soft hyphens, zero-width
// spaces, word joiners, LRM/RLM/ALM, the byte order mark, and the bidi controls neutralised as
// markers that are never cut.

import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitText

/// `text` laid out for a terminal, as a label's text is.
private func laid(_ text: String, _ width: Int, _ maxLines: Int = 100, _ mode: LineBreakMode = .wordWrap)
    -> LaidOutText
{
    TextLayout.tableLines(TextBytes(text), width: width, maxLines: maxLines, mode: mode)
}

private func lines(_ text: String, _ width: Int, _ maxLines: Int = 100, _ mode: LineBreakMode = .wordWrap)
    -> [String]
{
    laid(text, width, maxLines, mode).strings.map(String.init)
}

/// The text as the test expects it shown, worked out here and not by the code under test: each
/// scalar's action written out again, soft hyphens remembered where they were (scalar offsets).
private func expectedDisplay(_ text: String) -> (scalars: [Unicode.Scalar], softHyphens: Set<Int>) {
    var out: [Unicode.Scalar] = [], shy: Set<Int> = []
    for s in text.unicodeScalars {
        switch s.value {
        case 0xAD: shy.insert(out.count)
        case 0x200B, 0x2060, 0xFEFF: break
        case 0x09: out.append(" ")
        case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069:
            out += "‹U+\(String(format: "%04X", s.value))›".unicodeScalars
        default: out.append(s)
        }
    }
    return (out, shy)
}

@Suite("Invisible characters: one text policy")
struct InvisibleCharacterTests {
    /// Realistic texts with each character the policy names.
    static let texts = [
        "Die Donau\u{AD}dampf\u{AD}schiff\u{AD}fahrts\u{AD}gesellschaft sucht einen Kapitäns\u{AD}mützen\u{AD}hersteller",
        "See https://example.com/\u{200B}docs/\u{200B}reference/\u{200B}very-long-path/\u{200B}index.html?lang=en now",
        "Population 10\u{2060}000 in 2024, 2\u{2060}500\u{2060}000 by 2050: a well-\u{2060}known estimate",
        "\u{FEFF}Report.csv starts with a byte order mark and goes on for a while longer",
        "שלום\u{200F} עולם (hello world) \u{200F}123 מספר and more words to wrap",
        "مرحبا\u{061C} 2024 بالعالم\u{200F} — Mixed \u{200E}עברית\u{200E} and English text",
        "invoice\u{202E}fdp.exe\u{202C} attached; \u{2066}isolated\u{2069} and \u{2067}RTL\u{2069} \u{202A}LRE\u{202C} end",
        "All: a\u{AD}b\u{200B}c\u{2060}d \u{200E}e\u{200F} \u{FEFF}f\u{202D}g\u{202C} 日本\u{AD}語 👍\u{200B}👍 x\u{85}y\tz",
        "German 日本語\u{AD}テキスト mit Silben\u{AD}trennung\u{AD}zeichen und ZWSP\u{200B}breaks\u{200B}here",
    ]

    /// What the matrix must never show: a placeholder for these characters, or the characters raw.
    static let neverShown = ["‹U+00AD", "‹U+200B", "‹U+2060", "‹U+200E", "‹U+200F", "‹U+061C", "‹U+FEFF"]

    @Test(
        "the matrix: each text × six modes × numberOfLines 0/1/2 × widths 20–80",
        arguments: LineBreakMode.allCases)
    func matrix(mode: LineBreakMode) {
        #expect(LineBreakMode.allCases.count == 6)
        var layouts = 0, hyphens = 0
        for text in Self.texts {
            for numberOfLines in [0, 1, 2] {
                for width in 20...80 {
                    let maxLines = numberOfLines == 0 ? 100 : numberOfLines
                    let result = laid(text, width, maxLines, mode)
                    let context = "\(mode) lines \(numberOfLines) width \(width): \(text.debugDescription)"
                    check(result, text: text, width: width, mode: mode, numberOfLines, context, hyphens: &hyphens)
                    layouts += 1
                }
            }
        }
        #expect(layouts == Self.texts.count * 3 * 61)
        if mode == .wordWrap { #expect(hyphens > 50, "soft hyphens break lines in the matrix") }
    }

    /// One layout of the matrix: no placeholder for an invisible character, no cut marker, widths exact
    /// and within the line, and (lines that are pieces of the text) `-` exactly where a line ends at a
    /// soft hyphen it could break at.
    private func check(
        _ result: LaidOutText, text: String, width: Int, mode: LineBreakMode, _ numberOfLines: Int, _ context: String,
        hyphens: inout Int
    ) {
        // Character wrap, and clip on one line, cut where the width ends: not a break, so no hyphen.
        let cuts = mode == .charWrap || (mode == .clip && numberOfLines == 1)
        let shown = result.strings.map(String.init)
        for (i, line) in shown.enumerated() {
            for bad in Self.neverShown { #expect(!line.contains(bad), "\(bad) in '\(line)', \(context)") }
            #expect(
                !line.unicodeScalars.contains { [0xAD, 0x200B, 0x2060, 0xFEFF].contains($0.value) },
                "raw invisible in '\(line)', \(context)")
            let unmarked = line.replacingOccurrences(
                of: "‹U\\+[0-9A-F]{4}›", with: "", options: .regularExpression)
            #expect(!unmarked.contains("‹") && !unmarked.contains("›"), "a cut marker in '\(line)', \(context)")
            #expect(result.columns(i) == TextWidth.columns(line), "columns of '\(line)', \(context)")
            #expect(result.columns(i) <= width, "'\(line)' wider than \(width), \(context)")
        }
        let pieces = mode == .wordWrap || mode == .charWrap || mode == .clip || shown.count > 1
        guard pieces else { return }
        let (source, shy) = expectedDisplay(text)
        var at = 0
        for (i, line) in shown.enumerated() {
            if i == shown.count - 1, line.hasSuffix(TextLayout.ellipsis), mode != .wordWrap, mode != .clip,
                mode != .charWrap
            {
                break  // the truncated last line
            }
            let scalars = Array(line.unicodeScalars)
            // The spaces a break left out (character wrap may start a line with one).
            while at < source.count, source[at] == " ", scalars.first != " " { at += 1 }
            var k = 0
            while k < scalars.count, at < source.count, scalars[k] == source[at] {
                k += 1
                at += 1
            }
            if k == scalars.count - 1, scalars[k] == "-" {
                #expect(shy.contains(at) && !cuts, "a '-' not at a soft hyphen: '\(line)', \(context)")
                hyphens += 1
            } else {
                #expect(k == scalars.count, "line '\(line)' is not the text's next piece, \(context)")
                let atBreak = at < source.count && source[at] != " " && shy.contains(at)
                let hyphenFits = result.columns(i) < width
                #expect(
                    !atBreak || !hyphenFits || cuts || scalars.isEmpty,
                    "'\(line)' ends at a soft hyphen with no '-', \(context)")
            }
        }
    }

    // MARK: One test per rule

    @Test("a soft hyphen is invisible, a place to break, and '-' where the line breaks there (if it fits)")
    func softHyphen() {
        let text = "Donau\u{AD}dampf\u{AD}schiff"
        #expect(lines(text, 40) == ["Donaudampfschiff"])
        #expect(lines(text, 12) == ["Donaudampf-", "schiff"])
        #expect(lines(text, 6) == ["Donau-", "dampf-", "schiff"])
        #expect(laid(text, 12).columns(0) == 11, "the hyphen takes its column")
        #expect(lines(text, 5) == ["Donau", "dampf", "schif", "f"], "no room for the hyphen: cut at the width")
        #expect(lines(text, 12, 100, .charWrap) == ["Donaudampfsc", "hiff"], "character wrap does not hyphenate")
        #expect(lines(text, 12, 1, .wordWrap) == ["Donaudampf-"])
        #expect(lines(text, 12, 1, .truncateTail) == ["Donaudampfs…"])
        #expect(lines("日本\u{AD}語です", 5) == ["日本-", "語で", "す"], "before a wide cluster too")
        #expect(lines("a \u{AD}word", 4) == ["a", "word"], "not after a space")
    }

    @Test("a zero-width space is a place to break and never drawn")
    func zeroWidthSpace() {
        let url = "https://example.com/\u{200B}path/\u{200B}file.html"
        #expect(lines(url, 60) == ["https://example.com/path/file.html"])
        #expect(lines(url, 22) == ["https://example.com/", "path/file.html"])
        #expect(laid(url, 22).columns(0) == 20)
        #expect(lines("ab\u{200B}  cd", 3) == ["ab", "cd"], "spaces after it go with the break")
    }

    @Test("a word joiner forbids a break on either side and is never drawn")
    func wordJoiner() {
        #expect(lines("aaa-bbb", 5) == ["aaa-", "bbb"])
        #expect(lines("aaa-\u{2060}bbb", 5) == ["aaa-b", "bb"], "no break after the hyphen")
        #expect(lines("日本語", 4) == ["日本", "語"])
        #expect(lines("日本\u{2060}語", 4) == ["日", "本語"], "none between 本 and 語")
        #expect(lines("x 10\u{2060}000", 5) == ["x", "10000"])
        #expect(lines("ab \u{2060}cd", 4) == ["ab c", "d"], "nor after the space before it")
        #expect(lines("Donau\u{AD}\u{2060}dampf", 8) == ["Donaudam", "pf"], "it wins over a soft hyphen")
    }

    @Test("LRM, RLM and ALM are kept, with no width; the byte order mark is left out")
    func marksAndBOM() {
        let hebrew = "שלום\u{200F} (1)"
        #expect(lines(hebrew, 20) == [hebrew])
        #expect(laid(hebrew, 20).columns(0) == 8)
        #expect(lines("a\u{200E}b\u{061C}c", 10) == ["a\u{200E}b\u{061C}c"])
        #expect(lines("\u{FEFF}Report", 10) == ["Report"])
        #expect(laid("\u{FEFF}Report", 10).columns(0) == 6)
        #expect(lines("\u{FEFF}", 10).isEmpty, "nothing left to draw")
        #expect(TextLayout.tableColumns(TextBytes("a\u{AD}b\u{200B}c\u{2060}d\u{FEFF}\u{200F}")) == 4)
        #expect(TextLayout.tableColumns(TextBytes("x\u{202E}y")) == 10, "a marker's width")
    }

    @Test("bidi embeddings, overrides, isolates and C1 controls become markers, never cut")
    func markers() {
        let text = "invoice\u{202E}txt.scr"
        #expect(lines(text, 40) == ["invoice‹U+202E›txt.scr"])
        for width in 1...24 {
            for mode in LineBreakMode.allCases {
                for maxLines in [1, 2, 5] {
                    for line in lines(text, width, maxLines, mode) {
                        let rest = line.replacingOccurrences(of: "‹U+202E›", with: "")
                        #expect(!rest.contains("‹") && !rest.contains("›"), "\(mode) \(width): '\(line)'")
                        #expect(TextWidth.columns(line) <= width, "\(mode) \(width): '\(line)'")
                    }
                }
            }
        }
        #expect(lines(text, 12, 1, .truncateMiddle) == ["invoic…t.scr"], "cut beside the marker, not in it")
        #expect(lines(text, 16, 1, .truncateTail) == ["invoice‹U+202E›…"])
        #expect(lines(text, 10, 1, .clip) == ["invoice"])
        #expect(lines("\u{2066}x\u{2069}", 5, 3, .charWrap) == ["\u{FFFD}x\u{FFFD}"], "wider than the line: U+FFFD")
        #expect(lines("a\u{85}b", 20) == ["a‹U+0085›b"])
        #expect(lines("tab\there\u{1B}[1m", 20) == ["tab here␛[1m"], "C0 controls as their pictures")
        #expect(lines("one\ntwo", 20) == ["one", "two"], "a label keeps its newlines")
        #expect(
            TextLayout.tableLines("one\ntwo\u{AD}", width: 20, maxLines: 1, mode: .clip, keepNewlines: false)
                == ["one␊two"])
    }

    @Test("lines clipped by a narrower frame keep their markers whole")
    func clippedByFrame() {
        let text = laid("ab\u{202E}cd\u{2066}ef", 40)
        #expect(text.strings == ["ab‹U+202E›cd‹U+2066›ef"])
        #expect(TextLayout.clipped(text, width: 40).strings == ["ab‹U+202E›cd‹U+2066›ef"])
        #expect(TextLayout.clipped(text, width: 14).strings == ["ab‹U+202E›cd"])
        #expect(TextLayout.clipped(text, width: 9).strings == ["ab"], "not '‹U+202'")
        #expect(TextLayout.clipped(text, width: 5).strings == ["ab\u{FFFD}cd"], "a marker wider than the frame")
        #expect(TextLayout.clipped(laid("‹U+12 and ‹U+12AB›", 40), width: 12).strings == ["‹U+12 and "])
    }

    @Test("messages keep showing every invisible character (`visible`), tables follow the policy")
    func messagesStayVisible() {
        #expect(TextSanitizer.visible("a\u{AD}b\u{200B}c\u{200F}") == "a‹U+00AD›b‹U+200B›c‹U+200F›")
        #expect(TextSanitizer.tableAction(0xAD, keepNewlines: true) == .softHyphen)
        #expect(TextSanitizer.tableAction(0x202E, keepNewlines: true) == .marker)
        #expect(TextSanitizer.tableAction(0x2067, keepNewlines: true) == .marker)
        #expect(TextSanitizer.tableAction(0x200F, keepNewlines: true) == .keep)
        #expect(TextSanitizer.tableAction(0xFEFF, keepNewlines: true) == .drop)
        #expect(TextSanitizer.tableAction(0x0A, keepNewlines: false) == .replace("\u{240A}"))
    }

    @Test(
        "seeded random texts of every kind of piece: lines fit, markers whole, nothing invisible drawn",
        arguments: [1, 2, 3, 5, 8, 13])
    func randomPieces(width: Int) {
        let pieces = [
            "a", "word", " ", "-", "日本", "👍", "👍🏽", "e\u{301}", "\u{301}", "🇫🇷", "\u{AD}", "\u{200B}", "\u{2060}",
            "\u{200E}", "\u{200F}", "\u{061C}", "\u{FEFF}", "\u{202E}", "\u{2066}", "\u{2069}", "\u{85}", "\u{1B}",
            "\t",
            "\n", "\u{600}", "›", "‹", "U+",
        ]
        var rng = SplitMix64(seed: UInt64(width))
        for _ in 0..<200 {
            let text = (0..<Int.random(in: 1...14, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }
                .joined()
            for mode in LineBreakMode.allCases {
                for maxLines in [1, 2, 100] {
                    let result = laid(text, width, maxLines, mode)
                    for (i, line) in result.strings.map(String.init).enumerated() {
                        let context = "\(mode) \(maxLines) width \(width): \(text.debugDescription) → '\(line)'"
                        #expect(result.columns(i) == TextWidth.columns(line), "\(context)")
                        #expect(result.columns(i) <= width || clusters(line).count == 1, "\(context)")
                        #expect(
                            !line.unicodeScalars.contains {
                                [0xAD, 0x200B, 0x2060, 0xFEFF, 0x202E, 0x2066, 0x2069, 0x85, 0x1B].contains($0.value)
                            }, "\(context)")
                        let marked = line.replacingOccurrences(
                            of: "‹U\\+(202E|2066|2069|0085)›", with: "", options: .regularExpression)
                        #expect(!marked.contains("‹U+202") && !marked.contains("‹U+0085"), "a cut marker: \(context)")
                    }
                }
            }
        }
    }

    @Test("on clean text the unit layout breaks lines as the byte layout does, in every mode")
    func sameAsBytes() {
        let words = [
            "lorem", "ipsum", "well-known", "日本語", "👨‍👩‍👧", "e\u{301}", "supercalifragilistic", " ", " \u{301}x", "\n",
            "x -5", "한국어", "ｶﾞ",
        ]
        var seed: UInt64 = 7
        for _ in 0..<120 {  // under AddressSanitizer too: 120 texts × 5 widths × 6 modes × 3 line counts
            var text = ""
            for _ in 0..<12 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += words[Int(seed >> 33) % words.count] + " "
            }
            for width in [1, 4, 9, 17, 30] {
                for mode in LineBreakMode.allCases {
                    for maxLines in [1, 3, 100] {
                        let bytes = TextLayout.lines(text, width: width, maxLines: maxLines, mode: mode).map(
                            String.init)
                        let units = TextLayout.unitLines(text, width: width, maxLines: maxLines, mode: mode)
                        #expect(units == bytes, "\(mode) \(width) \(maxLines): \(text.debugDescription)")
                    }
                }
            }
        }
    }
}
