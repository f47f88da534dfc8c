#!/usr/bin/env bash
# Builds what CI's slow steps run, ahead of them: .ci/run starts this in the background (lowest
# CPU and I/O priority) once the debug build is done, so that these builds use the cores the
# tests leave idle.
#
#   Scripts/prebuild.sh DIR
#
# Builds, one after another, in the order .ci/run needs them: release (Scripts/release-check.sh),
# asan and tsan (Scripts/sanitizers.sh), fuzz (Scripts/fuzz.sh), each by its own script with
# BUILD_ONLY=1, so the flags and scratch paths are the scripts' own. Per build it writes
# DIR/NAME.log, DIR/NAME.time (seconds), then DIR/NAME.done or DIR/NAME.failed. A failure does
# not stop the next build: the step that needs the failed one builds it again and shows why.
# -h/--help: the comment above, and nothing run.
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;; esac
set -uo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: Scripts/prebuild.sh DIR}
mkdir -p "$dir"

# prebuild NAME COMMAND...: runs COMMAND with BUILD_ONLY=1, recording its log, time and ending.
prebuild() {
    local name=$1 began=$SECONDS status=0
    shift
    BUILD_ONLY=1 "$@" >"$dir/$name.log" 2>&1 || status=$?
    echo "$((SECONDS - began))" >"$dir/$name.time"
    if [ "$status" = 0 ]; then touch "$dir/$name.done"; else touch "$dir/$name.failed"; fi
    echo "prebuild $name: exit $status in $((SECONDS - began)) s"
}

prebuild release bash Scripts/release-check.sh
prebuild asan env SANITIZERS=asan bash Scripts/sanitizers.sh
prebuild tsan env SANITIZERS=tsan bash Scripts/sanitizers.sh
prebuild fuzz bash Scripts/fuzz.sh
