// What `cellkit check` runs for one cell type, shared by the worker that runs it and
// the parent that watches: the sample rows, the units of work in order, and the
// records the worker sends. Both sides number units the same way, so the parent can
// name the hook and row a worker died in and start a new worker after it.

import CellKitDocuments
import CellKitModel
import CellKitRendering
import CellKitRuntime
import CellKitText

/// One row a check lays out: its data, where it stands and how its cell is made.
package struct CheckSample: Sendable {
    /// What the row is, for messages: "empty data", or `tableLabel` for a row of the table.
    package var label: String
    /// Where the row is shown.
    package var indexPath: IndexPath
    /// How many rows its section has.
    package var rowsInSection: Int
    /// The style its cells are made with.
    package var style: CellStyle
    /// Whether its section is selectable.
    package var selectable: Bool
    /// The row's data.
    package var data: RowValue

    /// Samples that each change one top-level key of `base` that hooks read (at most 12 keys):
    /// a text, number or truth value changed and the key left out; a key `base` lacks set to
    /// `true`, a number and a text. Their rows count from `firstRow`.
    package static func varied(_ base: CheckSample, keys: [String], firstRow: Int) -> [CheckSample] {
        guard case .object(let fields) = base.data else { return [] }
        var out: [CheckSample] = []
        for key in keys.filter({ !$0.isEmpty && !$0.contains(".") }).prefix(12) {
            let values: [(String, RowValue?)] =
                switch fields[key] {
                case .string(let text)?:
                    [("'\(key)' changed", .string(text == "Changed" ? "Other" : "Changed")), ("without '\(key)'", nil)]
                case .number(let n)?: [("'\(key)' changed", .number(n == 0 ? 1 : 0)), ("without '\(key)'", nil)]
                case .bool(let b)?: [("'\(key)' \(!b)", .bool(!b)), ("without '\(key)'", nil)]
                case nil, .null?:
                    [("'\(key)' true", .bool(true)), ("'\(key)' 1", .number(1)), ("'\(key)' a text", .string("Value"))]
                default: [("without '\(key)'", nil)]
                }
            for (what, value) in values {
                var changed = fields
                changed[key] = value
                var sample = base
                sample.label = "\(typicalLabel), \(what)"
                sample.indexPath = IndexPath(section: base.indexPath.section, row: firstRow + out.count)
                sample.data = .object(changed)
                out.append(sample)
            }
        }
        return out
    }

    /// The label of the sample whose keys have the types plugins expect.
    package static let typicalLabel = "typical data"
    /// The start of the label of a sample the plugin ships (`CK_PREVIEW`, its preview file), which is
    /// typical data too: `the plugin's preview "long"`.
    package static let previewLabelPrefix = "the plugin's preview "

    /// The label of the plugin's sample named `name`.
    package static func previewLabel(_ name: String) -> String { previewLabelPrefix + "\"\(name)\"" }

    /// Whether a sample labelled `label` is typical data: CellKit's own, or one of the plugin's previews.
    static func isTypical(_ label: String) -> Bool { label == typicalLabel || label.hasPrefix(previewLabelPrefix) }
    /// The label of a row of the table checked (its place is its name).
    static let tableLabel = "a row of the table"

    /// The keys plugins commonly read, for the hostile samples.
    static let keys = [
        "text", "title", "detail", "subtitle", "value", "image", "accessory", "name", "project", "description",
        "logos", "icon", "count", "enabled",
    ]

    /// The rows every check runs: empty data, typical data, and hostile data (very long
    /// texts, control characters, values of the wrong type, nulls, deep nesting), in
    /// `section`, rows from 0. Typical data is the plugin's `previews` of the type when it ships
    /// any, each a row of its own; CellKit's own typical row otherwise.
    package static func synthesized(section: Int, previews: [PreviewSample] = []) -> [CheckSample] {
        func all(_ value: RowValue) -> RowValue {
            .object(Dictionary(uniqueKeysWithValues: keys.map { ($0, value) }))
        }
        var deep = RowValue.string("bottom")
        for _ in 0..<200 { deep = .object(["text": deep, "items": .list([deep])]) }
        let long = String(repeating: "Long text, wide é 漢字 ", count: 700)  // about 19,600 bytes: under the 64 KiB cap
        let typical: [(String, RowValue)] = [
            (
                typicalLabel,
                .object([
                    "text": .string("Hello"), "title": .string("Title"), "detail": .string("Detail"),
                    "subtitle": .string("Subtitle"), "value": .string("42"), "image": .string("star"),
                    "accessory": .string("checkmark"), "name": .string("Grace Hopper"),
                    "project": .string("NiftyWow"), "description": .string("Oh you just can't imagine."),
                    "logos": .list([.string("apple"), .string("github")]), "icon": .string("niftywow"),
                    "count": .number(3), "enabled": .bool(true),
                ])
            )
        ]
        let shipped = previews.map { (previewLabel($0.name), $0.data) }
        let rows: [(String, RowValue)] =
            [("empty data", .null), ("an empty object", .object([:]))] + (shipped.isEmpty ? typical : shipped) + [
                ("very long texts", all(.string(long))),
                ("control characters", all(.string("\u{1B}[2J\u{1B}]0;title\u{07}\r\n\t\u{202E}evil\u{0}nul\u{7F}"))),
                ("values of the wrong type", all(.list([.number(1), .object(["a": .bool(false)])]))),
                ("numbers for every key", all(.number(-1e308))),
                ("nulls for every key", all(.null)),
                ("deep nesting", .object(["text": deep, "title": deep, "logos": .list([deep]), "detail": deep])),
            ]
        return rows.enumerated().map { i, row in
            CheckSample(
                label: row.0, indexPath: IndexPath(section: section, row: i), rowsInSection: rows.count,
                style: .default, selectable: true, data: row.1)
        }
    }
}

