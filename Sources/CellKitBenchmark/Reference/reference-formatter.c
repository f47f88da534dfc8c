/* The reference `cellkit-bench render same-work` holds cellkit to: a hand-written C formatter of the
 * wrapped table (BenchWrapped rows: a title, a description wrapped at 40 columns, a column of CJK
 * and emoji words wrapped at 30) that writes the bytes `cellkit render TABLE --width W` writes for it
 * in the text format. It does the same work, in C, with nothing general: reads the JSON Lines rows
 * (every line checked as JSON, strings unescaped, UTF-8 checked), cuts text into grapheme clusters
 * and measures them (East Asian wide and emoji 2 columns, marks and joined scalars 0, a flag 2, U+FE0F
 * widening a narrow emoji), wraps by words as cellkit does (after spaces, after a hyphen inside a
 * word, either side of a wide cluster), pads every line to the width and draws the grouped style's
 * rules and separators.
 *
 * cc -O2 reference-formatter.c -o reference-formatter
 * reference-formatter WIDTH TITLE DATA.jsonl > out.txt
 *
 * The benchmark compares its output with cellkit's byte for byte before it times either. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- output: one buffer, written in 256 KiB pieces ---- */

static unsigned char out_buf[1 << 18];
static size_t out_len;

static void flush_out(void) {
    size_t at = 0;
    while (at < out_len) {
        ssize_t n = write(1, out_buf + at, out_len - at);
        if (n <= 0) { perror("write"); exit(1); }
        at += (size_t)n;
    }
    out_len = 0;
}

static inline void put(const void *p, size_t n) {
    if (out_len + n > sizeof out_buf) flush_out();
    memcpy(out_buf + out_len, p, n);
    out_len += n;
}

/* Makes room for `n` bytes (at most the buffer's size): what follows writes without checking. */
static inline void reserve(size_t n) {
    if (out_len + n > sizeof out_buf) flush_out();
}

static inline void put_unchecked(const void *p, size_t n) {
    memcpy(out_buf + out_len, p, n);
    out_len += n;
}

static inline void put_spaces(int n) {
    if (n <= 0) return;
    reserve((size_t)n);
    memset(out_buf + out_len, ' ', (size_t)n);
    out_len += (size_t)n;
}

static const char rule_glyph[] = "\xE2\x94\x80"; /* ─ */

/* `n` (at most 1,000) rule glyphs. */
static void put_rule(int n) {
    static char rule[3 * 1000];
    static int made;
    if (!made) { for (int i = 0; i < 1000; i++) memcpy(rule + 3 * i, rule_glyph, 3); made = 1; }
    put(rule, (size_t)(3 * n));
}

/* ---- scalars: width and the grapheme properties this text needs ---- */

typedef struct { uint32_t first, last; } range;

