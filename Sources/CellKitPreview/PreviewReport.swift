// The preview as lines of text: each cell type, each sample, each configuration's drawing
// under its name, check's findings and the drawings' warnings (each once) beside the sample, a reused cell's differences
// under its drawing, and an error or a fault in place of a drawing. The terminal view scrolls
// these lines; without a terminal they are printed.

import CellKitText

/// The preview's lines.
package enum PreviewReport {
    /// The lines of `gallery`, each drawing in `format` (`.text`, or `.ansi` for a terminal).
    package static func lines(_ gallery: PreviewGallery, format: PreviewRenderer.Format) -> [String] {
        let target = gallery.target
        let configurations = PreviewConfiguration.grid.count  // the whole grid, while it is still drawing too
        var lines = [
            visible("\(target.path)  (\(target.name) \(target.version))"),
            "\(gallery.types.count) cell type\(gallery.types.count == 1 ? "" : "s"), "
                + "\(configurations) configurations a sample",
        ]
        if let problem = target.problem { lines.append(visible("⚠ the plugin cannot be used: \(problem)")) }
        lines += gallery.sampleWarnings.map { visible("⚠ \($0)") }
        for type in gallery.types {
            lines += ["", "━━ \(visible(type.identifier)) ━━"] + type.findings.map { "  check: \($0)" }
            for sample in type.samples {
                lines += ["", "── \(visible(type.identifier)) / \(sample.sample.name) ──"]
                lines += sample.findings.map { "  check: \($0)" }
                lines += warnings(sample).map { "  warning: \(visible($0))" }
                for entry in sample.entries { lines += self.lines(entry, format: format) }
            }
        }
        return lines
    }

    /// One configuration: its name, then its drawing, or its error in place of it; its faults,
    /// warnings and reuse differences after.
    static func lines(_ entry: PreviewEntry, format: PreviewRenderer.Format) -> [String] {
        var lines = ["", "▸ \(entry.configuration.name)"]
        guard let drawing = entry.drawings[format] ?? entry.drawings[.text] else { return lines }
        if let error = drawing.error {
            return lines + ["  ⚠ not drawn: \(visible(error))"]
        }
        var text = drawing.output
        if text.hasSuffix("\n") { text.removeLast() }
        lines += text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines += drawing.faults.map { "  ⚠ \(visible($0))" }
        if entry.configuration.reused {
            lines +=
                entry.problem != nil
                ? ["  reuse: not compared (the drawing faulted)"]
                : entry.reuseDifferences.isEmpty
                    ? ["  reuse: same as on a fresh cell"]
                    : ["  reuse differs from a fresh cell:"] + entry.reuseDifferences.map { "    \($0)" }
        }
        return lines
    }

    /// The warnings of every configuration of `sample`, each once, in the order first met.
    static func warnings(_ sample: PreviewSampleGallery) -> [String] {
        var seen = Set<String>()
        return sample.entries.flatMap { $0.drawings.values.flatMap(\.warnings) }.filter { seen.insert($0).inserted }
    }

    /// `text` with every character a terminal would act on shown as a visible symbol.
    static func visible(_ text: String) -> String { TextSanitizer.visible(text) }
}
