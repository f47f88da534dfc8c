// The `html` format: one standalone page that looks like an iOS grouped table.
// Views keep their character-cell frames (a monospace grid), so the page and
// the terminal agree. Every text is escaped; images are inlined as data URIs.

import CellKitDocuments
import CellKitModel
import CellKitRuntime
import CellKitText
import Foundation

/// Writes a self-contained HTML page, row by row.
public struct HTMLFormat: RowFormat {
    /// The catalog whose image files are inlined and whose emoji stand for images without one.
    let assets: AssetCatalog
    private var style = TableStyle.grouped
    private var inlined: [String: String] = [:]  // image name → data URI

    /// A page drawing images from `assets` (usually the document's `assets`).
    public init(assets: AssetCatalog) { self.assets = assets }

    /// As `TextFormat`'s, so the page's rows have the terminal's widths.
    public func contentWidth(tableWidth: Int, style: TableStyle) -> Int {
        TextFormat().contentWidth(tableWidth: tableWidth, style: style)
    }

    /// One line of text is this many em tall.
    static let lineHeight = 1.6

    /// Writes the page's head and style sheet, then the title (also the page's `<title>`) and header.
    public mutating func begin(_ table: TableInfo, width: Int, to out: OutputBuffer) throws {
        style = table.style
        let title = escape(table.title ?? "CellKit table")
        out.write(
            """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title)</title>
            <style>
            body{margin:0;padding:16px 0 32px;background:#f2f2f7;font:15px/\(Self.lineHeight) ui-monospace,"SF Mono",Menlo,"DejaVu Sans Mono",monospace;color:#000}
            .table{width:\(width + 2)ch;margin:0 auto}
            .table.plain{background:#fff}
            h1{font-size:17px;text-align:center;margin:0 0 12px}
            .theader{padding:0 1ch 12px;font-weight:600}
            .section{margin:0 0 24px}
            .section h2{font-size:13px;font-weight:400;color:#6d6d72;text-transform:uppercase;margin:0;padding:0 1ch 6px}
            .plain .section h2{text-transform:none;background:#f2f2f7;font-weight:600;padding:2px 1ch}
            .rows{background:#fff;overflow:hidden}
            .grouped .rows,.insetGrouped .rows{border-radius:10px;border:1px solid #c6c6c8}
            .insetGrouped .rows{margin:0 2ch}
            .footer{font-size:13px;color:#6d6d72;padding:6px 1ch 0;margin:0}
            .row{position:relative;border-bottom:1px solid #c6c6c8;margin-left:0}
            .row:last-child{border-bottom:0}
            .v{position:absolute;overflow:hidden;white-space:pre}
            .v img{width:100%;height:100%;object-fit:contain}
            .small{font-size:12px}
            .photo{border:2px solid rgba(0,0,0,.4);border-radius:4px;box-sizing:border-box;display:flex;align-items:center;justify-content:center}
            .missing{color:#8e8e93;outline:1px dashed #8e8e93}
            </style></head><body>
            <div class="table \(table.style.rawValue)">

            """)
        if table.title != nil { out.write("<h1>\(title)</h1>\n") }
        if let header = table.header { out.write("<div class=\"theader\">\(escape(header))</div>\n") }
    }

    /// Opens the section's `<div>` with its header as an `<h2>`.
    public mutating func beginSection(_ section: SectionInfo, index: Int, to out: OutputBuffer) throws {
        out.write("<div class=\"section\">\n")
        if let header = section.header { out.write("<h2>\(escape(header))</h2>\n") }
        out.write("<div class=\"rows\">\n")
    }

    /// Writes the row as a `<div>` whose views are placed on the character grid; image files are inlined
    /// as data URIs, once per name.
    public mutating func row(_ row: RowLayout, isFirst: Bool, isLast: Bool, to out: OutputBuffer) throws {
        var css = "height:\(em(row.height))"
        if let c = row.backgroundColor { css += ";background:\(c.css)" }
        if let name = row.background.imageName, let uri = dataURI(name) {
            css += ";background-image:url('\(uri)');background-size:100% 100%"
        }
        out.write(
            "<div class=\"row\(row.isSelected ? " selected" : "")\" data-index-path=\"\(row.indexPath)\" data-cell=\"\(escape(row.identifier))\" style=\"\(css)\">"
        )
        for view in row.views { write(view, out) }
        out.write("</div>\n")
    }

    /// Closes the section, with its footer as a paragraph.
    public mutating func endSection(_ section: SectionInfo, index: Int, to out: OutputBuffer) throws {
        out.write("</div>\n")
        if let footer = section.footer { out.write("<p class=\"footer\">\(escape(footer))</p>\n") }
        out.write("</div>\n")
    }

    /// Writes the table footer and closes the page.
    public mutating func end(_ table: TableInfo, to out: OutputBuffer) throws {
        if let footer = table.footer { out.write("<p class=\"footer\">\(escape(footer))</p>\n") }
        out.write("</div></body></html>\n")
    }

    // MARK: Views

    private mutating func write(_ view: PlacedView, _ out: OutputBuffer) {
        let f = view.frame
        var css = "left:\(f.x)ch;top:\(em(f.y));width:\(f.width)ch;height:\(em(f.height))"
        if let c = view.textColor { css += ";color:\(c.css)" }
        if let c = view.backgroundColor { css += ";background:\(c.css)" }
        if view.bold { css += ";font-weight:700" }
        if view.alignment == .center || view.alignment == .right {
            css += ";text-align:\(view.alignment == .center ? "center" : "right")"
        }
        var classes = "v"
        if let name = view.imageName {
            if f.height >= 3 { classes += " photo" } else { css += ";text-align:center" }
            if view.missingImage { classes += " missing" }
            out.write(
                "<div class=\"\(classes)\" style=\"\(css)\" title=\"\(escape(name))\">\(imageHTML(name, glyph: view.lines.first.map(String.init) ?? ""))</div>"
            )
        } else {
            // A smaller font only inside: the frame stays in the table's character grid.
            let text = view.lines.map { escape(String($0)) }.joined(separator: "\n")
            out.write(
                "<div class=\"\(classes)\" style=\"\(css)\">\(view.small ? "<span class=\"small\">\(text)</span>" : text)</div>"
            )
        }
    }

    /// An image: the file inlined, else the emoji, else the glyph.
    private mutating func imageHTML(_ name: String, glyph: String) -> String {
        if let uri = dataURI(name) { return "<img alt=\"\(escape(name))\" src=\"\(uri)\">" }
        return escape(assets.image(named: name)?.emoji ?? glyph)
    }

    private mutating func dataURI(_ name: String) -> String? {
        if let known = inlined[name] { return known.isEmpty ? nil : known }
        var uri = ""
        // The bytes checked when the catalog loaded (a PNG, or a self-contained SVG, within the size limits);
        // a catalog built in code has its file checked the same way now. Anything else draws the emoji or glyph.
        if let image = assets.image(named: name),
            let inline = image.inline ?? image.file.flatMap({ try? ImageFile.load($0, name: $0).get() })
        {
            uri = "data:\(inline.mediaType);base64," + Data(inline.bytes).base64EncodedString()
        }
        inlined[name] = uri
        return uri.isEmpty ? nil : uri
    }

    private func em(_ lines: Int) -> String {
        let v = Double(lines) * Self.lineHeight
        return v == v.rounded() ? "\(Int(v))em" : "\(v)em"
    }
}

/// Text safe inside HTML elements and attribute values; control characters made visible.
func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in TextSanitizer.visible(text, keepNewlines: true).unicodeScalars {
        switch scalar {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}
