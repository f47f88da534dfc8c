#!/usr/bin/env python3
"""The API baseline: what `swift package diagnose-api-breaking-changes` compares the public API with.

    python3 Scripts/api-baseline.py --check   # CI's api-breakage step, after `swift build --build-tests`
    python3 Scripts/api-baseline.py --check --swiftpm   # the same through diagnose-api-breaking-changes
    python3 Scripts/api-baseline.py           # regenerate api-baseline/ from the build of HEAD

api-baseline/ holds one file per public module, `<Module>.json`, as `swift-api-digester
-dump-sdk` writes it (SwiftPM's baseline format), and REVISION, the commit it was made
from. There is no release tag yet: the baseline is the commit that set the audited
surface (issue 42), and is regenerated when public API is deliberately added or changed
(CONTRIBUTING.md, "API policy").

--check compares each module of the debug build already made (`swift build --build-tests`)
with its baseline: `swift-api-digester -diagnose-sdk`, the comparison `swift package
diagnose-api-breaking-changes` runs once it has built the package; about 1 s for the eight
modules. SwiftPM's command builds the package without its tests first, which after CI's
build with them relinks the executables (about 30 s on the 2-core machine) and makes the
next build with tests (`swift test`) relink them again. --check --swiftpm runs that command
instead, on the same files: copied into DIR/<HEAD's commit>/ for `--baseline-dir DIR`,
where SwiftPM finds a baseline for every module and so never checks out and builds the
baseline revision (which need not exist in the clone: a shallow or rebased one works).

Regenerating dumps the modules of the last debug build (`swift build --build-tests`,
sources committed: the baseline is of a commit) with the search paths and module maps
that build used (Scripts/symbolgraphs.py). The debug build is testable, so the dump
holds `package` and internal declarations too; they are dropped from the baseline, so
that changing them is no API breakage. A public declaration made `package` still shows
in that testable build, so the digester cannot see it go: Scripts/check-public-api.py
does (a listed declaration that is no longer public fails it).

Standard library only.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from symbolgraphs import ExtractionError, build_flags, toolchain_tool  # noqa: E402

# The public modules: the seven `import CellKit` re-exports and the plugin API. (`CellKit`
# itself only re-exports: it has no declaration of its own to compare.)
MODULES = [
    "CellKitModel", "CellKitText", "CellKitDiscovery", "CellKitRuntime", "CellKitDocuments",
    "CellKitRendering", "CellKitSupervision", "CellKitPlugin",
]



def digester_and_flags(root, scratch):
    """swift-api-digester and the debug build's flags for MODULES; None (said why) if either is missing."""
    try:
        return toolchain_tool("swift-api-digester"), build_flags(root, MODULES, scratch)
    except ExtractionError as error:
        print(f"api-baseline: {error}", file=sys.stderr)
        return None

def public_only(node):
    """The digester's node without its internal (and `package`) children, recursively."""
    children = node.get("children")
    if children is not None:
        node["children"] = [public_only(child) for child in children if not child.get("isInternal")]
    return node


def git(root, *args):
    return subprocess.run(["git", "-C", root, *args], capture_output=True, text=True)


def regenerate(root, folder, scratch):
    dirty = git(root, "status", "--porcelain", "--", "Sources", "Package.swift").stdout.strip()
    if dirty:
        print("api-baseline: Sources/ or Package.swift has uncommitted changes: commit them first "
              "(the baseline is the API of a commit):\n" + dirty, file=sys.stderr)
        return 2
    revision = git(root, "rev-parse", "HEAD").stdout.strip()
    tools = digester_and_flags(root, scratch)
    if tools is None:
        return 2
    digester, flags = tools
    if os.path.isdir(folder):
        shutil.rmtree(folder)
    os.makedirs(folder)
    for module in MODULES:
        path = os.path.join(folder, f"{module}.json")
        result = subprocess.run([digester, "-dump-sdk", "-compiler-style-diags", "-avoid-tool-args",
                                 "-avoid-location", "-module", module, "-o", path] + flags[module],
                                capture_output=True, text=True)
        if result.returncode != 0 or not os.path.isfile(path):
            print(f"api-baseline: swift-api-digester failed for {module}:\n{result.stdout}{result.stderr}",
                  file=sys.stderr)
            return 1
        with open(path, encoding="utf-8") as f:
            dump = json.load(f)
        dump["ABIRoot"] = public_only(dump["ABIRoot"])
        with open(path, "w", encoding="utf-8") as f:
            json.dump(dump, f, indent=1, ensure_ascii=False)
            f.write("\n")
    with open(os.path.join(folder, "REVISION"), "w", encoding="utf-8") as f:
        f.write(revision + "\n")
    print(f"api-baseline: wrote {os.path.relpath(folder, root)}/ for {revision[:12]} ({len(MODULES)} modules); "
          "commit it")
    return 0


