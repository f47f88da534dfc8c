#!/usr/bin/env python3
"""Check that CellKit's modules import only modules on lower layers.

Reads Scripts/layers.txt (the layering, bottom layer first), then
  * scans every .swift file under Sources/<Module>/ and Plugins/<Name>/ for
    imports of our modules, in every form Swift has (`import X`,
    `@testable import X`, `@_exported import X`, `public import X`,
    `import struct X.Y`, `@preconcurrency import X`, imports inside `#if`, ...);
    comments and string literals are skipped;
  * reads the target dependencies declared in Package.swift;
and fails (exit 1) listing every import or dependency that is not allowed:

    Sources/A/f.swift:3: CellKitRuntime imports CellKitRendering, which is above it (layers.txt line 5)

A folder under Sources/ that layers.txt does not list is an error too. Modules
that are not ours (Foundation, Glibc, Yams, ArgumentParser, ...) are ignored.

Tests are checked too, so that each test sits in the target of the module it
tests. Every folder under Tests/ is either a test target `<Module>Tests` of a
module listed in layers.txt, or a helper module listed there (CellKitTestSupport);
any other folder names no module and is an error. A test target must depend (in
Package.swift) on its module, and its files and dependencies may name only its
module, the helper modules under Tests/, modules that are not ours, and modules
on LOWER lines than its module's: a test importing a module above (or beside)
its own tests that module, and belongs in that module's target. A line
`tests MODULE: A B ...` in layers.txt lets MODULE's tests import A B as well
(each such line says why). Every module under Sources/ with Swift code has a test
target, unless the `untested: ...` line names it.

Usage:
    python3 Scripts/check-layers.py [--root DIR] [--layers FILE]
    python3 Scripts/check-layers.py --self-test

Standard library only.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

# --------------------------------------------------------------------------
# layers.txt


class Layers:
    def __init__(self):
        self.layer = {}  # module -> layer index (0 = bottom)
        self.line = {}  # module -> line number in layers.txt
        self.only = {}  # module -> (allowed set, line)
        self.plugins = None  # (allowed set, line) for plugin targets
        self.tests = {}  # module -> (set its tests may import beyond the layering, line)
        self.untested = None  # (modules with no test target, line)
        self.errors = []


def read_layers(path):
    layers = Layers()
    name = os.path.basename(path)
    index = 0
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            text = raw.split("#", 1)[0].strip()
            if not text:
                continue
            m = re.fullmatch(r"only\s+(\w+)\s*:\s*(.*)", text)
            if m:
                layers.only[m.group(1)] = (set(m.group(2).split()), number)
                continue
            m = re.fullmatch(r"plugins\s*:\s*(.*)", text)
            if m:
                layers.plugins = (set(m.group(1).split()), number)
                continue
            m = re.fullmatch(r"tests\s+(\w+)\s*:\s*(.*)", text)
            if m:
                layers.tests[m.group(1)] = (set(m.group(2).split()), number)
                continue
            m = re.fullmatch(r"untested\s*:\s*(.*)", text)
            if m:
                layers.untested = (set(m.group(1).split()), number)
                continue
            for module in text.split():
                if not re.fullmatch(r"[A-Za-z_]\w*", module):
                    layers.errors.append(f"{name}:{number}: '{module}' is not a module name")
                elif module in layers.layer:
                    layers.errors.append(
                        f"{name}:{number}: {module} is listed twice (first on line {layers.line[module]})")
                else:
                    layers.layer[module] = index
                    layers.line[module] = number
            index += 1
    for module, (allowed, number) in list(layers.only.items()) + list(layers.tests.items()) + (
            [("plugins", layers.plugins)] if layers.plugins else []) + (
            [("untested", layers.untested)] if layers.untested else []):
        for other in sorted(allowed):
            if other not in layers.layer:
                layers.errors.append(f"{name}:{number}: {other} is not a module listed on a layer line")
        if module not in ("plugins", "untested") and module not in layers.layer:
            layers.errors.append(f"{name}:{number}: {module} is not a module listed on a layer line")
    return layers


# --------------------------------------------------------------------------
# A small Swift lexer: blanks comments and string literals, keeping offsets and
# line breaks, so that regular expressions only ever see code.

_STRING_START = re.compile(r'(#*)("""|")')


