// `cellkit new c|swift NAME [--dir D]`: a plugin project that builds with one command, lists,
// renders its sample table and passes `cellkit check --table` as it is written.

import ArgumentParser
import CellKit
import Foundation

/// `cellkit new`: writes a new plugin project (PluginTemplate.swift holds its files).
struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Start a plugin project in C (source, Makefile, sample table) or Swift (a package).",
        discussion: """
            Makes the folder DIR/NAME and writes a plugin whose cell identifier and plugin name are \
            NAME: it builds with the one command printed at the end, lists, renders NAME.yaml and \
            passes `cellkit check --table NAME.yaml`.

            c:      NAME.c (the hooks, and sample rows as CK_PREVIEW lines), NAME.yaml, and a Makefile \
            whose flags come from `pkg-config --cflags cellkit` (run `cellkit sdk install` once first); \
            make, make render, make check, make preview (the preview watching the plugin), make \
            snapshots, make test and make update (its golden files, the test against them, and an \
            intended change accepted), make install.
            swift:  Package.swift (a dynamic library depending on CellKitPlugin), Sources/NAME/NAME.swift \
            (the hooks), Sources/NAMEDescriptor/ (the descriptor, in C), libNAME.preview.yaml (sample \
            rows), NAME.yaml; build with swift build.

            `cellkit inspect` lists the sample rows (previews); `cellkit check` runs them as typical data.

            Examples:
              cellkit new c Weather
              cellkit new swift Weather --dir ~/src --cellkit-package ~/src/CellKit
            """)

    /// The languages a project can be written in.
    enum Language: String, ExpressibleByArgument, CaseIterable {
        case c, swift
    }

    @Argument(help: "c or swift.")
    var language: Language

    @Argument(
        help: ArgumentHelp(
            "The plugin's name and its cell identifier: an ASCII letter, then letters, digits or _ (at most 63).",
            valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp("The folder to make NAME/ in; default: the current folder.", valueName: "dir"))
    var dir: String = "."

    @Option(
        help: ArgumentHelp(
            "swift: the CellKit package to depend on, a checkout's folder or a git URL; default: the checkout this cellkit was built from.",
            valueName: "path-or-url"))
    var cellkitPackage: String?

    func validate() throws {
        if let problem = PluginTemplate.problem(withName: name) { throw ValidationError(problem) }
        if cellkitPackage != nil, language == .c {
            throw ValidationError("--cellkit-package is for swift projects; a C project needs only the SDK")
        }
    }

    func run() throws {
        let folder = SearchPath.custom([dir]).entries[0].path + "/" + name
        let files: [(path: String, text: String)]
        switch language {
        case .c: files = PluginTemplate.c(name: name)
        case .swift:
            files = PluginTemplate.swift(name: name, cellkit: try PluginTemplate.package(cellkitPackage))
        }
        try PluginTemplate.write(files, into: folder)
        print("made \(folder.terminalSafe)/: \(files.map(\.path).joined(separator: ", "))")
        switch language {
        case .c:
            if !PluginTemplate.sdkInstalled() {
                print("first, once:  cellkit sdk install   (the header and cellkit.pc the Makefile uses)")
            }
            print("build:        cd \(shellQuoted(folder)) && make")
            print("then:         make render   (cellkit render \(name).yaml --plugin-path .)")
            print("              make check    (cellkit check ./lib\(name).so --table \(name).yaml)")
            print("              make preview  (every sample in every configuration, drawn again on each make)")
            print("              make snapshots, make test   (golden files of the preview, and the test against them)")
            print("              make update   (an intended change accepted: the golden files that differ rewritten)")
        case .swift:
            print("build:        cd \(shellQuoted(folder)) && swift build")
            print("then:         cellkit render \(name).yaml --plugin-path .build/debug")
            print("              cellkit check .build/debug/lib\(name).so --table \(name).yaml")
        }
    }

    /// `path` quoted for a POSIX shell when it needs it.
    private func shellQuoted(_ path: String) -> String {
        let plain = path.allSatisfy { $0.isLetter || $0.isNumber || "/._-+~".contains($0) }
        return plain ? path.terminalSafe : "'" + path.replacingOccurrences(of: "'", with: "'\\''").terminalSafe + "'"
    }
}
