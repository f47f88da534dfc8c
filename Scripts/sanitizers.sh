#!/usr/bin/env bash
# CellKit under the sanitizers, from the repository root (or anywhere: it cds there).
#
#   1. AddressSanitizer + LeakSanitizer: the test suite (by default the subset below, see
#      ASAN_TESTS), `swift test --sanitize=address` in .build-asan. The tests build plugins
#      with cc and swiftc while they run and dlopen them into the ASan process.
#      Leaks of Foundation, the Swift runtime and the test runner are suppressed
#      in Scripts/lsan.supp (each entry says why); any other leak fails.
#   2. ThreadSanitizer: cellkit-threadcheck (one CellRegistry, several threads
#      with their own CellQueue, lazy plugin loading raced on purpose), built with
#      `--sanitize=thread` in .build-tsan with only the products it needs. Any
#      report is fatal. First a canary run that must be reported, so a check that
#      silently lost its instrumentation cannot pass.
#
# Environment: ASAN_SCRATCH / TSAN_SCRATCH (scratch paths), SANITIZERS=asan|tsan|all,
# ASAN_TESTS=subset|all (which tests run under ASan; default subset), BUILD_ONLY=1 (build, run
# nothing: .ci/run builds ahead in the background while the tests run).
# Called by .ci/run; CONTRIBUTING.md's "Sanitizers" section explains the choices.
# -h/--help: the comment above, and nothing run.
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "$0")/.."

ASAN_SCRATCH=${ASAN_SCRATCH:-.build-asan}
TSAN_SCRATCH=${TSAN_SCRATCH:-.build-tsan}
SANITIZERS=${SANITIZERS:-all}
ASAN_TESTS=${ASAN_TESTS:-subset}
ROOT=$PWD
START=$SECONDS

step() { printf '\n==> [%4ds] %s\n' "$((SECONDS - START))" "$*"; }
die() { printf '\nsanitizers.sh: FAILED: %s\n' "$*" >&2; exit 1; }

# The toolchain ships its own sanitizer runtimes and clang: no libclang-rt package is needed.
SWIFTC=$(readlink -f "$(command -v swiftc)")
TOOLCHAIN_BIN=$(dirname "$SWIFTC")
RUNTIMES=$TOOLCHAIN_BIN/../lib/swift/clang/lib/linux
for rt in asan tsan; do
    [ -e "$RUNTIMES/libclang_rt.$rt-x86_64.a" ] || [ -e "$RUNTIMES/libclang_rt.$rt-$(uname -m).a" ] \
        || die "the Swift toolchain has no $rt runtime in $RUNTIMES"
done

