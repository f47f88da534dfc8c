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
    public init(file: String, line: Int, column: Int, _ message: String) {
        (self.file, self.line, self.column, self.message) = (file, line, column, message)
    }

    /// `file:line:column: message`, as compilers print it.
    public var description: String { "\(file):\(line):\(column): \(message)" }

    /// A YAML syntax error from Yams, at its place in `file`. Yams' problems are fixed texts; the keys a
    /// duplicate-key error names are quoted only when `quoting` (the file's text may be shown).
    init(file: String, yaml error: any Error, quoting: Bool) {
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
            self = DocumentError(
                file: file, line: context.mark.line, column: context.mark.column,
                quoting
                    ? "duplicate key\(duplicates.count == 1 ? "" : "s") \(duplicates.joined(separator: ", ")); each key may appear once"
                    : "a mapping here names a key twice; each key may appear once")
        default:
            // Never the error's description: Yams' descriptions quote the text around the problem.
            self = DocumentError(file: file, line: 1, column: 1, "cannot parse the file as YAML; check its syntax")
        }
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
