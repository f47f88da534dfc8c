// Shell completion as a user meets it: bash sources the script cellkit generates, and the
// completion function runs as if TAB was pressed after `cellkit render `, `cellkit inspect `
// and `cellkit check Foo`.

import CellKitTestSupport
import Foundation
import Testing

@Suite("shell completion: bash completes tables, plugin files and identifiers")
struct CompletionTests {
    let spawner = CellKitTool()
    /// Runs any program (not only cellkit).
    let programs = Programs()

    /// What bash's completion offers for `line` (the word being completed last) in `folder`.
    func complete(_ words: [String], in folder: String, script: String) throws -> [String] {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let program = """
            cd "$1" && source "$2"
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            _cellkit; printf '%s\\n' "${COMPREPLY[@]}"
            """
        let (ending, text) = try programs.run(
            [
                "/usr/bin/env", "PATH=\(Fixtures.buildDirectory):/usr/bin:/bin", "bash", "-c", program, "bash", folder,
                script,
            ])
        #expect(ending == .exited(0), "\(text)")
        return text.split(separator: "\n").map(String.init)
    }

    @Test("render offers table documents and folders; inspect offers .so files, folders and identifiers")
    func bash() throws {
        let folder = try Fixtures.folder()
        for file in ["t.yaml", "notes.txt", "libx.so"] {
            _ = FileManager.default.createFile(atPath: folder + "/" + file, contents: Data())
        }
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: false)
        let script = folder + "/cellkit.bash"
        let (made, text) = try spawner.run(["--generate-completion-script", "bash"])
        #expect(made == .exited(0))
        try text.write(toFile: script, atomically: true, encoding: .utf8)

        let render = try complete(["cellkit", "render", ""], in: folder, script: script)
        #expect(render.contains("t.yaml") && render.contains("sub"), "\(render)")
        #expect(!render.contains("notes.txt") && !render.contains("libx.so"), "\(render)")
        let inspect = try complete(["cellkit", "inspect", ""], in: folder, script: script)
        #expect(inspect.contains("libx.so") && inspect.contains("sub/") && inspect.contains("Foobar"), "\(inspect)")
        #expect(!inspect.contains("t.yaml"), "\(inspect)")
        let check = try complete(["cellkit", "check", "Foo"], in: folder, script: script)
        #expect(check == ["Foobar"], "\(check)")
        let preview = try complete(["cellkit", "preview", "Foo"], in: folder, script: script)
        #expect(preview == ["Foobar"], "\(preview)")
    }
}