def mask_swift(text):
    """Return (masked, literals): masked has comments turned into spaces and
    string literals (delimiters, interpolations and all) into 'x', line breaks
    kept; literals lists the (start, end) offsets of the outermost literals."""
    out = list(text)
    literals = []
    n = len(text)
    i = 0
    # Stack of contexts: ["code", paren depth] or ["str", hashes, multiline].
    stack = [["code", 0]]
    literal_start = 0

    def blank(a, b, ch):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = ch

    while i < n:
        top = stack[-1]
        in_literal = len(stack) > 1
        if top[0] == "code":
            if text.startswith("//", i):
                j = text.find("\n", i)
                j = n if j < 0 else j
                blank(i, j, "x" if in_literal else " ")
                i = j
                continue
            if text.startswith("/*", i):
                depth, j = 1, i + 2
                while j < n and depth:
                    if text.startswith("/*", j):
                        depth, j = depth + 1, j + 2
                    elif text.startswith("*/", j):
                        depth, j = depth - 1, j + 2
                    else:
                        j += 1
                blank(i, j, "x" if in_literal else " ")
                i = j
                continue
            c = text[i]
            if c in '#"':
                m = _STRING_START.match(text, i)
                if m:
                    if not in_literal:
                        literal_start = i
                    stack.append(["str", len(m.group(1)), m.group(2) == '"""'])
                    blank(i, m.end(), "x")
                    i = m.end()
                    continue
            if c == "(":
                top[1] += 1
            elif c == ")":
                if in_literal and top[1] == 0:  # end of an interpolation
                    stack.pop()
                    blank(i, i + 1, "x")
                    i += 1
                    continue
                top[1] -= 1
            if in_literal:
                blank(i, i + 1, "x")
            i += 1
        else:
            _, hashes, multi = top
            close = ('"""' if multi else '"') + "#" * hashes
            if text.startswith(close, i):
                stack.pop()
                blank(i, i + len(close), "x")
                i += len(close)
                if len(stack) == 1:
                    literals.append((literal_start, i))
                continue
            c = text[i]
            if c == "\\" and text.startswith("#" * hashes, i + 1):
                k = i + 1 + hashes
                if k < n and text[k] == "(":
                    blank(i, k + 1, "x")
                    stack.append(["code", 0])
                    i = k + 1
                    continue
                blank(i, min(k + 1, n), "x")
                i = k + 1
                continue
            if c == "\n" and not multi:  # unterminated literal: recover at the line end
                stack.pop()
                if len(stack) == 1:
                    literals.append((literal_start, i))
                continue
            blank(i, i + 1, "x")
            i += 1
    return "".join(out), literals


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


# An import declaration: attributes (@testable, @_exported, @preconcurrency,
# @_spi(X), @_implementationOnly, ...) and an access level may come first, on
# the same line or the lines before; a kind (struct, func, ...) may follow; the
# path's first component is the module. It must end the statement.
_IMPORT = re.compile(
    r"(?:^|;)[ \t]*"
    r"(?:(?:@[A-Za-z_]\w*(?:\([^()]*\))?|public|package|internal|fileprivate|private|open)\s+)*"
    r"import\s+(?:(?:struct|class|enum|protocol|typealias|func|let|var)\s+)?"
    r"(`?)([A-Za-z_]\w*)\1(?:\.[^\s;]+)?[ \t]*(?=;|$)",
    re.MULTILINE,
)


def swift_imports(text):
    """Yield (line, module) for every import declaration in Swift source."""
    masked, _ = mask_swift(text)
    for m in _IMPORT.finditer(masked):
        yield line_of(masked, m.start(2)), m.group(2)


# --------------------------------------------------------------------------
# Package.swift


