// What the cells of one table share: the stylesheet hooks apply styles from,
// and a place to report problems that must not stop the rendering.

import CellKitDiscovery
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
        var keys: Set<String> = []
        var failures: [FailedHostCalls] = []
        var failureIndex: [FailedHostCalls.Key: Int] = [:]
        var journal: WarningJournal?

        /// Records `message` once, in the journal too.
        mutating func record(_ message: String) {
            guard seen.insert(message).inserted else { return }
            warnings.append(message)
            journal?.warning(message)
        }
    }

    /// Keeps every warning and failed host call in `journal` too, from now on and those seen so
    /// far (a render worker's, in the memory its supervisor shares: none is lost if it crashes).
    package func keep(in journal: WarningJournal) {
        state.withLock { state in
            for line in state.warnings { journal.warning(line) }
            for (slot, failure) in state.failures.enumerated() { journal.failure(slot: slot, failure) }
            state.journal = journal
        }
    }

    /// The row-data keys hooks read through this context, when recording (`cellkit check`); nil
    /// otherwise, so that a render pays one load a data read.
    package let keysRead: KeyRecorder?

    /// Called, on the hook's thread, each time a hook of a cell of this context asks
    /// `view_with_tag` for tag 0 (which finds no view: tags start at 1), before the call returns
    /// NULL: `cellkit check` tells its supervisor at once, so a crash that follows is explained
    /// even though the worker dies. Nil (the default) for a render.
    package let tagZeroLookup: (@Sendable () -> Void)?

    /// A context whose hooks apply styles from `stylesheet`.
    public init(stylesheet: Stylesheet = Stylesheet()) {
        (self.stylesheet, keysRead, tagZeroLookup) = (stylesheet, nil, nil)
    }

    /// A context that also records the row-data keys hooks read (`keysRead`), and calls
    /// `tagZeroLookup` when a hook looks up tag 0.
    package init(stylesheet: Stylesheet, recordingKeys: Bool, tagZeroLookup: (@Sendable () -> Void)? = nil) {
        (self.stylesheet, keysRead) = (stylesheet, recordingKeys ? KeyRecorder() : nil)
        self.tagZeroLookup = tagZeroLookup
    }

    /// The key paths hooks asked the row's data for, in the order first asked.
    package final class KeyRecorder: Sendable {
        private let keys = Mutex<[String]>([])

        /// Notes `path`.
        package func note(_ path: String) {
            keys.withLock { if !$0.contains(path) { $0.append(path) } }
        }

        /// The paths noted, and forgets them.
        package func take() -> [String] {
            keys.withLock { keys in
                defer { keys = [] }; return keys
            }
        }
    }

    /// Columns a cell has; new cells get it as their content view's width, so hooks
    /// can place subviews against the right edge (seed 000's labels). The renderer
    /// sets it before a table's first row.
    public var contentWidth: Int {
        get { state.withLock { $0.contentWidth } }
        set { state.withLock { $0.contentWidth = newValue } }
    }

    /// Which way the rows being drawn read (the section's `direction`): what hooks read as
    /// `CK_CELL_LAYOUT_DIRECTION` (`Cell.isRightToLeft`). The renderer sets it before each section's
    /// first row; `ltr` by default.
    public var direction: TextDirection {
        get {
            switch directionIndex.load(ordering: .relaxed) {
            case 1: .rtl
            case 2: .auto
            default: .ltr
            }
        }
        set { directionIndex.store(newValue == .rtl ? 1 : newValue == .auto ? 2 : 0, ordering: .relaxed) }
    }
    /// `direction` as 0 (ltr), 1 (rtl) or 2 (auto): an atomic, as the layout reads it every row (a
    /// plain load; the lock the other settings take is not).
    private let directionIndex = Atomic<UInt8>(0)

    /// Problems seen while rendering, each once, in the order first seen. Messages may
    /// quote plugin and document text: print them through `TextSanitizer.visible`.
    public var warnings: [String] { state.withLock { $0.warnings } }

    /// Forgets every warning and failed host call recorded so far (the journal keeps what it has):
    /// what follows is warned of as on a new context (`cellkit preview`'s configurations drawn by one
    /// kept worker, each warned of as a render of its own would be).
    package func forgetWarnings() {
        state.withLock { state in
            (state.warnings, state.seen, state.limits, state.keys) = ([], [], [], [])
            (state.failures, state.failureIndex) = ([], [:])
        }
    }

    /// Records `message` once.
    public func warn(_ message: String) {
        state.withLock { $0.record(message) }
    }

    /// Host calls that returned an error status, counted per plugin file and hook, in the
    /// order first seen: each with its count and the first failure's `last_error` text
    /// (`libfoo.so: customizeCellForFoo: 1,000 host calls failed; the first: view_with_tag: tag 0
    /// refused: …`). Counted only when a call fails, so a table whose hooks' calls all succeed
    /// pays nothing; calls refused for coming from another thread than the hook's
    /// (`CK_ERR_WRONG_THREAD`) or passing no cell are not counted. `cellkit render` prints them
    /// after the warnings. Texts quote plugins: print them through `TextSanitizer.visible`.
    public var failedHostCalls: [FailedHostCalls] { state.withLock { $0.failures } }

    /// Counts a failed host call of `function` against `key`; the first for a key keeps `message`.
    package func countFailure(_ key: FailedHostCalls.Key, function: StaticString, message: String) {
        state.withLock { state in
            if let index = state.failureIndex[key] {
                state.failures[index].count += 1
                state.journal?.count(slot: index, state.failures[index].count)
                return
            }
            state.failureIndex[key] = state.failures.count
            let name = "\(function)"
            state.failures.append(
                FailedHostCalls(
                    pluginFile: key.pluginFile, hook: key.hook.symbol(for: key.identifier), count: 1,
                    first: message.hasPrefix(name + ": ") ? message : "\(name): \(message)"))
            state.journal?.failure(slot: state.failures.count - 1, state.failures[state.failures.count - 1])
        }
    }

    /// Records the message `make` builds the first time `key` is seen; later times build nothing: a
    /// problem of every row reported once, naming its first row.
    package func warn(once key: String, _ make: () -> String) {
        state.withLock { state in
            guard state.keys.insert(key).inserted else { return }
            state.record(make())
        }
    }

    /// Records the message `make` builds, the first time `key` is seen; later times build nothing.
    /// A plugin that breaks a limit on every row is reported once, at its first row.
    package func warnOnce(_ key: LimitWarningKey, _ make: () -> String) {
        state.withLock { state in
            guard state.limits.insert(key).inserted else { return }
            state.record(make())
        }
    }
}