/// A unit of a check: one sample on a fresh cell, or one sample on a cell reused from another.
package enum CheckUnit: Equatable, Sendable {
    /// Sample `index` laid out on a new cell, each hook run on its own and timed.
    case fresh(Int)
    /// Sample `row` laid out through the routine on the cell sample `from` used and gave back.
    case reuse(from: Int, row: Int)
}

/// What a worker checks for one cell type, sent to the parent before the first unit.
package struct CheckPlan: Codable, Sendable {
    /// A sample as the parent sees it.
    package struct Sample: Codable, Sendable {
        /// What the row is.
        package var label: String
        /// The row as `RowName.forAuthor` names it: "row 1.3 (indexPath [0, 2])".
        package var row: String
        /// Samples of one group share a pool: the same style and selectability.
        package var group: Int
    }

    /// The cell type checked.
    package var identifier: String
    /// The hooks it has, in the order they run.
    package var hooks: [HookKind]
    /// The samples, fresh units in this order.
    package var samples: [Sample]
    /// Samples left out of the reuse units (their fresh unit failed).
    package var excluded: [Int]
    /// Table rows of the type past the ones sampled: each one unit, run through the routine after
    /// the other units (`CheckWorker`).
    package var tableRowsSkipped = 0

    /// The first sample of typical data, whose keys have the types plugins expect; nil when none.
    package var typicalSample: Int? { samples.firstIndex { CheckSample.isTypical($0.label) } }

    /// Whether sample `i` is typical data: CellKit's typical row or one of the plugin's previews.
    package func isTypical(_ i: Int) -> Bool { samples.indices.contains(i) && CheckSample.isTypical(samples[i].label) }

    /// The names of the plugin's previews run as typical data, in order; empty when CellKit's own was.
    package var previewNames: [String] {
        samples.compactMap { sample in
            guard sample.label.hasPrefix(CheckSample.previewLabelPrefix) else { return nil }
            return String(sample.label.dropFirst(CheckSample.previewLabelPrefix.count).dropFirst().dropLast())
        }
    }

    /// Whether sample `i` is one of the table's rows.
    package func isTableRow(_ i: Int) -> Bool {
        samples.indices.contains(i) && samples[i].label == CheckSample.tableLabel
    }

    /// The plan for `samples` of the type `identifier` with `hooks`.
    package init(identifier: String, hooks: [HookKind], samples: [CheckSample], excluded: [Int]) {
        self.identifier = identifier
        self.hooks = hooks
        self.excluded = excluded
        var groups: [String] = []
        self.samples = samples.map { s in
            let key = "\(s.style.rawValue)/\(s.selectable)"
            if !groups.contains(key) { groups.append(key) }
            return Sample(label: s.label, row: "\(RowName.forAuthor(s.indexPath))", group: groups.firstIndex(of: key)!)
        }
    }

    /// The reuse units: every ordered pair of samples in one group, neither excluded.
    package var pairs: [(from: Int, row: Int)] {
        var pairs: [(from: Int, row: Int)] = []
        for row in samples.indices where !excluded.contains(row) {
            for from in samples.indices
            where from != row && !excluded.contains(from) && samples[from].group == samples[row].group {
                pairs.append((from, row))
            }
        }
        return pairs
    }

    /// How many units the check has.
    package var unitCount: Int { samples.count + pairs.count + tableRowsSkipped }

    /// The unit numbered `index` (from 0) below `samples.count + pairs.count`: fresh units first,
    /// then reuse units (the table's other rows follow them).
    package func unit(_ index: Int, pairs: [(from: Int, row: Int)]) -> CheckUnit {
        index < samples.count
            ? .fresh(index) : .reuse(from: pairs[index - samples.count].from, row: pairs[index - samples.count].row)
    }

    /// `sample "typical data"`, `sample "long"` (the plugin's preview "long"); "row 2.5 (indexPath
    /// [1, 4]) of the table". A sample is named, not numbered: its place in check's own table (a
    /// section after the table's, with `--table`) is no place the author knows.
    package func name(_ sample: Int) -> String {
        guard samples.indices.contains(sample) else { return "a row of the table" }
        return isTableRow(sample) ? "\(samples[sample].row) of the table" : Self.sampleName(samples[sample].label)
    }

    /// How a finding names the sample labelled `label`: `sample "long"` for the plugin's preview
    /// "long" (as `cellkit preview` heads it), `sample "empty data"` for one of check's own.
    package static func sampleName(_ label: String) -> String {
        guard label.hasPrefix(CheckSample.previewLabelPrefix) else { return "sample \"\(label)\"" }
        return "sample " + label.dropFirst(CheckSample.previewLabelPrefix.count)
    }

    /// How a row of the table past the samples is named: as `name(_:)` names a sampled one.
    package static func tableRowName(_ indexPath: IndexPath) -> String {
        "\(RowName.forAuthor(indexPath)) of the table"
    }

    /// The hook's symbol for this type: "customizeCellForFoo".
    package func symbol(_ hook: HookKind) -> String { hook.prefix + identifier }
}

