// What `cellkit check` does with each hook of the hook table (`HookKind`). Check names no hook
// kind elsewhere: its workers and findings ask for a role, so a new hook kind fails to compile
// here (the switches have no `default:`) until check decides how to run it and what its
// findings say of it.

import CellKitRuntime

/// A hook's part in `cellkit check`: one role for each hook kind, one kind for each role.
package enum CheckRole: Sendable, CaseIterable {
    /// Sets up a new cell (`initCellFor`): blamed for a reused cell's leftovers when the type
    /// has no hook that shows the row.
    case makesCell
    /// Shows the row (`customizeCellFor`): marked for the dequeue of a reused cell, blamed for a
    /// failed host call in a dequeue through the routine and for a reused cell's leftovers; a type
    /// without it is a finding.
    case showsRow
    /// Lays a reused cell out again at another width (`layoutSubviewsFor`): where a subview left
    /// outside its content view is to be placed.
    case followsWidth
    /// Answers the row's height (`heightForCellFor`): its answer is judged.
    case answersHeight
    /// Resets a used cell for reuse (`prepareCellForReuseFor`): where a reused cell's leftovers
    /// may be reset.
    case resetsCell

    /// The hook kind in this role.
    package var hook: HookKind {
        switch self {
        case .makesCell: .initCell
        case .showsRow: .customizeCell
        case .followsWidth: .layoutSubviews
        case .answersHeight: .heightForCell
        case .resetsCell: .prepareCellForReuse
        }
    }

    /// The role of the hook `kind`.
    package init(_ kind: HookKind) {
        switch kind {
        case .initCell: self = .makesCell
        case .customizeCell: self = .showsRow
        case .layoutSubviews: self = .followsWidth
        case .heightForCell: self = .answersHeight
        case .prepareCellForReuse: self = .resetsCell
        }
    }

    /// The `CellQueue` call that runs the hook in a unit through the routine (a reuse, right to
    /// left, the table's rows): the worker marks the hook before it, so that a fault names it.
    package var queueCall: QueueCall {
        switch self {
        case .makesCell, .showsRow, .followsWidth: .dequeue
        case .answersHeight: .height
        case .resetsCell: .recycle
        }
    }

    /// A call of `CellQueue` that runs hooks.
    package enum QueueCall: Sendable {
        /// `dequeueCell`: init and customize on a new cell; customize and, at another width,
        /// layout on a reused one (its mark names the routine, or the hook that shows the row).
        case dequeue
        /// `height(of:)`.
        case height
        /// `recycle`.
        case recycle
    }
}
