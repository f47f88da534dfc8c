// `FileWatch`: a change of a watched file (rewritten, replaced by a new file, removed, made) is
// reported once the files have been still for the settling time, and once only.

import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDocuments

@Suite("Files watched for a change")
struct FileWatchTests {
    @Test("rewritten, replaced, removed and made: each reported once, after the files settle")
    func changes() throws {
        let folder = try Fixtures.folder()
        let (a, b) = (folder + "/a.so", folder + "/b.yaml")
        try "one".write(toFile: a, atomically: false, encoding: .utf8)
        var watch = FileWatch(paths: [a, b], settle: 0.15)
        var seen: Bool  // read apart: #expect cannot call a mutating method
        let start = Date()
        seen = watch.changed(now: start)
        #expect(!seen)
        let steps: [(String, () throws -> Void)] = [
            ("rewritten in place", { try "two!".write(toFile: a, atomically: false, encoding: .utf8) }),
            ("replaced by a new file", { try "three".write(toFile: a, atomically: true, encoding: .utf8) }),
            ("made", { try "x".write(toFile: b, atomically: false, encoding: .utf8) }),
            ("removed", { try FileManager.default.removeItem(atPath: a) }),
        ]
        var now = start
        for (what, change) in steps {
            try change()
            now += 1
            seen = watch.changed(now: now)
            #expect(!seen, "\(what): reported before the files settled")
            seen = watch.changed(now: now + 0.1)
            #expect(!seen, "\(what): reported before the files settled")
            seen = watch.changed(now: now + 0.2)
            #expect(seen, "\(what): not reported once settled")
            seen = watch.changed(now: now + 0.5)
            #expect(!seen, "\(what): reported twice")
            now += 1
        }
    }

    @Test("a file still changing is not reported until it stops")
    func stillChanging() throws {
        let folder = try Fixtures.folder()
        let file = folder + "/lib.so"
        try "".write(toFile: file, atomically: false, encoding: .utf8)
        var watch = FileWatch(paths: [file], settle: 0.15)
        var seen: Bool
        var now = Date()
        for size in 1...5 {  // a linker writing: a change every 0.1 s
            try String(repeating: "x", count: size).write(toFile: file, atomically: false, encoding: .utf8)
            now += 0.1
            seen = watch.changed(now: now)
            #expect(!seen, "reported while still being written (\(size))")
        }
        seen = watch.changed(now: now + 0.2)
        #expect(seen)
    }
}
