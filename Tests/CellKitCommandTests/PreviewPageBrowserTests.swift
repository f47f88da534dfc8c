// `cellkit preview --output`'s HTML gallery opened in headless Chromium (Scripts/html-browser.py,
// as HTMLBrowserTests do): every configuration present, light and dark by prefers-color-scheme
// and by the page's own button, and axe-core finding nothing in either. CI installs chromium and
// the checkers and sets CELLKIT_REQUIRE_CHROMIUM=1: there a missing browser fails instead of skipping.

import CellKitTestSupport
import Foundation
import Testing

@Suite("cellkit preview's HTML gallery in a browser", .serialized)
struct PreviewPageBrowserTests {
    static let required = ProcessInfo.processInfo.environment["CELLKIT_REQUIRE_CHROMIUM"] == "1"
    static let chromium = Fixtures.tool("chromium") ?? Fixtures.tool("chromium-browser")
    /// The pinned checkers Scripts/html-tools.sh fetches, from CELLKIT_HTML_TOOLS or .build/html-tools.
    static let htmlTools: String? = {
        let folder =
            ProcessInfo.processInfo.environment["CELLKIT_HTML_TOOLS"] ?? Fixtures.repositoryRoot + "/.build/html-tools"
        return FileManager.default.fileExists(atPath: folder + "/axe.min.js") ? folder : nil
    }()
    /// Whether the test can run: a browser and axe-core there, or required (and then it says what is missing).
    static let checkable = required || (chromium != nil && htmlTools != nil)

    /// One page to open: its viewport, colour scheme, the script that reports on it, axe-core.
    struct Job: Encodable {
        let page: String
        let width: Int
        let dark: Bool
        let script: String
        let axe: String
    }

    /// What the script reports, with axe-core's violations.
    struct Report: Decodable {
        let configurations: [String]
        let background: String
        let cell: String
        let pressed: String
        let axe: [Violation]
    }

    /// One axe-core rule the page breaks.
    struct Violation: Decodable, CustomStringConvertible {
        let id: String
        let help: String
        let nodes: [String]
        var description: String { "\(id): \(help) — \(nodes.prefix(3).joined(separator: "; "))" }
    }

    /// The script: presses the page's button first if `toggle`, then reports every configuration
    /// (its sample's heading and name), the page's and a table's background and the button's state.
    static func script(toggle: Bool) -> String {
        """
        (function () {
          var button = document.getElementById("theme");
          if (\(toggle)) button.click();
          var figures = Array.from(document.querySelectorAll("figure[data-configuration]")).map(function (f) {
            return f.closest("section").querySelector("h3").textContent + " " + f.dataset.configuration;
          });
          var list = document.querySelector(".tb ul");
          return JSON.stringify({configurations: figures, background: getComputedStyle(document.body).backgroundColor,
            cell: list ? getComputedStyle(list).backgroundColor : "", pressed: button.getAttribute("aria-pressed")});
        })()
        """
    }

    /// The gallery of a plugin whose hook crashes on the long sample: faults in place, check's findings beside.
    static func faultyPage(in dir: String) throws -> String {
        let source = PreviewTests.badge(extra: "if (strlen(title) > 30) { volatile int *p = 0; *p = 1; }")
        let plugin = try Fixtures.compileC(source, name: "crashy", in: dir)
        let page = dir + "/faulty.html"
        let (status, text) = try CellKitTool().cellkit(["preview", plugin, "--output", page])
        #expect(status == 3, "\(text)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("⚠ check:") && html.contains("faulted"), "findings and faults are on the page")
        return page
    }

    /// Runs html-browser.py over `jobs`; their reports.
    static func open(_ jobs: [Job], chromium: String, in dir: String) throws -> [Report] {
        let input = dir + "/jobs.json"
        try JSONEncoder().encode(jobs).write(to: URL(fileURLWithPath: input))
        let output = try Fixtures.output(
            "/bin/sh",
            [
                "-c", "python3 \"$0\" --chromium \"$1\" < \"$2\"", Fixtures.repositoryRoot + "/Scripts/html-browser.py",
                chromium, input,
            ])
        return try JSONDecoder().decode([Report].self, from: Data(output.utf8))
    }

