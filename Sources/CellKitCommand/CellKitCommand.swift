// `cellkit`: render tables of cells from shared-library plugins; list and inspect the plugins.

import ArgumentParser
import CellKit
import CellKitCheck
import CellKitModel
import CellKitSupervision
import Foundation

@main
struct CellKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cellkit",
        abstract:
            "Table cells from shared-library plugins: render tables that mix them, list what is registered, inspect a plugin.",
        discussion: """
            Plugins are .so files exporting \(HookKind.allNames). They are searched for in: \
            --plugin-path folders, then \
            CELLKIT_PLUGIN_PATH (colon-separated), then the folder of the cellkit executable, then \
            $XDG_DATA_HOME/cellkit/plugins (default ~/.local/share/cellkit/plugins). The first plugin \
            to offer an identifier wins.

            cellkit \(CellKitVersion.described).
            """,
        version: CellKitVersion.described,
        subcommands: [
            RenderCommand.self, BrowseCommand.self, ListCommand.self, InspectCommand.self, CheckCommand.self,
            PreviewCommand.self, NewCommand.self,
            SDKCommand.self,
            CheckWorkerCommand.self,
        ])

    /// ArgumentParser's `main`, except that every message it would print (errors
    /// quote documents, data files and plugins) is made terminal-safe first, and an
    /// error found while running (not parsing) prints without the usage text.
    static func main() {
        if let arguments = CheckWire.workerArguments() {  // a check's worker, started as a render's is
            do {
                var command = try parseAsRoot(arguments)
                try command.run()
            } catch { exit(withError: error) }
            return
        }
        DocumentRender.runWorkerIfRequested()  // a render's worker (`cellkit render` starts them): renders, exits
        refuseInvalidUTF8Arguments()
        if let help = HelpTexts.requested(CommandLine.arguments.dropFirst()) {  // kept as text: no reflection
            print(help)
            return
        }
        if CommandLine.arguments.dropFirst() == ["--version"] {  // with what of the sandbox this machine applies
            print(CellKitVersion.described)
            let folder = RegistryCache.defaultFolder(
                home: Environment.value("HOME"), cacheHome: Environment.value("XDG_CACHE_HOME"))
            let support = Sandbox.rememberedBeforeExit(in: folder)
            print(support.summary)
            for missing in support.missing { print("sandbox: \(missing)") }
            return
        }
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let settings = RenderArguments.settings(arguments) {
            do { try settings.run() } catch { failed(error) }
            return
        }
        if let list = ListArguments.read(arguments) {  // as RenderArguments: no reflection
            do { try list.run() } catch { failed(error) }
            return
        }
        var command: any ParsableCommand
        do { command = try parseAsRoot() } catch { finish(error, message: fullMessage(for: error)) }
        do { try command.run() } catch { failed(error) }
    }

    /// Ends the process (status 64) if an argument is not valid UTF-8: Swift would repair it,
    /// and a repaired path names another file, or none.
    private static func refuseInvalidUTF8Arguments() {
        for index in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeBufferPointer(
                start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: strlen(raw))
            guard String(validating: bytes, as: UTF8.self) == nil else { continue }
            let shown = TextSanitizer.visible(PathText.escapingInvalidUTF8(bytes))
            FileHandle.standardError.write(
                Data(
                    """
                    Error: argument \(index), '\(shown)', is not valid UTF-8, and cellkit reads paths as UTF-8. \
                    Rename the file or folder; a table document can also come on standard input: cellkit render - < FILE

                    """.utf8))
            Foundation.exit(64)
        }
    }

    /// Ends the process for an error a command's run threw.
    private static func failed(_ error: any Error) -> Never {
        finish(error, message: (error as? ValidationError).map { "Error: \($0.message)" } ?? fullMessage(for: error))
    }

    /// Prints `message` (to standard output for help, else standard error) and exits
    /// with ArgumentParser's status for `error`.
    private static func finish(_ error: any Error, message: String) -> Never {
        let text = TextSanitizer.visible(message, keepNewlines: true)
        let code = exitCode(for: error)
        if !text.isEmpty {
            if code == .success { print(text) } else { FileHandle.standardError.write(Data((text + "\n").utf8)) }
        }
        Foundation.exit(code.rawValue)
    }
}
