// One numbering for people (issue 41): every message names a row through `RowName`, counted
// from 1 as `--select`, `--rows` and browse's `NG` take rows, and shows the index path (from
// 0) beside it where a plugin's author reads it. The formatter's forms, and a scan of every
// string literal under Sources/ for a row number written any other way.

import CellKitModel
import Foundation
import Testing

@Suite("Row numbers: one numbering for people")
struct RowNameTests {
    @Test("the forms: row S.R from 1, with the index path from 0 for authors, across sections, runs")
    func forms() {
        #expect("\(RowName.of(CellKitModel.IndexPath(section: 1, row: 0)))" == "row 2.1")
        #expect("\(RowName.forAuthor(CellKitModel.IndexPath(section: 1, row: 0)))" == "row 2.1 (indexPath [1, 0])")
        #expect(
            "\(RowName.forAuthor(CellKitModel.IndexPath(section: 0, row: 149)))" == "row 1.150 (indexPath [0, 149])")
        #expect("\(RowName.across(0))" == "row 1")
        #expect("\(RowName.across(56))" == "row 57")
        #expect("\(RowName.across(56, approximate: true))" == "row ≈57")
        #expect("\(RowName.run(10, through: 19))" == "rows 11..20")
        #expect("\(RowName.run(10, through: nil))" == "rows 11..")
        let big = CellKitModel.IndexPath(section: Int(Int32.max), row: 1_000_000_009)
        #expect("\(RowName.forAuthor(big))" == "row 2147483648.1000000010 (indexPath [2147483647, 1000000009])")
    }

    @Test("the signal-safe writer spells what the description does, byte for byte")
    func writer() {
        for (section, row) in [(0, 0), (1, 1), (9, 10), (0, 3000), (12, 99_999)] {
            for author in [false, true] {
                var bytes: [UInt8] = []
                RowName.write(section: section, row: row, author: author) { bytes.append($0) }
                let path = CellKitModel.IndexPath(section: section, row: row)
                let name = author ? RowName.forAuthor(path) : RowName.of(path)
                #expect(String(decoding: bytes, as: UTF8.self) == "\(name)")
            }
        }
    }

    // MARK: The scan

    /// The one file that spells row numbers.
    static let formatter = "Sources/CellKitModel/Values/RowName.swift"
    /// Ends a line whose literals are a row's data, not a message, or stands alone on the line before.
    static let dataMark = "// data, not a message"

    /// The package's root folder.
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    @Test("no string literal under Sources/ writes a row number but through RowName")
    func everyTemplate() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count > 100, "the scan found the sources")
        var scanned = 0
        var found: [String] = []
        for file in files where "Sources/\(file)" != Self.formatter {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let literals = RowTemplates.literals(in: text).filter {
                !lines[$0.line - 1].hasSuffix(Self.dataMark)
                    && ($0.line < 2 || lines[$0.line - 2].trimmingCharacters(in: .whitespaces) != Self.dataMark)
            }
            scanned += literals.count
            found += literals.flatMap { literal in
                RowTemplates.problems(literal.text).map { "Sources/\(file):\(literal.line): \($0): \(literal.text)" }
            }
        }
        #expect(scanned > 3000, "the scan read the literals")
        #expect(
            found.isEmpty, "write row numbers through RowName (\(Self.formatter)):\n\(found.joined(separator: "\n"))")
        // The templates that name rows do go through it: the crash line, a render warning, check.
        let uses = try [
            "CellKitRuntime/Progress/FaultLine.swift", "CellKitRuntime/Cells/PluginLimits.swift",
            "CellKitCheck/CheckPlan.swift", "CellKitBrowse/BrowseState.swift",
        ].map { try String(contentsOf: sources.appendingPathComponent($0), encoding: .utf8) }
        #expect(uses.allSatisfy { $0.contains("RowName.") })
    }

    @Test(
        "the scan finds each bad form planted in a source",
        arguments: [
            #"let m = "\(file): \(hook) crashed at row \(s).\(r)""#,
            #"warn("row \(indexPath.row + 1) is too tall")"#,
            #"line.add(" at row ")"#,
            #"let m = "first at \(RowName.of(p)), counted from 1)""#,
            #"let m = "the selected row 2.1 (counted from 1) is gone""#,
            #"place: "table row \(s).\(r)""#,
            #"let m = "\(hook) read the data in \(cell.indexPath)""#,
            #"let m = "from row 0 (empty data)""#,
            #"let m = "\(file) at \(path.section + 1).\(path.row + 1)""#,
            #"let m = "x \(a ? "rows \(first)..\(last)" : "")""#,
            "let m = \"\"\"\n    Rows 3 to 9\n    \"\"\"",
            ##"let m = #"row \#(n)"#"##,
        ])
    func planted(_ source: String) {
        let literals = RowTemplates.literals(in: "func f() {\n    \(source)\n}\n")
        #expect(!literals.isEmpty)
        #expect(literals.contains { !RowTemplates.problems($0.text).isEmpty }, "\(literals)")
    }

    @Test("and lets pass what goes through RowName, counts, comments and data keys")
    func allowed() {
        let source = #"""
            // a comment at row \(s).\(r), counted from 1
            /// table row 0.3
            /* row \(x) */
            let a = "\(file): \(hook) crashed at \(RowName.forAuthor(path)): \(rows) rows, \(count) rows drawn"
            let b = "rows stream from JSON Lines"; let c = ["row", "rowHeight"]; let d = "Row %lld"
            let e = "searching… \(n) rows (Esc stops)"; let f = "\\(indexPath.row)"
            """#
        let literals = RowTemplates.literals(in: source)
        #expect(literals.count == 7, "\(literals)")
        #expect(literals.allSatisfy { RowTemplates.problems($0.text).isEmpty }, "\(literals)")
    }
}

/// The string literals of Swift source, and the ways a literal can number rows other than through
/// `RowName`.
enum RowTemplates {
    /// A string literal: its source text between the quotes (interpolations as written) and its line.
    struct Literal: CustomStringConvertible {
        var text: String
        var line: Int
        var description: String { "\(line): \(text)" }
    }

    /// What is wrong with `text` as a message template; empty when nothing is.
    static func problems(_ text: String) -> [String] {
        let rules: [(String, String)] = [
            (##"(?i)\brows? [≈#]?\\#*\("##, "a row number interpolated beside 'row'"),
            (#"(?i)\brows? [≈#]?$"#, "'row' with a number appended"),
            (#"(?i)\brows? [≈#]?0\b"#, "a row counted from 0"),
            (#"(?i)\brows? [≈#]?\d+\.\d+"#, "a section.row written out"),
            (#"(?i)\brows? \d+ (to|through) \d+"#, "a run of rows written out"),
            (#"(?i)(\(|, )counted from 1\)"#, "the old 'counted from 1' form"),
            (#"(?i)\btable rows? [≈#]?(\d|\\\()"#, "the old 'table row' form"),
            (##"\\#*\([^()]*(indexPath|IndexPath\([^()]*\))\)"##, "an index path interpolated without RowName"),
            (##"\\#*\([^()]*section[^()]*\)\.\\#*\([^()]*row[^()]*\)"##, "a section.row interpolated without RowName"),
        ]
        return rules.compactMap { pattern, what in
            text.range(of: pattern, options: .regularExpression) == nil ? nil : what
        }
    }

    /// Every string literal of `source`, nested ones (inside interpolations) too, outside comments.
    static func literals(in source: String) -> [Literal] {
        var lexer = Lexer(Array(source.unicodeScalars))
        lexer.code(until: nil)
        return lexer.found
    }

    private struct Lexer {
        let s: [Unicode.Scalar]
        var i = 0, line = 1
        var found: [Literal] = []

        init(_ s: [Unicode.Scalar]) { self.s = s }

        func at(_ k: Int) -> Unicode.Scalar? { k < s.count ? s[k] : nil }
        func starts(_ text: String, at k: Int) -> Bool {
            var j = k
            for c in text.unicodeScalars {
                guard at(j) == c else { return false }
                j += 1
            }
            return true
        }
        mutating func step() {
            if s[i] == "\n" { line += 1 }
            i += 1
        }

        /// Code up to the `)` that closes an interpolation (`closing` ")"), or the end.
        mutating func code(until closing: Unicode.Scalar?) {
            var depth = 0
            while i < s.count {
                let c = s[i]
                if starts("//", at: i) {
                    while i < s.count, s[i] != "\n" { step() }
                } else if starts("/*", at: i) {
                    var nest = 0
                    repeat {
                        if starts("/*", at: i) {
                            nest += 1
                            step()
                        } else if starts("*/", at: i) {
                            nest -= 1
                            step()
                        }
                        step()
                    } while i < s.count && nest > 0
                } else if c == "#" || c == "\"" {
                    var hashes = 0
                    while at(i + hashes) == "#" { hashes += 1 }
                    if at(i + hashes) == "\"" {
                        i += hashes
                        string(hashes: hashes)
                    } else if hashes > 0, at(i + hashes) == "/" {  // #/regex/#
                        i += hashes + 1
                        while i < s.count, !(s[i] == "/" && (0..<hashes).allSatisfy { at(i + 1 + $0) == "#" }) {
                            step()
                        }
                        i += 1 + hashes
                    } else {
                        step()
                    }
                } else if c == "(" {
                    depth += 1
                    step()
                } else if c == ")" {
                    if depth == 0, closing != nil {
                        step()
                        return
                    }
                    depth -= 1
                    step()
                } else {
                    step()
                }
            }
        }

        /// A literal starting at its opening quote, after `hashes` `#`s.
        mutating func string(hashes: Int) {
            let multi = starts("\"\"\"", at: i)
            i += multi ? 3 : 1
            let start = i, firstLine = line
            let close = (multi ? "\"\"\"" : "\"") + String(repeating: "#", count: hashes)
            let escape = "\\" + String(repeating: "#", count: hashes)
            var end = i
            while i < s.count {
                if starts(close, at: i) {
                    end = i
                    i += close.unicodeScalars.count
                    break
                }
                if starts(escape, at: i) {
                    i += escape.unicodeScalars.count
                    if at(i) == "(" {
                        i += 1
                        code(until: ")")
                    } else if i < s.count {
                        step()
                    }
                    continue
                }
                if !multi, s[i] == "\n" {  // not a literal after all: stop at the line's end
                    end = i
                    break
                }
                step()
                end = i
            }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: s[start..<min(max(end, start), s.count)])
            found.append(Literal(text: String(text), line: firstLine))
        }
    }
}
