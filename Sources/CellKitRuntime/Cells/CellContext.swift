// What the cells of one table share: the stylesheet hooks apply styles from,
// and a place to report problems that must not stop the rendering.

import CellKitModel
import Synchronization

/// The table-wide settings a cell's host calls can reach, and the table's warnings.
/// One per table (per queue). Safe to share between threads: a program may read the
/// warnings while another thread renders, and hooks may warn from any thread.
public final class CellContext: Sendable {
    /// Styles `view_apply_style` applies.
    public let stylesheet: Stylesheet
    private let state = Mutex(State())

    private struct State: ~Copyable {
        var contentWidth = 0
        var warnings: [String] = []
        var seen: Set<String> = []
        var limits: Set<LimitWarningKey> = []
    }

    /// A context whose hooks apply styles from `stylesheet`.
    public init(stylesheet: Stylesheet = Stylesheet()) { self.stylesheet = stylesheet }

    /// Columns a cell has; new cells get it as their content view's width, so hooks
    /// can place subviews against the right edge (seed 000's labels). The renderer
    /// sets it before a table's first row.
    public var contentWidth: Int {
        get { state.withLock { $0.contentWidth } }
        set { state.withLock { $0.contentWidth = newValue } }
    }

    /// Problems seen while rendering, each once, in the order first seen. Messages may
    /// quote plugin and document text: print them through `TextSanitizer.visible`.
    public var warnings: [String] { state.withLock { $0.warnings } }

    /// Records `message` once.
    public func warn(_ message: String) {
        state.withLock { state in
            if state.seen.insert(message).inserted { state.warnings.append(message) }
        }
    }

    /// Records the message `make` builds, the first time `key` is seen; later times build nothing.
    /// A plugin that breaks a limit on every row is reported once, at its first row.
    package func warnOnce(_ key: LimitWarningKey, _ make: () -> String) {
        state.withLock { state in
            guard state.limits.insert(key).inserted else { return }
            let message = make()
            if state.seen.insert(message).inserted { state.warnings.append(message) }
        }
    }
}