# ---------------------------------------------------------------- ASan + LSan
run_asan() {
    step "AddressSanitizer: building the package and its tests (scratch: $ASAN_SCRATCH)"
    # lld: gold warns about every local symbol of the static ASan runtime it is told to export.
    local flags=(--sanitize=address --scratch-path "$ASAN_SCRATCH" -Xswiftc -use-ld=lld)
    swift build --build-tests "${flags[@]}"
    [ "${BUILD_ONLY:-}" != 1 ] || return 0

    step "AddressSanitizer: swift test (leak check at exit; suppressions: Scripts/lsan.supp)"
    # halt_on_error: the first error ends the process, so it cannot pass as a test failure.
    # print_suppressions: each suppressed leak is listed after the run, for review.
    # handle_segv=0 and friends: crash signals keep their default action, so the tests that
    # crash a plugin on purpose (isolation, check) see the signal, not ASan's exit(1).
    # Skipped here: crashReporter overflows the stack of the ASan-built host itself (with
    # --no-isolation), which ASan ends with exit 1 rather than SIGSEGV; the plain run covers it.
    # Also skipped: forkInRender and forkInCheck, whose hook's first refused call is fork():
    # ASan's fork interceptor holds its locks while the call waits for the sandbox's answer, and
    # that wait sometimes never ends under ASan (not seen without it; the plain run covers them).
    # Which tests: the whole suite under ASan took 500-550 s on the shared 2-core machine (the
    # plain run 150 s), the longest step of CI. By default (ASAN_TESTS=subset) it runs the tests
    # of the code that handles raw memory in this process or in an instrumented cellkit it starts:
    # CellKitModelTests and CellKitTextTests (bytes scanned eight at a time, UTF-8 through pointers,
    # widths), CellKitDiscoveryTests (ELF bytes, the registry cache's records), CellKitRuntimeTests
    # (the C ABI, libffi calls, plugins' hooks, the progress record), CellKitSupervisionTests and
    # CellKitCheckTests (worker frames, isolation, the sandbox), CellKitRenderingTests (canvas,
    # sinks, every format), and the command's tests that run cellkit on plugins and documents
    # (new, sdk, completion, --output, --verbose, list, inspect, render, derived output); but not
    #   - the rest of CellKitCommandTests: argument parsing (its 10,000-list comparison with
    #     ArgumentParser alone ran 547 s under ASan, safe Swift on both sides) and `cellkit browse`
    #     driven in tmux, whose time goes to waiting for the screen;
    #   - CellKitDocumentsTests: the readers of table documents, JSON Lines and CSV, which
    #     Scripts/fuzz.sh runs under ASan right after this (its document, jsonl and csv targets);
    #     its limits' time bounds (10 s) also failed under ASan at a load of 10;
    #   - CellKitBrowseTests, CellKitTerminalTests, CellKitBenchmarkTests: browse's state and search,
    #     key decoding and the benchmark's arguments, safe Swift over Swift values;
    #   - HTMLBrowserTests: Chromium's layout of the HTML (HTMLFormatTests cover CellKit's writer).
    # ASAN_TESTS=all runs the whole suite (before a release, or after a change to those targets).
    local selection=()
    if [ "$ASAN_TESTS" = subset ]; then
        local target commands
        for target in Model Text Discovery Runtime Supervision Check Rendering; do
            selection+=(--filter "^CellKit${target}Tests\.")
        done
        commands='NewProjectTests|SDKInstallTests|CompletionTests|OutputCommandTests|VerboseTests|CommandTests'
        commands+='|RenderCommandTests|DerivedOutputTests'
        selection+=(--filter "^CellKitCommandTests\.($commands)/" --skip 'HTMLBrowserTests')
    elif [ "$ASAN_TESTS" != all ]; then
        die "ASAN_TESTS must be subset or all, not '$ASAN_TESTS'"
    fi
    ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1:print_summary=1:handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:handle_abort=0" \
    LSAN_OPTIONS="suppressions=$ROOT/Scripts/lsan.supp:print_suppressions=1" \
        swift test --skip-build "${flags[@]}" --skip 'crashReporter' --skip 'forkInRender' --skip 'forkInCheck' \
        "${selection[@]}" || die "swift test under AddressSanitizer (see the report above)"
    step "AddressSanitizer: clean"
}

