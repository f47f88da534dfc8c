// Named styles a hook applies to a view (the teacup stylesheet of seed 003):
// a style may extend another, and is flattened once when the sheet is loaded.

/// The properties one style sets; nil leaves the view's value as it is.
public struct Style: Sendable, Equatable {
    public var frame: Rect?
    public var left: Int?, top: Int?, width: Int?, height: Int?
    public var fontSize: Double?
    public var fontWeight: FontWeight?
    public var textColor: Color?
    public var lineBreakMode: LineBreakMode?
    public var numberOfLines: Int?
    public var alignment: TextAlignment?

    public init() {}

    /// `self` over `base`: what this style sets wins, the rest comes from `base`.
    public func over(_ base: Style) -> Style {
        var s = base
        if let frame { s.frame = frame; (s.left, s.top, s.width, s.height) = (nil, nil, nil, nil) }
        s.left = left ?? s.left; s.top = top ?? s.top; s.width = width ?? s.width; s.height = height ?? s.height
        s.fontSize = fontSize ?? s.fontSize; s.fontWeight = fontWeight ?? s.fontWeight
        s.textColor = textColor ?? s.textColor; s.lineBreakMode = lineBreakMode ?? s.lineBreakMode
        s.numberOfLines = numberOfLines ?? s.numberOfLines; s.alignment = alignment ?? s.alignment
        return s
    }
}

/// Flattened styles by name.
public struct Stylesheet: Sendable {
    public var styles: [String: Style]
    /// The file the sheet came from, for messages.
    public var source: String?

    public init(styles: [String: Style] = [:], source: String? = nil) {
        (self.styles, self.source) = (styles, source)
    }
}
