#!/usr/bin/env bash
# libFuzzer over CellKit's readers of untrusted files, from the repository root (or
# anywhere: it cds there). Fuzz/README.md explains the targets, the build and the corpora.
#
#   Scripts/fuzz.sh [SECONDS] [TARGET...]     default: 30 s each for elf jsonl csv document frames
#
#   1. Builds Fuzz/Sources (target CellKitFuzz) in release with
#      `-sanitize=fuzzer,address` and `-DCELLKIT_FUZZ` (libFuzzer's driver takes `main`),
#      in its own scratch path (.build-fuzz), with only the modules it needs.
#   2. Per target, two targets at a time (FUZZ_PARALLEL): replays its saved crashes
#      (`Fuzz/corpus/TARGET/crash-*`: each must now run clean), then fuzzes it for SECONDS
#      from its seeds (`Fuzz/corpus/TARGET`, crash files left out) plus what earlier runs
#      found (`.build-fuzz/corpus/TARGET`, kept between runs, never committed), with bounded
#      input size, memory and time per input. Each target's output is kept
#      (`.build-fuzz/TARGET.out`) and printed in the targets' order.
#
# Exits non-zero if any target met a crash, sanitizer report, leak, timeout or out-of-memory
# (a saved crash that crashes again skips that target's run), naming the input that caused it
# (`.build-fuzz/artifacts/TARGET/crash-…`): copy it to `Fuzz/corpus/TARGET/crash-<short-name>`
# to keep it as a regression input.
#
# Environment: FUZZ_SCRATCH (scratch path), FUZZ_PARALLEL (targets at once; default 2, one
# per core of the 2-core machines), FUZZ_JOBS (parallel runs per target; default 1),
# FUZZ_CONFIGURATION (release or debug), BUILD_ONLY=1 (build the fuzzer, run nothing: .ci/run
# builds ahead in the background while the tests run).
# -h/--help: the comment above, and nothing run.
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_EACH=${1:-30}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(elf jsonl csv document frames)
SCRATCH=${FUZZ_SCRATCH:-.build-fuzz}
CONFIGURATION=${FUZZ_CONFIGURATION:-release}
JOBS=${FUZZ_JOBS:-1}
PARALLEL=${FUZZ_PARALLEL:-2}
ROOT=$PWD
START=$SECONDS

step() { printf '\n==> [%4ds] %s\n' "$((SECONDS - START))" "$*"; }
die() { printf '\nfuzz.sh: FAILED: %s\n' "$*" >&2; exit 1; }

[[ $SECONDS_EACH =~ ^[0-9]+$ ]] || die "SECONDS must be a whole number, not '$SECONDS_EACH'"
[[ $PARALLEL =~ ^[1-9][0-9]*$ ]] || die "FUZZ_PARALLEL must be a whole number from 1, not '$PARALLEL'"
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || die "FUZZ_JOBS must be a whole number from 1, not '$JOBS'"

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
[ "${BUILD_ONLY:-}" != 1 ] || exit 0