    @Test(
        "a gallery with faults in place and check's findings: axe-core finds nothing, light and dark; the Nu checker no error",
        .enabled(if: checkable, "chromium or the HTML checkers are missing (Scripts/html-tools.sh); CI has them"))
    func faultyGallery() throws {
        let chromium = try #require(
            Self.chromium, "chromium is not installed (apt-get install chromium); CI installs it")
        let tools = try #require(Self.htmlTools, "run Scripts/html-tools.sh: it fetches axe-core (CI does)")
        let dir = try Fixtures.folder()
        let page = try Self.faultyPage(in: dir)
        let script = dir + "/report.js"
        try Self.script(toggle: false).write(toFile: script, atomically: true, encoding: .utf8)
        let jobs = [false, true].map {
            Job(page: page, width: 390, dark: $0, script: script, axe: tools + "/axe.min.js")
        }
        for (report, scheme) in zip(try Self.open(jobs, chromium: chromium, in: dir), ["light", "dark"]) {
            #expect(report.configurations.count == 72, "\(scheme): \(report.configurations)")
            #expect(report.axe.isEmpty, "\(scheme): \(report.axe)")
        }
        let java = try #require(
            Fixtures.tool("java"), "the Nu checker runs on Java (apt-get install default-jre-headless)")
        let run = try Fixtures.execute(
            java, ["-jar", tools + "/vnu.jar", "--errors-only", "--filterpattern", ".*CSS: .*", page])
        #expect(run.status == 0 && run.errors.isEmpty, "the Nu checker: \(run.errors)")
    }

    @Test(
        "every configuration is on the page; light and dark by the system and by the button; axe-core finds nothing",
        .enabled(if: checkable, "chromium or axe-core is missing (Scripts/html-tools.sh); CI has them"),
        arguments: [
            ("FoobarCells", nil), ("ContactsCells", nil),
            // Their hooks draw with a table's assets and styles (selected backgrounds, a stylesheet):
            // without them a selected row's light text would stand on white. `--look` lends them.
            ("DrawnCells", "seed-000-custom-drawn.yaml"), ("ProjectCells", "seed-003-projects.yaml"),
        ] as [(String, String?)])
    func gallery(plugin name: String, look: String?) throws {
        let plugin = Fixtures.buildDirectory + "/lib\(name).so"
        let lent = look.map { ["--look", Fixtures.repositoryRoot + "/Manifests/Tables/" + $0] } ?? []
        let chromium = try #require(
            Self.chromium, "chromium is not installed (apt-get install chromium); CI installs it")
        let tools = try #require(Self.htmlTools, "run Scripts/html-tools.sh: it fetches axe-core (CI does)")
        let dir = try Fixtures.folder()
        let page = dir + "/gallery.html"
        let (status, text) = try CellKitTool().cellkit(["preview", plugin, "--output", page] + lent)
        #expect(status == 0, "\(text)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.components(separatedBy: "<main").count == 2, "one main landmark")
        #expect(!html.contains("\u{1B}"))

        var jobs: [Job] = []
        for (dark, toggle) in [(false, false), (true, false), (false, true), (true, true)] {
            let script = dir + "/report-\(dark)-\(toggle).js"
            try Self.script(toggle: toggle).write(toFile: script, atomically: true, encoding: .utf8)
            jobs.append(Job(page: page, width: 1280, dark: dark, script: script, axe: tools + "/axe.min.js"))
        }
        let reports = try Self.open(jobs, chromium: chromium, in: dir)
        try #require(reports.count == 4)

        // Each sample the plugin ships (`inspect --json`'s previews), in every configuration.
        var expected: [String] = []
        for (type, sample) in try Self.shippedSamples(plugin) {
            expected += ["plain", "grouped", "insetGrouped"].flatMap(Self.names).map { "\(type) / \(sample) \($0)" }
        }
        #expect(expected.count >= 2 * 36, "\(name) ships samples")
        let light = ("rgb(242, 242, 247)", "rgb(255, 255, 255)"), dark = ("rgb(0, 0, 0)", "rgb(28, 28, 30)")
        let wanted = [(light, "false"), (dark, "true"), (dark, "true"), (light, "false")]
        for (i, report) in reports.enumerated() {
            let name = ["light", "dark", "light, then the button", "dark, then the button"][i]
            #expect(report.configurations == expected, "\(name): \(report.configurations)")
            #expect((report.background, report.cell) == wanted[i].0, "\(name): \(report.background) \(report.cell)")
            #expect(report.pressed == wanted[i].1, "\(name): aria-pressed \(report.pressed)")
            #expect(report.axe.isEmpty, "\(name): \(report.axe)")
        }
    }

    /// The (type, sample) pairs the plugin at `path` ships, as `cellkit inspect --json` lists them;
    /// ordered as preview draws them: by type as the plugin lists its types, then in the samples' order.
    static func shippedSamples(_ path: String) throws -> [(String, String)] {
        struct Inspected: Decodable {
            struct CellType: Decodable { let identifier: String }
            struct Preview: Decodable { let identifier, name: String }
            let cellTypes: [CellType]
            let previews: [Preview]
        }
        let (status, json) = try CellKitTool().cellkit(["inspect", "--json", path])
        try #require(status == 0, "\(json)")
        let inspected = try JSONDecoder().decode(Inspected.self, from: Data(json.utf8))
        return inspected.cellTypes.flatMap { type in
            inspected.previews.filter { $0.identifier == type.identifier }.map { (type.identifier, $0.name) }
        }
    }

    /// The names of one style's configurations on the page, in the grid's order (the theme is the page's).
    static func names(_ style: String) -> [String] {
        var names: [String] = []
        for selected in ["unselected", "selected"] {
            for direction in ["ltr", "rtl"] { names.append("\(style)-\(selected)-default-\(direction)") }
        }
        for width in ["narrow", "wide", "resized"] {
            for direction in ["ltr", "rtl"] { names.append("\(style)-unselected-\(width)-\(direction)") }
        }
        return names + ["ltr", "rtl"].map { "\(style)-unselected-default-\($0)-reused" }
    }
}
