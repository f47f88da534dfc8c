// The help screens HelpTexts prints, as ArgumentParser writes them 80 columns wide. Generated:
// HelpTextsTests writes this file anew when ArgumentParser's text changes. Do not edit.

extension HelpTexts {
    /// The help `command` (nil: `cellkit` itself) shows at `columns` wide, as ArgumentParser writes it.
    static func text(for command: String?) -> String? {
        switch command {
        case nil:
            return #"""
                OVERVIEW: Table cells from shared-library plugins: render tables that mix them,
                list what is registered, inspect a plugin.

                Plugins are .so files exporting initCellFor<Id>, customizeCellFor<Id>,
                heightForCellFor<Id>, prepareCellForReuseFor<Id> and layoutSubviewsFor<Id>.
                They are searched for in: --plugin-path folders, then CELLKIT_PLUGIN_PATH
                (colon-separated), then the folder of the cellkit executable, then
                $XDG_DATA_HOME/cellkit/plugins (default ~/.local/share/cellkit/plugins). The
                first plugin to offer an identifier wins.

                cellkit 0.1.0 (plugin ABI 1.4).

                USAGE: cellkit <subcommand>

                OPTIONS:
                  --version               Show the version.
                  -h, --help              Show help information.

                SUBCOMMANDS:
                  render                  Render a table document (YAML or JSON) whose rows mix
                                          cells from any plugins.
                  browse                  Browse a table document in a full-screen view that
                                          scrolls, reusing cells as rows come and go.
                  list                    List registered cell types, their hooks and plugins;
                                          shadowed and broken plugins with the reason.
                  inspect                 Show a plugin's descriptor, ABI, hooks with their
                                          signatures, and every problem.
                  check                   Vet a plugin: run its hooks in a worker process over
                                          sample rows and report every fault.
                  preview                 Draw every sample of a plugin's cell types in every
                                          configuration: a view, an HTML page, snapshots.
                  new                     Start a plugin project in C (source, Makefile, sample
                                          table) or Swift (a package).
                  sdk                     Install the plugin SDK: cellkit.h and a pkg-config
                                          file (cellkit.pc).

                  See 'cellkit help <subcommand>' for detailed help.
                """#
        case "render"?:
            return #"""
                OVERVIEW: Render a table document (YAML or JSON) whose rows mix cells from any
                plugins.

                Rows are drawn one at a time with reused cells, so tables of millions of rows
                (streamed from a .jsonl or .csv file) render in constant memory. Control
                characters and escape sequences in the data are shown as visible symbols, never
                sent to the terminal.

                Examples:
                  cellkit render Manifests/Tables/showcase.yaml
                  cellkit render table.yaml --format ansi --select 2.1
                  cellkit render big.yaml --rows 1001..1020 --width 100
                  cellkit render table.yaml --output table.html

                Without --format, the format is the one --output's extension names (.html or
                .htm: html, .json: json, .jsonl or .ndjson: jsonl, .txt: text), else text. An
                explicit --format wins; if it is not the one the extension names, a warning
                says so. --color always with a format other than ansi warns too: only ansi has
                colour.

                --output writes a temporary file beside FILE and renames it over FILE once the
                table is complete; through a symbolic link, the file it names is replaced and
                the link stays. A replaced file keeps its permissions (and, run as root, its
                owner and group); a new one gets 0666 less the umask. Refused, before anything
                is written: a directory, FIFO, socket or device, and the document or any file
                it reads (stylesheet, asset catalog, image files, rowsFrom data files), by any
                name. On an error, SIGINT, SIGTERM, SIGHUP or exit the temporary is removed and
                FILE keeps what it had.

                On a terminal, text and ansi of a document wider than the terminal are drawn as
                wide as the terminal, with a warning first (--width draws it at the document's
                width). ansi's colours follow the terminal's depth, from NO_COLOR, COLORTERM
                and TERM (truecolor, 256, 16, none), each colour written as the nearest of its
                palette; --color-depth sets it.

                json and jsonl are versioned ("format": "cellkit.render", "version": 1) and
                described by Schemas/cellkit-render-1.schema.json: one document, or a header
                line then a row a line.

                Other warnings go to standard error after the table, then one line per plugin
                hook whose host calls failed (how many, and the first failure's message).

                Plugins run in a worker process: a plugin that crashes, calls exit() or does
                not return from a hook within --hook-timeout seconds costs only its own rows.
                One line on standard error names the plugin file, the hook, the cell type, the
                row and the signal (or exit status, or timeout); that cell type's rows are
                drawn as placeholders, and the rest of the table is drawn as usual.
                --no-isolation runs plugins in this process instead (faster to start; a crash
                ends the render, after the same line).

                Exit status: 0 when the table is drawn; 3 when it is drawn but a plugin faulted
                (its rows are placeholders); 2 when it is drawn with --strict but something was
                warned about; 1 when the document, a data file, a plugin or the output cannot
                be used (a refused --output included), or writing fails; 64 for a malformed
                option. Killed by SIGINT, SIGTERM or SIGHUP, it dies by that signal (128 + its
                number in a shell).

                USAGE: cellkit render [<options>] <table>

                ARGUMENTS:
                  <table>                 The table document: a .yaml, .yml or .json file; -
                                          (or /dev/stdin) reads it from standard input.

                OPTIONS:
                  --format <format>       text (box drawing), ansi (with colour), html (a
                                          standalone page), json (the laid-out rows) or jsonl
                                          (a header line, then a row a line); default: the one
                                          --output's extension names (.html, .json, .jsonl,
                                          .txt), else text. (values: text, ansi, html, json,
                                          jsonl)
                  --width <n>             Columns; default: the document's width (text and
                                          ansi: at most a terminal's), else the terminal's,
                                          else 80.
                  --select <section.row>  Draw the row at SECTION.ROW as selected, both counted
                                          from 1 as browse's status line counts (2.1: section
                                          2's first row).
                  --rows <from..to>       Draw only rows FROM through TO, counted from 1 across
                                          all sections as browse's status line counts (open
                                          ends: 11.., ..10).
                  --output <file>         Write to FILE (a regular file, new or replaced)
                                          instead of standard output; it appears only once
                                          complete.
                  --root <dir>            The folder the document may read files from
                                          (stylesheet, assets, rowsFrom); default: the
                                          document's own folder.
                  --ascii                 Draw borders with ASCII instead of box-drawing
                                          characters (text and ansi).
                  --color <color>         For ansi: colour always, never, or auto (the default:
                                          --format ansi means colour, into a pipe or a file
                                          too); NO_COLOR and TERM=dumb leave weight only,
                                          unless --color-depth is given. (values: auto, always,
                                          never; default: auto)
                  --color-depth <depth>   For ansi: the colours the terminal shows, truecolor,
                                          256, 16 or none; default: from NO_COLOR, COLORTERM
                                          and TERM. (values: truecolor, 256, 16, none)
                  --theme <light|dark|auto>
                                          For ansi: the terminal's background, light, dark or
                                          auto (COLORFGBG, else the terminal's answer to an OSC
                                          11 query, else unknown: the selection then draws its
                                          own text colour too). (values: light, dark, auto;
                                          default: auto)
                  --strict                Exit with status 2 if anything was warned about
                                          (failed host calls included); the table is still
                                          drawn.
                  --plugin-path <dir>     A folder (or one .so file) to search before the
                                          others; repeat for more.
                  --allow-unsafe-permissions
                                          Load plugins from files and folders that others can
                                          write. Only for folders you trust.
                  --no-cache              Read every plugin file again instead of using the
                                          registry cache ($XDG_CACHE_HOME/cellkit, default
                                          ~/.cache/cellkit: what was read from each plugin, and
                                          list's output), and rewrite the cache, if there is
                                          one, from what was read.
                  -v, --verbose           Say on standard error where plugins are searched for,
                                          where each was found, and why each file was skipped.
                  --no-isolation          Run plugins in this process: no worker, and a
                                          plugin's crash ends the render.
                  --hook-timeout <seconds>
                                          Seconds a hook (or a plugin's loading) may run before
                                          its worker is stopped and its type quarantined.
                                          (default: 10.0)
                  --sandbox <on|require|off>
                                          on: plugins run in a sandbox closed before their code
                                          runs (own namespaces, no terminal, no privileges;
                                          read-only plugins, libraries and the files the
                                          document names; no network, processes or programs);
                                          require: as on, and fail if the kernel lacks a part;
                                          off: with your full rights. See SECURITY.md. (values:
                                          on, require, off; default: on)
                  --allow-read <path>     A file or folder plugins may also read in the sandbox
                                          (repeatable); by default they read only the plugin
                                          files, their libraries and the files the document
                                          names.
                  --worker-memory <MiB>   A worker's memory limit in MiB (its address space,
                                          1024 and up; 0: none). A plugin over it fails its
                                          allocation. (default: 4096)
                  --version               Show the version.
                  -h, --help              Show help information.

                """#
        case "browse"?:
            return #"""
                OVERVIEW: Browse a table document in a full-screen view that scrolls, reusing
                cells as rows come and go.

                The table is drawn as render --format ansi draws it, at the terminal's width,
                on the alternate screen, with the title above and a status line below (row N of
                M, the section, the file). Rows are numbered from 1, as render --rows and
                --select number them. Only the rows on screen are laid out: cells leaving the
                screen go back to their queues and are dequeued for the rows coming in; only
                the lines that change are drawn again.

                Keys, as in less: ↑/↓ or j/k a row; PgUp/PgDn, b/space/f a page; Ctrl-U/Ctrl-D
                half a page; Home/End or g/G the first and last row; a count before a key: 50G
                or 50g or :50 row 50 (at the top), 10j and 10k ten rows; / searches the rows'
                data, n the next match, N the previous one (in the background: the view goes
                on, the status line counts the rows searched, Esc stops it; a match is put
                about a third down the screen); Enter selects the row (shows its data); ? or h
                shows the keys (any key returns); q or Ctrl-C quits. Esc cancels a prompt, a
                count or a search, and never quits. The mouse wheel scrolls. A record of a data
                file that cannot be read is drawn as an error row, the status line naming its
                file and line, and the view goes on. The view follows the terminal's size (a
                25×4 window still shows a row); Ctrl-Z suspends it. The terminal is restored on
                q, on an error, on any signal that ends the process (SIGINT, SIGTERM, SIGHUP,
                SIGUSR1, SIGPIPE, SIGALRM and the rest), and if the process crashes.