/// One property of a reused cell that differs from the same row on a fresh cell.
package struct ReuseDifference: Codable, Sendable, Equatable {
    /// The property, as a path: "accessoryType", "textLabel.textColor", "subview tag 3.text".
    package var property: String
    /// Its value on the reused cell.
    package var reused: String
    /// Its value on a fresh cell.
    package var fresh: String
    /// The sample whose cell was reused.
    package var from: Int
    /// The sample laid out.
    package var row: Int
}

/// What a worker tells its parent, one JSON line each (hook starts are shorter lines: see `CheckWire`).
package struct CheckMessage: Codable, Sendable {
    /// The plan, first.
    package var plan: CheckPlan?
    /// Nanoseconds per call of one hook, over one unit.
    package var times: [String: [UInt64]]?
    /// A host call that failed: the hook, the unit and `last_error`.
    package var hostError: HostError?
    /// New warnings of the context (limits hit, unknown styles, missing images).
    package var warnings: [String]?
    /// A property a reused cell keeps from another row.
    package var difference: ReuseDifference?
    /// A height hook's answer outside the rows' range.
    package var badHeight: BadHeight?
    /// A subview outside the content view of a reused cell shown at another width.
    package var outside: Outside?
    /// Views that overlap, or a subview that is cut, only when the row reads right to left.
    package var rightToLeft: RightToLeft?

    /// What drawing a sample right to left did that left to right it does not: views whose frames
    /// overlap, subviews cut by the row or the content view.
    package struct RightToLeft: Codable, Sendable {
        /// The sample drawn.
        package var sample: Int
        /// Pairs of views, named ("subview tag 2", "the accessory"), each with its frame right to left.
        package var overlaps: [[String]]
        /// Subviews cut right to left, named, with the columns they had and have.
        package var clipped: [String]
    }

    /// A subview a reused cell shows outside its content view after a change of width.
    package struct Outside: Codable, Sendable {
        /// The subview's tag, its frame ("x 54, width 4") and the content view's width.
        package var tag: Int, frame: String, contentWidth: Int
        /// The row widths the cell was laid out at, then shown at.
        package var from: Int, to: Int
        /// The sample shown.
        package var sample: Int
    }
    /// The last unit ran.
    package var done: Bool?
    /// Why the type or the table cannot be checked (the worker then exits with status 2).
    package var failure: String?
    /// What a hook wrote to standard output (the table's stream, in a render).
    package var output: Output?
    /// Symbols of the plugin that look like this type's hooks but are not (`NearMiss`).
    package var nearMisses: [String]?
    /// Calls the sandbox refused during the step marked `hook` for `sample` (-1: while loading).
    package var refused: Refused?
    /// Seconds `--table` took to read (its rows of the type gathered), apart from any hook.
    package var tableSeconds: Double?
    /// The step marked last looked up tag 0 (`view_with_tag(cell, 0)`, which returns NULL): sent
    /// at once, so that a crash right after it is explained.
    package var tagZero: Bool?

    /// Bytes a hook wrote to standard output.
    package struct Output: Codable, Sendable {
        /// The hook (or routine step) that ran, as marked.
        package var hook: String
        /// The sample it ran for.
        package var sample: Int
        /// The first bytes written, as text.
        package var text: String
    }

    /// A host call that failed.
    package struct HostError: Codable, Sendable {
        /// The hook that made the call.
        package var hook: HookKind
        /// The sample it ran for.
        package var sample: Int
        /// What `last_error` said.
        package var message: String
    }

    /// A height hook's answer outside 1...`PluginLimits.maxRowHeight` (0 means none).
    package struct BadHeight: Codable, Sendable {
        /// The sample it ran for.
        package var sample: Int
        /// The answer, as printed.
        package var answer: String
    }

    /// An empty message, to set one field of.
    package init() {}

    /// What the sandbox refused a step: "start a process (clone)", once each.
    package struct Refused: Codable, Sendable {
        /// The step's hook name, as marked.
        package var hook: String
        /// The sample it ran for.
        package var sample: Int
        /// The acts refused.
        package var acts: [String]
    }
}

