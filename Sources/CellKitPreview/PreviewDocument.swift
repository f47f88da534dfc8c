// The table document one configuration of a sample is drawn from: a JSON document of one
// section, the sample's row (after another sample's row when the cell is reused), written to
// the preview's temporary folder for the worker to read.

import CellKitModel
import CellKitRendering
import Foundation

/// A table document for one sample in one configuration.
package struct PreviewDocument: Sendable, Equatable {
    /// The cell type's identifier.
    package var identifier: String
    /// The rows' data, in order; the sample's row is the last.
    package var rows: [RowValue]
    /// Whether the first row is drawn by the built-in `Default` type, not the type previewed: the
    /// sample's row then stands where a reused one does, on a fresh cell.
    package var leadingBuiltin = false
    /// The stylesheets, assets and row height lent by a table document (`--look`); nil for none.
    package var look: PreviewLook?
    /// The table's style, width and the section's direction, from the configuration.
    package var configuration: PreviewConfiguration

    /// The document drawing `sample` of `identifier` in `configuration`; a reused configuration draws
    /// `other` first, so the sample's row is laid out on the cell `other` gave back.
    package init(identifier: String, sample: GallerySample, other: GallerySample?, configuration: PreviewConfiguration)
    {
        self.identifier = identifier
        self.configuration = configuration
        rows = (configuration.reused ? [other?.data ?? .object([:])] : []) + [sample.data]
    }

    /// The document a reused configuration's row is compared with: the same rows, the first drawn
    /// by a built-in type, so that the sample's row has the same place and a fresh cell.
    package var fresh: PreviewDocument {
        var fresh = self
        fresh.leadingBuiltin = rows.count > 1
        fresh.rows[0] = fresh.leadingBuiltin ? .object(["text": .string("")]) : rows[0]
        return fresh
    }

    /// The sample's row, counted from 0 in the document's one section.
    package var sampleRow: Int { rows.count - 1 }

    /// The document as JSON text.
    package var json: String {
        var rowTexts = rows.map { RowJSON.text(Self.row($0)) }
        if leadingBuiltin { rowTexts[0] = "{\"cell\":\"Default\",\"text\":\"\"}" }
        let direction = configuration.direction == .rtl ? ",\"direction\":\"rtl\"" : ""
        return
            "{\"style\":\"\(configuration.style.rawValue)\",\"width\":\(configuration.width.columns)\(look?.json ?? ""),"
            + "\"sections\":[{\"cell\":\(RowJSON.text(.string(identifier)))\(direction),\"selectable\":true,"
            + "\"rows\":[\(rowTexts.joined(separator: ","))]}]}\n"
    }

    /// A row's data as a document holds it: an object, without the keys a document reads as the
    /// row's own (`cell`, `rowHeight`); data that is not an object becomes an empty row.
    static func row(_ data: RowValue) -> RowValue {
        guard case .object(var fields) = data else { return .object([:]) }
        fields["cell"] = nil
        fields["rowHeight"] = nil
        return .object(fields)
    }

    /// Writes the document to a new file of its own in the temporary folder (made by `mkstemps`:
    /// never one that was there); returns its path.
    package func writeTemporary() throws -> String {
        var template = Array((FileManager.default.temporaryDirectory.path + "/cellkit-preview-XXXXXX.json").utf8CString)
        let fd = mkstemps(&template, 5)
        guard fd >= 0 else { throw PreviewError("cannot make a temporary file: \(String(cString: strerror(errno)))") }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do { try handle.write(contentsOf: Data(json.utf8)) } catch {
            unlink(path)
            throw error
        }
        return path
    }
}
