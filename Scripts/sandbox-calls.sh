#!/usr/bin/env bash
# The system calls a sandboxed worker makes once its filter is loaded, measured: every bundled
# table rendered in each format, every bundled plugin checked, under `strace -f`; prints each
# call's name and count (the worker and the threads it starts after the filter). The measure
# an allowlist filter (issue 40) is built from; add workloads here as plugins need them.
#
#     swift build && bash Scripts/sandbox-calls.sh [cellkit]
set -euo pipefail
cd "$(dirname "$0")/.."
cellkit=${1:-.build/debug/cellkit}
command -v strace >/dev/null || { echo "error: strace is missing (apt-get install strace)" >&2; exit 1; }
traces=$(mktemp -d)
trap 'rm -rf "$traces"' EXIT
n=0
trace() { n=$((n + 1)); strace -f -qq -o "$traces/$n.txt" "$@" >/dev/null 2>&1 || true; }
for table in Manifests/Tables/*.yaml; do
    for format in text ansi html json jsonl; do trace "$cellkit" render "$table" --format "$format"; done
done
for plugin in "$(dirname "$cellkit")"/lib*Cells.so; do trace "$cellkit" check "$plugin"; done
CELLKIT_WORKER_EXEC=1 trace "$cellkit" render Manifests/Tables/showcase.yaml
python3 - "$traces" <<'PY'
import collections, glob, re, sys
count = collections.Counter()
for path in glob.glob(sys.argv[1] + "/*.txt"):
    active = set()  # the worker once its filter is loaded, and the threads it starts after
    for line in open(path, errors="replace"):
        m = re.match(r"(\d+)\s+(\w+)\((.*)", line)
        if not m:
            continue
        pid, name, rest = int(m.group(1)), m.group(2), m.group(3)
        if name == "seccomp" and "SECCOMP_FILTER_FLAG_NEW_LISTENER" in rest and not rest.rstrip().endswith("= -1"):
            active.add(pid)
            continue
        if pid not in active:
            continue
        count[name] += 1
        if name in ("clone", "clone3") and "CLONE_THREAD" in rest:
            ret = re.search(r"= (\d+)", rest)
            if ret:
                active.add(int(ret.group(1)))
for name, calls in sorted(count.items()):
    print(f"{name} {calls}")
PY
