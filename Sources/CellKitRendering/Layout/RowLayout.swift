// A configured cell laid out in character cells: UITableViewCell's anatomy.
// Image on the left, labels placed by style, accessory on the right, the
// content view between them shifted by indentation, custom subviews at their
// frames (relative to the content view, which starts at the cell's left edge).

import CellKitDocuments
import CellKitModel
import CellKitRuntime
import CellKitText

/// One view of a laid-out row, placed in the row's own coordinates.
public struct PlacedView: Sendable, Equatable, Encodable {
    /// Which part of the cell this is.
    public enum Role: String, Sendable, Encodable {
        /// The cell's image view, left of the labels.
        case imageView
        /// The cell's main label.
        case textLabel
        /// The cell's detail label (subtitle or value, by the cell's style).
        case detailTextLabel
        /// A view a hook added to the content view; `tag` is its tag.
        case subview
        /// The accessory on the right: a standard glyph or the cell's accessory view.
        case accessory
    }

    // Stored so that the struct is 115 bytes (a stride of 120, the style stamp included), under the
    // 128 that a copy is inlined at (a memcpy call above it: at 138 bytes, 40 of a wrapped row's 63
    // memcpy calls were its copies): the one-byte fields first, tag and number of lines in 4 bytes
    // (both come from a C int). The arguments the layout passes keep the memberwise initialiser's
    // order: it moves them in (an init of our own copied the view on every append).
    /// Which part of the cell this is.
    public var role: Role
    /// How `lines` sit in the frame's width; never `natural` (resolved to the style's alignment).
    public var alignment = TextAlignment.left
    /// Semibold or bold text.
    public var bold = false
    /// Smaller than the body text (under 14 points, or value2's label): smaller in HTML; the terminal
    /// formats draw it like other text.
    public var small = false
    /// How a label's text is wrapped or cut; see `numberOfLines`.
    package var lineBreakMode = LineBreakMode.truncateTail
    /// `numberOfLines`, stored in 4 bytes.
    var lineLimit: Int32 = 1
    /// `tag`, stored in 4 bytes.
    var tagValue: Int32 = 0
    /// The subview label this view's look was worked out from, and how: its `View.styleStamp`
    /// shifted left by 3, with the row's selection and reading direction in the low bits
    /// (`CellLayout.styleKey`); 0 when it was not, or has been changed since (`reset`). Not drawn,
    /// compared or encoded: a layout's note to itself.
    var styleStamp: UInt64 = 0
    /// Columns from the row's left edge, lines from its top; already clipped to the row.
    public var frame: Rect
    /// `lines` as ranges of the view's text, with the columns each takes, as the layout found them.
    package var laidOut = LaidOutText()
    /// The text's colour; nil = the format's default (the terminal's, black in HTML).
    public var textColor: Color?
    /// The colour the view's frame is filled with; nil = the row's background shows through.
    public var backgroundColor: Color?
    /// An image's asset name, or a label's whole text (`imageName`, `fullText`).
    var extra = Extra.none
    /// True when `imageName` is not in the asset catalog (drawn as a placeholder).
    public var missingImage = false
    /// True when a hook gave the view its frame (every subview; a standard part whose frame was set),
    /// false when the cell's style placed it.
    package var hasOwnFrame = false

    /// What a view holds beside its lines, in one field. A label's whole text is most often the text
    /// its lines index (`laidOut`): then it is not held twice, and dropping the view releases only
    /// its lines' text. (Held apart, the whole text and a nil image name cost three retains and
    /// six releases a row of three labels: BENCHMARKS.md, "Measurements behind the code":
    /// PlacedView.extra.)
    enum Extra: Sendable {
        /// Neither: a glyph, or a view with no text.
        case none
        /// A label whose whole text is `laidOut`'s.
        case laidOutText
        /// A label's whole text, when its lines index another (one with an ellipsis added).
        case text(TextBytes)
        /// An image's asset name.
        case image(String)
    }

    /// The asset name for images; nil for text. (Setting it on a label replaces the label's whole
    /// text; setting nil on a label leaves its text.)
    public var imageName: String? {
        get { if case .image(let name) = extra { name } else { nil } }
        set {
            if let newValue {
                extra = .image(newValue)
            } else if case .image = extra {
                extra = .none
            }
        }
    }

    /// A label's whole text as its view holds it (neither cut nor made visible), for a format that lays
    /// text out itself (HTML); nil for images and glyphs, whose `lines` are all there is.
    package var fullText: FullText {
        get {
            switch extra {
            case .laidOutText: FullText(laidOut.text)
            case .text(let text): FullText(text)
            case .none, .image: FullText()
            }
        }
        set {  // nil on an image leaves its name
            if let text = newValue.bytes {
                extra = ObjectIdentifier(text) == laidOut.textIdentity ? .laidOutText : .text(text)
            } else if case .image = extra {
                return
            } else {
                extra = .none
            }
        }
    }

    /// `fullText`'s bytes unretained, for a format that reads them while the row holds them: through
    /// the getter each read retained and released them (BENCHMARKS.md, "Measurements behind the
    /// code": HTMLFormat.unretained).
    package var unretainedFullText: Unmanaged<TextBytes>? {
        switch extra {
        case .laidOutText: Unmanaged.passUnretained(laidOut.text)
        case .text(let text): Unmanaged.passUnretained(text)
        case .none, .image: nil
        }
    }

    /// Sets `fullText` to `view`'s text, retaining it only when `laidOut` indexes another.
    @inline(__always)
    mutating func setFullText(of view: View) {
        if let identity = view.textIdentity {
            guard identity != laidOut.textIdentity else {
                // Tested first: storing over an `Extra` destroyed the old one by a call, a label a row
                // (BENCHMARKS.md, "Measurements behind the code": PlacedView.sameExtra).
                if case .laidOutText = extra { return }
                extra = .laidOutText
                return
            }
            extra = .text(view.textBytes.unsafelyUnwrapped)
        } else {
            extra = .none
        }
    }

    /// Makes this view, one of the row before's whose lines were rewritten in place
    /// (`LineMemo.nextSlot`), what the memberwise initialiser makes of these values and its
    /// `laidOut`: every other field its default.
    @inline(__always)
    mutating func reset(role: Role, tagValue: Int32 = 0, frame: Rect, hasOwnFrame: Bool) {
        (self.role, alignment, bold, small, lineBreakMode, lineLimit) = (role, .left, false, false, .truncateTail, 1)
        (self.tagValue, self.frame, textColor, backgroundColor) = (tagValue, frame, nil, nil)
        if case .none = extra {} else { extra = .none }
        (missingImage, self.hasOwnFrame, styleStamp) = (false, hasOwnFrame, 0)
    }

    /// The subview's tag; 0 for standard parts.
    public var tag: Int {
        get { Int(tagValue) }
        set { tagValue = Int32(clamping: newValue) }
    }
    /// A label's number of lines (0: as many as its frame holds) and line break mode, for the same.
    package var numberOfLines: Int {
        get { Int(lineLimit) }
        set { lineLimit = Int32(clamping: newValue) }
    }

    /// The text of each line (labels), or the glyph (images and accessories), made from `laidOut` when
    /// read: laying out a row copies no text.
    public var lines: [Substring] {
        get { laidOut.strings }
        set { laidOut = LaidOutText(lines: newValue) }
    }

