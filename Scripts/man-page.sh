#!/usr/bin/env bash
# Writes man/cellkit.1, the manual page, from cellkit's own help (every command, option and
# discussion) with swift-argument-parser's generate-manual plugin; with --check, regenerates it
# and fails if the committed page differs (CI runs that: the page must match --help).
#
#     bash Scripts/man-page.sh          # after changing any help text: rewrite man/cellkit.1
#     bash Scripts/man-page.sh --check  # CI: exit 1 if man/cellkit.1 is not what --help says
#
# The page's date is fixed (MAN_DATE), so it changes only when the help does; set it to the
# release date when CellKitVersion.current changes. Builds in debug (reusing `swift build`).
set -euo pipefail
cd "$(dirname "$0")/.."

MAN_DATE=2026-11-25
page=man/cellkit.1
generated=.build/plugins/GenerateManual/outputs/CellKitCommand/cellkit.1

rm -f "$generated"
swift package generate-manual --configuration debug --date "$MAN_DATE" >/dev/null ||
    { echo "error: swift package generate-manual failed (run it without >/dev/null to see why)" >&2; exit 1; }
[[ -f $generated ]] || { echo "error: generate-manual wrote no $generated" >&2; exit 1; }

if [[ ${1:-} == --check ]]; then
    if ! diff -u "$page" "$generated"; then
        echo "error: $page does not match cellkit's help; run: bash Scripts/man-page.sh" >&2
        exit 1
    fi
    echo "$page matches cellkit's help"
else
    mkdir -p man
    cp "$generated" "$page"
    echo "wrote $page"
fi
