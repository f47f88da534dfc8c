/* The JSON Lines check's usual case in C: one pass over a record that takes it whole when it is
 * well-formed, indexing the top-level members as JSONValueParser.check(members:) does. Anything
 * else (an error, an escaped top-level key, a number outside the strict grammar) is left to the
 * Swift parser, which says what is wrong and where: this pass never refuses, it only accepts what
 * the parser accepts, with the same offsets and flags (CellKitModelTests' JSONCheckTests and the
 * jsonl fuzz target hold the two to each other). In C, with each string's printable ASCII start
 * scanned inline and each step returning its end (flags and all) in a register, because the Swift
 * walk cost half as much again, and a first C port that kept a cursor in memory and called the
 * scan per string no less than the Swift (BENCHMARKS.md, "Measurements behind the code":
 * JSONValueParser.checkInC). */
#include "cellkit_scan.h"
#include "cpu.h"
#include "json_string.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if CK_SCAN_X86
#include <immintrin.h>
#endif

/* The walk: each step takes the offset of its first byte and returns the offset past it, 0 when
 * the Swift parser must decide (no step ends at offset 0). A string's step returns its end with
 * the flags above bit 29 set (what the string held, as JSONValueParser's plainFlag, cleanFlag
 * and asciiFlag say); a record of 2^29 bytes or more is never walked. */
#define OFFSET(r) ((r) & (CK_JSON_ASCII_FLAG - 1))

enum { DEEPEST = 64 }; /* JSONValueParser's depth limit: an object or list at 64 levels is refused */

static inline int is_space(uint8_t b) { return b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D; }
static inline int is_digit(uint8_t b) { return b >= '0' && b <= '9'; }
static inline int is_continuation(uint8_t b) { return (b & 0xC0) == 0x80; }
static inline int is_hex(uint8_t b) { return is_digit(b) || ((b | 0x20) >= 'a' && (b | 0x20) <= 'f'); }

static inline size_t skip_space(const uint8_t *p, size_t n, size_t i) {
    while (i < n && p[i] <= 0x20 && is_space(p[i])) i++;
    return i;
}

/* Where the run of printable ASCII a string's body takes as it is, from p[j], ends: the first
 * byte json_string_special takes (n when none). Sixteen bytes a step, inline: a call to
 * ck_scan_json_string_ascii per string cost more than a short string. */
static inline size_t ascii_run(const uint8_t *p, size_t n, size_t j) {
#if defined(__SSE2__)
    for (; j + 16 <= n; j += 16) {
        unsigned bits = json_string_mask(_mm_loadu_si128((const __m128i *)(const void *)(p + j)));
        if (bits) return j + (size_t)__builtin_ctz(bits);
    }
#endif
    while (j < n && !json_string_special(p[j])) j++;
    return j;
}

/* UTF8Bytes.isHidden for a three-byte scalar (the two-byte ones are tested by their bytes). */
static inline int is_hidden3(uint32_t v) {
    return v == 0x180E || v == 0x200B || v == 0x200E || v == 0x200F || (v >= 0x202A && v <= 0x202E) ||
           (v >= 0x2060 && v <= 0x2064) || (v >= 0x2066 && v <= 0x206F) || v == 0xFEFF || (v >= 0xFFF9 && v <= 0xFFFB);
}

/* UTF8Bytes.multiByteScalar: the length of the well-formed scalar of two to four bytes at p[i]
 * (its lead 0x80 or above), 0 when the bytes there are not well-formed UTF-8; *clean cleared
 * when the scalar is hidden. A lead of E3 to EC (most CJK, kana and Hangul: none hidden, none
 * overlong or a surrogate) is taken first. */
