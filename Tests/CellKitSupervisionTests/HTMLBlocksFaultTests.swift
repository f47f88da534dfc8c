// A big section's rows go in blocks in HTML (`HTMLFormat.blockRows`); a worker started again after
// a fault writes the rows after the last one delivered with a new format. The blocks follow the
// rows' indexes, so the page stays well nested however the render was cut.

import CellKitTestSupport
import Foundation
import Testing

@Suite("HTML blocks across a fault")
struct HTMLBlocksFaultTests {
    @Test("a crash inside a blocked section: the page's elements still nest, every row once")
    func nested() throws {
        let folder = try Render.write(
            ["t.yaml": "lang: en\nsections:\n  - {cell: Faulty, rows: 500}\n  - {cell: Default, rows: 3}\n"],
            name: "htmlblocks")
        try FileManager.default.createDirectory(atPath: folder + "/plugins", withIntermediateDirectories: true)
        try Fixtures.compileC(
            ProcessModelTests.plugin("if (ip.row == 300) \(IsolationTests.crash)"), name: "blocks",
            in: folder + "/plugins")
        let run = try Fixtures.execute(
            Fixtures.cellkit,
            ["render", folder + "/t.yaml", "--plugin-path", folder + "/plugins", "--format", "html"])
        #expect(run.status == 3, "\(run.errors)")
        let page = run.output
        #expect(
            page.components(separatedBy: "<div class=\"bk\"").count - 1 == 3, "blocks of rows 1–200, 201–400, 401–500")
        #expect(page.components(separatedBy: "role=\"listitem\"").count - 1 == 500)
        #expect(page.components(separatedBy: "<li class=\"r").count - 1 == 3, "the small section stays a ul")
        // Every element the format opens is closed in order.
        var stack: [Substring] = []
        var wellNested = true
        for match in page.matches(of: /<(\/?)(div|ul|li|section|main)\b[^>]*>/) {
            if match.1.isEmpty {
                stack.append(match.2)
            } else if stack.popLast() != match.2 {
                wellNested = false
            }
        }
        #expect(wellNested && stack.isEmpty, "left open: \(stack)")
    }
}
