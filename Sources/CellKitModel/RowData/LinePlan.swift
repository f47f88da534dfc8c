// Line breaks worked out ahead. A label usually shows one text member of its row as
// it is, at the same width, row after row; the table's thread asks a data file's
// reader for that layout once (`ask`), and the reader's helper thread then breaks the
// member's text into lines for every row it reads ahead and hands the lines over with
// the row (`JSONRecord.withPlannedLines`). The layout uses them only for a label whose
// text is byte for byte the member's, so what is drawn is what breaking it on the
// table's thread would give: the same function, on the same bytes.

import Synchronization

/// The layouts a table's thread asked a data file's reader to work out ahead: which text member
/// (by its key, as the file writes it), at which width, in how many lines at most and how broken.
package final class LinePlan: Sendable {
    /// One layout asked for.
    package struct Entry: Sendable, Equatable {
        /// The member's key as written in the file, quotes included.
        package var key: [UInt8]
        /// The layout: columns, lines at most, and `LineBreakMode`'s raw value.
        package var width: Int, maxLines: Int, mode: Int32

        /// A layout of the member written `key`.
        package init(key: [UInt8], width: Int, maxLines: Int, mode: Int32) {
            (self.key, self.width, self.maxLines, self.mode) = (key, width, maxLines, mode)
        }
    }

    /// Set in a planned line's end (the second of its three numbers): the line is the text up to
    /// that end, then an ellipsis the layout adds (a one-line layout truncated at its tail,
    /// `TextLayout.tailCut`); its columns leave the ellipsis out.
    /// (A computed constant: a `let` was read through its lazy global's accessor on every line.)
    @inlinable package static var ellipsisFlag: UInt32 { 0x8000_0000 }

    /// Layouts kept at most; later ones are not asked for (a table shows few labels).
    package static let capacity = 8

    private let entries = Mutex<[Entry]>([])
    /// Bumped by every change, so that the reader reads the entries again only after one; also
    /// the number of entries, so that a full plan is seen without the lock.
    private let changes = Atomic(0)

    /// An empty plan.
    package init() {}

    /// Asks for `entry` for the rows to come, unless it is asked for already or the plan is full.
    package func ask(_ entry: Entry) {
        guard changes.load(ordering: .relaxed) < Self.capacity else { return }  // a label asking every row
        entries.withLock { entries in
            guard entries.count < Self.capacity, !entries.contains(entry) else { return }
            entries.append(entry)
            changes.add(1, ordering: .releasing)
        }
    }

    /// The entries and their version, if they changed since version `seen`.
    package func entries(after seen: Int) -> (version: Int, entries: [Entry])? {
        guard changes.load(ordering: .acquiring) != seen else { return nil }
        return entries.withLock { (changes.load(ordering: .relaxed), $0) }
    }
}
