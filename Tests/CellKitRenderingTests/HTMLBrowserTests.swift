// The HTML format as a browser draws it: every bundled table and a set of layout cases rendered
// to HTML, opened in headless Chromium (Scripts/html-browser.py drives it over the DevTools
// pipe) and measured there (Scripts/html-measure.js): the platform font, no clipped glyph, rows of
// 44 px or more in list semantics, accessories inside the trailing inset, no horizontal overflow at
// 390 px, the dark palette under prefers-color-scheme: dark, the selected and checked state, and
// the whole text of a truncated label in the page. CI installs chromium and sets
// CELLKIT_REQUIRE_CHROMIUM=1: there a missing browser fails these tests instead of skipping them.
// CELLKIT_UPDATE_SCREENSHOTS=1 also writes the showcase's screenshots into Manifests/.

import CellKitRuntime
import CellKitTestSupport
import Foundation
import Testing

@Suite("HTML in a browser", .serialized)
struct HTMLBrowserTests {
    static let required = ProcessInfo.processInfo.environment["CELLKIT_REQUIRE_CHROMIUM"] == "1"
    static let chromium = Fixtures.tool("chromium") ?? Fixtures.tool("chromium-browser")
    /// Whether the tests can run: a browser installed, or one required (and then they say it is missing).
    static let available = required || chromium != nil

    static let bundled = [
        "seed-004-foobar", "seed-003-projects", "seed-000-custom-drawn", "seed-002-contacts", "showcase",
    ]

    /// A label too long for a 390 px row, whose whole text must still be in the page.
    static let longDetail = "MyHomeNetwork-5GHz-Extended-Guest-Upstairs-Office-Corner"
    static let paragraph =
        "A paragraph long enough to wrap over several lines in a phone-sized window, so that the browser "
        + "clamps it at the label's number of lines and ends it with an ellipsis, keeping every word in the page."

    /// A C plugin for the layout cases: the row's text and detail, number of lines, break mode, accessory.
    static let linesPlugin = """
        #include "cellkit.h"
        CK_PLUGIN("LinesCells", "1.0.0", "HTML layout cases");
        static void lines(ck_view *v, const ck_data *data, double n, double mode, int hasMode) {
            v->host->view_set_int(v, CK_VIEW_NUMBER_OF_LINES, (int64_t)n);
            if (hasMode) v->host->view_set_int(v, CK_VIEW_LINE_BREAK_MODE, (int64_t)mode);
            (void)data;
        }
        CK_SIGNATURE(customizeCellForLines, "void (cell, data)");
        CK_EXPORT void customizeCellForLines(ck_cell *cell, const ck_data *data) {
            const char *s = 0; double n = 1, mode = 4, accessory = 0;
            if (cell->host->data_string(data, "text", &s) == CK_OK) ck_set_text(ck_text_label(cell), s);
            if (cell->host->data_string(data, "detail", &s) == CK_OK) ck_set_text(ck_detail_text_label(cell), s);
            cell->host->data_number(data, "lines", &n);
            int hasMode = cell->host->data_number(data, "mode", &mode) == CK_OK;
            lines(ck_text_label(cell), data, n, mode, hasMode);
            lines(ck_detail_text_label(cell), data, n, mode, hasMode);
            if (cell->host->data_number(data, "accessory", &accessory) == CK_OK)
                ck_set_accessory(cell, (ck_accessory_type)accessory);
        }
        """

