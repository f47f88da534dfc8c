// The references the speed targets are ratios against, built by the benchmark in the run that uses
// them, so that a figure and its reference always come from the same machine and moment:
// - the C formatter (`Reference/reference-formatter.c`, embedded in this program): the wrapped table's
//   bytes, as `cellkit render` writes them, by hand in C; built with `cc -O2`;
// - an empty Swift program with Foundation linked (and nothing of it run), linked as a release
//   `cellkit` is (`-static-stdlib`, lld, no exported symbols, packed relocations); built with the
//   toolchain's `swiftc` (`SWIFTC`, else the one beside `swift` on PATH, else /opt/swift/usr/bin/swiftc).
// And the instructions a process runs, counted by valgrind's callgrind (perf's counters are not
// available on every machine, a virtual one's least).

import Foundation

enum References {
    /// Builds the C formatter whose source is `text` into `folder` as `name`; its path.
    static func cFormatter(_ text: [UInt8], named name: String, in folder: String) throws -> String {
        let source = folder + "/\(name).c", binary = folder + "/" + name
        try Data(text).write(to: URL(fileURLWithPath: source))
        try run("/usr/bin/env", ["cc", "-O2", source, "-o", binary], what: "cc could not build \(source)")
        return binary
    }

    /// The empty program's source: Foundation linked as a program that uses it links it (one use,
    /// behind a test that never passes), nothing of it run. `import Foundation` alone links none
    /// of it: the linker drops every unreferenced member of the static archives, and that program
    /// (`runtimeProgram`) is a fraction of this one's size and page faults (BENCHMARKS.md,
    /// "Measurements behind the code": References.emptyProgram).
    static let emptyProgram = """
        import Foundation

        if CommandLine.arguments.count > 1_000 { print(FileManager.default.currentDirectoryPath) }
        exit(0)

        """

    /// A program of the Swift runtime alone: Foundation imported, none of it linked. Printed beside
    /// the targets' reference as what a Swift process costs with no library at all.
    static let runtimeProgram = "import Foundation\n\nexit(0)\n"

    /// Builds the empty Swift program (or `source`) into `folder` as `name`, linked as a release
    /// `cellkit` is (Package.swift, CellKitCommand's settings); its path.
    static func emptySwift(in folder: String, source program: String = emptyProgram, name: String = "empty-swift")
        throws -> String
    {
        let source = folder + "/\(name).swift", binary = folder + "/" + name
        try program.write(toFile: source, atomically: true, encoding: .utf8)
        let compiler = try swiftc()
        try run(
            compiler,
            [
                "-O", "-static-stdlib", "-use-ld=lld", "-Xlinker", "--no-export-dynamic", "-Xlinker", "-z",
                "-Xlinker", "pack-relative-relocs", "-module-cache-path", folder + "/module-cache", source, "-o",
                binary,
            ], what: "\(compiler) could not build the empty Swift program")
        return binary
    }