/* East Asian Wide and Fullwidth, and emoji presented as emoji (Emoji_Presentation), as wcwidth. */
static const range wide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},   {0x23F0, 0x23F0},
    {0x23F3, 0x23F3},   {0x25FD, 0x25FE},   {0x2614, 0x2615},   {0x2648, 0x2653},   {0x267F, 0x267F},
    {0x2693, 0x2693},   {0x26A1, 0x26A1},   {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},
    {0x26CE, 0x26CE},   {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F3},   {0x26F5, 0x26F5},
    {0x26FA, 0x26FA},   {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},   {0x2728, 0x2728},
    {0x274C, 0x274C},   {0x274E, 0x274E},   {0x2753, 0x2755},   {0x2757, 0x2757},   {0x2795, 0x2797},
    {0x27B0, 0x27B0},   {0x27BF, 0x27BF},   {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},
    {0x2E80, 0x303E},   {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
    {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},
    {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x16FE0, 0x16FE4}, {0x17000, 0x18CFF}, {0x1B000, 0x1B2FF},
    {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F1E6, 0x1F1FF},
    {0x1F200, 0x1F202}, {0x1F210, 0x1F23B}, {0x1F240, 0x1F248}, {0x1F250, 0x1F251}, {0x1F260, 0x1F265},
    {0x1F300, 0x1F320}, {0x1F32D, 0x1F335}, {0x1F337, 0x1F37C}, {0x1F37E, 0x1F393}, {0x1F3A0, 0x1F3CA},
    {0x1F3CF, 0x1F3D3}, {0x1F3E0, 0x1F3F0}, {0x1F3F4, 0x1F3F4}, {0x1F3F8, 0x1F3FA}, {0x1F400, 0x1F43E},
    {0x1F440, 0x1F440}, {0x1F442, 0x1F4FC}, {0x1F4FF, 0x1F53D}, {0x1F54B, 0x1F54E}, {0x1F550, 0x1F567},
    {0x1F57A, 0x1F57A}, {0x1F595, 0x1F596}, {0x1F5A4, 0x1F5A4}, {0x1F5FB, 0x1F64F}, {0x1F680, 0x1F6C5},
    {0x1F6CC, 0x1F6CC}, {0x1F6D0, 0x1F6D2}, {0x1F6D5, 0x1F6D7}, {0x1F6DC, 0x1F6DF}, {0x1F6EB, 0x1F6EC},
    {0x1F6F4, 0x1F6FC}, {0x1F7E0, 0x1F7EB}, {0x1F7F0, 0x1F7F0}, {0x1F90C, 0x1F93A}, {0x1F93C, 0x1F945},
    {0x1F947, 0x1F9FF}, {0x1FA70, 0x1FAFF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

/* Scalars of no width that join the cluster before them (Extend): combining marks, variation
 * selectors, skin tones, tags. */
static const range extend[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A}, {0x064B, 0x065F},
    {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200C, 0x200C}, {0x20D0, 0x20FF}, {0x302A, 0x302F},
    {0x3099, 0x309A}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0x1F3FB, 0x1F3FF}, {0xE0020, 0xE007F},
    {0xE0100, 0xE01EF},
};

/* Extended_Pictographic below the emoji planes, roughly: what U+FE0F widens when narrow. */
static const range pictographic[] = {
    {0x00A9, 0x00A9}, {0x00AE, 0x00AE}, {0x203C, 0x203C}, {0x2049, 0x2049}, {0x2122, 0x2122},
    {0x2139, 0x2139}, {0x2194, 0x2199}, {0x21A9, 0x21AA}, {0x231A, 0x231B}, {0x2328, 0x2328},
    {0x23CF, 0x23CF}, {0x23E9, 0x23F3}, {0x23F8, 0x23FA}, {0x24C2, 0x24C2}, {0x25AA, 0x25AB},
    {0x25B6, 0x25B6}, {0x25C0, 0x25C0}, {0x25FB, 0x25FE}, {0x2600, 0x2605}, {0x2607, 0x2612},
    {0x2614, 0x2685}, {0x2690, 0x2705}, {0x2708, 0x2712}, {0x2714, 0x2714}, {0x2716, 0x2716},
    {0x271D, 0x271D}, {0x2721, 0x2721}, {0x2728, 0x2728}, {0x2733, 0x2734}, {0x2744, 0x2744},
    {0x2747, 0x2747}, {0x274C, 0x274C}, {0x274E, 0x274E}, {0x2753, 0x2755}, {0x2757, 0x2757},
    {0x2763, 0x2767}, {0x2795, 0x2797}, {0x27A1, 0x27A1}, {0x27B0, 0x27B0}, {0x27BF, 0x27BF},
    {0x2934, 0x2935}, {0x2B05, 0x2B07}, {0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55},
    {0x3030, 0x3030}, {0x303D, 0x303D}, {0x3297, 0x3297}, {0x3299, 0x3299}, {0x1F000, 0x1FAFF},
};

