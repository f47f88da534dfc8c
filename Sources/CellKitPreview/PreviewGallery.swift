// Every configuration of every sample of a plugin's cell types, drawn: what the terminal view,
// the HTML page and the snapshots show. `PreviewGallery.draw` is the one step "load the plugin,
// draw every configuration", to be called again when the plugin changes.

import CellKitCheck
import CellKitDiscovery
import CellKitText
import Foundation

/// The plugin previewed, as discovery read it (nothing loaded).
package struct PreviewTarget: Sendable {
    /// The plugin file.
    package var path: String
    /// Its name and version, from its descriptor.
    package var name: String, version: String
    /// The cell types previewed.
    package var identifiers: [String]
    /// Why the plugin cannot be used (discovery's problems); nil when it can.
    package var problem: String?

    /// A target (see each property).
    package init(path: String, name: String, version: String, identifiers: [String], problem: String? = nil) {
        (self.path, self.name, self.version, self.identifiers, self.problem) = (
            path, name, version, identifiers, problem
        )
    }
}

/// One configuration of a sample, drawn.
package struct PreviewEntry: Sendable {
    /// The configuration.
    package var configuration: PreviewConfiguration
    /// Its drawings, by format.
    package var drawings: [PreviewRenderer.Format: PreviewDrawing]
    /// For a reused cell: each property that differs from the same row on a fresh cell
    /// ("views[0].text: reused \"Hello\", fresh \"Other\""); empty when none does.
    package var reuseDifferences: [String] = []

    /// The first error among its drawings, or its first fault: what is shown in place of a drawing.
    package var problem: String? {
        let all = drawings.keys.sorted { $0.rawValue < $1.rawValue }.compactMap { drawings[$0] }
        return all.compactMap(\.error).first ?? all.flatMap(\.faults).first
    }
}

/// Every configuration of one sample.
package struct PreviewSampleGallery: Sendable {
    /// The sample.
    package var sample: GallerySample
    /// The configurations, in the grid's order.
    package var entries: [PreviewEntry]
    /// Check's findings about this sample's row.
    package var findings: [String] = []
}

/// Every sample of one cell type.
package struct PreviewTypeGallery: Sendable {
    /// The cell type.
    package var identifier: String
    /// Its samples.
    package var samples: [PreviewSampleGallery]
    /// Check's findings that name no sample previewed.
    package var findings: [String] = []
}

/// A plugin's preview: every cell type, sample and configuration, drawn.
package struct PreviewGallery: Sendable {
    /// The plugin.
    package var target: PreviewTarget
    /// Its cell types.
    package var types: [PreviewTypeGallery]
    /// One line per sample the plugin ships that is left out (a duplicate name, bad JSON, too
    /// long), as `inspect` and `check` say it: the file, the sample, what is wrong and the fix.
    package var sampleWarnings: [String] = []

    /// Draws every configuration of every sample of `target`'s types in `formats` with `renderer`;
    /// `check`, when given, checks a type and its findings are placed beside the sample they name.
    /// The step `--watch` repeats: it never throws, a fault or a failed load is kept in place.
    package static func draw(
        _ target: PreviewTarget, formats: [PreviewRenderer.Format], renderer: PreviewRenderer,
        grid: [PreviewConfiguration] = PreviewConfiguration.grid, check: ((String) -> [CheckFinding])? = nil
    ) -> PreviewGallery {
        var drawing = PreviewGalleryDrawing(target, formats: formats, grid: grid, check: check)
        while !drawing.isComplete { drawing.step(renderer) }
        return drawing.gallery
    }

    /// One configuration of `sample` drawn in each of `formats` (JSON too for a reused cell, to
    /// compare it with a fresh one).
    static func entry(
        _ identifier: String, _ sample: GallerySample, _ other: GallerySample?, _ configuration: PreviewConfiguration,
        formats: [PreviewRenderer.Format], renderer: PreviewRenderer
    ) -> PreviewEntry {
        let document = PreviewDocument(
            identifier: identifier, sample: sample, other: other, configuration: configuration)
        var drawings: [PreviewRenderer.Format: PreviewDrawing] = [:]
        for format in formats where configuration.width != .resized || format == .text || format == .ansi {
            drawings[format] = renderer.draw(document, format: format)
        }
        var entry = PreviewEntry(configuration: configuration, drawings: drawings)
        if configuration.reused {
            entry.reuseDifferences = ReuseComparison.differences(
                reused: renderer.draw(document, format: .json), fresh: renderer.draw(document.fresh, format: .json))
        }
        return entry
    }
}

