// Seeds 000/001 ("Easy custom UITableView drawing"), written in Swift: rows
// whose background and selected background are picked by the row's position in
// its section, an image on the left, a custom indicator as the accessory view,
// and two labels laid out once, when the cell is made.

import CellKitPlugin

private enum Tag {
    static let top: Int32 = 1
    static let bottom: Int32 = 2
}

/// Once per new cell: the labels, placed right of the image and left of the indicator.
@_cdecl("initCellForDrawnCell")
public func initCellForDrawnCell(_ raw: UnsafeMutablePointer<ck_cell>?, _ indexPath: ck_index_path) {
    let cell = Cell(raw)
    let width = Int32(cell.contentView.frame.width)
    let left: Int32 = 1 + 2 + 1  // padding, the image's two columns, a gap
    let labelWidth = max(1, width - left - 3)  // room for the indicator
    if let top = cell.addSubview(
        CK_VIEW_LABEL, frame: ck_rect(x: left, y: 0, width: labelWidth, height: 1), tag: Tag.top)
    {
        top.textColor = rgb(64, 0, 0)  // the seed's dark red, 0.25/0/0
        top.highlightedTextColor = rgb(255, 255, 230)
        top.fontWeight = CK_WEIGHT_BOLD
        top.autoresizingMask = .flexibleWidth  // follows the row's width when the cell is reused at another
    }
    if let bottom = cell.addSubview(
        CK_VIEW_LABEL, frame: ck_rect(x: left, y: 1, width: labelWidth, height: 1), tag: Tag.bottom)
    {
        bottom.textColor = rgb(64, 0, 0)
        bottom.highlightedTextColor = rgb(255, 255, 230)
        bottom.fontSize = 12
        bottom.autoresizingMask = .flexibleWidth
    }
    if let indicator = cell.setAccessoryView(CK_VIEW_IMAGE, frame: ck_rect(x: 0, y: 0, width: 1, height: 1)) {
        indicator.imageName = "indicator"
    }
}

/// Every time: the row's texts, its image, and its backgrounds for where it stands.
@_cdecl("customizeCellForDrawnCell")
public func customizeCellForDrawnCell(_ raw: UnsafeMutablePointer<ck_cell>?, _ indexPath: ck_index_path) {
    let cell = Cell(raw)
    cell.view(withTag: Tag.top)?.text = "Cell at row \(indexPath.row)."
    cell.view(withTag: Tag.bottom)?.text = cell.data.string("info") ?? "Some other information."
    cell.imageView.imageName = indexPath.row % 2 == 0 ? "imageA" : "imageB"
    let position = cell.position
    let name =
        switch (position.is_first != 0, position.is_last != 0) {
        case (true, true): "topAndBottomRow"
        case (true, false): "topRow"
        case (false, true): "bottomRow"
        case (false, false): "middleRow"
        }
    cell.backgroundImage = name
    cell.selectedBackgroundImage = name + "Selected"
}