static int in_ranges(uint32_t v, const range *r, int n) {
    int low = 0, high = n - 1;
    while (low <= high) {
        int mid = (low + high) / 2;
        if (v < r[mid].first) high = mid - 1;
        else if (v > r[mid].last) low = mid + 1;
        else return 1;
    }
    return 0;
}

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
enum { P_WIDE = 1, P_EXTEND = 2, P_PICTO = 4, P_RI = 8, P_ZWJ = 16 };

/* Properties of the first two planes, looked up once each (as cellkit's table is). */
static uint8_t props_bmp[0x20000];

static void make_properties(void) {
    for (uint32_t v = 0; v < 0x20000; v++) {
        uint8_t p = 0;
        if (v >= 0x1100) {
            if (in_ranges(v, wide, COUNT(wide))) p |= P_WIDE;
            if (in_ranges(v, extend, COUNT(extend))) p |= P_EXTEND;
            if (in_ranges(v, pictographic, COUNT(pictographic))) p |= P_PICTO;
        } else if (v >= 0x300 && in_ranges(v, extend, COUNT(extend))) {
            p |= P_EXTEND;
        } else if (v == 0xA9 || v == 0xAE) {
            p |= P_PICTO;
        }
        if (v >= 0x1F1E6 && v <= 0x1F1FF) p |= P_RI;
        if (v == 0x200D) p = P_ZWJ;
        props_bmp[v] = p;
    }
}

static inline uint8_t properties(uint32_t v) {
    if (v < 0x20000) return props_bmp[v];
    uint8_t p = 0;
    if (in_ranges(v, wide, COUNT(wide))) p |= P_WIDE;
    if (in_ranges(v, extend, COUNT(extend))) p |= P_EXTEND;
    return p;
}

/* The scalar at `s` (well-formed UTF-8: checked when the row was read) and its length. */
static inline uint32_t decode(const unsigned char *s, int *len) {
    unsigned b = s[0];
    if (b < 0x80) { *len = 1; return b; }
    if (b < 0xE0) { *len = 2; return (b & 0x1F) << 6 | (s[1] & 0x3F); }
    if (b < 0xF0) { *len = 3; return (b & 0x0F) << 12 | (s[1] & 0x3F) << 6 | (s[2] & 0x3F); }
    *len = 4;
    return (b & 0x07) << 18 | (uint32_t)(s[1] & 0x3F) << 12 | (s[2] & 0x3F) << 6 | (s[3] & 0x3F);
}

/* The end of the grapheme cluster at `i` of `s[0..n)` and its columns, as wcwidth's wcswidth measures
 * it: the base's width; marks and a skin tone after an emoji none; the scalar after a joiner none;
 * U+FE0F two for a narrow pictograph; two regional indicators one flag. */
static int cluster_rules(const unsigned char *s, int i, int n, int *width);

static inline int cluster(const unsigned char *s, int i, int n, int *width) {
    unsigned char b = s[i];
    if (b < 0x80 && (i + 1 == n || s[i + 1] < 0x80)) { *width = 1; return i + 1; }
    /* A three-byte scalar (CJK, kana, Hangul) that joins nothing, before ASCII or another such: alone. */
    if ((b & 0xF0) == 0xE0 && i + 3 <= n) {
        int len;
        uint8_t p = props_bmp[decode(s + i, &len)];
        if (!(p & (P_EXTEND | P_ZWJ | P_PICTO))) {
            int j = i + 3;
            if (j == n || s[j] < 0x80 || ((s[j] & 0xF0) == 0xE0 && j + 3 <= n
                    && !(props_bmp[decode(s + j, &len)] & (P_EXTEND | P_ZWJ)))) {
                *width = (p & P_WIDE) ? 2 : 1;
                return j;
            }
        }
    }
    return cluster_rules(s, i, n, width);
}