/// The worker's frames (`Frame`, kind `mark` before each hook or routine step, payload
/// "<unit> <hook> <sample>"; kind `message`, payload a `CheckMessage` as JSON) and the names of steps.
package enum CheckWire {
    /// The frame kind of a mark.
    package static let mark: UInt16 = 1
    /// The frame kind of a `CheckMessage`.
    package static let message: UInt16 = 2
    /// The descriptor a worker finds its frames' key at: a memory file named `keyName` holding
    /// the key in decimal, read and closed first thing (never an environment variable, which a
    /// plugin could read back from `/proc/self/environ`).
    package static let keyFD: Int32 = 4, keyName = "cellkit-check-key"
    /// Where a check's worker, started as a render's is (`--cellkit-render-worker`), finds its
    /// arguments: a memory file named `planName` holding them as a JSON array, read and closed.
    package static let planFD: Int32 = 6, planName = "cellkit-check-plan"

    /// The hook name of the step that loads the plugin (`cellkit_plugin_init`).
    package static let load = "load"
    /// The name of the step that reads `--table` (CellKit's own code, timed apart from the hooks).
    package static let table = "table"
    /// Seconds the table may take to read: it is CellKit's work, not a plugin's, so not the hook
    /// timeout (a long data file takes its time).
    package static let tableSeconds: Double = 600
    /// The hook name of a routine step that runs init (on a new cell) and customize.
    package static let dequeue = "dequeue"
    /// The hook name of a table row's step through the routine: init if no cell was free, customize.
    package static let routine = "routine"
}

