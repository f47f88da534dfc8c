// What the cells of one table share: the stylesheet hooks apply styles from,
// and a place to report problems that must not stop the rendering.

import CellKitModel

/// The table-wide setting a cell's host calls can reach. One per table (per queue).
public final class CellContext: @unchecked Sendable {
    /// Styles `view_apply_style` applies.
    public let stylesheet: Stylesheet
    /// Columns a cell has; new cells get it as their content view's width, so hooks
    /// can place subviews against the right edge (seed 000's labels).
    public var contentWidth = 0
    /// Problems seen while rendering, each once, in the order first seen.
    public private(set) var warnings: [String] = []
    private var seen: Set<String> = []

    public init(stylesheet: Stylesheet = Stylesheet()) { self.stylesheet = stylesheet }

    /// Records `message` once. Only the queue's thread calls this.
    public func warn(_ message: String) {
        if seen.insert(message).inserted { warnings.append(message) }
    }
}
