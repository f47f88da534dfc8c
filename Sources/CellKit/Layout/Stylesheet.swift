// Named styles a hook applies to a view (the teacup stylesheet of seed 003):
// a style may extend another, and is flattened once when the sheet is loaded.

import CCellKit

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

    /// Applies the style `name` to `view`; throws for an unknown name.
    func apply(_ name: String, to view: View) throws(CellError) {
        guard let style = styles[name] else {
            let known = styles.keys.sorted().joined(separator: ", ")
            let sheet = source.map { " in \($0)" } ?? ""
            throw CellError(status: CK_ERR_NOT_FOUND, message: "no style '\(name)'\(sheet); styles: \(known.isEmpty ? "none" : known)")
        }
        var frame = style.frame ?? view.frame
        if let v = style.left { frame.x = v }
        if let v = style.top { frame.y = v }
        if let v = style.width { frame.width = v }
        if let v = style.height { frame.height = v }
        view.frame = frame
        if let v = style.fontSize { view.fontSize = v }
        if let v = style.fontWeight { view.fontWeight = v }
        if let v = style.textColor { view.textColor = v }
        if let v = style.lineBreakMode { view.lineBreakMode = v }
        if let v = style.numberOfLines { view.numberOfLines = v }
        if let v = style.alignment { view.alignment = v }
    }
}
