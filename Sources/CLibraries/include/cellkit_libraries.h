/* The shared libraries cellkit needs on some paths only, opened the first time one is used.
 *
 * libffi (hooks with a declared parameter list), libseccomp (whether the kernel takes a filter,
 * and the names of refused calls) and libtinfo (browse's terminal) are not linked: linked, the
 * loader mapped them at every start and searched them for every symbol the other libraries
 * need, about a tenth of `cellkit --version`'s instructions (BENCHMARKS.md, "Measurements
 * behind the code": CLibraries). Each is opened with dlopen (RTLD_LOCAL), by its runtime name
 * and then its development link, once per process whatever the thread; its functions are
 * called through pointers looked up then.
 *
 * Contracts: `ck_library_load` returns NULL once the library is open, else a message naming the
 * library, why it failed and how to fix it (the message stays valid). A wrapper below whose
 * library cannot be opened fails as its function fails, without calling it. A process that
 * closes itself to the file system (the worker's sandbox) opens what it will need first
 * (`ck_sandbox_enter` opens libffi). The names tried are Debian 12's runtime sonames (libffi.so.8,
 * libseccomp.so.2, libtinfo.so.6), then the development links their -dev packages install. */
#ifndef CELLKIT_LIBRARIES_H
#define CELLKIT_LIBRARIES_H

#include <ffi.h>
#include <stdint.h>

enum ck_library { CK_LIBRARY_FFI = 0, CK_LIBRARY_SECCOMP = 1, CK_LIBRARY_TINFO = 2 };

/* Opens `library` if it is not open: NULL when it is, else why not. */
const char *ck_library_load(enum ck_library library);

/* libffi: ffi_prep_cif (FFI_BAD_ABI when libffi cannot be opened), ffi_call (only after a
 * prepared cif: without libffi it aborts), and the addresses of its built-in types (NULL when
 * it cannot be opened). */
ffi_status ck_ffi_prep_cif(ffi_cif *cif, ffi_abi abi, unsigned int count, ffi_type *result, ffi_type **arguments);
void ck_ffi_call(ffi_cif *cif, void (*function)(void), void *result, void **arguments);
ffi_type *ck_ffi_type_void(void);
ffi_type *ck_ffi_type_pointer(void);
ffi_type *ck_ffi_type_sint64(void);
ffi_type *ck_ffi_type_sint32(void);
ffi_type *ck_ffi_type_double(void);
ffi_type *ck_ffi_type_float(void);

/* libseccomp: seccomp_api_get (0 when it cannot be opened), seccomp_syscall_resolve_name
 * (-1), seccomp_syscall_resolve_num_arch (NULL; free the name it returns). */
int ck_seccomp_api_get(void);
int ck_seccomp_syscall_resolve_name(const char *name);
char *ck_seccomp_syscall_resolve_num_arch(uint32_t arch, int number);

/* libtinfo: setupterm (-1 when it cannot be opened), tigetstr (NULL), tigetnum (-2, "absent"),
 * tiparm with two numbers (NULL). */
int ck_tinfo_setupterm(const char *term, int fd, int *error);
char *ck_tinfo_tigetstr(const char *name);
int ck_tinfo_tigetnum(const char *name);
char *ck_tinfo_tiparm2(const char *capability, int a, int b);

#endif