                --pick: Enter prints the selected row's data as one line of JSON on standard
                output and exits 0; q exits 1 and prints nothing. The view is drawn on
                /dev/tty, so `cellkit browse t.yaml --pick | jq .id` works in a pipeline.

                A data file (rowsFrom) is counted and indexed in the background: the status
                line says "of ≥ M, counting" meanwhile. End shows a JSON Lines file's last rows
                at once, read back from its end and numbered "≈" until the count numbers them;
                with a CSV file (a line end may be inside quotes) or two files still counted,
                End waits for the count, and so do :N past the rows counted and a search
                started from the rows read back. Rows appended while the file is counted may be
                shown; rows appended after are not.

                Plugins run in a worker process that lives as long as the view: a plugin that
                crashes, calls exit() or does not return from a hook within --hook-timeout
                seconds costs only its own cell type: the window is drawn again with that
                type's rows as placeholders; the status line names the plugin file, the hook,
                the cell type and the row, and the view goes on. With --watch, the table is
                opened again in a new worker whenever the document, a file it reads or a plugin
                file changes.

                Exit status: 0 on q (a malformed record shown on the way included); with
                --pick, 0 when a row was picked and 1 on q; 1 when standard input or output is
                not a terminal (without --pick), or the document, a data file or a plugin
                cannot be used.