    /// The layout cases: value1 with a detail too long for a phone, a selected and checked row, every
    /// line break mode at 1, 2 and unlimited lines, value2, bidi and invisible characters, hostile markup.
    static func cases(style: String) -> String {
        """
        title: Layout cases (\(style))
        style: \(style)
        width: 64
        selected: {section: 0, row: 1}
        sections:
          - header: Value1
            style: value1
            rows:
              - {cell: Lines, text: Wi-Fi, detail: \(longDetail), accessory: 1}
              - {cell: Lines, text: Row 0.1 (selected), detail: value, accessory: 2}
              - {cell: Lines, text: Info, detail: detail button, accessory: 3}
          - header: Subtitle, lines and break modes
            footer: Numbers of lines 2, 0 and 1 with every break mode.
            style: subtitle
            rows:
              - {cell: Lines, text: Two lines, detail: "\(paragraph)", lines: 2}
              - {cell: Lines, text: All lines, detail: "\(paragraph)", lines: 0}
              - {cell: Lines, text: Word wrap, detail: "\(paragraph)", lines: 1, mode: 0}
              - {cell: Lines, text: Char wrap, detail: "\(paragraph)", lines: 2, mode: 1}
              - {cell: Lines, text: Clip, detail: "\(paragraph)", lines: 1, mode: 2}
              - {cell: Lines, text: Head, detail: "\(paragraph)", lines: 1, mode: 3}
              - {cell: Lines, text: Middle, detail: "\(paragraph)", lines: 1, mode: 5}
          - header: Value2
            style: value2
            rows:
              - {cell: Lines, text: Address, detail: "1 Infinite Loop, Cupertino, California 95014, United States"}
          - header: Text
            rows:
              - {cell: Default, text: "Donau\\u00ADdampf\\u00ADschiff\\u00ADfahrts\\u00ADgesellschafts\\u00ADkapitäns\\u00ADmütze"}
              - {cell: Default, text: "RTL: \\u05E9\\u05DC\\u05D5\\u05DD \\u05E2\\u05D5\\u05DC\\u05DD\\u200F! then LTR", accessory: disclosureIndicator}
              - {cell: Default, text: "<b>not bold</b> & \\"quoted\\" \\e[31m", image: nowhere}
              - {cell: Default, text: "https://example.com/a/very/long/path/with\\u200Bbreaks\\u200Bwhere\\u200Ballowed/and-more"}
        """
    }

    /// One page to measure: its file, viewport width, colour scheme and optional screenshot.
    struct Job: Encodable {
        let page: String
        let width: Int
        var dark = false
        /// A CSS media type to emulate ("print"); nil for the screen.
        var media: String?
        /// Device pixels per CSS pixel (2 with half the width: a 200 % zoom).
        var scale = 1
        var screenshot: String?
        /// axe-core's file: run it on the page and report its violations.
        var axe: String?
        /// A script evaluated instead of html-measure.js (its value, a JSON string, is the report).
        var script: String?

        init(
            page: String, width: Int, dark: Bool = false, media: String? = nil, scale: Int = 1,
            screenshot: String? = nil, axe: String? = nil, script: String? = nil
        ) {
            (self.page, self.width, self.dark, self.media, self.scale) = (page, width, dark, media, scale)
            (self.screenshot, self.axe, self.script) = (screenshot, axe, script)
        }
    }

    /// An element's box in the page's pixels (html-measure.js's rows, labels, images, lists, footer),
    /// with what the script says of it: a row's index path, tab index and break; a label's classes,
    /// whole text, the part that shows and on how many lines, colour, contrast, truncation mark.
    struct Box: Decodable, CustomStringConvertible {
        let left, right, top, bottom, width, height: Double
        var ip: String?
        var tabindex: String?
        var breakInside = ""
        var className = ""
        var full = ""
        var shown = ""
        var lines = 0
        var color = ""
        var contrast = 0.0
        var mark = ""
        var overflows = false
        /// An accessory's computed CSS transform ("none", or a matrix: mirrored is `matrix(-1, …)`).
        var transform = ""

        private enum Keys: String, CodingKey {
            case left, right, top, bottom, width, height, ip, tabindex, breakInside, className, full, shown, lines
            case color, contrast, mark, overflows, transform
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            (left, right) = (try c.decode(Double.self, forKey: .left), try c.decode(Double.self, forKey: .right))
            (top, bottom) = (try c.decode(Double.self, forKey: .top), try c.decode(Double.self, forKey: .bottom))
            (width, height) = (try c.decode(Double.self, forKey: .width), try c.decode(Double.self, forKey: .height))
            ip = try c.decodeIfPresent(String.self, forKey: .ip)
            tabindex = try c.decodeIfPresent(String.self, forKey: .tabindex)
            breakInside = try c.decodeIfPresent(String.self, forKey: .breakInside) ?? ""
            className = try c.decodeIfPresent(String.self, forKey: .className) ?? ""
            full = try c.decodeIfPresent(String.self, forKey: .full) ?? ""
            shown = try c.decodeIfPresent(String.self, forKey: .shown) ?? ""
            lines = try c.decodeIfPresent(Int.self, forKey: .lines) ?? 0
            color = try c.decodeIfPresent(String.self, forKey: .color) ?? ""
            contrast = try c.decodeIfPresent(Double.self, forKey: .contrast) ?? 0
            mark = try c.decodeIfPresent(String.self, forKey: .mark) ?? ""
            overflows = try c.decodeIfPresent(Bool.self, forKey: .overflows) ?? false
            transform = try c.decodeIfPresent(String.self, forKey: .transform) ?? ""
        }

