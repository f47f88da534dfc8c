/* What the processor takes, asked once: private to CScan (the record count and the JSON Lines
 * check choose their AVX2 loops by it). */
#ifndef CELLKIT_SCAN_CPU_H
#define CELLKIT_SCAN_CPU_H

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define CK_SCAN_X86 1

/* The answer once asked: 1 yes, 2 no, 0 not asked yet. A relaxed atomic: two halves of a file may
 * be counted at once while the read-ahead thread checks records. */
__attribute__((visibility("hidden"))) extern int ck_scan_avx2_known;

/* Asks the processor and the system, and keeps the answer in ck_scan_avx2_known. */
__attribute__((visibility("hidden"))) int ck_scan_ask_avx2(void);

/* Whether the processor and the system take AVX2, and BMI1 (the loops' `blsr` and `tzcnt`):
 * inline, as it is asked once a record. */
static inline int ck_scan_has_avx2(void) {
    int answer = __atomic_load_n(&ck_scan_avx2_known, __ATOMIC_RELAXED);
    return answer ? answer == 1 : ck_scan_ask_avx2();
}
#endif

#endif