/// The host calls of one plugin's hook that failed: how many, and the first one's message.
public struct FailedHostCalls: Sendable, Equatable, CustomStringConvertible {
    /// The plugin file's name (`libfoo.so`), as warnings name it.
    public let pluginFile: String
    /// The hook that made the calls, by its symbol (`customizeCellForFoo`).
    public let hook: String
    /// How many of its host calls returned an error status (every `CK_ERR_…` but
    /// `CK_ERR_WRONG_THREAD`), over every row drawn with the context.
    public internal(set) var count: Int
    /// The first failed call: the host function, then what `last_error` said
    /// (`view_with_tag: tag 0 refused: …`, `cell_set_int: 99 is not a accessory type (0...3)`).
    public let first: String

    /// `count` failed host calls of `hook` in `pluginFile`, the first of them `first`.
    package init(pluginFile: String, hook: String, count: Int, first: String) {
        (self.pluginFile, self.hook, self.count, self.first) = (pluginFile, hook, count, first)
    }

    /// `libfoo.so: customizeCellForFoo: 1,000 host calls failed; the first: …`, on one line.
    public var description: String {
        "\(pluginFile): \(hook): \(Self.grouped(count)) host \(count == 1 ? "call" : "calls") failed; the first: \(first)"
    }

    /// What calls are counted by: the plugin file, the cell type and the hook.
    package struct Key: Hashable, Sendable {
        let pluginFile: String
        let identifier: CellIdentifier
        let hook: HookKind
    }

    /// `n` with commas between groups of three digits: 1,000,000.
    static func grouped(_ n: Int) -> String {
        var digits = String(n.magnitude), out = ""
        while digits.count > 3 {
            out = "," + digits.suffix(3) + out
            digits.removeLast(3)
        }
        return (n < 0 ? "-" : "") + digits + out
    }
}