                USAGE: cellkit browse [<options>] <table>

                ARGUMENTS:
                  <table>                 The table document: a .yaml, .yml or .json file.

                OPTIONS:
                  --root <dir>            The folder the document may read files from
                                          (stylesheet, assets, rowsFrom); default: the
                                          document's own folder.
                  --plugin-path <dir>     A folder (or one .so file) to search before the
                                          others; repeat for more.
                  --allow-unsafe-permissions
                                          Load plugins from files and folders that others can
                                          write. Only for folders you trust.
                  --no-cache              Read every plugin file again instead of using the
                                          registry cache ($XDG_CACHE_HOME/cellkit, default
                                          ~/.cache/cellkit: what was read from each plugin, and
                                          list's output), and rewrite the cache, if there is
                                          one, from what was read.
                  -v, --verbose           Say on standard error where plugins are searched for,
                                          where each was found, and why each file was skipped.
                  --hook-timeout <seconds>
                                          Seconds a hook (or a plugin's loading) may run before
                                          its worker is stopped and its type quarantined.
                                          (default: 10.0)
                  --no-isolation          Run plugins in this process: no worker, and a
                                          plugin's crash ends the view (the terminal restored).
                  --sandbox <on|require|off>
                                          on: plugins run in a sandbox closed before their code
                                          runs (own namespaces, no terminal, no privileges;
                                          read-only plugins, libraries and the files the
                                          document names; no network, processes or programs);
                                          require: as on, and fail if the kernel lacks a part;
                                          off: with your full rights. See SECURITY.md. (values:
                                          on, require, off; default: on)
                  --allow-read <path>     A file or folder plugins may also read in the sandbox
                                          (repeatable); by default they read only the plugin
                                          files, their libraries and the files the document
                                          names.
                  --worker-memory <MiB>   A worker's memory limit in MiB (its address space,
                                          1024 and up; 0: none). A plugin over it fails its
                                          allocation. (default: 4096)
                  --theme <light|dark|auto>
                                          The terminal's background, light, dark or auto
                                          (COLORFGBG, else unknown: the cursor row then draws
                                          its own text colour too). (values: light, dark, auto;
                                          default: auto)
                  --pick                  Enter prints the selected row's data as a JSON line
                                          on standard output and exits (q exits 1).
                  --stats                 Show in the status line how many cells were made and
                                          how many times reused: rows are drawn one at a time,
                                          so one cell a type is made, then reused row after row.
                  --watch                 Open the table again, with its plugins loaded anew in
                                          a new worker, whenever the document, a file it reads
                                          or a plugin file changes (a make in another pane);
                                          the view stays where it was.
                  --version               Show the version.
                  -h, --help              Show help information.

                """#
        case "list"?:
            return #"""
                OVERVIEW: List registered cell types, their hooks and plugins; shadowed and
                broken plugins with the reason.

                Reads each plugin's ELF symbol table only: no plugin code runs.

                USAGE: cellkit list [--plugin-path <dir> ...] [--allow-unsafe-permissions] [--no-cache] [--verbose] [--json]

                OPTIONS:
                  --plugin-path <dir>     A folder (or one .so file) to search before the
                                          others; repeat for more.
                  --allow-unsafe-permissions
                                          Load plugins from files and folders that others can
                                          write. Only for folders you trust.
                  --no-cache              Read every plugin file again instead of using the
                                          registry cache ($XDG_CACHE_HOME/cellkit, default
                                          ~/.cache/cellkit: what was read from each plugin, and
                                          list's output), and rewrite the cache, if there is
                                          one, from what was read.
                  -v, --verbose           Say on standard error where plugins are searched for,
                                          where each was found, and why each file was skipped.
                  --json                  Print JSON for scripts.
                  --version               Show the version.
                  -h, --help              Show help information.

                """#
        case "inspect"?:
            return #"""
                OVERVIEW: Show a plugin's descriptor, ABI, hooks with their signatures, and
                every problem.

                Give a .so file, or a cell identifier to inspect the plugin that provides it (a
                built-in cell type's name shows what the built-in fills from the row's data).
                Each cell type's previews are listed: sample rows the plugin ships (CK_PREVIEW,
                or libNAME.preview.yaml beside libNAME.so), with a warning for each that cannot
                be used. Exits with status 1 if the plugin cannot be used or no plugin provides
                the identifier. No plugin code runs.

                USAGE: cellkit inspect <target> [--plugin-path <dir> ...] [--allow-unsafe-permissions] [--no-cache] [--verbose] [--json]

                ARGUMENTS:
                  <target>                A plugin file, or a registered cell identifier.

                OPTIONS:
                  --plugin-path <dir>     A folder (or one .so file) to search before the
                                          others; repeat for more.
                  --allow-unsafe-permissions
                                          Load plugins from files and folders that others can
                                          write. Only for folders you trust.
                  --no-cache              Read every plugin file again instead of using the
                                          registry cache ($XDG_CACHE_HOME/cellkit, default
                                          ~/.cache/cellkit: what was read from each plugin, and
                                          list's output), and rewrite the cache, if there is
                                          one, from what was read.
                  -v, --verbose           Say on standard error where plugins are searched for,
                                          where each was found, and why each file was skipped.
                  --json                  Print JSON for scripts.
                  --version               Show the version.
                  -h, --help              Show help information.

                """#
        case "check"?:
            return #"""
                OVERVIEW: Vet a plugin: run its hooks in a worker process over sample rows and
                report every fault.

                Give a .so file to check each of its cell types, or a cell identifier to check
                that type (in the plugin that provides it). Each type's hooks run in a worker
                process, so a crash, an exit() or a hook running past --hook-timeout is
                reported, naming the hook and the row (a table's row by its section and row,
                counted from 1; a sample by its name, sample "long" or sample "empty data", as
                cellkit preview heads it), and the check goes on in a new worker after that row
                (at most 3 such faults a type).

                Samples: empty data, typical data and hostile data (very long texts, control
                characters, values of the wrong type, numbers and nulls for every key, deep
                nesting). Typical data is the samples the plugin ships for the type
                (CK_PREVIEW, or libNAME.preview.yaml beside libNAME.so: see `cellkit inspect`),
                else CellKit's own; the report says which. Rows that each change one key the
                hooks read on typical data (so reuse is tested without a table); and with
                --table the table's rows of the type (the first 24; every other row of the type
                then runs once through the routine, so a fault at any row is found). Each
                sample runs on a new cell, each hook timed; then each sample is laid out
                through the reuse routine on a cell another sample of the same style gave back,
                and compared with the same sample on a new cell: every property that differs is
                reported with both values. Each sample is also drawn right to left (as in a
                direction: rtl section, which hooks can read): views that overlap there, or a
                subview cut there, but not left to right are reported.

                Reported: crashes (the signal), exit(), timeouts, failed host calls with their
                last_error, the context's limit warnings (heights, frames, text sizes,
                subviews, styles), height answers outside 1-200 lines, reuse differences,
                right-to-left overlaps, symbols a letter or two from one of the type's hooks
                (never called), writes to standard output, writes to cellkit's own channel, and
                reads of the row's data as the wrong type on typical data or a table row
                (naming the key). Other failed data reads (a key missing from CellKit's own
                samples, the hostile samples' wrong types) and missing images are notes: hooks
                handle those through the status; a key missing from typical data or a table row
                is an optional key left out, not noted. Notes are listed with -v (which also
                says on standard error where plugins were searched for); without it one line
                counts them. A part of the sandbox this machine lacks is always listed.

                Exit status: 0 the plugin is clean; 1 it has findings; 2 it cannot be checked
                (not found, unusable, a built-in type, the table cannot be read); 64 a
                malformed option.

                USAGE: cellkit check <target> [--table <doc>] [--json] [--hook-timeout <seconds>] [--sandbox <on|require|off>] [--allow-read <path> ...] [--worker-memory <MiB>] [--plugin-path <dir> ...] [--allow-unsafe-permissions] [--no-cache] [--verbose]

                ARGUMENTS:
                  <target>                A plugin file, or a registered cell identifier.

                OPTIONS:
                  --table <doc>           A table document whose rows of the type are samples
                                          too.
                  --json                  Print JSON for scripts.
                  --hook-timeout <seconds>
                                          Seconds a hook may run before its worker is stopped.
                                          (default: 5.0)
                  --sandbox <on|require|off>
                                          on: plugins run in a sandbox closed before their code
                                          runs (own namespaces, no terminal, no privileges;
                                          read-only plugins, libraries and the files the
                                          document names; no network, processes or programs);
                                          require: as on, and fail if the kernel lacks a part;
                                          off: with your full rights. See SECURITY.md. (values:
                                          on, require, off; default: on)
                  --allow-read <path>     A file or folder plugins may also read in the sandbox
                                          (repeatable); by default they read only the plugin
                                          files, their libraries and the files the document
                                          names.
                  --worker-memory <MiB>   A worker's memory limit in MiB (its address space,
                                          1024 and up; 0: none). A plugin over it fails its
                                          allocation. (default: 4096)
                  --plugin-path <dir>     A folder (or one .so file) to search before the
                                          others; repeat for more.
                  --allow-unsafe-permissions
                                          Load plugins from files and folders that others can
                                          write. Only for folders you trust.
                  --no-cache              Read every plugin file again instead of using the
                                          registry cache ($XDG_CACHE_HOME/cellkit, default
                                          ~/.cache/cellkit: what was read from each plugin, and
                                          list's output), and rewrite the cache, if there is
                                          one, from what was read.
                  -v, --verbose           Say on standard error where plugins are searched for,
                                          where each was found, and why each file was skipped.
                  --version               Show the version.
                  -h, --help              Show help information.

                """#
        case "preview"?:
            return #"""
                OVERVIEW: Draw every sample of a plugin's cell types in every configuration: a
                view, an HTML page, snapshots.

                Give a .so file to preview each of its cell types, or a cell identifier to
                preview that type. Each sample (those the plugin ships with CK_PREVIEW or its
                preview file; for a type with none, check's typical data and the same with long
                texts) is drawn in a grid of configurations: the styles plain, grouped and
                insetGrouped, selected and not, light and dark, left to right and right to left
                at the default width (60 columns); unselected at the narrow (40) and wide (100)
                widths, reused after a width change (40, then 60), and reused after another
                sample, whose differences from a fresh cell are listed under it. Check's
                findings are printed beside the sample they concern (--no-check leaves them
                out).

                --look DOC draws the samples with that table document's stylesheets, asset
                catalog and row height, for hooks that apply styles or draw images.

                Plugins run in sandboxed worker processes, as in render: a plugin that fails to
                load or faults in a hook shows the error in place of that configuration, and
                the preview goes on.

                On a terminal the preview is a scrolling view with browse's moving keys (j/k,
                Ctrl-D/Ctrl-U, f/b, g/G, / to search, n for the next match, q to quit; no
                counts); elsewhere it is printed as text. --output FILE writes one HTML page
                instead: the configurations side by side, light and dark by the page's own
                button and the system's prefers-color-scheme.

