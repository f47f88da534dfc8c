// `cellkit inspect PATH|IDENTIFIER`: everything about one plugin file.

import ArgumentParser
import CellKit
import Foundation

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a plugin's descriptor, ABI, hooks with their signatures, and every problem.",
        discussion: """
            Give a .so file, or a cell identifier to inspect the plugin that provides it \
            (a built-in cell type's name shows what the built-in fills from the row's data). \
            Each cell type's previews are listed: sample rows the plugin ships (CK_PREVIEW, or \
            libNAME.preview.yaml beside libNAME.so), with a warning for each that cannot be used. \
            Exits with status 1 if the plugin cannot be used or no plugin provides the identifier. \
            No plugin code runs.
            """)

    @Argument(help: "A plugin file, or a registered cell identifier.", completion: Completions.pluginsAndIdentifiers)
    var target: String

    @OptionGroup var discovery: DiscoveryFlags

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func run() throws {
        DiscoveryFlags.warnAboutRefusedPaths(discovery.options)
        if discovery.verbose { DiscoveryFlags.explain(discovery.options) }
        if let builtin = BuiltinType(target) {  // a built-in wins over a plugin's type of the same name
            if json { try Output.printJSON(builtin) } else { Output.print(builtin.lines) }
            return
        }
        let plugin: PluginFile
        switch try resolve() {
        case .failure(let rejection):
            if json {
                try Output.printJSON(rejection)
            } else {
                Output.print(["\(rejection.path): \(rejection.reason)"])
            }
            throw ExitCode(1)
        case .success(let found):
            plugin = discovery.allowUnsafePermissions ? found : found.checkingPermissions()
        }
        let previews = plugin.previews()
        if json {
            try Output.printJSON(WithPreviews(plugin: plugin, previews: previews))
        } else {
            Output.write(Self.text(plugin, previews: previews))
        }
        if !plugin.isUsable { throw ExitCode(1) }
    }

    /// The plugin to show: the file the argument names, else the catalog's provider of an identifier.
    private func resolve() throws -> Result<PluginFile, Rejection> {
        if target.contains("/") || target.hasSuffix(".so") || FileManager.default.fileExists(atPath: target) {
            return PluginFile.read(path: SearchPath.absolute(target))
        }
        let catalog = Catalog(options: discovery.options)
        let identifier: CellIdentifier
        do { identifier = try CellIdentifier(target) } catch { throw ValidationError(error.description.terminalSafe) }
        guard let registration = catalog.registration(for: identifier) else {
            // Status 1, as for a plugin that cannot be used: the argument is well formed (64 is for that).
            throw NotFound(description: catalog.unknownIdentifierError(target).description.terminalSafe)
        }
        // Read by discovery (or the registry cache); its near misses asked for now, and cached.
        var plugin = catalog.plugin(at: registration.pluginIndex)
        plugin.knownNearMisses = catalog.nearMisses(ofPlugin: registration.pluginIndex)
        return .success(plugin)
    }

    /// A built-in cell type: no plugin, one of the four standard styles, filled from the row's data.
    struct BuiltinType: Encodable {
        let identifier: String, builtin = true, style: String
        /// The row data keys each part is filled from, the first present winning (`BuiltinCells.customize`).
        let keys = [
            "text": BuiltinCells.textKeys, "detail": BuiltinCells.detailKeys, "image": BuiltinCells.imageKeys,
            "accessory": BuiltinCells.accessoryKeys,
        ]

        init?(_ name: String) {
            guard let index = BuiltinCells.names.firstIndex(of: name), let style = CellStyle(rawValue: Int32(index))
            else { return nil }
            (identifier, self.style) = (name, "\(style)")
        }

        var lines: [String] {
            func from(_ keys: [String]) -> String { "from " + keys.map { "\"\($0)\"" }.joined(separator: ", else ") }
            let accessories = AccessoryType.allCases.map { "\($0)" }.joined(separator: ", ")
            return [
                "\(identifier): a built-in cell type (no plugin; it wins over a plugin type of the same name)",
                "  style        \(style)",
                "  text         \(from(BuiltinCells.textKeys))",
                "  detail       \(from(BuiltinCells.detailKeys))"
                    + (style == "default" ? " (not shown in this style)" : ""),
                "  image        \(from(BuiltinCells.imageKeys)) (an asset name)",
                "  accessory    \(from(BuiltinCells.accessoryKeys)): \(accessories)",
            ]
        }
    }

    /// No plugin on the search path provides the identifier asked for.
    struct NotFound: Error, CustomStringConvertible {
        let description: String
    }

    /// What `cellkit inspect` prints for `p` with its `previews`, each line terminal-safe and ended by a newline.
    static func text(_ p: PluginFile, previews: PluginPreviews) -> [UInt8] {
        let d = p.descriptor
        let host = PluginFile.hostABI
        let compatible = p.problems.contains { $0.contains("ABI") } ? "incompatible" : "compatible"
        var out = TextLines()
        out.lines([
            p.path,
            "  plugin       \(d.name) \(d.version)",
            "  description  \(d.summary)",
            "  ABI          \(d.abi) (host \(host.major).\(host.minor): \(compatible))",
            "  status       \(p.isUsable ? "usable" : "cannot be used")",
            p.cellTypes.isEmpty ? "  no cell types" : "  cell types (\(p.cellTypes.count)):",
        ])
        for type in p.cellTypes {
            out.line("    \(type.identifier)")
            Output.appendHookLines(type, indent: "      ", problems: p.problems, to: &out)
            out.lines(previewLines(previews.samples(for: type.identifier.name), plugin: p.path))
        }
        if !p.problems.isEmpty { out.lines(["  problems:"] + p.problems.map { "    - \($0)" }) }
        if !previews.warnings.isEmpty { out.lines(["  preview warnings:"] + previews.warnings.map { "    - \($0)" }) }
        if !p.nearMisses.isEmpty { out.lines(["  near misses:"] + p.nearMisses.map { "    - \($0)" }) }
        let notes = swiftNotes(p)
        if !notes.isEmpty { out.lines(["  notes:"] + notes.map { "    - \($0)" }) }
        return out.bytes
    }

    /// The longest sample text `inspect` shows on a line, in characters; `--json` shows the whole.
    static let previewWidth = 72

    /// A type's preview lines: "previews (N):" and one line per sample (its name, its data as JSON cut to
    /// `previewWidth`, where it comes from), or how to ship some when it has none.
    static func previewLines(_ samples: [PreviewSample], plugin: String) -> [String] {
        guard !samples.isEmpty else {
            let file = PathText.lastComponent(of: PreviewFile.path(forPlugin: plugin))
            return ["      no previews (ship sample rows with CK_PREVIEW or in \(file))"]
        }
        let width = samples.map(\.name.count).max() ?? 0
        return ["      previews (\(samples.count)):"]
            + samples.map { sample in
                let json = sample.json
                let shown = json.count > previewWidth ? json.prefix(previewWidth - 1) + "…" : Substring(json)
                let pad = String(repeating: " ", count: width - sample.name.count)
                return "        \(sample.name)\(pad)  \(shown)  (\(sample.place))"
            }
    }

    /// A plugin with its previews, as `inspect --json` prints it: the plugin's own keys, then `previews`
    /// (each sample's identifier, name, data and place) and `previewWarnings`.
    struct WithPreviews: Encodable {
        let plugin: PluginFile
        let previews: PluginPreviews

        private enum Key: String, CodingKey { case previews, previewWarnings }

        /// One sample: its `data` as the JSON value it is.
        private struct Sample: Encodable {
            let identifier: String, name: String, data: JSONData, from: String
        }

        func encode(to encoder: any Encoder) throws {
            try plugin.encode(to: encoder)
            var keyed = encoder.container(keyedBy: Key.self)
            try keyed.encode(
                previews.samples.map {
                    Sample(identifier: $0.identifier, name: $0.name, data: JSONData($0.data), from: $0.place)
                }, forKey: .previews)
            try keyed.encode(previews.warnings, forKey: .previewWarnings)
        }
    }

    /// Row data encoded as the JSON value it holds.
    struct JSONData: Encodable {
        let value: RowValue
        init(_ value: RowValue) { self.value = value }

        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            switch value {
            case .null: try single.encodeNil()
            case .bool(let b): try single.encode(b)
            case .number(let n): try single.encode(n)
            case .string(let s): try single.encode(s)
            case .list(let items): try single.encode(items.map(JSONData.init))
            case .object(let fields): try single.encode(fields.mapValues(JSONData.init))
            }
        }
    }

    /// For a plugin built from Swift: why a hook may be missing (a hook left internal is not
    /// exported by a release build, and a stripped one leaves not even a near miss). A line for no
    /// cell type at all, and for each type without a customize hook no near miss explains.
    static func swiftNotes(_ p: PluginFile) -> [String] {
        let missing = p.cellTypes.filter { $0.hook(.customizeCell) == nil }
        guard p.cellTypes.isEmpty || !missing.isEmpty, ELFImage.isSwiftLibrary(atPath: p.path) else { return [] }
        if p.cellTypes.isEmpty { return ["a Swift plugin that exports no hook: \(NearMiss.swiftPublicRule)"] }
        return missing.compactMap { type in
            let customize = HookKind.customizeCell.symbol(for: type.identifier)
            let explained = p.nearMisses.contains {
                $0.symbol == customize || $0.suggestion?.contains(customize) == true
            }
            guard !explained else { return nil }
            return "\(type.identifier) has no \(customize), so its rows show only what its other hooks set; if it "
                + "is written, \(NearMiss.swiftPublicRule)"
        }
    }
}