/* `cluster` for the rest: marks, joiners, variation selectors, regional indicators. */
static int cluster_rules(const unsigned char *s, int i, int n, int *width) {
    int len;
    uint32_t v = decode(s + i, &len);
    uint8_t p = properties(v);
    int w = (p & P_WIDE) ? 2 : (p & (P_EXTEND | P_ZWJ)) ? 0 : 1;
    int j = i + len, regional = (p & P_RI) ? 1 : 0, picto = (p & P_PICTO) != 0;
    while (j < n) {
        uint32_t u = decode(s + j, &len);
        uint8_t q = properties(u);
        if (q & P_EXTEND) {
            if (u == 0xFE0F && picto && w == 1) w = 2;
            j += len;
        } else if (q & P_ZWJ) {
            j += len;
            if (j < n && picto) { decode(s + j, &len); j += len; } /* the joined pictograph: no width */
        } else if ((q & P_RI) && regional == 1) {
            regional = 2;
            j += len;
        } else {
            break;
        }
    }
    *width = w;
    return j;
}

/* ---- eight bytes at a time: runs of printable ASCII (the bulk of every row) ---- */

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* High bit of each byte of `v` that is below 0x20, 0x7F or above (no high bit set: printable ASCII). */
static inline uint64_t not_printable(uint64_t v) {
    uint64_t del = v ^ (0x7F * ONES);
    return (v | ((v - 0x20 * ONES) & ~v) | ((del - ONES) & ~del)) & HIGHS;
}

/* High bit of each byte of `v` equal to `c`. */
static inline uint64_t equal(uint64_t v, unsigned char c) {
    uint64_t x = v ^ (c * ONES);
    return (x - ONES) & ~x & HIGHS;
}

#ifdef __SSE2__
#include <emmintrin.h>
/* Bits of the 16 bytes at `s` that are printable ASCII (0x20-0x7E; bytes beyond ASCII are negative). */
static inline unsigned printable16(const unsigned char *s) {
    __m128i v = _mm_loadu_si128((const __m128i *)s);
    return (unsigned)_mm_movemask_epi8(
        _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(0x1F)), _mm_cmplt_epi8(v, _mm_set1_epi8(0x7F))));
}
#endif

/* How many bytes from `s` (at most `n`) are printable ASCII. */
static inline int printable_prefix(const unsigned char *s, int n) {
    int i = 0;
#ifdef __SSE2__
    for (; i + 16 <= n; i += 16) {
        unsigned ok = printable16(s + i);
        if (ok != 0xFFFF) return i + __builtin_ctz(~ok);
    }
#endif
    for (; i + 8 <= n; i += 8) {
        uint64_t v;
        memcpy(&v, s + i, 8);
        uint64_t bad = not_printable(v);
        if (bad) return i + __builtin_ctzll(bad) / 8;
    }
    while (i < n && s[i] >= 0x20 && s[i] < 0x7F) i++;
    return i;
}

/* ---- word wrap, as cellkit's TextLayout.line: greedy, breaking after spaces, after a hyphen inside
 * a word and either side of a wide cluster; a word wider than the line is cut ---- */

typedef struct { int start, end, columns; } line;

static int skip_spaces(const unsigned char *s, int i, int n) {
    while (i < n && s[i] == ' ') i++;
    return i;
}

