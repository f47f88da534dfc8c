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

    /// The samples of the preview symbols `image` exports, in the order the plugin declares them:
    /// by the place `CK_PREVIEW` writes after each text's NUL (`__COUNTER__`); symbols without one
    /// (written by hand, or by an older cellkit.h) after them, by their place in the file.
    package func previewSymbols(in image: ELFImage) -> PluginPreviews {
        var previews = PluginPreviews()
        let symbols = image.dynamicSymbols.filter { $0.isExported && $0.name.hasPrefix(CK_PREVIEW_PREFIX) }
        let read = symbols.map { symbol in
            let bytes = symbol.kind == .object ? image.contents(of: symbol, atMost: PreviewSample.maxBytes + 1) : nil
            return (symbol: symbol, name: Self.previewName(symbol.name), bytes: bytes, place: bytes.flatMap(Self.place))
        }
        let declared = read.sorted { a, b in
            (a.place ?? Int.max, a.symbol.sectionIndex, a.symbol.value, a.symbol.name)
                < (b.place ?? Int.max, b.symbol.sectionIndex, b.symbol.value, b.symbol.name)
        }
        for (symbol, (identifier, name), bytes, _) in declared {
            let origin = PreviewSample.Origin.symbol(symbol.name)
            let place = "symbol \(symbol.name)"
            func leaveOut(_ problem: String) {
                previews.warnings.append(PluginPreviews.warning(path, identifier, name, place, problem))
            }
            if let problem = PreviewSample.nameProblem(name) {
                leaveOut("\(problem); declare it with CK_PREVIEW(\(identifier), name, json)")
                continue
            }
            guard let bytes else {
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

    /// The place `CK_PREVIEW` writes after the text's NUL: decimal digits, then a NUL or the
    /// symbol's end; nil when there is none.
    static func place<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int? {
        guard let nul = bytes.firstIndex(of: 0) else { return nil }
        let digits = bytes[bytes.index(after: nul)...].prefix { $0 != 0 }
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// The identifier and the sample name of `cellkit_preview_<Id>_<name>`: a name has no underscore,
    /// so it follows the last one (an identifier may hold or end in underscores).
    static func previewName(_ symbol: String) -> (identifier: String, name: String) {
        let rest = symbol.dropFirst(CK_PREVIEW_PREFIX.utf8.count)
        guard let cut = rest.lastIndex(of: "_") else { return (String(rest), "") }
        return (String(rest[..<cut]), String(rest[rest.index(after: cut)...]))
    }
}
