// The preview samples of one plugin file, and what was wrong with those left out.

import CCellKit
import CellKitModel
import Foundation

/// A plugin's preview samples (`CK_PREVIEW` symbols, then its preview file) and a warning for each
/// sample left out. `PluginFile.previews()` (CellKitDocuments) reads both; this module reads the symbols.
package struct PluginPreviews: Sendable, Equatable {
    /// The samples kept, those of the symbols first (in the order the plugin declares them), then the
    /// file's in its order.
    package var samples: [PreviewSample] = []
    /// One line per sample (or preview file) left out: the plugin file, the sample, what is wrong, the fix.
    package var warnings: [String] = []

    /// No samples, no warnings.
    package init() {}

    /// The samples of the cell type `identifier`, in order.
    package func samples(for identifier: String) -> [PreviewSample] { samples.filter { $0.identifier == identifier } }

    /// Whether the plugin ships no sample at all.
    package var isEmpty: Bool { samples.isEmpty }

    /// Adds `sample` to the samples of `plugin`, or a warning when its type is not one of the plugin's,
    /// its name is taken, or its type has `PreviewSample.maxPerType` samples already.
    package mutating func add(_ sample: PreviewSample, of plugin: PluginFile) {
        let types = plugin.cellTypes.map(\.identifier.name)
        let theirs = samples(for: sample.identifier)
        if !types.contains(sample.identifier) {
            let known = types.isEmpty ? "it has none" : "its types: " + types.joined(separator: ", ")
            warn(sample, plugin, "the plugin has no cell type \(sample.identifier) (\(known)); name one of its types")
        } else if theirs.contains(where: { $0.name == sample.name }) {
            warn(sample, plugin, "a sample of that name comes first; give each sample of a type its own name")
        } else if theirs.count >= PreviewSample.maxPerType {
            warn(sample, plugin, "\(sample.identifier) has \(PreviewSample.maxPerType) samples already, the most read")
        } else {
            samples.append(sample)
        }
    }

    /// Adds a warning about `sample` of `plugin`: `problem`, then how to fix it.
    package mutating func warn(_ sample: PreviewSample, _ plugin: PluginFile, _ problem: String) {
        warnings.append(Self.warning(plugin.path, sample.identifier, sample.name, sample.place, problem))
    }

    /// "PATH: preview Foo "long" (PLACE) left out: PROBLEM", one line, control characters escaped.
    package static func warning(
        _ path: String, _ identifier: String, _ name: String, _ place: String, _ problem: String
    ) -> String {
        let id = identifier.debugDescriptionEscaped, sample = name.debugDescriptionEscaped
        return "\(path): preview \(id) \"\(sample)\" (\(place)) left out: \(problem)"
    }
}

// MARK: - From the plugin's symbols

extension PluginFile {
    /// The samples of the plugin's `cellkit_preview_<Id>_<name>` symbols (`CK_PREVIEW`), read from the
    /// file now (its bytes may have changed since discovery read it); no plugin code runs. A file that no
    /// longer reads as this plugin gives a warning.
    package func previewSymbols() -> PluginPreviews {
        let image: ELFImage
        switch Self.readFile(path) {
        case .success(let bytes):
            do { image = try ELFImage(bytes: bytes) } catch {
                var none = PluginPreviews()
                none.warnings.append("\(path): its previews cannot be read: \(error.description)")
                return none
            }
        case .failure(let reason):
            var none = PluginPreviews()
            none.warnings.append("\(path): its previews cannot be read: \(reason.text)")
            return none
        }
        return previewSymbols(in: image)
    }

    /// The samples of the preview symbols `image` exports, in the order the plugin declares them: by
    /// their place in the file (the compiler lays a file's constants out in the order they are
    /// written, and the linker the files in the order it is given them); the dynamic symbol table's
    /// own order is the linker's hash order.
    package func previewSymbols(in image: ELFImage) -> PluginPreviews {
        var previews = PluginPreviews()
        let symbols = image.dynamicSymbols.filter { $0.isExported && $0.name.hasPrefix(CK_PREVIEW_PREFIX) }
        let named = symbols.map { (symbol: $0, name: Self.previewName($0.name)) }
        let declared = named.sorted {
            ($0.symbol.sectionIndex, $0.symbol.value, $0.symbol.name) < (
                $1.symbol.sectionIndex, $1.symbol.value, $1.symbol.name
            )
        }
        for (symbol, (identifier, name)) in declared {
            let origin = PreviewSample.Origin.symbol(symbol.name)
            let place = "symbol \(symbol.name)"
            func leaveOut(_ problem: String) {
                previews.warnings.append(PluginPreviews.warning(path, identifier, name, place, problem))
            }
            if let problem = PreviewSample.nameProblem(name) {
                leaveOut("\(problem); declare it with CK_PREVIEW(\(identifier), name, json)")
                continue
            }
            guard symbol.kind == .object, let bytes = image.contents(of: symbol, atMost: PreviewSample.maxBytes + 1)
            else {
                leaveOut("the symbol is not a string stored in the file; declare it with CK_PREVIEW(Id, name, json)")
                continue
            }
            // The text ends at its NUL; without one in the limit's bytes and one more, it is too long.
            let text = bytes.firstIndex(of: 0).map { Array(bytes[bytes.startIndex..<$0]) } ?? Array(bytes)
            switch PreviewSample.data(fromJSON: text) {
            case .success(let data):
                previews.add(PreviewSample(identifier: identifier, name: name, data: data, origin: origin), of: self)
            case .failure(let reason): leaveOut(reason.text)
            }
        }
        return previews
    }

    /// The identifier and the sample name of `cellkit_preview_<Id>_<name>`: a name has no underscore,
    /// so it follows the last one (an identifier may hold or end in underscores).
    static func previewName(_ symbol: String) -> (identifier: String, name: String) {
        let rest = symbol.dropFirst(CK_PREVIEW_PREFIX.utf8.count)
        guard let cut = rest.lastIndex(of: "_") else { return (String(rest), "") }
        return (String(rest[..<cut]), String(rest[rest.index(after: cut)...]))
    }
}