/* One line from `start`: its end (trailing spaces left out), where the next starts, its columns. */
static int wrap_line(const unsigned char *s, int start, int n, int width, line *out) {
    /* Every byte that decides the line printable ASCII (the next width + 2, or all that is left): each
     * one a cluster one column wide, so the break is found by looking back from the first column past
     * the width for a space or a hyphen inside a word. */
    int reach = n - start < width + 2 ? n - start : width + 2;
    if (printable_prefix(s + start, reach) == reach) {
        int end;
        if (reach <= width) {
            for (end = n; end > start && s[end - 1] == ' ';) end--;
            *out = (line){start, end, end - start};
            return n;
        }
        int over = start + width;
        if (s[over] == ' ') {
            for (end = over; end > start && s[end - 1] == ' ';) end--;
            *out = (line){start, end, end - start};
            return skip_spaces(s, over + 1, n);
        }
        for (int k = over - 1; k >= start; k--) {
            if (s[k] == ' ') {
                for (end = k; end > start && s[end - 1] == ' ';) end--;
                *out = (line){start, end, end - start};
                return skip_spaces(s, k + 1, n);
            }
            if (s[k] == '-' && k > start && s[k - 1] != ' ') {
                *out = (line){start, k + 1, k + 1 - start};
                return k + 1;
            }
        }
        *out = (line){start, over, width};
        return over;
    }
    int i = start, used = 0, content = start, content_columns = 0;
    int break_end = -1, break_next = -1, break_columns = 0, after_space = 1;
    while (i < n) {
        if (s[i] == '\n') { *out = (line){start, content, content_columns}; return i + 1; }
        int w, e = cluster(s, i, n, &w);
        int space = s[i] == ' ' && e == i + 1;
        if (used + w > width) {
            if (space) { *out = (line){start, content, content_columns}; return skip_spaces(s, e, n); }
            if (w == 2 && !after_space) { *out = (line){start, content, content_columns}; return i; }
            if (break_end >= 0) {
                *out = (line){start, break_end, break_columns};
                return skip_spaces(s, break_next, n);
            }
            if (i == start) { *out = (line){start, e, w}; return skip_spaces(s, e, n); }
            *out = (line){start, content, content_columns};
            return skip_spaces(s, i, n);
        }
        used += w;
        if (space) {
            break_end = content, break_next = e, break_columns = content_columns;
            i = e, after_space = 1;
            continue;
        }
        if (w == 2 || (!after_space && e == i + 1 && s[i] == '-')) break_end = e, break_next = e, break_columns = used;
        i = e, content = e, content_columns = used, after_space = 0;
    }
    *out = (line){start, content, content_columns};
    return n;
}

/* At most `max_lines` wrapped lines of `s[0..n)`; how many. */
static int wrap(const unsigned char *s, int n, int width, int max_lines, line *lines) {
    int count = 0, start = 0;
    while (start < n && count < max_lines) start = wrap_line(s, start, n, width, &lines[count++]);
    return count;
}

/* One line, cut with an ellipsis at the end when it does not fit (UILabel's default, one line). */
static int truncate_tail(const unsigned char *s, int n, int width, line *out, int *ellipsis) {
    int columns = printable_prefix(s, n), i = columns;
    if (i < n && i > 0) i--, columns--; /* the last ASCII byte may be the base of a cluster that goes on */
    while (i < n) {
        int w, e = cluster(s, i, n, &w);
        columns += w;
        i = e;
    }
    *ellipsis = 0;
    if (columns <= width) { *out = (line){0, n, columns}; return 1; }
    int used = 0;
    i = 0;
    while (i < n) {
        int w, e = cluster(s, i, n, &w);
        if (used + w > width - 1) break;
        used += w;
        i = e;
    }
    *out = (line){0, i, used + 1};
    *ellipsis = 1;
    return 1;
}

/* ---- rows: JSON Lines, each a checked object of strings and numbers ---- */

/* A string's text: its bytes in the data file when it has no escape and nothing to draw otherwise (no
 * copy), else decoded into `own`. */
typedef struct { const unsigned char *bytes; int length; unsigned char *own; int capacity; } text;

static void text_put(text *t, const void *p, int n) {
    if (t->length + n > t->capacity) {
        t->capacity = (t->length + n) * 2 + 64;
        t->own = realloc(t->own, (size_t)t->capacity);
        if (!t->own) { perror("realloc"); exit(1); }
    }
    memcpy(t->own + t->length, p, (size_t)n);
    t->length += n;
}

static void text_put_scalar(text *t, uint32_t v) {
    unsigned char b[4];
    int n;
    if (v < 0x80) b[0] = (unsigned char)v, n = 1;
    else if (v < 0x800) b[0] = 0xC0 | v >> 6, b[1] = 0x80 | (v & 0x3F), n = 2;
    else if (v < 0x10000) b[0] = 0xE0 | v >> 12, b[1] = 0x80 | (v >> 6 & 0x3F), b[2] = 0x80 | (v & 0x3F), n = 3;
    else
        b[0] = 0xF0 | v >> 18, b[1] = 0x80 | (v >> 12 & 0x3F), b[2] = 0x80 | (v >> 6 & 0x3F),
        b[3] = 0x80 | (v & 0x3F), n = 4;
    text_put(t, b, n);
}