    /// Whether the views are drawn alike: their fields, and their whole texts by their bytes.
    public static func == (a: PlacedView, b: PlacedView) -> Bool {
        (a.role, a.alignment, a.bold, a.small, a.lineBreakMode) == (
            b.role, b.alignment, b.bold, b.small, b.lineBreakMode
        )
            && (a.lineLimit, a.tagValue) == (b.lineLimit, b.tagValue)
            && (a.frame, a.textColor, a.backgroundColor, a.missingImage, a.hasOwnFrame)
                == (b.frame, b.textColor, b.backgroundColor, b.missingImage, b.hasOwnFrame)
            && a.laidOut == b.laidOut && a.imageName == b.imageName && a.fullText == b.fullText
    }

    private enum CodingKeys: String, CodingKey {
        case role, tag, frame, lines, alignment, textColor, backgroundColor, bold, small, imageName, missingImage
    }

    /// Encodes the view with its lines as strings (`Substring` is not `Encodable`).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(role, forKey: .role)
        try c.encode(tag, forKey: .tag)
        try c.encode(frame, forKey: .frame)
        try c.encode(lines.map(String.init), forKey: .lines)
        try c.encode(alignment, forKey: .alignment)
        try c.encodeIfPresent(textColor, forKey: .textColor)
        try c.encodeIfPresent(backgroundColor, forKey: .backgroundColor)
        try c.encode(bold, forKey: .bold)
        try c.encode(small, forKey: .small)
        try c.encodeIfPresent(imageName, forKey: .imageName)
        try c.encode(missingImage, forKey: .missingImage)
    }
}

/// A label's whole text, compared by its bytes (`PlacedView.fullText`).
package struct FullText: Equatable, Sendable {
    /// The text; nil for a view that has none.
    package var bytes: TextBytes?

    /// No text.
    package init() {}
    /// The text `bytes` (held, not copied).
    package init(_ bytes: TextBytes?) { self.bytes = bytes }

    /// Whether both hold the same bytes (or neither holds any).
    package static func == (a: FullText, b: FullText) -> Bool {
        switch (a.bytes, b.bytes) {
        case (nil, nil): true
        case (let x?, let y?): x === y || x.withBytes { p in y.withBytes { q in p.elementsEqual(q) } }
        default: false
        }
    }
}

/// A row ready to draw: its size, background and placed views in paint order.
public struct RowLayout: Sendable, Encodable {
    /// Where the row is in the table, section and row counted from 0.
    public var indexPath: IndexPath
    /// The identifier of the cell type that drew the row.
    public var identifier: String
    /// Columns: the cell's content width, without the format's borders and margins.
    public var width: Int
    /// Lines, at least 1.
    public var height: Int
    /// Where the row stands among all its section's rows (single, top, middle or bottom).
    public var position: RowPosition
    /// True when the row is drawn selected (never for a non-selectable row).
    public var isSelected: Bool
    /// The fill in effect: the selected background when selected.
    public var background: Fill
    /// The colour the background draws with (the fill's colour, else its image's colour).
    public var backgroundColor: Color?
    /// The cell's style, which placed its standard parts.
    package var cellStyle = CellStyle.default
    /// The standard accessory drawn; `.none` when there is none or the cell's accessory view replaces it.
    package var accessoryType = AccessoryType.none
    /// Columns from the row's left edge to where its separator starts: where its labels start (past the
    /// margin, the indentation and an image), as UIKit's separatorInset follows the text label's leading edge.
    package var separatorInset = 0
    /// Whether the row reads right to left (`CellLayout.mirror`): its separator is inset from the right.
    public var isRightToLeft = false
    /// Columns the content is indented by (`indentationLevel` × `indentationWidth`, at most half the
    /// row), for a format that places the content itself (HTML).
    package var indentation = 0
    /// True when the row's height was set (a height hook, the table's or section's `rowHeight`), false
    /// when it is as tall as its content: a format that lays text out itself keeps a set height and clips.
    package var fixedHeight = false
    /// The views in paint order: image, labels, subviews (in the order they were added), accessory.
    /// Later views are drawn over earlier ones.
    public var views: [PlacedView]
    /// The row's number counted from 0 across all sections of the table (not only the window).
    package var tableIndex = 0
    /// The cell's selection style (what selecting it draws), whether or not it is selected.
    package var selectionStyle = SelectionStyle.default
    /// Why the row is a placeholder: the fault of its plugin (or of the render); nil for a drawn row.
    package var fault: RowFault? {
        get { faultBox?.fault }
        set { faultBox = newValue.map(FaultBox.init) }
    }
    /// `fault`, held apart: a row is copied whole for its format once a row, and the fault (most
    /// rows have none) was 153 of its bytes; tested once a row by `recycleViews`, where testing the
    /// optional was a call (BENCHMARKS.md, "Measurements behind the code": RowLayout.hasFault).
    private(set) var faultBox: FaultBox?

    /// A fault, held by reference (immutable: a row set to another fault gets another box).
    final class FaultBox: Sendable {
        let fault: RowFault
        init(_ fault: RowFault) { self.fault = fault }
    }

    private enum CodingKeys: String, CodingKey {
        case indexPath, identifier, width, height, position, isSelected, background, backgroundColor, views
    }

    /// Readies the row for the next: forgets its fault (comparing it with nil copied it). Its views
    /// stay, for the next row's to be written over in place (`CellLayout.layout`): their line lists'
    /// memory is reused, and no view is dropped (a view dropped per row released its text and its
    /// line list, and a list made per label per row was 3 % of a wrapped row: BENCHMARKS.md,
    /// "Measurements behind the code": RowLayout.views, RowLayout.recycleViews). A label's next text
    /// goes into the buffer of the text before (`View.setText`), as the views hold the last until
    /// the next layout replaces it.
    @inline(__always)
    mutating func recycleViews() {
        if faultBox != nil { faultBox = nil }
    }
}

extension RowLayout {
    /// The views of `rtl` that overlap (pairs, named, with their columns) and the subviews it cuts,
    /// where the same views of `ltr`, the same row left to right, do not: what `cellkit check` fails
    /// right to left (`CheckWorker`). Views are matched by role and tag.
    package static func rightToLeftProblems(ltr: RowLayout, rtl: RowLayout) -> (overlaps: [[String]], clipped: [String])
    {
        func key(_ v: PlacedView) -> String { "\(v.role.rawValue) \(v.tag)" }
        func name(_ v: PlacedView) -> String {
            switch v.role {
            case .subview: "subview tag \(v.tag)"
            case .accessory: "the accessory"
            case .imageView: "the image view"
            case .textLabel: "the text label"
            case .detailTextLabel: "the detail text label"
            }
        }
        func overlap(_ a: Rect, _ b: Rect) -> Bool {
            a.width > 0 && a.height > 0 && b.width > 0 && b.height > 0 && a.x < b.x + b.width
                && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
        }
        let before = Dictionary(ltr.views.map { (key($0), $0.frame) }, uniquingKeysWith: { a, _ in a })
        var overlaps: [[String]] = [], clipped: [String] = []
        let views = rtl.views
        for a in views.indices {
            for b in views.indices where b > a && overlap(views[a].frame, views[b].frame) {
                guard
                    views[a].role == .subview || views[b].role == .subview || views[a].hasOwnFrame
                        || views[b].hasOwnFrame
                else { continue }  // the standard parts the layout places never overlap
                if let x = before[key(views[a])], let y = before[key(views[b])], overlap(x, y) { continue }
                let f = (views[a].frame, views[b].frame)
                overlaps.append([
                    "\(name(views[a])) (x \(f.0.x), width \(f.0.width))",
                    "\(name(views[b])) (x \(f.1.x), width \(f.1.width))",
                ])
            }
        }
        let after = Dictionary(views.map { (key($0), $0.frame) }, uniquingKeysWith: { a, _ in a })
        for v in ltr.views where v.role == .subview {
            let now = after[key(v)]
            guard (now?.width ?? 0) < v.frame.width || (now?.height ?? 0) < v.frame.height else { continue }
            clipped.append(
                "subview tag \(v.tag) (\(v.frame.width) columns left to right, "
                    + "\(now.map { "\($0.width) at x \($0.x)" } ?? "none") right to left)")
        }
        return (overlaps, clipped)
    }
}

