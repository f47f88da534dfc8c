/* TextLayout.lineRanges for printable ASCII, where a byte is a cluster a column wide: a line's break
 * is found by looking back from the column past the width for a space or a hyphen inside a word,
 * as TextLayout.asciiLine does, and the lines are written as the read-ahead stores them. In C
 * because the Swift loop, called once a line with a closure per line written, cost about twice the
 * instructions on a wrapped description (BENCHMARKS.md, "Measurements behind the code":
 * TextLayout.asciiLinesInC). The Swift tests hold it to the display units' own breaking
 * (TextLayoutTests.knownASCIIBreaksAlike) and to TextLayout.line's own ASCII rules, byte for byte
 * (TextLayoutTests.asciiLinesInCAsInSwift). */
#include "cellkit_scan.h"

static inline size_t skip_spaces(const uint8_t *p, size_t n, size_t i) {
    while (i < n && p[i] == ' ') i++;
    return i;
}

/* The end of p[start..<end] without its trailing spaces. */
static inline size_t trimmed(const uint8_t *p, size_t start, size_t end) {
    while (end > start && p[end - 1] == ' ') end--;
    return end;
}

/* One line of a greedy wrap from `start` (TextLayout.asciiLine): where its text ends and where the
 * next line starts. */
static inline void line(const uint8_t *p, size_t n, size_t start, size_t width, int by_word, size_t *end,
                        size_t *next) {
    if (n - start <= width) { /* the rest fits */
        *end = trimmed(p, start, n), *next = n;
        return;
    }
    size_t over = start + width; /* the first column that does not fit */
    if (!by_word) {
        *end = trimmed(p, start, over), *next = over;
        return;
    }
    if (p[over] == ' ') {
        *end = trimmed(p, start, over), *next = skip_spaces(p, n, over + 1);
        return;
    }
    for (size_t k = over; k-- > start;) {
        if (p[k] == ' ') {
            *end = trimmed(p, start, k), *next = skip_spaces(p, n, k + 1);
            return;
        }
        if (p[k] == '-' && k > start && p[k - 1] != ' ') { /* after a hyphen inside a word */
            *end = *next = k + 1;
            return;
        }
    }
    *end = *next = over; /* one word wider than the line: cut */
}

int ck_ascii_lines(const uint8_t *p, size_t n, size_t width, size_t max_lines, int mode, uint32_t *out,
                   size_t *count) {
    size_t lines = 0, start = 0, end, next;
    *count = 0;
    if (width == 0 || max_lines == 0 || n == 0) return 1;
    if (n <= width) { /* one line, as it is */
        out[0] = 0, out[1] = (uint32_t)n, out[2] = (uint32_t)n;
        *count = 1;
        return 1;
    }
    int by_word = mode != CK_ASCII_CHAR_WRAP;
    int truncating =
        mode == CK_ASCII_TRUNCATE_HEAD || mode == CK_ASCII_TRUNCATE_TAIL || mode == CK_ASCII_TRUNCATE_MIDDLE;
    if (max_lines == 1) { /* longer than the line */
        if (truncating) return 0;
        if (mode == CK_ASCII_WORD_WRAP) {
            line(p, n, 0, width, 1, &end, &next);
        } else {
            end = width; /* clip or char wrap: the columns that fit */
        }
        out[0] = 0, out[1] = (uint32_t)end, out[2] = (uint32_t)end;
        *count = 1;
        return 1;
    }
    while (start < n && lines < max_lines) {
        line(p, n, start, width, by_word, &end, &next);
        if (truncating && lines == max_lines - 1 && next < n) {
            *count = lines;
            return 0;
        }
        out[3 * lines] = (uint32_t)start, out[3 * lines + 1] = (uint32_t)end;
        out[3 * lines + 2] = (uint32_t)(end - start);
        lines++;
        start = next;
    }
    *count = lines;
    return 1;
}
