#!/usr/bin/env bash
# libFuzzer over CellKit's readers of untrusted files, from the repository root (or
# anywhere: it cds there). Fuzz/README.md explains the targets, the build and the corpora.
#
#   Scripts/fuzz.sh [SECONDS] [TARGET...]     default: 30 s each for elf jsonl csv document
#
#   1. Builds Fuzz/Sources (target CellKitFuzz) in release with
#      `-sanitize=fuzzer,address` and `-DCELLKIT_FUZZ` (libFuzzer's driver takes `main`),
#      in its own scratch path (.build-fuzz), with only the modules it needs.
#   2. Replays every saved crash (`Fuzz/corpus/TARGET/crash-*`): each must now run clean.
#   3. Fuzzes each target for SECONDS from its seeds (`Fuzz/corpus/TARGET`, crash files
#      left out) plus what earlier runs found (`.build-fuzz/corpus/TARGET`, kept between
#      runs, never committed), with bounded input size, memory and time per input.
#
# Exits non-zero on the first crash, sanitizer report, leak, timeout or out-of-memory,
# naming the input that caused it (`.build-fuzz/artifacts/TARGET/crash-…`): copy it to
# `Fuzz/corpus/TARGET/crash-<short-name>` to keep it as a regression input.
#
# Environment: FUZZ_SCRATCH (scratch path), FUZZ_JOBS (parallel runs per target; default 1),
# FUZZ_CONFIGURATION (release or debug).
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_EACH=${1:-30}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(elf jsonl csv document frames)
SCRATCH=${FUZZ_SCRATCH:-.build-fuzz}
CONFIGURATION=${FUZZ_CONFIGURATION:-release}
JOBS=${FUZZ_JOBS:-1}
ROOT=$PWD
START=$SECONDS

step() { printf '\n==> [%4ds] %s\n' "$((SECONDS - START))" "$*"; }
die() { printf '\nfuzz.sh: FAILED: %s\n' "$*" >&2; exit 1; }

[[ $SECONDS_EACH =~ ^[0-9]+$ ]] || die "SECONDS must be a whole number, not '$SECONDS_EACH'"

# Per target: the largest input (bytes). ELF seeds are 2-3 KB plugins; documents hold up to five files.
max_len() {
    case $1 in
        elf) echo 16384 ;;
        jsonl | csv) echo 4096 ;;
        document) echo 8192 ;;
        frames) echo 4096 ;;
        *) die "unknown target '$1' (elf, jsonl, csv, document, frames)" ;;
    esac
}
for target in "${TARGETS[@]}"; do max_len "$target" >/dev/null; done

# ---------------------------------------------------------------- build
step "building the fuzzers (scratch: $SCRATCH, $CONFIGURATION)"
# -sanitize=fuzzer,address in one flag: SwiftPM's --sanitize takes one sanitizer per flag and
# the compiler keeps only the last -sanitize=, so `--sanitize=fuzzer --sanitize=address`
# builds without coverage. -Xcc instruments the C underneath too (Yams' libyaml parser).
# -DCELLKIT_FUZZ selects Entry.swift's libFuzzer main. lld: gold warns about every local
# symbol of the static ASan runtime it is told to export.
flags=(-c "$CONFIGURATION" --scratch-path "$SCRATCH"
       -Xswiftc -sanitize=fuzzer,address -Xswiftc -DCELLKIT_FUZZ -Xswiftc -use-ld=lld
       -Xcc -fsanitize=fuzzer-no-link,address)
swift build --product CellKitFuzz "${flags[@]}"
FUZZER=$(swift build --show-bin-path "${flags[@]}")/CellKitFuzz
# grep without -q reads all its input: with pipefail an early exit would fail the pipe.
readelf -S "$FUZZER" | grep '__sancov_cntrs' >/dev/null || die "$FUZZER has no coverage counters (-sanitize=fuzzer lost)"
nm "$FUZZER" | grep ' T LLVMFuzzerRunDriver' >/dev/null || die "$FUZZER has no libFuzzer driver"

# The Swift runtime's own backtracer would run (slowly) after ASan's report of a trap.
export SWIFT_BACKTRACE=enable=no
# Leaks of the Swift runtime and Foundation that are not ours: the ASan run's list and
# Fuzz/lsan.supp (each entry says why). Any other leak fails.
cat Scripts/lsan.supp Fuzz/lsan.supp >"$SCRATCH/lsan.supp"
export LSAN_OPTIONS="suppressions=$ROOT/$SCRATCH/lsan.supp"
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:print_summary=1"

# ---------------------------------------------------------------- saved crashes
step "replaying saved crashes (Fuzz/corpus/*/crash-*)"
replayed=0
for target in "${TARGETS[@]}"; do
    for file in Fuzz/corpus/"$target"/crash-*; do
        [ -e "$file" ] || continue
        replayed=$((replayed + 1))
        "$FUZZER" "$target" -runs=1 "$file" >"$SCRATCH/replay.log" 2>&1 \
            || { cat "$SCRATCH/replay.log" >&2; die "$target: the saved crash $file crashes again"; }
    done
done
echo "$replayed saved crash input(s) replayed clean"

# ---------------------------------------------------------------- fuzz
failed=()
for target in "${TARGETS[@]}"; do
    step "fuzzing $target for ${SECONDS_EACH}s (max_len $(max_len "$target"))"
    corpus=$SCRATCH/corpus/$target seeds=$SCRATCH/seeds/$target artifacts=$SCRATCH/artifacts/$target
    mkdir -p "$corpus" "$artifacts"
    rm -rf "$seeds" && mkdir -p "$seeds"
    find "Fuzz/corpus/$target" -maxdepth 1 -type f ! -name 'crash-*' -exec cp {} "$seeds/" \;
    log=$SCRATCH/$target.log
    status=0
    # New inputs go to the first folder ($corpus); the seeds are read only.
    # -timeout: seconds per input; -rss_limit_mb / -malloc_limit_mb: memory; -use_value_profile:
    # guidance from compared values (magic numbers, offsets).
    # -jobs=N (even 1) switches libFuzzer to jobs mode with fuzz-N.log files: only when asked.
    parallel=()
    [ "$JOBS" -le 1 ] || parallel=(-jobs="$JOBS" -workers="$JOBS")
    "$FUZZER" "$target" "$corpus" "$seeds" \
        -max_total_time="$SECONDS_EACH" -max_len="$(max_len "$target")" -timeout=10 \
        -rss_limit_mb=2048 -malloc_limit_mb=1024 -use_value_profile=1 \
        -artifact_prefix="$artifacts/" -print_final_stats=1 "${parallel[@]}" \
        >"$log" 2>&1 || status=$?
    if [ "$JOBS" -gt 1 ]; then cat fuzz-*.log >>"$log" 2>/dev/null || true; rm -f fuzz-*.log; fi
    runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{s += $2} END {print s + 0}')
    speed=$(grep -E '^stat::average_exec_per_sec' "$log" | awk '{s += $2} END {print s + 0}')
    if [ "$status" != 0 ]; then
        tail -n 60 "$log" >&2
        artifact=$(grep -oE 'Test unit written to [^ ]+' "$log" | head -1 | sed 's/Test unit written to //')
        echo "$target: FAILED (exit $status) after $runs runs; input: ${artifact:-see $log}" >&2
        failed+=("$target: ${artifact:-$log}")
    else
        echo "$target: $runs runs, $speed exec/s, no crash (log: $log)"
    fi
done

[ ${#failed[@]} -eq 0 ] || die "$(printf '\n  %s' "${failed[@]}")"
step "fuzz: all targets clean in $((SECONDS - START)) s"