static long row_number;

static void fail(const char *what) {
    fprintf(stderr, "reference-formatter: row %ld: %s\n", row_number + 1, what);
    exit(1);
}

/* The length of the well-formed UTF-8 scalar beyond ASCII at `p`; fails on anything else. */
static inline int scalar_length(const unsigned char *p, const unsigned char *end) {
    unsigned char c = p[0];
    int len = c < 0xC2 ? 0 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF5 ? 4 : 0;
    if (len == 0 || end - p < len) fail("bad UTF-8");
    for (int k = 1; k < len; k++)
        if ((p[k] & 0xC0) != 0x80) fail("bad UTF-8");
    if (len == 3 && ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] >= 0xA0))) fail("bad UTF-8");
    if (len == 4 && ((c == 0xF0 && p[1] < 0x90) || (c == 0xF4 && p[1] >= 0x90))) fail("bad UTF-8");
    return len;
}

/* `p` past printable ASCII other than a quote or a backslash, eight bytes at a time. */
static inline const unsigned char *skip_plain(const unsigned char *p, const unsigned char *end) {
#ifdef __SSE2__
    while (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)p);
        unsigned stop = ~printable16(p)
            | (unsigned)_mm_movemask_epi8(_mm_or_si128(
                _mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
        if (stop & 0xFFFF) return p + __builtin_ctz(stop);
        p += 16;
    }
#endif
    while (end - p >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        uint64_t stop = not_printable(v) | equal(v, '"') | equal(v, '\\');
        if (stop) return p + __builtin_ctzll(stop) / 8;
        p += 8;
    }
    while (p < end && *p >= 0x20 && *p < 0x7F && *p != '"' && *p != '\\') p++;
    return p;
}

static inline const unsigned char *skip_white(const unsigned char *p, const unsigned char *end) {
    if (p < end && *p > ' ') return p;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
    return p;
}

static int hex(unsigned char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') return (c | 0x20) - 'a' + 10;
    fail("a bad \\u escape");
    return 0;
}

/* A JSON string from `p` (at its quote) into `t`: escapes decoded, UTF-8 checked, a control character
 * other than a newline drawn as its picture (U+2400 + c), DEL as U+2421 and a tab as a space, as
 * cellkit's text policy draws a label's text. */
static const unsigned char *read_string_copying(const unsigned char *p, const unsigned char *end, text *t) {
    t->length = 0;
    p++;
    for (;;) {
        const unsigned char *run = p;
        p = skip_plain(p, end);
        if (p > run) text_put(t, run, (int)(p - run));
        if (p >= end) fail("a string without its end");
        unsigned char c = *p;
        if (c == '"') { t->bytes = t->own; return p + 1; }
        if (c == '\\') {
            if (p + 1 >= end) fail("a string without its end");
            unsigned char e = p[1];
            p += 2;
            uint32_t v;
            switch (e) {
            case '"': v = '"'; break;
            case '\\': v = '\\'; break;
            case '/': v = '/'; break;
            case 'b': v = 8; break;
            case 'f': v = 12; break;
            case 'n': v = 10; break;
            case 'r': v = 13; break;
            case 't': v = 9; break;
            case 'u':
                if (end - p < 4) fail("a bad \\u escape");
                v = (uint32_t)(hex(p[0]) << 12 | hex(p[1]) << 8 | hex(p[2]) << 4 | hex(p[3]));
                p += 4;
                if (v >= 0xD800 && v < 0xDC00 && end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
                    uint32_t low = (uint32_t)(hex(p[2]) << 12 | hex(p[3]) << 8 | hex(p[4]) << 4 | hex(p[5]));
                    if (low >= 0xDC00 && low < 0xE000) { v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00); p += 6; }
                }
                if (v >= 0xD800 && v < 0xE000) v = 0xFFFD;
                break;
            default: fail("a bad escape"); v = 0;
            }
            if (v == 9) v = ' ';
            else if (v < 0x20 && v != '\n') v = 0x2400 + v; /* a newline breaks the label's line */
            else if (v == 0x7F) v = 0x2421;
            text_put_scalar(t, v);
            continue;
        }
        if (c < 0x20) fail("a control character in a string");
        if (c == 0x7F) { text_put_scalar(t, 0x2421); p++; continue; } /* DEL drawn as its picture */
        int len = scalar_length(p, end);
        text_put(t, p, len);
        p += len;
    }
}