/// A cell's properties as (path, value) pairs in a fixed order, to compare a reused cell with a fresh one.
package enum CellSnapshot {
    /// Every property hooks can set, with the row's height.
    package static func properties(of cell: Cell, height: Double?) -> [(String, String)] {
        var out: [(String, String)] = []
        func add(_ key: String, _ value: String) { out.append((key, value)) }
        func opt<T>(_ value: T?) -> String { value.map { "\($0)" } ?? "none" }
        add("style", "\(cell.style)")
        add("selectionStyle", "\(cell.selectionStyle)")
        add("accessoryType", "\(cell.accessoryType)")
        if let accessory = cell.accessoryView {
            view(accessory, "accessoryView", into: &out)
        } else {
            add("accessoryView", "none")
        }
        add("indentationLevel", "\(cell.indentationLevel)")
        add("indentationWidth", "\(cell.indentationWidth)")
        add("rowHeight", opt(cell.rowHeight))
        add("height", opt(height))
        add("background.color", opt(cell.background.color))
        add("background.image", opt(cell.background.imageName.map(quoted)))
        add("selectedBackground.color", opt(cell.selectedBackground.color))
        add("selectedBackground.image", opt(cell.selectedBackground.imageName.map(quoted)))
        view(cell.textLabel, "textLabel", into: &out)
        view(cell.detailTextLabel, "detailTextLabel", into: &out)
        view(cell.imageView, "imageView", into: &out)
        add("subviews", "\(cell.subviews.count)")
        for sub in cell.subviews { view(sub, "subview tag \(sub.tag)", into: &out) }
        return out
    }

    private static func view(_ v: View, _ name: String, into out: inout [(String, String)]) {
        func add(_ key: String, _ value: String) { out.append(("\(name).\(key)", value)) }
        func opt<T>(_ value: T?) -> String { value.map { "\($0)" } ?? "none" }
        add("kind", "\(v.kind)")
        add("frame", "\(v.frame.x),\(v.frame.y) \(v.frame.width)x\(v.frame.height)")
        add("isHidden", "\(v.isHidden)")
        add("backgroundColor", opt(v.backgroundColor))
        add("imageName", opt(v.imageName.map(quoted)))
        add("text", opt(v.text.map(quoted)))
        add("textColor", opt(v.textColor))
        add("highlightedTextColor", opt(v.highlightedTextColor))
        add("font", "\(v.fontSize) \(v.fontWeight)")
        add("alignment", "\(v.alignment)")
        add("lineBreakMode", "\(v.lineBreakMode)")
        add("numberOfLines", "\(v.numberOfLines)")
    }

    /// A text in quotes, visible and at most 40 characters.
    static func quoted(_ text: String) -> String {
        let visible = TextSanitizer.visible(text)
        return "\"" + (visible.count > 40 ? visible.prefix(39) + "…" : visible) + "\""
    }

    /// Where `reused` and `fresh` differ: (property, reused value, fresh value).
    package static func differences(_ reused: [(String, String)], _ fresh: [(String, String)]) -> [(
        String, String, String
    )] {
        let freshValues = Dictionary(fresh, uniquingKeysWith: { a, _ in a })
        let reusedValues = Dictionary(reused, uniquingKeysWith: { a, _ in a })
        var out: [(String, String, String)] = []
        for (key, value) in reused where freshValues[key] != value {
            out.append((key, value, freshValues[key] ?? "absent"))
        }
        for (key, value) in fresh where reusedValues[key] == nil { out.append((key, "absent", value)) }
        return out
    }
}
