// `FileAccess.normalized` folds `.` and `..` as text, on the path's bytes: the table of cases a
// document's paths meet, each with the folded path a confined read must see.

import Testing

@testable import CellKitDocuments

@Suite("Paths folded as text")
struct PathTextTests {
    @Test(
        "Dots, double dots and repeated slashes fold as a shell's cd would fold them",
        arguments: [
            ("/a/b/../c", "/a/c"), ("a/b/../c", "a/c"), ("/..", "/"), ("/../a", "/a"), ("..", ".."),
            ("../a/..", ".."), ("../../a", "../../a"), ("a/../..", ".."), ("./a/./b/", "a/b"), ("", "."),
            (".", "."), ("/", "/"), ("//a///b//", "/a/b"), ("a/..", "."), ("/a/b/c/../../d", "/a/d"),
            ("/a/.../b", "/a/.../b"), ("/a/..b/c", "/a/..b/c"), ("/tables/ünï/../x.yaml", "/tables/x.yaml"),
            ("/a/.\u{301}/b", "/a/.\u{301}/b"), ("/数据/表/../x", "/数据/x"),
        ])
    func folds(path: String, folded: String) {
        #expect(FileAccess.normalized(path) == folded)
    }
}
