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
traces=${CELLKIT_TRACES:-$(mktemp -d)}
[[ -n ${CELLKIT_TRACES:-} ]] || trap 'rm -rf "$traces"' EXIT  # kept when named, to read
n=0
trace() { n=$((n + 1)); strace -f -qq -o "$traces/$n.txt" "$@" >/dev/null 2>&1 || true; }
for table in Manifests/Tables/*.yaml; do
    for format in text ansi html json jsonl; do trace "$cellkit" render "$table" --format "$format"; done
done
for plugin in "$(dirname "$cellkit")"/lib*Cells.so; do trace "$cellkit" check "$plugin"; done
CELLKIT_WORKER_EXEC=1 trace "$cellkit" render Manifests/Tables/showcase.yaml
# A C++ plugin (libstdc++: exceptions, iostreams, locale) and a Swift one (the Swift runtime and
# Foundation loaded by a plugin), rendered and checked.
c++ -std=c++17 -shared -fPIC -I Sources/CCellKit/include Examples/CppPlugin/TallyCells.cpp -o "$traces/libTallyCells.so"
trace "$cellkit" render Examples/CppPlugin/tally.yaml --plugin-path "$traces"
trace "$cellkit" check "$traces/libTallyCells.so"
# The ordinary work of a plugin (threads, sleeps, random numbers, its own files, Dispatch's pool).
workload=Scripts/sandbox-workload
c++ -std=c++17 -shared -fPIC -pthread -I Sources/CCellKit/include "$workload/WorkloadCells.cpp" -o "$traces/libWorkloadCells.so"
cp "$workload/workload.txt" "$traces/"
trace "$cellkit" render "$workload/workload.yaml" --plugin-path "$traces"
trace "$cellkit" check "$traces/libWorkloadCells.so"
swift_plugins=${CELLKIT_SWIFT_PLUGIN_DIR:-Examples/SwiftPlugin/.build/debug}
if [[ -e $swift_plugins/libGreetingCells.so ]]; then
    trace "$cellkit" render Examples/SwiftPlugin/greeting.yaml --plugin-path "$swift_plugins"
    trace "$cellkit" check "$swift_plugins/libGreetingCells.so"
else
    echo "note: $swift_plugins/libGreetingCells.so is missing (swift build --package-path Examples/SwiftPlugin); the Swift plugin is not measured" >&2
fi
# browse in a terminal (tmux): paging, a search, a resize, quit.
if command -v tmux >/dev/null; then
    session=cellkit-calls-$$
    tmux new-session -d -s "$session" -x 100 -y 30 \
        "strace -f -qq -o '$traces/browse.txt' '$cellkit' browse Manifests/Tables/showcase.yaml"
    for keys in j j ' ' G g /Foo Enter n; do sleep 0.3; tmux send-keys -t "$session" "$keys"; done
    sleep 0.3; tmux resize-window -t "$session" -x 70 -y 20; sleep 0.3
    tmux send-keys -t "$session" q; sleep 0.5
    tmux kill-session -t "$session" 2>/dev/null || true
fi
python3 - "$traces" <<'PY'
import collections, glob, re, sys
count = collections.Counter()
for path in glob.glob(sys.argv[1] + "/*.txt"):
    active = set()  # the worker once its filter is loaded, and the threads it starts after
    pending = {}  # a thread's call strace left unfinished, until it resumes
    for line in open(path, errors="replace"):
        resumed = re.match(r"(\d+)\s+<\.\.\. (\w+) resumed>(.*)", line)
        if resumed:  # a call strace split in two: the new thread's id is on this half
            pid, name = int(resumed.group(1)), resumed.group(2)
            call = pending.pop(pid, "") + resumed.group(3)
            ret = re.search(r"= (\d+)$", call.rstrip())
            if pid in active and name in ("clone", "clone3") and "CLONE_THREAD" in call and ret:
                active.add(int(ret.group(1)))
            continue
        m = re.match(r"(\d+)\s+(\w+)\((.*)", line)
        if not m:
            continue
        if "<unfinished ...>" in line:
            pending[int(m.group(1))] = m.group(3)
        pid, name, rest = int(m.group(1)), m.group(2), m.group(3)
        if name == "seccomp" and "SECCOMP_FILTER_FLAG_NEW_LISTENER" in rest and re.search(r"= \d+$", rest.rstrip()):
            active.add(pid)
            continue
        if pid not in active:
            continue
        count[name] += 1
        args = [a.strip() for a in rest.split(",")]
        if name in ("ioctl", "fcntl") and len(args) > 1:  # the request, which the filter allows by value
            count[f"{name} {args[1].split('|')[0].rstrip(')')}"] += 1
        elif name in ("prctl", "madvise", "futex", "mmap", "mprotect") and args:
            which = 0 if name == "prctl" else {"madvise": 2, "futex": 1, "mmap": 2, "mprotect": 2}[name]
            if len(args) > which:
                count[f"{name} {args[which].rstrip(')')}"] += 1
        if name in ("clone", "clone3") and "CLONE_THREAD" in rest:
            ret = re.search(r"= (\d+)$", rest.rstrip())
            if ret:
                active.add(int(ret.group(1)))
for name, calls in sorted(count.items()):  # "NAME COUNT", then "NAME ARGUMENT COUNT" lines
    print(f"{name} {calls}")
PY