                Snapshot tests: --snapshot DIR writes each configuration's text
                (DIR/TYPE/SAMPLE/CONFIGURATION.txt, no escapes) and its geometry (.json);
                --compare DIR draws again and compares, printing a diff naming the type, sample
                and configuration of each file that changed, is missing or is extra; with
                --update it rewrites those files instead.

                Exit status: 0 drawn (with --compare: every file matches, or --update rewrote
                them); 1 --compare found differences; 2 the plugin cannot be previewed (not
                found, unusable, a built-in type) or a file cannot be written; 3 drawn, but a
                plugin faulted (its configurations show the fault); 64 a malformed option.

                USAGE: cellkit preview [<options>] <target>

                ARGUMENTS:
                  <target>                A plugin file, or a registered cell identifier.

                OPTIONS:
                  --output <file>         Write the preview as one HTML page to FILE instead of
                                          showing it.
                  --snapshot <dir>        Write every configuration's text and JSON as golden
                                          files into DIR.
                  --compare <dir>         Compare every configuration with the golden files in
                                          DIR; exit 1 if any differs.
                  --update                With --compare: rewrite the files that differ, are
                                          missing or are extra.
                  --look <doc>            A table document whose stylesheets, asset catalog and
                                          row height the samples are drawn with.
                  --no-check              Do not run check's hooks over the samples (no
                                          findings beside them).
                  --watch                 In the terminal view: when the plugin file or its
                                          preview file changes (a make in another pane), draw
                                          every configuration again in new workers, the view
                                          staying where it was.
                  --hook-timeout <seconds>
                                          Seconds a hook may run before its worker is stopped.
                                          (default: 10.0)
                  --sandbox <on|require|off>
                                          on: plugins run in a sandbox closed before their code
                                          runs (own namespaces, no terminal, no privileges;
                                          read-only plugins, libraries and the files the
                                          document names; no network, processes or programs);
                                          require: as on, and fail if the kernel lacks a part;
                                          off: with your full rights. See SECURITY.md. (values:
                                          on, require, off; default: on)
                  --allow-read <path>     A file or folder plugins may also read in the sandbox
                                          (repeatable); by default they read only the plugin
                                          files, their libraries and the files the document
                                          names.
                  --worker-memory <MiB>   A worker's memory limit in MiB (its address space,
                                          1024 and up; 0: none). A plugin over it fails its
                                          allocation. (default: 4096)
                  --plugin-path <dir>     A folder (or one .so file) to search before the
                                          others; repeat for more.
                  --allow-unsafe-permissions
                                          Load plugins from files and folders that others can
                                          write. Only for folders you trust.
                  --no-cache              Read every plugin file again instead of using the
                                          registry cache ($XDG_CACHE_HOME/cellkit, default
                                          ~/.cache/cellkit: what was read from each plugin, and
                                          list's output), and rewrite the cache, if there is
                                          one, from what was read.
                  -v, --verbose           Say on standard error where plugins are searched for,
                                          where each was found, and why each file was skipped.
                  --version               Show the version.
                  -h, --help              Show help information.

                """#
        case "new"?:
            return #"""
                OVERVIEW: Start a plugin project in C (source, Makefile, sample table) or Swift
                (a package).

                Makes the folder DIR/NAME and writes a plugin whose cell identifier and plugin
                name are NAME: it builds with the one command printed at the end, lists,
                renders NAME.yaml and passes `cellkit check --table NAME.yaml`.

                c:      NAME.c (the hooks, and sample rows as CK_PREVIEW lines), NAME.yaml, and
                a Makefile whose flags come from `pkg-config --cflags cellkit` (run `cellkit
                sdk install` once first); make, make render, make check, make preview (the
                preview watching the plugin), make snapshots, make test and make update (its
                golden files, the test against them, and an intended change accepted), make
                install.
                swift:  Package.swift (a dynamic library depending on CellKitPlugin),
                Sources/NAME/NAME.swift (the hooks), Sources/NAMEDescriptor/ (the descriptor,
                in C), libNAME.preview.yaml (sample rows), NAME.yaml; build with swift build.

                `cellkit inspect` lists the sample rows (previews); `cellkit check` runs them
                as typical data.

                Examples:
                  cellkit new c Weather
                  cellkit new swift Weather --dir ~/src --cellkit-package ~/src/CellKit

                USAGE: cellkit new <language> <name> [--dir <dir>] [--cellkit-package <path-or-url>]

                ARGUMENTS:
                  <language>              c or swift. (values: c, swift)
                  <name>                  The plugin's name and its cell identifier: an ASCII
                                          letter, then letters, digits or _ (at most 63).

                OPTIONS:
                  --dir <dir>             The folder to make NAME/ in; default: the current
                                          folder. (default: .)
                  --cellkit-package <path-or-url>
                                          swift: the CellKit package to depend on, a checkout's
                                          folder or a git URL; default: the checkout this
                                          cellkit was built from.
                  --version               Show the version.
                  -h, --help              Show help information.

                """#
        case "sdk"?:
            return #"""
                OVERVIEW: Install the plugin SDK: cellkit.h and a pkg-config file (cellkit.pc).

                USAGE: cellkit sdk <subcommand>

                OPTIONS:
                  --version               Show the version.
                  -h, --help              Show help information.

                SUBCOMMANDS:
                  install                 Write PREFIX/include/cellkit/cellkit.h and
                                          PREFIX/lib/pkgconfig/cellkit.pc.

                  See 'cellkit help sdk <subcommand>' for detailed help.
                """#
        default: return nil
        }
    }
}