def _matching(masked, open_index):
    """Index of the bracket closing the one at open_index."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    depth = 0
    for k in range(open_index, len(masked)):
        c = masked[k]
        if c in pairs:
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return k
    return len(masked)


def _split_top(masked, start, end):
    """Split masked[start:end] at commas outside brackets: [(a, b), ...]."""
    parts, depth, a = [], 0, start
    for k in range(start, end):
        c = masked[k]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append((a, k))
            a = k + 1
    if masked[a:end].strip():
        parts.append((a, end))
    return parts


def _labelled(masked, parts):
    """{label: (value start, value end)} of labelled arguments."""
    args = {}
    for a, b in parts:
        m = re.match(r"\s*([A-Za-z_]\w*)\s*:", masked[a:b])
        if m:
            args[m.group(1)] = (a + m.end(), b)
    return args


def _literal(text, masked, literals, a, b):
    """The text of the string literal that is all of [a, b), or None if the
    span is anything else (a variable, an interpolated literal, ...)."""
    value = masked[a:b]
    lead = len(value) - len(value.lstrip())
    start, stop = a + lead, a + len(value.rstrip())
    for s, e in literals:
        if s == start and e == stop:
            raw = text[s:e]
            m = re.fullmatch(r'"([^"\\]*)"', raw)
            return m.group(1) if m else None
    return None


_TARGET = re.compile(r"\.(target|executableTarget|testTarget|systemLibrary|binaryTarget|plugin|macro)\s*\(")


def package_targets(text):
    """Yield (kind, name or None, path or None, line, [(dep name, line)])."""
    masked, literals = mask_swift(text)
    for m in _TARGET.finditer(masked):
        open_index = m.end() - 1
        close = _matching(masked, open_index)
        args = _labelled(masked, _split_top(masked, open_index + 1, close))
        if "name" not in args:
            continue
        name = _literal(text, masked, literals, *args["name"])
        path = None
        if "path" in args:
            a, b = args["path"]
            path = text[a:b].strip().strip('"')
        deps = []
        if "dependencies" in args:
            a, b = args["dependencies"]
            lead = masked.find("[", a, b)
            if lead >= 0:
                for ea, eb in _split_top(masked, lead + 1, _matching(masked, lead)):
                    element = masked[ea:eb]
                    dep = None
                    if element.strip().startswith("x"):  # a plain string literal
                        dep = _literal(text, masked, literals, ea, eb)
                    else:
                        em = re.match(r"\s*\.(target|byName)\s*\(", element)
                        if em:
                            o = ea + em.end() - 1
                            inner = _labelled(masked, _split_top(masked, o + 1, _matching(masked, o)))
                            if "name" in inner:
                                dep = _literal(text, masked, literals, *inner["name"])
                    if dep:
                        offset = ea + len(element) - len(element.lstrip())
                        deps.append((dep, line_of(text, offset)))
        yield m.group(1), name, path, line_of(text, m.start()), deps


# --------------------------------------------------------------------------
# The check


def verdict(layers, importer, imported, plugin_names, is_plugin):
    """Why `importer` may not import `imported` (None if it may)."""
    lt = "layers.txt"
    if imported in plugin_names:
        return f"imports {imported}, a plugin under Plugins/: plugins are loaded at run time, never imported"
    if imported not in layers.layer:
        return None  # not one of ours
    if is_plugin:
        allowed, number = layers.plugins if layers.plugins else (set(), 0)
        if imported in allowed:
            return None
        return (f"imports {imported}, but plugins may import only "
                f"{', '.join(sorted(allowed)) or 'nothing of ours'} ({lt} line {number})")
    if imported == importer:
        return f"imports itself"
    mine, theirs = layers.layer[importer], layers.layer[imported]
    if theirs > mine:
        return f"imports {imported}, which is above it ({lt} line {layers.line[imported]})"
    if theirs == mine:
        return f"imports {imported}, which is on the same layer ({lt} line {layers.line[imported]})"
    if importer in layers.only:
        allowed, number = layers.only[importer]
        if imported not in allowed:
            return f"imports {imported}, but may import only {', '.join(sorted(allowed))} ({lt} line {number})"
    return None


def test_verdict(layers, module, imported, plugin_names, helpers):
    """Why the tests of `module` (its target `<module>Tests`) may not import `imported` (None if they may)."""
    lt = "layers.txt"
    if imported in plugin_names:
        return f"imports {imported}, a plugin under Plugins/: plugins are loaded at run time, never imported"
    if imported not in layers.layer or imported == module or imported in helpers:
        return None  # not ours, the module tested, or the tests' helpers
    if module in layers.tests and imported in layers.tests[module][0]:
        return None  # an exception layers.txt gives, with its reason
    mine, theirs = layers.layer[module], layers.layer[imported]
    where = "above" if theirs > mine else "on the same layer as" if theirs == mine else None
    if where:
        return (f"imports {imported}, which is {where} {module} ({lt} line {layers.line[imported]}): "
                f"a test of {imported} belongs in {imported}Tests")
    if module in layers.only:
        allowed, number = layers.only[module]
        if imported not in allowed:
            return f"imports {imported}, but {module} may import only {', '.join(sorted(allowed))} ({lt} line {number})"
    return None


def swift_files(folder):
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for f in sorted(filenames):
            if f.endswith(".swift"):
                yield os.path.join(dirpath, f)


def check(root, layers_path):
    layers = read_layers(layers_path)
    errors = list(layers.errors)
    notes = []
    counts = {"files": 0, "imports": 0, "ours": 0, "targets": 0, "deps": 0, "tests": 0, "test targets": 0}

    def rel(p):
        return os.path.relpath(p, root)

    sources = os.path.join(root, "Sources")
    plugins_dir = os.path.join(root, "Plugins")
    source_modules = sorted(d for d in os.listdir(sources)
                            if os.path.isdir(os.path.join(sources, d)) and not d.startswith(".")) \
        if os.path.isdir(sources) else []
    plugin_dirs = sorted(d for d in os.listdir(plugins_dir)
                         if os.path.isdir(os.path.join(plugins_dir, d)) and not d.startswith(".")) \
        if os.path.isdir(plugins_dir) else []
    plugin_names = set(plugin_dirs) | {p + "Descriptor" for p in plugin_dirs}
    if plugin_dirs and layers.plugins is None:
        errors.append("layers.txt: there are plugins under Plugins/ but no `plugins:` line says what they may import")

    units = []  # (module, folder, is_plugin)
    for module in source_modules:
        if module not in layers.layer:
            errors.append(f"Sources/{module}/: module {module} is not listed in layers.txt: "
                          f"add it to the line of its layer")
            continue
        units.append((module, os.path.join(sources, module), False))
    for plugin in plugin_dirs:
        units.append((plugin, os.path.join(plugins_dir, plugin), True))

    # Tests/: test targets `<Module>Tests` and helper modules listed in layers.txt.
    tests_dir = os.path.join(root, "Tests")
    test_dirs = sorted(d for d in os.listdir(tests_dir)
                       if os.path.isdir(os.path.join(tests_dir, d)) and not d.startswith(".")) \
        if os.path.isdir(tests_dir) else []
    helpers = {d for d in test_dirs if d in layers.layer}
    test_targets = {}  # test target -> module it tests
    for folder in test_dirs:
        if folder in helpers:
            units.append((folder, os.path.join(tests_dir, folder), False))
        elif folder.endswith("Tests") and folder[:-len("Tests")] in layers.layer \
                and folder[:-len("Tests")] in source_modules:
            test_targets[folder] = folder[:-len("Tests")]
        else:
            errors.append(f"Tests/{folder}/: names no module: a folder under Tests/ is a test target "
                          f"<Module>Tests of a module under Sources/ listed in layers.txt, or a helper module "
                          f"listed there")
    for target, module in sorted(test_targets.items()):
        for path in swift_files(os.path.join(tests_dir, target)):
            counts["files"] += 1
            counts["tests"] += 1
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for line, imported in swift_imports(text):
                counts["imports"] += 1
                if imported in layers.layer or imported in plugin_names:
                    counts["ours"] += 1
                why = test_verdict(layers, module, imported, plugin_names, helpers)
                if why:
                    errors.append(f"{rel(path)}:{line}: {target} {why}")

    # Every module with Swift code has its tests, unless `untested:` says it has none.
    untested, untested_line = layers.untested if layers.untested else (set(), 0)
    for module in source_modules:
        if module not in layers.layer or not any(True for _ in swift_files(os.path.join(sources, module))):
            continue
        if module in untested and module + "Tests" in test_targets:
            errors.append(f"Tests/{module}Tests/: {module} has tests, but layers.txt line {untested_line} "
                          f"says it has none: take it off the `untested:` line")
        elif module not in untested and module + "Tests" not in test_targets:
            errors.append(f"Sources/{module}/: module {module} has no test target: add Tests/{module}Tests "
                          f"(and its .testTarget), or name it on the `untested:` line with the reason")

    for module, folder, is_plugin in units:
        for path in swift_files(folder):
            counts["files"] += 1
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for line, imported in swift_imports(text):
                counts["imports"] += 1
                if imported in layers.layer or imported in plugin_names:
                    counts["ours"] += 1
                why = verdict(layers, module, imported, plugin_names, is_plugin)
                if why:
                    who = f"plugin {module}" if is_plugin else module
                    errors.append(f"{rel(path)}:{line}: {who} {why}")

    manifest = os.path.join(root, "Package.swift")
    if os.path.isfile(manifest):
        with open(manifest, encoding="utf-8") as f:
            text = f.read()
        declared_tests = set()
        for kind, name, path, line, deps in package_targets(text):
            counts["targets"] += 1
            if kind == "testTarget":
                counts["test targets"] += 1
                module = name[:-len("Tests")] if name and name.endswith("Tests") else None
                if module is None or module not in layers.layer:
                    errors.append(f"Package.swift:{line}: test target {name} names no module: "
                                  f"a test target is <Module>Tests, for a module listed in layers.txt")
                    continue
                declared_tests.add(name)
                if module not in [dep for dep, _ in deps]:
                    errors.append(f"Package.swift:{line}: test target {name} does not depend on {module}, "
                                  f"the module it tests")
                for dep, dep_line in deps:
                    counts["deps"] += 1
                    why = test_verdict(layers, module, dep, plugin_names, helpers)
                    if why:
                        errors.append(f"Package.swift:{dep_line}: {name} depends on" + why[len("imports"):])
                continue
            is_plugin = bool(path and path.startswith("Plugins/"))
            if name is None and not is_plugin:
                notes.append(f"Package.swift:{line}: a .{kind} whose name is computed: its dependencies are not checked")
                continue
            if not is_plugin and name not in layers.layer:
                if name in plugin_names:
                    is_plugin = True
                else:
                    errors.append(f"Package.swift:{line}: target {name} is not listed in layers.txt: "
                                  f"add it to the line of its layer")
                    continue
            for dep, dep_line in deps:
                counts["deps"] += 1
                why = verdict(layers, name, dep, plugin_names, is_plugin)
                if why:
                    who = f"plugin {name or '(Plugins/ target)'}" if is_plugin else name
                    errors.append(f"Package.swift:{dep_line}: {who} depends on" + why[len("imports"):])
        for target in sorted(set(test_targets) - declared_tests):
            errors.append(f"Tests/{target}/: no .testTarget(name: \"{target}\") in Package.swift")
    return errors, notes, counts


# --------------------------------------------------------------------------
# Self-test: a tree that obeys the layering and trees that each break it once.

SELF_TEST_LAYERS = """\
# self-test layering
CLow COther
Model
Discovery
Runtime Documents
Top Plugin
App
Support

