// The preview as one HTML page: each cell type and sample, its configurations side by side,
// each the table the HTML format draws (its style sheet and symbols taken once), with check's
// findings beside the sample and a reused cell's differences under it. Light and dark follow
// `prefers-color-scheme` until the page's own button picks one.

import CellKitText
import Foundation

/// The HTML gallery of `cellkit preview --output`.
package enum PreviewPage {
    /// The page of `gallery`, drawn in `.html` (and `.text` where a configuration has no HTML).
    package static func html(_ gallery: PreviewGallery) -> String {
        let pages = gallery.types.flatMap { $0.samples.flatMap { $0.entries.compactMap { $0.drawings[.html] } } }
        let first = pages.first { $0.error == nil && $0.output.contains("</style>") }?.output ?? ""
        let css = themed(between(first, "<style>", "</style>") ?? "")
        let symbols = between(first, "<svg", "</svg>").map { "<svg" + $0 + "</svg>\n" } ?? ""
        var body = ""
        for type in gallery.types { body += section(type) }
        let title = escape("\(gallery.target.name) \(gallery.target.version): cellkit preview")
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(title)</title>
            <style>
            \(css)
            \(galleryCSS)
            </style></head>
            <body>
            \(symbols)<header class="pv"><h1>\(title)</h1>
            <p>\(escape(gallery.target.path)): \(gallery.types.count) cell type\(gallery.types.count == 1 ? "" : "s"), \
            each sample in every configuration; light or dark by the button (at first, the system's setting).</p>
            <button type="button" id="theme" aria-pressed="false">Dark appearance</button></header>
            <main class="pv">
            \(body)</main>
            <script>\(script)</script>
            </body></html>

            """
    }

    /// One cell type: its heading, check's findings about it, each sample.
    static func section(_ type: PreviewTypeGallery) -> String {
        var html = "<section class=\"ty\" aria-labelledby=\"t-\(id(type.identifier))\">\n"
        html += "<h2 id=\"t-\(id(type.identifier))\">\(escape(type.identifier))</h2>\n" + findings(type.findings)
        for sample in type.samples {
            let sid = id(type.identifier + "-" + sample.sample.name)
            html +=
                "<section aria-labelledby=\"s-\(sid)\"><h3 id=\"s-\(sid)\">\(escape(type.identifier)) / "
                + "\(escape(sample.sample.name))</h3>\n" + findings(sample.findings) + "<div class=\"gr\">\n"
            for entry in sample.entries where entry.configuration.theme == .light { html += figure(entry) }
            html += "</div></section>\n"
        }
        return html + "</section>\n"
    }

    /// Check's findings, as a list.
    static func findings(_ lines: [String]) -> String {
        guard !lines.isEmpty else { return "" }
        return "<ul class=\"fd\" aria-label=\"check's findings\">"
            + lines.map { "<li>⚠ check: \(escape($0))</li>" }.joined() + "</ul>\n"
    }

    /// One configuration: its name, its table (or its text, or the error in its place), its faults
    /// and a reused cell's differences.
    static func figure(_ entry: PreviewEntry) -> String {
        let c = entry.configuration
        let name = c.nameWithoutTheme
        var html =
            "<figure class=\"cf w-\(c.width.rawValue)\" data-configuration=\"\(name)\"><figcaption>\(name)</figcaption>"
        if let page = entry.drawings[.html] {
            if let error = page.error {
                html += "<p class=\"er\">⚠ not drawn: \(escape(error))</p>"
            } else {
                html += table(page.output, style: c.style.rawValue)
            }
            html += page.faults.map { "<p class=\"er\">⚠ \(escape($0))</p>" }.joined()
        } else if let text = entry.drawings[.text] {
            html +=
                text.error.map { "<p class=\"er\">⚠ not drawn: \(escape($0))</p>" }
                ?? "<pre class=\"tx\" tabindex=\"0\">\(escape(text.output))</pre>"
            html += text.faults.map { "<p class=\"er\">⚠ \(escape($0))</p>" }.joined()
        }
        if c.reused {
            html +=
                entry.problem != nil
                ? "<p>Reused: not compared, the drawing faulted.</p>"
                : entry.reuseDifferences.isEmpty
                    ? "<p>Reused: the same as on a fresh cell.</p>"
                    : "<p>Reused: differs from a fresh cell.</p><ul class=\"rd\">"
                        + entry.reuseDifferences.map { "<li>\(escape($0))</li>" }.joined() + "</ul>"
        }
        return html + "</figure>\n"
    }

    /// The table of a page the HTML format drew, as a block of the gallery: its `main` made a `div`
    /// of the table's style class (one `main` a page), its symbols left out (the gallery has them once).
    static func table(_ page: String, style: String) -> String {
        guard let inner = between(page, "<main class=\"tb\">", "</main>") else { return "" }
        return "<div class=\"tb \(style)\">\(inner)</div>"
    }

    /// The text between the first `start` and the next `end` after it.
    static func between(_ text: String, _ start: String, _ end: String) -> String? {
        guard let a = text.range(of: start), let b = text.range(of: end, range: a.upperBound..<text.endIndex) else {
            return nil
        }
        return String(text[a.upperBound..<b.lowerBound])
    }

    /// The format's style sheet with its dark rules applied two ways: under `prefers-color-scheme:
    /// dark` unless the page's button chose light, and whenever it chose dark.
    static func themed(_ css: String) -> String {
        let opening = "@media (prefers-color-scheme:dark){"
        var out = "", rest = Substring(css), dark = ""
        while let start = rest.range(of: opening) {
            out += rest[..<start.lowerBound]
            var depth = 1, index = start.upperBound
            while index < rest.endIndex, depth > 0 {
                if rest[index] == "{" { depth += 1 } else if rest[index] == "}" { depth -= 1 }
                index = rest.index(after: index)
            }
            let inner = String(rest[start.upperBound..<rest.index(before: index)])
            out += opening + scoped(inner, under: "html:not([data-theme=light])") + "}"
            dark += scoped(inner, under: "html[data-theme=dark]")
            rest = rest[index...]
        }
        return out + rest + "\n" + dark
            + "\nhtml[data-theme=light]{color-scheme:light}html[data-theme=dark]{color-scheme:dark}"
    }

    /// Rules (`selectors{declarations}`, none nested) with each selector put under `scope`: `:root`
    /// becomes the scope itself.
    static func scoped(_ rules: String, under scope: String) -> String {
        var out = ""
        for rule in rules.split(separator: "}") {
            let parts = rule.split(separator: "{", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let selectors = parts[0].split(separator: ",").map { selector -> String in
                let s = selector.trimmingCharacters(in: .whitespaces)
                return s.hasPrefix(":root") ? scope + s.dropFirst(5) : "\(scope) \(s)"
            }
            out += selectors.joined(separator: ",") + "{" + parts[1] + "}"
        }
        return out
    }

    /// `text` for HTML: markup characters escaped, invisible characters shown.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in TextSanitizer.visible(text) {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    /// An id made of `text`: letters and digits kept.
    static func id(_ text: String) -> String { PreviewSamples.slug(text) }

    /// The gallery's own rules, in the format's colours.
    static let galleryCSS = """
        .pv{margin:0 16px}
        header.pv{display:flex;flex-wrap:wrap;align-items:baseline;gap:8px 16px}
        header.pv h1{margin:0;text-align:start}
        header.pv p{margin:0;flex:1 1 20em}
        #theme{font:inherit;font-size:15px;padding:6px 12px;border-radius:8px;border:1px solid var(--fg);\
        background:var(--cell);color:var(--fg);cursor:pointer}
        #theme[aria-pressed=true]{outline:2px solid var(--fg)}
        .ty>h2{margin:32px 0 8px;padding:0;font-size:22px;line-height:28px;font-weight:700;color:var(--fg);\
        text-transform:none}
        .ty h3{margin:20px 0 8px;font-size:17px}
        .gr{display:flex;flex-wrap:wrap;gap:24px 16px;align-items:flex-start}
        figure.cf{margin:0;width:360px;max-width:100%}
        figure.w-narrow{width:260px}
        figure.w-wide{width:560px}
        figure.w-resized{width:auto}
        figcaption{font-size:13px;line-height:18px;margin:0 0 6px;overflow-wrap:anywhere}
        figure .tb{padding:8px 0}
        .tx{font:13px/16px ui-monospace,monospace;overflow-x:auto;background:var(--cell);padding:8px;margin:0}
        .er,.fd,.rd{font-size:13px;line-height:18px}
        .fd,.rd{margin:4px 0;padding-inline-start:20px}
        """

    /// The button's script: light or dark for the whole page, over the system's choice.
    static let script = """
        (function(){var r=document.documentElement,b=document.getElementById("theme");\
        var m=window.matchMedia("(prefers-color-scheme: dark)");\
        function dark(){return r.dataset.theme?r.dataset.theme==="dark":m.matches}\
        function show(){b.setAttribute("aria-pressed",dark()?"true":"false")}\
        b.addEventListener("click",function(){r.dataset.theme=dark()?"light":"dark";show()});\
        m.addEventListener("change",show);show()})();
        """
}