        var description: String {
            "\(ip ?? "") \(className) [\(left), \(top)) \(width)×\(height) shown \"\(shown)\" on \(lines) lines"
        }
    }

    /// One axe-core rule a page breaks: its id, impact, help and the elements (selector: summary).
    struct Violation: Decodable, CustomStringConvertible {
        let id: String
        let impact: String?
        let help: String
        let nodes: [String]
        var description: String { "\(id) (\(impact ?? "")): \(help) — \(nodes.prefix(3).joined(separator: "; "))" }
    }

    /// What html-measure.js reports of a page.
    struct Report: Decodable {
        let failures: [String]
        let truncated: [String]
        let width: Int
        let scrollWidth: Int
        let selected: [String]
        let checked: [String]
        let rows: Int
        let fontFamily: String
        let background: String
        let color: String
        let cell: String
        let texts: [String]
        let rowBoxes: [Box]
        let labelBoxes: [Box]
        let imageBoxes: [Box]
        /// The standard accessories' boxes (absent from reports of an older measuring script).
        var accessoryBoxes: [Box]? = nil
        /// Each row's separator line, and each section header's text (absent likewise).
        var separators: [Box]? = nil
        var headerBoxes: [Box]? = nil
        /// Each section footer's text, and every view on a drawn row's grid (absent likewise).
        var footerBoxes: [Box]? = nil
        var gridBoxes: [Box]? = nil
        let lists: [Box]
        let tableFooter: Box?
        let moreChevron: String
        /// axe-core's violations, when the job asked for them.
        var axe: [Violation]? = nil
    }

    /// Whether a colour emoji font is installed (Debian's fonts-noto-color-emoji, as most desktops
    /// have one): the pages are then measured with it and without it (issue 41: glyphs that fit
    /// 20 px boxes in one font overflowed in the other). CI installs it.
    static let emojiFont: Bool = {
        guard let fcList = Fixtures.tool("fc-list") else { return false }
        return (try? Fixtures.output(fcList, [":color=true", "family"]))?.isEmpty == false
    }()

    /// The font settings pages are measured in (true: with a colour emoji font): without one always;
    /// with one too when installed (and required under CI).
    static func fontSettings() throws -> [Bool] {
        if required {
            try #require(emojiFont, "no colour emoji font: apt-get install fonts-noto-color-emoji (CI does)")
        }
        return emojiFont ? [true, false] : [false]
    }

    /// Measures `jobs` in one browser; their reports in order. `withoutEmojiFont`: as on a machine
    /// with no colour emoji font, whatever this one has.
    static func measure(_ jobs: [Job], withoutEmojiFont: Bool = false) throws -> [Report] {
        let chromium = try #require(chromium, "chromium is not installed (apt-get install chromium); CI installs it")
        let input = try Fixtures.folder() + "/jobs.json"
        try JSONEncoder().encode(jobs).write(to: URL(fileURLWithPath: input))
        let output = try Fixtures.output(
            "/bin/sh",
            [
                "-c", "python3 \"$0\" --chromium \"$1\" $3 < \"$2\"", Render.root + "/Scripts/html-browser.py",
                chromium,
                input, withoutEmojiFont ? "--without-emoji-font" : "",
            ])
        return try JSONDecoder().decode([Report].self, from: Data(output.utf8))
    }

