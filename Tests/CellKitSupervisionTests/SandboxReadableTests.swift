// The folders a sandboxed worker may read because its own libraries are mapped from them: found in
// /proc/self/maps by a walk with memchr, which must find what splitting the text into lines found.

import CellKitSupervision
import CellKitTestSupport
import Foundation
import Testing

@Suite("sandbox: the folders of the files a worker has mapped")
struct SandboxReadableTests {
    /// What the walk replaced: the text split into lines, each line's path from its first slash,
    /// its folder up to its last.
    static func bySplitting(_ maps: [UInt8]) -> [String] {
        var folders = Set<String>()
        for line in maps.split(separator: 0x0A) {
            guard let slash = line.firstIndex(of: 0x2F), let last = line.lastIndex(of: 0x2F), last > slash else {
                continue
            }
            folders.insert(String(decoding: line[slash..<last], as: UTF8.self))
        }
        return folders.sorted()
    }

    @Test("this process's maps, and maps with odd lines, give the folders splitting them gave")
    func sameAsSplitting() throws {
        // Read to its end as the sandbox reads it: `Data(contentsOf:)` stopped after its first read
        // (the file's size is 0), before the system's libraries of a process with many plugins loaded.
        let fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0)
        let maps = SharedRegion.readAll(fd, atMost: 64 << 20)
        close(fd)
        let found = Sandbox.mappedFolders(maps)
        #expect(found == Self.bySplitting(maps))
        let libc = try #require(
            String(decoding: maps, as: UTF8.self).split(separator: "\n").first { $0.contains("/libc.so") })
        let libcFolder = String(libc[libc.firstIndex(of: "/")!..<libc.lastIndex(of: "/")!])
        #expect(found.contains(libcFolder), "\(libcFolder) in \(found)")
        let odd: [String] = [
            "", "\n\n", "7f00-7f01 r--p 0 00:00 0 [heap]\n", "a /x\n", "a /x/\n", "a /x/y", "a /x/y\nb /x/z\nc /x/y\n",
            "a /a b/c (deleted)\nb /a b/d\n", "a //\n", "/\n/a/b\n", "a /p/q\r\nb /p/r\n", "a /é/日本/x\nb /é/日本/y\n",
            "a /one/two/three\nb /one/two\nc /one/two/three\n",
        ]
        for text in odd {
            #expect(
                Sandbox.mappedFolders(Array(text.utf8)) == Self.bySplitting(Array(text.utf8)),
                "\(text.debugDescription)")
        }
        var random = SplitMix64(seed: 5)
        for _ in 0..<2000 {  // lines of slashes, letters and line ends in any order
            let text = (0..<Int.random(in: 0..<40, using: &random)).map { _ in "/a\n ".randomElement(using: &random)! }
            let bytes = Array(String(text).utf8)
            #expect(Sandbox.mappedFolders(bytes) == Self.bySplitting(bytes), "\(String(text).debugDescription)")
        }
    }
}
