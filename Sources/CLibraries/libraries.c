/* The shared libraries cellkit opens when a path first needs one (cellkit_libraries.h). */
#define _GNU_SOURCE
#include "cellkit_libraries.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the table of libraries ---------------------------------------------------------------- */

#define MAX_SYMBOLS 8

/* A library: the names tried in order (the runtime package's, then the development link that
 * matches the headers this was built with), the package that installs it, the symbols looked
 * up, and once open their addresses or why it failed. */
struct library {
    const char *names[2];
    const char *package;
    const char *symbols[MAX_SYMBOLS];
    void *address[MAX_SYMBOLS];
    pthread_once_t once;
    const char *failure;
    char message[512];
};

enum { FFI_PREP_CIF, FFI_CALL, FFI_VOID, FFI_POINTER, FFI_SINT64, FFI_SINT32, FFI_DOUBLE, FFI_FLOAT, FFI_SYMBOLS };
enum { SECCOMP_API_GET, SECCOMP_RESOLVE_NAME, SECCOMP_RESOLVE_NUM_ARCH, SECCOMP_SYMBOLS };
enum { TINFO_SETUPTERM, TINFO_TIGETSTR, TINFO_TIGETNUM, TINFO_TIPARM, TINFO_SYMBOLS };
_Static_assert(FFI_SYMBOLS <= MAX_SYMBOLS && SECCOMP_SYMBOLS <= MAX_SYMBOLS && TINFO_SYMBOLS <= MAX_SYMBOLS,
               "a library's symbols fit its table");

static struct library libraries[3] = {
    [CK_LIBRARY_FFI] = {{"libffi.so.8", "libffi.so"}, "libffi8 (or libffi-dev)",
                        {"ffi_prep_cif", "ffi_call", "ffi_type_void", "ffi_type_pointer", "ffi_type_sint64",
                         "ffi_type_sint32", "ffi_type_double", "ffi_type_float"},
                        {0}, PTHREAD_ONCE_INIT, NULL, {0}},
    [CK_LIBRARY_SECCOMP] = {{"libseccomp.so.2", "libseccomp.so"}, "libseccomp2 (or libseccomp-dev)",
                            {"seccomp_api_get", "seccomp_syscall_resolve_name", "seccomp_syscall_resolve_num_arch"},
                            {0}, PTHREAD_ONCE_INIT, NULL, {0}},
    [CK_LIBRARY_TINFO] = {{"libtinfo.so.6", "libtinfo.so"}, "libtinfo6 (or libncurses-dev)",
                          {"setupterm", "tigetstr", "tigetnum", "tiparm"},
                          {0}, PTHREAD_ONCE_INIT, NULL, {0}},
};

/* ---- opening one --------------------------------------------------------------------------- */

/* Opens `lib` by the first of its names that opens (`*opened` says which); NULL, with the
 * loader's reason for the first name in `lib`'s message, if none does. */
static void *open_named(struct library *lib, const char **opened) {
    const char *first_reason = NULL;
    char reason[200] = "";
    for (int i = 0; i < 2; i++) {
        void *handle = dlopen(lib->names[i], RTLD_NOW | RTLD_LOCAL);
        if (handle) return *opened = lib->names[i], handle;
        const char *why = dlerror();
        if (!first_reason) snprintf(reason, sizeof reason, "%s", why ? why : "not found"), first_reason = reason;
    }
    snprintf(lib->message, sizeof lib->message, "cannot open %s (%s): install %s", lib->names[0], reason,
             lib->package);
    return NULL;
}

/* Looks up every symbol of `lib` in `handle`, opened as `name`: 0, or -1 naming the first
 * missing in `lib`'s message. */
static int look_up(struct library *lib, void *handle, const char *name) {
    for (int i = 0; i < MAX_SYMBOLS && lib->symbols[i]; i++) {
        lib->address[i] = dlsym(handle, lib->symbols[i]);
        if (lib->address[i]) continue;
        snprintf(lib->message, sizeof lib->message, "%s has no %s: install %s", name, lib->symbols[i], lib->package);
        for (int k = 0; k < i; k++) lib->address[k] = NULL;
        return -1;
    }
    return 0;
}

static void open_library(struct library *lib) {
    const char *name = NULL;
    void *handle = open_named(lib, &name);
    if (!handle) {
        lib->failure = lib->message;
        return;
    }
    if (look_up(lib, handle, name) != 0) lib->failure = lib->message; /* kept open: a second try fails alike */
}

