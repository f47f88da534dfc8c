// The files `cellkit new` writes. Each project's plugin reads a title and a detail from the row's
// data and falls back when a key is missing or of another type, so `cellkit check` finds nothing.

import CellKit
import Foundation

/// The projects `cellkit new` writes, and writing them.
enum PluginTemplate {
    /// An error naming the path that could not be written and what to do.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Why `name` cannot name a plugin, or nil when it can.
    static func problem(withName name: String) -> String? {
        do {
            _ = try CellIdentifier(name)
        } catch {
            return "'\(name.terminalSafe)' cannot name a plugin: \(error); use a name like Weather or Tally_2"
        }
        if name.utf8.count > 63 {
            return
                "'\(name)' is \(name.utf8.count) bytes long; a plugin's name holds at most 63 (cellkit.h's CK_PLUGIN)"
        }
        if BuiltinCells.names.contains(name) {
            return "'\(name)' is a built-in cell type, which always wins over a plugin's; choose another name"
        }
        return nil
    }

    /// Whether `cellkit sdk install` put cellkit.pc where the C project's Makefile looks (PKG_CONFIG_PATH,
    /// ~/.local/lib/pkgconfig, or pkg-config's usual folders).
    static func sdkInstalled(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let folders =
            (environment["PKG_CONFIG_PATH"] ?? "").split(separator: ":").map(String.init)
            + [home + "/.local/lib/pkgconfig"] + SDKInstaller.defaultPkgConfigDirectories.sorted()
        return folders.contains { FileManager.default.fileExists(atPath: $0 + "/cellkit.pc") }
    }

