// The entry point, two ways:
//
// - The fuzz build (Scripts/fuzz.sh: `-Xswiftc -sanitize=fuzzer,address -Xswiftc -DCELLKIT_FUZZ`)
//   hands `main` to libFuzzer's driver: `CellKitFuzz TARGET [libFuzzer flags] [corpus folders or files]`.
// - The normal build (`swift build`, so CI compiles the targets) is a replay tool:
//   `CellKitFuzz [TARGET [FILE|FOLDER]...]` runs each input once; with no files, every file of
//   `Fuzz/corpus/TARGET` (seeds and saved crashes); with no target, every target's corpus.
//
// Why not libFuzzer's own `main`: SwiftPM links every executable target with
// `--defsym main=<Module>_main` (it renames the entry point so tests can link the module),
// which silently wins over the `main` in libclang_rt.fuzzer: the binary would run our main
// and never fuzz. So there is an `@main` in both builds and the fuzz build's calls
// `LLVMFuzzerRunDriver`, libFuzzer's documented entry point for programs that keep their
// own `main`. No `main.swift`: SwiftPM compiles an executable target without one as a
// library (`-parse-as-library`), which `@main` needs; `main.swift` would be parsed as a
// script, whose top-level code is an error under `-parse-as-library` even inside an
// inactive `#if`.

import Foundation

/// Writes `text` to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}

#if CELLKIT_FUZZ
/// libFuzzer's driver (`FuzzerInterface.h`): parses the flags, then calls `callback` per input.
/// Declared by symbol name, without a C header target: every argument is a pointer and the
/// result an `int`, which Swift's calling convention passes exactly as C does.
@_silgen_name("LLVMFuzzerRunDriver")
func runLibFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The target of this process: from the first argument, kept in the environment so that
/// the processes libFuzzer starts itself (`-fork`, `-jobs`, `-merge`) run the same one.
let selectedTarget: FuzzTarget = {
    guard let name = ProcessInfo.processInfo.environment["CELLKIT_FUZZ_TARGET"], let target = FuzzTarget(rawValue: name)
    else { fatalError("cellkit-fuzz: CELLKIT_FUZZ_TARGET is not one of \(FuzzTarget.allCases.map(\.rawValue))") }
    return target
}()

/// libFuzzer links against this symbol even when its driver is handed the callback.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selectedTarget.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

@main
enum FuzzMain {
    static func main() {
        var arguments = CommandLine.arguments
        if arguments.count > 1, FuzzTarget(rawValue: arguments[1]) != nil {
            setenv("CELLKIT_FUZZ_TARGET", arguments.remove(at: 1), 1)
        }
        guard ProcessInfo.processInfo.environment["CELLKIT_FUZZ_TARGET"] != nil else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
            printError("usage: CellKitFuzz \(names) [libFuzzer flags] [corpus...]\n")
            exit(2)
        }
        _ = selectedTarget
        // argv without the target's name, as C strings that live until exit.
        var argv = arguments.map { strdup($0) } + [nil]
        var argc = CInt(arguments.count)
        let status = argv.withUnsafeMutableBufferPointer { buffer in
            var pointer = buffer.baseAddress!
            return runLibFuzzerDriver(&argc, &pointer, fuzzOneInput)
        }
        exit(status)
    }
}

#else

@main
enum ReplayMain {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var targets = FuzzTarget.allCases
        if let first = arguments.first {
            guard let target = FuzzTarget(rawValue: first) else {
                let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
                printError("usage: CellKitFuzz [\(names) [FILE|FOLDER]...]\n")
                exit(2)
            }
            targets = [target]
            arguments.removeFirst()
        }
        var total = 0
        for target in targets {
            let paths = arguments.isEmpty ? [corpusFolder(target)] : arguments
            let files = paths.flatMap(inputFiles)
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else {
                    printError("CellKitFuzz: cannot read \(file)\n")
                    exit(1)
                }
                // A crash ends the process here, with this line the last printed.
                printError("\(target.rawValue): \(file): ")
                let refusal = data.withUnsafeBytes { target.run($0) }
                printError(refusal.map { "refused: \($0)\n" } ?? "read whole\n")
            }
            print("\(target.rawValue): \(files.count) inputs replayed")
            total += files.count
        }
        print("replayed \(total) inputs: no crash")
    }

    /// `Fuzz/corpus/<target>` of this checkout (found from this file's path), else of the current folder.
    static func corpusFolder(_ target: FuzzTarget) -> String {
        let fuzz = ((#filePath as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
        let folder = "\(fuzz)/corpus/\(target.rawValue)"
        return FileManager.default.fileExists(atPath: folder) ? folder : "Fuzz/corpus/\(target.rawValue)"
    }

    /// A file, or the files of a folder (not hidden), sorted.
    static func inputFiles(_ path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            printError("CellKitFuzz: no such file or folder: \(path)\n")
            exit(1)
        }
        guard isFolder.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { "\(path)/\($0)" }
    }
}

#endif