/* A JSON string from `p` (at its quote) into `t`, UTF-8 checked: its bytes where they are, unless an
 * escape, a control character or DEL needs them decoded or drawn (`read_string_copying`). */
static const unsigned char *read_string(const unsigned char *p, const unsigned char *end, text *t) {
    const unsigned char *start = p + 1;
    p = start;
    for (;;) {
        p = skip_plain(p, end);
        if (p >= end) fail("a string without its end");
        if (*p == '"') { t->bytes = start, t->length = (int)(p - start); return p + 1; }
        if (*p < 0x80) return read_string_copying(start - 1, end, t);
        do p += scalar_length(p, end); while (p < end && *p >= 0x80); /* a run of scalars beyond ASCII */
    }
}

/* A JSON value that is not a string: a number, true, false or null (the rows hold no others). */
static const unsigned char *skip_value(const unsigned char *p, const unsigned char *end) {
    const unsigned char *start = p;
    if (p < end && *p == '-') p++;
    while (p < end && ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E' || *p == '+' || *p == '-')) p++;
    if (p > start) return p;
    static const char *const words[] = {"true", "false", "null"};
    for (int k = 0; k < 3; k++) {
        size_t n = strlen(words[k]);
        if ((size_t)(end - p) >= n && memcmp(p, words[k], n) == 0) return p + n;
    }
    fail("a value that is not a string, number, true, false or null");
    return p;
}

enum { TITLE, DESCRIPTION, WORDS, CELL, FIELDS };
static text fields[FIELDS], key, other;

static inline int same(const text *t, const char *word, int n) {
    if (t->length != n) return 0;
    for (int k = 0; k < n; k++)
        if (t->bytes[k] != (unsigned char)word[k]) return 0;
    return 1;
}

/* The field a key names, FIELDS for one BenchWrapped does not read. */
static inline int key_field(const text *key) {
    switch (key->length ? key->bytes[0] : 0) {
    case 't': return same(key, "title", 5) ? TITLE : FIELDS;
    case 'd': return same(key, "description", 11) ? DESCRIPTION : FIELDS;
    case 'w': return same(key, "words", 5) ? WORDS : FIELDS;
    case 'c': return same(key, "cell", 4) ? CELL : FIELDS;
    default: return FIELDS;
    }
}

/* Reads one row (an object on the line `p..end`) into `fields`. */
static void read_row(const unsigned char *p, const unsigned char *end) {
    for (int f = 0; f < FIELDS; f++) fields[f].length = 0;
    p = skip_white(p, end);
    if (p >= end || *p != '{') fail("not a JSON object");
    p = skip_white(p + 1, end);
    if (p < end && *p == '}') return;
    for (;;) {
        if (p >= end || *p != '"') fail("a key that is not a string");
        p = read_string(p, end, &key);
        p = skip_white(p, end);
        if (p >= end || *p != ':') fail("no ':' after a key");
        p = skip_white(p + 1, end);
        int f = key_field(&key);
        if (p < end && *p == '"') p = read_string(p, end, f < FIELDS ? &fields[f] : &other);
        else p = skip_value(p, end);
        p = skip_white(p, end);
        if (p < end && *p == ',') { p = skip_white(p + 1, end); continue; }
        if (p < end && *p == '}') break;
        fail("no ',' or '}' after a value");
    }
    if (skip_white(p + 1, end) != end) fail("text after the object");
    if (!same(&fields[CELL], "BenchWrapped", 12))
        fail("a row that is not a BenchWrapped cell");
}

/* ---- drawing: BenchWrapped's frames, as its initCellForBenchWrapped makes them ---- */

enum { ROW_HEIGHT = 5 };
static const struct { int x, y, width, height; } frame[3] = {{1, 0, 40, 1}, {1, 1, 40, 4}, {43, 0, 30, 5}};

/* One text line of a label: `columns` after what was drawn up to `*x`, at column `at`. */
static inline void put_line(const text *t, const line *l, int at, int *x, int ellipsis) {
    memset(out_buf + out_len, ' ', (size_t)(at - *x));
    out_len += (size_t)(at - *x);
    put_unchecked(t->bytes + l->start, (size_t)(l->end - l->start));
    if (ellipsis) put_unchecked("\xE2\x80\xA6", 3);
    *x = at + l->columns;
}

static void draw_row(int table_width) {
    line lines[3][ROW_HEIGHT];
    int counts[3], ellipsis = 0;
    counts[0] = truncate_tail(fields[TITLE].bytes, fields[TITLE].length, frame[0].width, &lines[0][0], &ellipsis);
    counts[1] = wrap(fields[DESCRIPTION].bytes, fields[DESCRIPTION].length, frame[1].width, frame[1].height, lines[1]);
    counts[2] = wrap(fields[WORDS].bytes, fields[WORDS].length, frame[2].width, frame[2].height, lines[2]);
    /* At most the row's text, the ellipsis, and the width in spaces and a newline a line. */
    reserve((size_t)(fields[TITLE].length + fields[DESCRIPTION].length + fields[WORDS].length + 3
        + ROW_HEIGHT * (table_width + 1)));
    for (int y = 0; y < ROW_HEIGHT; y++) {
        int x = 0;
        for (int v = 0; v < 3; v++) {
            int k = y - frame[v].y;
            if (k >= 0 && k < counts[v]) put_line(&fields[v], &lines[v][k], frame[v].x, &x, v == 0 && ellipsis);
        }
        if (table_width > x) memset(out_buf + out_len, ' ', (size_t)(table_width - x)), out_len += (size_t)(table_width - x);
        out_buf[out_len++] = '\n';
    }
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: reference-formatter WIDTH TITLE DATA.jsonl\n");
        return 64;
    }
    int width = atoi(argv[1]);
    const char *title = argv[2];
    int fd = open(argv[3], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) { perror(argv[3]); return 1; }
    const unsigned char *data = st.st_size
        ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : (const unsigned char *)"";
    if (data == MAP_FAILED) { perror("mmap"); return 1; }
    madvise((void *)data, (size_t)st.st_size, MADV_SEQUENTIAL);
    make_properties();

    /* The title, centred, and a blank line. */
    int title_columns = 0, n = (int)strlen(title);
    for (int i = 0; i < n;) { int w; i = cluster((const unsigned char *)title, i, n, &w); title_columns += w; }
    put_spaces((width - title_columns) / 2);
    put(title, (size_t)n);
    put("\n\n", 2);

    const unsigned char *p = data, *end = data + st.st_size;
    int first = 1;
    while (p < end) {
        const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
        const unsigned char *line_end = nl ? nl : end;
        if (skip_white(p, line_end) != line_end) {
            read_row(p, line_end);
            if (first) { put_rule(width); put("\n", 1); first = 0; }
            else { put_spaces(frame[0].x); put_rule(width - frame[0].x); put("\n", 1); }
            draw_row(width);
            row_number++;
        }
        p = nl ? nl + 1 : end;
    }
    if (!first) { put_rule(width); put("\n", 1); }
    flush_out();
    return 0;
}
