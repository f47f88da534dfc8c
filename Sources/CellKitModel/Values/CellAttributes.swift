// The value types a cell is described with. Raw values equal cellkit.h's
// constants, so the host table converts by raw value (checked by tests).

import CCellKit

/// How the standard labels are placed (UITableViewCell.CellStyle; C `ck_cell_style`).
public enum CellStyle: Int32, CaseIterable, Sendable, Codable {
    /// The image, then the text label; the detail label is not shown (`CK_STYLE_DEFAULT`).
    case `default` = 0
    /// The text label above a smaller detail label (`CK_STYLE_SUBTITLE`).
    case subtitle
    /// The text label on the left, the detail label right-aligned in grey (`CK_STYLE_VALUE1`).
    case value1
    /// A small, right-aligned, tinted text label, then the detail label beside it (`CK_STYLE_VALUE2`).
    case value2
}

/// How a row looks when selected (C `ck_selection_style`).
public enum SelectionStyle: Int32, CaseIterable, Sendable, Codable {
    /// A selected row is drawn as if it were not selected (`CK_SELECTION_NONE`).
    case none = 0
    /// A selected row gets the blue tint as its background (`CK_SELECTION_BLUE`).
    case blue
    /// A selected row gets a light grey background (`CK_SELECTION_GRAY`).
    case gray
    /// The same as `gray` (`CK_SELECTION_DEFAULT`).
    case `default`
}

/// The standard accessory drawn at the right of a cell (C `ck_accessory_type`).
/// A custom accessory view, if the cell has one, replaces it.
public enum AccessoryType: Int32, CaseIterable, Sendable, Codable {
    /// No accessory, and no column kept for one (`CK_ACCESSORY_NONE`).
    case none = 0
    /// A grey "›": the row leads somewhere (`CK_ACCESSORY_DISCLOSURE_INDICATOR`).
    case disclosureIndicator
    /// A tinted "✓" (`CK_ACCESSORY_CHECKMARK`).
    case checkmark
    /// A tinted "ⓘ" (`CK_ACCESSORY_DETAIL_BUTTON`).
    case detailButton
    /// A tinted "ⓘ" then a grey "›": details, and the row leads somewhere
    /// (`CK_ACCESSORY_DETAIL_DISCLOSURE_BUTTON`, ABI 1.2; UIKit's detailDisclosureButton).
    case detailDisclosureButton

    /// The columns the standard accessory's glyph takes at the right of the row.
    package var columns: Int {
        switch self {
        case .none: 0
        case .disclosureIndicator, .checkmark, .detailButton: 1
        case .detailDisclosureButton: 2
        }
    }
}

/// Which way a table's rows read: image, accessory, `value1`/`value2` and indentation mirror
/// for right to left, as UIKit mirrors a cell under a right-to-left layout.
public enum TextDirection: String, CaseIterable, Sendable, Codable {
    /// Left to right.
    case ltr
    /// Right to left (Hebrew, Arabic, ...).
    case rtl
    /// As the row's text label reads: its first strong character (`isRightToLeft(_:)`).
    case auto

    /// Whether `text` reads right to left: its first character of a right-to-left script
    /// (Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic and their presentation forms)
    /// comes before any other letter. Digits, punctuation and symbols are weak, and skipped.
    public static func isRightToLeft(_ text: some StringProtocol) -> Bool {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
                if scalar.properties.isAlphabetic { return true }
            default:
                if scalar.properties.isAlphabetic { return false }
            }
        }
        return false
    }
}

/// Horizontal text alignment in a label (C `ck_text_alignment`).
public enum TextAlignment: Int32, CaseIterable, Sendable, Encodable {
    /// Whatever the cell style gives the label: left for most, right for the
    /// detail label of `value1` and the text label of `value2` (`CK_ALIGN_NATURAL`).
    case natural = 0
    /// Against the left edge of the label's frame (`CK_ALIGN_LEFT`).
    case left
    /// Centred in the label's frame; an odd spare column goes to the right (`CK_ALIGN_CENTER`).
    case center
    /// Against the right edge of the label's frame (`CK_ALIGN_RIGHT`).
    case right

    /// Encoded by name ("center"), for readable JSON output.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode("\(self)")
    }
}