static inline size_t multibyte(const uint8_t *p, size_t n, size_t i, int *clean) {
    uint8_t b = p[i];
    if ((uint8_t)(b - 0xE3) <= 0xEC - 0xE3 && i + 2 < n && is_continuation(p[i + 1]) && is_continuation(p[i + 2]))
        return 3;
    if (b < 0xC2) return 0;
    if (b < 0xE0) {
        if (i + 1 >= n || !is_continuation(p[i + 1])) return 0;
        uint8_t s = p[i + 1];
        if ((b == 0xC2 && (s < 0xA0 || s == 0xAD)) || (b == 0xD8 && s == 0x9C)) *clean = 0;
        return 2;
    }
    if (b < 0xF0) {
        if (i + 2 >= n || !is_continuation(p[i + 1]) || !is_continuation(p[i + 2])) return 0;
        uint8_t s = p[i + 1];
        if ((b == 0xE0 && s < 0xA0) || (b == 0xED && s >= 0xA0)) return 0;
        if ((b == 0xE1 || b == 0xE2 || b == 0xEF) &&
            is_hidden3((uint32_t)(b & 0x0F) << 12 | (uint32_t)(s & 0x3F) << 6 | (uint32_t)(p[i + 2] & 0x3F)))
            *clean = 0;
        return 3;
    }
    if (b >= 0xF5 || i + 3 >= n || !is_continuation(p[i + 1]) || !is_continuation(p[i + 2]) ||
        !is_continuation(p[i + 3]))
        return 0;
    if ((b == 0xF0 && p[i + 1] < 0x90) || (b == 0xF4 && p[i + 1] >= 0x90)) return 0;
    return 4;
}

/* An escape at p[j] (a backslash): its length, 0 when it is not one JSON has. */
static inline size_t escape(const uint8_t *p, size_t n, size_t j) {
    if (j + 1 >= n) return 0;
    switch (p[j + 1]) {
    case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't': return 2;
    case 'u':
        if (j + 6 > n || !is_hex(p[j + 2]) || !is_hex(p[j + 3]) || !is_hex(p[j + 4]) || !is_hex(p[j + 5])) return 0;
        return 6;
    default: return 0;
    }
}

/* The rest of a string from p[j], past its printable ASCII start: plain when it has no escape and
 * is well-formed UTF-8, clean when also free of DEL and hidden scalars, as
 * JSONValueParser.skipString finds it. A byte that is not UTF-8 is taken (the string is then not
 * plain), as the parser decodes it to U+FFFD; a raw control byte is an error. */
__attribute__((noinline)) static size_t string_rest(const uint8_t *p, size_t n, size_t j) {
    int plain = 1, clean = 1;
    while (j < n) {
        uint8_t b = p[j];
        if (b == '"') return (j + 1) | (plain ? CK_JSON_PLAIN_FLAG | (clean ? CK_JSON_CLEAN_FLAG : 0) : 0);
        if (b >= 0x80) {
            size_t length = multibyte(p, n, j, &clean);
            if (length == 0) plain = 0, length = 1;
            j += length;
        } else if (b == '\\') {
            size_t length = escape(p, n, j);
            if (length == 0) return 0;
            plain = 0;
            j += length;
        } else if (b < 0x20) {
            return 0;
        } else {
            if (b == 0x7F) clean = 0;
            j = ascii_run(p, n, j + 1);
        }
    }
    return 0; /* not closed */
}

/* A string from its opening quote; printable ASCII to its end (the usual string) inline. */
__attribute__((always_inline)) static inline size_t string(const uint8_t *p, size_t n, size_t i) {
    size_t j = ascii_run(p, n, i + 1);
    if (j < n && p[j] == '"') return (j + 1) | CK_JSON_PLAIN_FLAG | CK_JSON_CLEAN_FLAG | CK_JSON_ASCII_FLAG;
    return string_rest(p, n, j);
}

#if CK_SCAN_X86
/* With AVX2, a top-level string is taken 32 bytes a step, and text beyond ASCII (a CJK or emoji
 * column) checked as UTF-8 32 bytes a step rather than a scalar at a time: the scalar walk was
 * about a third of the check on the same-work table (BENCHMARKS.md, "Measurements behind the
 * code": JSONValueParser.checkAVX2). Each step only says "as string_rest would find it" or "ask
 * string_rest": a string it doubts (an escape, a control byte, DEL, a byte that is not UTF-8, a
 * scalar that might be hidden) is walked by string_rest from where the doubt began. */
#define CK_AVX2 __attribute__((target("avx2,bmi")))

/* A bit per byte of p[0..<32] that json_string_special takes: 0x80 and above, below 0x20, DEL,
 * `"` and `\\`. */
