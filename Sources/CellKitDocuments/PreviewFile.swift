// The preview file beside a plugin: `libfoo.preview.yaml` beside `libfoo.so`, the same
// samples `CK_PREVIEW` exports, written as YAML (for a plugin that would rather not write
// JSON in C strings, or one built from Swift alone):
//
//     Foo:                  # a cell identifier of the plugin
//       long:               # a sample name: an ASCII letter, then letters or digits
//         text: A text long enough to wrap …
//       empty: {}

import CellKitDiscovery
import CellKitModel
import Foundation
import Yams

/// Reads the preview file beside a plugin.
package enum PreviewFile {
    /// The most bytes a preview file is read to (`DocumentLimits.fileBytes`).
    package static let maxBytes = DocumentLimits.fileBytes

    /// The preview file of the plugin at `pluginPath`: its name up to `.so` (and any version after it),
    /// then `.preview.yaml`, in its folder: `libfoo.so` and `libfoo.so.1` have `libfoo.preview.yaml`.
    package static func path(forPlugin pluginPath: String) -> String {
        let name = PathText.lastComponent(of: pluginPath)
        var stem = Substring(name)
        if stem.hasSuffix(".so") {
            stem = stem.dropLast(3)
        } else if let range = stem.range(of: ".so.", options: .backwards),
            stem[range.upperBound...].allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
        {
            stem = stem[..<range.lowerBound]
        }
        let file = stem + ".preview.yaml"
        return pluginPath.contains("/") ? PathText.folder(of: pluginPath) + "/" + file : String(file)
    }

    /// Where the preview file of the plugin at `pluginPath` is looked for, in order: beside it
    /// (`path(forPlugin:)`); and for a plugin in a SwiftPM build folder (a path through `.build`), in the
    /// package's own folder, the one holding `.build`, so a Swift plugin's project keeps its file at its top.
    package static func candidates(forPlugin pluginPath: String) -> [String] {
        let beside = path(forPlugin: pluginPath)
        let components = pluginPath.split(separator: "/", omittingEmptySubsequences: false)
        guard let build = components.dropLast().lastIndex(of: ".build") else { return [beside] }
        let root = components[..<build].joined(separator: "/")
        let file = PathText.lastComponent(of: beside)
        return [beside, root.isEmpty ? (pluginPath.hasPrefix("/") ? "/" + file : file) : root + "/" + file]
    }

    /// Adds the samples of `plugin`'s preview file, if it has one (the first of `candidates(forPlugin:)`
    /// that exists), to `previews`; a file that cannot be read is one warning, a sample that cannot be
    /// used one warning each.
    package static func read(for plugin: PluginFile, into previews: inout PluginPreviews) {
        guard let path = candidates(forPlugin: plugin.path).first(where: { FileManager.default.fileExists(atPath: $0) })
        else { return }
        let node: Node, reader: NodeReader
        do { (reader, node) = try parse(path) } catch {
            previews.warnings.append("\(plugin.path): its preview file cannot be read: \(error.description)")
            return
        }
        guard let types = node.mapping else {
            previews.warnings.append(
                "\(plugin.path): its preview file cannot be read: \(reader.expected("a mapping of cell identifiers to their samples", node).description)"
            )
            return
        }
        for (typeKey, samples) in types {
            let identifier = typeKey.scalar?.string ?? ""
            guard let named = samples.mapping else {
                previews.warnings.append(
                    "\(plugin.path): preview file: \(reader.expected("a mapping of sample names to their data", samples).description)"
                )
                continue
            }
            for (nameKey, dataNode) in named {
                addSample(identifier, nameKey, dataNode, path: path, reader: reader, plugin: plugin, to: &previews)
            }
        }
    }

    /// Adds the sample named by `nameKey` with the data `dataNode`, or a warning saying what is wrong.
    private static func addSample(
        _ identifier: String, _ nameKey: Node, _ dataNode: Node, path: String, reader: NodeReader,
        plugin: PluginFile, to previews: inout PluginPreviews
    ) {
        let name = nameKey.scalar?.string ?? ""
        let origin = PreviewSample.Origin.file(path: path, line: nameKey.mark?.line ?? 1)
        let place = PreviewSample(identifier: identifier, name: name, data: .null, origin: origin).place
        func leaveOut(_ problem: String) {
            previews.warnings.append(PluginPreviews.warning(plugin.path, identifier, name, place, problem))
        }
        if let problem = PreviewSample.nameProblem(name) { return leaveOut(problem) }
        let data: RowValue
        do { data = try reader.value(dataNode) } catch { return leaveOut("\(error.message)") }
        if let problem = PreviewSample.problem(with: data) { return leaveOut(problem) }
        previews.add(PreviewSample(identifier: identifier, name: name, data: data, origin: origin), of: plugin)
    }

    /// The file's root node, read as a document's YAML is (UTF-8, the limits of `DocumentLimits`), after a
    /// check for control bytes, which YAML does not allow raw.
    private static func parse(_ path: String) throws(DocumentError) -> (NodeReader, Node) {
        let real = FileAccess.realPath(path) ?? path
        let bytes: [UInt8]
        do {
            bytes = try FileAccess.read(
                real, name: path, limit: maxBytes,
                tooLarge: "keep a plugin's samples under \(FileAccess.sizeText(maxBytes))")
        } catch {
            throw DocumentError(file: path, line: 1, column: 1, error.message)
        }
        if let k = bytes.firstIndex(where: { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) || $0 == 0x7F }) {
            let line = bytes[..<k].count(where: { $0 == 0x0A }) + 1
            let lineStart = bytes[..<k].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            let column = bytes[lineStart..<k].count(where: { $0 & 0xC0 != 0x80 }) + 1  // in Unicode scalars
            throw DocumentError(
                file: path, line: line, column: column,
                "the control byte 0x\(String(bytes[k], radix: 16, uppercase: true)) is not allowed in YAML; write it as an escape in a double-quoted text (\"\\e\", \"\\x1B\")"
            )
        }
        return try NodeReader.parse(bytes, file: path, quotes: true)
    }
}
