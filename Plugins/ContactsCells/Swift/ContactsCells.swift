// Seed 002's cells, written in Swift: a "Partner" row in the style of
// Contacts.app (a bordered photo with a heart sticker, indented bold name,
// "Partner" subtitle, disclosure indicator) and plain "Other Cell" rows.

import CellKitPlugin

private enum Tag {
    static let photo: Int32 = 1
    static let heart: Int32 = 2
}

/// Once per new Partner cell: subtitle style, the photo and sticker subviews, indentation past the photo.
@_cdecl("initCellForPartner")
public func initCellForPartner(_ raw: UnsafeMutablePointer<ck_cell>?, _ indexPath: ck_index_path) {
    let cell = Cell(raw)
    cell.style = CK_STYLE_SUBTITLE
    cell.indentationLevel = 1
    cell.indentationWidth = 9  // the photo's width plus a gap, as PHOTO_INDENT in the seed
    cell.textLabel.fontSize = 18
    cell.textLabel.fontWeight = CK_WEIGHT_BOLD
    // An image view 3 lines or taller is drawn framed, like the seed's bordered photo. Both keep to the
    // leading edge (a flexible right margin): right to left they mirror to the right, as the indented
    // labels do (cellkit.h, RIGHT TO LEFT).
    let photo = cell.addSubview(CK_VIEW_IMAGE, frame: ck_rect(x: 0, y: 0, width: 8, height: 4), tag: Tag.photo)
    photo?.autoresizingMask = .flexibleRightMargin
    if let heart = cell.addSubview(CK_VIEW_IMAGE, frame: ck_rect(x: 5, y: 3, width: 2, height: 1), tag: Tag.heart) {
        heart.imageName = "heart"
        heart.autoresizingMask = .flexibleRightMargin
    }
    cell.accessoryType = CK_ACCESSORY_DISCLOSURE_INDICATOR
}

/// Every time: the partner's name and photo from the row's data, or the prompt to choose one.
@_cdecl("customizeCellForPartner")
public func customizeCellForPartner(_ raw: UnsafeMutablePointer<ck_cell>?, _ indexPath: ck_index_path) {
    let cell = Cell(raw)
    let name = cell.data.string("name") ?? ""
    cell.textLabel.text = name.isEmpty ? "Choose ..." : name
    cell.detailTextLabel.text = "Partner"
    cell.view(withTag: Tag.photo)?.imageName = cell.data.string("photo") ?? "GenericContact"
}

/// The partner row is four lines tall, like the seed's 63-point photo cell; others take the default.
@_cdecl("heightForCellForPartner")
public func heightForCellForPartner(_ row: Int64) -> Double {
    row == 0 ? 4 : 0
}

/// Plain rows of the other sections.
@_cdecl("customizeCellForOtherCell")
public func customizeCellForOtherCell(_ raw: UnsafeMutablePointer<ck_cell>?, _ indexPath: ck_index_path) {
    Cell(raw).textLabel.text = "Other Cell"
}
