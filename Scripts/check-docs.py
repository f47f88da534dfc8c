#!/usr/bin/env python3
"""List every public or open symbol of the given modules that has no doc comment.

    python3 Scripts/check-docs.py CellKit CellKitPlugin [--summary] [--output FILE]

Prints one line per undocumented symbol and exits 1 if there is any:

    Sources/CellKit/Cells/Cell.swift:219: property CellError.description

How: the compiler's symbol graphs of the modules of the last debug build
(`swift build --build-tests`), extracted by Scripts/symbolgraphs.py (shared
with check-public-api.py; with --swiftpm, by `swift package dump-symbol-graph`,
which builds the package first and extracts every module's), twice:
  1. with `--skip-inherited-docs`: the compiler emits a symbol's doc comment
     only when the comment is written on that very declaration. A symbol that
     has one there is documented.
  2. without it: the compiler also emits the doc comment a declaration takes
     over from the protocol requirement it implements or the declaration it
     overrides (with the module and file that comment is written in). A symbol
     that has a comment only here is "inherited": accepted, and counted apart,
     unless --require-own is given.
Counted: symbols of the named modules (and their `Module@Other` extension
graphs: members added to other modules' types) whose declaration is in one of
our source files (under Sources/ or Plugins/), including enum cases and
extension members. Not counted: what the compiler synthesizes (`==` of
Equatable, Codable's init(from:)/encode(to:) it writes, members a type gets
from protocol extensions: ids with `::SYNTHESIZED::` or no source location),
and symbols of other modules.

Standard library only.
"""

import argparse
import collections
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from symbolgraphs import ExtractionError, extract, load_symbols, source_path  # noqa: E402


def dump_graphs(root, scratch, skip_inherited, into, modules):
    """Run `swift package dump-symbol-graph`; copy the graphs of `modules`
    written by this run into the folder `into`."""
    command = ["swift", "package"]
    if scratch:
        command += ["--scratch-path", scratch]
    command += ["dump-symbol-graph", "--minimum-access-level", "public"]
    if skip_inherited:
        command.append("--skip-inherited-docs")
    started = time.time() - 1
    result = subprocess.run(command, cwd=root, capture_output=True, text=True)
    output = result.stdout + result.stderr
    # SwiftPM 6.3 also tries the synthesized test-runner modules
    # (CellKitPackageTests), fails on them and exits 1 after writing every
    # other graph: judge the run by the graphs of the modules asked for.
    m = re.search(r"Files written to (.+)", output)
    folder = m.group(1).strip() if m else None
    if not folder:
        candidates = glob.glob(os.path.join(scratch or os.path.join(root, ".build"), "*", "symbolgraph"))
        folder = candidates[0] if candidates else None
    if not folder or not os.path.isdir(folder):
        sys.exit("check-docs: `" + " ".join(command) + "` wrote no symbol graphs:\n" + output[-4000:])
    for module in modules:
        main = os.path.join(folder, f"{module}.symbols.json")
        if not os.path.isfile(main) or os.path.getmtime(main) < started:
            failure = re.search(rf"error: Failed to emit symbol graph for '{re.escape(module)}'.*", output)
            sys.exit(f"check-docs: no symbol graph for module {module} "
                     f"({failure.group(0) if failure else 'is it a Swift target of this package?'})\n"
                     + ("" if "Build complete" in output else output[-4000:]))
        for path in [main] + glob.glob(os.path.join(folder, f"{module}@*.symbols.json")):
            if os.path.getmtime(path) >= started:
                shutil.copy(path, into)


def main():
    parser = argparse.ArgumentParser(description="List public/open symbols without a doc comment.")
    parser.add_argument("modules", nargs="+", metavar="MODULE")
    parser.add_argument("--root", help="the package folder (default: the folder above Scripts/)")
    parser.add_argument("--scratch-path", help="SwiftPM's build folder (default: ROOT/.build)")
    parser.add_argument("--require-own", action="store_true",
                        help="count a doc comment inherited from a protocol requirement or an overridden "
                             "declaration as missing")
    parser.add_argument("--swiftpm", action="store_true",
                        help="extract the graphs with `swift package dump-symbol-graph` (which builds first) "
                             "instead of from the last debug build (Scripts/symbolgraphs.py)")
    parser.add_argument("--summary", action="store_true", help="also print the count of each file")
    parser.add_argument("--output", help="write the list to FILE instead of standard output")
    options = parser.parse_args()
    root = os.path.abspath(options.root or os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

    with tempfile.TemporaryDirectory(prefix="check-docs-") as tmp:
        own_dir, all_dir = os.path.join(tmp, "own"), os.path.join(tmp, "all")
        os.makedirs(own_dir)
        os.makedirs(all_dir)
        if options.swiftpm:
            dump_graphs(root, options.scratch_path, True, own_dir, options.modules)
            dump_graphs(root, options.scratch_path, False, all_dir, options.modules)
        else:
            try:
                extract(root, options.modules, own_dir, scratch=options.scratch_path, skip_inherited=True)
                extract(root, options.modules, all_dir, scratch=options.scratch_path)
            except ExtractionError as error:
                sys.exit(f"check-docs: {error}")

        missing, totals = [], collections.Counter()
        inherited = collections.Counter()
        per_file = collections.Counter()
        for module in options.modules:
            own = load_symbols(own_dir, module)
            everything = load_symbols(all_dir, module)
            for precise, symbol in own.items():
                if "::SYNTHESIZED::" in precise or symbol.get("accessLevel") not in ("public", "open"):
                    continue
                location = symbol.get("location")
                if not location:
                    continue
                path = source_path(location["uri"], root)
                if path is None:
                    continue
                totals[module] += 1
                if symbol.get("docComment", {}).get("lines"):
                    continue
                other = everything.get(precise, {}).get("docComment")
                if other and other.get("lines") and not options.require_own:
                    inherited[module] += 1
                    continue
                kind = symbol["kind"]["identifier"].removeprefix("swift.")
                name = ".".join(symbol["pathComponents"])
                line = location["position"]["line"] + 1  # graphs count lines from 0
                missing.append((path, line, f"{path}:{line}: {kind} {name}", module))
                per_file[path] += 1

    missing.sort(key=lambda m: (m[0], m[1]))
    text = "".join(m[2] + "\n" for m in missing)
    if options.output:
        with open(options.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if options.summary:
        for path, count in per_file.most_common():
            print(f"{count:5d}  {path}", file=sys.stderr)
    for module in options.modules:
        undocumented = sum(1 for m in missing if m[3] == module)
        accepted = "" if options.require_own else f", {inherited[module]} with a doc comment inherited from a requirement or overridden declaration"
        print(f"check-docs: {module}: {totals[module]} public symbols declared in our sources, "
              f"{undocumented} without a doc comment{accepted}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
