/* Byte scans in C, for the row path's hottest loops:
 * - how many leading bytes of a text need no escape (the output formats) or no look of their own
 *   (the JSON Lines check), sixteen bytes at a time (SSE2 on x86-64, which every x86-64 processor
 *   has; a byte at a time elsewhere): Swift's SIMD types compile these compares to a loop over the
 *   lanes, slower than the eight-byte word tests they replace (BENCHMARKS.md, "Measurements behind
 *   the code": CScan);
 * - a JSON Lines record checked and indexed in one pass (json_check.c), a data file's records
 *   counted (record_count.c), printable ASCII broken into lines (ascii_lines.c).
 * Pure functions of their arguments, no allocation; the one state is the answer, asked once, of
 * whether the processor takes AVX2 (record_count.c). */
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

/* What ck_json_check_record answers. */
enum {
    CK_JSON_DECIDE_IN_SWIFT = 0, /* not taken: the Swift parser checks the record (and says what is wrong) */
    CK_JSON_CHECKED = 1,         /* well-formed: *count offsets written, *cell_offset set */
    CK_JSON_NEEDS_ROOM = 2       /* well-formed so far, with more members than `capacity` holds */
};

/* The flags on a member's value end, as JSONValueParser's plainFlag, cleanFlag and asciiFlag. */
#define CK_JSON_PLAIN_FLAG 0x80000000u
#define CK_JSON_CLEAN_FLAG 0x40000000u
#define CK_JSON_ASCII_FLAG 0x20000000u

/* Checks p[0..<n] as one JSON Lines record (a JSON object) in one pass, as
 * JSONValueParser.check(members:) does, writing four offsets per top-level member but "cell"
 * (its quoted key's start and end, its value's start and end with the flags above) to
 * members[0..<capacity] and their number to *count, where the last "cell" member's value
 * starts to *cell_offset (-1 when there is none) and where it ends, with its flags, to *cell_end
 * (0 when there is none). Takes only what that check takes, with the same
 * offsets; anything it does not take whole (an error, a top-level key with an escape, a number
 * outside JSON's strict grammar or beyond 40 digits or an exponent of 250, a line of 2^29 bytes or
 * more) is CK_JSON_DECIDE_IN_SWIFT. No allocation; recursion at most 64 levels deep. */
int ck_json_check_record(const uint8_t *p, size_t n, uint32_t *members, size_t capacity, size_t *count,
                         ptrdiff_t *cell_offset, size_t *cell_end);

/* 1 when this processor takes CScan's AVX2 loops (the record count's and the JSON Lines check's),
 * 0 when they are left out: what the tests holding each to its portable twin ask first. */
int ck_scan_avx2(void);

/* ck_json_check_record as it checks without AVX2, whatever the processor: the tests hold the two
 * to each other on the same records. */
int ck_json_check_record_portable(const uint8_t *p, size_t n, uint32_t *members, size_t capacity, size_t *count,
                                  ptrdiff_t *cell_offset, size_t *cell_end);

/* LineBreakMode's raw values, as ck_ascii_lines takes them. */
enum {
    CK_ASCII_WORD_WRAP = 0,
    CK_ASCII_CHAR_WRAP = 1,
    CK_ASCII_CLIP = 2,
    CK_ASCII_TRUNCATE_HEAD = 3,
    CK_ASCII_TRUNCATE_TAIL = 4,
    CK_ASCII_TRUNCATE_MIDDLE = 5
};

/* The lines TextLayout.lineRanges breaks p[0..<n] into, when every byte is printable ASCII (a
 * column a byte): at most max_lines lines of `width` columns in `mode`, written to out as three
 * UInt32s a line (its start, its end without trailing spaces, its columns), their number to
 * *count. out has room for min(max_lines, n) lines. Returns 1 when the lines show the whole text,
 * 0 when a truncating mode would end them with an ellipsis (the lines written so far are kept in
 * *count, as lineRanges gives them before it answers false). Offsets below 2^32. */
int ck_ascii_lines(const uint8_t *p, size_t n, size_t width, size_t max_lines, int mode, uint32_t *out,
                   size_t *count);

/* The records of p[0..<n] that end with `line_end`, at most `limit`: their number to *records, and
 * to *rows how many hold a byte other than a space, a tab or a CR (a blank line is no row).
 * Returns where counting stopped: just past the last record counted's line end (0 when none was). */
size_t ck_count_records(const uint8_t *p, size_t n, uint8_t line_end, size_t limit, size_t *records,
                        size_t *rows);

/* ck_count_records as it counts without AVX2 (a memchr a record), whatever the processor: the
 * tests hold the two to each other on the same bytes. */
size_t ck_count_records_bytewise(const uint8_t *p, size_t n, uint8_t line_end, size_t limit, size_t *records,
                                 size_t *rows);

#endif