CK_AVX2 static inline uint32_t special32(const uint8_t *p) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i m = _mm256_cmpgt_epi8(_mm256_set1_epi8(0x20), v); /* signed: below 0x20, or 0x80 and above */
    m = _mm256_or_si256(m, _mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x7F)));
    m = _mm256_or_si256(m, _mm256_cmpeq_epi8(v, _mm256_set1_epi8('"')));
    m = _mm256_or_si256(m, _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\')));
    return (uint32_t)_mm256_movemask_epi8(m);
}

/* A bit per byte of p[0..<32] that ends a string's body or takes string_rest's walk: `"`, `\\`, a
 * control byte, DEL. Bytes of 0x80 and above are not among them. */
CK_AVX2 static inline uint32_t stop32(const uint8_t *p) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i m = _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(0x1F)), v); /* v <= 0x1F */
    m = _mm256_or_si256(m, _mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x7F)));
    m = _mm256_or_si256(m, _mm256_cmpeq_epi8(v, _mm256_set1_epi8('"')));
    m = _mm256_or_si256(m, _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\')));
    return (uint32_t)_mm256_movemask_epi8(m);
}

/* The body of a search from p[j] for the first byte that `bits32` marks, 32 bytes a step, the last
 * step the record's last 32 bytes with its bits before j dropped: returns where it is, n when no
 * byte is marked. Needs n >= 32. */
#define CK_FIRST_MARKED(bits32, p, n, j)                                                                              \
    do {                                                                                                              \
        for (; (j) + 32 <= (n); (j) += 32) {                                                                          \
            uint32_t bits_ = bits32((p) + (j));                                                                       \
            if (bits_) return (j) + (size_t)__builtin_ctz(bits_);                                                     \
        }                                                                                                             \
        if ((j) >= (n)) return (n);                                                                                   \
        uint32_t tail_ = bits32((p) + (n)-32) >> ((j) - ((n)-32));                                                    \
        return tail_ ? (j) + (size_t)__builtin_ctz(tail_) : (n);                                                      \
    } while (0)

/* ascii_run 32 bytes a step (n >= 32). */
CK_AVX2 static inline size_t ascii_run32(const uint8_t *p, size_t n, size_t j) { CK_FIRST_MARKED(special32, p, n, j); }

/* The first `"`, `\\`, control byte or DEL from p[j] (n >= 32); n when there is none. */
CK_AVX2 static inline size_t stop_from(const uint8_t *p, size_t n, size_t j) { CK_FIRST_MARKED(stop32, p, n, j); }

/* Unsigned v >= least, a byte at a time. */
CK_AVX2 static inline __m256i at_least(__m256i v, uint8_t least) {
    return _mm256_cmpeq_epi8(_mm256_max_epu8(v, _mm256_set1_epi8((char)least)), v);
}

CK_AVX2 static inline __m256i equal(__m256i v, uint8_t b) { return _mm256_cmpeq_epi8(v, _mm256_set1_epi8((char)b)); }

/* Unsigned lo <= v <= hi, a byte at a time. */
CK_AVX2 static inline __m256i between(__m256i v, uint8_t lo, uint8_t hi) {
    return _mm256_and_si256(at_least(v, lo), _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8((char)hi)), v));
}

/* A bit per byte of p[0..<32] (p[-3..<0] readable) that is not where well-formed UTF-8 has it, or
 * may end a hidden scalar. Each byte is judged with the three before it:
 * - a continuation byte (0x80-0xBF) exactly where a lead before it needs one: the byte before is
 *   0xC0 or above, or the one before that 0xE0 or above, or the third before 0xF0 or above (a
 *   sequence cut short is caught at the byte after it, a string's closing quote at the latest);
 * - no byte C0, C1 or F5 and above; after E0 and F0 no overlong second byte, after ED no
 *   surrogate, after F4 nothing past U+10FFFF;
 * - doubted, as hidden (UTF8Bytes.isHidden, is_hidden3), told by the bytes that end the scalar:
 *   C2 below A0 and C2 AD, D8 9C; E1 A0 8E, E2 80 8B-8F, E2 80 AA-AE, E2 81 A0-AF, EF BB BF and
 *   EF BF B9-BB (the last two bytes of a three-byte scalar, with its lead two bytes back; a lead
 *   that is no lead there is caught as not UTF-8). Dashes, quotes and the ellipsis (E2 80 xx)
 *   are not doubted: English text takes this path. */
