// Shell completion beyond file names: `inspect`, `check` and `preview` take a plugin file or a cell
// identifier, so their completions are the `.so` files (and folders) that start with what was
// typed, and the identifiers the registry cache knows.

import ArgumentParser
import CellKit
import Foundation

enum Completions {
    /// Table documents.
    static let tables = CompletionKind.file(extensions: ["yaml", "yml", "json"])

    /// Plugin files and folders under what was typed, then registered identifiers starting with it.
    static let pluginsAndIdentifiers = CompletionKind.custom { _, _, prefix in
        files(startingWith: prefix) + identifiers(startingWith: prefix)
    }

    /// `.so` files and folders whose path starts with `prefix` (folders end in `/`).
    static func files(startingWith prefix: String) -> [String] {
        let slash = prefix.lastIndex(of: "/")
        let folder = slash.map { String(prefix[...$0]) } ?? ""
        let stem = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else {
            return []
        }
        return names.filter { $0.hasPrefix(stem) && (stem.hasPrefix(".") || !$0.hasPrefix(".")) }.sorted().compactMap {
            var isFolder: ObjCBool = false
            let path = folder + $0
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
            if isFolder.boolValue { return path + "/" }
            return $0.hasSuffix(".so") ? path : nil
        }
    }

    /// The identifiers the usual search path offers (from the registry cache: no plugin is read
    /// when the cache is warm), starting with `prefix`.
    static func identifiers(startingWith prefix: String) -> [String] {
        guard !prefix.contains("/") else { return [] }
        let catalog = Catalog(options: .fromEnvironment())
        return catalog.registrations.map(\.identifier.name).filter { $0.hasPrefix(prefix) }.sorted()
    }
}
