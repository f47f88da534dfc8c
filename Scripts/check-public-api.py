#!/usr/bin/env python3
"""Hold CellKit's public API to the committed list, Scripts/public-api.txt.

    python3 Scripts/check-public-api.py            # after `swift build --build-tests`
    python3 Scripts/check-public-api.py --write    # rewrite the list from the build
    python3 Scripts/check-public-api.py --self-test

Lists every public or open declaration of each library module (MODULES below) from
the compiler's symbol graphs, extracted from the debug build already made
(Scripts/symbolgraphs.py), and compares them with Scripts/public-api.txt. Fails
(exit 1) naming each public declaration that is not on the list and each listed
one that is gone:

    CellKitRuntime  property  Cell.handle: public, not on the list (Sources/CellKitRuntime/Cells/Cell.swift:251)

Counted: the declarations written in our sources (enum cases and extension members
included). Not counted: what the compiler synthesizes (`!=`, an OptionSet's
`init()`: no source location or a `::SYNTHESIZED::` id).

The list has one line per declaration, `MODULE  KIND  PATH`, grouped by module and
sorted; overloads that share a path add their signature (`  | func f(Int)`; a protocol
requirement and its default implementation, alike, share one line). A `#`
starts a comment: each module's block opens with why its declarations are public
(CONTRIBUTING.md, "API policy"), and a line may carry its own reason; --write keeps
both.

Standard library only.
"""

import argparse
import collections
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from symbolgraphs import ExtractionError, extract, load_symbols, source_path  # noqa: E402

# The library modules: the seven `import CellKit` re-exports and CellKit itself, the plugin
# API, and the modules only the cellkit tool imports (these must have no public declaration).
MODULES = [
    "CellKitModel", "CellKitText", "CellKitDiscovery", "CellKitRuntime", "CellKitDocuments",
    "CellKitRendering", "CellKitSupervision", "CellKit", "CellKitPlugin",
    "CellKitTerminal", "CellKitCheck", "CellKitBrowse",
]
FUNCTION_KINDS = {"func", "method", "type.method", "init", "subscript", "type.subscript", "func.op"}
ADVICE = "make it `package`, or add it to Scripts/public-api.txt with a reason: see CONTRIBUTING.md, \"API policy\""


def declarations(folder, modules, root):
    """{line key: source location} of every public declaration the graphs in `folder` hold."""
    found = {}
    for module in modules:
        by_path = collections.defaultdict(list)
        for precise, symbol in load_symbols(folder, module).items():
            if "::SYNTHESIZED::" in precise or symbol.get("accessLevel") not in ("public", "open"):
                continue
            location = symbol.get("location")
            path = source_path(location["uri"], root) if location else None
            if path is None:
                continue
            kind = symbol["kind"]["identifier"].removeprefix("swift.")
            name = ".".join(symbol["pathComponents"])
            heading = "".join(f["spelling"] for f in symbol["names"].get("subHeading", []))
            where = f"{path}:{location['position']['line'] + 1}"
            by_path[(kind, name)].append((heading, where))
        for (kind, name), entries in by_path.items():
            if len(entries) == 1 or kind not in FUNCTION_KINDS:
                for heading, where in entries:
                    found[f"{module}  {kind}  {name}"] = where
            else:
                for heading, where in entries:
                    found[f"{module}  {kind}  {name}  | {heading}"] = where
    return found


def read_list(path):
    """(entries {key: line number}, comments {key: trailing comment}, headers {module: comment lines},
    preamble lines, problems)."""
    entries, comments, headers, preamble, problems = {}, {}, collections.defaultdict(list), [], []
    pending = []
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip():
                if pending and not entries and not headers:
                    preamble += pending
                    pending = []
                continue
            if line.lstrip().startswith("#"):
                pending.append(line)
                continue
            text, _, comment = line.partition("#")
            key = "  ".join(part.strip() for part in text.strip().split("  ") if part.strip())
            fields = key.split("  ")
            if len(fields) < 3 or fields[0] not in MODULES:
                problems.append(f"{os.path.basename(path)}:{number}: not `MODULE  KIND  PATH` of a library module: {line}")
                continue
            if key in entries:
                problems.append(f"{os.path.basename(path)}:{number}: listed twice (first on line {entries[key]}): {key}")
                continue
            if pending:
                headers[fields[0]] += pending
                pending = []
            entries[key] = number
            if comment.strip():
                comments[key] = comment.strip()
    return entries, comments, headers, preamble, problems


