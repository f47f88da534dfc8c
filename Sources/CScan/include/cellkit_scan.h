/* Byte scans for the output formats and the JSON Lines check: how many leading bytes of a text
 * need no escape (or no look of their own), sixteen bytes at a time (SSE2 on x86-64, which every
 * x86-64 processor has; a byte at a time elsewhere).
 * Swift's SIMD types compile these compares to a loop over the lanes, slower than the eight-byte
 * word tests they replace (BENCHMARKS.md, "Measurements behind the code": CScan). Pure functions
 * of their arguments: no state, no allocation. */
#ifndef CELLKIT_SCAN_H
#define CELLKIT_SCAN_H

#include <stddef.h>
#include <stdint.h>

/* The number of leading bytes of p[0..<n] that HTML text takes as they are: none of the C0
 * controls, `" & ' < >`, DEL or 0xC2 (which may start a C1 control). n when all are. */
size_t ck_scan_html_plain(const uint8_t *p, size_t n);

/* The number of leading bytes of p[0..<n] that a JSON string of clean text (no control, DEL or
 * hidden scalar) takes as they are: none of `"`, `\` or 0xE2 (which may start U+2028 or
 * U+2029). n when all are. */
size_t ck_scan_json_clean_plain(const uint8_t *p, size_t n);

/* The number of leading bytes of p[0..<n] that are printable ASCII a JSON string's body takes as
 * they are: none of `"`, `\`, a control byte (below 0x20), DEL or a byte of 0x80 and above. n when
 * all are. What the JSON Lines check passes over before it looks at a byte on its own. */
size_t ck_scan_json_string_ascii(const uint8_t *p, size_t n);

#endif