    /// `html` written to a new file; its path.
    static func page(_ html: String, _ name: String) throws -> String {
        let path = try Fixtures.folder(name) + "/\(name).html"
        try html.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The standalone page's promises, read in its bytes: no script, nothing loaded from elsewhere.
    static func checkStandalone(_ html: String, _ name: String) {
        for forbidden in ["<script", "<link", "src=\"http", "url(http", "@import", "<iframe"] {
            #expect(!html.contains(forbidden), "\(name) has \(forbidden)")
        }
        #expect(html.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil, "\(name) has an event handler")
        let css = html.components(separatedBy: "<style>")[1].components(separatedBy: "</style>")[0]
        #expect(css.utf8.count < 6_000, "\(name): \(css.utf8.count) bytes of CSS")
    }

    @Test(
        "every bundled table and the layout cases fit 390 px with nothing clipped, in list semantics",
        .enabled(if: available, "chromium is not installed (apt-get install chromium); CI installs it"))
    func narrow() throws {
        var jobs: [Job] = [], names: [String] = []
        for name in Self.bundled {
            let html = try Render.table(Render.manifest(name + ".yaml"), .html).output
            Self.checkStandalone(html, name)
            jobs.append(Job(page: try Self.page(html, name), width: 390))
            names.append(name)
        }
        let registry = try Self.casesRegistry()
        for style in ["insetGrouped", "grouped", "plain"] {
            let folder = try Render.write(["cases.yaml": Self.cases(style: style)], name: "cases" + style)
            let (html, _) = try Render.table(folder + "/cases.yaml", .html, registry: registry)
            Self.checkStandalone(html, style)
            for width in [390, 800] { jobs.append(Job(page: try Self.page(html, "cases-\(style)"), width: width)) }
            names += ["cases \(style) 390", "cases \(style) 800"]
        }
        for withEmoji in try Self.fontSettings() {
            try Self.checkNarrow(
                Self.measure(jobs, withoutEmojiFont: !withEmoji), jobs, names,
                withEmoji ? "emoji font" : "no emoji font")
        }
    }

    /// The narrow pages' promises, for reports measured with or without an emoji font (`fonts`).
    static func checkNarrow(_ reports: [Report], _ jobs: [Job], _ names: [String], _ fonts: String) throws {
        try #require(reports.count == jobs.count)
        for (name, report) in zip(names.map { $0 + " (\(fonts))" }, reports) {
            #expect(report.failures.isEmpty, "\(name): \(report.failures)")
            #expect(report.scrollWidth <= report.width, "\(name): \(report.scrollWidth) px wide in \(report.width)")
            #expect(report.rows > 0, "\(name)")
            #expect(!report.fontFamily.lowercased().hasPrefix("monospace"), "\(name)")
            #expect(report.fontFamily.contains("-apple-system") && report.fontFamily.contains("sans-serif"))
        }
        for (name, report) in zip(names, reports) where name.hasPrefix("cases") {
            #expect(report.selected == ["0.1"], "\(name)")
            #expect(report.checked == ["0.1"], "\(name)")
            // The whole strings are in the page, however the browser cut them.
            #expect(report.texts.contains(longDetail), "\(name)")
            #expect(report.texts.filter { $0 == paragraph }.count == 7, "\(name)")
            #expect(report.texts.contains("<b>not bold</b> & \"quoted\" ␛[31m"), "\(name)")
            // Invisible characters reach the browser as they are: soft hyphens, the RLM, zero-width spaces.
            #expect(report.texts.contains { $0.hasPrefix("Donau\u{00AD}dampf") }, "\(name)")
            #expect(report.texts.contains { $0.contains("\u{05DD}\u{200F}!") }, "\(name)")
            #expect(report.texts.contains { $0.contains("with\u{200B}breaks") }, "\(name)")
        }
        // At 390 px the long detail and the paragraphs are cut by CSS, their text whole in the DOM.
        let phone = reports[bundled.count]
        #expect(phone.truncated.contains(longDetail), "\(phone.truncated)")
        #expect(!phone.truncated.contains("Wi-Fi"), "value1 keeps its label whole and cuts the detail, as UIKit does")
        #expect(phone.truncated.contains(paragraph), "\(phone.truncated)")
    }

    @Test(
        "the showcase in light and dark: the palettes, the selected row; its screenshots",
        .enabled(if: available, "chromium is not installed (apt-get install chromium); CI installs it"))
    func showcase() throws {
        let html = try Render.table(Render.manifest("showcase.yaml"), .html).output
        let path = try Self.page(html, "showcase")
        let update = ProcessInfo.processInfo.environment["CELLKIT_UPDATE_SCREENSHOTS"] == "1"
        func shot(_ suffix: String) -> String? { update ? Render.root + "/Manifests/showcase-html-\(suffix).png" : nil }
        let reports = try Self.measure([
            Job(page: path, width: 800, screenshot: shot("light")),
            Job(page: path, width: 800, dark: true, screenshot: shot("dark")),
            Job(page: path, width: 390, screenshot: shot("narrow")),
        ])
        try #require(reports.count == 3)
        let (light, dark, narrow) = (reports[0], reports[1], reports[2])
        #expect(light.background == "rgb(242, 242, 247)" && light.cell == "rgb(255, 255, 255)")
        #expect(light.color == "rgb(0, 0, 0)")
        #expect(dark.background == "rgb(0, 0, 0)" && dark.cell == "rgb(28, 28, 30)", "\(dark)")
        #expect(dark.color == "rgb(255, 255, 255)")
        for report in reports {
            #expect(report.failures.isEmpty, "\(report.failures)")
            #expect(report.selected == ["3.0"])
            #expect(report.scrollWidth <= report.width)
        }
        #expect(narrow.truncated.contains("Backgrounds by position; this one is selected."))
    }

    /// The pinned HTML checkers Scripts/html-tools.sh fetches (axe-core, the Nu checker), from
    /// CELLKIT_HTML_TOOLS or the package's .build/html-tools; nil when not there (CI requires them).
    static let htmlTools: String? = {
        let folder = ProcessInfo.processInfo.environment["CELLKIT_HTML_TOOLS"] ?? Render.root + "/.build/html-tools"
        return FileManager.default.fileExists(atPath: folder + "/axe.min.js") ? folder : nil
    }()
    /// Whether the checkers can run: there, or required (and then the tests say what is missing).
    static let checkable = available && (required || htmlTools != nil)

    /// Every bundled table and the layout cases (each style) as pages: their names and paths.
    static func allPages() throws -> [(name: String, path: String)] {
        var pages: [(String, String)] = []
        for name in bundled {
            pages.append((name, try page(try Render.table(Render.manifest(name + ".yaml"), .html).output, name)))
        }
        let registry = try casesRegistry()
        for style in ["insetGrouped", "grouped", "plain"] {
            let folder = try Render.write(["cases.yaml": cases(style: style)], name: "axe" + style)
            let (html, _) = try Render.table(folder + "/cases.yaml", .html, registry: registry)
            pages.append(("cases \(style)", try page(html, "axe-cases-\(style)")))
        }
        return pages
    }

    @Test(
        "axe-core finds nothing on any bundled table or layout case: light and dark, 390 px and 200 % zoom",
        .enabled(if: checkable, "chromium or the HTML checkers are missing (Scripts/html-tools.sh); CI has them"))
    func axe() throws {
        let tools = try #require(Self.htmlTools, "run Scripts/html-tools.sh: it fetches axe-core (CI does)")
        var jobs: [Job] = [], names: [String] = []
        for (name, path) in try Self.allPages() {
            for dark in [false, true] {
                // 390 px: a phone. 200 % zoom of a 1280 px window: 640 CSS pixels at two device pixels each.
                for (width, scale) in [(390, 1), (640, 2)] {
                    jobs.append(Job(page: path, width: width, dark: dark, scale: scale, axe: tools + "/axe.min.js"))
                    names.append("\(name) \(dark ? "dark" : "light") \(width) px ×\(scale)")
                }
            }
        }
        let reports = try Self.measure(jobs)
        try #require(reports.count == jobs.count)
        for (name, report) in zip(names, reports) {
            let violations = try #require(report.axe, "\(name): axe-core did not report")
            #expect(violations.isEmpty, "\(name): \(violations)")
            #expect(report.failures.isEmpty, "\(name): \(report.failures)")
        }
    }

    @Test(
        "the Nu HTML checker finds no error on any bundled table or layout case",
        .enabled(if: checkable, "chromium or the HTML checkers are missing (Scripts/html-tools.sh); CI has them"))
    func nuChecker() throws {
        let tools = try #require(Self.htmlTools, "run Scripts/html-tools.sh: it fetches the Nu checker (CI does)")
        let java = try #require(
            Fixtures.tool("java"), "the Nu checker runs on Java (apt-get install default-jre-headless)")
        let pages = try Self.allPages()
        // CSS messages are left out: this checker (20.6.30, the one PyPI bundles) predates properties the
        // page uses and Chromium draws (`border-block`, `container-type`, `lh`); the CSS is checked where
        // it is drawn, by the browser tests. Every HTML error counts.
        let run = try Fixtures.execute(
            java, ["-jar", tools + "/vnu.jar", "--errors-only", "--filterpattern", ".*CSS: .*"] + pages.map(\.path))
        #expect(run.status == 0 && run.errors.isEmpty, "the Nu checker on \(pages.map(\.name)): \(run.errors)")
    }

