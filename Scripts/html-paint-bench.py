#!/usr/bin/env python3
"""How soon a big HTML page paints: cellkit's page of N package-like rows beside the same page
with its lists hidden (what parsing alone costs), side by side in one headless Chromium,
round after round; medians of the first frame after load, as the browser measures it.

    python3 Scripts/html-paint-bench.py [--cellkit PATH] [--rows N] [--rounds K] [--also OTHER_CELLKIT]

A third page is the same with its blocks always laid out (`content-visibility: visible`): what
the blocks save. --also renders the table with another cellkit (a baseline build) and times its
page too.
BENCHMARKS.md, "HTML: a big page in the browser", reports it; the target (issue 41) is the
page within 1.5x of its lists hidden.
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FRAME = """new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() =>
  done(JSON.stringify({frame: performance.now()})))))"""


def table(folder, rows):
    """A subtitle table of `rows` rows from JSON Lines: a package name and a wrapped description."""
    words = "libfoo python3 utils server client daemon tools data common runtime".split()
    rng = random.Random(rows)
    with open(os.path.join(folder, "rows.jsonl"), "w", encoding="utf-8") as f:
        for k in range(rows):
            detail = " ".join(rng.choice(words) for _ in range(rng.randint(3, 12)))
            f.write(json.dumps({"text": f"{rng.choice(words)}-package-{k}", "detail": detail}) + "\n")
    path = os.path.join(folder, "t.yaml")
    with open(path, "w", encoding="utf-8") as f:
        f.write("lang: en\ntitle: Packages\nsections:\n  - header: Packages\n    cell: Subtitle\n"
                "    style: subtitle\n    rowsFrom: rows.jsonl\n")
    return path


def render(cellkit, document, out):
    with open(out, "wb") as f:
        subprocess.run([cellkit, "render", document, "--format", "html"], stdout=f, check=True)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cellkit", default=os.path.join(HERE, "..", ".build", "release", "cellkit"))
    parser.add_argument("--also")
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="cellkit-paint-")
    document = table(folder, args.rows)
    pages = {"page": render(args.cellkit, document, os.path.join(folder, "page.html"))}
    with open(pages["page"], encoding="utf-8") as f:
        html = f.read()
    pages["lists hidden"] = os.path.join(folder, "hidden.html")
    with open(pages["lists hidden"], "w", encoding="utf-8") as f:
        f.write(html.replace("</style>", "main ul,main .ul{display:none}\n</style>", 1))
    pages["blocks laid out"] = os.path.join(folder, "visible.html")
    with open(pages["blocks laid out"], "w", encoding="utf-8") as f:
        f.write(html.replace("</style>", ".bk{content-visibility:visible!important}\n</style>", 1))
    if args.also:
        pages["other build's page"] = render(args.also, document, os.path.join(folder, "other.html"))
    script = os.path.join(folder, "frame.js")
    with open(script, "w", encoding="utf-8") as f:
        f.write(FRAME)
    names = list(pages) * args.rounds
    jobs = [{"page": pages[name], "width": 800, "script": script} for name in names]
    run = subprocess.run([sys.executable, os.path.join(HERE, "html-browser.py")], input=json.dumps(jobs),
                         capture_output=True, text=True, check=True)
    frames = {}
    for name, report in zip(names, json.loads(run.stdout)):
        frames.setdefault(name, []).append(report["frame"])
    hidden = statistics.median(frames["lists hidden"])
    print(f"{args.rows:,} rows, {os.path.getsize(pages['page']) / 1e6:.1f} MB; first frame after load, "
          f"median of {args.rounds} (range):")
    for name, times in frames.items():
        median = statistics.median(times)
        print(f"  {name:20} {median:8.0f} ms  ({min(times):.0f}–{max(times):.0f})  {median / hidden:.2f}x hidden")


if __name__ == "__main__":
    main()