    /// The `.package(…)` line for the CellKit package: `given` (a folder or a git URL), else the
    /// checkout this cellkit was built from, if it is still there.
    static func package(_ given: String?, builtFrom: String = #filePath) throws -> String {
        if let given, given.contains("://") || given.hasPrefix("git@") {
            return ".package(url: \(literal(given)), from: \(literal(CellKitVersion.current)))"
        }
        let checkout =
            given.map { SearchPath.custom([$0]).entries[0].path }
            ?? URL(fileURLWithPath: builtFrom).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: checkout + "/Sources/CellKitPlugin") else {
            let which =
                given == nil
                ? "the checkout this cellkit was built from (\(checkout)) is gone"
                : "\(checkout) is not a CellKit checkout (it has no Sources/CellKitPlugin)"
            throw Failure(
                description:
                    "cannot make a swift project: \(which.terminalSafe); give --cellkit-package with a CellKit "
                    + "checkout's folder or its git URL")
        }
        // Named: a path dependency is otherwise known by its folder's name, and `package: "CellKit"` fails.
        return ".package(name: \"CellKit\", path: \(literal(checkout)))"
    }

    /// `text` as a Swift string literal.
    private static func literal(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Makes `folder` (which must not exist yet) and writes `files` into it.
    static func write(_ files: [(path: String, text: String)], into folder: String) throws {
        guard !FileManager.default.fileExists(atPath: folder) else {
            throw Failure(
                description:
                    "cannot make \(folder.terminalSafe): it already exists; choose another NAME or --dir, "
                    + "or move it away")
        }
        do {
            for file in files {
                let path = folder + "/" + file.path
                try FileManager.default.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(file.text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            }
        } catch {
            throw Failure(
                description:
                    "cannot write the project in \(folder.terminalSafe): \((error as NSError).localizedDescription); "
                    + "choose a --dir you can write")
        }
    }

    /// The samples both projects ship for their type, by name: a typical row, one without data, a long
    /// text, and a right-to-left one. Each is a JSON object of the row's data.
    static let previewSamples: [(name: String, json: String)] = [
        ("typical", #"{"title": "Ada Lovelace", "detail": "Wrote the first program"}"#),
        ("empty", "{}"),
        (
            "long",
            #"{"title": "A title long enough to run past the width of the row and be cut where it ends", "detail": "And a detail line that is just as long, so that both labels are seen cut"}"#
        ),
        ("rtl", #"{"title": "שלום עולם", "detail": "مرحبا بالعالم"}"#),
    ]

    /// The C project's `CK_PREVIEW` lines for the type `name`.
    static func previewLines(_ name: String) -> [String] {
        previewSamples.map { sample in
            let escaped = sample.json.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "\"", with: "\\\"")
            return "CK_PREVIEW(\(name), \(sample.name), \"\(escaped)\");"
        }
    }

    /// The Swift project's preview file (`lib<name>.preview.yaml`, at the top of the package, where
    /// cellkit looks for the file of a plugin built into its `.build`).
    static func previewFile(_ name: String) -> String {
        var lines = [
            "# Previews of the \(name) plugin: sample rows of its cell type, by name, each the row's data.",
            "# cellkit reads this file beside lib\(name).so, or here at the top of the package for a plugin",
            "# SwiftPM built into .build; copy it beside lib\(name).so when you install that.",
            "# `cellkit inspect` lists them and `cellkit check` runs the hooks over them as typical data.",
            "\(name):",
        ]
        lines += previewSamples.map { "  \($0.name): \($0.json)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The sample table both projects render and check with.
    static func table(name: String, language: String) -> String {
        """
        # A sample table for the \(name) plugin (\(language)): cellkit render \(name).yaml --plugin-path <folder of lib\(name).so>
        title: \(name)
        sections:
          - header: \(name) cells
            cell: \(name)
            rows:
              - {title: First row, detail: Its detail comes from the row's data}
              - {title: Second row}
              - {}

        """
    }

    /// A C project: the plugin's source, a Makefile using pkg-config, a sample table.
    /// This `cellkit`'s own path (symbolic links resolved), for the Makefile's fallback.
    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "cellkit"
    }

    static func c(name: String, cellkit: String = executable) -> [(path: String, text: String)] {
        let source = """
            /* The \(name) cell plugin for CellKit, made by `cellkit new c \(name)`. Its rows show a title
             * and a detail from the row's data. Build it with `make` (see the Makefile). */
            #include <stdio.h>
            #include <cellkit.h>

            CK_PLUGIN("\(name)", "0.1.0", "\(name) cells: a title and a detail from each row's data");

            /* Once per new cell: the look every \(name) row shares. */
            CK_INIT_CELL_FOR(\(name)) {
                cell->host->cell_set_int(cell, CK_CELL_STYLE, CK_STYLE_SUBTITLE);
                ck_set_font(ck_text_label(cell), 17, CK_WEIGHT_BOLD);
                ck_set_text_color(ck_text_label(cell), CK_RGB(0, 90, 200));
            }

            /* Every time a cell is handed out for a row: this row's texts. A key the row does not
             * have (or that holds another type) is no error: the hook falls back. Both texts are set
             * every time, so a reused cell keeps nothing from its last row. */
            CK_CUSTOMIZE_CELL_FOR(\(name)) {
                const ck_data *data = cell->host->row_data(cell);
                const char *title = NULL, *detail = NULL;
                char fallback[48];
                if (cell->host->data_string(data, "title", &title) != CK_OK) {
                    snprintf(fallback, sizeof fallback, "Row %lld", (long long)indexPath.row);
                    title = fallback;
                }
                if (cell->host->data_string(data, "detail", &detail) != CK_OK) detail = "";
                ck_set_text(ck_text_label(cell), title);
                ck_set_text(ck_detail_text_label(cell), detail);
            }

            /* Previews: sample rows of this type, each a JSON object of the row's data, read from the
             * library file without running it. `cellkit inspect` lists them and `cellkit check` runs the
             * hooks over them as typical data: keep one for each state a row can be in. */
            \(previewLines(name).joined(separator: "\n"))

            """
        let makefile = """
            # Builds lib\(name).so with the flags of the CellKit SDK (`cellkit sdk install`, once).
            #   make           build lib\(name).so
            #   make render    draw \(name).yaml with it
            #   make check     vet it: cellkit check over sample rows and \(name).yaml's
            #   make preview   every sample in every configuration, drawn again on each make in another pane
            #   make install   copy it to the folder cellkit searches (cellkit.pc's pluginsdir)
            #   make snapshots write every configuration cellkit preview draws into snapshots/ (commit it)
            #   make test      snapshot test: cellkit preview draws them again and fails on any change
            #   make update    accept an intended change: the golden files that differ rewritten

            # `cellkit sdk install` puts cellkit.pc in ~/.local/lib/pkgconfig unless given --prefix.
            # Given to $(shell) by hand: GNU Make before 4.4 does not export variables to it.
            export PKG_CONFIG_PATH := $(if $(PKG_CONFIG_PATH),$(PKG_CONFIG_PATH):)$(HOME)/.local/lib/pkgconfig
            CELLKIT_CFLAGS := $(shell PKG_CONFIG_PATH='$(PKG_CONFIG_PATH)' pkg-config --cflags cellkit 2>/dev/null)
            ifeq ($(strip $(CELLKIT_CFLAGS)),)
            $(error pkg-config finds no cellkit.pc: run `cellkit sdk install` (or add its lib/pkgconfig folder to PKG_CONFIG_PATH))
            endif

            CC ?= cc
            # -Wmissing-prototypes: a hook written without its CK_..._FOR macro (which declares its exact
            # signature) warns, so a wrong return or parameter type cannot pass unseen.
            CFLAGS ?= -O2 -Wall -Wextra -Wmissing-prototypes
            # The cellkit on PATH, else the one that wrote this project; or: make render CELLKIT=/path/to/cellkit
            CELLKIT ?= $(or $(shell command -v cellkit 2>/dev/null),\(cellkit))

            lib\(name).so: \(name).c
            \t$(CC) -shared -fPIC $(CFLAGS) $(CELLKIT_CFLAGS) \(name).c -o $@

            render: lib\(name).so
            \t$(CELLKIT) render \(name).yaml --plugin-path .

            check: lib\(name).so
            \t$(CELLKIT) check ./lib\(name).so --table \(name).yaml

            # The terminal view of cellkit preview, watching the plugin: run make in another pane.
            preview: lib\(name).so
            \t$(CELLKIT) preview ./lib\(name).so --watch

            # Golden files: each cell type, sample and configuration (style, selection, width, light and
            # dark, direction, reuse) as text and JSON. After an intended change: make update.
            snapshots: lib\(name).so
            \t$(CELLKIT) preview ./lib\(name).so --snapshot snapshots

            test: lib\(name).so
            \t$(CELLKIT) preview ./lib\(name).so --compare snapshots

            update: lib\(name).so
            \t$(CELLKIT) preview ./lib\(name).so --compare snapshots --update

            # Mode 644, and folders made 755 (umask 022): cellkit refuses a plugin, or a folder above
            # it, that its group or others can write, which cp and mkdir make under a umask of 002.
            install: lib\(name).so
            \tumask 022 && install -D -m 644 lib\(name).so "$$(pkg-config --variable=pluginsdir cellkit)/lib\(name).so"

            clean:
            \trm -f lib\(name).so

            .PHONY: render check preview snapshots test update install clean

            """
        return [
            ("\(name).c", source), ("Makefile", makefile),
            ("\(name).yaml", table(name: name, language: "C")),
        ]
    }

    /// A Swift package: the hooks in Swift, the descriptor in C, one dynamic library; a sample table.
    static func swift(name: String, cellkit: String) -> [(path: String, text: String)] {
        let manifest = """
            // swift-tools-version:6.0
            // The \(name) cell plugin for CellKit, made by `cellkit new swift \(name)`: the Swift hooks and a
            // one-file C descriptor, linked into one shared library, lib\(name).so.
            import PackageDescription

            let package = Package(
                name: "\(name)",
                products: [
                    // `.dynamic`: a shared library cellkit can load. It links both targets.
                    .library(name: "\(name)", type: .dynamic, targets: ["\(name)", "\(name)Descriptor"])
                ],
                dependencies: [
                    \(cellkit)
                ],
                targets: [
                    // The hooks: public @_cdecl functions over the CellKitPlugin layer.
                    .target(name: "\(name)", dependencies: [.product(name: "CellKitPlugin", package: "CellKit")]),
                    // The descriptor: C data, because Swift cannot export a C data symbol.
                    .target(
                        name: "\(name)Descriptor", dependencies: [.product(name: "CellKitPlugin", package: "CellKit")],
                        publicHeadersPath: "."),
                ]
            )

            """
        let hooks = """
            // The \(name) cell type: a title and a detail from the row's data. cellkit finds the hooks by
            // their C names (`initCellFor\(name)`, `customizeCellFor\(name)`), which @_cdecl gives them.
            // They must be `public`: an internal @_cdecl function is dropped from release builds.

            import CellKitPlugin

            /// Once per new cell: the look every \(name) row shares.
            @_cdecl("initCellFor\(name)")
            public func initCellFor\(name)(_ raw: UnsafeMutablePointer<ck_cell>?, _ indexPath: ck_index_path) {
                let cell = Cell(raw)
                cell.style = CK_STYLE_SUBTITLE
                cell.textLabel.fontWeight = CK_WEIGHT_BOLD
                cell.textLabel.textColor = rgb(0, 90, 200)
            }

            /// Every time a cell is handed out for a row: this row's texts (both set every time, so a
            /// reused cell keeps nothing from its last row).
            @_cdecl("customizeCellFor\(name)")
            public func customizeCellFor\(name)(_ raw: UnsafeMutablePointer<ck_cell>?, _ indexPath: ck_index_path) {
                let cell = Cell(raw)
                cell.textLabel.text = cell.data.string("title") ?? "Row \\(indexPath.row)"
                cell.detailTextLabel.text = cell.data.string("detail") ?? ""
            }

            """
        let descriptor = """
            /* The descriptor of the \(name) plugin: plain C data that cellkit reads straight from the
             * library file, before any of the plugin's code runs. */
            #include "cellkit.h"

            CK_PLUGIN("\(name)", "0.1.0", "\(name) cells: a title and a detail from each row's data");

            """
        return [
            ("Package.swift", manifest), ("Sources/\(name)/\(name).swift", hooks),
            ("Sources/\(name)Descriptor/\(name)Descriptor.c", descriptor),
            ("\(name).yaml", table(name: name, language: "Swift")),
            ("lib\(name).preview.yaml", previewFile(name)),
            (".gitignore", ".build/\n"),
        ]
    }
}