    /// A table of `rows` package-like rows (subtitle cells, wrapped details of 3 to 12 words) read from
    /// JSON Lines, rendered to HTML; the page's path, and the last row's text.
    static func bigPage(rows: Int, name: String) throws -> (path: String, last: String) {
        var random = SplitMix64(seed: UInt64(rows))
        let words = ["libfoo", "python3", "utils", "server", "client", "daemon", "tools", "data", "common", "runtime"]
        var lines = "", last = ""
        for k in 0..<rows {
            let detail = (0..<(3 + Int(random.next() % 10))).map { _ in words[Int(random.next() % 10)] }
            last = "\(words[Int(random.next() % 10)])-package-\(k)"
            lines += #"{"text": "\#(last)", "detail": "\#(detail.joined(separator: " "))"}"# + "\n"
        }
        let table =
            "lang: en\ntitle: Packages\nsections:\n  - header: Packages\n    cell: Subtitle\n    style: subtitle\n"
            + "    rowsFrom: rows.jsonl\n"
        let folder = try Render.write(["t.yaml": table, "rows.jsonl": lines], name: name)
        return (try page(try Render.table(folder + "/t.yaml", .html).output, name), last)
    }

    @Test(
        "a 50,000-row page skips its far blocks until they scroll near; find-in-page reaches the last row; axe passes",
        .enabled(if: checkable, "chromium or the HTML checkers are missing (Scripts/html-tools.sh); CI has them"))
    func bigPage() throws {
        let (path, last) = try Self.bigPage(rows: 50_000, name: "big50k")
        let html = try String(contentsOfFile: path, encoding: .utf8)
        #expect(html.components(separatedBy: "<div class=\"bk\"").count - 1 == 250, "in blocks of 200 rows")
        // What makes the page paint soon, checked without a clock (the time itself is a benchmark:
        // Scripts/html-paint-bench.py): after load, the first block is laid out and the last is skipped
        // (`content-visibility: auto`, seen through `checkVisibility`); printing lays out every block.
        let folder = try Fixtures.folder("bigpage")
        let skipped = folder + "/skipped.js", find = folder + "/find.js"
        try """
        new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => {
          const blocks = document.querySelectorAll(".bk"), seen = (b) => b.querySelector(".r")
            .checkVisibility({contentVisibilityAuto: true});
          const print = [...document.styleSheets].flatMap((s) => [...s.cssRules])
            .filter((r) => r.media && r.media.mediaText === "print").map((r) => r.cssText).join(" ");
          done(JSON.stringify({blocks: blocks.length, first: seen(blocks[0]),
            last: seen(blocks[blocks.length - 1]), print}));
        })))
        """.write(toFile: skipped, atomically: true, encoding: .utf8)
        // Find in page (window.find, what Ctrl-F uses): the last row's text, found and drawn.
        try """
        (() => { const found = window.find(\(String(reflecting: last)));
          const at = found ? getSelection().anchorNode.parentElement.getBoundingClientRect() : null;
          return JSON.stringify({found, height: at ? at.height : 0}); })()
        """.write(toFile: find, atomically: true, encoding: .utf8)
        let jobs = [Job(page: path, width: 800, script: skipped), Job(page: path, width: 800, script: find)]
        let input = folder + "/jobs.json"
        try JSONEncoder().encode(jobs).write(to: URL(fileURLWithPath: input))
        let chromium = try #require(Self.chromium)
        let output = try Fixtures.output(
            "/bin/sh",
            [
                "-c", "python3 \"$0\" --chromium \"$1\" < \"$2\"", Render.root + "/Scripts/html-browser.py", chromium,
                input,
            ])
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        try #require(reports.count == jobs.count)
        let layout = reports[0]
        #expect(layout["blocks"] as? Int == 250, "\(layout)")
        #expect(layout["first"] as? Bool == true, "the first block is laid out: \(layout)")
        #expect(layout["last"] as? Bool == false, "the last block is skipped until it scrolls near: \(layout)")
        #expect((layout["print"] as? String ?? "").contains("content-visibility: visible"), "printing: \(layout)")
        #expect(reports[1]["found"] as? Bool == true && (reports[1]["height"] as? Double ?? 0) > 0, "\(reports[1])")
        // axe-core and the measuring script on a page with blocks (1,000 rows: five of them).
        let tools = try #require(Self.htmlTools)
        let small = try Self.bigPage(rows: 1_000, name: "big1k")
        for report in try Self.measure([Job(page: small.path, width: 390, axe: tools + "/axe.min.js")]) {
            #expect(report.axe?.isEmpty == true, "\(report.axe ?? [])")
            #expect(report.failures.isEmpty, "\(report.failures)")
            #expect(report.rows == 1_000)
        }
    }

