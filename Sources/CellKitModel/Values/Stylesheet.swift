// Named styles a hook applies to a view (the teacup stylesheet of seed 003):
// a style may extend another, and is flattened once when the sheet is loaded.

/// The properties one style sets; nil leaves the view's value as it is.
public struct Style: Sendable, Equatable {
    /// The whole frame, in columns and lines; `left`, `top`, `width` and `height` then change parts of it.
    public var frame: Rect?
    /// The frame's x, in columns.
    public var left: Int?
    /// The frame's y, in lines.
    public var top: Int?
    /// The frame's width, in columns.
    public var width: Int?
    /// The frame's height, in lines.
    public var height: Int?
    /// The font size in points (17 is the text label's default); under 14 draws as small text.
    public var fontSize: Double?
    /// The font weight.
    public var fontWeight: FontWeight?
    /// The text colour.
    public var textColor: Color?
    /// What the label does with text that does not fit.
    public var lineBreakMode: LineBreakMode?
    /// The most lines the label shows; 0 for as many as the frame holds.
    public var numberOfLines: Int?
    /// The horizontal alignment of the text.
    public var alignment: TextAlignment?

    /// A style that sets nothing.
    public init() {}

    /// `self` over `base`: what this style sets wins, the rest comes from `base`.
    /// A `frame` set here also drops the `left`, `top`, `width` and `height` of `base`.
    package func over(_ base: Style) -> Style {
        var s = base
        if let frame { s.frame = frame; (s.left, s.top, s.width, s.height) = (nil, nil, nil, nil) }
        s.left = left ?? s.left; s.top = top ?? s.top; s.width = width ?? s.width; s.height = height ?? s.height
        s.fontSize = fontSize ?? s.fontSize; s.fontWeight = fontWeight ?? s.fontWeight
        s.textColor = textColor ?? s.textColor; s.lineBreakMode = lineBreakMode ?? s.lineBreakMode
        s.numberOfLines = numberOfLines ?? s.numberOfLines; s.alignment = alignment ?? s.alignment
        return s
    }
}

/// Flattened styles by name, for a table's views (`ck_apply_style`, ABI 1.1). A table
/// document loads one from its `stylesheet:` file; the default sheet has no styles.
public struct Stylesheet: Sendable {
    /// The styles by name, each with what it extends already applied beneath it.
    public var styles: [String: Style]
    /// The file the sheet came from, for messages.
    public var source: String?

    /// A sheet of `styles`, already flattened, read from the file `source` (nil if none).
    public init(styles: [String: Style] = [:], source: String? = nil) {
        (self.styles, self.source) = (styles, source)
    }
}
