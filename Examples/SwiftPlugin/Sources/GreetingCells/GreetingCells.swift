// Two cell types written in Swift. The host finds the hooks by their C names
// (`initCellFor<Id>`, `customizeCellFor<Id>`, `heightForCellFor<Id>`), which
// @_cdecl gives them. They must be `public`: an internal @_cdecl function is
// dropped from release builds, and the cell type disappears with it.

import CellKitPlugin

// MARK: - Greeting: "Hello, <name>!" with a subtitle

/// Once per new cell: the look every Greeting row shares.
@_cdecl("initCellForGreeting")
public func initCellForGreeting(_ raw: UnsafeMutablePointer<ck_cell>?, _ indexPath: ck_index_path) {
    let cell = Cell(raw)
    cell.style = CK_STYLE_SUBTITLE
    cell.textLabel.fontWeight = CK_WEIGHT_BOLD
    cell.textLabel.textColor = rgb(0, 90, 200)
    cell.detailTextLabel.numberOfLines = 0  // wrap the message over as many lines as it needs
    cell.accessoryType = CK_ACCESSORY_DISCLOSURE_INDICATOR
}

/// Every time a cell is handed out for a row: this row's texts, from its data.
@_cdecl("customizeCellForGreeting")
public func customizeCellForGreeting(_ raw: UnsafeMutablePointer<ck_cell>?, _ indexPath: ck_index_path) {
    let cell = Cell(raw)
    let name = cell.data.string("name") ?? "row \(indexPath.row)"
    cell.textLabel.text = "Hello, \(name)!"
    cell.detailTextLabel.text = cell.data.string("message") ?? "Greeted by a Swift plugin."
}

// MARK: - Badge: a title, a count and a note in tagged subviews, a custom accessory

private enum Tag {
    static let title: Int32 = 1
    static let count: Int32 = 2
    static let note: Int32 = 3
}

/// Once per new cell: three labels, found later by their tags, and a star as the accessory view.
@_cdecl("initCellForBadge")
public func initCellForBadge(_ raw: UnsafeMutablePointer<ck_cell>?, _ indexPath: ck_index_path) {
    let cell = Cell(raw)
    // The accessory first: the content view's width leaves out the margin and the accessory (ABI 1.2).
    if let star = cell.setAccessoryView(CK_VIEW_IMAGE, frame: ck_rect(x: 0, y: 0, width: 1, height: 1)) {
        star.imageName = "star"
    }
    let width = Int32(cell.contentView.frame.width)  // the columns subviews show in
    let countWidth: Int32 = 6, countX = width - countWidth - 1  // a gap before the star
    // Autoresizing masks: a reused cell shown at another width (a resized terminal) keeps the count
    // against the right edge and the title and note across the row (ABI 1.3).
    let title = cell.addSubview(
        CK_VIEW_LABEL, frame: ck_rect(x: 1, y: 0, width: max(1, countX - 2), height: 1), tag: Tag.title)
    title?.autoresizingMask = .flexibleWidth
    if let count = cell.addSubview(
        CK_VIEW_LABEL, frame: ck_rect(x: countX, y: 0, width: countWidth, height: 1), tag: Tag.count)
    {
        count.alignment = CK_ALIGN_RIGHT
        count.autoresizingMask = .flexibleLeftMargin
        count.fontWeight = CK_WEIGHT_BOLD
        count.textColor = rgb(200, 30, 30)
    }
    if let note = cell.addSubview(
        CK_VIEW_LABEL, frame: ck_rect(x: 3, y: 1, width: max(1, width - 4), height: 1), tag: Tag.note)
    {
        note.fontSize = 12
        note.autoresizingMask = .flexibleWidth
        note.textColor = rgb(120, 120, 120)
    }
}

/// Every time: the texts from the row's data. A cell is reused, so every view is set
/// on every row: a missing count or note hides its view rather than leaving the last row's.
@_cdecl("customizeCellForBadge")
public func customizeCellForBadge(_ raw: UnsafeMutablePointer<ck_cell>?, _ indexPath: ck_index_path) {
    let cell = Cell(raw)
    cell.view(withTag: Tag.title)?.text = cell.data.string("title") ?? "Badge \(indexPath.row)"
    if let badge = cell.view(withTag: Tag.count) {
        // Clamped before the conversion: Int(_:) traps on a number out of its range (check's -1e308).
        let count = Int(min(max(cell.data.number("count") ?? 0, 0), 1000))
        badge.isHidden = count == 0
        badge.text = count > 99 ? "(99+)" : "(\(count))"
    }
    if let note = cell.view(withTag: Tag.note) {
        let text = cell.data.string("note")
        note.isHidden = text == nil
        note.text = text ?? ""
    }
}

/// The row's height in lines, asked after customize ran: two lines when the row has a note.
@_cdecl("heightForCellForBadge")
public func heightForCellForBadge(_ raw: UnsafeMutablePointer<ck_cell>?, _ indexPath: ck_index_path) -> Double {
    Cell(raw).data.string("note") == nil ? 1 : 2
}
