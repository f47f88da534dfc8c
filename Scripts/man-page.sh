#!/usr/bin/env bash
# Writes man/cellkit.1, the manual page, from cellkit's own help (every command, option and
# discussion) with swift-argument-parser's generate-manual; with --check, regenerates it and
# fails if the committed page differs (CI runs that: the page must match --help).
#
#     bash Scripts/man-page.sh          # after changing any help text: rewrite man/cellkit.1
#     bash Scripts/man-page.sh --check  # CI: exit 1 if man/cellkit.1 is not what --help says
#
# generate-manual reads `cellkit --experimental-dump-help`; Scripts/man-page.py leaves out the
# hidden commands (check-worker) before and keeps the non-ASCII characters (↑, ≈: groff escapes)
# and paragraphs after. The page is linted with `groff -ww -mandoc` (groff-base) when groff is
# installed: any warning fails. The page's date is fixed (MAN_DATE), so it changes only when
# the help does; set it to the release date when CellKitVersion.current changes. Builds in
# debug (reusing `swift build`).
# -h/--help: the comment above, and nothing run.
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "$0")/.."

MAN_DATE=2026-11-25
page=man/cellkit.1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

{ swift build --product cellkit && swift build --product generate-manual; } >/dev/null ||
    { echo "error: building cellkit or generate-manual failed (run swift build to see why)" >&2; exit 1; }
bin=$(swift build --show-bin-path)
mkdir "$work/tool" "$work/out"
"$bin/cellkit" --experimental-dump-help | python3 Scripts/man-page.py dump >"$work/help.json"
# generate-manual runs the tool it is given with --experimental-dump-help: this one prints the filtered help.
printf '#!/bin/sh\nexec cat "%s"\n' "$work/help.json" >"$work/tool/cellkit"
chmod +x "$work/tool/cellkit"
"$bin/generate-manual" "$work/tool/cellkit" --date "$MAN_DATE" --output-directory "$work/out" >/dev/null
[[ -f $work/out/cellkit.1 ]] || { echo "error: generate-manual wrote no cellkit.1" >&2; exit 1; }
generated=$work/cellkit.1
python3 Scripts/man-page.py page <"$work/out/cellkit.1" >"$generated"

if command -v groff >/dev/null; then
    lint=$(groff -ww -mandoc -Tutf8 -z "$generated" 2>&1)
    [[ -z $lint ]] || { echo "error: groff -ww -mandoc warns about the page:" >&2; echo "$lint" >&2; exit 1; }
else
    echo "note: no groff (apt-get install groff-base): the page is not linted" >&2
fi

if [[ ${1:-} == --check ]]; then
    if ! diff -u "$page" "$generated"; then
        echo "error: $page does not match cellkit's help; run: bash Scripts/man-page.sh" >&2
        exit 1
    fi
    echo "$page matches cellkit's help (and groff -ww finds nothing)"
else
    mkdir -p man
    cp "$generated" "$page"
    echo "wrote $page"
fi
