/* The bound for `cellkit-bench render same-work`: a hand-written C formatter that writes the same
 * bytes as `cellkit render` for the same-work table (SameWorkBenchmark.swift writes the table; its
 * cell is BenchmarkCells.c's Columns). Kept as the project's shared reference has it (fmt3.c,
 * bench/samework/), so that ratios are against the bound the issue named; the benchmark compares
 * the two outputs byte for byte before it times them, and stops if they differ. */

/* fmt3 = fmt2 with self-sizing rows (8ca290f): a description of more than 5 lines grows the row (rows = max(5, lines)).
 * fmt2: the 85e5c9c variant (grouped edge to edge: no side borders, separators inset 1 column).
 * Practical lower bound for the samework table: reads the same JSON Lines file and writes the same bytes as
 * `cellkit render table.yaml --format text` (checked with cmp at 10k and 1M rows), with every column width
 * known in advance: title clipped to 12 columns, description word-wrapped at 40 (5 lines a row), wide column
 * measured (UTF-8 decoded by hand, glibc wcwidth) and cut with "…" past 24, box borders, 256 KiB writes.
 * Minimal JSON: one pass over the top-level string members, escapes undone only where a backslash occurs,
 * no validation. ASCII runs take a fast path (8 bytes at a time). Usage: fmt FILE.jsonl > out */
#define _GNU_SOURCE
#include <fcntl.h>
#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#define W 84
#define INNER 82
#define LINES 5
#define MAXL 64
#define DESCW 40
static char obuf[1 << 18]; static size_t olen;
static void flush(void) { size_t o = 0; while (o < olen) { ssize_t n = write(1, obuf + o, olen - o); if (n <= 0) exit(1); o += n; } olen = 0; }
static inline void put(const void *p, size_t n) { memcpy(obuf + olen, p, n); olen += n; }
static inline void spaces(size_t n) { memset(obuf + olen, ' ', n); olen += n; }