CK_AVX2 static inline uint32_t utf8_doubts32(const uint8_t *p) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(p - 1));
    __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(p - 2));
    __m256i c = _mm256_loadu_si256((const __m256i *)(const void *)(p - 3));
    __m256i continuation = _mm256_cmpgt_epi8(_mm256_set1_epi8(-64), x); /* signed: 0x80-0xBF */
    __m256i needed = _mm256_or_si256(at_least(a, 0xC0), _mm256_or_si256(at_least(b, 0xE0), at_least(c, 0xF0)));
    __m256i bad = _mm256_xor_si256(continuation, needed);
    __m256i even = _mm256_and_si256(x, _mm256_set1_epi8((char)0xFE));
    bad = _mm256_or_si256(bad, _mm256_or_si256(equal(even, 0xC0), at_least(x, 0xF5)));
    /* Signed, as a continuation byte: below A0 is below -96, below 90 below -112. */
    __m256i below_a0 = _mm256_cmpgt_epi8(_mm256_set1_epi8(-96), x);
    __m256i below_90 = _mm256_cmpgt_epi8(_mm256_set1_epi8(-112), x);
    bad = _mm256_or_si256(bad, _mm256_and_si256(equal(a, 0xE0), below_a0));
    bad = _mm256_or_si256(bad, _mm256_andnot_si256(below_a0, equal(a, 0xED)));
    bad = _mm256_or_si256(bad, _mm256_and_si256(equal(a, 0xF0), below_90));
    bad = _mm256_or_si256(bad, _mm256_andnot_si256(below_90, equal(a, 0xF4)));
    __m256i c2 = _mm256_and_si256(equal(a, 0xC2), _mm256_or_si256(below_a0, equal(x, 0xAD)));
    __m256i d8 = _mm256_and_si256(equal(a, 0xD8), equal(x, 0x9C));
    bad = _mm256_or_si256(bad, _mm256_or_si256(c2, d8));
    /* three-byte scalars, by their lead (b) and their last two bytes (a, x): looked at only when a
     * lead E1, E2 or EF is in the block (CJK's leads are E3 to ED) */
    __m256i e2_lead = equal(b, 0xE2), ef_lead = equal(b, 0xEF), e1_lead = equal(b, 0xE1);
    __m256i leads = _mm256_or_si256(e2_lead, _mm256_or_si256(ef_lead, e1_lead));
    if (!_mm256_testz_si256(leads, leads)) {
        __m256i e2 = _mm256_or_si256(
            _mm256_and_si256(_mm256_and_si256(e2_lead, equal(a, 0x80)),
                             _mm256_or_si256(between(x, 0x8B, 0x8F), between(x, 0xAA, 0xAE))),
            _mm256_and_si256(_mm256_and_si256(e2_lead, equal(a, 0x81)), between(x, 0xA0, 0xAF)));
        __m256i ef = _mm256_and_si256(
            ef_lead, _mm256_or_si256(_mm256_and_si256(equal(a, 0xBB), equal(x, 0xBF)),
                                     _mm256_and_si256(equal(a, 0xBF), between(x, 0xB9, 0xBB))));
        __m256i e1 = _mm256_and_si256(_mm256_and_si256(e1_lead, equal(a, 0xA0)), equal(x, 0x8E));
        bad = _mm256_or_si256(bad, _mm256_or_si256(e2, _mm256_or_si256(ef, e1)));
    }
    return (uint32_t)_mm256_movemask_epi8(bad);
}

/* string_rest from p[j] (a byte of 0x80 or above, j >= 3, n >= 32): the string's end found 32
 * bytes a step; then, when it ends at a quote, p[j...end] checked 32 bytes a step
 * (utf8_doubts32), the last step the 32 bytes from where it is with its bits past the quote
 * dropped, or, that close to the record's end, the 32 bytes up to the quote with its bits before
 * it dropped. No load leaves p[0..<n]. Any doubt, and string_rest walks it. */