static void open_ffi(void) { open_library(&libraries[CK_LIBRARY_FFI]); }
static void open_seccomp(void) { open_library(&libraries[CK_LIBRARY_SECCOMP]); }
static void open_tinfo(void) { open_library(&libraries[CK_LIBRARY_TINFO]); }

const char *ck_library_load(enum ck_library library) {
    static void (*const openers[3])(void) = {open_ffi, open_seccomp, open_tinfo};
    if ((unsigned)library > CK_LIBRARY_TINFO) return "no such library";
    pthread_once(&libraries[library].once, openers[library]);
    return libraries[library].failure;
}

/* `symbol` of `library`, opened if need be; NULL when the library cannot be opened. */
static void *symbol(enum ck_library library, int symbol) {
    return ck_library_load(library) ? NULL : libraries[library].address[symbol];
}

/* ---- libffi -------------------------------------------------------------------------------- */

ffi_status ck_ffi_prep_cif(ffi_cif *cif, ffi_abi abi, unsigned int count, ffi_type *result, ffi_type **arguments) {
    ffi_status (*prep)(ffi_cif *, ffi_abi, unsigned int, ffi_type *, ffi_type **) = symbol(CK_LIBRARY_FFI, FFI_PREP_CIF);
    return prep ? prep(cif, abi, count, result, arguments) : FFI_BAD_ABI;
}

void ck_ffi_call(ffi_cif *cif, void (*function)(void), void *result, void **arguments) {
    void (*call)(ffi_cif *, void (*)(void), void *, void **) = symbol(CK_LIBRARY_FFI, FFI_CALL);
    if (!call) { /* unreachable: a cif is prepared only once libffi is open; never a silent no-op */
        fprintf(stderr, "cellkit: ffi_call without libffi: %s\n", ck_library_load(CK_LIBRARY_FFI));
        abort();
    }
    call(cif, function, result, arguments);
}

ffi_type *ck_ffi_type_void(void) { return symbol(CK_LIBRARY_FFI, FFI_VOID); }
ffi_type *ck_ffi_type_pointer(void) { return symbol(CK_LIBRARY_FFI, FFI_POINTER); }
ffi_type *ck_ffi_type_sint64(void) { return symbol(CK_LIBRARY_FFI, FFI_SINT64); }
ffi_type *ck_ffi_type_sint32(void) { return symbol(CK_LIBRARY_FFI, FFI_SINT32); }
ffi_type *ck_ffi_type_double(void) { return symbol(CK_LIBRARY_FFI, FFI_DOUBLE); }
ffi_type *ck_ffi_type_float(void) { return symbol(CK_LIBRARY_FFI, FFI_FLOAT); }

/* ---- libseccomp ---------------------------------------------------------------------------- */

int ck_seccomp_api_get(void) {
    unsigned int (*api_get)(void) = symbol(CK_LIBRARY_SECCOMP, SECCOMP_API_GET);
    return api_get ? (int)api_get() : 0;
}

int ck_seccomp_syscall_resolve_name(const char *name) {
    int (*resolve)(const char *) = symbol(CK_LIBRARY_SECCOMP, SECCOMP_RESOLVE_NAME);
    return resolve ? resolve(name) : -1;
}

char *ck_seccomp_syscall_resolve_num_arch(uint32_t arch, int number) {
    char *(*resolve)(uint32_t, int) = symbol(CK_LIBRARY_SECCOMP, SECCOMP_RESOLVE_NUM_ARCH);
    return resolve ? resolve(arch, number) : NULL;
}

/* ---- libtinfo ------------------------------------------------------------------------------ */

int ck_tinfo_setupterm(const char *term, int fd, int *error) {
    int (*setup)(const char *, int, int *) = symbol(CK_LIBRARY_TINFO, TINFO_SETUPTERM);
    return setup ? setup(term, fd, error) : -1;
}

char *ck_tinfo_tigetstr(const char *name) {
    char *(*get)(const char *) = symbol(CK_LIBRARY_TINFO, TINFO_TIGETSTR);
    return get ? get(name) : NULL;
}

int ck_tinfo_tigetnum(const char *name) {
    int (*get)(const char *) = symbol(CK_LIBRARY_TINFO, TINFO_TIGETNUM);
    return get ? get(name) : -2;
}

char *ck_tinfo_tiparm2(const char *capability, int a, int b) {
    char *(*param)(const char *, ...) = symbol(CK_LIBRARY_TINFO, TINFO_TIPARM);
    return param ? param(capability, a, b) : NULL;
}