# The Swift runtime's own backtracer would run (slowly) after ASan's report of a trap.
export SWIFT_BACKTRACE=enable=no
# Leaks of the Swift runtime and Foundation that are not ours: the ASan run's list and
# Fuzz/lsan.supp (each entry says why). Any other leak fails.
cat Scripts/lsan.supp Fuzz/lsan.supp >"$SCRATCH/lsan.supp"
# The scratch path as an absolute path: each target's run starts in a folder of its own.
case $SCRATCH in /*) SCRATCH_DIR=$SCRATCH ;; *) SCRATCH_DIR=$ROOT/$SCRATCH ;; esac
export LSAN_OPTIONS="suppressions=$SCRATCH_DIR/lsan.supp"
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:print_summary=1"

# ---------------------------------------------------------------- one target
# fuzz_target TARGET: replays every saved crash of TARGET (each must run clean), then fuzzes it
# for SECONDS_EACH. Prints what it did; exits non-zero on a crash, naming the input. Runs in a
# folder of its own: libFuzzer's jobs mode (FUZZ_JOBS > 1) writes fuzz-N.log files there.
fuzz_target() {
    local target=$1 file replayed=0 status=0 runs speed artifact
    local work=$SCRATCH_DIR/work/$target corpus=$SCRATCH_DIR/corpus/$target
    local seeds=$SCRATCH_DIR/seeds/$target artifacts=$SCRATCH_DIR/artifacts/$target
    local log=$SCRATCH_DIR/$target.log
    rm -rf "$work" "$seeds" && mkdir -p "$work" "$seeds" "$corpus" "$artifacts"

    step "$target: replaying saved crashes (Fuzz/corpus/$target/crash-*)"
    for file in Fuzz/corpus/"$target"/crash-*; do
        [ -e "$file" ] || continue
        replayed=$((replayed + 1))
        if ! "$FUZZER" "$target" -runs=1 "$file" >"$work/replay.log" 2>&1; then
            cat "$work/replay.log"
            echo "$target: FAILED: the saved crash $file crashes again"
            return 1
        fi
    done
    echo "$target: $replayed saved crash input(s) replayed clean"

    step "$target: fuzzing for ${SECONDS_EACH}s (max_len $(max_len "$target"))"
    find "Fuzz/corpus/$target" -maxdepth 1 -type f ! -name 'crash-*' -exec cp {} "$seeds/" \;
    # New inputs go to the first folder ($corpus); the seeds are read only.
    # -timeout: seconds per input; -rss_limit_mb / -malloc_limit_mb: memory; -use_value_profile:
    # guidance from compared values (magic numbers, offsets).
    # -jobs=N (even 1) switches libFuzzer to jobs mode with fuzz-N.log files: only when asked.
    local parallel=()
    [ "$JOBS" -le 1 ] || parallel=(-jobs="$JOBS" -workers="$JOBS")
    (cd "$work" && "$FUZZER" "$target" "$corpus" "$seeds" \
        -max_total_time="$SECONDS_EACH" -max_len="$(max_len "$target")" -timeout=10 \
        -rss_limit_mb=2048 -malloc_limit_mb=1024 -use_value_profile=1 \
        -artifact_prefix="$artifacts/" -print_final_stats=1 "${parallel[@]}") \
        >"$log" 2>&1 || status=$?
    if [ "$JOBS" -gt 1 ]; then cat "$work"/fuzz-*.log >>"$log" 2>/dev/null || true; fi
    runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{s += $2} END {print s + 0}')
    speed=$(grep -E '^stat::average_exec_per_sec' "$log" | awk '{s += $2} END {print s + 0}')
    if [ "$status" != 0 ]; then
        tail -n 60 "$log"
        artifact=$(grep -oE 'Test unit written to [^ ]+' "$log" | head -1 | sed 's/Test unit written to //')
        echo "$target: FAILED (exit $status) after $runs runs; input: ${artifact:-see $log}"
        return 1
    fi
    echo "$target: $runs runs, $speed exec/s, no crash (log: $SCRATCH/$target.log)"
}

# ---------------------------------------------------------------- every target, PARALLEL at once
# Each target's replay and run is one background job, its output kept in
# $SCRATCH/TARGET.out and its exit status in $SCRATCH/TARGET.status; at most PARALLEL run at
# once (default 2: one per core of the 2-core machines, so 5 targets take 3 rounds of
# SECONDS, not 5). The outputs are printed in the targets' order, each when it and every
# target before it are done; the script fails if any target failed.
step "fuzzing ${#TARGETS[@]} target(s), $PARALLEL at a time, ${SECONDS_EACH}s each"
running=0 pids=()
for target in "${TARGETS[@]}"; do
    rm -f "$SCRATCH_DIR/$target.out" "$SCRATCH_DIR/$target.status"
    if [ "$running" -ge "$PARALLEL" ]; then
        wait -n || true  # a job's own status is in its .status file
        running=$((running - 1))
    fi
    (
        status=0
        fuzz_target "$target" >"$SCRATCH_DIR/$target.out" 2>&1 || status=$?
        echo "$status" >"$SCRATCH_DIR/$target.status"
    ) &
    pids+=($!)
    running=$((running + 1))
done

failed=()
for i in "${!TARGETS[@]}"; do
    target=${TARGETS[$i]} out=$SCRATCH_DIR/${TARGETS[$i]}.out status_file=$SCRATCH_DIR/${TARGETS[$i]}.status
    # Until its job wrote its status (or ended without one: then it failed).
    while [ ! -s "$status_file" ] && kill -0 "${pids[$i]}" 2>/dev/null; do sleep 1; done
    printf '\n---------------- %s (output kept in %s/%s.out)\n' "$target" "$SCRATCH" "$target"
    cat "$out" 2>/dev/null || true
    [ "$(cat "$status_file" 2>/dev/null)" = 0 ] || failed+=("$target: see $SCRATCH/$target.out")
done
wait || true

[ ${#failed[@]} -eq 0 ] || die "$(printf '\n  %s' "${failed[@]}")"
step "fuzz: all targets clean in $((SECONDS - START)) s"
