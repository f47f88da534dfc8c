/* The bytes a JSON string's body takes as they are, printable ASCII but `"` and `\\`: one test, a
 * byte at a time and sixteen at a time, shared by the scan (scan.c) and the JSON Lines check
 * (json_check.c). Private to CScan. */
#ifndef CELLKIT_JSON_STRING_H
#define CELLKIT_JSON_STRING_H

#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Whether byte `b` ends a string body's plain ASCII run: `"`, `\\`, a control byte, DEL or a byte
 * of 0x80 and above. */
static inline int json_string_special(uint8_t b) { return b < 0x20 || b >= 0x7F || b == 0x22 || b == 0x5C; }

#if defined(__SSE2__)
/* A bit per byte of `v` that json_string_special takes. */
static inline unsigned json_string_mask(__m128i v) {
    __m128i m = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v); /* v <= 0x1F */
    m = _mm_or_si128(m, _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x7F)), v)); /* v >= 0x7F */
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x22)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x5C)));
    return (unsigned)_mm_movemask_epi8(m);
}
#endif

#endif
