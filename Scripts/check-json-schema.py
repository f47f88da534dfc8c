#!/usr/bin/env python3
"""Validates cellkit render output against Schemas/cellkit-render-1.schema.json.

Usage: check-json-schema.py FILE...   (a .json document, or .jsonl: a header line, then rows)
       check-json-schema.py --self-test   (a broken document must be rejected)
Prints one line per file; exit status 0 when every file is valid, 1 when one is not,
3 when the Python package jsonschema is missing (pip install jsonschema).
"""
import json
import os
import sys

if not sys.argv[1:] or any(a in ("-h", "--help") for a in sys.argv[1:]):
    print(__doc__.strip())
    sys.exit(0 if sys.argv[1:] else 2)

try:
    import jsonschema
except ImportError:
    print("check-json-schema: the Python package jsonschema is missing (pip install jsonschema)", file=sys.stderr)
    sys.exit(3)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMA = json.load(open(os.path.join(ROOT, "Schemas", "cellkit-render-1.schema.json"), encoding="utf-8"))
jsonschema.Draft202012Validator.check_schema(SCHEMA)
DOCUMENT = jsonschema.Draft202012Validator(SCHEMA, format_checker=jsonschema.FormatChecker())


def part(name):
    return jsonschema.Draft202012Validator({"$ref": "#/$defs/" + name, "$defs": SCHEMA["$defs"]})


HEADER, ROW, EMPTY = part("streamHeader"), part("row"), part("emptySectionLine")


def errors(validator, value, where):
    return [f"{where}: {'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in validator.iter_errors(value)]


def check(path):
    text = open(path, encoding="utf-8").read()
    if path.endswith(".jsonl"):
        lines = text.split("\n")
        if lines[-1] != "":
            return [f"{path}: the last line has no newline"]
        lines.pop()
        if not lines:
            return [f"{path}: no header line"]
        found = errors(HEADER, json.loads(lines[0]), f"{path}:1")
        for n, line in enumerate(lines[1:], start=2):
            value = json.loads(line)
            found += errors(EMPTY if "emptySection" in value else ROW, value, f"{path}:{n}")
        return found
    return errors(DOCUMENT, json.loads(text), path)


def self_test():
    good = {"format": "cellkit.render", "version": 1, "style": "grouped", "width": 40,
            "units": {"horizontal": "columns", "vertical": "lines"}, "sections": [], "window": {"first": 0, "last": None}}
    assert not errors(DOCUMENT, good, "good"), errors(DOCUMENT, good, "good")
    for broken in [dict(good, version=2), {k: v for k, v in good.items() if k != "window"}, dict(good, extra=1),
                   dict(good, sections=[{"index": 0, "rows": [{"index": 0}]}])]:
        assert errors(DOCUMENT, broken, "broken"), f"accepted: {broken}"
    print("check-json-schema: self-test: a broken document is rejected")


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        sys.exit(0)
    failed = 0
    for path in sys.argv[1:]:
        try:
            found = check(path)
        except OSError as error:
            print(f"{path}: cannot be read ({error.strerror}); give the path of a cellkit render --format json or jsonl output")
            failed += 1
            continue
        print(f"{path}: {'valid' if not found else f'{len(found)} errors'}")
        for line in found[:20]:
            print("  " + line)
        failed += bool(found)
    sys.exit(1 if failed else 0)
