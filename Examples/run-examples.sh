#!/usr/bin/env bash
# Builds and checks the two example packages. Run from the repository root after
# `swift build` there:
#
#     swift build && Examples/run-examples.sh
#
# Prints every check; exits non-zero if any fails.
#
# CELLKIT_DEPENDENTS_SCRATCH, when set, is one scratch path both example packages build in
# (`swift build --scratch-path`), instead of each package's own .build: .ci/run shares it with
# the snippets' package (Scripts/check-snippets.py), so that CellKit, their dependency, is
# compiled once for the three.
# -h/--help: the comment above, and nothing run.
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;; esac
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."  # the repository root, wherever this is run from

CELLKIT=.build/debug/cellkit
scratch=()
if [[ -n ${CELLKIT_DEPENDENTS_SCRATCH:-} ]]; then
    scratch=(--scratch-path "$CELLKIT_DEPENDENTS_SCRATCH")
    PLUGIN_DIR=$CELLKIT_DEPENDENTS_SCRATCH/debug
    EMBED=$CELLKIT_DEPENDENTS_SCRATCH/debug/embed
else
    PLUGIN_DIR=Examples/SwiftPlugin/.build/debug
    EMBED=Examples/Embedding/.build/debug/embed
fi
SEED=Manifests/Tables/seed-004-foobar.yaml
failures=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

pass() { printf '  ok    %s\n' "$1"; }
fail() { printf '  FAIL  %s\n' "$1"; failures=$((failures + 1)); }

# check_contains FILE TEXT WHAT: FILE contains the line fragment TEXT.
check_contains() {
    if grep -qF -- "$2" "$1"; then pass "$3 shows '$2'"; else fail "$3 does not show '$2'"; fi
}

if [[ ! -x $CELLKIT ]]; then
    echo "error: $CELLKIT not found; run \`swift build\` at the repository root first" >&2
    exit 2
fi

echo "== Building Examples/SwiftPlugin"
swift build --package-path Examples/SwiftPlugin "${scratch[@]}"
echo "== Building Examples/Embedding"
swift build --package-path Examples/Embedding "${scratch[@]}"

echo "== cellkit list --plugin-path $PLUGIN_DIR"
"$CELLKIT" list --plugin-path "$PLUGIN_DIR" > "$work/list.txt"
for id in Greeting Badge; do
    if grep -qE "^  $id  GreetingCells 1\.0\.0  (/.*)?/${PLUGIN_DIR#/}/libGreetingCells\.so$" "$work/list.txt"; then
        pass "cellkit list shows $id from libGreetingCells.so"
    else
        fail "cellkit list does not show $id from libGreetingCells.so"
    fi
done
for hook in initCellForGreeting customizeCellForGreeting initCellForBadge customizeCellForBadge heightForCellForBadge; do
    check_contains "$work/list.txt" "$hook" "cellkit list"
done

echo "== cellkit render Examples/SwiftPlugin/greeting.yaml --plugin-path $PLUGIN_DIR"
if "$CELLKIT" render Examples/SwiftPlugin/greeting.yaml --plugin-path "$PLUGIN_DIR" > "$work/greeting.txt" 2> "$work/greeting.err"; then
    pass "cellkit render exits 0"
else
    fail "cellkit render exits non-zero: $(cat "$work/greeting.err")"
fi
for text in "Hello, Ada!" "The first programmer." "Hello, Grace!" "Greeted by a Swift plugin." \
            "Inbox" "(12) ★" "Nothing waiting here" "(99+) ★" "A built-in Subtitle row"; do
    check_contains "$work/greeting.txt" "$text" "the rendered greeting.yaml"
done
if [[ -s $work/greeting.err ]]; then fail "cellkit render warned: $(cat "$work/greeting.err")"; else pass "cellkit render printed no warnings"; fi

# The previews the package ships in libGreetingCells.preview.yaml at its top, where cellkit looks for
# the file of a library SwiftPM built into the package's own .build; a shared scratch path is not
# that, so there the file goes beside the library, as an install would put it.
if [[ -n ${CELLKIT_DEPENDENTS_SCRATCH:-} ]]; then
    cp Examples/SwiftPlugin/libGreetingCells.preview.yaml "$PLUGIN_DIR/"
fi
echo "== cellkit inspect $PLUGIN_DIR/libGreetingCells.so"
"$CELLKIT" inspect "$PLUGIN_DIR/libGreetingCells.so" > "$work/inspect.txt"
for text in "previews (4):" "previews (5):" "libGreetingCells.preview.yaml:6)"; do
    check_contains "$work/inspect.txt" "$text" "cellkit inspect"
