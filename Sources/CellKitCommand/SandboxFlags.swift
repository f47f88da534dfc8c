// What a sandboxed worker may read beyond what the document names, and how much memory it
// may take: the options render, browse and check share (SECURITY.md, "The sandbox").

import ArgumentParser
import CellKit
import CellKitRuntime
import CellKitSupervision

/// `--allow-read` and `--worker-memory`.
struct SandboxFlags: ParsableArguments {
    @Option(
        name: .customLong("allow-read"),
        help: ArgumentHelp(
            "A file or folder plugins may also read in the sandbox (repeatable); by default they read only the plugin files, their libraries and the files the document names.",
            valueName: "path"), completion: .file())
    var allowRead: [String] = []

    @Option(
        help: ArgumentHelp(
            "A worker's memory limit in MiB (its address space, 1024 and up; 0: none). A plugin over it fails its allocation.",
            valueName: "MiB"))
    var workerMemory: Int = Sandbox.defaultMemoryMiB

    /// The limits on `--worker-memory`: 0 (none), or 64 MiB to 1 TiB.
    static func validate(workerMemory: Int) throws {
        guard workerMemory == 0 || (64...1 << 20).contains(workerMemory) else {
            throw ValidationError(
                "--worker-memory \(workerMemory) is out of range; use 64 to 1048576 MiB, or 0 for no limit")
        }
    }

    func validate() throws { try Self.validate(workerMemory: workerMemory) }

    /// `--allow-read`'s paths made absolute (a worker may run elsewhere).
    var absolutePaths: [String] { allowRead.map(SearchPath.absolute) }

    /// The options again, for a `check-worker`.
    var forwarded: [String] {
        allowRead.flatMap { ["--allow-read", SearchPath.absolute($0)] }
            + (workerMemory == Sandbox.defaultMemoryMiB ? [] : ["--worker-memory", "\(workerMemory)"])
    }
}

/// The default hook timeout of a command that runs plugins in workers (`WorkerOptions`).
protocol HookTimeoutDefault {
    /// Seconds a hook may run by default.
    static var hookTimeout: Double { get }
}

/// `--hook-timeout`, `--sandbox`, `--allow-read` and `--worker-memory`: how check's and preview's
/// workers run, one set of options for both (their default timeouts differ: `Default`).
struct WorkerOptions<Default: HookTimeoutDefault>: ParsableArguments {
    @Option(help: ArgumentHelp("Seconds a hook may run before its worker is stopped.", valueName: "seconds"))
    var hookTimeout: Double = Default.hookTimeout

    @Option(help: SandboxMode.help)
    var sandbox: SandboxMode = .on

    @OptionGroup var sandboxFlags: SandboxFlags

    func validate() throws {
        guard hookTimeout > 0, hookTimeout <= 3600 else {
            throw ValidationError("--hook-timeout \(hookTimeout) is out of range; give 0.01 to 3600 seconds")
        }
    }
}
