#define _GNU_SOURCE
#include "cellkit_process.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <ucontext.h>

volatile int ck_process_hook_flags = 0;
static void (*volatile hook_check)(void) = 0;

void ck_process_check_after_hooks(void (*check)(void)) {
    hook_check = check;
    ck_process_hook_flags |= 2;
}

void ck_process_run_hook_check(void) {
    void (*check)(void) = hook_check;
    if (check && (ck_process_hook_flags & 2)) check();
}

static void forked_child(void) {
    ck_process_hook_flags |= 1;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
}

static void ck_process_register_fork_handler(void) { pthread_atfork(0, 0, forked_child); }

void ck_process_watch_forks(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, ck_process_register_fork_handler);
}

uintptr_t ck_process_stack_pointer(const void *ucontext) {
    const ucontext_t *context = ucontext;
    if (!context) return 0;
#if defined(__x86_64__)
    return (uintptr_t)context->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
    return (uintptr_t)context->uc_mcontext.sp;
#else
    return 0;
#endif
}

int ck_process_parent_death_signal(int signal) { return prctl(PR_SET_PDEATHSIG, signal); }

int ck_process_child_subreaper(int on) { return prctl(PR_SET_CHILD_SUBREAPER, on ? 1 : 0); }

uintptr_t ck_process_fault_address(const void *ucontext) {
    const ucontext_t *context = ucontext;
    if (!context) return 0;
#if defined(__x86_64__)
    return (uintptr_t)context->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uintptr_t)context->uc_mcontext.pc;
#else
    return 0;
#endif
}

struct range_search {
    uintptr_t base, start, end;
    int found;
};

static int range_of_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct range_search *search = data;
    if (info->dlpi_addr != search->base) return 0;
    uintptr_t low = UINTPTR_MAX, high = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_LOAD) continue;
        uintptr_t start = info->dlpi_addr + segment->p_vaddr;
        if (start < low) low = start;
        if (start + segment->p_memsz > high) high = start + segment->p_memsz;
    }
    if (low >= high) return 0;
    search->start = low;
    search->end = high;
    search->found = 1;
    return 1;
}

int ck_process_object_range(const void *address, uintptr_t *start, uintptr_t *end) {
    Dl_info info;
    if (!dladdr(address, &info) || !info.dli_fbase) return -1;
    struct link_map *map = 0;
    /* dli_fbase is where the object is mapped; dl_iterate_phdr names objects by their load bias. */
    if (dladdr1(address, &info, (void **)&map, RTLD_DL_LINKMAP) && map) {
        struct range_search search = {(uintptr_t)map->l_addr, 0, 0, 0};
        dl_iterate_phdr(range_of_object, &search);
        if (search.found) {
            *start = search.start;
            *end = search.end;
            return 0;
        }
    }
    return -1;
}

int ck_process_spawn_close_from(posix_spawn_file_actions_t *actions, int low) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return posix_spawn_file_actions_addclosefrom_np(actions, low);
#else
    (void)actions;
    (void)low;
    return ENOSYS;
#endif
}

int ck_process_close_range(unsigned low, unsigned high) {
    if (low > high) return 0;
#ifdef SYS_close_range
    if (syscall(SYS_close_range, low, high, 0) == 0) return 0;
#endif
    for (unsigned fd = low; fd <= high && fd < 65536; fd++) close((int)fd);
    return 0;
}

int ck_process_close_from(int low) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)low, ~0U, 0) == 0) return 0;
#endif
    /* Linux before 5.9: read the open descriptors without malloc (getdents64 into the stack). */
    int folder = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder < 0) return -1;
    char buffer[4096];
    int closed;
    do { /* a folder changed while listed may skip entries: list again until nothing is left */
        closed = 0;
        lseek(folder, 0, SEEK_SET);
        long n;
        while ((n = syscall(SYS_getdents64, folder, buffer, sizeof buffer)) > 0) {
            for (long at = 0; at < n;) {
                struct dirent64 *entry = (struct dirent64 *)(buffer + at);
                int fd = atoi(entry->d_name);
                if (fd >= low && fd != folder && entry->d_name[0] != '.' && close(fd) == 0) closed = 1;
                at += entry->d_reclen;
            }
        }
    } while (closed);
    close(folder);
    return 0;
}