/// Lays out configured cells for one table: UITableViewCell's anatomy in character cells, with the
/// table's asset catalog for images.
public struct CellLayout: Sendable {
    /// The images rows name; a name not in it draws a placeholder and a warning.
    var assets: AssetCatalog
    /// Columns of padding on each side of the content.
    var padding = Cell.margin

    /// A layout drawing images from `assets` (usually the document's `assets`).
    public init(assets: AssetCatalog) { self.assets = assets }

    /// Standard colours of UIKit's table cells.
    enum Palette {
        /// UIKit's dark counterparts (the terminal's dark theme, HTML's dark mode): the grey
        /// selection, the tint, the grouped background.
        static let darkSelectedGray = Color(red: 0x3A, green: 0x3A, blue: 0x3C)
        static let darkTint = Color(red: 0x0A, green: 0x84, blue: 0xFF)
        static let darkBackground = Color(red: 0x1C, green: 0x1C, blue: 0x1E)
        static let secondaryText = Color(red: 0x8E, green: 0x8E, blue: 0x93)
        static let tint = Color(red: 0x00, green: 0x7A, blue: 0xFF)
        static let selectedGray = Color(red: 0xD1, green: 0xD1, blue: 0xD6)
        /// Text and glyphs on the blue selection.
        static let onTint = Color(red: 0xFF, green: 0xFF, blue: 0xFF)
        static let accessory = Color(red: 0xC7, green: 0xC7, blue: 0xCC)
        /// A placeholder row's text: UIKit's red of increased contrast (5.4:1 on white; #FF3B30 was
        /// 3.5:1 in HTML's light mode). Dark mode and `ansi` move it until it reads on theirs.
        static let fault = Color(red: 0xD7, green: 0x00, blue: 0x15)
    }

    // MARK: Heights

    /// The lines `cell` needs at `width` when nothing sets its height: its labels
    /// wrapped as their number of lines allows, and the bottom of its lowest subview;
    /// at most `PluginLimits.maxRowHeight` (with a warning when cut).
    func naturalHeight(of cell: Cell, width: Int) -> Int {
        var memo = LineMemo()
        var ends = RowEnds()
        return naturalHeight(of: cell, area: labelArea(cell, width: width, ends: &ends), memo: &memo)
    }

    private func naturalHeight(of cell: Cell, area: LabelArea, memo: inout LineMemo) -> Int {
        var labels = 0
        // Views and texts go to the measuring functions unretained (`Unmanaged`): the cell holds its
        // views and they their texts, and a class reference passed to a function was retained and
        // released around each call (BENCHMARKS.md, "Measurements behind the code": RowLayout.unretained).
        // value1's labels are measured at the widths they are laid out at (a wrapping detail was
        // measured at the whole width and then cut).
        let widths =
            area.value1 ?? (text: area.width, detail: area.width)
        // A label with no text (a cell of subviews) is passed over with no call (`showsText`).
        let textLabel = Unmanaged.passUnretained(cell.textLabel),
            detailLabel = Unmanaged.passUnretained(cell.detailTextLabel)
        let text = Self.showsText(textLabel) ? lineCount(textLabel, width: widths.text, memo: &memo) : 0
        let detail = Self.showsText(detailLabel) ? lineCount(detailLabel, width: widths.detail, memo: &memo) : 0
        switch cell.style {
        case .subtitle: labels = text + detail
        case .default: labels = text
        case .value1, .value2: labels = max(text, detail)
        }
        var subviews = 0
        let views = cell.unretainedSubviews  // nothing retained (a lazy chain retained each view)
        for k in views.indices {
            let view = Unmanaged.passUnretained(views[k])
            let (hidden, y) = view._withUnsafeGuaranteedRef { ($0.isHidden, $0.frame.y) }
            if hidden { continue }
            subviews = max(subviews, y + grownHeight(view, memo: &memo))
        }
        let lines = max(1, labels, subviews)
        guard lines <= PluginLimits.maxRowHeight else { return Self.tooTall(cell, lines) }
        return lines
    }

    /// A subview's height in a row as tall as its content: a label of any number of lines
    /// (`numberOfLines` 0) grows to its text at its frame's width, as a self-sizing UIKit cell's
    /// label does; any other view keeps its frame's.
    @inline(__always)
    private func grownHeight(_ view: Unmanaged<View>, memo: inout LineMemo) -> Int {
        view._withUnsafeGuaranteedRef { view in
            let f = view.frame
            guard view.kind == .label, view.numberOfLines == 0, f.width > 0, let text = view.unretainedTextBytes
            else { return f.height }
            // Grown no further than the row may be (cut there quietly: long data is no plugin's fault).
            let room = max(f.height, PluginLimits.maxRowHeight - max(0, f.y))
            return max(f.height, memo.grownLineCount(of: view, text, width: f.width, maxLines: room))
        }
    }

    /// A row whose content is taller than a row may be: cut, and reported once per cell type.
    @inline(never)
    private static func tooTall(_ cell: Cell, _ lines: Int) -> Int {
        cell.warnContentHeight(lines)
        return PluginLimits.maxRowHeight
    }