CK_AVX2 static size_t string_rest_avx2(const uint8_t *p, size_t n, size_t j) {
    size_t q = stop_from(p, n, j), k = j;
    if (q == n || p[q] != '"') return string_rest(p, n, j);
    uint32_t doubts = 0;
    for (; k + 32 <= q + 1; k += 32) doubts |= utf8_doubts32(p + k);
    if (k <= q) { /* the last 1 to 31 bytes, q - k < 31 */
        if (k + 32 <= n) {
            doubts |= utf8_doubts32(p + k) & (0xFFFFFFFFu >> (31 - (q - k))); /* the bits of p[k...q] */
        } else {
            if (q < 34) return string_rest(p, n, j); /* (tested before the subtraction: it would wrap) */
            size_t s = q + 1 - 32;
            doubts |= utf8_doubts32(p + s) >> (k - s);
        }
    }
    return doubts ? string_rest(p, n, j) : (q + 1) | CK_JSON_PLAIN_FLAG | CK_JSON_CLEAN_FLAG;
}

/* string with AVX2 (n >= 32): printable ASCII to its end inline, text beyond it by string_rest_avx2. */
CK_AVX2 __attribute__((always_inline)) static inline size_t string_avx2(const uint8_t *p, size_t n, size_t i) {
    size_t j = ascii_run32(p, n, i + 1);
    if (j < n && p[j] == '"') return (j + 1) | CK_JSON_PLAIN_FLAG | CK_JSON_CLEAN_FLAG | CK_JSON_ASCII_FLAG;
    return j >= 3 && j < n && p[j] >= 0x80 ? string_rest_avx2(p, n, j) : string_rest(p, n, j);
}
#endif

/* Digits from p[i]: where they end. */
static inline size_t digits(const uint8_t *p, size_t n, size_t i) {
    while (i < n && is_digit(p[i])) i++;
    return i;
}

/* A number in JSON's strict grammar, with at most 40 digits and an exponent of at most 250 either
 * way: a value no double overflows or underflows on, which the parser's reading as Double takes.
 * Anything else (a leading zero, a longer number) is the parser's to decide. */
static size_t number(const uint8_t *p, size_t n, size_t i) {
    if (p[i] == '-') i++;
    size_t first = i;
    i = digits(p, n, i);
    size_t count = i - first;
    if (count == 0 || (count > 1 && p[first] == '0')) return 0;
    if (i < n && p[i] == '.') {
        size_t fraction = i + 1;
        i = digits(p, n, fraction);
        if (i == fraction) return 0;
        count += i - fraction;
    }
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        if (i < n && (p[i] == '+' || p[i] == '-')) i++;
        size_t start = i, exponent = 0;
        i = digits(p, n, i);
        if (i == start || i - start > 3) return 0;
        for (size_t k = start; k < i; k++) exponent = exponent * 10 + (size_t)(p[k] - '0');
        if (exponent > 250) return 0;
    }
    return count > 40 ? 0 : i;
}

static inline size_t literal(const uint8_t *p, size_t n, size_t i, const char *word, size_t length) {
    if (i + length > n || memcmp(p + i, word, length) != 0) return 0;
    return i + length;
}

static size_t value(const uint8_t *p, size_t n, size_t i, int depth);

/* After a value inside an object or list: 1 for a comma, 2 for `close`, 0 otherwise; *i past it. */
static inline int next_or_close(const uint8_t *p, size_t n, size_t *i, uint8_t close) {
    size_t j = skip_space(p, n, *i);
    if (j >= n) return 0;
    *i = j + 1;
    return p[j] == ',' ? 1 : p[j] == close ? 2 : 0;
}

/* After a key: the colon and the space around it; 0 without the colon. The usual `": "` (or `":"`)
 * before a value's first byte is taken first, with no loop (BENCHMARKS.md, "Measurements behind the
 * code": JSONValueParser.colon). */
static inline size_t colon(const uint8_t *p, size_t n, size_t i) {
    if (i + 2 < n && p[i] == ':') {
        size_t j = i + 1 + (p[i + 1] == ' ');
        if (p[j] > 0x20) return j;
    }
    i = skip_space(p, n, i);
    if (i >= n || p[i] != ':') return 0;
    return skip_space(p, n, i + 1);
}

