// The preview's grid of configurations, its names, the samples seam and the documents drawn.

import CellKitBrowse
import CellKitModel
import CellKitRendering
import CellKitTerminal
import Testing

@testable import CellKitPreview

@Suite struct PreviewConfigurationTests {
    @Test func namesAreUniqueAndSpellEveryDimension() {
        let names = PreviewConfiguration.grid.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.contains("grouped-selected-default-dark-rtl"))
        #expect(names.contains("insetGrouped-unselected-resized-light-ltr"))
        #expect(names.contains("plain-unselected-default-light-rtl-reused"))
        #expect(names.contains("plain-unselected-narrow-light-ltr"))
        #expect(names.contains("grouped-unselected-wide-light-rtl"))
        #expect(names.count == 48)
    }
}

@Suite struct PreviewDocumentTests {
    @Test func samplesComeFromCheckThroughTheSeam() {
        let samples = PreviewSamples.builtin()
        #expect(samples.map(\.name) == ["typical", "long-text"])
        #expect(samples[0].checkLabel == "typical data")
        guard case .object(let fields) = samples[1].data, case .string(let title)? = fields["title"] else {
            Issue.record("long-text has a title")
            return
        }
        #expect(title.count > 20)
        #expect(PreviewSamples.slug("Long text, 2 é!") == "Long-text-2")
    }

    @Test func documentsCarryTheConfiguration() {
        let sample = GallerySample(name: "a", data: .object(["title": .string("T"), "cell": .string("Other")]))
        let other = GallerySample(name: "b", data: .object(["title": .string("U")]))
        let configuration = PreviewConfiguration(style: .insetGrouped, width: .narrow, direction: .rtl, reused: true)
        let document = PreviewDocument(identifier: "Badge", sample: sample, other: other, configuration: configuration)
        #expect(
            document.json
                == "{\"style\":\"insetGrouped\",\"width\":40,\"sections\":[{\"cell\":\"Badge\",\"direction\":\"rtl\","
                + "\"selectable\":true,\"rows\":[{\"title\":\"U\"},{\"title\":\"T\"}]}]}\n")
        #expect(document.sampleRow == 1)
        #expect(document.fresh.json.contains("\"rows\":[{\"cell\":\"Default\",\"text\":\"\"},{\"title\":\"T\"}]"))
    }

    @Test func reuseComparisonNamesEachProperty() {
        func json(_ text: String, row: Int) -> PreviewDrawing {
            PreviewDrawing(
                output:
                    "{\"sections\":[{\"rows\":[{\"index\":\(row),\"row\":\(row),\"views\":[{\"text\":\"\(text)\"}]}]}]}"
            )
        }
        #expect(ReuseComparison.differences(reused: json("A", row: 1), fresh: json("A", row: 0)).isEmpty)
        #expect(
            ReuseComparison.differences(reused: json("Old", row: 1), fresh: json("New", row: 1))
                == ["views[0].text: reused \"Old\", fresh \"New\""])
        var faulted = json("Old", row: 1)
        faulted.faults = ["a fault"]
        #expect(ReuseComparison.differences(reused: faulted, fresh: json("New", row: 1)).isEmpty)
    }
}

@Suite struct LineDiffTests {
    @Test func changedLinesWithContext() {
        let expected = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"
        let actual = "1\n2\n3\nfour\n5\n6\n7\n8\n9\n10\neleven\n"
        #expect(
            LineDiff.lines(expected, actual) == [
                "@@ line 2 @@", "  2", "  3", "- 4", "+ four", "  5", "  6", "@@ line 9 @@", "  9", "  10", "+ eleven",
            ])
        #expect(LineDiff.lines("same\n", "same\n").isEmpty)
    }
}

@Suite struct PreviewPagerTests {
    func pager() -> PreviewPager {
        PreviewPager(lines: (1...100).map { "line \($0)" }, title: "T", columns: 40, rows: 12)
    }

    @Test func browseKeysScroll() {
        var p = pager()
        #expect(p.bodyLines == 10)
        _ = p.handle(.character("j"))
        #expect(p.top == 1)
        _ = p.handle(.character("f"))
        #expect(p.top == 11)
        _ = p.handle(.character("\u{04}"))
        #expect(p.top == 16)
        _ = p.handle(.character("\u{15}"))
        _ = p.handle(.character("b"))
        #expect(p.top == 1)
        _ = p.handle(.character("G"))
        #expect(p.top == 90 && p.status.hasPrefix("lines 91-100 of 100"))
        _ = p.handle(.character("g"))
        #expect(p.top == 0)
        #expect(p.handle(.character("q")) == .quit)
    }

