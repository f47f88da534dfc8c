/* Makes Swift's Synchronization.Mutex visible to ThreadSanitizer on Linux.
 *
 * Why: Mutex.withLock is inlined into the caller, so its fast paths (one
 * compare-exchange to lock, one to unlock) are compiled into instrumented
 * code and TSan sees them. Under contention it calls _MutexHandle._lockSlow /
 * _unlockSlow in libswiftSynchronization.so, which is not instrumented: they
 * spin with plain `lock cmpxchg` and then use FUTEX_LOCK_PI / FUTEX_UNLOCK_PI,
 * where the kernel hands the lock word to the waiter. TSan sees no release
 * and no acquire for that hand-over, and reports the data the mutex protects
 * (CellRegistry's state) as raced: a false positive, on most contended runs.
 *
 * What: LD_PRELOADed into the TSan-built cellkit-threadcheck only (see
 * Scripts/sanitizers.sh), this wraps the two slow paths and tells TSan what
 * they did — __tsan_release on the lock word before the slow unlock,
 * __tsan_acquire after the slow lock — on the same address the inlined fast
 * paths use, so every hand-over of the lock is a happens-before edge again.
 * Nothing is suppressed: a real race on data outside the lock still reports.
 *
 * ABI (checked against the 6.3.1 toolchain's disassembly): both are Swift
 * methods whose borrowed `self` (the address of the lock word, an
 * Atomic<UInt32>) travels in the swiftself register (r13 on x86_64, x20 on
 * arm64), which clang's swiftcall + swift_context reproduce; _lockSlow also
 * takes the caller's thread id. Build with clang (gcc has no swiftcall):
 *     clang -shared -fPIC -O2 Scripts/tsan-mutex-shim.c -o tsan-mutex-shim.so -ldl
 * If a toolchain renames these symbols the wrappers are never called and the
 * false positives come back; Scripts/sanitizers.sh checks the names first. */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SWIFTCALL __attribute__((swiftcall))
#define SWIFTSELF __attribute__((swift_context))

/* From the TSan runtime linked into the executable. */
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define TRY_LOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"

typedef SWIFTCALL void (*lock_slow_fn)(uint32_t self_id, SWIFTSELF void *self);
typedef SWIFTCALL _Bool (*try_lock_slow_fn)(SWIFTSELF void *self);
typedef SWIFTCALL void (*unlock_slow_fn)(SWIFTSELF void *self);

static void *real(const char *name) {
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "tsan-mutex-shim: %s not found after this library: is libswiftSynchronization loaded?\n", name);
        abort();
    }
    return f;
}

SWIFTCALL void lock_slow(uint32_t self_id, SWIFTSELF void *self) __asm__(LOCK_SLOW);
SWIFTCALL void lock_slow(uint32_t self_id, SWIFTSELF void *self) {
    static lock_slow_fn next;
    lock_slow_fn f = __atomic_load_n(&next, __ATOMIC_ACQUIRE);
    if (!f) __atomic_store_n(&next, f = (lock_slow_fn)real(LOCK_SLOW), __ATOMIC_RELEASE);
    f(self_id, self);
    __tsan_acquire(self);
}

SWIFTCALL _Bool try_lock_slow(SWIFTSELF void *self) __asm__(TRY_LOCK_SLOW);
SWIFTCALL _Bool try_lock_slow(SWIFTSELF void *self) {
    static try_lock_slow_fn next;
    try_lock_slow_fn f = __atomic_load_n(&next, __ATOMIC_ACQUIRE);
    if (!f) __atomic_store_n(&next, f = (try_lock_slow_fn)real(TRY_LOCK_SLOW), __ATOMIC_RELEASE);
    _Bool locked = f(self);
    if (locked) __tsan_acquire(self);
    return locked;
}

SWIFTCALL void unlock_slow(SWIFTSELF void *self) __asm__(UNLOCK_SLOW);
SWIFTCALL void unlock_slow(SWIFTSELF void *self) {
    static unlock_slow_fn next;
    unlock_slow_fn f = __atomic_load_n(&next, __ATOMIC_ACQUIRE);
    if (!f) __atomic_store_n(&next, f = (unlock_slow_fn)real(UNLOCK_SLOW), __ATOMIC_RELEASE);
    __tsan_release(self);
    f(self);
}
