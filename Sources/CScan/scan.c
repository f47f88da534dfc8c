#include "cellkit_scan.h"
#include "json_string.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline int html_special(uint8_t b) {
    return b < 0x20 || b == 0x22 || b == 0x26 || b == 0x27 || b == 0x3C || b == 0x3E || b == 0x7F || b == 0xC2;
}

static inline int json_clean_special(uint8_t b) { return b == 0x22 || b == 0x5C || b == 0xE2; }

#if defined(__SSE2__)
/* A bit per byte of `v` that html_special takes. */
static inline unsigned html_mask(__m128i v) {
    __m128i m = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v); /* v <= 0x1F */
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x22)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x26)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x27)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x3C)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x3E)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8((char)0xC2)));
    return (unsigned)_mm_movemask_epi8(m);
}

/* A bit per byte of `v` that json_clean_special takes. */
static inline unsigned json_clean_mask(__m128i v) {
    __m128i m = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x22));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x5C)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8((char)0xE2)));
    return (unsigned)_mm_movemask_epi8(m);
}

#endif

/* The number of leading bytes of p[0..<n] for which `special` is false: blocks of sixteen tested
 * by `mask` (a bit per byte `special` takes), then the tail as the last sixteen bytes with those
 * already tested shifted out; a byte at a time without SSE2 or under sixteen bytes. Inlined into
 * each scan below with its own functions. */
static inline size_t scan(const uint8_t *p, size_t n, int (*special)(uint8_t)
#if defined(__SSE2__)
                          , unsigned (*mask)(__m128i)
#endif
) {
    size_t i = 0;
#if defined(__SSE2__)
    for (; i + 16 <= n; i += 16) {
        unsigned m = mask(_mm_loadu_si128((const __m128i *)(const void *)(p + i)));
        if (m) return i + (size_t)__builtin_ctz(m);
    }
    if (i < n && n >= 16) {
        unsigned m = mask(_mm_loadu_si128((const __m128i *)(const void *)(p + n - 16))) >> (i - (n - 16));
        return m ? i + (size_t)__builtin_ctz(m) : n;
    }
#endif
    while (i < n && !special(p[i])) i++;
    return i;
}

#if defined(__SSE2__)
#define MASK(f) , f
#else
#define MASK(f)
#endif

size_t ck_scan_html_plain(const uint8_t *p, size_t n) { return scan(p, n, html_special MASK(html_mask)); }

size_t ck_scan_json_clean_plain(const uint8_t *p, size_t n) {
    return scan(p, n, json_clean_special MASK(json_clean_mask));
}

size_t ck_scan_json_string_ascii(const uint8_t *p, size_t n) {
    return scan(p, n, json_string_special MASK(json_string_mask));
}