/// A gallery drawn a step at a time (one configuration of one sample, or one type's check), so
/// that the terminal view shows what is drawn so far, and a reload (`--watch`) starts again at
/// once instead of after the last configuration of the build before.
package struct PreviewGalleryDrawing {
    let formats: [PreviewRenderer.Format], grid: [PreviewConfiguration]
    let check: ((String) -> [CheckFinding])?
    /// What is drawn so far: every type and sample, their entries filled in order.
    package private(set) var gallery: PreviewGallery
    /// The next step: the type, the sample and the configuration (the grid's count: its check).
    private var at = (type: 0, sample: 0, entry: 0)

    /// A drawing of `target` (its samples read now), nothing drawn yet; see `PreviewGallery.draw`.
    package init(
        _ target: PreviewTarget, formats: [PreviewRenderer.Format],
        grid: [PreviewConfiguration] = PreviewConfiguration.grid, check: ((String) -> [CheckFinding])? = nil
    ) {
        (self.formats, self.grid, self.check) = (formats, grid, check)
        let read = PreviewSamples.samples(for: target.identifiers, inPlugin: target.path)
        gallery = PreviewGallery(
            target: target,
            types: zip(target.identifiers, read.samples).map { identifier, samples in
                PreviewTypeGallery(
                    identifier: identifier, samples: samples.map { PreviewSampleGallery(sample: $0, entries: []) })
            })
        gallery.sampleWarnings = read.warnings
    }

    /// Whether every step is done.
    package var isComplete: Bool { at.type >= gallery.types.count }

    /// Steps done and steps in all: each configuration of each sample, and each type's check.
    package var progress: (done: Int, of: Int) {
        let perType = gallery.types.map { $0.samples.count * grid.count + (check == nil ? 0 : 1) }
        let done = perType.prefix(min(at.type, perType.count)).reduce(0, +) + at.sample * grid.count + at.entry
        return (done, perType.reduce(0, +))
    }

    /// Draws the next configuration, or checks a type whose configurations are all drawn.
    package mutating func step(_ renderer: PreviewRenderer) {
        guard !isComplete else { return }
        let type = gallery.types[at.type]
        guard at.sample < type.samples.count else {
            if let check { place(check(type.identifier)) }
            at = (at.type + 1, 0, 0)
            return
        }
        let samples = type.samples.map(\.sample)
        let other = samples.count > 1 ? samples[(at.sample + 1) % samples.count] : nil
        let entry = PreviewGallery.entry(
            type.identifier, samples[at.sample], other, grid[at.entry], formats: formats, renderer: renderer)
        gallery.types[at.type].samples[at.sample].entries.append(entry)
        at.entry += 1
        if at.entry == grid.count {
            (at.sample, at.entry) = (at.sample + 1, 0)
            renderer.endWorkers()  // the sample's documents are all drawn
        }
    }

    /// Check's findings about the current type, each beside the sample it names (or the type's).
    private mutating func place(_ findings: [CheckFinding]) {
        let samples = gallery.types[at.type].samples
        for finding in findings {
            let line = TextSanitizer.visible(finding.message)
            if let i = samples.firstIndex(where: { s in
                s.sample.checkLabel.map { label in finding.row == CheckPlan.sampleName(label) } ?? false
            }) {
                gallery.types[at.type].samples[i].findings.append(line)
            } else {
                gallery.types[at.type].findings.append(line)
            }
        }
    }
}