def write_list(path, found, comments, headers, preamble):
    by_module = collections.defaultdict(list)
    for key in found:
        by_module[key.split("  ")[0]].append(key)
    lines = list(preamble)
    for module in MODULES:
        keys = sorted(by_module.get(module, []))
        if not keys:
            continue
        lines.append("")
        lines += headers.get(module) or [f"# {module}: why these are public (CONTRIBUTING.md, \"API policy\")."]
        for key in keys:
            lines.append(key + (f"  # {comments[key]}" if key in comments else ""))
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines).lstrip("\n") + "\n")


def compare(found, entries):
    """The failure lines: public and not listed, listed and gone."""
    failures = []
    for key in sorted(set(found) - set(entries)):
        failures.append(f"{key}: public, not on the list ({found[key]}): {ADVICE}")
    for key in sorted(set(entries) - set(found)):
        failures.append(f"{key}: on the list (line {entries[key]}) but no longer public: "
                        "remove its line (and say so in CHANGELOG.md)")
    return failures


def main(argv=None):
    parser = argparse.ArgumentParser(description="Compare the public declarations with Scripts/public-api.txt.")
    parser.add_argument("--root", help="the package folder (default: the folder above Scripts/)")
    parser.add_argument("--scratch-path", help="SwiftPM's build folder (default: ROOT/.build)")
    parser.add_argument("--list", help="the list (default: ROOT/Scripts/public-api.txt)")
    parser.add_argument("--graphs", help="read the symbol graphs from this folder instead of extracting them")
    parser.add_argument("--write", action="store_true", help="rewrite the list from the declarations found")
    parser.add_argument("--self-test", action="store_true", help="check that the check fails as it should")
    options = parser.parse_args(argv)
    if options.self_test:
        return self_test()
    root = os.path.abspath(options.root or os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    list_path = options.list or os.path.join(root, "Scripts", "public-api.txt")
    started = time.time()

    with tempfile.TemporaryDirectory(prefix="check-public-api-") as tmp:
        folder = options.graphs
        if folder is None:
            folder = tmp
            try:
                extract(root, MODULES, folder, scratch=options.scratch_path)
            except ExtractionError as error:
                print(f"check-public-api: {error}", file=sys.stderr)
                return 2
        found = declarations(folder, MODULES, root)

    counts = collections.Counter(key.split("  ")[0] for key in found)
    summary = ", ".join(f"{module} {counts[module]}" for module in MODULES if counts[module])
    if options.write:
        comments, headers, preamble = {}, {}, []
        if os.path.isfile(list_path):
            _, comments, headers, preamble, _ = read_list(list_path)
        write_list(list_path, found, comments, headers, preamble)
        print(f"check-public-api: wrote {len(found)} public declarations to {os.path.relpath(list_path, root)} "
              f"({summary})")
        return 0
    if not os.path.isfile(list_path):
        print(f"check-public-api: no list {list_path}: make it with --write", file=sys.stderr)
        return 2
    entries, _, _, _, problems = read_list(list_path)
    failures = problems + compare(found, entries)
    for line in failures:
        print(line)
    print(f"check-public-api: {len(found)} public declarations ({summary}); "
          f"{len(failures)} problems; {time.time() - started:.1f} s", file=sys.stderr)
    return 1 if failures else 0


# --------------------------------------------------------------------------
# self-test: made-up symbol graphs, no build needed


def _symbol(module, kind, path, line, access="public", heading=None, precise=None, located=True):
    symbol = {
        "identifier": {"precise": precise or f"s:{module}{'.'.join(path)}{line}"},
        "kind": {"identifier": f"swift.{kind}"},
        "pathComponents": path,
        "names": {"title": path[-1], "subHeading": [{"spelling": heading or path[-1]}]},
        "accessLevel": access,
    }
    if located:
        symbol["location"] = {"uri": f"file://ROOT/Sources/{module}/File.swift", "position": {"line": line - 1}}
    return symbol


def self_test():
    failures = 0
    with tempfile.TemporaryDirectory(prefix="check-public-api-self-test-") as tmp:
        graphs = os.path.join(tmp, "graphs")
        os.makedirs(graphs)

        def write_graphs(symbols):
            for name in os.listdir(graphs):
                os.remove(os.path.join(graphs, name))
            by_module = collections.defaultdict(list)
            for module, symbol in symbols:
                symbol = json_roundtrip(symbol, tmp)
                by_module[module].append(symbol)
            for module, items in by_module.items():
                with open(os.path.join(graphs, f"{module}.symbols.json"), "w", encoding="utf-8") as f:
                    f.write(__import__("json").dumps({"symbols": items}))

        base = [
            ("CellKitRuntime", _symbol("CellKitRuntime", "class", ["Cell"], 17)),
            ("CellKitRuntime", _symbol("CellKitRuntime", "property", ["Cell", "style"], 40)),
            ("CellKitRuntime", _symbol("CellKitRuntime", "method", ["CellQueue", "dequeueCell(_:at:)"], 102,
                                       heading="func dequeueCell(ReuseSlot, at: IndexPath) -> Cell")),
            ("CellKitRuntime", _symbol("CellKitRuntime", "method", ["CellQueue", "dequeueCell(_:at:)"], 211,
                                       heading="func dequeueCell(CellType, at: IndexPath) -> Cell")),
            ("CellKitRuntime", _symbol("CellKitRuntime", "property", ["Cell", "box"], 60, access="package")),
            ("CellKitRuntime", _symbol("CellKitRuntime", "func.op", ["Cell", "!=(_:_:)"], 1,
                                       precise="s:SQsE2neoiySbx_xtFZ::SYNTHESIZED::s:Cell")),
            ("CellKitRuntime", _symbol("CellKitRuntime", "init", ["Mask", "init()"], 1, located=False)),
            ("CellKitPlugin", _symbol("CellKitPlugin", "struct", ["Cell"], 5)),
        ]
        listed = os.path.join(tmp, "public-api.txt")

        def run(*extra):
            result = subprocess.run([sys.executable, os.path.abspath(__file__), "--root", tmp, "--graphs", graphs,
                                     "--list", listed, *extra], capture_output=True, text=True)
            return result.returncode, result.stdout + result.stderr

        def case(name, ok, output):
            nonlocal failures
            if ok:
                print(f"self-test ok: {name}")
            else:
                failures += 1
                print(f"self-test FAILED: {name}:\n{output}")

        write_graphs(base)
        with open(listed, "w", encoding="utf-8") as f:
            f.write("# The list.\n\n# CellKitRuntime: the host.\nCellKitRuntime  class  Cell  # the cell\n")
        status, output = run("--write")
        text = open(listed, encoding="utf-8").read()
        case("--write lists the public declarations, keeps the comments, leaves out package and synthesized ones",
             status == 0 and "CellKitRuntime  class  Cell  # the cell\n" in text and "# The list." in text
             and "# CellKitRuntime: the host." in text and "Cell.box" not in text and "!=" not in text
             and "Mask" not in text and "CellKitPlugin  struct  Cell\n" in text
             and "CellKitRuntime  method  CellQueue.dequeueCell(_:at:)  | func dequeueCell(CellType, at: IndexPath) -> Cell" in text
             and text.index("CellKitRuntime") < text.index("CellKitPlugin  struct"), output + text)
        status, output = run()
        case("the list as written passes", status == 0, output)

        write_graphs(base + [("CellKitRuntime", _symbol("CellKitRuntime", "property", ["Cell", "handle"], 251))])
        status, output = run()
        case("a new public declaration fails, named with its place and what to do",
             status == 1 and "CellKitRuntime  property  Cell.handle: public, not on the list "
             "(Sources/CellKitRuntime/File.swift:251): make it `package`" in output, output)

        write_graphs([s for s in base if s[1]["pathComponents"] != ["Cell", "style"]])
        status, output = run()
        case("a listed declaration that is gone fails", status == 1 and
             "CellKitRuntime  property  Cell.style: on the list (line" in output, output)

        write_graphs(base)
        with open(listed, "a", encoding="utf-8") as f:
            f.write("CellKitRuntime  class  Cell\nNoModule  class  X\n")
        status, output = run()
        case("a line listed twice and a line of no library module fail",
             status == 1 and "listed twice" in output and "not `MODULE  KIND  PATH`" in output, output)
    print("self-test: " + ("all passed" if not failures else f"{failures} FAILED"))
    return 1 if failures else 0


def json_roundtrip(symbol, root):
    """The symbol with its uri under the self-test's root."""
    if "location" in symbol:
        symbol = dict(symbol, location=dict(symbol["location"], uri=symbol["location"]["uri"].replace("ROOT", root)))
    return symbol


if __name__ == "__main__":
    sys.exit(main())
