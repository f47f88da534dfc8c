// A table document in JSON as JSON writers write it: characters outside the BMP escaped as UTF-16
// surrogate pairs (Python's `json.dump`, JavaScript's `JSON.stringify` of an escaped string),
// which libyaml alone refuses. A lone half is an error at its place; quotes that are not
// double quotes keep the text as written.

import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDocuments

@Suite("JSON table documents")
struct JSONDocumentTests {
    /// `text` written to a fresh folder as `table.json`, read as a document.
    static func read(_ text: String) throws(DocumentError) -> TableDocument {
        let folder = NSTemporaryDirectory() + "cellkit-json-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = FileManager.default.createFile(atPath: folder + "/table.json", contents: Data(text.utf8))
        return try TableDocument(contentsOf: folder + "/table.json")
    }

    @Test("surrogate pairs read as the characters they encode, in any case of hex digit")
    func pairs() throws {
        let document = try Self.read(
            #"{"title": "Smile \ud83d\ude00 and \uD83C\uDDEB\uD83C\uDDF7", "sections": [{"rows": [{"text": "a\u00e9"}]}]}"#
        )
        #expect(document.title == "Smile 😀 and 🇫🇷")
    }

    @Test("a lone half of a pair is an error at its line and column, with the fix")
    func loneHalf() {
        #expect {
            _ = try Self.read("{\n  \"title\": \"x \\ud83d y\", \"sections\": []}")
        } throws: { error in
            guard let error = error as? DocumentError else { return false }
            let text = "\(error)"
            return text.contains("table.json:2:") && text.contains("\\uD83D is half of a UTF-16 surrogate pair")
        }
        #expect {
            _ = try Self.read(#"{"title": "\udc00", "sections": [{"rows": [{"text": "x"}]}]}"#)
        } throws: { error in "\(error)".contains("\\uDC00 is half of a UTF-16 surrogate pair") }
    }

    @Test("an escaped backslash before u, single quotes and plain text are not escapes")
    func notEscapes() throws {
        let document = try Self.read(#"{"title": "a\\ud83d\\ude00", "sections": [{"rows": [{"text": "x"}]}]}"#)
        #expect(document.title == #"a\ud83d\ude00"#)
        let single = try Self.read("title: '\\ud83d\\ude00'\nsections: [{rows: [{text: x}]}]\n")
        #expect(single.title == #"\ud83d\ude00"#)
    }
}