static char topb[INNER * 3 + 8], sepb[INNER * 3 + 8], botb[INNER * 3 + 8]; static size_t blen;
static size_t rlen, slen;
static void border(char *b, int lead) {
    size_t n = 0; if (lead) b[n++] = ' ';
    for (int i = lead; i < W; i++) { memcpy(b + n, "\xe2\x94\x80", 3); n += 3; }
    b[n++] = '\n'; if (lead) slen = n; else rlen = n;
}
static inline int ascii(const char *s, size_t n) {
    size_t i = 0; uint64_t acc = 0;
    for (; i + 8 <= n; i += 8) { uint64_t x; memcpy(&x, s + i, 8); acc |= x; }
    for (; i < n; i++) acc |= (unsigned char)s[i];
    return (acc & 0x8080808080808080ull) == 0;
}
/* one UTF-8 scalar at s (n bytes left): its length and display width */
static inline size_t scalar(const unsigned char *s, size_t n, int *cw) {
    unsigned c = s[0]; wchar_t wc; size_t len;
    if (c < 0x80) { *cw = 1; return 1; }
    if (c >= 0xf0 && n >= 4) { wc = (c & 7) << 18 | (s[1] & 63) << 12 | (s[2] & 63) << 6 | (s[3] & 63); len = 4; }
    else if (c >= 0xe0 && n >= 3) { wc = (c & 15) << 12 | (s[1] & 63) << 6 | (s[2] & 63); len = 3; }
    else if (c >= 0xc0 && n >= 2) { wc = (c & 31) << 6 | (s[1] & 63); len = 2; }
    else { *cw = 1; return 1; }
    int w = wcwidth(wc); *cw = w < 0 ? 1 : w; return len;
}
/* display width of s[0..n) up to max columns; *cut: the bytes that fit */
static int width(const char *s, size_t n, int max, size_t *cut) {
    if (ascii(s, n)) { size_t k = n < (size_t)max ? n : (size_t)max; *cut = k; return (int)k; }
    int w = 0; size_t i = 0;
    while (i < n) { int cw; size_t len = scalar((const unsigned char *)s + i, n - i, &cw); if (w + cw > max) break; w += cw; i += len; }
    *cut = i; return w;
}
static char tb[4096], db[4096], wb[4096];
static const char *unescape(const char *v, size_t *n, char *dst) {
    if (!memchr(v, '\\', *n)) return v;
    size_t k = 0; for (size_t i = 0; i < *n; i++) { char c = v[i]; if (c == '\\' && i + 1 < *n) { c = v[++i]; c = c == 'n' ? '\n' : c == 't' ? '\t' : c; } dst[k++] = c; }
    *n = k; return dst;
}
static long rows;
static void row(const char *p, const char *end) {
    const char *t = NULL, *d = NULL, *w = NULL; size_t tl = 0, dl = 0, wl = 0;
    while (p < end) {                       /* "key": "value" pairs, one pass */
        const char *k = memchr(p, '"', end - p); if (!k) break; k++;
        const char *ke = memchr(k, '"', end - k); if (!ke) break;
        const char *v = ke + 1; while (v < end && *v != '"') v++;
        if (v >= end) break; v++;
        const char *ve = v;
        for (;;) { ve = memchr(ve, '"', end - ve); if (!ve) return; const char *b = ve; while (b > v && b[-1] == '\\') b--; if (((ve - b) & 1) == 0) break; ve++; }
        if (ke - k == 1) { size_t n = ve - v;
            if (*k == 't') { tl = n; t = unescape(v, &tl, tb); } else if (*k == 'd') { dl = n; d = unescape(v, &dl, db); } else if (*k == 'w') { wl = n; w = unescape(v, &wl, wb); } }
        p = ve + 1;
    }
    if (olen + 16 * 1024 > sizeof obuf) flush();
    if (rows++) put(sepb, slen);
    const char *ls[MAXL]; size_t ll[MAXL]; int lw[MAXL], nl = 0; size_t cut;
    if (d && ascii(d, dl)) {               /* ASCII: a column is a byte; break at the last space that fits */
        size_t i = 0;
        while (nl < MAXL) {
            while (i < dl && d[i] == ' ') i++;
            if (i >= dl) break;
            size_t stop;
            if (dl - i <= DESCW) stop = dl;
            else if (d[i + DESCW] == ' ') stop = i + DESCW;
            else { const char *sp = memrchr(d + i, ' ', DESCW); stop = sp ? (size_t)(sp - d) : i + DESCW; }
            size_t se = stop; while (se > i && d[se - 1] == ' ') se--;
            ls[nl] = d + i; ll[nl] = se - i; lw[nl] = (int)(se - i); nl++; i = stop;
        }
    } else if (d) {                          /* general: measure scalar by scalar */
        size_t i = 0;
        while (nl < MAXL) {
            while (i < dl && d[i] == ' ') i++;
            if (i >= dl) break;
            size_t start = i, lastbrk = 0, j = i; int haveb = 0, wd = 0;
            while (j < dl) { if (d[j] == ' ') { lastbrk = j; haveb = 1; } int cw; size_t len = scalar((const unsigned char *)d + j, dl - j, &cw); if (wd + cw > DESCW) break; wd += cw; j += len; }
            size_t stop = (j < dl && haveb && d[j] != ' ') ? lastbrk : j;
            size_t se = stop; while (se > start && d[se - 1] == ' ') se--;
            ls[nl] = d + start; ll[nl] = se - start; lw[nl] = width(d + start, se - start, 1 << 20, &cut); nl++; i = stop;
        }
    }
    size_t tcut = 0, wcut = 0; int tw = t ? width(t, tl, 12, &tcut) : 0, ww = w ? width(w, wl, 24, &wcut) : 0, ell = 0;
    if (w && wcut < wl) { ww = width(w, wl, 23, &wcut) + 1; ell = 1; }   /* truncate tail: … */
    int rl = nl > LINES ? nl : LINES;
    for (int k = 0; k < rl; k++) {
        if (k == 0) { put(t, tcut); spaces(13 - tw); } else spaces(13);
        if (k < nl) { put(ls[k], ll[k]); spaces(41 - lw[k]); } else spaces(41);
        if (k == 0) { put(w, wcut); if (ell) put("\xe2\x80\xa6", 3); spaces(30 - ww); } else spaces(30);
        put("\n", 1);
    }
}
int main(int argc, char **argv) {
    (void)argc; setlocale(LC_ALL, "C.UTF-8");
    int fd = open(argv[1], O_RDONLY); if (fd < 0) return 1;
    border(topb, 0); border(sepb, 1);
    const char *title = "Benchmark"; spaces((W - strlen(title)) / 2); put(title, strlen(title)); put("\n\n", 2);
    put(topb, rlen);
    static char in[1 << 20]; size_t have = 0; ssize_t n;
    while ((n = read(fd, in + have, sizeof in - have)) > 0) {
        have += n; char *p = in, *end = in + have, *nlp;
        while ((nlp = memchr(p, '\n', end - p))) { row(p, nlp); p = nlp + 1; }
        have = end - p; memmove(in, p, have);
    }
    if (have) row(in, in + have);
    put(topb, rlen); flush();
    return 0;
}
