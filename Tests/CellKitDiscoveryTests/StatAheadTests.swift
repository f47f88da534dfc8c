// A large folder's `lstat`s read by the walk and a helper thread (`StatAhead`): every file's
// answer is the one a plain `fstatat` gives, whichever side read it and however the two met;
// and discovery finds the same catalog with the helper as without it.

import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitDiscovery

@Suite("Reading a folder's lstats on two threads")
struct StatAheadTests {
    /// A folder of `count` entries: regular files of different sizes, symlinks (to a file and to
    /// nothing) and names removed after they were listed. Returns it and its names, in order.
    func folder(_ count: Int, _ name: String = #function) throws -> (path: String, names: [String]) {
        let root = try Fixtures.folder(name)
        var names: [String] = []
        for index in 0..<count {
            let file = String(format: "lib%04d.so", index), path = root + "/" + file
            names.append(file)
            switch index % 5 {
            case 0: #expect(symlink(root + "/lib0001.so", path) == 0)
            case 1, 2: try Data(repeating: UInt8(index & 0xFF), count: index).write(to: URL(fileURLWithPath: path))
            case 3: #expect(symlink(root + "/nowhere", path) == 0)
            default: break  // listed, never made: the stat fails
            }
        }
        return (root, names)
    }

    @Test("each file's answer is fstatat's, whether the walk or the helper read it, at any pace")
    func answersMatch() throws {
        let (root, names) = try folder(300)
        let fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        #expect(fd >= 0)
        defer { close(fd) }
        let pointers = names.map { strdup($0)! }
        defer { for pointer in pointers { free(pointer) } }
        var expected: [(Bool, stat)] = []
        for pointer in pointers {
            var info = stat()
            expected.append((fstatat(fd, pointer, &info, AT_SYMLINK_NOFOLLOW) == 0, info))
        }
        // The walk's pace varies, so that the two sides meet at different files.
        var helperFirsts: [Int] = []
        for pause in [0, 1, 5, 20, 200] {
            let ahead = try #require(StatAhead(folder: fd, names: pointers.map { UnsafePointer($0) }))
            for index in names.indices {
                if pause > 0, index % 7 == 0 { usleep(useconds_t(pause)) }
                var info = stat()
                let ok = ahead.lstat(index, into: &info)
                #expect(ok == expected[index].0, "\(names[index]) with pauses of \(pause) µs")
                if ok {
                    #expect(info.st_ino == expected[index].1.st_ino && info.st_mode == expected[index].1.st_mode)
                    #expect(info.st_size == expected[index].1.st_size)
                }
            }
            ahead.finish()
            ahead.finish()  // once ended, at once
            helperFirsts.append(ahead.helperFirst)
        }
        #expect(helperFirsts.contains { $0 < names.count / 2 }, "the helper read files: \(helperFirsts)")
    }

    @Test("too few files, or no open folder: no helper (the walk stats them itself)")
    func smallFolders() throws {
        let few = (0..<(StatAhead.minimumFiles - 1)).map { _ in UnsafePointer(strdup("x")!) }
        defer { for name in few { free(UnsafeMutablePointer(mutating: name)) } }
        let root = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(root) }
        #expect(StatAhead(folder: root, names: few) == nil)
        #expect(StatAhead(folder: root, names: few + [few[0]]) != nil)
        #expect(StatAhead(folder: -1, names: few + [few[0]]) == nil)
    }

    @Test("discovery of a large folder finds the same catalog with the helper as without it, cold and warm")
    func sameCatalog() throws {
        let root = try Fixtures.folder()
        let plugins = root + "/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: false)
        // Copies (their own inodes) of two plugins, a broken symlink and files that are no library.
        for index in 0..<150 {
            let name = String(format: "lib%03d.so", index)
            switch index % 10 {
            case 0: try Data("not a library\n".utf8).write(to: URL(fileURLWithPath: plugins + "/" + name))
            case 1: #expect(symlink(plugins + "/missing.so", plugins + "/" + name) == 0)
            default:
                let source = index % 2 == 0 ? "libFoobarCells.so" : "libContactsCells.so"
                try FileManager.default.copyItem(
                    atPath: Fixtures.buildDirectory + "/" + source, toPath: plugins + "/" + name)
            }
        }
        func catalog(ahead: Bool, cache: String) -> Catalog {
            var options = Fixtures.options([plugins])
            (options.useCache, options.cacheFolder, options.statsAhead) = (true, root + "/" + cache, ahead)
            return Catalog(options: options)
        }
        func summary(_ catalog: Catalog) -> [String] {
            catalog.plugins.map { "\($0.path) \($0.isUsable)" } + catalog.rejections.map(\.description)
                + catalog.shadowed.map { "\($0.identifier) \($0.winner) \($0.shadowed)" }
        }
        let cold = (catalog(ahead: true, cache: "a"), catalog(ahead: false, cache: "b"))
        #expect(cold.0.plugins.count == 120 && cold.0.filesRead == cold.1.filesRead)
        #expect(summary(cold.0) == summary(cold.1))
        let warm = (catalog(ahead: true, cache: "a"), catalog(ahead: false, cache: "b"))
        #expect(warm.0.filesRead < cold.0.filesRead && warm.0.filesRead == warm.1.filesRead)
        #expect(summary(warm.0) == summary(cold.0) && summary(warm.0) == summary(warm.1))
    }
}