    /// `r` cut to the row's `width` columns and `height` lines; empty (size 0) if it lies outside.
    static func clip(_ r: Rect, width: Int, height: Int) -> Rect {
        let x0 = min(max(0, r.x), width), y0 = min(max(0, r.y), height)
        let x1 = max(x0, min(width, r.x + r.width)), y1 = max(y0, min(height, r.y + r.height))
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    private func lineCount(_ label: Unmanaged<View>, width: Int, memo: inout LineMemo) -> Int {
        label._withUnsafeGuaranteedRef { label in
            guard !label.isHidden, label.frame == .zero, let text = label.unretainedTextBytes else { return 0 }
            let maxLines = label.numberOfLines == 0 ? 100 : label.numberOfLines
            return memo.lineCount(of: label, text, width: width, maxLines: maxLines)
        }
    }

    /// A label's lines from measuring its height, kept for placing it: breaking
    /// the same text twice per row was a noticeable part of the layout's time (BENCHMARKS.md,
    /// "Measurements behind the code": RowLayout.LineMemo). Kept by the renderer beside the row it
    /// lays out, on the renderer's thread (not Sendable: its `record` is set while a layout runs).
    package struct LineMemo {
        /// What a slot's lines were worked out for. Trivial, so that asking whether a slot holds a
        /// label's lines retains nothing (copying an entry with its lines retained their text and
        /// list: BENCHMARKS.md, "Measurements behind the code": RowLayout.LineMemo.keys).
        private struct Key {
            let label: ObjectIdentifier, width: Int, maxLines: Int, count: Int

            /// Whether the lines are what breaking the label again at `width` into at most
            /// `maxLines` lines gives: text that fitted in fewer lines than allowed breaks the same
            /// way under any bound that still holds it.
            func holds(_ id: ObjectIdentifier, _ width: Int, _ maxLines: Int) -> Bool {
                guard label == id, self.width == width else { return false }
                return self.maxLines == maxLines || (count < self.maxLines && count <= maxLines)
            }
        }
        /// Lines worked out for a label, kept for placing it. Its list is kept from row to row; the
        /// text is the label's, but for a text the layout made (one with an ellipsis): `made`.
        private struct Kept {
            var key: Key?
            var lines: [TextLine] = []
            var made: TextBytes?
        }
        /// The standard labels' lines from the row's height, and two growing subviews' (a third
        /// growing label in one row is broken again when placed); each handed over once.
        private var text = Kept(), detail = Kept(), grown = Kept(), grown2 = Kept()
        /// A text `lay` made for a view (an ellipsis added), until it is the view's.
        private var made: TextBytes?
        /// How many of the row's views the layout has placed: the first of `RowLayout.views`; the rest
        /// are the row before's, to be written over (`nextSlot`).
        private(set) var placed = 0
        /// The row's data when it is a JSON Lines record, read once a row (lines worked out ahead).
        var record: JSONRecord.Unretained?
        /// The row's image and accessory, from its label area until they are placed (each taken
        /// then): kept here from row to row, as a local made and destroyed per row was an outlined
        /// call (BENCHMARKS.md, "Measurements behind the code": RowLayout.endsKept).
        fileprivate var ends = RowEnds()

        /// An empty memo.
        package init() {}

        /// Readies the memo for a row whose data is `record`: no lines kept from the row before, and
        /// no view placed.
        @inline(__always)  // once a row (as `nextSlot`: LaidOutText.keepFirst in BENCHMARKS.md)
        mutating func start(record: JSONRecord.Unretained?) {
            Self.forget(&text)
            Self.forget(&detail)
            Self.forget(&grown)
            Self.forget(&grown2)
            (placed, self.record) = (0, record)
        }

        /// Ends a row: forgets its record.
        mutating func finish() { record = nil }

        private static func forget(_ kept: inout Kept) {
            kept.key = nil
            if kept.made != nil { kept.made = nil }  // tested first: storing nil over nil released it
        }

        /// The place in `views` to write the row's next view at: a view of the row before, to be
        /// written over in place (its line list's memory reused), or a new one. Inlined, as
        /// `LaidOutText.keepFirst` is (BENCHMARKS.md, "Measurements behind the code":
        /// LaidOutText.keepFirst).
        @inline(__always)
        mutating func nextSlot(in views: inout [PlacedView]) -> Int {
            if placed == views.count { views.append(PlacedView(role: .subview, frame: .zero)) }
            placed += 1
            return placed - 1
        }

        /// A standard label's `text` broken into at most `maxLines` lines of `width` columns, into
        /// `laidOut`'s place: the lines `lineCount` kept for it, handed over, or broken now.
        mutating func lay(
            _ label: View, _ text: TextBytes, width: Int, maxLines: Int, into laidOut: inout LaidOutText
        ) {
            let id = ObjectIdentifier(label)
            if self.text.key?.holds(id, width, maxLines) == true {
                return Self.handOver(&self.text, text, to: &laidOut)
            }
            if detail.key?.holds(id, width, maxLines) == true { return Self.handOver(&detail, text, to: &laidOut) }
            layNow(label, text, width: width, maxLines: maxLines, into: &laidOut)
        }

        /// A subview's lines, into `laidOut`'s place: a growing label's as `grownLineCount` worked them
        /// out, else broken now; none when it has no text. The text is lent (the view holds it),
        /// retained only into the lines.
        mutating func laySubview(_ view: View, width: Int, maxLines: Int, into laidOut: inout LaidOutText) {
            guard let text = view.unretainedTextBytes else {
                laidOut = LaidOutText()  // no text, or an empty one
                return
            }
            text._withUnsafeGuaranteedRef { text in
                let id = ObjectIdentifier(view)
                if grown.key?.holds(id, width, maxLines) == true { return Self.handOver(&grown, text, to: &laidOut) }
                if grown2.key?.holds(id, width, maxLines) == true { return Self.handOver(&grown2, text, to: &laidOut) }
                layNow(view, text, width: width, maxLines: maxLines, into: &laidOut)
            }
        }

        /// How many lines a standard label's `text` takes; its lines are kept for `lay`.
        mutating func lineCount(of label: View, _ text: Unmanaged<TextBytes>, width: Int, maxLines: Int) -> Int {
            let id = ObjectIdentifier(label)
            if let key = self.text.key, key.holds(id, width, maxLines) { return key.count }
            if let key = detail.key, key.holds(id, width, maxLines) { return key.count }
            if self.text.key == nil || self.text.key?.label == id {
                return Self.keep(label, text, width: width, maxLines: maxLines, record: record, in: &self.text)
            }
            return Self.keep(label, text, width: width, maxLines: maxLines, record: record, in: &detail)
        }

        /// How many lines a growing subview's `text` takes, at most `maxLines` of `width` columns: its
        /// lines are worked out once a row, here, and kept until `laySubview` hands them to the placement.
        @inline(__always)
        mutating func grownLineCount(of view: View, _ text: Unmanaged<TextBytes>, width: Int, maxLines: Int) -> Int {
            let id = ObjectIdentifier(view)
            if let key = grown.key, key.holds(id, width, maxLines) { return key.count }
            if let key = grown2.key, key.holds(id, width, maxLines) { return key.count }
            if grown.key == nil || grown.key?.label == id {
                return Self.keep(view, text, width: width, maxLines: maxLines, record: record, in: &grown)
            }
            return Self.keep(view, text, width: width, maxLines: maxLines, record: record, in: &grown2)
        }

        /// `text` broken for `view` into `kept`; how many lines. Static: a method passed the memo whole
        /// beside its own slot, and the memo was copied for it (its lists then copied when written).
        private static func keep(
            _ view: View, _ text: Unmanaged<TextBytes>, width: Int, maxLines: Int, record: JSONRecord.Unretained?,
            in kept: inout Kept
        ) -> Int {
            forget(&kept)
            text._withUnsafeGuaranteedRef {
                CellLayout.breakLines(
                    $0, width: width, maxLines: maxLines, mode: view.lineBreakMode, record: record,
                    into: &kept.lines, made: &kept.made)
            }
            kept.key = Key(label: ObjectIdentifier(view), width: width, maxLines: maxLines, count: kept.lines.count)
            return kept.lines.count
        }

        /// The lines `kept` holds, for the label whose text is `text`, swapped into `laidOut`'s place;
        /// the memo keeps the list they replace, old lines and all: its key is gone, and `keep`
        /// replaces them before it reads the list again.
        private static func handOver(_ kept: inout Kept, _ text: TextBytes, to laidOut: inout LaidOutText) {
            kept.key = nil
            if let made = kept.made {
                laidOut.relaid(made) { swap(&$0, &kept.lines) }
                kept.made = nil
            } else {
                laidOut.relaid(text) { swap(&$0, &kept.lines) }
            }
        }

        /// `text` broken for `view` now, into `laidOut`'s place.
        private mutating func layNow(
            _ view: View, _ text: TextBytes, width: Int, maxLines: Int, into laidOut: inout LaidOutText
        ) {
            let record = record
            laidOut.relaid(text) { lines in
                CellLayout.breakLines(
                    text, width: width, maxLines: maxLines, mode: view.lineBreakMode, record: record, into: &lines,
                    made: &made)
            }
            if made != nil { laidOut.retext(made.take()!) }  // its lines index a text made for them
        }
    }

    // MARK: Layout

    /// `cell` laid out at `width` columns and `height` lines; nil = its natural height.
    package func layout(_ cell: Cell, width: Int, height: Int?) -> RowLayout {
        var row = RowLayout(
            indexPath: cell.indexPath, identifier: "", width: 0, height: 0, position: .single, isSelected: false,
            background: Fill(), backgroundColor: nil, views: [])
        layout(cell, width: width, height: height, into: &row)
        return row
    }

    /// `layout(_:width:height:)` into `row`, reusing the memory of its views (with a memo of its
    /// own, made for the call).
    package func layout(_ cell: Cell, width: Int, height: Int?, into row: inout RowLayout) {
        var memo = LineMemo()
        layout(cell, width: width, height: height, into: &row, memo: &memo)
    }

    /// `layout(_:width:height:)` into `row`, reusing the memory of its views, with `memo`, the
    /// layout's memo of lines, kept beside it from row to row with its line lists: a renderer keeps
    /// one `RowLayout` and one memo for all its rows rather than allocating lists per row (a memo
    /// made for a row released its lists when the row was done: BENCHMARKS.md, "Measurements
    /// behind the code": RowLayout.memo). Beside the row, not in it: the row is copied whole for its
    /// format once a row, and the memo was more than half of it (BENCHMARKS.md, "Measurements
    /// behind the code": RowLayout.memoApart).
    package func layout(_ cell: Cell, width: Int, height: Int?, into row: inout RowLayout, memo: inout LineMemo) {
        let selected = cell.isSelected && cell.selectionStyle != .none
        row.recycleViews()
        (memo.ends.hasImage, memo.ends.hasAccessory) = (false, false)  // the row before's were taken
        let area = labelArea(cell, width: width, ends: &memo.ends)  // once: the natural height needs it too
        row.fixedHeight = height != nil
        row.indentation = Self.indentation(cell, width: width)
        memo.start(record: cell.unretainedRecord)  // the cell holds it for the whole layout
        defer { memo.finish() }
        let selfSizing = height == nil
        let height =
            height.map { min(max($0, 1), PluginLimits.maxRowHeight) }
            ?? naturalHeight(of: cell, area: area, memo: &memo)
        if memo.ends.hasImage, var image = memo.ends.image.take() {
            // centred, as UIKit centres the image; a frame a hook gave it is clipped to the row
            if cell.imageView.frame == .zero {
                image.frame.y = (height - 1) / 2
            } else {
                image.frame = Self.clip(image.frame, width: width, height: height)
                image.hasOwnFrame = true
            }
            let i = memo.nextSlot(in: &row.views)
            row.views[i] = image
        }
        placeLabels(cell, in: area, height: height, selected: selected, memo: &memo, into: &row.views)
        // Right to left the content view starts past the accessory, on the left (`mirror`).
        let rightToLeft = cell.isRightToLeft
        let content = ContentView(
            origin: rightToLeft ? max(0, width - area.accessoryX) : 0, width: area.accessoryX,
            rightToLeft: rightToLeft)
        let views = cell.unretainedSubviews  // the cell holds its views: nothing retained
        for k in views.indices {
            // Lent, not retained, for the call (see `naturalHeight`).
            Unmanaged.passUnretained(views[k])._withUnsafeGuaranteedRef { view in
                if view.isHidden { return }
                placeSubview(
                    view, in: content, height: height, grows: selfSizing, selected: selected,
                    memo: &memo, into: &row.views)
            }
        }
        let hasAccessory = memo.ends.hasAccessory
        if hasAccessory, var accessory = memo.ends.accessory.take() {
            // On the blue selection a standard accessory turns white, as UIKit highlights it (tint on tint
            // was invisible); on the grey one it keeps its colour.
            if selected, cell.selectionStyle == .blue, cell.accessoryView == nil {
                accessory.textColor = Palette.onTint
            }
            accessory.frame.y = max(0, (height - accessory.frame.height) / 2)
            accessory.frame.height = min(accessory.frame.height, height)
            let i = memo.nextSlot(in: &row.views)
            row.views[i] = accessory
        }
        while row.views.count > memo.placed { row.views.removeLast() }  // the row before had more
        row.indexPath = cell.indexPath
        row.selectionStyle = cell.selectionStyle
        // Set only when it changes: storing the same string retained it and released the old one.
        if row.identifier != cell.reuseIdentifier.name { row.identifier = cell.reuseIdentifier.name }
        (row.width, row.height, row.position, row.isSelected) = (width, height, cell.position, selected)
        row.cellStyle = cell.style
        row.separatorInset = min(area.x, width)
        row.isRightToLeft = false  // `mirror` sets it
        row.accessoryType =
            !hasAccessory || cell.accessoryView.map({ !$0.isHidden }) == true ? .none : cell.accessoryType
        if selected {
            let fill = selectedFill(cell)
            if row.background != fill { row.background = fill }
        } else {
            cell.background(into: &row.background)
        }
        row.backgroundColor =
            row.background.color ?? row.background.imageName.flatMap { assets.image(named: $0)?.color }
        if rightToLeft { mirror(&row, cell, contentOrigin: content.origin) }
    }

    /// Where subviews go in the row: the content view's first column and width, and whether the row
    /// reads right to left (then a subview with an autoresizing mask is placed by its leading edge).
    private struct ContentView {
        var origin: Int, width: Int, rightToLeft: Bool
    }

    /// Mirrors a laid-out row for right to left, as UIKit mirrors a cell's standard parts: the
    /// image, the labels (value1's detail to the left, text aligned to the right) and the
    /// accessory change sides, indentation counts from the right and the chevron points left.
    /// The content view starts past the accessory (`contentOrigin`): a standard part a hook gave a
    /// frame keeps it in the content view's coordinates, as frames set by hand do in UIKit.
    /// Subviews were placed right to left already (`placeSubview`). `layout` calls it for a cell
    /// whose row reads right to left (`Cell.isRightToLeft`).
    func mirror(_ row: inout RowLayout, _ cell: Cell, contentOrigin: Int) {
        row.isRightToLeft = true
        let width = row.width
        for k in row.views.indices where row.views[k].hasOwnFrame && row.views[k].role != .subview {
            let f = row.views[k].frame
            row.views[k].frame = Self.clip(
                Rect(x: f.x + contentOrigin, y: f.y, width: f.width, height: f.height),
                width: width, height: row.height)
        }
        for k in row.views.indices where !row.views[k].hasOwnFrame {
            let f = row.views[k].frame
            row.views[k].frame.x = max(0, width - f.x - f.width)
            switch row.views[k].alignment {
            case .left, .natural: row.views[k].alignment = .right
            case .right: row.views[k].alignment = .left
            case .center: break
            }
            if row.views[k].role == .accessory, cell.accessoryView == nil,
                let glyph = Self.mirroredGlyph(cell.accessoryType)
            {
                row.views[k].laidOut = glyph
            }
        }
    }

    /// The standard accessory's glyph as it reads right to left: the chevron points left.
    static func mirroredGlyph(_ type: AccessoryType) -> LaidOutText? {
        switch type {
        case .disclosureIndicator: Glyphs.disclosureRTL
        case .detailDisclosureButton: Glyphs.detailDisclosureRTL
        case .none, .checkmark, .detailButton: nil
        }
    }

    private func selectedFill(_ cell: Cell) -> Fill {
        if cell.selectedBackground.color != nil || cell.selectedBackground.imageName != nil {
            return cell.selectedBackground
        }
        return Fill(color: cell.selectionStyle == .blue ? Palette.tint : Palette.selectedGray)
    }

    /// Where the labels go: right of the image, left of the accessory.
    private struct LabelArea {
        var x: Int, width: Int, accessoryX: Int
        /// value1's label widths, worked out once for measuring and placing (`value1Widths`).
        var value1: (text: Int, detail: Int)?
    }

    /// The row's image view and accessory as `labelArea` places them, in the layout's own frame:
    /// returned inside the area, two optional views were written out field by field and copied on
    /// every row, most rows having neither (BENCHMARKS.md, "Measurements behind the code":
    /// RowLayout.RowEnds).
    fileprivate struct RowEnds {
        var image: PlacedView?, accessory: PlacedView?
        /// Whether `image` and `accessory` are set, tested first: testing either for nil copied it.
        var hasImage = false, hasAccessory = false
    }

    /// The columns `cell`'s content is indented by in a row `width` columns wide: at most half the row.
    static func indentation(_ cell: Cell, width: Int) -> Int {
        min(cell.indentationLevel * cell.indentationWidth, width / 2)
    }

    private func labelArea(_ cell: Cell, width: Int, ends: inout RowEnds) -> LabelArea {
        let indent = Self.indentation(cell, width: width)
        var x = padding + indent
        if !cell.imageView.isHidden, let name = cell.imageView.imageName {
            var placed = imageView(name, role: .imageView, warn: cell.context)
            let w = max(1, placed.laidOut.columns(0))
            placed.frame = cell.imageView.frame == .zero ? Rect(x: x, y: 0, width: w, height: 1) : cell.imageView.frame
            x += w + 1
            (ends.image, ends.hasImage) = (placed, true)
        }
        var right = width - padding
        if let view = cell.accessoryView, !view.isHidden {
            let w = min(view.frame.width, width / 3)
            right -= w
            var placed: PlacedView
            if let name = view.imageName {
                placed = imageView(name, role: .accessory, warn: cell.context)
            } else {
                placed = PlacedView(
                    role: .accessory, frame: .zero,
                    laidOut: view.textBytes.map {
                        TextLayout.tableLines($0, width: w, maxLines: 1, mode: .clip, keepNewlines: false)
                    } ?? LaidOutText())
                placed.setFullText(of: view)
            }
            placed.frame = Rect(x: right, y: 0, width: w, height: max(1, view.frame.height))
            placed.textColor = view.textColor
            placed.backgroundColor = view.backgroundColor
            (ends.accessory, ends.hasAccessory) = (placed, true)
            right -= 1
        } else if let glyph = Self.accessoryGlyph(cell.accessoryType) {
            let w = cell.accessoryType.columns
            right -= w
            let color = cell.accessoryType == .disclosureIndicator ? Palette.accessory : Palette.tint
            ends.accessory = PlacedView(
                role: .accessory, frame: Rect(x: right, y: 0, width: w, height: 1), laidOut: glyph, textColor: color)
            ends.hasAccessory = true
            right -= 1
        }
        // Where subviews are cut: what hooks were told the content view's width is.
        let clip = cell.subviewWidth(inRowWidth: width)  // right + 1 with an accessory, else right
        let width = max(0, right - x)
        return LabelArea(
            x: x, width: width, accessoryX: clip,
            value1: cell.style == .value1 ? Self.value1Widths(cell, width: width) : nil)
    }

    /// The glyph of a standard accessory, laid out once: a switch, as a dictionary hashed the
    /// type on every row.
    static func accessoryGlyph(_ type: AccessoryType) -> LaidOutText? {
        switch type {
        case .none: nil
        case .disclosureIndicator: Glyphs.disclosure
        case .checkmark: Glyphs.checkmark
        case .detailButton: Glyphs.detail
        case .detailDisclosureButton: Glyphs.detailDisclosure
        }
    }

    private enum Glyphs {
        static let disclosure = LaidOutText(lines: ["›"]), checkmark = LaidOutText(lines: ["✓"])
        static let detail = LaidOutText(lines: ["ⓘ"]), detailDisclosure = LaidOutText(lines: ["ⓘ›"])
        static let disclosureRTL = LaidOutText(lines: ["‹"]), detailDisclosureRTL = LaidOutText(lines: ["‹ⓘ"])
    }

    private func imageView(_ name: String, role: PlacedView.Role, warn context: CellContext?) -> PlacedView {
        let asset = assets.image(named: name)
        if asset == nil {
            let catalog =
                assets.source.map { "the asset catalog \($0)" }
                ?? "the asset catalog (the table names none: add 'assets:')"
            // A name is data: a long one is cut in the message (the first 60 characters say which).
            let shown = name.count > 60 ? String(name.prefix(60)) + "…" : name
            context?.warn(
                "image '\(TextSanitizer.visible(shown))' is not in \(catalog); drawn as \(AssetCatalog.placeholder.glyph)"
            )
        }
        return PlacedView(
            role: role, frame: .zero,
            laidOut: LaidOutText(lines: [Substring((asset ?? AssetCatalog.placeholder).glyph)]),
            extra: .image(name), missingImage: asset == nil)
    }

    // MARK: Labels by style

    private func placeLabels(
        _ cell: Cell, in area: LabelArea, height: Int, selected: Bool, memo: inout LineMemo,
        into views: inout [PlacedView]
    ) {
        // held by the cell (see naturalHeight)
        unowned(unsafe) let text = cell.textLabel!, detail = cell.detailTextLabel!
        // Neither shows text (a cell of subviews): nothing to place, as `placeLabel` would find.
        guard
            Self.showsText(.passUnretained(text)) || (cell.style != .default && Self.showsText(.passUnretained(detail)))
        else { return }
        var textDefaults = Defaults(), detailDefaults = Defaults(color: Palette.secondaryText)
        var textFrame = Rect(x: area.x, y: 0, width: area.width, height: height)
        var detailFrame = textFrame
        switch cell.style {
        case .default:
            detailFrame.width = 0
        case .subtitle:
            let lines = lineCount(.passUnretained(text), width: area.width, memo: &memo)
            let detailLines = lineCount(.passUnretained(detail), width: area.width, memo: &memo)
            let top = max(0, (height - lines - detailLines) / 2)
            textFrame = Rect(x: area.x, y: top, width: area.width, height: min(lines, height - top))
            detailFrame = Rect(x: area.x, y: top + lines, width: area.width, height: max(0, height - top - lines))
        case .value1:
            let (t, w) = area.value1 ?? Self.value1Widths(cell, width: area.width)
            detailFrame = Rect(x: area.x + area.width - w, y: 0, width: w, height: height)
            textFrame.width = t
            detailDefaults.alignment = .right
        case .value2:
            let w = min(10, area.width / 3)
            textFrame.width = w
            detailFrame = Rect(x: area.x + w + 1, y: 0, width: max(0, area.width - w - 1), height: height)
            textDefaults = Defaults(color: Palette.tint, alignment: .right, small: true)
            detailDefaults = Defaults()
        }
        let centred = cell.style != .subtitle
        Unmanaged.passUnretained(text)._withUnsafeGuaranteedRef { text in  // lent, not retained (see `naturalHeight`)
            placeLabel(
                text, role: .textLabel, frame: textFrame, rowHeight: height, defaults: textDefaults, centred: centred,
                selected: selected, memo: &memo, into: &views)
        }
        if cell.style != .default {
            Unmanaged.passUnretained(detail)._withUnsafeGuaranteedRef { detail in
                placeLabel(
                    detail, role: .detailTextLabel, frame: detailFrame, rowHeight: height, defaults: detailDefaults,
                    centred: centred, selected: selected, memo: &memo, into: &views)
            }
        }
    }

    /// value1's label widths in an area `width` columns wide, as UIKit shares the row: the text label
    /// its own width and the detail all the room left (it used to be capped at half the row); when
    /// both are too wide, the detail at least half the row but no more than it needs.
    static func value1Widths(_ cell: Cell, width: Int) -> (text: Int, detail: Int) {
        func wanted(_ label: View) -> Int {
            guard !label.isHidden, let text = label.textBytes else { return 0 }
            return TextLayout.tableColumns(text)
        }
        let detail = cell.detailTextLabel.frame == .zero ? wanted(cell.detailTextLabel) : 0
        guard detail > 0 else { return (width, 0) }
        let text = wanted(cell.textLabel), given = min(detail, max(width - text - 1, width / 2))
        return (max(0, width - given - 1), given)
    }

    /// Whether a standard label has text to show: not hidden, and a text that is not empty (what
    /// `placeLabel` asks first). Asked before any call, a cell of subviews costs no frames worked out
    /// for labels that show nothing (BENCHMARKS.md, "Measurements behind the code": CellLayout.emptyLabels).
    @inline(__always)
    private static func showsText(_ label: Unmanaged<View>) -> Bool {
        label._withUnsafeGuaranteedRef { !$0.isHidden && $0.unretainedTextBytes != nil }
    }

    /// What a style gives a label that the plugin did not set.
    private struct Defaults {
        var color: Color?
        var alignment = TextAlignment.left
        var small = false
    }

    /// A standard label in its style's frame (or the frame its hooks gave it), centred vertically,
    /// appended to `views` if any of it shows. (Views are styled where they lie in `views`: a view
    /// returned and appended was copied, its four references retained and released.)
    private func placeLabel(
        _ label: View, role: PlacedView.Role, frame styled: Rect, rowHeight: Int, defaults: Defaults, centred: Bool,
        selected: Bool, memo: inout LineMemo, into views: inout [PlacedView]
    ) {
        guard Self.showsText(.passUnretained(label)) else { return }
        unowned(unsafe) let text = label.textBytes.unsafelyUnwrapped  // the label holds it: no retain per row
        let frame = label.frame == .zero ? styled : label.frame
        guard frame.width > 0, frame.height > 0 else { return }
        var maxLines = label.numberOfLines == 0 ? frame.height : min(label.numberOfLines, frame.height)
        // A frame a hook gave may reach below the row: lay out at most one line past its
        // bottom (where a truncation's ellipsis would go, unseen), and show what fits.
        let room = rowHeight - frame.y
        guard room > 0 else { return }
        maxLines = min(maxLines, room + 1)
        // Written over a view of the row before, in place (`RowLayout.recycleViews`, `LineMemo.nextSlot`).
        let i = memo.nextSlot(in: &views)
        memo.lay(label, text, width: frame.width, maxLines: maxLines, into: &views[i].laidOut)
        views[i].laidOut.keepFirst(room)  // only a hook's frame reaching below the row has more lines than room
        let height = views[i].laidOut.count
        let top = centred && label.frame == .zero ? frame.y + max(0, (frame.height - height) / 2) : frame.y
        views[i].reset(
            role: role, frame: Rect(x: frame.x, y: top, width: frame.width, height: height),
            hasOwnFrame: label.frame != .zero)
        style(&views[i], from: label, defaults: defaults, selected: selected)
    }

    /// What a subview label's `PlacedView.styleStamp` is when `style` worked its look out from
    /// `view` as it is now, in a row selected or not and reading either way: all that look depends
    /// on beside the view's own properties (a subview's defaults are its reading direction's; the
    /// cell's selection style counts only when selected, and then only whether it is blue).
    @inline(__always)
    private static func styleKey(_ view: View, selected: Bool, rightToLeft: Bool) -> UInt64 {
        let state = selected ? (view.cellSelectionStyle == .blue ? 3 : 1) : 0
        return view.styleStamp << 3 | UInt64(state) | (rightToLeft ? 4 : 0)
    }

    private func style(_ placed: inout PlacedView, from view: View, defaults: Defaults, selected: Bool) {
        placed.alignment = view.alignment == .natural ? defaults.alignment : view.alignment
        // Selected, a label takes its highlighted colour; failing that, white on the blue selection
        // only: on UIKit's grey one (iOS 7 on) the text keeps its colour.
        let white = selected && view.cellSelectionStyle == .blue ? Palette.onTint : nil
        placed.textColor =
            selected
            ? (view.highlightedTextColor ?? white ?? view.textColor ?? defaults.color)
            : (view.textColor ?? defaults.color)
        placed.backgroundColor = view.backgroundColor
        placed.bold = view.fontWeight == .semibold || view.fontWeight == .bold
        placed.small = defaults.small || view.fontSize < 14
        placed.setFullText(of: view)
        (placed.numberOfLines, placed.lineBreakMode) = (view.numberOfLines, view.lineBreakMode)
    }

    // MARK: Text

    /// A label's `text` broken into `lines`, replacing what it held (its memory is reused). When the text is
    /// byte for byte one of the text members of the row's `record` and a data file's reader worked
    /// its lines out ahead (`LinePlan`), those lines: breaking it here gives the same. Otherwise
    /// broken here, and asked for the rows to come when it is a member's text. When the lines index
    /// a text the layout made (one with an ellipsis added) rather than `text`, that text goes in
    /// `made`, which must be nil (left as it is otherwise: no Optional made and dropped per label).
    static func breakLines(
        _ text: TextBytes, width: Int, maxLines: Int, mode: LineBreakMode, record: JSONRecord.Unretained?,
        into lines: inout [TextLine], made: inout TextBytes?
    ) {
        // A short text of printable ASCII is one line as it is, as `TextLayout.lineRanges` breaks it
        // (and a reader's plan holds): found by looking at its few bytes, not up in the plan with a
        // comparison of them (BENCHMARKS.md, "Measurements behind the code": CellLayout.shortASCII).
        let n = text.byteCount
        if n > 0, n <= width, maxLines > 0, text.withBytes({ UTF8Bytes.printableASCIIPrefix($0) }) == n {
            lines.resizeKeepingCapacity(to: 1, filler: TextLine(0, 0, columns: 0))
            lines.withUnsafeMutableBufferPointer { $0[0] = TextLine(0, n, columns: n) }
            return
        }
        // Clean text is laid out as it is (the sanitizer returns it), as the reader laid the member out.
        // The record is read in place (a copy of it retained its storage and plan per label).
        guard text.isClean, record?.hasPlan == true else {
            lines.removeAllKeepingCapacity()
            _ = breakHere(text, width: width, maxLines: maxLines, mode: mode, into: &lines, made: &made)
            return
        }
        let planned = text.withBytes {
            record!.plannedLines(for: $0, width: width, maxLines: maxLines, mode: mode.rawValue)
        }
        if let triples = planned {  // the record's memory: the cell holds the record
            let flag = LinePlan.ellipsisFlag  // once a label: read per line, its getter was a call a line
            // Written over the list's old lines in place, its length changed by the difference: emptied
            // and appended to line by line, each line checked the list's uniqueness and reloaded the
            // loop's state (BENCHMARKS.md, "Measurements behind the code": CellLayout.plannedCopy).
            let count = triples.count / 3
            var whole = 0  // the lines before one cut at its tail (the reader cuts only a single line)
            while whole < count, triples[3 &* whole &+ 1] & flag == 0 { whole &+= 1 }
            lines.resizeKeepingCapacity(to: whole, filler: TextLine(0, 0, columns: 0))
            lines.withUnsafeMutableBufferPointer { list in
                for k in 0..<whole {
                    list[k] = TextLine(
                        Int(triples[3 &* k]), Int(triples[3 &* k &+ 1]), columns: Int(triples[3 &* k &+ 2]))
                }
            }
            if whole < count {  // one line cut at its tail: the ellipsis added here
                let line = text.withBytes {
                    TextLayout.ellipsizedText(text, $0, head: Int(triples[3 &* whole &+ 1] & ~flag))
                }
                lines.append(TextLine(0, line.byteCount, columns: Int(triples[3 &* whole &+ 2]) + 1))
                made = line
            }
            return
        }
        lines.removeAllKeepingCapacity()
        if breakHere(text, width: width, maxLines: maxLines, mode: mode, into: &lines, made: &made) {
            // An ellipsis: the reader works out only one line cut at its tail (`LinePlan.ellipsisFlag`);
            // asked for that too, a column cut on every row is planned as well.
            guard maxLines == 1, mode == .truncateTail else { return }
        }
        if let key = text.withBytes({ record!.key(ofMemberWithText: $0) }) {
            record!.plan!.ask(LinePlan.Entry(key: key, width: width, maxLines: maxLines, mode: mode.rawValue))
        }
    }

    /// `text` broken on this thread (`TextLayout.tableLines`, which lays clean text out as
    /// `TextLayout.laidOut` does) into `lines`' memory, which its callers empty first; true, with
    /// `made` set, when the lines index a text it made (an ellipsis added).
    private static func breakHere(
        _ text: TextBytes, width: Int, maxLines: Int, mode: LineBreakMode, into lines: inout [TextLine],
        made: inout TextBytes?
    ) -> Bool {
        var taken: [TextLine] = []
        swap(&taken, &lines)
        var laidOut = TextLayout.tableLines(text, width: width, maxLines: maxLines, mode: mode, reusing: taken)
        laidOut.swapLines(with: &lines)
        guard laidOut.text !== text else { return false }
        made = laidOut.text
        return true
    }

    // MARK: Subviews

    /// A subview at its frame in the content view, clipped to it and to the row, appended to `views`
    /// if any of it shows (styled in place: see `placeLabel`). Right to left the content view starts
    /// at `content.origin`, and a subview with an autoresizing mask is placed by its leading edge:
    /// its frame mirrored within the content view, as UIKit's leading and trailing constraints are.
    private func placeSubview(
        _ view: View, in content: ContentView, height: Int, grows: Bool, selected: Bool, memo: inout LineMemo,
        into views: inout [PlacedView]
    ) {
        var f = view.frame
        if grows { f.height = grownHeight(.passUnretained(view), memo: &memo) }
        if content.rightToLeft {
            f.x = content.origin + (view.autoresizingMask.isEmpty ? f.x : content.width - f.x - f.width)
        }
        let x0 = max(content.origin, f.x), y0 = max(0, f.y)
        let x1 = min(content.origin + content.width, f.x + f.width), y1 = min(height, f.y + f.height)
        guard x1 > x0, y1 > y0 else { return }
        let frame = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        switch view.kind {
        case .image:
            let i = memo.nextSlot(in: &views)
            guard let name = view.imageName else {
                views[i] = PlacedView(
                    role: .subview, tagValue: Int32(clamping: view.tag), frame: frame,
                    backgroundColor: view.backgroundColor, hasOwnFrame: true)
                return
            }
            var placed = imageView(name, role: .subview, warn: view.cell?.context)
            placed.tag = view.tag
            placed.frame = frame
            placed.backgroundColor = view.backgroundColor
            placed.hasOwnFrame = true
            views[i] = placed
        case .label:
            // Text is laid out at the whole frame, then cut where the row or the accessory cuts it;
            // no more than one line past what shows (where a truncation's ellipsis would go, unseen).
            let maxLines = min(view.numberOfLines == 0 ? f.height : min(view.numberOfLines, f.height), frame.height + 1)
            // Written over a view of the row before, in place (see `RowLayout.recycleViews`).
            let i = memo.nextSlot(in: &views)
            let key = Self.styleKey(view, selected: selected, rightToLeft: content.rightToLeft)
            // The place reached once, through the list's memory (`nextSlot` made it): each access by
            // index checked the list's bounds, and some its uniqueness (BENCHMARKS.md, "Measurements
            // behind the code": CellLayout.slotPointer).
            views.withUnsafeMutableBufferPointer { list in
                let placed = list.baseAddress.unsafelyUnwrapped + i
                memo.laySubview(view, width: f.width, maxLines: maxLines, into: &placed.pointee.laidOut)
                placed.pointee.laidOut.keepFirst(frame.height)
                if frame.width < f.width, view.textBytes?.isClean == false {
                    // a marker the row's edge cuts: left out
                    placed.pointee.laidOut = TextLayout.clipped(placed.pointee.laidOut, width: frame.width)
                }
                // Styled by this view in this row's state, unchanged since: the style kept, the text
                // set (BENCHMARKS.md, "Measurements behind the code": CellLayout.styleStamp).
                if placed.pointee.styleStamp == key {
                    placed.pointee.frame = frame
                    placed.pointee.setFullText(of: view)
                    return
                }
                placed.pointee.reset(
                    role: .subview, tagValue: Int32(clamping: view.tag), frame: frame, hasOwnFrame: true)
                // Natural alignment is the leading edge: the right one, right to left.
                let defaults = Defaults(alignment: content.rightToLeft ? .right : .left)
                style(&placed.pointee, from: view, defaults: defaults, selected: selected)
                placed.pointee.styleStamp = key
            }
        case .plain:
            let i = memo.nextSlot(in: &views)
            views[i] = PlacedView(
                role: .subview, tagValue: Int32(clamping: view.tag), frame: frame,
                backgroundColor: view.backgroundColor, hasOwnFrame: true)
        }
    }
}

extension Array {
    /// Empties the array and keeps its memory, one element at a time: `removeAll(keepingCapacity:)`
    /// goes through the generic `replaceSubrange`, which per row mattered (BENCHMARKS.md, "Measurements
    /// behind the code": RowLayout.removeAll).
    mutating func removeAllKeepingCapacity() {
        while !isEmpty { removeLast() }
    }

    /// Makes the array `count` elements long in its memory: elements removed from its end, or
    /// `filler` appended, to be written over by the caller. Inlined: called apart it cost 91
    /// instructions a row on the same-work table. A list of lines written over in place changes its length by the difference
    /// between two rows' (BENCHMARKS.md, "Measurements behind the code": CellLayout.plannedCopy).
    @inline(__always)
    mutating func resizeKeepingCapacity(to count: Int, filler: Element) {
        while self.count > count { removeLast() }
        while self.count < count { append(filler) }
    }
}