done
if grep -q "preview warnings" "$work/inspect.txt"; then fail "cellkit inspect warns about the previews"; else pass "cellkit inspect has no preview warnings"; fi
echo "== cellkit check $PLUGIN_DIR/libGreetingCells.so"
"$CELLKIT" check "$PLUGIN_DIR/libGreetingCells.so" > "$work/check.txt" || true
check_contains "$work/check.txt" "typical data: the plugin's previews (\"typical\", \"empty\", \"many\", \"long\", \"rtl\")" "cellkit check"
check_contains "$work/check.txt" "Clean: 2 cell types checked." "cellkit check"

echo "== embed $SEED .build/debug"
if "$EMBED" "$SEED" .build/debug > "$work/embed.txt" 2> "$work/embed.err"; then
    pass "embed exits 0"
else
    fail "embed exits non-zero: $(cat "$work/embed.err")"
fi
for text in "Seed 004 — createCellForIdentifier" "Row: 0" "Row: 3" "BAR (NOT SELECTABLE)" \
            "First bar, two lines tall" "Second bar" "Bar 1.2" "each section reuses its own pool."; do
    check_contains "$work/embed.txt" "$text" "embed's output"
done
"$CELLKIT" render "$SEED" --plugin-path .build/debug > "$work/cli.txt"
if cmp -s "$work/embed.txt" "$work/cli.txt"; then
    pass "embed's output is identical to \`cellkit render $SEED\`"
else
    fail "embed's output differs from \`cellkit render $SEED\`:"
    diff "$work/cli.txt" "$work/embed.txt" || true
fi

mkdir -m 755 "$work/empty"
for dir in "$work/empty" "$work/missing"; do
    echo "== embed $SEED ${dir/#$work/\$TMP} (no plugins there)"
    status=0
    "$EMBED" "$SEED" "$dir" > "$work/wrong.txt" 2> "$work/wrong.err" || status=$?
    if [[ $status -eq 1 ]]; then pass "embed exits 1"; else fail "embed exits $status, not 1"; fi
    check_contains "$work/wrong.err" "embed: $SEED:11:11: no usable plugin provides cell identifier 'Foobar'" "embed's error"
    searched="Searched: $dir."
    [[ $dir == "$work/missing" ]] && searched="Searched: $dir (no such folder)."
    check_contains "$work/wrong.err" "$searched" "embed's error"
    if [[ -s $work/wrong.txt ]]; then fail "embed wrote to standard output on failure"; else pass "embed wrote nothing to standard output"; fi
done

# A plugin that crashes in a hook (built by cc), beside FoobarCells: isolated, embed draws
# the whole table with the Crashy row as a placeholder, prints the line naming the plugin
# and exits 3; with --no-isolation, CrashReporter prints the same line and the process
# dies by SIGSEGV (status 139).
mkdir -m 755 "$work/crashy"
cc -shared -fPIC -I Sources/CCellKit/include Examples/Embedding/Crashy/crashy.c -o "$work/crashy/libcrashy.so"
cp .build/debug/libFoobarCells.so "$work/crashy/"
CRASHY=Examples/Embedding/Crashy/crashy.yaml
CRASH_LINE="libcrashy.so: customizeCellForCrashy crashed (SIGSEGV) at row 1.2 (indexPath [0, 1])"
echo "== embed $CRASHY \$TMP/crashy (libcrashy.so crashes)"
status=0
"$EMBED" "$CRASHY" "$work/crashy" > "$work/crashy.txt" 2> "$work/crashy.err" || status=$?
if [[ $status -eq 3 ]]; then pass "embed exits 3"; else fail "embed exits $status, not 3: $(cat "$work/crashy.err")"; fi
check_contains "$work/crashy.err" "embed: $CRASH_LINE" "embed's standard error"
for text in "Row: 0" "⚠ libcrashy.so faulted: this Crashy row is not drawn" "Row: 2"; do
    check_contains "$work/crashy.txt" "$text" "embed's table"
done
if tail -n 1 "$work/crashy.txt" | grep -qxE -- '─+'; then
    pass "embed's table ends with its section's bottom edge"
else
    fail "embed's table does not end with its section's bottom edge: $(tail -n 1 "$work/crashy.txt")"
fi
echo "== embed --no-isolation $CRASHY \$TMP/crashy"
status=0
SWIFT_BACKTRACE=enable=no "$EMBED" --no-isolation "$CRASHY" "$work/crashy" > /dev/null 2> "$work/crashy-in.err" || status=$?
if [[ $status -eq 139 ]]; then pass "embed --no-isolation dies by SIGSEGV (139)"; else fail "embed --no-isolation exits $status, not 139"; fi
check_contains "$work/crashy-in.err" "$CRASH_LINE" "embed --no-isolation's standard error"

echo
if [[ $failures -eq 0 ]]; then
    echo "All checks passed."
else
    echo "$failures check(s) failed."
    exit 1
fi
