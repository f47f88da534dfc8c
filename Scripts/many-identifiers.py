#!/usr/bin/env python3
"""Writes a C plugin with N cell types, to time discovery's near-miss check on many identifiers.

Each cell type T000000, T000001, ... exports one hook, initCellFor<Id>; with --misspelled,
a few misspelled hooks are added, which `cellkit list` reports as near misses. The figures
in BENCHMARKS.md ("Near misses in a plugin with many identifiers") were measured with it:

    python3 Scripts/many-identifiers.py 100000 > /tmp/many/many.c
    cc -shared -fPIC -I Sources/CCellKit/include /tmp/many/many.c -o /tmp/many/libMany.so
    time .build/release/cellkit list --no-cache --plugin-path /tmp/many > /dev/null

Usage:
    python3 Scripts/many-identifiers.py N [--misspelled] > many.c

Standard library only.
"""

import sys


def main(arguments):
    if len(arguments) not in (1, 2) or not arguments[0].isdigit() or arguments[1:] not in ([], ["--misspelled"]):
        print(__doc__, file=sys.stderr if arguments[:1] not in (["-h"], ["--help"]) else sys.stdout)
        return 0 if arguments[:1] in (["-h"], ["--help"]) else 2
    count = int(arguments[0])
    hook = "(ck_cell *c, ck_index_path p) { (void)c; (void)p; }"
    lines = ['#include "cellkit.h"', 'CK_PLUGIN("Many", "1.0.0", "many identifiers");']
    lines += ["CK_EXPORT void initCellForT%06d%s" % (i, hook) for i in range(count)]
    if arguments[1:] == ["--misspelled"] and count > 0:
        for name in ["initCelForT%06d", "customiseCellForT%06d", "heigthForCellForT%06d"]:
            lines.append("CK_EXPORT void %s%s" % (name % (count - 1), hook))
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
