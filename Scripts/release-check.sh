#!/usr/bin/env bash
# The release `cellkit` as it ships: linked with the Swift runtime and Foundation inside it
# (Package.swift), forking its render workers. The tests run the debug build, which links them
# as shared libraries and so cannot show that a Swift plugin, which brings the shared runtime
# into the process, works beside the static one. Builds the release products that ship (cellkit
# and the bundled plugins; about 5 minutes from a clean folder on the 2-core machine) and checks,
# with the bundled plugins and a C plugin built here that crashes:
#   - the binary has no shared Swift runtime or Foundation, and does not link libffi, libseccomp
#     or libtinfo (opened on first use);
#   - a copy of it outside the checkout installs the SDK (`cellkit sdk install`);
#   - the showcase (two Swift plugins) draws the same bytes isolated, in the process, and with
#     workers started by exec (CELLKIT_WORKER_EXEC=1), and warns of nothing in the sandbox;
#   - a crash in a C hook after a Swift plugin's row: isolated, exit 3, the one line and then only
#     the render's warnings (no backtrace from the plugin's runtime); in the process, the same
#     line, then death by SIGSEGV.

# -h/--help: the comment above, and nothing run.
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "release check: $*" >&2; exit 1; }

# Only what ships: cellkit and the bundled plugins it finds beside it (the showcase uses all four).
# cellkit-bench, cellkit-threadcheck, CellKitFuzz and the tests' helper target are left out: they
# are not installed, the debug build compiles the same code, and in release (a whole-module -O
# compile each) they cost about a minute on the 2-core machine.
# RELEASE_SCRATCH: the scratch path (default .build; .ci/run gives it one of its own, so that the
# release build can run beside the debug build's tests). BUILD_ONLY=1: build, then stop.
scratch=(--scratch-path "${RELEASE_SCRATCH:-.build}")
for product in FoobarCells ProjectCells ContactsCells DrawnCells cellkit; do
    swift build -c release "${scratch[@]}" --product "$product" || die "swift build -c release --product $product failed"
done
[ "${BUILD_ONLY:-}" != 1 ] || exit 0
bin=$(swift build -c release "${scratch[@]}" --show-bin-path)
cellkit="$bin/cellkit"

if ldd "$cellkit" | grep -E 'libswiftCore|libFoundation' >/dev/null; then
    die "$cellkit links the Swift runtime or Foundation as shared libraries (see Package.swift)"
fi
# libffi, libseccomp and libtinfo are opened on first use (Sources/CLibraries), never linked: a
# link would bring back their cost at every start (BENCHMARKS.md: CLibraries).
if readelf -d "$cellkit" | grep -E 'NEEDED.*(libffi|libseccomp|libtinfo)' >/dev/null; then
    die "$cellkit links libffi, libseccomp or libtinfo (they are opened on first use: Sources/CLibraries)"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache"

# `cellkit sdk install` from a copy of the release cellkit outside the checkout: the header it
# writes is embedded in the binary, and is cellkit.h as it is.
mkdir "$work/elsewhere"
cp "$cellkit" "$work/elsewhere/cellkit"
(cd "$work/elsewhere" && ./cellkit sdk install --prefix "$work/sdk" >/dev/null) || die "cellkit sdk install failed"
cmp "$work/sdk/include/cellkit/cellkit.h" Sources/CCellKit/include/cellkit.h ||
    die "the release cellkit installs another cellkit.h (is Sources/CellKitCommand/cellkit.h a link to it?)"
grep -qx 'Cflags: -I${includedir}/cellkit' "$work/sdk/lib/pkgconfig/cellkit.pc" || die "cellkit.pc has no Cflags line"

