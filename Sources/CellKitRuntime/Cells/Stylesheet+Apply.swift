// Applying a stylesheet's named style to a view, for `ck_apply_style` (ABI 1.1).

import CCellKit
import CellKitModel

extension Stylesheet {
    /// Whether the sheet has a style `name` (`view_apply_optional_style` asks before applying).
    func has(_ name: String) -> Bool { styles[name] != nil }

    /// Applies the style `name` to `view`; throws for an unknown name.
    func apply(_ name: String, to view: View) throws(CellError) {
        guard let style = styles[name] else {
            let known = styles.keys.sorted().joined(separator: ", ")
            let sheet = source.map { " in \($0)" } ?? ""
            throw CellError(
                status: CK_ERR_NOT_FOUND,
                message: "no style '\(name)'\(sheet); styles: \(known.isEmpty ? "none" : known)")
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
