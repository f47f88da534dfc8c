// The value types a cell is described with. Raw values equal cellkit.h's
// constants, so the host table converts by raw value (checked by tests).

import CCellKit

/// How the standard labels are placed (UITableViewCell.CellStyle).
public enum CellStyle: Int32, CaseIterable, Sendable, Codable {
    case `default` = 0, subtitle, value1, value2
}

/// How a row looks when selected; `none` means it cannot be selected.
public enum SelectionStyle: Int32, CaseIterable, Sendable, Codable {
    case none = 0, blue, gray, `default`
}

/// The standard accessory drawn at the right of a cell.
public enum AccessoryType: Int32, CaseIterable, Sendable, Codable {
    case none = 0, disclosureIndicator, checkmark, detailButton
}

/// Horizontal text alignment in a label.
public enum TextAlignment: Int32, CaseIterable, Sendable, Encodable {
    case natural = 0, left, center, right

    /// Encoded by name ("center"), for readable JSON output.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode("\(self)")
    }
}

/// What a label does with text that does not fit its frame.
public enum LineBreakMode: Int32, CaseIterable, Sendable, Codable {
    case wordWrap = 0, charWrap, clip, truncateHead, truncateTail, truncateMiddle
}

/// A font weight; the terminal draws semibold and bold as bold.
public enum FontWeight: Int32, CaseIterable, Sendable, Codable {
    case regular = 0, light, medium, semibold, bold
}

/// What a view shows.
public enum ViewKind: Int32, CaseIterable, Sendable, Codable {
    case plain = 0, label, image
}

/// A colour as 0xRRGGBBAA; `nil` where a property is "not set".
public struct Color: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// An opaque colour from 8-bit components.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        rawValue = UInt32(red) << 24 | UInt32(green) << 16 | UInt32(blue) << 8 | UInt32(alpha)
    }
    public var red: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 24) }
    public var green: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 16) }
    public var blue: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 8) }
    public var alpha: UInt8 { UInt8(truncatingIfNeeded: rawValue) }
    public var description: String { "#" + String(rawValue, radix: 16).leftPadded(to: 8) }

    /// Encoded as "#rrggbbaa", as documents write colours.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let raw = try? container.decode(UInt32.self) { self.init(rawValue: raw); return }
        let text = try container.decode(String.self)
        guard text.hasPrefix("#"), text.count == 9, let raw = UInt32(text.dropFirst(), radix: 16) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected #rrggbbaa, found \(text)")
        }
        self.init(rawValue: raw)
    }

    /// CSS `rgba(...)`.
    public var css: String {
        alpha == 255 ? "#" + String(rawValue >> 8, radix: 16).leftPadded(to: 6) : "rgba(\(red),\(green),\(blue),\(Double(alpha) / 255))"
    }

    /// The colour for a C value, where `CK_COLOR_NONE` means not set.
    package init?(c value: Int64) {
        guard value != 0 else { return nil }
        rawValue = UInt32(truncatingIfNeeded: value)
    }
}

/// A rectangle in character cells.
public struct Rect: Hashable, Sendable, Codable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    package init(_ r: ck_rect) { self.init(x: Int(r.x), y: Int(r.y), width: Int(r.width), height: Int(r.height)) }
    package var c: ck_rect { ck_rect(x: Int32(clamping: x), y: Int32(clamping: y), width: Int32(clamping: width), height: Int32(clamping: height)) }
}

/// A background: a colour, an image from the asset catalog, or both (the image drawn over the colour).
public struct Fill: Hashable, Sendable, Codable {
    public var color: Color?
    public var imageName: String?
    public init(color: Color? = nil, imageName: String? = nil) { (self.color, self.imageName) = (color, imageName) }
}

/// Where a row stands in its section; grouped tables pick backgrounds by it (seed 000).
public enum RowPosition: String, Sendable, Codable {
    case single, top, middle, bottom

    public init(row: Int, rowsInSection: Int) {
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
    public var section: Int, row: Int
    public init(section: Int, row: Int) { (self.section, self.row) = (section, row) }
    public var description: String { "\(section).\(row)" }
    @inlinable package var c: ck_index_path { ck_index_path(section: Int64(section), row: Int64(row)) }
}