/// What a label does with text that does not fit its frame (C `ck_line_break_mode`).
/// Newlines in the text always start a new line.
public enum LineBreakMode: Int32, CaseIterable, Sendable, Codable {
    /// Wraps at spaces; a word longer than the line is broken (`CK_BREAK_WORD_WRAP`).
    case wordWrap = 0
    /// Wraps at any character (`CK_BREAK_CHAR_WRAP`).
    case charWrap
    /// Wraps at spaces and cuts what does not fit, with no ellipsis (`CK_BREAK_CLIP`).
    case clip
    /// On one line, keeps the end and puts "…" first; on more, "…" ends the last line
    /// (`CK_BREAK_TRUNCATE_HEAD`).
    case truncateHead
    /// Wraps at spaces and ends the last line that fits with "…" (`CK_BREAK_TRUNCATE_TAIL`).
    case truncateTail
    /// On one line, keeps both ends with "…" in the middle; on more, "…" ends the last
    /// line (`CK_BREAK_TRUNCATE_MIDDLE`).
    case truncateMiddle
}

/// A font weight (C `ck_font_weight`); the terminal draws semibold and bold as bold.
public enum FontWeight: Int32, CaseIterable, Sendable, Codable {
    /// The default weight (`CK_WEIGHT_REGULAR`).
    case regular = 0
    /// Drawn as regular in a terminal (`CK_WEIGHT_LIGHT`).
    case light
    /// Drawn as regular in a terminal (`CK_WEIGHT_MEDIUM`).
    case medium
    /// Drawn as bold (`CK_WEIGHT_SEMIBOLD`).
    case semibold
    /// Drawn as bold (`CK_WEIGHT_BOLD`).
    case bold
}

/// What a view shows (C `ck_view_kind`); fixed when the view is made.
public enum ViewKind: Int32, CaseIterable, Sendable, Codable {
    /// Shows nothing but its background colour (`CK_VIEW_PLAIN`).
    case plain = 0
    /// Shows text, with the font, colour, alignment and line break properties (`CK_VIEW_LABEL`).
    case label
    /// Shows an image from the asset catalog, named by its image name (`CK_VIEW_IMAGE`).
    case image
}

/// A colour as 0xRRGGBBAA, as C's `ck_color`; `nil` where a property is "not set"
/// (`CK_COLOR_NONE`, 0, in C).
public struct Color: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The colour as 0xRRGGBBAA: red in the high byte, alpha in the low one.
    public let rawValue: UInt32
    /// The colour 0xRRGGBBAA. 0 is transparent black here, though C reads 0 as "not set".
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// A colour from 8-bit components; opaque unless `alpha` says otherwise.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        rawValue = UInt32(red) << 24 | UInt32(green) << 16 | UInt32(blue) << 8 | UInt32(alpha)
    }
    /// The red component, 0–255.
    public var red: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 24) }
    /// The green component, 0–255.
    public var green: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 16) }
    /// The blue component, 0–255.
    public var blue: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 8) }
    /// The opacity, 0 (transparent) to 255 (opaque).
    public var alpha: UInt8 { UInt8(truncatingIfNeeded: rawValue) }
    /// "#rrggbbaa" in lowercase hex, eight digits.
    public var description: String { "#" + String(rawValue, radix: 16).leftPadded(to: 8) }

    /// Encoded as "#rrggbbaa", as documents write colours.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Decodes a number (0xRRGGBBAA) or the text "#rrggbbaa"; anything else throws a
    /// `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let raw = try? container.decode(UInt32.self) { self.init(rawValue: raw); return }
        let text = try container.decode(String.self)
        guard text.hasPrefix("#"), text.count == 9, let raw = UInt32(text.dropFirst(), radix: 16) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected #rrggbbaa, found \(text)")
        }
        self.init(rawValue: raw)
    }

    /// The colour for CSS: "#rrggbb" if opaque, else `rgba(r,g,b,a)` with alpha from 0 to 1.
    package var css: String {
        alpha == 255
            ? "#" + String(rawValue >> 8, radix: 16).leftPadded(to: 6)
            : "rgba(\(red),\(green),\(blue),\(Double(alpha) / 255))"
    }

    /// The colour for a C value, where `CK_COLOR_NONE` means not set.
    package init?(c value: Int64) {
        guard value != 0 else { return nil }
        rawValue = UInt32(truncatingIfNeeded: value)
    }
}

/// A rectangle in character cells (C `ck_rect`): x and width in columns, y and height
/// in lines. A view's frame is relative to its cell's content view.
public struct Rect: Hashable, Sendable, Codable {
    /// Columns from the left edge.
    public var x: Int
    /// Lines from the top edge.
    public var y: Int
    /// The width in columns.
    public var width: Int
    /// The height in lines.
    public var height: Int
    /// A rectangle from its origin and size, in columns and lines.
    public init(x: Int, y: Int, width: Int, height: Int) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }
    /// The empty rectangle at the origin. A part whose frame is `.zero` is placed by the cell's style.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    package init(_ r: ck_rect) { self.init(x: Int(r.x), y: Int(r.y), width: Int(r.width), height: Int(r.height)) }
    package var c: ck_rect {
        ck_rect(
            x: Int32(clamping: x), y: Int32(clamping: y), width: Int32(clamping: width), height: Int32(clamping: height)
        )
    }
}

