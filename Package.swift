// swift-tools-version:6.0
import PackageDescription

/// A cell plugin written in C: one dynamic library from `Plugins/<name>/`, linked as `cc` links
/// one (`Sources/CPluginLinking/linking.c`).
func cPlugin(_ name: String) -> [Target] {
    [
        .target(
            name: name, dependencies: ["CCellKit", "CPluginLinking"], path: "Plugins/\(name)", publicHeadersPath: ".")
    ]
}

/// A cell plugin written in Swift. SwiftPM cannot mix C and Swift in one target,
/// so the descriptor (plain C data read from the file) sits in a small C target
/// beside the Swift hooks, and the product links both into one library.
func swiftPlugin(_ name: String) -> [Target] {
    [
        .target(name: name, dependencies: ["CellKitPlugin"], path: "Plugins/\(name)/Swift"),
        .target(
            name: "\(name)Descriptor", dependencies: ["CCellKit"], path: "Plugins/\(name)/Descriptor",
            publicHeadersPath: "."),
    ]
}

// Plugins/BenchmarkCells is not among them: the benchmarks, the tests and the sanitizers build it
// where they need it, so that it is never installed beside a user's `cellkit`.
let cPlugins = ["FoobarCells", "ProjectCells"]
let swiftPlugins = ["ContactsCells", "DrawnCells"]

