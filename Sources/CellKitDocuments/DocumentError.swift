// Errors in table documents, stylesheets, asset catalogs and data files:
// each names the file, the line and column, what was expected, and the fix.

import CellKitModel
import CellKitText
import Yams

/// A problem at a place in a document.
public struct DocumentError: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    /// The path of the file the problem is in, as it was named (a document, stylesheet, catalog or data file).
    public let file: String
    /// The line, counted from 1.
    public let line: Int
    /// The column, counted from 1 in unicode scalars.
    public let column: Int
    /// What is wrong and how to fix it, without the place.
    public let message: String

    /// A problem at `line` and `column` (both counted from 1) of `file`.
    package init(file: String, line: Int, column: Int, _ message: String) {
        (self.file, self.line, self.column, self.message) = (file, line, column, message)
    }

    /// `file:line:column: message`, as compilers print it.
    public var description: String { "\(file):\(line):\(column): \(message)" }

    /// A YAML syntax error from Yams, at its place in `file`, whose text is `text`. Yams' problems are fixed
    /// texts; the keys a duplicate-key error names are quoted only when `quoting` (the file's text may be
    /// shown). Yams places a duplicate key at its first appearance: the error is moved to the second.
    init(file: String, yaml error: any Error, quoting: Bool, text: String) {
        func place(_ mark: Mark, _ problem: String, _ context: YamlError.Context?) -> DocumentError {
            if problem.hasPrefix("Maximum nesting level") {  // libyaml's own bound, 1000 levels
                return DocumentError(file: file, line: mark.line, column: mark.column, YAMLGuard.tooDeep())
            }
            let detail = context.map { " (\($0.text) at \($0.mark.line):\($0.mark.column))" } ?? ""
            return DocumentError(file: file, line: mark.line, column: mark.column, "YAML syntax: \(problem)\(detail)")
        }
        switch error as? YamlError {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            self = place(mark, problem, context)
        case .reader(let problem, let offset, _, let yaml):
            let (line, column) = offset.flatMap { Self.lineAndColumn(in: yaml, utf8Offset: $0) } ?? (1, 1)
            self = DocumentError(
                file: file, line: line, column: column, "cannot read the text: \(problem); save the file as UTF-8")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let first = (line: context.mark.line, column: context.mark.column)
            let again = duplicates.first.flatMap { Self.repeated($0, firstAt: first, in: text) }
            let place = again.map { _ in " (first at \(first.line):\(first.column))" } ?? ""
            self = DocumentError(
                file: file, line: again?.line ?? first.line, column: again?.column ?? first.column,
                quoting
                    ? "duplicate key\(duplicates.count == 1 ? "" : "s") \(duplicates.joined(separator: ", "))\(place); each key may appear once"
                    : "a mapping here names a key twice\(place); each key may appear once")
        default:
            // Never the error's description: Yams' descriptions quote the text around the problem.
            self = DocumentError(file: file, line: 1, column: 1, "cannot parse the file as YAML; check its syntax")
        }
    }

    /// Where `key`, first written at `first` (line and column from 1), is written again in the same
    /// mapping: the next line as indented that starts with it (a block mapping), or later on the same
    /// line after `{` or `,` (a flow one). nil when neither is found: the error stays at the first.
    static func repeated(_ key: String, firstAt first: (line: Int, column: Int), in text: String)
        -> (line: Int, column: Int)?
    {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.unicodeScalars) }
        guard first.line >= 1, first.line <= lines.count else { return nil }
        let spellings = [key, "\"\(key)\"", "'\(key)'"].map { Array($0.unicodeScalars) }
        func keyAt(_ line: [Unicode.Scalar], _ i: Int) -> Bool {
            spellings.contains { k in
                guard i + k.count <= line.count, Array(line[i..<(i + k.count)]) == k else { return false }
                let rest = line[(i + k.count)...].drop { $0 == " " }
                return rest.first == ":"
            }
        }
        let own = lines[first.line - 1]  // flow: `{a: 1, a: 2}`
        var i = first.column - 1 + key.unicodeScalars.count
        while i < own.count {
            if own[i] == "," || own[i] == "{" {
                let start = own[(i + 1)...].firstIndex { $0 != " " } ?? own.count
                if keyAt(own, start) { return (first.line, start + 1) }
            }
            i += 1
        }
        for n in first.line..<lines.count {  // block: siblings start in the first key's column
            let line = lines[n]
            let indent = line.prefix { $0 == " " }.count
            if indent == line.count || line[indent] == "#" { continue }
            if indent < first.column - 1 { return nil }  // the mapping ended
            if indent == first.column - 1, keyAt(line, indent) { return (n + 1, first.column) }
        }
        return nil
    }

    static func lineAndColumn(in text: String, utf8Offset: Int) -> (Int, Int)? {
        var line = 1, column = 1, seen = 0
        for scalar in text.unicodeScalars {
            if seen >= utf8Offset { return (line, column) }
            seen += String(scalar).utf8.count
            if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }
}