/// A background: a colour, an image from the asset catalog, or both (the image drawn over the colour).
public struct Fill: Hashable, Sendable, Codable {
    /// The colour under the image; nil for none.
    public var color: Color?
    /// The name of an image in the table's asset catalog; nil for none.
    public var imageName: String?
    /// A background of `color`, `imageName`, both, or (with neither) nothing.
    public init(color: Color? = nil, imageName: String? = nil) { (self.color, self.imageName) = (color, imageName) }
}

/// Where a row stands in its section; grouped tables pick backgrounds by it (seed 000).
public enum RowPosition: String, Sendable, Codable {
    /// The only row of its section.
    case single
    /// The first row of a section with more than one.
    case top
    /// Neither the first nor the last row of its section.
    case middle
    /// The last row of a section with more than one.
    case bottom

    /// The position of row `row` (from 0) in a section of `rowsInSection` rows.
    @inlinable package init(row: Int, rowsInSection: Int) {
        switch (row == 0, row == rowsInSection - 1) {
        case (true, true): self = .single
        case (true, false): self = .top
        case (false, true): self = .bottom
        case (false, false): self = .middle
        }
    }
}

/// A row's place in a table.
public struct IndexPath: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The section, from 0.
    public var section: Int
    /// The row within its section, from 0.
    public var row: Int
    /// Row `row` of section `section`, both from 0.
    public init(section: Int, row: Int) { (self.section, self.row) = (section, row) }
    /// "section.row", as in "0.3".
    public var description: String { "\(section).\(row)" }  // data, not a message
    @inlinable package var c: ck_index_path { ck_index_path(section: Int64(section), row: Int64(row)) }
}

// MARK: - Names in documents

/// An enumeration whose cases a document names by their Swift names (`style: insetGrouped`):
/// the names are written out (BENCHMARKS.md, "Measurements behind the code": NamedCases), as
/// turning a case into its name through reflection was a large part
/// of a small render's instructions. `NamedCaseTests` checks each name is its case's.
public protocol NamedCases: CaseIterable {
    /// The case's name as a document writes it.
    var name: String { get }
}

extension NamedCases {
    /// The case a document names `name`, or nil.
    public static func named(_ name: some StringProtocol) -> Self? { allCases.first { $0.name == name } }
}

extension CellStyle: NamedCases {
    /// `default`, `subtitle`, `value1` or `value2`.
    public var name: String {
        switch self {
        case .default: "default"
        case .subtitle: "subtitle"
        case .value1: "value1"
        case .value2: "value2"
        }
    }
}

extension TextAlignment: NamedCases {
    /// `natural`, `left`, `center` or `right`.
    public var name: String {
        switch self {
        case .natural: "natural"
        case .left: "left"
        case .center: "center"
        case .right: "right"
        }
    }
}

extension LineBreakMode: NamedCases {
    /// `wordWrap`, `charWrap`, `clip`, `truncateHead`, `truncateTail` or `truncateMiddle`.
    public var name: String {
        switch self {
        case .wordWrap: "wordWrap"
        case .charWrap: "charWrap"
        case .clip: "clip"
        case .truncateHead: "truncateHead"
        case .truncateTail: "truncateTail"
        case .truncateMiddle: "truncateMiddle"
        }
    }
}

extension FontWeight: NamedCases {
    /// `regular`, `light`, `medium`, `semibold` or `bold`.
    public var name: String {
        switch self {
        case .regular: "regular"
        case .light: "light"
        case .medium: "medium"
        case .semibold: "semibold"
        case .bold: "bold"
        }
    }
}

extension AccessoryType: NamedCases {
    /// `none`, `disclosureIndicator`, `checkmark`, `detailButton` or `detailDisclosureButton`.
    public var name: String {
        switch self {
        case .none: "none"
        case .disclosureIndicator: "disclosureIndicator"
        case .checkmark: "checkmark"
        case .detailButton: "detailButton"
        case .detailDisclosureButton: "detailDisclosureButton"
        }
    }
}

extension TextDirection: NamedCases {
    /// Its raw value: `ltr`, `rtl` or `auto`.
    public var name: String { rawValue }
}