let package = Package(
    name: "CellKit",
    products: [
        .library(name: "CellKit", targets: ["CellKit"]),
        .library(name: "CellKitPlugin", targets: ["CellKitPlugin"]),
        .executable(name: "cellkit", targets: ["CellKitCommand"]),
        .executable(name: "cellkit-bench", targets: ["CellKitBenchmark"]),
        .executable(name: "cellkit-threadcheck", targets: ["CellKitThreadCheck"]),
    ]
        + cPlugins.map { .library(name: $0, type: .dynamic, targets: [$0]) }
        + swiftPlugins.map { .library(name: $0, type: .dynamic, targets: [$0, "\($0)Descriptor"]) },
    dependencies: [
        // Exact versions (issue 42): Package.resolved is not tracked (the package mirror's commit
        // ids are not GitHub's), and the help screens and the man page are compared byte for byte
        // with what ArgumentParser prints. Bumping one: CONTRIBUTING.md, "Bumping a dependency".
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        // `swift package generate-documentation`: the DocC catalog in Sources/CellKit/CellKit.docc.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
    ],
    targets: [
        .target(name: "CCellKit"),
        // Host-only OS calls Swift cannot make (prctl, a signal context's registers): plugins never see it.
        .target(name: "CProcess"),
        // libffi, libseccomp and libtinfo (Debian's libffi-dev, libseccomp-dev, libncurses-dev), opened
        // with dlopen the first time a path needs one, not linked: linked, every start paid for them
        // (Sources/CLibraries/include/cellkit_libraries.h). Host-only.
        .target(name: "CLibraries", linkerSettings: [.linkedLibrary("dl")]),
        // The worker's sandbox: a PID namespace, Landlock and seccomp (SECURITY.md). Host-only.
        .target(name: "CSandbox", dependencies: ["CProcess", "CLibraries"]),
        // terminfo through ncurses (setupterm, tigetstr, tparm) and the signal handlers that restore
        // a terminal: `cellkit browse`. Host-only.
        .target(name: "CTerminal", dependencies: ["CLibraries"]),
        // Byte scans in C: how much of a text needs no escape (the output formats, sixteen bytes at a
        // time), the JSON Lines check of a record in one pass, a data file's count, ASCII line breaks.
        .target(name: "CScan"),
        // The library's modules, bottom to top (Scripts/layers.txt); `CellKit` re-exports them all.
        .target(name: "CellKitModel", dependencies: ["CCellKit", "CScan"]),
        .target(name: "CellKitText", dependencies: ["CellKitModel", "CScan"]),
        // The search path walked without loading anything: the naming rule and hook table, the ELF reader,
        // file trust, the registry cache, the catalog; and the temporaries removed at any exit.
        .target(name: "CellKitDiscovery", dependencies: ["CellKitModel", "CCellKit"]),
        .target(
            name: "CellKitRuntime",
            dependencies: ["CellKitModel", "CellKitText", "CellKitDiscovery", "CCellKit", "CLibraries", "CProcess"]),
        .target(
            name: "CellKitDocuments",
            dependencies: ["CellKitModel", "CellKitText", "CellKitDiscovery", "CScan", "Yams"]),
        // A full-screen terminal: raw mode, the alternate screen, keys, resizes, restored on any exit.
        .target(name: "CellKitTerminal", dependencies: ["CTerminal", "CellKitText"]),
        // Data sources, layout, the renderer and its formats, output: in one process, no plugin isolation.
        .target(
            name: "CellKitRendering",
            dependencies: ["CellKitModel", "CellKitText", "CellKitRuntime", "CellKitDocuments", "CScan"]),
        // Supervisor and worker processes (spawn, frames, the sandbox) and the isolated render built on them.
        .target(
            name: "CellKitSupervision",
            dependencies: [
                "CellKitModel", "CellKitText", "CellKitRuntime", "CellKitDocuments", "CellKitRendering", "CProcess",
                "CSandbox",
            ]),
        // `cellkit check`: the plan, the worker that runs every hook and the supervisor that judges it.
        .target(
            name: "CellKitCheck",
            dependencies: [
                "CellKitModel", "CellKitText", "CellKitRuntime", "CellKitDocuments", "CellKitRendering",
                "CellKitSupervision",
            ]),
        // `cellkit browse`: the table behind the view, search, the view on a terminal.
        .target(
            name: "CellKitBrowse",
            dependencies: [
                "CellKitModel", "CellKitText", "CellKitRuntime", "CellKitDocuments", "CellKitRendering",
                "CellKitSupervision", "CellKitTerminal",
            ]),
        // `cellkit preview`: every sample of a plugin's cell types in a grid of configurations, drawn by
        // workers; the terminal view, the HTML gallery and the snapshot files.
        .target(
            name: "CellKitPreview",
            dependencies: [
                "CellKitModel", "CellKitText", "CellKitDiscovery", "CellKitRuntime", "CellKitDocuments",
                "CellKitRendering", "CellKitSupervision", "CellKitTerminal", "CellKitCheck", "CellKitBrowse", "Yams",
            ]),
        .target(
            name: "CellKit",
            dependencies: [
                "CellKitModel", "CellKitText", "CellKitDiscovery", "CellKitRuntime", "CellKitDocuments",
                "CellKitRendering", "CellKitSupervision",
            ]),
        .target(name: "CellKitPlugin", dependencies: ["CCellKit"]),
        .executableTarget(
            name: "CellKitCommand",
            dependencies: [
                "CellKit", "CellKitSupervision", "CellKitTerminal", "CellKitCheck", "CellKitBrowse", "CellKitPreview",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // `cellkit sdk install` writes the plugin header from the binary: cellkit.h here is a symbolic
            // link to Sources/CCellKit/include/cellkit.h (SwiftPM embeds only files in the target's folder).
            resources: [.embedInCode("cellkit.h")],
            // A release `cellkit` carries the Swift runtime and Foundation inside it: a process starts in
            // about 3 ms instead of 9 (the loader relocating libFoundation and ICU), and a render starts
            // one or two. `-static-stdlib` must reach the compiler too: a module compiled against the
            // shared Foundation autolinks too little (undefined ICU symbols). The link exports no
            // runtime symbol (`--exclude-libs ALL`), so a Swift plugin brings its own shared runtime.
            // lld: GNU ld warns about `mktemp` in the static Foundation. `--no-export-dynamic` undoes the
            // toolchain's `-export-dynamic` (nothing links against cellkit; its 5,000 exported symbols
            // made the loader's `dladdr` slow), and packed relative relocations shrink 1.9 MB of them
            // to 15 KB (glibc 2.36 reads DT_RELR).
            swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))],
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-static-stdlib", "-use-ld=lld", "-Xlinker", "--no-export-dynamic", "-Xlinker", "-z",
                        "-Xlinker",
                        "pack-relative-relocs",
                    ], .when(platforms: [.linux], configuration: .release))
            ]),
        // The C reference formatter is compiled by the benchmark at run time (`cc -O2`), from the source
        // embedded in it: `render same-work` holds cellkit's speed to it on any machine.
        .executableTarget(
            name: "CellKitBenchmark", dependencies: ["CellKit", "CellKitRendering", "CCellKit"],
            resources: [
                .embedInCode("Reference/reference-formatter.c"), .embedInCode("Reference/samework-formatter.c"),
                .embedInCode("Reference/sandbox-floor.c"),
            ]),
        .executableTarget(
            name: "CellKitThreadCheck", dependencies: ["CellKit", "CellKitDocuments", "CellKitModel", "CellKitRuntime"]),
        // libFuzzer targets (Scripts/fuzz.sh builds them with -DCELLKIT_FUZZ); a replay tool otherwise.
        .executableTarget(
            name: "CellKitFuzz",
            dependencies: [
                "CellKitModel", "CellKitDiscovery", "CellKitRuntime", "CellKitDocuments", "CellKitSupervision",
            ],
            path: "Fuzz/Sources"),
        // Tests: one target per module, `<Module>Tests`, holding the tests of that module's code and
        // importing only it, the helpers and modules below it (Scripts/layers.txt; check-layers.py).
        .target(
            name: "CellKitTestSupport", dependencies: ["CellKit", "CellKitRendering", "CellKitRuntime"],
            path: "Tests/CellKitTestSupport"),
        .testTarget(name: "CellKitModelTests", dependencies: ["CellKitModel", "CellKitTestSupport", "CScan"]),
        .testTarget(
            name: "CellKitTextTests", dependencies: ["CellKitText", "CellKitModel", "CellKitTestSupport"],
            exclude: ["WidthData"]),
        .testTarget(
            name: "CellKitDiscoveryTests",
            dependencies: ["CellKitDiscovery", "CellKitModel", "CCellKit", "CellKitTestSupport"]),
        .testTarget(
            name: "CellKitRuntimeTests",
            dependencies: ["CellKitRuntime", "CellKitDiscovery", "CellKitModel", "CCellKit", "CellKitTestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "CellKitDocumentsTests",
            dependencies: [
                "CellKitDocuments", "CellKitModel", "CellKitText", "CellKitRendering", "CellKitTestSupport",
            ]),
        .testTarget(name: "CellKitTerminalTests", dependencies: ["CellKitTerminal"]),
        .testTarget(
            name: "CellKitRenderingTests",
            dependencies: [
                "CellKitRendering", "CellKitModel", "CellKitText", "CellKitDiscovery", "CellKitRuntime",
                "CellKitDocuments", "CellKitTerminal", "CellKitTestSupport", "CScan",
            ],
            exclude: ["Golden"]),
        .testTarget(
            name: "CellKitSupervisionTests",
            dependencies: [
                "CellKitSupervision", "CellKitRuntime", "CellKitDocuments", "CellKitRendering", "CellKitTestSupport",
                "CSandbox",
            ]),
        // `cellkit check` run on plugins the tests build: CellKitCheck's plan, worker and verdicts.
        .testTarget(name: "CellKitCheckTests", dependencies: ["CellKitCheck", "CellKitModel", "CellKitTestSupport"]),
        .testTarget(
            name: "CellKitBrowseTests",
            dependencies: [
                "CellKitBrowse", "CellKitModel", "CellKitDiscovery", "CellKitDocuments", "CellKitTerminal",
                "CellKitTestSupport",
            ]),
        .testTarget(
            name: "CellKitPreviewTests",
            dependencies: [
                "CellKitPreview", "CellKitModel", "CellKitRendering", "CellKitBrowse", "CellKitTerminal",
                "CellKitTestSupport",
            ]),
        .testTarget(
            name: "CellKitCommandTests",
            dependencies: [
                "CellKitCommand", "CellKit", "CellKitModel", "CellKitText", "CellKitDiscovery", "CellKitRuntime",
                "CellKitSupervision", "CellKitTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(name: "CellKitBenchmarkTests", dependencies: ["CellKitBenchmark"]),
    ]
        + cPlugins.flatMap(cPlugin)
        // Without the Swift runtime, which `swiftc` links into a library product (its comment).
        + [
            .target(
                name: "CPluginLinking", publicHeadersPath: ".",
                linkerSettings: [.unsafeFlags(["-nostartfiles", "-no-toolchain-stdlib-rpath"])])
        ]
        + swiftPlugins.flatMap(swiftPlugin)
)

// Our Swift targets reach a concrete generic type's metadata through its accessor, with the
// conformances it needs passed in, not through its mangled name: by name, the first use of each
// (a `[CellIdentifier: CellType]`, a `Result<_, Reason>`) made the runtime check a conformance by
// scanning every conformance record in the binary, about 300,000 instructions each, a fifth of a
// small render's (BENCHMARKS.md, "Measurements behind the code": MetadataAccessors). Only when
// CellKit is built from its own folder: SwiftPM refuses a package with unsafe flags as a versioned
// dependency, and a dependency is checked out under `checkouts/` (or a registry's `downloads/`).
// (C targets ignore Swift settings.)
let isDependency = ["/checkouts/", "/registry/downloads/"].contains { Context.packageDirectory.contains($0) }
if !isDependency {
    for target in package.targets {
        target.swiftSettings =
            (target.swiftSettings ?? [])
            + [.unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])]
    }
}
