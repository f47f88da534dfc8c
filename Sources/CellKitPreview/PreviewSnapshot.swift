// Snapshot tests for plugin authors: every configuration's text (and JSON geometry) as golden
// files, one per type, sample and light configuration (`Foobar/typical/grouped-selected-default-light-rtl.txt`),
// written, compared with a readable diff naming what changed, and rewritten on request.

import CellKitText
import Foundation

/// The golden files of a preview: writing, comparing and updating them.
package enum PreviewSnapshot {
    /// One golden file that does not match.
    package struct Change: Sendable, Equatable {
        /// How it differs.
        package enum Kind: String, Sendable {
            /// The file differs from what is drawn now.
            case changed
            /// No file for a configuration drawn now.
            case missing
            /// A file for no configuration drawn now.
            case extra
        }
        /// How it differs.
        package var kind: Kind
        /// The file, relative to the snapshot folder.
        package var path: String
        /// For `changed`: the diff, a line each ("- expected", "+ drawn now", "@@ line 3 @@").
        package var diff: [String] = []
    }

    /// The extensions of the files a snapshot folder holds: others in it are left alone.
    static let extensions = ["txt", "json"]

    /// Every golden file of `gallery`, by path relative to the folder: each configuration's text,
    /// and its JSON where the configuration has geometry (not after a width change). Light
    /// configurations only: text without escapes and geometry are the same in dark (the theme
    /// chooses colours alone), so a dark file would repeat its light twin and catch nothing.
    package static func files(_ gallery: PreviewGallery) -> [String: String] {
        Dictionary(orderedFiles(gallery), uniquingKeysWith: { first, _ in first })
    }

    /// `files(_:)` in the gallery's order: types, their samples as declared, configurations.
    static func orderedFiles(_ gallery: PreviewGallery) -> [(path: String, text: String)] {
        var files: [(path: String, text: String)] = []
        for type in gallery.types {
            for sample in type.samples {
                let folder = "\(PreviewSamples.slug(type.identifier))/\(PreviewSamples.slug(sample.sample.name))/"
                for entry in sample.entries where entry.configuration == entry.configuration.inLight {
                    let base = folder + entry.configuration.name
                    if let text = entry.drawings[.text] { files.append((base + ".txt", content(text, entry: entry))) }
                    if let json = entry.drawings[.json] { files.append((base + ".json", content(json, entry: nil))) }
                }
            }
        }
        return files
    }

    /// A drawing as its golden file holds it: its output (or the error in its place), then its
    /// faults, then a reused cell's differences from a fresh one.
    static func content(_ drawing: PreviewDrawing, entry: PreviewEntry?) -> String {
        var text = drawing.error.map { "⚠ not drawn: \($0)\n" } ?? drawing.output
        if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
        for fault in drawing.faults { text += "⚠ \(TextSanitizer.visible(fault))\n" }
        for difference in entry?.reuseDifferences ?? [] { text += "reuse differs: \(difference)\n" }
        return PreviewRenderer.withoutEscapes(text)
    }

    /// Writes every file of `gallery` into `folder` (made if missing) and removes the golden files
    /// it holds for configurations no longer drawn, and the folders in it that removing them left
    /// empty (a sample or type renamed); returns how many files were written and removed.
    @discardableResult
    package static func write(_ gallery: PreviewGallery, to folder: String) throws -> (written: Int, removed: Int) {
        let files = files(gallery)
        var emptied = Set<String>(), removed = 0
        for path in existing(in: folder) where files[path] == nil {
            try FileManager.default.removeItem(atPath: folder + "/" + path)
            emptied.insert((path as NSString).deletingLastPathComponent)
            removed += 1
        }
        removeEmptyFolders(emptied, in: folder)
        for (path, text) in files {
            let url = URL(fileURLWithPath: folder + "/" + path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return (files.count, removed)
    }

    /// Removes each of `folders` (relative to `folder`, which stays) that is empty, and each folder
    /// above it that this leaves empty: only folders golden files were removed from, and only when
    /// nothing else is in them (`rmdir` removes no folder that holds anything).
    static func removeEmptyFolders(_ folders: Set<String>, in folder: String) {
        // Deepest first, so that a type's folder is empty once its samples' folders are gone.
        var pending = folders.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
        var tried = Set<String>()
        while let path = pending.first {
            pending.removeFirst()
            guard tried.insert(path).inserted, rmdir(folder + "/" + path) == 0 else { continue }
            let parent = (path as NSString).deletingLastPathComponent
            if !parent.isEmpty { pending.append(parent) }
            pending.sort { $0.count > $1.count }
        }
    }

    /// How the golden files in `folder` differ from `gallery`, in the gallery's order (types, samples as
    /// declared, configurations), then the extra files by path.
    package static func compare(_ gallery: PreviewGallery, with folder: String) -> [Change] {
        let ordered = orderedFiles(gallery)
        let files = Dictionary(ordered, uniquingKeysWith: { first, _ in first })
        let found = Set(existing(in: folder))
        var changes: [Change] = []
        for path in ordered.map(\.path) + found.subtracting(files.keys).sorted() {
            guard let now = files[path] else {
                changes.append(Change(kind: .extra, path: path))
                continue
            }
            guard found.contains(path), let data = FileManager.default.contents(atPath: folder + "/" + path) else {
                changes.append(Change(kind: .missing, path: path))
                continue
            }
            let expected = String(decoding: data, as: UTF8.self)
            if expected != now {
                changes.append(Change(kind: .changed, path: path, diff: LineDiff.lines(expected, now)))
            }
        }
        return changes
    }

    /// Changed files whose diff the report shows; the others are named (`namedChanges` at most), then
    /// counted by sample: a change to a cell's drawing changes nearly every configuration, and a
    /// diff of each was thousands of lines for one character.
    static let shownDiffs = 3, namedChanges = 20

    /// The report of `changes`: each file named by type, sample and configuration; the first
    /// changed texts with their diffs (a JSON file's only when its text is unchanged: its geometry
    /// alone moved); missing and extra files all named; the rest of the changes counted by sample.
    package static func report(_ changes: [Change], folder: String) -> [String] {
        let changedTexts = Set(changes.filter { $0.kind == .changed && $0.path.hasSuffix(".txt") }.map(\.path))
        var lines: [String] = [], diffs = 0, named = 0
        var rest: [(sample: String, count: Int)] = []
        for change in changes {
            let parts = change.path.split(separator: "/").map(String.init)
            if change.kind == .changed, named >= namedChanges, parts.count == 3 {
                let sample = "type \(parts[0]), sample \(parts[1])"
                if rest.last?.sample == sample { rest[rest.count - 1].count += 1 } else { rest.append((sample, 1)) }
                continue
            }
            let describedNamed =
                parts.count == 3
                ? " (type \(parts[0]), sample \(parts[1]), configuration \((parts[2] as NSString).deletingPathExtension))"
                : ""
            let what: String =
                switch change.kind {
                case .changed: "changed"
                case .missing: "missing (drawn now, no golden file)"
                case .extra: "extra (a golden file for no configuration drawn now)"
                }
            lines.append(TextSanitizer.visible("\(what): \(folder)/\(change.path)\(describedNamed)"))
            guard change.kind == .changed else { continue }
            named += 1
            let twin = (change.path as NSString).deletingPathExtension + ".txt"
            if diffs < shownDiffs, change.path.hasSuffix(".txt") || !changedTexts.contains(twin) {
                lines += change.diff.map { "  " + TextSanitizer.visible($0) }
                diffs += 1
            }
        }
        for (sample, count) in rest {
            lines.append(TextSanitizer.visible("changed: \(count) more file\(count == 1 ? "" : "s") of \(sample)"))
        }
        return lines
    }

    /// The one-line count of `changes`: "3 changed, 1 missing, 1 extra".
    package static func summary(_ changes: [Change]) -> String {
        let kinds: [(Change.Kind, String)] = [(.changed, "changed"), (.missing, "missing"), (.extra, "extra")]
        return kinds.compactMap { kind, word in
            let n = changes.filter { $0.kind == kind }.count
            return n == 0 ? nil : "\(n) \(word)"
        }.joined(separator: ", ")
    }

    /// The golden files under `folder`, relative to it, sorted; none when it does not exist.
    static func existing(in folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var paths: [String] = []
        while let path = walker.nextObject() as? String {
            if extensions.contains((path as NSString).pathExtension) { paths.append(path) }
        }
        return paths.sorted()
    }
}

/// A line diff in the unified style: removed lines `- `, added `+ `, a few unchanged lines of
/// context around each change, and `@@ line N @@` where each hunk starts in the expected file.
package enum LineDiff {
    /// Lines of context kept around a change.
    static let context = 2

    /// The diff of `expected` and `actual`, split into lines.
    package static func lines(_ expected: String, _ actual: String) -> [String] {
        func split(_ text: String) -> [String] {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            return text.hasSuffix("\n") ? Array(lines.dropLast()) : lines
        }
        let (a, b) = (split(expected), split(actual))
        let edits = script(a, b)
        var out: [String] = []
        var lastShown = -1
        for (i, edit) in edits.enumerated() where edit.kind != " " {
            let from = max(lastShown + 1, i - context)
            if from > lastShown + 1 || out.isEmpty { out.append("@@ line \(edits[from].line + 1) @@") }
            for j in from...i where j > lastShown {
                out.append("\(edits[j].kind) \(edits[j].text)")
                lastShown = j
            }
            var k = i + 1
            while k < edits.count, k <= i + context, edits[k].kind == " " {
                out.append("  \(edits[k].text)")
                lastShown = k
                k += 1
            }
        }
        return out
    }

    /// The edit script turning `a` into `b`: each line kept (" "), removed ("-") or added ("+"),
    /// with its line number in `a`. By longest common subsequence; past 4,000 lines a side, all replaced.
    static func script(_ a: [String], _ b: [String]) -> [(kind: Character, text: String, line: Int)] {
        guard a.count <= 4000, b.count <= 4000 else {
            return a.enumerated().map { ("-", $1, $0) } + b.map { ("+", $0, a.count) }
        }
        var lcs = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        var out: [(kind: Character, text: String, line: Int)] = []
        var (i, j) = (0, 0)
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                out.append((" ", a[i], i))
                (i, j) = (i + 1, j + 1)
            } else if i < a.count, j == b.count || lcs[i + 1][j] >= lcs[i][j + 1] {
                out.append(("-", a[i], i))  // removed lines first, as diff shows them
                i += 1
            } else {
                out.append(("+", b[j], i))
                j += 1
            }
        }
        return out
    }
}