    /// A drawing started again (`--watch`): the last whole drawing's lines stay under the new
    /// one's while it grows, so the view stays where it stood, the old text there until the new
    /// reaches it; a key moves the view as usual.
    @Test func placeKeptWhileADrawingGrows() {
        var p = pager()
        p.replace((1...100).map { "old \($0)" })  // a whole drawing
        for _ in 0..<6 { _ = p.handle(.character("f")) }
        #expect(p.top == 60)
        p.replace((1...20).map { "new \($0)" }, growing: true)
        #expect(p.top == 60 && p.lines.count == 100, "kept where it stood")
        #expect(p.lines[19] == "new 20" && p.lines[20] == "old 21" && p.lines[60] == "old 61")
        p.replace((1...70).map { "new \($0)" }, growing: true)
        #expect(p.top == 60 && p.lines[60] == "new 61" && p.lines[70] == "old 71")
        p.replace((1...120).map { "new \($0)" }, growing: false)
        #expect(p.top == 60 && p.lines.count == 120 && p.lines[99] == "new 100")
        // A key while the lines grow: the view stays where the key put it.
        p.replace((1...20).map { "new \($0)" }, growing: true)
        _ = p.handle(.character("g"))
        p.replace((1...100).map { "new \($0)" }, growing: true)
        #expect(p.top == 0)
        // A new drawing that ends shorter: shown as far as it goes, the old lines gone.
        for _ in 0..<6 { _ = p.handle(.character("f")) }
        p.replace((1...30).map { "new \($0)" })
        #expect(p.top == 20 && p.lines.count == 30)
        // No whole drawing yet (the first one growing): a place the lines do not reach yet is kept
        // for them, and taken back once they do.
        var q = PreviewPager(lines: [], title: "T", columns: 40, rows: 12)
        q.replace((1...100).map { "line \($0)" }, growing: true)
        for _ in 0..<6 { _ = q.handle(.character("f")) }
        q.replace((1...100).map { "line \($0)" }, growing: true)
        #expect(q.top == 60)
    }

    @Test func searchFindsAndWraps() {
        var p = pager()
        for key in "/line 50" { _ = p.handle(.character(key)) }
        #expect(p.status == "/line 50")
        _ = p.handle(.enter)
        #expect(p.top == 49)
        _ = p.handle(.character("n"))
        #expect(p.top == 49, "the only match, found again round the end")
        for key in "/nothing" { _ = p.handle(.character(key)) }
        _ = p.handle(.enter)
        #expect(p.status == "not found: nothing")
        p.resize(columns: 40, rows: 30)
        #expect(p.status.hasPrefix("lines 50-77"))
    }

    @Test func linesAreCutToTheScreenKeepingColours() {
        let p = PreviewPager(
            lines: ["\u{1B}[1m" + String(repeating: "漢", count: 30) + "\u{1B}[0m"], title: "T", columns: 20, rows: 5)
        let frame = p.frame
        #expect(frame.count == 5)
        #expect(frame[1].text == "\u{1B}[1m" + String(repeating: "漢", count: 9) + "\u{1B}[0m\u{1B}[0m")
        #expect(frame[0].style == .title && frame[4].style == .status)
    }
}

@Suite struct PreviewPageTests {
    @Test func darkRulesFollowTheSystemUnlessTheButtonChose() {
        let css = ":root{--bg:#fff}@media (prefers-color-scheme:dark){:root{--bg:#000}.sel{--fg2:#bbb}}.r{x:1}"
        let themed = PreviewPage.themed(css)
        #expect(
            themed.hasPrefix(
                ":root{--bg:#fff}@media (prefers-color-scheme:dark){html:not([data-theme=light]){--bg:#000}"
                    + "html:not([data-theme=light]) .sel{--fg2:#bbb}}.r{x:1}"))
        #expect(themed.contains("html[data-theme=dark]{--bg:#000}html[data-theme=dark] .sel{--fg2:#bbb}"))
        #expect(PreviewPage.escape("<b>&\"\u{1B}") == "&lt;b&gt;&amp;&quot;␛")
    }
}
