/* The processor's features, asked once (cpu.h). */
#include "cellkit_scan.h"
#include "cpu.h"

int ck_scan_avx2(void) {
#if CK_SCAN_X86
    return ck_scan_has_avx2();
#else
    return 0;
#endif
}

#if CK_SCAN_X86
#include <cpuid.h>
#include <stddef.h>

int ck_scan_avx2_known;

int ck_scan_ask_avx2(void) {
    unsigned a, b, c, d, lo, hi;
    int answer = 2;
    if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE) && (c & bit_AVX)) {
        __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0)); /* the system saves the YMM registers */
        if ((lo & 6) == 6 && __get_cpuid_max(0, NULL) >= 7) {
            __cpuid_count(7, 0, a, b, c, d);
            if ((b & bit_AVX2) && (b & bit_BMI)) answer = 1;
        }
    }
    __atomic_store_n(&ck_scan_avx2_known, answer, __ATOMIC_RELAXED);
    return answer == 1;
}
#endif