showcase=Manifests/Tables/showcase.yaml
"$cellkit" render "$showcase" --format html >"$work/forked.html" 2>"$work/forked.err"
# Nothing the Swift plugins' runtime does as it loads is refused by the sandbox's allowlist (the
# static runtime here takes paths the debug build's shared one does not: sched_getaffinity of
# its own pid, for one).
[[ ! -s $work/forked.err ]] || die "the showcase warns in the sandbox: $(cat "$work/forked.err")"
"$cellkit" render "$showcase" --format html --no-isolation >"$work/inprocess.html"
CELLKIT_WORKER_EXEC=1 "$cellkit" render "$showcase" --format html >"$work/exec.html"
cmp "$work/forked.html" "$work/inprocess.html" || die "the showcase differs isolated and in the process"
cmp "$work/forked.html" "$work/exec.html" || die "the showcase differs with forked and exec'd workers"

# In the sandbox, a Swift plugin loaded only when a data file's row names its type (after the
# sandbox closed) still finds the Swift runtime it links (its run path): the static cellkit has
# none loaded of its own.
printf 'sections:\n  - rowsFrom: late.jsonl\n' >"$work/late.yaml"
printf '{"cell":"Foobar"}\n{"cell":"Partner","name":"Ada"}\n' >"$work/late.jsonl"
"$cellkit" render "$work/late.yaml" >"$work/late.txt" 2>"$work/late.err" ||
    { cat "$work/late.err" >&2; die "a Swift plugin loaded late in the sandbox failed (its run path unreadable?)"; }
grep -q "Row: 0" "$work/late.txt" && grep -q "Ada" "$work/late.txt" ||
    die "the late-loaded plugins' rows are missing: $(cat "$work/late.txt" "$work/late.err")"

plugins="$work/plugins"
mkdir -m 700 "$plugins"
cat >"$work/crashy.c" <<'EOF'
#include "cellkit.h"
CK_PLUGIN("Crashy", "1.0.0", "Crashes in its hook");
CK_EXPORT void customizeCellForCrashy(ck_cell *cell, ck_index_path ip) {
    (void)ip;
    ck_set_text(ck_text_label(cell), "crashy");
    volatile int *nowhere = 0;
    *nowhere = 1;
}
EOF
cc -shared -fPIC -I Sources/CCellKit/include "$work/crashy.c" -o "$plugins/libcrashy.so"
cat >"$work/mixed.yaml" <<'EOF'
title: Mixed
sections:
  - header: Swift
    cell: Partner
    rows: 1
  - header: C
    cell: Crashy
    rows: 2
  - header: After
    cell: Foobar
    rows: 1
EOF
line="libcrashy.so: customizeCellForCrashy crashed (SIGSEGV) at row 2.1 (indexPath [1, 0])"
status=0
"$cellkit" render "$work/mixed.yaml" --plugin-path "$plugins" >"$work/out.txt" 2>"$work/err.txt" || status=$?
test "$status" -eq 3 || die "isolated: exit status $status, not 3: $(head -c 2000 "$work/err.txt")"
# The line, then the render's warnings (the rows before the crash had some: none is lost), and
# nothing else: no backtrace from the plugin's runtime.
test "$(head -n 1 "$work/err.txt")" = "$line" || die "isolated: standard error does not start with the line: $(head -c 2000 "$work/err.txt")"
if tail -n +2 "$work/err.txt" | grep -qv '^warning: '; then
    die "isolated: standard error has more than the line and warnings: $(head -c 2000 "$work/err.txt")"
fi
grep -q "this Crashy row is not drawn" "$work/out.txt" || die "isolated: no placeholder rows"
grep -q "Row: 0" "$work/out.txt" || die "isolated: the rows after the crash are missing"

status=0
"$cellkit" render "$work/mixed.yaml" --plugin-path "$plugins" --no-isolation >/dev/null 2>"$work/err.txt" || status=$?
test "$status" -eq $((128 + 11)) || die "in the process: exit status $status, not death by SIGSEGV"
test "$(head -n 1 "$work/err.txt")" = "$line" || die "in the process: no line naming the plugin"

echo "release check: static cellkit, Swift plugins beside it, forked and exec'd workers, faults named: all good"
