// `cellkit render --output`: what it refuses to replace, what it keeps, and that its
// temporary never outlives the process (an error, SIGTERM, a plugin calling exit()).

import CellKitRuntime
import CellKitSupervision
import CellKitTestSupport
import Foundation
import Testing

@Suite("render --output: refusals, links, permissions and cleanup")
struct OutputCommandTests {
    let command = CellKitTool()

    @Test("--output naming the document, or a hard link to it, is refused and the document is unchanged")
    func document() throws {
        let folder = try Render.write(["t.yaml": "sections:\n  - cell: Default\n    rows: [one, two]\n"])
        try FileManager.default.linkItem(atPath: folder + "/t.yaml", toPath: folder + "/same.yaml")
        let (status, text) = try command.cellkit(["render", folder + "/t.yaml", "--output", folder + "/t.yaml"])
        #expect(status == 1)
        #expect(text == "Error: cannot write \(folder)/t.yaml: it is the table document, which the render reads\n")
        let (linked, message) = try command.cellkit(["render", folder + "/t.yaml", "--output", folder + "/same.yaml"])
        #expect(linked == 1)
        #expect(
            message
                == "Error: cannot write \(folder)/same.yaml: it is the table document (\(folder)/t.yaml), which the render reads\n"
        )
        #expect(try command.contents(folder + "/t.yaml") == "sections:\n  - cell: Default\n    rows: [one, two]\n")
        #expect(try command.files(folder) == ["same.yaml", "t.yaml"])
    }

    @Test("--output naming the stylesheet or the rowsFrom data file (even through a link) is refused")
    func readFiles() throws {
        let sheet = "styles:\n  title:\n    fontSize: 17\n"
        let folder = try Render.write([
            "t.yaml": "stylesheet: sheet.yaml\nsections:\n  - rowsFrom: rows.jsonl\n", "sheet.yaml": sheet,
            "rows.jsonl": #"{"cell":"Default","text":"one"}"# + "\n",
        ])
        try FileManager.default.createSymbolicLink(atPath: folder + "/alias.jsonl", withDestinationPath: "rows.jsonl")
        let (s1, t1) = try command.cellkit(["render", folder + "/t.yaml", "--output", folder + "/sheet.yaml"])
        #expect(s1 == 1)
        #expect(t1 == "Error: cannot write \(folder)/sheet.yaml: it is the stylesheet, which the render reads\n")
        let (s2, t2) = try command.cellkit(["render", folder + "/t.yaml", "--output", folder + "/alias.jsonl"])
        #expect(s2 == 1)
        #expect(
            t2
                == "Error: cannot write \(folder)/alias.jsonl (a link to \(folder)/rows.jsonl): it is the rows data file of section 0, which the render reads\n"
        )
        #expect(try command.contents(folder + "/sheet.yaml") == sheet)
        #expect(try command.contents(folder + "/rows.jsonl") == #"{"cell":"Default","text":"one"}"# + "\n")
        #expect(try command.files(folder) == ["alias.jsonl", "rows.jsonl", "sheet.yaml", "t.yaml"])
    }

    @Test("a FIFO is refused without opening it (no blocking); /dev/null and a directory are refused")
    func notRegularFiles() throws {
        let folder = try Render.write(["t.yaml": "sections:\n  - cell: Default\n    rows: [one]\n"])
        #expect(mkfifo(folder + "/pipe", 0o644) == 0)
        let (fifo, text) = try command.run(["render", folder + "/t.yaml", "--output", folder + "/pipe"], timeout: 20)
        #expect(fifo == .exited(1))
        #expect(text == "Error: cannot write \(folder)/pipe: it is a FIFO (named pipe), not a regular file\n")
        let (null, message) = try command.cellkit(["render", folder + "/t.yaml", "--output", "/dev/null"])
        #expect(null == 1)
        #expect(message == "Error: cannot write /dev/null: it is a character device, not a regular file\n")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        let (directory, said) = try command.cellkit(["render", folder + "/t.yaml", "--output", folder])
        #expect(directory == 1)
        #expect(said == "Error: cannot write \(folder): it is a directory, not a regular file\n")
        #expect(try command.files(folder) == ["pipe", "t.yaml"])
    }

    @Test("through a symbolic link the target is rewritten and the link stays a link")
    func symlink() throws {
        let folder = try Render.write([
            "t.yaml": "sections:\n  - cell: Default\n    rows: [one]\n", "real.txt": "previous",
        ])
        try FileManager.default.createDirectory(atPath: folder + "/links", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/links/out.txt", withDestinationPath: "../real.txt")
        let (status, text) = try command.cellkit(["render", folder + "/t.yaml", "--output", folder + "/links/out.txt"])
        #expect(status == 0, "\(text)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/links/out.txt") == "../real.txt")
        #expect(try command.contents(folder + "/real.txt").contains("\n one"))
        #expect(try command.files(folder) == ["links", "real.txt", "t.yaml"])
        #expect(try command.files(folder + "/links") == ["out.txt"])
    }

    @Test("an existing 0600 file stays 0600; a new file gets 0666 less the umask")
    func permissions() throws {
        let folder = try Render.write([
            "t.yaml": "sections:\n  - cell: Default\n    rows: [one]\n", "secret.txt": "previous",
        ])
        #expect(chmod(folder + "/secret.txt", 0o600) == 0)
        let (status, _) = try command.cellkit(["render", folder + "/t.yaml", "--output", folder + "/secret.txt"])
        #expect(status == 0)
        #expect(try command.mode(folder + "/secret.txt") == 0o600)
        #expect(try command.contents(folder + "/secret.txt").contains("\n one"))
        let (created, _) = try command.run(
            ["render", folder + "/t.yaml", "--output", folder + "/new.txt"], umask: "027")
        #expect(created == .exited(0))
        #expect(try command.mode(folder + "/new.txt") == 0o640)
        let (plain, _) = try command.run(
            ["render", folder + "/t.yaml", "--output", folder + "/plain.txt"], umask: "022")
        #expect(plain == .exited(0))
        #expect(try command.mode(folder + "/plain.txt") == 0o644)
    }

    @Test("SIGTERM mid-render: the process dies by SIGTERM, the temporary is removed, the old file stays")
    func sigterm() throws { try interrupted(by: SIGTERM) }

    @Test(
        "SIGQUIT, SIGUSR1, SIGALRM, SIGXCPU, SIGXFSZ mid-render: each removes the temporary, the process dies by it",
        arguments: [SIGQUIT, SIGUSR1, SIGALRM, SIGXCPU, SIGXFSZ])
    func otherSignals(_ signal: Int32) throws { try interrupted(by: signal) }

    /// Sends `signal` to a render to `--output` once its temporary holds rows; the temporary must go.
    func interrupted(by signal: Int32) throws {
        let folder = try command.streamedTable(rows: 300_000, name: "interrupted\(signal)")
        let pid = try command.start(
            ["render", folder + "/t.yaml", "--output", folder + "/out.txt"], log: try Fixtures.folder() + "/log")
        // Wait until the temporary holds rendered rows: the render is under way.
        var temporary: String?
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let name = try command.files(folder).first(where: { $0.hasPrefix(".out.txt.") }),
                let size = try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int,
                size > 0
            {
                temporary = name
                break
            }
            usleep(2_000)
        }
        kill(pid, signal)
        let ending = command.wait(pid)
        #expect(temporary != nil, "the render was under way when signal \(signal) was sent")
        #expect(ending == .signaled(signal))
        #expect(try command.files(folder) == ["out.txt", "rows.jsonl", "t.yaml"])
        #expect(try command.contents(folder + "/out.txt") == "previous")
    }

    @Test("an unknown identifier at row 500 of a streamed file: exit 1, no temporary, the old file stays")
    func errorMidRender() throws {
        let folder = try command.streamedTable(rows: 1000, unknownAt: 500)
        let (status, text) = try command.cellkit(["render", folder + "/t.yaml", "--output", folder + "/out.txt"])
        #expect(status == 1)
        #expect(text.hasPrefix("Error: \(folder)/rows.jsonl:500:"), "\(text)")
        #expect(text.contains("'Nowhere'"))
        #expect(try command.files(folder) == ["out.txt", "rows.jsonl", "t.yaml"])
        #expect(try command.contents(folder + "/out.txt") == "previous")
    }

    @Test("a plugin calling exit() mid-render with --no-isolation: its status, no temporary, the old file stays")
    func exitMidRender() throws {
        let plugins = try Fixtures.folder()
        try Fixtures.compileC(
            """
            #include <stdlib.h>
            #include "cellkit.h"
            CK_PLUGIN("Quitter", "0.1.0", "exits at row 3000");
            CK_EXPORT void customizeCellForQuitter(ck_cell *cell, ck_index_path ip) {
                if (ip.row == 3000) exit(3);
                ck_set_text(ck_text_label(cell), "still here");
            }
            """, name: "quitter", in: plugins)
        let folder = try Render.write([
            "t.yaml": "sections:\n  - cell: Quitter\n    rows: 5000\n", "out.txt": "previous",
        ])
        let (status, text) = try command.cellkit([
            "render", folder + "/t.yaml", "--output", folder + "/out.txt", "--plugin-path", plugins, "--no-isolation",
        ])
        #expect(status == 3, "\(text)")
        #expect(
            text == "libquitter.so: customizeCellForQuitter exited with status 3 at row 1.3001 (indexPath [0, 3000])\n")
        #expect(try command.files(folder) == ["out.txt", "t.yaml"])
        #expect(try command.contents(folder + "/out.txt") == "previous")
        // Isolated (the default), the table is complete: the quitting row a placeholder. The worker is
        // forked, so its exit() runs the supervisor's atexit functions: they must not remove its temporary.
        let (isolated, said) = try command.cellkit([
            "render", folder + "/t.yaml", "--output", folder + "/out.txt", "--plugin-path", plugins,
        ])
        #expect(isolated == 3, "\(said)")
        #expect(
            said == "libquitter.so: customizeCellForQuitter exited with status 3 at row 1.3001 (indexPath [0, 3000])\n")
        #expect(try command.files(folder) == ["out.txt", "t.yaml"])
        let drawn = try command.contents(folder + "/out.txt")
        #expect(drawn.components(separatedBy: "still here").count - 1 == 3000)
        #expect(drawn.components(separatedBy: "libquitter.so faulted: this Quitter row is not drawn").count - 1 == 2000)
    }
}