def check(root, folder, scratch, through_swiftpm):
    missing = [m for m in MODULES if not os.path.isfile(os.path.join(folder, f"{m}.json"))]
    if missing:
        print(f"api-baseline: no baseline for {', '.join(missing)} in {os.path.relpath(folder, root)}/: "
              "regenerate it (python3 Scripts/api-baseline.py)", file=sys.stderr)
        return 2
    revision = open(os.path.join(folder, "REVISION"), encoding="utf-8").read().strip() \
        if os.path.isfile(os.path.join(folder, "REVISION")) else "?"
    started = time.time()
    if through_swiftpm:
        head = git(root, "rev-parse", "HEAD").stdout.strip()
        if not head:
            print("api-baseline: not a git checkout: diagnose-api-breaking-changes needs one", file=sys.stderr)
            return 2
        with tempfile.TemporaryDirectory(prefix="api-baseline-") as tmp:
            # SwiftPM reads `<baseline-dir>/<the treeish's commit>/<Module>.json` and builds no
            # baseline revision when every module has one.
            shutil.copytree(folder, os.path.join(tmp, head))
            command = ["swift", "package", "diagnose-api-breaking-changes", "HEAD", "--baseline-dir", tmp,
                       "--targets", *MODULES]
            broken = subprocess.run(command, cwd=root).returncode != 0
    else:
        # What SwiftPM runs for each module once it has built the package, on the modules of
        # the debug build already made.
        tools = digester_and_flags(root, scratch)
        if tools is None:
            return 2
        digester, flags = tools
        broken = False
        for module in MODULES:
            result = subprocess.run([digester, "-diagnose-sdk", "-compiler-style-diags", "-baseline-path",
                                     os.path.join(folder, f"{module}.json"), "-module", module] + flags[module],
                                    capture_output=True, text=True)
            output = (result.stdout + result.stderr).strip()
            if result.returncode != 0:
                broken = True
                print(f"{module}: the public API breaks the baseline:\n{output or '(no diagnostic)'}")
            else:
                print(f"{module}: no breaking change" + (f"\n{output}" if output else ""))
    if broken:
        print(f"\napi-baseline: the public API breaks the baseline (api-baseline/, of {revision[:12]}). If that is "
              "not meant, undo the change; if it is, say what changed and how to move in CHANGELOG.md, then, "
              "once the change is committed, regenerate the baseline (`swift build --build-tests && "
              "python3 Scripts/api-baseline.py`) and commit api-baseline/ (CONTRIBUTING.md, \"API policy\")",
              file=sys.stderr)
        return 1
    print(f"api-baseline: no breaking change against api-baseline/ (of {revision[:12]}); "
          f"{time.time() - started:.1f} s", file=sys.stderr)
    return 0


def main():
    parser = argparse.ArgumentParser(description="Regenerate or check the API baseline (api-baseline/).")
    parser.add_argument("--check", action="store_true",
                        help="run diagnose-api-breaking-changes against the committed baseline")
    parser.add_argument("--swiftpm", action="store_true",
                        help="with --check: through `swift package diagnose-api-breaking-changes` (which builds "
                             "the package without its tests first: about 30 s after a build with them, and as "
                             "long again for the next build with them)")
    parser.add_argument("--root", help="the package folder (default: the folder above Scripts/)")
    parser.add_argument("--scratch-path", help="SwiftPM's build folder (default: ROOT/.build)")
    options = parser.parse_args()
    root = os.path.abspath(options.root or os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    folder = os.path.join(root, "api-baseline")
    return check(root, folder, options.scratch_path, options.swiftpm) if options.check \
        else regenerate(root, folder, options.scratch_path)


if __name__ == "__main__":
    sys.exit(main())