/* An object below the top level, from its "{". */
static size_t object(const uint8_t *p, size_t n, size_t i, int depth) {
    if (depth >= DEEPEST) return 0;
    i = skip_space(p, n, i + 1);
    if (i < n && p[i] == '}') return i + 1;
    for (;;) {
        i = skip_space(p, n, i);
        if (i >= n || p[i] != '"') return 0;
        size_t r = string(p, n, i);
        if (r == 0 || (i = colon(p, n, OFFSET(r))) == 0 || (r = value(p, n, i, depth + 1)) == 0) return 0;
        i = OFFSET(r);
        int after = next_or_close(p, n, &i, '}');
        if (after != 1) return after == 2 ? i : 0;
    }
}

/* A list, from its "[". */
static size_t list(const uint8_t *p, size_t n, size_t i, int depth) {
    if (depth >= DEEPEST) return 0;
    i = skip_space(p, n, i + 1);
    if (i < n && p[i] == ']') return i + 1;
    for (;;) {
        size_t r = value(p, n, skip_space(p, n, i), depth + 1);
        if (r == 0) return 0;
        i = OFFSET(r);
        int after = next_or_close(p, n, &i, ']');
        if (after != 1) return after == 2 ? i : 0;
    }
}

/* Any value, from its first byte (the space before it passed). */
static size_t value(const uint8_t *p, size_t n, size_t i, int depth) {
    if (i >= n) return 0;
    switch (p[i]) {
    case '"': return string(p, n, i);
    case '{': return object(p, n, i, depth);
    case '[': return list(p, n, i, depth);
    case 't': return literal(p, n, i, "true", 4);
    case 'f': return literal(p, n, i, "false", 5);
    case 'n': return literal(p, n, i, "null", 4);
    default: return p[i] == '-' || is_digit(p[i]) ? number(p, n, i) : 0;
    }
}

/* The walk over the top level, without AVX2 and with it (json_record.inc). */
#define CK_RECORD_CHECK check_record
#define CK_RECORD_STRING string
#define CK_RECORD_TARGET
#include "json_record.inc"
#undef CK_RECORD_CHECK
#undef CK_RECORD_STRING
#undef CK_RECORD_TARGET

#if CK_SCAN_X86
#define CK_RECORD_CHECK check_record_avx2
#define CK_RECORD_STRING string_avx2
#define CK_RECORD_TARGET CK_AVX2
#include "json_record.inc"
#endif

/* The walk chosen jumps to, not called: with seven arguments, one on the stack, a call and its
 * return were 22 instructions a record (BENCHMARKS.md, "Measurements behind the code":
 * JSONValueParser.checkJump). */
#if defined(__clang__)
#if !__has_feature(address_sanitizer) && !__has_feature(thread_sanitizer)
#define CK_JUMP __attribute__((musttail))
#endif
#endif
#ifndef CK_JUMP
#define CK_JUMP /* another compiler, or a sanitizer's instrumentation, which may keep a frame: a call */
#endif

#if CK_SCAN_X86
/* ck_json_check_record the first time: the processor asked apart, so that the usual way in
 * makes no call of its own (and saves no registers for one). */
__attribute__((noinline)) static int check_record_asking(const uint8_t *p, size_t n, uint32_t *members,
                                                         size_t capacity, size_t *count, ptrdiff_t *cell_offset,
                                                         size_t *cell_end) {
    if (ck_scan_ask_avx2() && n >= 32) return check_record_avx2(p, n, members, capacity, count, cell_offset, cell_end);
    return check_record(p, n, members, capacity, count, cell_offset, cell_end);
}
#endif

int ck_json_check_record(const uint8_t *p, size_t n, uint32_t *members, size_t capacity, size_t *count,
                         ptrdiff_t *cell_offset, size_t *cell_end) {
#if CK_SCAN_X86
    int known = __atomic_load_n(&ck_scan_avx2_known, __ATOMIC_RELAXED);
    if (__builtin_expect(known == 0, 0))
        CK_JUMP return check_record_asking(p, n, members, capacity, count, cell_offset, cell_end);
    if (known == 1 && n >= 32)
        CK_JUMP return check_record_avx2(p, n, members, capacity, count, cell_offset, cell_end);
#endif
    CK_JUMP return check_record(p, n, members, capacity, count, cell_offset, cell_end);
}

int ck_json_check_record_portable(const uint8_t *p, size_t n, uint32_t *members, size_t capacity, size_t *count,
                                  ptrdiff_t *cell_offset, size_t *cell_end) {
    return check_record(p, n, members, capacity, count, cell_offset, cell_end);
}
