#!/usr/bin/env python3
"""Check that the documentation says what the repository has and what cellkit prints.

Three checks over the README, ARCHITECTURE, CONTRIBUTING, SECURITY, BENCHMARKS, the
READMEs of Fuzz/, Manifests/ and each example, and the DocC articles (the guides, in
Sources/CellKit/CellKit.docc):

  * every folder under Sources/ is named in ARCHITECTURE.md, and each Swift module's item
    there (`- **`Module`**: ...`) names every folder of the module (`Folder/`) and only
    types the module (or one below it in Scripts/layers.txt) declares;
  * every Swift file under Sources/ is named after what it declares (`Type.swift`,
    `Type+Part.swift`; UNNAMED_FILES lists the exceptions, each with its reason);
  * every repository path they name exists: backticked paths that start with Sources/,
    Scripts/, Tests/, Plugins/, Examples/, man/, Manifests/, Schemas/, Fuzz/ or .ci/
    (in inline code and in shell code blocks; `CellKitRendering/Isolation/` stands for
    Sources/CellKitRendering/Isolation/), and relative Markdown links. A path may
    also be relative to the document's folder or to an example package under Examples/
    (a guide's `Sources/GreetingCells/` is such a package's). Not checked: placeholders
    (`Plugins/<name>/`, `Fuzz/corpus/TARGET/`, `*`, `$VAR`, `…`) and build products (.build);
  * every example output marked in a document is what cellkit prints today. In a document:

        <!-- file: greeting.c -->           before a fenced block: its text is written to
                                            greeting.c in the document's work folder
        <!-- run: cc -shared ... -->        a shell command run there (a build step)
        <!-- run -->                        before a fenced shell block: each of its lines
                                            run there
        <!-- output: cellkit inspect ./libgreeting.so -->
                                            before a fenced block: the command is run
                                            there and the block must be its output

    Each document gets one temporary work folder; its commands run in order, with `sh`,
    `cellkit` (the built one, .build/debug/cellkit) first on PATH, CELLKIT_SRC set to the
    repository and HOME, XDG_DATA_HOME and XDG_CACHE_HOME inside the work folder. In the
    output the work folder is written `/…` and the repository `$CELLKIT_SRC`; trailing
    blanks are dropped. `--regenerate` rewrites the marked blocks with what cellkit prints.

Usage:
    python3 Scripts/check-guides.py [--root DIR] [--cellkit PATH] [--no-outputs]
    python3 Scripts/check-guides.py --regenerate     # after changing what cellkit prints
    python3 Scripts/check-guides.py --self-test

Run after `swift build` (the output check needs .build/debug/cellkit). Standard library only.
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOTS = ("Sources/", "Scripts/", "Tests/", "Plugins/", "Examples/", "man/", "Manifests/", "Schemas/",
         "Fuzz/", ".ci/")
SHELL_LANGUAGES = {"shell", "sh", "bash", "console"}


def documents(root):
    """The documents checked, relative to root, in a fixed order."""
    names = ["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", "SECURITY.md", "BENCHMARKS.md",
             "Fuzz/README.md", "Manifests/README.md"]
    names += sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "Examples/*/README.md")))
    names += sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "Sources/*/*.docc/*.md")))
    names += sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs/**/*.md"), recursive=True))
    return [n for n in names if os.path.isfile(os.path.join(root, n))]


# --------------------------------------------------------------------------
# Markdown, as far as these checks need it


def blocks(text):
    """Yield (kind, start line, lines, info) for the text's parts: kind "fence" (info: the
    language; lines: the block's body), "indented" (a 4-space code block) or "prose"."""
    lines = text.split("\n")
    i, prose_start, prose = 0, 1, []
    while i < len(lines):
        line = lines[i]
        fence = re.match(r"^(\s*)(`{3,}|~{3,})(.*)$", line)
        if fence:
            if prose:
                yield "prose", prose_start, prose, None
                prose = []
            marker = fence.group(2)
            body, j = [], i + 1
            while j < len(lines) and not lines[j].strip().startswith(marker):
                body.append(lines[j])
                j += 1
            yield "fence", i + 1, body, fence.group(3).strip()
            i = j + 1
            prose_start = i + 1
            continue
        if line.startswith("    ") and (not prose or not prose[-1].strip()) and not re.match(r"\s*([-*]|\d+\.)\s", line):
            if prose:
                yield "prose", prose_start, prose, None
                prose = []
            body, j = [], i
            while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
                body.append(lines[j][4:])
                j += 1
            yield "indented", i + 1, body, None
            i = j
            prose_start = i + 1
            continue
        if not prose:
            prose_start = i + 1
        prose.append(line)
        i += 1
    if prose:
        yield "prose", prose_start, prose, None