only Plugin: CLow
plugins: CLow Plugin
untested: Discovery Plugin App
tests Top: App
"""

LEGAL_SWIFT = '''\
import Foundation
@testable import Model
@_exported import CLow
public import COther
package import Model
internal import Model
import struct Model.Thing
@preconcurrency import Model
@_spi(Internal) @testable import Model
@testable
import Model
import Glibc; import Model
#if canImport(Model)
    import Model
#endif
// import App            (a comment)
/* import App
   /* nested */ import App */
let s = "import App"
let t = """
import App
"""
let r = #"import App \\#(1) "import App""#
let u = "\\(f("x")) import App"
func f(import x: Int) {}
'''

LEGAL_PACKAGE = '''\
// swift-tools-version:6.0
import PackageDescription
func plugin(_ name: String) -> [Target] {
    [.target(name: name, dependencies: ["Plugin"], path: "Plugins/\\(name)/Swift")]
}
let package = Package(
    name: "T",
    dependencies: [.package(url: "https://example.invalid/x", from: "1.0.0")],
    targets: [
        .target(name: "CLow"),
        .target(name: "Discovery", dependencies: ["Model", "CLow"]),
        .target(name: "Runtime", dependencies: ["Model", "Discovery", .target(name: "CLow")]),
        .target(
            name: "Top",
            dependencies: [
                "Runtime",  // "App" in a comment
                .product(name: "App", package: "x"),
            ]),
        .target(name: "Support", dependencies: ["App"], path: "Tests/Support"),
        .testTarget(name: "TopTests", dependencies: ["App", "Top"]),
        .testTarget(name: "ModelTests", dependencies: ["Model", "CLow", "Support"]),
        .testTarget(
            name: "RuntimeTests",
            dependencies: [
                "Runtime", "Discovery", "Support",
            ]),
    ] + ["Greeting"].flatMap(plugin)
)
'''

# (description, files to add or replace, text the failure must contain)
BROKEN = [
    ("an upward import",
     {"Sources/Runtime/Up.swift": "import Foundation\nimport Top\n"},
     "Sources/Runtime/Up.swift:2: Runtime imports Top, which is above it (layers.txt line 6)"),
    ("an import from the same layer",
     {"Sources/Runtime/Side.swift": "@testable import Documents\n"},
     "Sources/Runtime/Side.swift:1: Runtime imports Documents, which is on the same layer (layers.txt line 5)"),
    ("an upward `import struct`",
     {"Sources/Model/S.swift": "import struct Runtime.Engine\n"},
     "Sources/Model/S.swift:1: Model imports Runtime, which is above it"),
    ("an upward import inside #if canImport",
     {"Sources/Model/If.swift": "#if canImport(App)\n  @preconcurrency public import App\n#endif\n"},
     "Sources/Model/If.swift:2: Model imports App, which is above it"),
    ("an import after a `;`",
     {"Sources/Model/Semi.swift": "import Foundation; import Documents\n"},
     "Sources/Model/Semi.swift:1: Model imports Documents, which is above it"),
    ("an attribute on the line before",
     {"Sources/Model/Attr.swift": "@_exported\nimport Top\n"},
     "Sources/Model/Attr.swift:2: Model imports Top, which is above it"),
    ("a restricted module importing a lower module it may not",
     {"Sources/Plugin/P.swift": "import Model\n"},
     "Sources/Plugin/P.swift:1: Plugin imports Model, but may import only CLow"),
    ("a plugin importing the library",
     {"Plugins/Greeting/Swift/G.swift": "import Top\n"},
     "Plugins/Greeting/Swift/G.swift:1: plugin Greeting imports Top, but plugins may import only CLow, Plugin"),
    ("a module importing a plugin",
     {"Sources/App/Main.swift": "import Greeting\n"},
     "Sources/App/Main.swift:1: App imports Greeting, a plugin under Plugins/"),
    ("a folder under Sources/ that layers.txt does not list",
     {"Sources/Stray/S.swift": "import Foundation\n"},
     "Sources/Stray/: module Stray is not listed in layers.txt"),
    ("an upward dependency in Package.swift, written over several lines",
     {"Package.swift": LEGAL_PACKAGE.replace(
         '.target(name: "CLow"),',
         '.target(name: "CLow"),\n        .target(\n            name: "Model",\n            dependencies: [\n'
         '                "CLow",\n                .target(name: "Documents"),\n            ]),')},
     "Package.swift:15: Model depends on Documents, which is above it (layers.txt line 5)"),
    ("a layer of one module (Discovery, between Model and Runtime) importing the layer above it",
     {"Sources/Discovery/Up.swift": "import Model\nimport Runtime\n"},
     "Sources/Discovery/Up.swift:2: Discovery imports Runtime, which is above it (layers.txt line 5)"),
    ("a module importing the one-module layer above it",
     {"Sources/Model/Up.swift": "import Discovery\n"},
     "Sources/Model/Up.swift:1: Model imports Discovery, which is above it (layers.txt line 4)"),
    ("a one-module layer depending on the layer above it in Package.swift",
     {"Package.swift": LEGAL_PACKAGE.replace('dependencies: ["Model", "CLow"]', 'dependencies: ["Model", "Runtime"]')},
     "Package.swift:11: Discovery depends on Runtime, which is above it (layers.txt line 5)"),
    ("a test importing a module above the one it tests",
     {"Tests/ModelTests/Up.swift": "import Testing\n@testable import Runtime\n"},
     "Tests/ModelTests/Up.swift:2: ModelTests imports Runtime, which is above Model (layers.txt line 5): "
     "a test of Runtime belongs in RuntimeTests"),
    ("a test importing a module on its module's layer",
     {"Tests/RuntimeTests/Side.swift": "import Documents\n"},
     "Tests/RuntimeTests/Side.swift:1: RuntimeTests imports Documents, which is on the same layer as Runtime"),
    ("a test importing a plugin",
     {"Tests/RuntimeTests/P.swift": "import Greeting\n"},
     "Tests/RuntimeTests/P.swift:1: RuntimeTests imports Greeting, a plugin under Plugins/"),
    ("a test target that does not depend on its module",
     {"Package.swift": LEGAL_PACKAGE.replace('dependencies: ["Model", "CLow", "Support"]', 'dependencies: ["CLow", "Support"]')},
     "Package.swift:21: test target ModelTests does not depend on Model, the module it tests"),
    ("a test target depending on a module above its own in Package.swift",
     {"Package.swift": LEGAL_PACKAGE.replace('"Runtime", "Discovery", "Support",', '"Runtime", "Top", "Support",')},
     "Package.swift:25: RuntimeTests depends on Top, which is above Runtime (layers.txt line 6)"),
    ("a folder under Tests/ that names no module",
     {"Tests/StrayTests/S.swift": "import Model\n"},
     "Tests/StrayTests/: names no module"),
    ("a test target in Package.swift that names no module",
     {"Package.swift": LEGAL_PACKAGE.replace('.testTarget(name: "TopTests"', '.testTarget(name: "TopChecks"')},
     "Package.swift:20: test target TopChecks names no module"),
    ("a folder of tests with no .testTarget",
     {"Package.swift": LEGAL_PACKAGE.replace('.testTarget(name: "TopTests", dependencies: ["App", "Top"]),', '')},
     'Tests/TopTests/: no .testTarget(name: "TopTests") in Package.swift'),
    ("a module with no test target that `untested:` does not name",
     {"Scripts/layers.txt": SELF_TEST_LAYERS.replace("untested: Discovery Plugin App", "untested: Plugin App")},
     "Sources/Discovery/: module Discovery has no test target"),
    ("a test importing a module above its own that no `tests` line allows",
     {"Scripts/layers.txt": SELF_TEST_LAYERS.replace("tests Top: App\n", "")},
     "Tests/TopTests/T.swift:1: TopTests imports App, which is above Top (layers.txt line 7)"),
    ("a module on the `untested:` line that has tests",
     {"Scripts/layers.txt": SELF_TEST_LAYERS.replace("untested: Discovery Plugin App", "untested: Discovery Plugin App Model")},
     "Tests/ModelTests/: Model has tests, but layers.txt line 12 says it has none"),
    ("a plugin depending on the library in Package.swift",
     {"Package.swift": LEGAL_PACKAGE.replace('dependencies: ["Plugin"]', 'dependencies: ["Plugin", "Top"]')},
     "Package.swift:4: plugin (Plugins/ target) depends on Top, but plugins may import only CLow, Plugin"),
]


def _write_tree(root, extra):
    files = {
        "Scripts/layers.txt": SELF_TEST_LAYERS,
        "Package.swift": LEGAL_PACKAGE,
        "Sources/CLow/include/low.h": "int low(void);\n",
        "Sources/Model/Model.swift": "import Foundation\nimport CLow\nimport COther\n",
        "Sources/Discovery/Discovery.swift": "import Model\nimport CLow\n",
        "Sources/Runtime/Runtime.swift": "import Discovery\n" + LEGAL_SWIFT,
        "Sources/Top/Deep/Nested/Top.swift": "import Runtime\nimport Documents\nimport Model\n",
        "Sources/Plugin/Plugin.swift": "@_exported import CLow\n",
        "Sources/App/App.swift": "import Top\nimport Runtime\nimport ArgumentParser\n",
        "Plugins/Greeting/Swift/Greeting.swift": "import Plugin\nimport CLow\nimport Foundation\n",
        "Plugins/Greeting/Descriptor/d.c": "int d;\n",
        "Tests/TopTests/T.swift": "@testable import App\nimport Top\n",
        "Tests/ModelTests/M.swift": "import Testing\n@testable import Model\nimport CLow\nimport Support\n",
        "Tests/ModelTests/Fixtures/f.h": "int f;\n",
        "Tests/RuntimeTests/Deep/R.swift": "import Runtime\nimport Discovery\nimport Model\nimport Foundation\n",
        "Tests/Support/S.swift": "@_exported import App\nimport Runtime\n",
    }
    files.update(extra)
    for rel_path, content in files.items():
        path = os.path.join(root, rel_path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(content)


def self_test():
    failures = 0
    with tempfile.TemporaryDirectory(prefix="check-layers-") as tmp:
        def run(name, extra):
            root = os.path.join(tmp, name)
            _write_tree(root, extra)
            return subprocess.run([sys.executable, os.path.abspath(__file__), "--root", root],
                                  capture_output=True, text=True)

        result = run("legal", {})
        if result.returncode == 0:
            print("self-test ok: a tree that obeys the layering passes")
        else:
            failures += 1
            print("self-test FAILED: the legal tree was refused:\n" + result.stdout + result.stderr)
        for number, (what, extra, expected) in enumerate(BROKEN):
            result = run(f"broken{number}", extra)
            output = result.stdout + result.stderr
            if result.returncode == 1 and expected in output:
                print(f"self-test ok: {what} fails: {expected}")
            else:
                failures += 1
                print(f"self-test FAILED: {what}: exit {result.returncode}, expected a line containing\n"
                      f"    {expected}\ngot:\n{output}")
    if failures:
        print(f"check-layers self-test: {failures} failed")
        return 1
    print(f"check-layers self-test: {1 + len(BROKEN)} passed")
    return 0


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", help="the package folder (default: the folder above Scripts/)")
    parser.add_argument("--layers", help="the layering file (default: ROOT/Scripts/layers.txt)")
    parser.add_argument("--self-test", action="store_true",
                        help="check the checker on a temporary tree: a legal one passes, broken ones fail")
    options = parser.parse_args()
    if options.self_test:
        return self_test()
    root = os.path.abspath(options.root or os.path.dirname(here))
    layers_path = options.layers or os.path.join(root, "Scripts", "layers.txt")
    errors, notes, counts = check(root, layers_path)
    for note in notes:
        print("note: " + note, file=sys.stderr)
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        print(f"check-layers: {len(errors)} violation(s) of {os.path.relpath(layers_path, root)}", file=sys.stderr)
        return 1
    print(f"check-layers: ok: {counts['files']} Swift files ({counts['tests']} of them tests), {counts['ours']} of "
          f"{counts['imports']} imports are of our modules; {counts['deps']} dependencies between our modules in "
          f"Package.swift; all go down the layers; {counts['test targets']} test targets, each of its own module")
    return 0


if __name__ == "__main__":
    sys.exit(main())
