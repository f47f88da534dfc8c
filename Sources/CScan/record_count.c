/* A data file's rows counted before the first is drawn: the whole records in a buffer, each found
 * with libc's memchr, blank ones (spaces, tabs and CRs only) left out, as RowStream's record by
 * record count finds them. In C because each record read through the stream's general reader cost
 * about twice the instructions of the memchr that finds its end (BENCHMARKS.md, "Measurements
 * behind the code": RowStream.countInC). */
#include "cellkit_scan.h"

#include <string.h>

size_t ck_count_records(const uint8_t *p, size_t n, uint8_t line_end, size_t limit, size_t *records,
                        size_t *rows) {
    size_t at = 0, counted = 0, filled = 0;
    while (counted < limit && at < n) {
        const uint8_t *found = memchr(p + at, line_end, n - at);
        if (found == NULL) break;
        size_t end = (size_t)(found - p), k = at;
        while (k < end && (p[k] == ' ' || p[k] == '\t' || p[k] == '\r')) k++;
        filled += k < end;
        counted++;
        at = end + 1;
    }
    *records = counted, *rows = filled;
    return at;
}
