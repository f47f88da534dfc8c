// The sample rows `cellkit preview` draws for a cell type, through one seam: the samples the
// plugin ships (`CK_PREVIEW`, its preview file: `PluginFile.previews()`, read anew each call, so a
// rebuilt plugin is seen), else the typical data `cellkit check` uses (CheckSample) and a
// long-text variant of it.

import CellKitCheck
import CellKitDiscovery
import CellKitDocuments
import CellKitModel
import Foundation

/// One sample row of a cell type: a name fit for a file name, and the row's data.
package struct GallerySample: Sendable, Equatable {
    /// The sample's name: letters, digits and `-` ("typical", "long-text"); snapshot folders are named after it.
    package var name: String
    /// The row's data, as a document's inline row holds it.
    package var data: RowValue
    /// The label `cellkit check` gives the same data ("typical data"), to place its findings; nil if none.
    package var checkLabel: String?

    /// A sample named `name` with `data`, which `cellkit check` calls `checkLabel`.
    package init(name: String, data: RowValue, checkLabel: String? = nil) {
        (self.name, self.data, self.checkLabel) = (name, data, checkLabel)
    }
}

/// Where the preview's samples come from: the one place that says which samples are drawn.
package enum PreviewSamples {
    /// The samples of each of `identifiers`, cell types of the plugin file at `plugin`, in the order
    /// they are drawn: those the plugin ships for the type, else CellKit's own (`builtin()`); and a
    /// line for each sample it ships that is left out. The file is read once, now.
    package static func samples(
        for identifiers: [String], inPlugin plugin: String
    ) -> (samples: [[GallerySample]], warnings: [String]) {
        guard case .success(let file) = PluginFile.read(path: plugin) else {
            return (identifiers.map { _ in builtin() }, [])
        }
        let previews = file.previews()
        let samples = identifiers.map { identifier in
            let shipped = previews.samples(for: identifier).map {
                GallerySample(name: $0.name, data: $0.data, checkLabel: CheckSample.previewLabel($0.name))
            }
            return shipped.isEmpty ? builtin() : shipped
        }
        return (samples, previews.warnings)
    }

    /// CellKit's own samples, for a type whose plugin ships none: check's typical data, then the same
    /// data with every text made long (a long text is the state that most often breaks).
    package static func builtin() -> [GallerySample] {
        guard let typical = CheckSample.synthesized(section: 0).first(where: { $0.label == CheckSample.typicalLabel })
        else {
            return []
        }
        return [
            GallerySample(name: "typical", data: typical.data, checkLabel: typical.label),
            GallerySample(name: "long-text", data: long(typical.data)),
        ]
    }

    /// `value` with every text four times as long, words apart.
    static func long(_ value: RowValue) -> RowValue {
        switch value {
        case .string(let text): .string(Array(repeating: text, count: 4).joined(separator: " ") + " and more")
        case .list(let items): .list(items.map(long))
        case .object(let fields): .object(fields.mapValues(long))
        default: value
        }
    }

    /// A file-name-safe form of `name`: letters and digits kept, anything else one `-`.
    package static func slug(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" {
                out.unicodeScalars.append(scalar)
            } else if !out.hasSuffix("-") {
                out += "-"
            }
        }
        let trimmed = out.trimmingCharacters(in: ["-"])
        return trimmed.isEmpty ? "sample" : trimmed
    }
}
