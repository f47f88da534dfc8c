/* A data file's rows counted before the first is drawn: the whole records in a buffer, blank ones
 * (spaces, tabs and CRs only) left out, as RowStream's record by record count finds them. In C
 * because each record read through the stream's general reader cost about twice the instructions
 * of the memchr that finds its end (BENCHMARKS.md, "Measurements behind the code":
 * RowStream.countInC). With AVX2, the line ends are found 128 bytes a step in one loop, not by a
 * memchr a record: the call's set-up on each ~200-byte record was most of the count
 * (BENCHMARKS.md, "Measurements behind the code": RowStream.countAVX2). */
#include "cellkit_scan.h"
#include "cpu.h"

#include <string.h>

#if CK_SCAN_X86
#include <immintrin.h>
#define CK_COUNT_AVX2 1
#endif

static inline int blank_byte(uint8_t b) { return b == ' ' || b == '\t' || b == '\r'; }

/* Whether the record p[at..<end) is a row: a byte in it other than a space, a tab or a CR. */
static inline int has_filled_byte(const uint8_t *p, size_t at, size_t end) {
    for (size_t k = at; k < end; k++)
        if (!blank_byte(p[k])) return 1;
    return 0;
}

/* has_filled_byte with its usual answer first: a record whose last byte is above the space (nearly
 * every one ends in `}` or a value) is a row. (Inline: a call spilled the AVX2 count's registers.) */
static inline int is_row(const uint8_t *p, size_t at, size_t end) {
    return __builtin_expect(end > at && p[end - 1] > 0x20, 1) || has_filled_byte(p, at, end);
}

/* The count from `*at` (where the record being counted starts), each line end found with memchr
 * from `from` on (at or past `*at`; no line end between). */
static size_t count_scalar(const uint8_t *p, size_t n, uint8_t line_end, size_t limit, size_t from, size_t at,
                           size_t *records, size_t *rows) {
    size_t counted = *records, filled = *rows;
    while (counted < limit && from < n) {
        const uint8_t *found = memchr(p + from, line_end, n - from);
        if (found == NULL) break;
        size_t end = (size_t)(found - p);
        filled += is_row(p, at, end);
        counted++;
        at = from = end + 1;
    }
    *records = counted, *rows = filled;
    return at;
}

#if CK_COUNT_AVX2
/* The 64 bits of a line-end mask for p[0..<64] and p[64..<128]'s one, from their four 32-byte halves. */
#define CK_MASK64(lo, hi) ((uint64_t)(uint32_t)_mm256_movemask_epi8(lo) | (uint64_t)_mm256_movemask_epi8(hi) << 32)

/* The count with the line ends found 128 bytes a step, each block's line ends then taken in order
 * from its bit masks; the last bytes (under 128) by count_scalar. */
__attribute__((target("avx2,bmi"))) static size_t count_avx2(const uint8_t *p, size_t n, uint8_t line_end,
                                                              size_t limit, size_t *records, size_t *rows) {
    const __m256i end_byte = _mm256_set1_epi8((char)line_end);
    size_t at = 0, i = 0, counted = 0, filled = 0;
    if (limit == 0) goto done;
    for (; i + 128 <= n; i += 128) {
        const __m256i *q = (const __m256i *)(const void *)(p + i);
        __m256i a = _mm256_cmpeq_epi8(_mm256_loadu_si256(q), end_byte);
        __m256i b = _mm256_cmpeq_epi8(_mm256_loadu_si256(q + 1), end_byte);
        __m256i c = _mm256_cmpeq_epi8(_mm256_loadu_si256(q + 2), end_byte);
        __m256i d = _mm256_cmpeq_epi8(_mm256_loadu_si256(q + 3), end_byte);
        __m256i any = _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d));
        if (_mm256_testz_si256(any, any)) continue;
        uint64_t masks[2] = {CK_MASK64(a, b), CK_MASK64(c, d)};
        for (size_t half = 0; half < 2; half++) {
            for (uint64_t mask = masks[half]; mask; mask &= mask - 1) {
                size_t end = i + half * 64 + (size_t)__builtin_ctzll(mask);
                filled += is_row(p, at, end);
                at = end + 1;
                if (++counted == limit) goto done;
            }
        }
    }
done:
    *records = counted, *rows = filled;
    return count_scalar(p, n, line_end, limit, i > at ? i : at, at, records, rows);
}
#endif

size_t ck_count_records(const uint8_t *p, size_t n, uint8_t line_end, size_t limit, size_t *records,
                        size_t *rows) {
#if CK_COUNT_AVX2
    if (n >= 128 && ck_scan_has_avx2()) return count_avx2(p, n, line_end, limit, records, rows);
#endif
    return ck_count_records_bytewise(p, n, line_end, limit, records, rows);
}

size_t ck_count_records_bytewise(const uint8_t *p, size_t n, uint8_t line_end, size_t limit, size_t *records,
                                 size_t *rows) {
    *records = 0, *rows = 0;
    return count_scalar(p, n, line_end, limit, 0, 0, records, rows);
}