    @Test(
        "a row of a set height shows its lines and no more; a self-sized row is as tall as the browser's lines",
        .enabled(if: available, "chromium is not installed (apt-get install chromium); CI installs it"))
    func rowHeights() throws {
        let text = "A label long enough to wrap onto more lines than one in a forty-column row, and then some more"
        let table = """
            lang: en
            width: 20
            sections:
              - rowHeight: 1
                rows:
                  - {cell: Lines, text: "\(text)", lines: 0}
                  - {cell: Subtitle, text: Title, detail: "\(text)"}
              - rowHeight: 2
                rows:
                  - {cell: Lines, text: "\(text)", lines: 0}
              - rows:
                  - {cell: Lines, text: "\(text)", lines: 0}
            """
        let folder = try Render.write(["t.yaml": table], name: "rowheights")
        let (html, _) = try Render.table(folder + "/t.yaml", .html, registry: try Self.casesRegistry())
        let path = try Self.page(html, "rowheights")
        let reports = try Self.measure([Job(page: path, width: 800), Job(page: path, width: 390)])
        for (width, report) in zip([800, 390], reports) {
            #expect(report.failures.isEmpty, "\(width): \(report.failures)")
            // Set to 1 line: one line shows, cut with its ellipsis (it showed 1.8 lines, clipped).
            let (one, oneRow) = (try report.label("0.0"), try report.row("0.0"))
            #expect(one.lines == 1 && oneRow.height == 44, "\(width): \(one) in \(oneRow)")
            #expect(report.truncated.contains(text), "\(width)")
            // A subtitle row set to 1 line shows its title only, as the terminal does.
            let subtitle = report.labelBoxes.filter { $0.ip == "0.1" }
            #expect(subtitle.contains { $0.shown == "Title" }, "\(width): \(subtitle)")
            #expect(subtitle.allSatisfy { $0.full == "Title" || $0.shown.isEmpty }, "\(width): \(subtitle)")
            let (two, twoRow) = (try report.label("1.0"), try report.row("1.0"))
            #expect(two.lines == 2 && twoRow.height == 66, "\(width): \(two) in \(twoRow)")
            // Self-sized: the lines the browser's font needs (2 or 3 in a 390 px page), not the
            // terminal's (6 at 20 columns: the row was 154 px tall).
            let (own, ownRow) = (try report.label("2.0"), try report.row("2.0"))
            #expect(ownRow.height == Double(22 * own.lines + 22), "\(width): \(own) in \(ownRow)")
            #expect(own.lines <= 3, "\(width): \(own)")
        }
    }

    /// The package's plugins and LinesCells, built for the layout cases.
    static func casesRegistry() throws -> CellRegistry {
        let folder = try Fixtures.folder("lines")
        try Fixtures.compileC(linesPlugin, name: "LinesCells", in: folder)
        return Fixtures.registry([Fixtures.buildDirectory, folder])
    }
}
