// The HTML format's bytes, without a browser: escaping on bytes, the whole text of a cut label,
// the state on the row, image classes that mean the same in every render.

import CellKitTestSupport
import Foundation
import Testing

@Suite("HTML format")
struct HTMLFormatTests {
    static func html(_ table: String, width: Int = 40) throws -> String {
        let folder = try Render.write(["t.yaml": table])
        return try Render.table(folder + "/t.yaml", .html, width: width).output
    }

    @Test("text is escaped on its bytes: markup and controls replaced, format characters kept")
    func escaping() throws {
        let page = try Self.html(
            """
            title: "<T> & 'q'"
            sections:
              - rows:
                  - {cell: Default, text: "<b>&\\"'\\e[1m\\tx\\u0085y\\u202Ez\\u00ADw\\u200F"}
            """)
        #expect(page.contains("<title>&lt;T&gt; &amp; &#39;q&#39;</title>"))
        // Format characters (RLO, soft hyphen, RLM) reach the browser as they are; the label is isolated.
        #expect(page.contains(">&lt;b&gt;&amp;&quot;&#39;␛[1m x\u{FFFD}y\u{202E}z\u{00AD}w\u{200F}</div>"))
        #expect(!page.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x85 || $0.value == 0x09 })
        #expect(!page.contains("‹U+"), "no placeholder for an invisible character")
    }

    @Test("a label cut in the terminal has its whole text in the page; the row carries its state")
    func wholeText() throws {
        let detail = "MyHomeNetwork-5GHz-Extended-Guest-Upstairs"
        let table = """
            selected: {section: 0, row: 0}
            sections:
              - style: value1
                rows:
                  - {cell: Value1, text: Wi-Fi, detail: \(detail), accessory: checkmark}
                  - {cell: Value1, text: Other, accessory: disclosureIndicator}
            """
        let text = try Render.table(try Render.write(["t.yaml": table]) + "/t.yaml", .text, width: 30).output
        #expect(!text.contains(detail), "the terminal cuts it")
        let page = try Self.html(table, width: 30)
        #expect(page.contains(">\(detail)</div>"))
        #expect(page.contains(#"<li class="r sel" aria-current="true" data-ip="0.0">"#))
        #expect(page.contains(#"<li class="r" data-ip="0.1">"#), "no state on the other row")
        #expect(page.contains(##"<svg class="a check" role="img" aria-label="checked"><use href="#ck-check"/></svg>"##))
        #expect(page.contains(##"<svg class="a chev" aria-hidden="true"><use href="#ck-chev"/></svg>"##))
        #expect(page.contains("<ul>\n"), "a plain list: the page has no script to make a listbox work")
    }

    @Test("a drawn row's views in reading order: the contact's photo before the name it is drawn left of")
    func readingOrder() throws {
        let page = try Render.table(Render.manifest("seed-002-contacts.yaml"), .html).output
        let row = try #require(page.components(separatedBy: "<li").first { $0.contains("Ada Lovelace") })
        let photo = try #require(row.range(of: "aria-label=\"Contact photo\""))
        let name = try #require(row.range(of: ">Ada Lovelace<"))
        #expect(photo.lowerBound < name.lowerBound, "read top to bottom: the photo (lines 1–4) first: \(row)")
        // The cell added the photo after its labels: it still paints in that order (z-index).
        #expect(row.contains("z-index:2\"><svg class=\"ii\""), "\(row)")
        // A row whose views are in reading order already is written as the cell ordered them.
        // (ProjectCells: the logos beside the description stay after it, as the cell added them.)
        let projects = try Render.table(Render.manifest("seed-003-projects.yaml"), .html).output
        #expect(!projects.components(separatedBy: "<main")[1].contains("z-index:"), "no layer where nothing moved")
    }

    @Test("an image file is in the page once, as an SVG image named after the image, whatever came before")
    func imageClasses() throws {
        let catalog = "images:\n  a: {glyph: A, file: a.svg, label: Letter A}\n  b: {glyph: B, file: b.svg}\n"
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4"/></svg>"#
        var classes: [[String: String]] = []
        for order in [["a", "b", "a"], ["b", "a"]] {
            let rows = order.map { "      - {cell: Default, text: x, image: \($0)}" }.joined(separator: "\n")
            let folder = try Render.write([
                "assets.yaml": catalog, "a.svg": svg, "b.svg": svg,
                "t.yaml": "assets: assets.yaml\nsections:\n  - rows:\n\(rows)\n",
            ])
            let page = try Render.table(folder + "/t.yaml", .html, width: 40).output
            #expect(page.components(separatedBy: "<image id=\"i").count - 1 == 2, "each file once")
            #expect(!page.contains("<style>."), "no style element between rows (invalid HTML)")
            var named: [String: String] = [:]
            // `a` has a label: named for screen readers; `b` has none: decorative, hidden.
            for (name, attributes) in [("a", #"role="img" aria-label="Letter A""#), ("b", #"aria-hidden="true""#)] {
                let match = try #require(
                    page.firstMatch(
                        of: try Regex(
                            #"<span class="iv" "# + attributes + ##"><svg class="ii"><use href="#(i[0-9a-f]+)""##)),
                    "\(name)")
                named[name] = String(match.output[1].substring!)
            }
            classes.append(named)
        }
        #expect(classes[0] == classes[1])
        #expect(classes[0]["a"] != classes[0]["b"])
    }
}