    /// The Swift compiler: `SWIFTC`, else `swiftc` beside the first `swift` on PATH, else the toolchain
    /// in /opt/swift.
    static func swiftc() throws -> String {
        if let named = getenv("SWIFTC").map({ String(cString: $0) }) { return named }
        let path = getenv("PATH").map { String(cString: $0) } ?? ""
        let candidates =
            path.split(separator: ":").map { "\($0)/swiftc" } + ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw RenderBenchmark.Failure("no swiftc on PATH or in /opt/swift/usr/bin: set SWIFTC")
        }
        return found
    }

    /// Instructions `executable arguments` runs (all its threads; no children), counted by callgrind;
    /// nil when valgrind is not installed. Its output goes to /dev/null.
    static func instructions(_ executable: String, _ arguments: [String], environment: [String]? = nil) throws -> Int? {
        try callgrind(executable, arguments, environment: environment)?.instructions
    }

    /// What callgrind counted of one process: its instructions, and the calls made to each function
    /// `counted` names (all its threads; no children).
    struct Counts {
        /// Instructions run.
        var instructions: Int
        /// Calls to each counted function, by name.
        var calls: [String: Int]

        /// Calls to the C library's allocators (`malloc`, `calloc`, `realloc` and the aligned ones).
        var allocations: Int {
            ["malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign"].reduce(0) {
                $0 + calls[$1, default: 0]
            }
        }
    }

    /// The functions whose calls `callgrind` counts.
    static let counted: Set<String> = [
        "malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign", "swift_retain", "swift_release",
    ]

    /// `executable arguments` run under callgrind: its `Counts`; nil when valgrind is not installed.
    static func callgrind(_ executable: String, _ arguments: [String], environment: [String]? = nil) throws -> Counts? {
        guard let valgrind = StartupBenchmark.tool("valgrind") else { return nil }
        let profile = NSTemporaryDirectory() + "cellkit-bench-callgrind-\(getpid()).out"
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: valgrind)
        child.arguments =
            ["--tool=callgrind", "--callgrind-out-file=\(profile)", "--trace-children=no", executable] + arguments
        if let environment {
            child.environment = Dictionary(
                environment.map { ($0.prefix { $0 != "=" }, $0.drop { $0 != "=" }.dropFirst()) }.map {
                    (String($0.0), String($0.1))
                }, uniquingKeysWith: { $1 })
        }
        child.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        let pipe = Pipe()
        child.standardError = pipe
        try child.run()
        let report = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        guard child.terminationStatus == 0 else {
            throw RenderBenchmark.Failure("callgrind of \(executable) failed:\n\(report.suffix(2_000))")
        }
        // "==123== Collected : 456789": the process's own total (a child it forks prints its own).
        let own = "==\(child.processIdentifier)=="
        guard
            let line = report.split(separator: "\n").last(where: { $0.hasPrefix(own) && $0.contains("Collected :") }),
            let count = Int(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces))
        else { throw RenderBenchmark.Failure("callgrind printed no count:\n\(report.suffix(2_000))") }
        let text = (try? String(contentsOfFile: profile, encoding: .utf8)) ?? ""
        return Counts(instructions: count, calls: calls(inProfile: text, to: counted))
    }

    /// Calls to the functions `names` in a callgrind profile: each `calls=N` line adds N to the
    /// function its `cfn=` line before named. Function names are compressed as the format has them:
    /// `(id) name` the first time, `(id)` after (`fn=` and `cfn=` share the ids).
    static func calls(inProfile text: String, to names: Set<String>) -> [String: Int] {
        var byID: [Substring: Substring] = [:], totals: [String: Int] = [:]
        var callee: Substring = ""
        /// The function a `fn=`/`cfn=` value names, learning a compressed id on first sight.
        func function(_ value: Substring) -> Substring {
            guard value.hasPrefix("("), let close = value.firstIndex(of: ")") else { return value }
            let id = value[...close], rest = value[value.index(after: close)...].drop { $0 == " " }
            if !rest.isEmpty { byID[id] = rest }
            return byID[id] ?? id
        }
        for line in text.split(separator: "\n") {
            if line.hasPrefix("fn=") {
                _ = function(line.dropFirst(3))
            } else if line.hasPrefix("cfn=") {
                callee = function(line.dropFirst(4))
            } else if line.hasPrefix("calls="), names.contains(String(callee)),
                let n = Int(line.dropFirst(6).prefix { $0 != " " })
            {
                totals[String(callee), default: 0] += n
            }
        }
        return totals
    }

    /// A copy of `executable` in `folder` without its debug information, for callgrind: valgrind 3.19
    /// gives up on the DWARF 5 a release `cellkit` carries ("unhandled dwarf2 abbrev form code 0x25").
    /// The code is the same; the copy does not find the plugins bundled beside the original.
    static func withoutDebugInformation(_ executable: String, in folder: String) throws -> String {
        let copy = folder + "/" + URL(fileURLWithPath: executable).lastPathComponent + "-nodebug"
        try run(
            "/usr/bin/env", ["strip", "--strip-debug", "-o", copy, executable],
            what: "strip could not copy \(executable) without its debug information")
        return copy
    }

    /// Runs `executable` with `arguments`, its output to /dev/null; throws `what` if it fails.
    static func run(_ executable: String, _ arguments: [String], what: String) throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = arguments
        child.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try child.run()
        child.waitUntilExit()
        guard child.terminationStatus == 0 else { throw RenderBenchmark.Failure(what) }
    }
}
