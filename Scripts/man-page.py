#!/usr/bin/env python3
"""The two steps Scripts/man-page.sh adds around swift-argument-parser's generate-manual.

    python3 Scripts/man-page.py dump < help.json > filtered.json
        cellkit's --experimental-dump-help without the commands it hides (`check-worker`:
        shouldDisplay false, which generate-manual would list), and with every non-ASCII
        character (which generate-manual drops) written as a placeholder, @@U+2191@@.
    python3 Scripts/man-page.py page < generated.1 > cellkit.1
        the page generate-manual wrote, made clean for `groff -ww -mandoc`: placeholders as
        groff escapes (\\[u2191], so the page stays ASCII and renders ↑ in UTF-8), an empty
        line (a paragraph break in the help) as .Pp, and the help's indented example lines as
        a literal display (.Bd -literal ... .Ed).

Standard library only.
"""

import json
import re
import sys


def placeholders(value):
    if isinstance(value, str):
        return "".join(c if ord(c) < 128 else f"@@U+{ord(c):04X}@@" for c in value)
    if isinstance(value, list):
        return [placeholders(v) for v in value]
    if isinstance(value, dict):
        return {k: placeholders(v) for k, v in value.items()}
    return value


def visible(command):
    command["subcommands"] = [visible(c) for c in command.get("subcommands") or [] if c.get("shouldDisplay", True)]
    if not command["subcommands"]:
        del command["subcommands"]
    return command


def dump():
    info = json.load(sys.stdin)
    info["command"] = visible(info["command"])
    json.dump(placeholders(info), sys.stdout)


# mdoc macros a paragraph break before or after is pointless (mandoc: "skipping paragraph macro").
BREAKS = (".Pp", ".Bl", ".El", ".It", ".Sh", ".Ss", ".Bd", ".Ed")


def page():
    lines = sys.stdin.read().split("\n")
    out = []
    i = 0
    while i < len(lines):
        line = re.sub(r"@@U\+([0-9A-F]{4,6})@@", lambda m: f"\\[u{m.group(1)}]", lines[i])
        if line.startswith("  ") or line.startswith("\\&  "):
            # The help's indented examples: one literal display, as the help shows them.
            block = []
            while i < len(lines) and (lines[i].startswith("  ") or lines[i].startswith("\\&  ")):
                text = re.sub(r"@@U\+([0-9A-F]{4,6})@@", lambda m: f"\\[u{m.group(1)}]", lines[i])
                text = text[2:] if text.startswith("\\&") else text
                block.append(text[2:])
                i += 1
            out += [".Bd -literal -offset indent"] + block + [".Ed"]
            continue
        if not line.strip():
            following = lines[i + 1] if i + 1 < len(lines) else ""
            display = following.startswith("  ") or following.startswith("\\&  ")  # becomes a .Bd
            if out and not out[-1].startswith(BREAKS[:-1]) and not following.startswith(BREAKS) and not display \
                    and following.strip():
                out.append(".Pp")
            i += 1
            continue
        out.append(line)
        i += 1
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    {"dump": dump, "page": page}[sys.argv[1]]()
