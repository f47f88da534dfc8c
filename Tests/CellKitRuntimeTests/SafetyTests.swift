// What a program can do with the public API without reading freed memory or
// racing: views kept after their cell, the shared context from many threads.

import CCellKit
import CellKitModel
import CellKitTestSupport
import Foundation
import Synchronization
import Testing

@testable import CellKitDiscovery
@testable import CellKitRuntime

@Suite("Safe public API")
struct SafetyTests {
    @Test("A view kept after its cell is freed is orphaned: no cell, harmless to set, refused to plugins")
    func viewOutlivesCell() throws {
        var kept: (label: View, subview: View)?
        do {
            let cell = Cell(reuseIdentifier: try CellIdentifier("Kept"), style: .subtitle)
            let badge = try cell.addSubview(.label, frame: Rect(x: 0, y: 0, width: 3, height: 1), tag: 7)
            #expect(cell.textLabel.cell === cell && !badge.isOrphaned)
            kept = (cell.textLabel, badge)
        }
        let (label, badge) = try #require(kept)
        #expect(label.isOrphaned && label.cell == nil)
        #expect(badge.isOrphaned && badge.cell == nil)
        label.text = "still safe"
        badge.frame = Rect(x: 1, y: 1, width: 1, height: 1)
        #expect(label.text == "still safe" && badge.frame.x == 1)
        // A plugin that kept the handle is told the view is gone, instead of reaching the freed cell.
        let status = "x".withCString { HostTable.pointer.pointee.view_set_string(label.handle, CK_VIEW_TEXT, $0) }
        #expect(status == CK_ERR_INVALID_ARGUMENT)
        #expect(label.text == "still safe")
    }

    /// `viewHandle(withTag:)` looks at the subview at `tag - 1` first: subviews numbered in any order
    /// (and tags past the count, missing, 0 and negative) find the view with the tag, or none.
    @Test func tagLookupInAnyOrder() throws {
        var random = SplitMix64(seed: 0x7A6)
        for _ in 0..<200 {
            let cell = Cell(reuseIdentifier: try CellIdentifier("Tags"), style: .default)
            var tags = Array(1...12).shuffled(using: &random).prefix(Int(random.next() % 8))
            if random.next() % 3 == 0 { tags = ArraySlice(tags.sorted()) }
            var byTag: [Int: View] = [:]
            for tag in tags {
                byTag[tag] = try cell.addSubview(.label, frame: Rect(x: 0, y: 0, width: 1, height: 1), tag: tag)
            }
            for tag in -1...14 {
                #expect(cell.viewHandle(withTag: tag) == byTag[tag]?.handle, "tag \(tag) among \(Array(tags))")
            }
        }
    }

    @Test("One CellContext warned to and read from many threads at once keeps every message once")
    func contextFromThreads() {
        let context = CellContext()
        let reads = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for k in 0..<500 {
                context.warn("warning \(k % 100)")  // every thread repeats the same hundred
                if k % 50 == 0 { reads.add(context.warnings.count, ordering: .relaxed) }
                context.contentWidth = thread
            }
        }
        #expect(Set(context.warnings) == Set((0..<100).map { "warning \($0)" }))
        #expect(context.warnings.count == 100)
        #expect((0..<8).contains(context.contentWidth))
        #expect(reads.load(ordering: .relaxed) > 0)
    }
}