def is_placeholder(path):
    if re.search(r"[<>*{}$…]|\.\.\.", path):
        return True
    if "/.build" in "/" + path:
        return True
    # An upper-case word standing for a name: Fuzz/corpus/TARGET/, Plugins/NAME.
    return any(re.fullmatch(r"[A-Z][A-Z_]{2,}", part) for part in path.split("/"))


def candidate_paths(words, modules=()):
    """The words that name repository paths; `CellKitRendering/Isolation/` (a folder of a
    module, written without Sources/) is Sources/CellKitRendering/Isolation/."""
    for word in words:
        word = word.strip("\"'(),;.:")
        word = re.sub(r":\d+(:\d+)?$", "", word)  # Sources/A/f.swift:3
        if word.startswith(ROOTS) or word == "Package.swift":
            yield word
        elif "/" in word and word.split("/", 1)[0] in modules and word.split("/", 1)[1]:
            yield "Sources/" + word


def named_paths(text, modules=()):
    """Yield (line, path, kind) for every repository path the Markdown text names."""
    for kind, start, lines, info in blocks(text):
        if kind == "prose":
            joined = "\n".join(lines)
            for m in re.finditer(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)", joined, re.S):
                line = start + joined.count("\n", 0, m.start())
                for path in candidate_paths(m.group(2).split(), modules):
                    yield line, path, "code"
            without_code = re.sub(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)", lambda m: re.sub(r"[^\n]", " ", m.group(0)),
                                  joined, flags=re.S)
            for m in re.finditer(r"\]\(([^)\s]+)\)", without_code):
                target = m.group(1)
                if re.match(r"[A-Za-z][A-Za-z+.-]*:", target) or target.startswith(("#", "/")):
                    continue
                line = start + joined.count("\n", 0, m.start())
                yield line, target.split("#")[0], "link"
        elif (kind == "fence" and (info or "").split()[:1] and info.split()[0] in SHELL_LANGUAGES) \
                or kind == "indented":
            for offset, body_line in enumerate(lines):
                if body_line.lstrip().startswith("#"):
                    continue
                for path in candidate_paths(body_line.split(), modules):
                    yield start + offset + (1 if kind == "fence" else 0), path, "code"


def check_paths(root):
    errors = []
    examples = sorted(p for p in glob.glob(os.path.join(root, "Examples", "*")) if os.path.isdir(p))
    sources = os.path.join(root, "Sources")
    modules = {d for d in os.listdir(sources) if os.path.isdir(os.path.join(sources, d))} \
        if os.path.isdir(sources) else set()
    for name in documents(root):
        with open(os.path.join(root, name), encoding="utf-8") as f:
            text = f.read()
        folder = os.path.dirname(os.path.join(root, name))
        for line, path, kind in named_paths(text, modules):
            if not path or is_placeholder(path):
                continue
            if kind == "link":
                bases = [folder]
            else:
                bases = [root, folder] + examples
            if not any(os.path.exists(os.path.join(base, path)) for base in bases):
                where = "the link" if kind == "link" else "the path"
                errors.append(f"{name}:{line}: {where} {path} does not exist")
    return errors


def check_modules(root):
    sources = os.path.join(root, "Sources")
    architecture = os.path.join(root, "ARCHITECTURE.md")
    if not os.path.isfile(architecture):
        return ["ARCHITECTURE.md is missing"]
    with open(architecture, encoding="utf-8") as f:
        text = f.read()
    errors = []
    for module in sorted(os.listdir(sources)):
        if os.path.isdir(os.path.join(sources, module)) and not module.startswith("."):
            if not re.search(r"(?<![\w/])" + re.escape(module) + r"(?![\w])", text):
                errors.append(f"ARCHITECTURE.md: the module Sources/{module}/ is not named; say what it is")
    return errors + check_module_bullets(root, text)


BULLET = re.compile(r"^- \*\*`(\w+)`\*\*")
DECLARATION = r"\b(?:struct|class|enum|protocol|actor|typealias|extension|func)\s+{}\b"