# ---------------------------------------------------------------- TSan
run_tsan() {
    step "ThreadSanitizer: building cellkit-threadcheck and the plugins it loads (scratch: $TSAN_SCRATCH)"
    # The TSan runtime is linked statically into the executable, which exports only the
    # entry points in libclang_rt.tsan-*.a.syms. Swift code compiled with -sanitize=thread
    # also calls __tsan_external_read/write (its access instrumentation), which that list
    # lacks: without these two exports a TSan-built Swift plugin fails to dlopen.
    local flags=(--sanitize=thread --scratch-path "$TSAN_SCRATCH"
                 -Xlinker --export-dynamic-symbol=__tsan_external_read
                 -Xlinker --export-dynamic-symbol=__tsan_external_write)
    local product
    for product in cellkit-threadcheck FoobarCells ContactsCells DrawnCells; do
        swift build --product "$product" "${flags[@]}"
    done
    local bin
    bin=$(swift build --show-bin-path "${flags[@]}")
    # BenchmarkCells is no package product (it would sit beside every user's cellkit): built here,
    # instrumented as SwiftPM instruments a C target.
    "$TOOLCHAIN_BIN/clang" -shared -fPIC -O1 -g -fsanitize=thread -I "$ROOT/Sources/CCellKit/include" \
        "$ROOT/Plugins/BenchmarkCells/BenchmarkCells.c" -o "$bin/libBenchmarkCells.so"
    for file in "$bin/cellkit-threadcheck" "$bin/libFoobarCells.so" "$bin/libBenchmarkCells.so" \
                "$bin/libContactsCells.so"; do
        # grep without -q reads all of nm's output: with pipefail an early exit would fail the pipe.
        nm "$file" 2>/dev/null | grep '__tsan_func_entry' >/dev/null || die "$file is not instrumented by ThreadSanitizer"
    done

    step "ThreadSanitizer: the Mutex shim (Scripts/tsan-mutex-shim.c explains why)"
    local sync=$TOOLCHAIN_BIN/../lib/swift/linux/libswiftSynchronization.so
    for symbol in '$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF' \
                  '$s15Synchronization12_MutexHandleV11_unlockSlowyyF' \
                  '$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF'; do
        nm -D "$sync" | grep -F " T $symbol" >/dev/null \
            || die "$sync has no $symbol: this toolchain's Mutex changed; update Scripts/tsan-mutex-shim.c"
    done
    local clang=$TOOLCHAIN_BIN/clang
    [ -x "$clang" ] || clang=clang
    "$clang" -shared -fPIC -O2 -Wall -Wextra -Werror "$ROOT/Scripts/tsan-mutex-shim.c" -o "$bin/tsan-mutex-shim.so" -ldl
    [ "${BUILD_ONLY:-}" != 1 ] || return 0

    # Any report is fatal, with an exit status of its own (66) that no check of ours uses.
    export TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1"
    local check=(env LD_PRELOAD="$bin/tsan-mutex-shim.so" "$bin/cellkit-threadcheck" --plugin-dir "$bin")

    step "ThreadSanitizer: canary (threads write one cell's label on purpose; TSan must report it)"
    local status=0
    "${check[@]}" --canary --rows 100 >"$bin/canary.log" 2>&1 || status=$?
    if [ "$status" != 66 ] || ! grep -q 'WARNING: ThreadSanitizer: \(data race\|Swift access race\)' "$bin/canary.log"; then
        cat "$bin/canary.log" >&2
        die "the canary race was not reported (exit $status): ThreadSanitizer is not watching"
    fi
    echo "reported, as it must be (exit 66)"

    step "ThreadSanitizer: C plugins (FoobarCells, BenchmarkCells), 4 threads, 3 runs"
    for run in 1 2 3; do
        "${check[@]}" --threads 4 --rows 20000 || die "cellkit-threadcheck run $run (exit $?; 66 = a ThreadSanitizer report above)"
    done

    step "ThreadSanitizer: with the Swift plugins (ContactsCells, DrawnCells) too"
    "${check[@]}" --threads 4 --rows 20000 --also OtherCell --also Partner --also DrawnCell \
        || die "cellkit-threadcheck with Swift plugins (exit $?; 66 = a ThreadSanitizer report above)"
    step "ThreadSanitizer: clean"
}

case "$SANITIZERS" in
    asan) run_asan ;;
    tsan) run_tsan ;;
    all) run_asan; run_tsan ;;
    *) die "SANITIZERS must be asan, tsan or all, not '$SANITIZERS'" ;;
esac
[ "${BUILD_ONLY:-}" = 1 ] && step "sanitizers: built in $((SECONDS - START)) s" && exit 0
step "sanitizers: all clean in $((SECONDS - START)) s"
