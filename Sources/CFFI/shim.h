/* libffi, from Debian's libffi-dev (apt-get install libffi-dev). */
#include <ffi.h>

/* libffi's built-in types are mutable C globals; Swift 6 refuses to touch
 * those from nonisolated code, so hand out their addresses through functions. */
static inline ffi_type *cellkit_ffi_void(void) { return &ffi_type_void; }
static inline ffi_type *cellkit_ffi_pointer(void) { return &ffi_type_pointer; }
static inline ffi_type *cellkit_ffi_sint64(void) { return &ffi_type_sint64; }
static inline ffi_type *cellkit_ffi_sint32(void) { return &ffi_type_sint32; }
static inline ffi_type *cellkit_ffi_double(void) { return &ffi_type_double; }
static inline ffi_type *cellkit_ffi_float(void) { return &ffi_type_float; }