def module_bullets(text):
    """ARCHITECTURE.md's module bullets: (line number, module, the bullet's text), one per
    `- **`Module`**` item, the text running to the next item or blank line."""
    bullets, current = [], None
    for number, line in enumerate(text.splitlines(), 1):
        m = BULLET.match(line)
        if m:
            current = [number, m.group(1), line]
            bullets.append(current)
        elif current and line.strip() and not line.startswith("- ") and not line.startswith("#"):
            current[2] += "\n" + line
        else:
            current = None
    return [tuple(b) for b in bullets]


def layer_index(root):
    """Scripts/layers.txt as module -> layer number (0 = bottom); empty when there is none."""
    index, path = {}, os.path.join(root, "Scripts", "layers.txt")
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            lines = [line.split("#", 1)[0].strip() for line in f]
        for number, line in enumerate(line for line in lines if line and ":" not in line):
            index.update({module: number for module in line.split()})
    return index


def swift_code(folder):
    code = ""
    for path in sorted(glob.glob(os.path.join(folder, "**", "*.swift"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            code += f.read()
    return code


def check_module_bullets(root, text):
    """Each Swift module's bullet in ARCHITECTURE.md lists what the module holds: every folder
    of Sources/MODULE/ is named (`Folder/`), and every type it names is declared there or in
    a module below it (Scripts/layers.txt), which it uses."""
    errors = []
    sources = os.path.join(root, "Sources")
    modules = {m for m in os.listdir(sources) if os.path.isdir(os.path.join(sources, m))}
    layers = layer_index(root)
    for number, module, bullet in module_bullets(text):
        folder = os.path.join(sources, module)
        swift = sorted(glob.glob(os.path.join(folder, "**", "*.swift"), recursive=True))
        if module not in modules or not swift:
            continue
        named = set(re.findall(r"`([^`\s]+)`", bullet))
        for sub in sorted(os.listdir(folder)):
            if os.path.isdir(os.path.join(folder, sub)) and not sub.endswith(".docc") and sub != "include" \
                    and f"{sub}/" not in named:
                errors.append(f"ARCHITECTURE.md:{number}: {module}'s item does not name its folder `{sub}/`; "
                              "say what it holds")
        below = [m for m in sorted(modules) if layers.get(m, 1 << 30) < layers.get(module, -1)]
        code = swift_code(folder)
        for name in sorted(n for n in named if re.fullmatch(r"[A-Z][A-Za-z0-9]*", n) and n not in modules):
            declared = re.compile(DECLARATION.format(re.escape(name)))
            if not declared.search(code) and not any(declared.search(swift_code(os.path.join(sources, m)))
                                                     for m in below):
                errors.append(f"ARCHITECTURE.md:{number}: {module}'s item names `{name}`, which neither "
                              f"Sources/{module}/ nor a module below it declares; rename it or say where it went")
    return errors


# Files not named after one thing they declare, each with its reason.
UNNAMED_FILES = {
    "main.swift": "a program's entry point",
    "Exports.swift": "a module's re-exports",
    "CellKit.swift": "the umbrella module's one file, named after the module",
    "CellKitPlugin.swift": "the Swift plugin API's one file, named after the module",
    "CellAttributes.swift": "the cell's attribute enums (style, selection, accessory, direction), together",
    "HelpScreens.swift": "generated by HelpTextsTests: the kept help screens",
    "ReadAhead.swift": "cellkit-threadcheck's read-ahead check, one of its checks by name",
}


def check_file_names(root):
    """Every Swift file under Sources/ is named after what it declares: `Name.swift` declares a
    type, extension or function Name (a function's first letter lower case), `Type+Part.swift`
    extends (or declares) Type. UNNAMED_FILES are the exceptions, each with its reason."""
    errors = []
    for path in sorted(glob.glob(os.path.join(root, "Sources", "**", "*.swift"), recursive=True)):
        name = os.path.basename(path)
        if name in UNNAMED_FILES or ".docc" in path:
            continue
        stem = name[:-len(".swift")].split("+", 1)[0]
        with open(path, encoding="utf-8") as f:
            code = f.read()
        names = {stem, stem[:1].lower() + stem[1:]}
        if not any(re.search(DECLARATION.format(re.escape(n)), code) for n in names):
            first = re.search(r"\b(?:struct|class|enum|protocol|actor|extension)\s+([A-Z]\w*)", code)
            hint = f" (it declares {first.group(1)}: {first.group(1)}.swift?)" if first else ""
            errors.append(f"{os.path.relpath(path, root)}: declares nothing named {stem}; name the file after "
                          f"its main type (`Type.swift`, or `Type+Part.swift` for an extension){hint}")
    return errors


# --------------------------------------------------------------------------
# Example outputs

MARK = re.compile(r"^<!--\s*(file|run|output)(?::\s*(.*?))?\s*-->\s*$")


def normalize(output, work, root):
    output = output.replace(os.path.realpath(work), "/…").replace(work, "/…")
    output = output.replace(os.path.realpath(root), "$CELLKIT_SRC").replace(root, "$CELLKIT_SRC")
    lines = [line.rstrip() for line in output.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def check_outputs(root, cellkit, regenerate):
    """Errors (and, with regenerate, the number of blocks rewritten)."""
    errors, rewritten, checked = [], 0, 0
    cellkit = os.path.abspath(cellkit)
    for name in documents(root):
        path = os.path.join(root, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if not re.search(r"<!--\s*(file|run|output)\b", text):
            continue
        if not os.access(cellkit, os.X_OK):
            return [f"{name}: has example outputs, but there is no {os.path.relpath(cellkit, root)} to run: "
                    f"run swift build first (or give --cellkit)"], 0, 0
        lines = text.split("\n")
        changed = False
        with tempfile.TemporaryDirectory(prefix="check-guides-") as work:
            os.chmod(work, 0o755)
            bin_dir = os.path.join(work, ".bin")
            os.makedirs(bin_dir)
            os.symlink(cellkit, os.path.join(bin_dir, "cellkit"))
            env = {k: v for k, v in os.environ.items() if not k.startswith(("CELLKIT_", "XDG_", "NO_COLOR"))}
            env.update({"CELLKIT_SRC": root, "HOME": work, "XDG_DATA_HOME": work + "/.data",
                        "XDG_CACHE_HOME": work + "/.cache", "PATH": bin_dir + ":" + os.environ.get("PATH", ""),
                        "COLUMNS": "80", "LC_ALL": "C.UTF-8", "TERM": "dumb"})

            def run(command):
                return subprocess.run(["sh", "-c", "umask 022; " + command], cwd=work, env=env,
                                      stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)

            i = 0
            while i < len(lines):
                m = MARK.match(lines[i])
                if not m:
                    i += 1
                    continue
                kind, argument = m.group(1), m.group(2) or ""
                where = f"{name}:{i + 1}"
                if kind == "run" and argument:
                    result = run(argument)
                    if result.returncode != 0:
                        errors.append(f"{where}: `{argument}` failed (exit {result.returncode}):\n"
                                      + result.stdout + result.stderr)
                    i += 1
                    continue
                # file and output take the fenced block on the next line.
                fence = re.match(r"^(`{3,}|~{3,})", lines[i + 1]) if i + 1 < len(lines) else None
                end = i + 2
                while fence and end < len(lines) and not lines[end].startswith(fence.group(1)):
                    end += 1
                if not fence or end >= len(lines):
                    errors.append(f"{where}: a `{kind}` mark must stand right before a fenced block")
                    i += 1
                    continue
                body = lines[i + 2:end]
                if kind == "run":  # <!-- run --> before a shell block: its commands, one by one
                    for command in body:
                        if command.strip() and not command.lstrip().startswith("#"):
                            result = run(command)
                            if result.returncode != 0:
                                errors.append(f"{where}: `{command}` failed (exit {result.returncode}):\n"
                                              + result.stdout + result.stderr)
                    i = end + 1
                    continue
                if not argument:
                    errors.append(f"{where}: `{kind}` needs a name or a command: <!-- {kind}: ... -->")
                    i = end + 1
                    continue
                if kind == "file":
                    if "/" in argument or argument.startswith("."):
                        errors.append(f"{where}: `file: {argument}`: a plain file name, please")
                    else:
                        with open(os.path.join(work, argument), "w", encoding="utf-8") as f:
                            f.write("\n".join(body) + "\n")
                    i = end + 1
                    continue
                checked += 1
                result = run(argument)
                if result.returncode not in (0, 1, 2, 3):
                    errors.append(f"{where}: `{argument}` exited with {result.returncode}:\n"
                                  + result.stdout + result.stderr)
                actual = normalize(result.stdout + result.stderr, work, root)
                if [line.rstrip() for line in body] != actual:
                    if regenerate:
                        lines[i + 2:end] = actual
                        end = i + 2 + len(actual)
                        changed = True
                        rewritten += 1
                    else:
                        diff = "\n".join(["    doc: " + line for line in body] + ["    now: " + line for line in actual])
                        errors.append(f"{where}: the output of `{argument}` is not what the document shows "
                                      f"(run: python3 Scripts/check-guides.py --regenerate):\n{diff}")
                i = end + 1
        if changed:
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(lines))
    return errors, rewritten, checked


# --------------------------------------------------------------------------
# Self-test: a small tree that passes, then copies of it that each break one rule.

FAKE_CELLKIT = """#!/bin/sh
# A stand-in for cellkit: `inspect FILE` names the file and its size.
if [ "$1" = inspect ]; then echo "$PWD/$2"; echo "  size $(wc -c < "$2")"; exit 1; fi
echo "usage: cellkit inspect FILE" >&2; exit 64
"""

GUIDE = """# A guide

Write `hello.txt`, then look at it:

<!-- file: hello.txt -->
```text
hello
```

<!-- run -->
```shell
cp hello.txt copy.txt
```

<!-- output: cellkit inspect copy.txt -->
```
/…/copy.txt
  size 6
```

See `Sources/Model/Model.swift:3`, `Plugins/<name>/`, `Fuzz/corpus/TARGET/`, `Tests/*.swift` and
[the architecture](../../../ARCHITECTURE.md#layers). A user's package: `Sources/GreetingCells/`.
"""

SELF_TEST_TREE = {
    "ARCHITECTURE.md": "# Architecture\n\n`Model` holds the values (`Model/Model.swift`); `CModel` the C header.\n\n"
                       "- **`Model`**: `Values/` (`Model`, `Point`).\n",
    "README.md": "# T\n\n    swift run cellkit render Manifests/t.yaml\n\nSee [the guide](Sources/Model/Model.docc/Guide.md).\n",
    "CONTRIBUTING.md": "# Contributing\n\n`python3 Scripts/check.py` and `cc -I \"$SRC/Sources/CModel/include\"`.\n",
    "Sources/Model/Model.swift": "struct Model {}\n",
    "Sources/Model/Values/Point.swift": "struct Point {}\n",
    "Sources/CModel/include/m.h": "int m;\n",
    "Sources/Model/Model.docc/Guide.md": GUIDE,
    "Scripts/check.py": "",
    "Manifests/t.yaml": "",
    "Examples/Greeting/Sources/GreetingCells/G.swift": "",
}

BROKEN = [
    ("a wrong path in backticks", "CONTRIBUTING.md",
     lambda t: t.replace("Scripts/check.py", "Scripts/chek.py"),
     "CONTRIBUTING.md:3: the path Scripts/chek.py does not exist"),
    ("a wrong path in a code block", "README.md",
     lambda t: t.replace("Manifests/t.yaml", "Manifests/tables/t.yaml"),
     "README.md:3: the path Manifests/tables/t.yaml does not exist"),
    ("a wrong relative link", "README.md",
     lambda t: t.replace("Model.docc/Guide.md", "Model.docc/Guides.md"),
     "README.md:5: the link Sources/Model/Model.docc/Guides.md does not exist"),
    ("a wrong path in a module, written without Sources/", "ARCHITECTURE.md",
     lambda t: t.replace("Model/Model.swift", "Model/Values.swift"),
     "ARCHITECTURE.md:3: the path Sources/Model/Values.swift does not exist"),
    ("a module ARCHITECTURE.md does not name", "Sources/Extra/E.swift", lambda t: "",
     "ARCHITECTURE.md: the module Sources/Extra/ is not named"),
    ("a module folder its ARCHITECTURE.md item does not name", "Sources/Model/Rows/Row.swift", lambda t: "",
     "ARCHITECTURE.md:5: Model's item does not name its folder `Rows/`"),
    ("a type its ARCHITECTURE.md item names that the module no longer declares", "Sources/Model/Values/Point.swift",
     lambda t: "struct Spot {}\n", "ARCHITECTURE.md:5: Model's item names `Point`, which neither Sources/Model/"),
    ("a file named after nothing it declares", "Sources/Model/Values/Point.swift",
     lambda t: t.replace("struct Point", "struct Spot"),
     "Sources/Model/Values/Point.swift: declares nothing named Point"),
    ("an example output that is no longer what the tool prints", "Sources/Model/Model.docc/Guide.md",
     lambda t: t.replace("  size 6", "  size 7"),
     "Sources/Model/Model.docc/Guide.md:15: the output of `cellkit inspect copy.txt` is not what the document shows"),
    ("a failing build step", "Sources/Model/Model.docc/Guide.md",
     lambda t: t.replace("cp hello.txt", "cp nothing.txt"),
     "Sources/Model/Model.docc/Guide.md:10: `cp nothing.txt copy.txt` failed"),
]


def _write_tree(root, files):
    for rel_path, content in files.items():
        path = os.path.join(root, rel_path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(content)


def self_test():
    failures = 0
    with tempfile.TemporaryDirectory(prefix="check-guides-self-test-") as tmp:
        fake = os.path.join(tmp, "cellkit")
        with open(fake, "w") as f:
            f.write(FAKE_CELLKIT)
        os.chmod(fake, 0o755)

        def run(name, files, *extra):
            root = os.path.join(tmp, name)
            _write_tree(root, files)
            return root, subprocess.run([sys.executable, os.path.abspath(__file__), "--root", root,
                                         "--cellkit", fake, *extra], capture_output=True, text=True)

        _, result = run("legal", SELF_TEST_TREE)
        if result.returncode == 0:
            print("self-test ok: a tree whose documents are right passes")
        else:
            failures += 1
            print("self-test FAILED: the legal tree was refused:\n" + result.stdout + result.stderr)
        for number, (what, file, change, expected) in enumerate(BROKEN):
            files = dict(SELF_TEST_TREE)
            files[file] = change(files.get(file, ""))
            _, result = run(f"broken{number}", files)
            output = result.stdout + result.stderr
            if result.returncode == 1 and expected in output:
                print(f"self-test ok: {what} fails: {expected}")
            else:
                failures += 1
                print(f"self-test FAILED: {what}: exit {result.returncode}, expected a line containing\n"
                      f"    {expected}\ngot:\n{output}")
        # --regenerate puts the tool's output back, after which the check passes.
        files = dict(SELF_TEST_TREE)
        guide = "Sources/Model/Model.docc/Guide.md"
        files[guide] = GUIDE.replace("  size 6", "  size 7\n  stale line")
        root, result = run("regenerate", files, "--regenerate")
        with open(os.path.join(root, guide), encoding="utf-8") as f:
            regenerated = f.read()
        again = subprocess.run([sys.executable, os.path.abspath(__file__), "--root", root, "--cellkit", fake],
                               capture_output=True, text=True)
        if result.returncode == 0 and regenerated == GUIDE and again.returncode == 0:
            print("self-test ok: --regenerate rewrites a stale output block, and the check then passes")
        else:
            failures += 1
            print("self-test FAILED: --regenerate:\n" + result.stdout + result.stderr + again.stdout + again.stderr)
    total = 2 + len(BROKEN)
    if failures:
        print(f"check-guides self-test: {failures} of {total} failed")
        return 1
    print(f"check-guides self-test: {total} passed")
    return 0


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", help="the package folder (default: the folder above Scripts/)")
    parser.add_argument("--cellkit", help="the cellkit to run (default: ROOT/.build/debug/cellkit)")
    parser.add_argument("--no-outputs", action="store_true", help="check paths and modules only; run nothing")
    parser.add_argument("--regenerate", action="store_true", help="rewrite the marked example outputs")
    parser.add_argument("--self-test", action="store_true",
                        help="check the checker on temporary trees: a right one passes, wrong ones fail")
    options = parser.parse_args()
    if options.self_test:
        return self_test()
    root = os.path.abspath(options.root or os.path.dirname(here))
    errors = check_modules(root) + check_file_names(root) + check_paths(root)
    checked = rewritten = 0
    if not options.no_outputs:
        output_errors, rewritten, checked = check_outputs(
            root, options.cellkit or os.path.join(root, ".build/debug/cellkit"), options.regenerate)
        errors += output_errors
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        print(f"check-guides: {len(errors)} error(s)", file=sys.stderr)
        return 1
    print(f"check-guides: ok: {len(documents(root))} documents; every module named in ARCHITECTURE.md with its "
          f"folders, every Sources file named after what it declares, every path "
          f"they name exists" + ("" if options.no_outputs else f", {checked} example outputs are what cellkit prints")
          + (f" ({rewritten} rewritten)" if rewritten else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
