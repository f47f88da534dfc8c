"""Symbol graphs of CellKit's modules, extracted from the debug build already made.

Shared by Scripts/check-public-api.py (and usable by any check that needs the public
symbols). `swift package dump-symbol-graph` plans and checks the whole build, then
extracts a graph for every module of the package, tests included (15 s or more on
the 2-core machine); this runs `swift-symbolgraph-extract` on just the modules asked
for, with the search paths and C module maps the build used for each, read from
SwiftPM's build manifest (.build/debug.yaml), about 2 s a module, two at a time.

    from symbolgraphs import extract, load_symbols
    extract(root, ["CellKitRuntime"], into=folder)       # writes CellKitRuntime.symbols.json
    symbols = load_symbols(folder, "CellKitRuntime")     # {precise id: symbol}

Standard library only.
"""

import concurrent.futures
import glob
import json
import os
import re
import shutil
import subprocess
from urllib.parse import unquote, urlparse


class ExtractionError(Exception):
    """The graphs cannot be made: no build, a stale build, or the extractor failed."""


def _manifest_args(manifest_text, module):
    """The swiftc arguments the build manifest records for compiling `module`."""
    m = re.search(r'^  "C\.' + re.escape(module) + r'-[^"]*\.module":\n((?:    .*\n)*?)    args: (\[.*\])$',
                  manifest_text, re.MULTILINE)
    return json.loads(m.group(2)) if m else None


def _extract_flags(args):
    """What symbolgraph-extract needs of a compile command: search paths, target, C flags."""
    keep, i = [], 0
    while i < len(args):
        if args[i] in ("-I", "-F", "-target", "-Xcc", "-module-cache-path", "-sdk", "-resource-dir") and i + 1 < len(args):
            keep += args[i:i + 2]
            i += 2
        else:
            i += 1
    return keep


def _module_path(args):
    i = args.index("-emit-module-path") if "-emit-module-path" in args else -1
    return args[i + 1] if i >= 0 else None


def build_flags(root, modules, scratch=None):
    """{module: the search paths, target and C flags its compile command used}, from the build
    manifest of the last `swift build` under ROOT/.build (or scratch). Raises ExtractionError when
    there is no build, a module is not built, or a source is newer than its built module."""
    scratch = scratch or os.path.join(root, ".build")
    manifest = os.path.join(scratch, "debug.yaml")
    if not os.path.isfile(manifest):
        raise ExtractionError(f"no debug build in {scratch} (no debug.yaml): run `swift build --build-tests` first")
    with open(manifest, encoding="utf-8") as f:
        text = f.read()
    flags = {}
    for module in modules:
        args = _manifest_args(text, module)
        if args is None:
            raise ExtractionError(f"the build manifest {manifest} does not compile a module {module}")
        built = _module_path(args)
        if not built or not os.path.isfile(built):
            raise ExtractionError(f"{module} is not built ({built}): run `swift build --build-tests` first")
        # A source edited after the build: the graph would be of the old code.
        sources = glob.glob(os.path.join(root, "Sources", module, "**", "*.swift"), recursive=True)
        # (The build may leave an unchanged .swiftmodule as it was after recompiling a touched
        # file: its newest output counts.)
        outputs = [built] + glob.glob(os.path.join(os.path.dirname(os.path.dirname(built)), f"{module}.build", "*"))
        done = max(os.path.getmtime(o) for o in outputs)
        newer = [s for s in sources if os.path.getmtime(s) > done]
        if newer:
            raise ExtractionError(f"{os.path.relpath(newer[0], root)} is newer than the built {module}: "
                                  "run `swift build --build-tests` first")
        flags[module] = _extract_flags(args)
    return flags


def toolchain_tool(name):
    """The path of a tool of the Swift toolchain (beside `swift`), or raise ExtractionError."""
    tool = shutil.which(name)
    if tool is None:
        swift = shutil.which("swift")
        candidate = os.path.join(os.path.dirname(os.path.realpath(swift)), name) if swift else ""
        tool = candidate if os.path.isfile(candidate) else None
    if tool is None:
        raise ExtractionError(f"{name} is not on PATH (it comes with the Swift toolchain)")
    return tool


def extract(root, modules, into, scratch=None, skip_inherited=False, minimum_access="public", jobs=2):
    """Write `<Module>.symbols.json` (and `<Module>@<Other>.symbols.json`) for each module into
    `into`, from the .swiftmodule files of the last `swift build` under ROOT/.build (or scratch).
    Raises ExtractionError naming what is wrong."""
    tool = toolchain_tool("swift-symbolgraph-extract")
    commands = []
    for module, flags in build_flags(root, modules, scratch).items():
        command = [tool, "-module-name", module, "-minimum-access-level", minimum_access, "-output-dir", into] + flags
        if skip_inherited:
            command.append("-skip-inherited-docs")
        commands.append((module, command))

    def run(item):
        module, command = item
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0 or not os.path.isfile(os.path.join(into, f"{module}.symbols.json")):
            return f"{module}: swift-symbolgraph-extract failed (exit {result.returncode}):\n" + \
                (result.stdout + result.stderr)[-3000:]
        return None

    os.makedirs(into, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        failures = [f for f in pool.map(run, commands) if f]
    if failures:
        raise ExtractionError("\n".join(failures))


def load_symbols(folder, module):
    """{precise id: symbol} of the module's graph and its extension graphs (`Module@Other`)."""
    symbols = {}
    for path in sorted(glob.glob(os.path.join(folder, f"{module}.symbols.json"))
                       + glob.glob(os.path.join(folder, f"{module}@*.symbols.json"))):
        with open(path, encoding="utf-8") as f:
            for symbol in json.load(f)["symbols"]:
                symbols[symbol["identifier"]["precise"]] = symbol
    return symbols


def source_path(uri, root):
    """The path relative to root of a file:// uri inside Sources/ or Plugins/, else None."""
    path = os.path.realpath(unquote(urlparse(uri).path))
    rel = os.path.relpath(path, os.path.realpath(root))
    return rel if rel.split(os.sep)[0] in ("Sources", "Plugins") else None
