#define _GNU_SOURCE
#include "cellkit_sandbox.h"
#include "cellkit_process.h"
#include "cellkit_libraries.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#else
#error "CellKit's sandbox knows x86_64 and aarch64"
#endif

/* The OS layer's contracts, stated once:
 * - unshare(CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWIPC) moves the caller itself, which stays the
 *   process it was. No PID namespace: a process that unshared one can no longer start threads
 *   (clone(CLONE_THREAD) fails with EINVAL), and moving into one takes a new process, whose thread
 *   ids no longer match what the Swift runtime holds (its Mutex unlocks then trap). The filter
 *   refuses every new process instead, and the supervisor ends what is left (SECURITY.md).
 * - unshare(CLONE_NEWUSER) needs a single-threaded caller; the new namespace maps only the
 *   caller's own ids (an unprivileged process can map no others), so files of other owners,
 *   root's included, read as the overflow uid inside: trust is decided before (DecidedTrust).
 * - Landlock and seccomp filters are inherited, and a process can only add to them, never remove.
 *   The listener is forked before either, so it has neither.
 * - A seccomp listener descriptor answers the filter's calls wherever it is; the worker hands it
 *   to the listener and closes its own before any plugin code runs. The filter lets the worker
 *   signal only itself, and Landlock (ABI 6) scopes signals too: the listener cannot be stopped.
 * - Yama (ptrace_scope 1) lets only ancestors read a process's memory: the worker names its
 *   listener with PR_SET_PTRACER, so that the listener can read a watched call's path. */

/* ---- namespaces -------------------------------------------------------------------------- */

static int write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* Maps the caller's own user and group ids to themselves, so that the caller's own files read as
 * before inside the new user namespace. */
static void map_own_ids(uid_t uid, gid_t gid) {
    char line[64];
    write_file("/proc/self/setgroups", "deny");
    snprintf(line, sizeof line, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
    write_file("/proc/self/uid_map", line);
    snprintf(line, sizeof line, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
    write_file("/proc/self/gid_map", line);
}

/* unshare(CLONE_NEWNET | CLONE_NEWIPC), in a user namespace of its own when the caller lacks
 * CAP_SYS_ADMIN; when the kernel refuses both, each is tried alone, and what is missing is added
 * to `*missing`. 0, or -1 with errno when not one could be made. */
static int make_namespaces(int *missing) {
    uid_t uid = geteuid();
    gid_t gid = getegid();
    const int sets[] = {CLONE_NEWNET | CLONE_NEWIPC, CLONE_NEWNET, CLONE_NEWIPC, 0};
    const int lacking[] = {0, CK_SANDBOX_NO_IPC_NAMESPACE, CK_SANDBOX_NO_NETWORK_NAMESPACE,
                           CK_SANDBOX_NO_IPC_NAMESPACE | CK_SANDBOX_NO_NETWORK_NAMESPACE};
    for (int user = 0; user < 2; user++) {
        for (int i = 0; i < 3; i++) {
            if (unshare(sets[i] | (user ? CLONE_NEWUSER : 0)) == 0) {
                *missing |= lacking[i];
                if (user) map_own_ids(uid, gid);
                return 0;
            }
            if (errno == EPERM && !user) break; /* no CAP_SYS_ADMIN: try with a user namespace */
        }
    }
    *missing |= lacking[3];
    return -1;
}

int ck_sandbox_namespaces_here(void) {
    if (unshare(CLONE_NEWNET) == 0) return 1;
    if (errno != EPERM) return 0;
    return unshare(CLONE_NEWNET | CLONE_NEWUSER) == 0;
}

/* Every descriptor closed but those in `keep` (`count` of them, -1 entries ignored). */
static void close_all_but(const int *keep, int count) {
    int sorted[8], n = 0;
    for (int i = 0; i < count && n < 8; i++)
        if (keep[i] >= 0) sorted[n++] = keep[i];
    for (int i = 1; i < n; i++) /* insertion sort: a handful */
        for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
            int t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    unsigned low = 0;
    for (int i = 0; i < n; i++) {
        if ((unsigned)sorted[i] > low) ck_process_close_range(low, (unsigned)sorted[i] - 1);
        low = (unsigned)sorted[i] + 1;
    }
    ck_process_close_range(low, ~0U);
}

/* ---- Landlock ----------------------------------------------------------------------------- */

/* Newer than Debian 12's kernel headers (6.1): defined here by their values in the kernel ABI. */
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
#define CK_LANDLOCK_NET_BIND_TCP (1ULL << 0)
#define CK_LANDLOCK_NET_CONNECT_TCP (1ULL << 1)
#define CK_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define CK_LANDLOCK_SCOPE_SIGNAL (1ULL << 1)

/* struct landlock_ruleset_attr as of ABI 6; older kernels are given the prefix they know. */
struct ck_ruleset_attr {
    uint64_t handled_access_fs, handled_access_net, scoped;
};

int ck_sandbox_landlock_abi(void) {
    long abi = syscall(SYS_landlock_create_ruleset, 0, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi < 0 ? 0 : (int)abi;
}

static uint64_t handled_fs(int abi) {
    uint64_t all = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1; /* ABI 1: bits 0-12 */
    if (abi >= 2) all |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3) all |= LANDLOCK_ACCESS_FS_TRUNCATE;
    if (abi >= 5) all |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
    return all;
}

static void add_rule(int ruleset, const char *path, uint64_t file_access, uint64_t folder_access) {
    struct landlock_path_beneath_attr rule = {0};
    rule.parent_fd = open(path, O_PATH | O_CLOEXEC);
    if (rule.parent_fd < 0) return;
    struct stat info;
    int folder = fstat(rule.parent_fd, &info) == 0 && S_ISDIR(info.st_mode);
    rule.allowed_access = folder ? folder_access : file_access;
    syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    close(rule.parent_fd);
}

/* What Landlock lets the worker read, resolved (realpath), for naming a refused open in check:
 * kept in the process before it forks, so that the listener has it too. */
#define READABLE_MAX 4096
static char *readable[READABLE_MAX];
static int readable_count = 0;

static const char *const devices[] = {"/proc/self", "/dev/urandom", "/dev/random", "/dev/zero", "/dev/null"};

static void keep(const char *path) {
    if (readable_count < READABLE_MAX) readable[readable_count++] = strdup(path);
}

/* A path of the plan as the worker sees it: its /proc/self, not the listener's. */
static const char *as_worker(const char *path, char *buffer, size_t size) {
    if (strcmp(path, "/proc/self") != 0) return path;
    snprintf(buffer, size, "/proc/%d", (int)getppid());
    return buffer;
}

/* In the listener, at once: what the worker may read, as the plan names it. Most opens are judged
 * against these names, with no path resolved. */
static void keep_named(const struct ck_sandbox_plan *plan) {
    char buffer[32];
    readable_count = 0;
    for (int i = 0; i < plan->readable_count; i++)
        if (plan->readable[i][0] == '/') keep(plan->readable[i]);
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++) keep(as_worker(devices[i], buffer, sizeof buffer));
}

/* In the listener, on the first open the names do not settle (a few hundred readlinks, never on
 * the worker's start): the same paths resolved (realpath), /lib as /usr/lib. */
static const struct ck_sandbox_plan *unresolved;

static void keep_resolved(void) {
    if (!unresolved) return;
    char buffer[32], resolved[PATH_MAX];
    for (int i = 0; i < unresolved->readable_count; i++)
        if (realpath(unresolved->readable[i], resolved)) keep(resolved);
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++)
        if (realpath(as_worker(devices[i], buffer, sizeof buffer), resolved)) keep(resolved);
    unresolved = 0;
}

/* Restricts this process, for good, to reading the plan's paths and the devices above: no writes
 * anywhere but /dev/null, no TCP (ABI 4), no signals out and no abstract sockets (ABI 6). */
static int restrict_files(const struct ck_sandbox_plan *plan) {
    int abi = ck_sandbox_landlock_abi();
    if (abi < 1) {
        errno = EOPNOTSUPP;
        return -1;
    }
    struct ck_ruleset_attr attr = {handled_fs(abi), 0, 0};
    size_t size = sizeof attr.handled_access_fs;
    if (abi >= 4) {
        attr.handled_access_net = CK_LANDLOCK_NET_BIND_TCP | CK_LANDLOCK_NET_CONNECT_TCP;
        size += sizeof attr.handled_access_net;
    }
    if (abi >= 6) {
        attr.scoped = CK_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | CK_LANDLOCK_SCOPE_SIGNAL;
        size += sizeof attr.scoped;
    }
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
    if (ruleset < 0) return -1;
    const uint64_t read_file = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_EXECUTE;
    for (int i = 0; i < plan->readable_count; i++)
        add_rule(ruleset, plan->readable[i], read_file, read_file | LANDLOCK_ACCESS_FS_READ_DIR);
    add_rule(ruleset, "/proc/self", 0, LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR);
    add_rule(ruleset, "/dev/urandom", LANDLOCK_ACCESS_FS_READ_FILE, 0);
    add_rule(ruleset, "/dev/random", LANDLOCK_ACCESS_FS_READ_FILE, 0);
    add_rule(ruleset, "/dev/zero", LANDLOCK_ACCESS_FS_READ_FILE, 0);
    add_rule(ruleset, "/dev/null", LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE, 0);
    int failed = syscall(SYS_landlock_restrict_self, ruleset, 0) != 0;
    int saved = errno;
    close(ruleset);
    errno = saved;
    return failed ? -1 : abi;
}

/* ---- capabilities and limits -------------------------------------------------------------- */

/* Every capability gone for good: the bounding set, the ambient set, and the effective,
 * permitted and inheritable sets (as root, and inside a user namespace, where the worker held
 * them all). 0, or -1 when one could not be dropped. */
static int drop_capabilities(void) {
    int failed = 0;
    for (int cap = 0; cap <= 63; cap++) {
        if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) < 0) break; /* past the kernel's last */
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0) failed = 1;
    }
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capset, &header, data) != 0) failed = 1;
    return failed ? -1 : 0;
}

static void limit(int resource, uint64_t value) {
    if (value == 0) return;
    struct rlimit bound = {(rlim_t)value, (rlim_t)value};
    setrlimit(resource, &bound);
}

/* ---- seccomp: the allowlist --------------------------------------------------------------- */

/* The calls a worker may make, each with why. Measured by Scripts/sandbox-calls.sh (every bundled
 * table in every format, check, browse, the C++ and Swift example plugins, and a plugin doing the
 * ordinary work of one: threads, sleeps, its own files, big allocations, Dispatch's pool), plus
 * the few the C library makes on paths the measure did not take, marked "(C library)". Anything
 * else reaches the listener, which refuses it (EPERM; ENOSYS for a number libseccomp does not
 * know, so that the C library falls back) and names it. Calls whose arguments matter are allowed
 * in emit_by_argument(). A name this architecture lacks (open on aarch64) is skipped. */
static const struct {
    int number;
    const char *name, *why;
} allowed[] = {
    {SCMP_SYS(read), "read", "read files and pipes"},
    {SCMP_SYS(write), "write", "write output (to the listener's pipe) and files it may write"},
    {SCMP_SYS(readv), "readv", "read files (C++ streams)"},
    {SCMP_SYS(writev), "writev", "write output (C++ streams, the C library's stdio)"},
    {SCMP_SYS(pread64), "pread64", "read at an offset (the loader reads a library's headers)"},
    {SCMP_SYS(pwrite64), "pwrite64", "write at an offset (C library)"},
    {SCMP_SYS(preadv), "preadv", "read at an offset (C library)"},
    {SCMP_SYS(pwritev), "pwritev", "write at an offset (C library)"},
    {SCMP_SYS(lseek), "lseek", "seek in a file (C++ streams)"},
    {SCMP_SYS(open), "open", "open a file: Landlock decides which"},
    {SCMP_SYS(openat), "openat", "open a file: Landlock decides which"},
    {SCMP_SYS(close), "close", "close a descriptor"},
    {SCMP_SYS(close_range), "close_range", "close descriptors at once (the C library's closefrom)"},
    {SCMP_SYS(stat), "stat", "a file's status (C library)"},
    {SCMP_SYS(lstat), "lstat", "a link's status (C library)"},
    {SCMP_SYS(fstat), "fstat", "an open file's status (C library)"},
    {SCMP_SYS(newfstatat), "newfstatat", "a file's status (the host's file checks, the loader)"},
    {SCMP_SYS(statx), "statx", "a file's status (newer C libraries)"},
    {SCMP_SYS(access), "access", "whether a file may be read (C library)"},
    {SCMP_SYS(faccessat), "faccessat", "whether a file may be read (C library)"},
    {SCMP_SYS(faccessat2), "faccessat2", "whether a file may be read (C library)"},
    {SCMP_SYS(readlink), "readlink", "a link's target (the loader, realpath)"},
    {SCMP_SYS(readlinkat), "readlinkat", "a link's target (C library)"},
    {SCMP_SYS(getdents64), "getdents64", "list a folder (a plugin's own folder, std::filesystem)"},
    {SCMP_SYS(getcwd), "getcwd", "the working folder (C library)"},
    {SCMP_SYS(statfs), "statfs", "a file system's kind (C library)"},
    {SCMP_SYS(fstatfs), "fstatfs", "a file system's kind (C library)"},
    {SCMP_SYS(dup), "dup", "copy a descriptor"},
    {SCMP_SYS(dup2), "dup2", "copy a descriptor"},
    {SCMP_SYS(dup3), "dup3", "copy a descriptor"},
    {SCMP_SYS(pipe), "pipe", "a pipe inside the worker"},
    {SCMP_SYS(pipe2), "pipe2", "a pipe inside the worker"},
    {SCMP_SYS(flock), "flock", "lock a file it opened"},
    {SCMP_SYS(fsync), "fsync", "flush a file it writes"},
    {SCMP_SYS(fdatasync), "fdatasync", "flush a file it writes"},
    {SCMP_SYS(ftruncate), "ftruncate", "size a file it writes (Landlock decides which)"},
    {SCMP_SYS(brk), "brk", "grow the heap"},
    {SCMP_SYS(mmap), "mmap", "map memory and libraries"},
    {SCMP_SYS(munmap), "munmap", "unmap memory (big allocations, dlclose)"},
    {SCMP_SYS(mremap), "mremap", "grow a mapping (realloc)"},
    {SCMP_SYS(mprotect), "mprotect", "protect memory (the loader, thread stacks' guard pages)"},
    {SCMP_SYS(madvise), "madvise", "return memory (the allocator, thread exits)"},
    {SCMP_SYS(msync), "msync", "flush a mapping (C library)"},
    {SCMP_SYS(membarrier), "membarrier", "order memory across threads (runtimes)"},
    {SCMP_SYS(futex), "futex", "locks and conditions (the Swift runtime's Mutex, pthreads)"},
    {SCMP_SYS(set_robust_list), "set_robust_list", "a new thread's robust locks"},
    {SCMP_SYS(rseq), "rseq", "a new thread's restartable sequences"},
    {SCMP_SYS(set_tid_address), "set_tid_address", "a new thread's exit word (C library)"},
    {SCMP_SYS(exit), "exit", "end a thread"},
    {SCMP_SYS(exit_group), "exit_group", "end the worker"},
    {SCMP_SYS(gettid), "gettid", "its thread id (the Swift runtime's Mutex)"},
    {SCMP_SYS(getpid), "getpid", "its process id (the host, signals to itself)"},
    {SCMP_SYS(getppid), "getppid", "its parent (the host)"},
    {SCMP_SYS(getuid), "getuid", "its ids (C library)"},
    {SCMP_SYS(geteuid), "geteuid", "its ids (C library)"},
    {SCMP_SYS(getgid), "getgid", "its ids (C library)"},
    {SCMP_SYS(getegid), "getegid", "its ids (C library)"},
    {SCMP_SYS(getresuid), "getresuid", "its ids (C library)"},
    {SCMP_SYS(getresgid), "getresgid", "its ids (C library)"},
    {SCMP_SYS(getgroups), "getgroups", "its ids (C library)"},
    {SCMP_SYS(getpriority), "getpriority", "its priority"},
    {SCMP_SYS(getrusage), "getrusage", "its use of time and memory"},
    {SCMP_SYS(getrlimit), "getrlimit", "its limits (C library)"},
    {SCMP_SYS(times), "times", "its use of time"},
    {SCMP_SYS(uname), "uname", "the system's name (Foundation's ProcessInfo)"},
    {SCMP_SYS(sysinfo), "sysinfo", "the memory size (C library)"},
    {SCMP_SYS(sched_yield), "sched_yield", "yield the processor (spin locks)"},
    {SCMP_SYS(sched_getparam), "sched_getparam", "a thread's scheduling (pthreads)"},
    {SCMP_SYS(sched_getaffinity), "sched_getaffinity",
     "a thread's processors, by its id (pthread_getattr_np, AddressSanitizer, Foundation): read only"},
    {SCMP_SYS(sched_getscheduler), "sched_getscheduler", "a thread's scheduling (pthreads)"},
    {SCMP_SYS(sched_get_priority_max), "sched_get_priority_max", "scheduling bounds (Dispatch)"},
    {SCMP_SYS(sched_get_priority_min), "sched_get_priority_min", "scheduling bounds (Dispatch)"},
    {SCMP_SYS(rt_sigaction), "rt_sigaction", "install a signal handler"},
    {SCMP_SYS(rt_sigprocmask), "rt_sigprocmask", "mask signals (every new thread)"},
    {SCMP_SYS(rt_sigreturn), "rt_sigreturn", "return from a signal handler"},
    {SCMP_SYS(sigaltstack), "sigaltstack", "a thread's signal stack (the Swift runtime, crash reports)"},
    {SCMP_SYS(restart_syscall), "restart_syscall", "resume a call a signal interrupted"},
    {SCMP_SYS(nanosleep), "nanosleep", "sleep"},
    {SCMP_SYS(clock_nanosleep), "clock_nanosleep", "sleep (std::this_thread::sleep_for)"},
    {SCMP_SYS(clock_gettime), "clock_gettime", "the clock (when not from the vDSO)"},
    {SCMP_SYS(clock_getres), "clock_getres", "the clock's resolution"},
    {SCMP_SYS(gettimeofday), "gettimeofday", "the clock (C library)"},
    {SCMP_SYS(time), "time", "the clock (C library)"},
    {SCMP_SYS(getcpu), "getcpu", "the current processor"},
    {SCMP_SYS(getrandom), "getrandom", "random numbers (std::random_device, Swift's Hasher)"},
    {SCMP_SYS(poll), "poll", "wait for descriptors"},
    {SCMP_SYS(ppoll), "ppoll", "wait for descriptors"},
    {SCMP_SYS(select), "select", "wait for descriptors"},
    {SCMP_SYS(pselect6), "pselect6", "wait for descriptors"},
    {SCMP_SYS(epoll_create1), "epoll_create1", "Dispatch's event loop"},
    {SCMP_SYS(epoll_ctl), "epoll_ctl", "Dispatch's event loop"},
    {SCMP_SYS(epoll_wait), "epoll_wait", "Dispatch's event loop"},
    {SCMP_SYS(epoll_pwait), "epoll_pwait", "Dispatch's event loop"},
    {SCMP_SYS(epoll_pwait2), "epoll_pwait2", "Dispatch's event loop"},
    {SCMP_SYS(eventfd2), "eventfd2", "Dispatch's wake-ups"},
    {SCMP_SYS(timerfd_create), "timerfd_create", "Dispatch's timers"},
    {SCMP_SYS(timerfd_settime), "timerfd_settime", "Dispatch's timers"},
    {SCMP_SYS(timerfd_gettime), "timerfd_gettime", "Dispatch's timers"},
    {SCMP_SYS(arch_prctl), "arch_prctl", "thread-local storage (x86_64)"},
};
#define ALLOWED (sizeof allowed / sizeof allowed[0])

/* Calls refused with a known act, each with what it would have done: named so in the warning.
 * Numbered at compile time, as `allowed` is (libseccomp's header). */
#define REFUSAL(call, act) {SCMP_SYS(call), #call, act}
static const struct {
    int number;
    const char *name, *act;
} refusals[] = {
    REFUSAL(fork, "start a process"),
    REFUSAL(vfork, "start a process"),
    REFUSAL(clone, "start a process"), /* without CLONE_THREAD */
    REFUSAL(execve, "run a program"),
    REFUSAL(execveat, "run a program"),
    REFUSAL(ptrace, "trace a process"),
    REFUSAL(process_vm_readv, "read another process's memory"),
    REFUSAL(process_vm_writev, "write another process's memory"),
    REFUSAL(pidfd_open, "reach another process"),
    REFUSAL(pidfd_getfd, "take another process's descriptor"),
    REFUSAL(kcmp, "compare another process's resources"),
    REFUSAL(socket, "open a socket"),
    REFUSAL(socketpair, "open a socket"),
    REFUSAL(connect, "connect a socket"),
    REFUSAL(sendto, "send over a socket"),
    REFUSAL(sendmsg, "send over a socket"),
    REFUSAL(unshare, "change namespaces"),
    REFUSAL(setns, "change namespaces"),
    REFUSAL(io_uring_setup, "set up io_uring"),
    REFUSAL(bpf, "load a BPF program or map"),
    REFUSAL(perf_event_open, "open a performance counter"),
    REFUSAL(keyctl, "use the kernel's keyrings"),
    REFUSAL(add_key, "use the kernel's keyrings"),
    REFUSAL(request_key, "use the kernel's keyrings"),
    REFUSAL(userfaultfd, "handle page faults in user space"),
    REFUSAL(mount, "mount a file system"),
    REFUSAL(umount2, "mount a file system"),
    REFUSAL(pivot_root, "mount a file system"),
    REFUSAL(fsopen, "mount a file system"),
    REFUSAL(fsmount, "mount a file system"),
    REFUSAL(fsconfig, "mount a file system"),
    REFUSAL(fspick, "mount a file system"),
    REFUSAL(move_mount, "mount a file system"),
    REFUSAL(open_tree, "mount a file system"),
    REFUSAL(mount_setattr, "mount a file system"),
    REFUSAL(chroot, "change the root folder"),
    REFUSAL(init_module, "load a kernel module"),
    REFUSAL(finit_module, "load a kernel module"),
    REFUSAL(delete_module, "unload a kernel module"),
    REFUSAL(kexec_load, "load a new kernel"),
    REFUSAL(kexec_file_load, "load a new kernel"),
    REFUSAL(reboot, "reboot the machine"),
    REFUSAL(swapon, "change swap space"),
    REFUSAL(swapoff, "change swap space"),
    REFUSAL(acct, "turn process accounting on"),
    REFUSAL(quotactl, "change disk quotas"),
    REFUSAL(syslog, "read the kernel's log"),
    REFUSAL(settimeofday, "set the clock"),
    REFUSAL(clock_settime, "set the clock"),
    REFUSAL(clock_adjtime, "set the clock"),
    REFUSAL(adjtimex, "set the clock"),
    REFUSAL(sethostname, "rename the machine"),
    REFUSAL(setdomainname, "rename the machine"),
    REFUSAL(iopl, "reach I/O ports"),
    REFUSAL(ioperm, "reach I/O ports"),
    REFUSAL(open_by_handle_at, "open a file by handle"),
    REFUSAL(name_to_handle_at, "open a file by handle"),
    REFUSAL(fanotify_init, "watch the file system"),
    REFUSAL(mknod, "make a device file"),
    REFUSAL(mknodat, "make a device file"),
    REFUSAL(chmod, "change a file's permissions"),
    REFUSAL(fchmod, "change a file's permissions"),
    REFUSAL(fchmodat, "change a file's permissions"),
#if defined(__NR_fchmodat2) && defined(__SNR_fchmodat2) /* Linux 6.6: newer than some headers */
    REFUSAL(fchmodat2, "change a file's permissions"),
#endif
    REFUSAL(chown, "change a file's owner"),
    REFUSAL(fchown, "change a file's owner"),
    REFUSAL(lchown, "change a file's owner"),
    REFUSAL(fchownat, "change a file's owner"),
    REFUSAL(utime, "change a file's times"),
    REFUSAL(utimes, "change a file's times"),
    REFUSAL(utimensat, "change a file's times"),
    REFUSAL(futimesat, "change a file's times"),
    REFUSAL(setxattr, "change a file's extended attributes"),
    REFUSAL(lsetxattr, "change a file's extended attributes"),
    REFUSAL(fsetxattr, "change a file's extended attributes"),
    REFUSAL(removexattr, "change a file's extended attributes"),
    REFUSAL(lremovexattr, "change a file's extended attributes"),
    REFUSAL(fremovexattr, "change a file's extended attributes"),
    REFUSAL(vhangup, "hang up the terminal"),
    REFUSAL(prctl, "change a process setting"),
    REFUSAL(fcntl, "aim a descriptor's signals at another process"),
    REFUSAL(prlimit64, "change another process's limits"),
};
#define REFUSALS (sizeof refusals / sizeof refusals[0])

static char act_text[REFUSALS][96];
static char outside_text[96];

const char *ck_sandbox_act(long number, uint32_t arch, uint64_t request) {
    if (arch != NATIVE_ARCH && arch != 0)
        return "make a system call of another architecture (i386 or x32)";
#ifdef __x86_64__
    if (number >= 0x40000000) return "make a system call of another architecture (i386 or x32)";
#endif
    if (number == SCMP_SYS(kill) || number == SCMP_SYS(tgkill) || number == SCMP_SYS(tkill) ||
        number == SCMP_SYS(rt_sigqueueinfo) || number == SCMP_SYS(rt_tgsigqueueinfo) ||
        number == SCMP_SYS(pidfd_send_signal))
        return "signal another process (kill)";
    if (number == SCMP_SYS(ioctl)) {
        if ((uint32_t)request == TIOCSTI) return "type into the terminal (ioctl TIOCSTI)";
        if ((uint32_t)request == TIOCLINUX) return "control the console (ioctl TIOCLINUX)";
        return "make an ioctl outside the sandbox's allowlist";
    }
    for (size_t i = 0; i < REFUSALS; i++) {
        if (refusals[i].number != number) continue;
        if (!act_text[i][0]) snprintf(act_text[i], sizeof act_text[i], "%s (%s)", refusals[i].act, refusals[i].name);
        return act_text[i];
    }
    /* Named by libseccomp, opened here (in the listener, outside the sandbox) the first time. */
    char *name = ck_seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, (int)number);
    if (!name && ck_library_load(CK_LIBRARY_SECCOMP)) { /* refused all the same (EPERM), unnamed */
        snprintf(outside_text, sizeof outside_text,
                 "make a system call outside the sandbox's allowlist (number %ld; libseccomp2 names it)", number);
        return outside_text;
    }
    if (!name) return "make a system call unknown to the sandbox";
    snprintf(outside_text, sizeof outside_text, "make a system call outside the sandbox's allowlist (%s)", name);
    free(name);
    return outside_text;
}

int ck_sandbox_no_new_privs(void) { return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0); }

int ck_sandbox_seccomp_mode(void) { return prctl(PR_GET_SECCOMP, 0, 0, 0, 0); }

int ck_sandbox_seccomp_available(void) {
    /* The filter hands refused calls to a listener: the kernel is asked for that action (5.0+)
     * in one call. libseccomp's API level probed nine times and needed the library opened, in
     * every process that printed or checked the sandbox (cellkit --version). */
    uint32_t action = SECCOMP_RET_USER_NOTIF;
    return prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 && syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
}

/* ---- the filter's program ------------------------------------------------------------------ */

/* Written here, not built by libseccomp: libseccomp took a large part of a worker's start to
 * build this filter (its code paged in and its rule database made in a process that has just
 * forked), of the 2.5 ms the whole sandbox may cost (BENCHMARKS.md, "Measurements behind the
 * code": sandbox.filter); writing the program takes far less. libseccomp still names calls
 * (`ck_sandbox_act`). The program: the architecture (any other: the listener), on x86_64 no
 * x32 number, then each call allowed by argument (a block that returns), then each call allowed
 * outright (in groups by number: `emit_allowed`), then the listener. The kernel caches the
 * verdict of a call allowed outright (5.11), so that only the calls checked by argument run the
 * program. Arguments are compared in their low 32 bits, which the kernel reads of an int
 * argument. */

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the filter reads an argument's low 32 bits at its first word: a little-endian layout"
#endif

#define RET_NOTIFY SECCOMP_RET_USER_NOTIF
#define RET_ERRNO(e) (SECCOMP_RET_ERRNO | ((e) & SECCOMP_RET_DATA))

/* One comparison: argument `arg`'s low 32 bits, masked by `mask`, equal `value`. */
struct test {
    unsigned arg;
    uint32_t mask, value;
};

/* A program being written: room for BPF_MAXINSNS instructions; `failed` once it overflowed. */
struct program {
    struct sock_filter code[BPF_MAXINSNS];
    unsigned short length;
    int failed;
};

static void emit(struct program *p, unsigned short code, uint8_t jt, uint8_t jf, uint32_t k) {
    if (p->length == BPF_MAXINSNS) {
        p->failed = 1;
        return;
    }
    p->code[p->length++] = (struct sock_filter)BPF_JUMP(code, k, jt, jf);
}

/* The instructions `test` takes: a load, a mask unless it is all ones, then a jump over `skip`
 * instructions when it fails. */
static void emit_test(struct program *p, struct test t, uint8_t skip) {
    emit(p, BPF_LD | BPF_W | BPF_ABS, 0, 0, (uint32_t)offsetof(struct seccomp_data, args[t.arg]));
    if (t.mask != 0xffffffffu) emit(p, BPF_ALU | BPF_AND | BPF_K, 0, 0, t.mask);
    emit(p, BPF_JMP | BPF_JEQ | BPF_K, 0, skip, t.value);
}

static unsigned short test_length(struct test t) { return t.mask != 0xffffffffu ? 3 : 2; }

/* A call allowed by argument: each of `count` tests that holds returns `action` (with `both`,
 * only when `both` holds too); none holding, the listener. The block is skipped for other
 * calls. */
static void emit_call(struct program *p, int number, const struct test *tests, int count, const struct test *both,
                      uint32_t action) {
    if (number < 0) return; /* not a call of this architecture */
    unsigned length = 1;    /* the last return */
    for (int i = 0; i < count; i++) length += (both ? test_length(*both) : 0) + test_length(tests[i]) + 1;
    if (length > 255) {
        p->failed = 1;
        return;
    }
    emit(p, BPF_JMP | BPF_JEQ | BPF_K, 0, (uint8_t)length, (uint32_t)number);
    for (int i = 0; i < count; i++) {
        if (both) emit_test(p, *both, (uint8_t)(test_length(tests[i]) + 1));
        emit_test(p, tests[i], 1);
        emit(p, BPF_RET | BPF_K, 0, 0, action);
    }
    emit(p, BPF_RET | BPF_K, 0, 0, RET_NOTIFY);
}

/* A call answered `action` whatever its arguments. */
static void emit_outright(struct program *p, int number, uint32_t action) {
    if (number < 0) return;
    emit(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, (uint32_t)number);
    emit(p, BPF_RET | BPF_K, 0, 0, action);
}

/* Tests of argument `arg` against each of `values` (all 32 bits): into `tests`, their count. */
static int equal_to(struct test *tests, unsigned arg, const uint32_t *values, int count) {
    for (int i = 0; i < count; i++) tests[i] = (struct test){arg, 0xffffffffu, values[i]};
    return count;
}

#define COUNT(array) ((int)(sizeof(array) / sizeof((array)[0])))

/* The calls that write to a descriptor: standard output's are watched in check. */
static const int writes[] = {SCMP_SYS(write), SCMP_SYS(writev), SCMP_SYS(pwrite64), SCMP_SYS(pwritev)};

static int is_write_call(int number) {
    for (int i = 0; i < COUNT(writes); i++)
        if (writes[i] == number) return 1;
    return 0;
}

/* The calls allowed only with some arguments. Threads but no process; signals to itself only;
 * the terminal ioctls isatty and friends make, never TIOCSTI; prctl's thread names; fcntl
 * without F_SETOWN/F_SETSIG (which would aim signals at another process); limits of itself;
 * the one sendmsg that hands the listener its descriptor. Watched output (check):
 * writes to standard output go to the listener, which names them; every other descriptor is
 * allowed bit by bit (fd 1 is the only value whose bits 1..31 are clear and bit 0 set). */
static void emit_by_argument(struct program *p, uint32_t self, uint32_t handoff, int watch) {
    struct test tests[32];
    const uint32_t namespaces = CLONE_NEWNS | CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS |
                                CLONE_NEWCGROUP | CLONE_NEWPID;
    tests[0] = (struct test){0, CLONE_THREAD | namespaces, CLONE_THREAD};
    emit_call(p, SCMP_SYS(clone), tests, 1, 0, SECCOMP_RET_ALLOW);
    const int to_self[] = {SCMP_SYS(kill), SCMP_SYS(tgkill), SCMP_SYS(rt_sigqueueinfo), SCMP_SYS(rt_tgsigqueueinfo)};
    for (int i = 0; i < COUNT(to_self); i++)
        emit_call(p, to_self[i], tests, equal_to(tests, 0, &self, 1), 0, SECCOMP_RET_ALLOW);
    const uint32_t ioctls[] = {TCGETS, TIOCGWINSZ, TIOCGPGRP, FIONREAD, FIONBIO, FIOCLEX, FIONCLEX};
    emit_call(p, SCMP_SYS(ioctl), tests, equal_to(tests, 1, ioctls, COUNT(ioctls)), 0, SECCOMP_RET_ALLOW);
    const uint32_t prctls[] = {PR_SET_NAME,         PR_GET_NAME,     PR_GET_DUMPABLE,  PR_GET_SECCOMP,
                               PR_GET_NO_NEW_PRIVS, PR_CAPBSET_READ, PR_GET_TIMERSLACK,
                               0x53564d41 /* PR_SET_VMA: names mappings */};
    emit_call(p, SCMP_SYS(prctl), tests, equal_to(tests, 0, prctls, COUNT(prctls)), 0, SECCOMP_RET_ALLOW);
    const uint32_t fcntls[] = {F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_DUPFD, F_DUPFD_CLOEXEC, F_GETLK, F_SETLK,
                               F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW, F_GETPIPE_SZ, F_ADD_SEALS,
                               F_GET_SEALS};
    emit_call(p, SCMP_SYS(fcntl), tests, equal_to(tests, 1, fcntls, COUNT(fcntls)), 0, SECCOMP_RET_ALLOW);
    const uint32_t itself[] = {0, self}; /* 0 is "the caller"; Foundation passes its own pid */
    emit_call(p, SCMP_SYS(prlimit64), tests, equal_to(tests, 0, itself, 2), 0, SECCOMP_RET_ALLOW);
    emit_call(p, SCMP_SYS(sendmsg), tests, equal_to(tests, 0, &handoff, 1), 0, SECCOMP_RET_ALLOW);
    /* Refused in the kernel without a note: Dispatch raises its pool threads' priority (refused
     * as for any process without CAP_SYS_NICE) and then calls syslog(), whose AF_UNIX datagram
     * socket is refused quietly; a note would warn on every Swift plugin that uses concurrency. */
    emit_outright(p, SCMP_SYS(setpriority), RET_ERRNO(EACCES));
    const struct test unix_socket = {0, 0xffffffffu, AF_UNIX};
    tests[0] = (struct test){1, 0xf, SOCK_DGRAM};
    emit_call(p, SCMP_SYS(socket), tests, 1, &unix_socket, RET_ERRNO(EPERM));
    /* Threads are made with clone: clone3's flags sit in memory a filter cannot read. */
    emit_outright(p, SCMP_SYS(clone3), RET_ERRNO(ENOSYS));
    if (watch & CK_SANDBOX_WATCH_OUTPUT) {
        tests[0] = (struct test){0, 1, 0}; /* even descriptors */
        for (int bit = 1; bit < 32; bit++) tests[bit] = (struct test){0, 1u << bit, 1u << bit};
        for (int i = 0; i < COUNT(writes); i++) emit_call(p, writes[i], tests, 32, 0, SECCOMP_RET_ALLOW);
    }
}

/* Whether the allowlist allows call `number` outright: not when a watch sends it to the listener. */
static int allowed_outright(int number, int watch) {
    if ((watch & CK_SANDBOX_WATCH_OPENS) && (number == SCMP_SYS(open) || number == SCMP_SYS(openat))) return 0;
    return !((watch & CK_SANDBOX_WATCH_OUTPUT) && is_write_call(number));
}

/* The calls allowed outright, in ascending order, in groups of `GROUP`: a number above a group's
 * last jumps over the group, and one within it is compared with each of its numbers. Loading a
 * filter, the kernel runs the program for every call number to learn which it always allows
 * (5.11's cache); down one list of JEQs that took about 0.35 ms of a worker's start, the most of
 * it for the numbers the list does not hold (BENCHMARKS.md, "Measurements behind the code":
 * sandbox.groups). */
#define GROUP 16

static int ascending(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Whether entry `i` of the allowlist is a call of this architecture allowed outright under `watch`. */
static int entry_outright(size_t i, int watch) {
    return allowed[i].number >= 0 && allowed_outright(allowed[i].number, watch);
}

static void emit_allowed(struct program *p, int watch) {
    int numbers[ALLOWED], n = 0;
    for (size_t i = 0; i < ALLOWED; i++)
        if (entry_outright(i, watch)) numbers[n++] = allowed[i].number;
    qsort(numbers, (size_t)n, sizeof numbers[0], ascending);
    int unique = 0;
    for (int i = 0; i < n; i++)
        if (unique == 0 || numbers[unique - 1] != numbers[i]) numbers[unique++] = numbers[i];
    for (int first = 0; first < unique; first += GROUP) {
        int k = unique - first < GROUP ? unique - first : GROUP;
        /* Past the group: its k comparisons and two returns. Equal to its i-th number: the return
         * that allows, past the k - 1 - i comparisons after it and the return that does not. */
        emit(p, BPF_JMP | BPF_JGT | BPF_K, (uint8_t)(k + 2), 0, (uint32_t)numbers[first + k - 1]);
        for (int i = 0; i < k; i++)
            emit(p, BPF_JMP | BPF_JEQ | BPF_K, (uint8_t)(k - i), 0, (uint32_t)numbers[first + i]);
        emit(p, BPF_RET | BPF_K, 0, 0, RET_NOTIFY);
        emit(p, BPF_RET | BPF_K, 0, 0, SECCOMP_RET_ALLOW);
    }
}

/* The filter's program for a worker whose process id and handoff descriptor are `self` and
 * `handoff`: default deny, every call outside the allowlist to the listener. 0, or -1. */
static int write_program(struct program *p, int watch, uint32_t self, uint32_t handoff) {
    p->length = 0;
    p->failed = 0;
    /* Calls of another architecture (i386's int 0x80, x32's numbers) go to the listener too, which
     * refuses and names them; before, they killed the calling thread. */
    emit(p, BPF_LD | BPF_W | BPF_ABS, 0, 0, (uint32_t)offsetof(struct seccomp_data, arch));
    emit(p, BPF_JMP | BPF_JEQ | BPF_K, 1, 0, NATIVE_ARCH);
    emit(p, BPF_RET | BPF_K, 0, 0, RET_NOTIFY);
    emit(p, BPF_LD | BPF_W | BPF_ABS, 0, 0, (uint32_t)offsetof(struct seccomp_data, nr));
#ifdef __x86_64__
    emit(p, BPF_JMP | BPF_JGE | BPF_K, 0, 1, 0x40000000);
    emit(p, BPF_RET | BPF_K, 0, 0, RET_NOTIFY);
#endif
    emit_by_argument(p, self, handoff, watch);
    emit_allowed(p, watch);
    emit(p, BPF_RET | BPF_K, 0, 0, RET_NOTIFY);
    return p->failed ? -1 : 0;
}

/* The program `p` run for call `number` of architecture `arch` with arguments `args` (NULL: zeros),
 * as the kernel runs it, for the instructions it uses (loads of the call's data, AND, JEQ, JGE,
 * JGT, returns): its return value, or 0xffffffff for another instruction or none returned. */
static uint32_t run_program(const struct program *p, long number, uint32_t arch, const uint64_t *args) {
    struct seccomp_data data;
    memset(&data, 0, sizeof data);
    data.nr = (int)number;
    data.arch = arch;
    for (int i = 0; i < 6; i++) data.args[i] = args ? args[i] : 0;
    uint32_t a = 0;
    for (unsigned pc = 0; pc < p->length; pc++) {
        const struct sock_filter *f = &p->code[pc];
        switch (f->code) {
        case BPF_LD | BPF_W | BPF_ABS:
            if (f->k > sizeof data - 4) return 0xffffffffu;
            memcpy(&a, (const char *)&data + f->k, 4);
            break;
        case BPF_ALU | BPF_AND | BPF_K: a &= f->k; break;
        case BPF_JMP | BPF_JEQ | BPF_K: pc += a == f->k ? f->jt : f->jf; break;
        case BPF_JMP | BPF_JGE | BPF_K: pc += a >= f->k ? f->jt : f->jf; break;
        case BPF_JMP | BPF_JGT | BPF_K: pc += a > f->k ? f->jt : f->jf; break;
        case BPF_RET | BPF_K: return f->k;
        default: return 0xffffffffu;
        }
    }
    return 0xffffffffu; /* ran off the end: the kernel refuses such a program */
}

uint32_t ck_sandbox_filter_verdict(long number, uint32_t arch, int watch, const uint64_t *args) {
    struct program *p = malloc(sizeof *p); /* its own: tests call this from several threads at once */
    if (!p) return 0xffffffffu;
    uint32_t verdict = write_program(p, watch, (uint32_t)getpid(), 3) == 0 ? run_program(p, number, arch, args)
                                                                           : 0xffffffffu;
    free(p);
    return verdict;
}

/* Whether call `number` is on the list of calls allowed outright under `watch`. For tests. */
int ck_sandbox_allows_outright(long number, int watch) {
    for (size_t i = 0; i < ALLOWED; i++)
        if (allowed[i].number == number && entry_outright(i, watch)) return 1;
    return 0;
}

/* Writes and loads the filter; returns its listener descriptor, or -1 with errno. */
static int load_filter(int watch, int handoff) {
    static struct program program;
    if (write_program(&program, watch, (uint32_t)getpid(), (uint32_t)handoff) != 0) {
        errno = E2BIG;
        return -1;
    }
    struct sock_fprog filter = {program.length, program.code};
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &filter);
}

#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS /* kernel 6.6's; older headers lack it */
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

/* ---- the listener ------------------------------------------------------------------------- */

static int is_open(const struct seccomp_data *call) {
    return call->nr == SCMP_SYS(open) || call->nr == SCMP_SYS(openat) || call->nr == SCMP_SYS(creat);
}

static int is_output(const struct seccomp_data *call) {
    return (uint32_t)call->args[0] == 1 && is_write_call(call->nr);
}

static int is_readable(const char *resolved) {
    for (int i = 0; i < readable_count; i++) {
        size_t n = strlen(readable[i]);
        if (strncmp(resolved, readable[i], n) == 0 && (resolved[n] == 0 || resolved[n] == '/' || n == 1)) return 1;
    }
    return 0;
}

/* What the listener holds: where notes go, and the worker (`memory_of`) and its memory, for
 * reading a call's path. */
struct listener {
    int fd, report, memory;
    pid_t memory_of;
    ck_sandbox_note_fn note;
    /* Each note sent once (a hash of its line): what was sent. */
    unsigned long seen[256];
    int seen_count;
};

/* Sends one note line to the supervisor, once per distinct line (a hash kept), without blocking. */
static void send_note(struct listener *l, int kind, const char *act, const char *detail, int length) {
    if (l->report < 0 || !l->note) return;
    char line[2048];
    int n = l->note(kind, act, detail, length, line, (int)sizeof line - 1);
    if (n <= 0) return;
    if (n > (int)sizeof line - 1) n = (int)sizeof line - 1;
    unsigned long hash = 5381;
    for (int i = 0; i < n; i++) hash = hash * 33 + (unsigned char)line[i];
    for (int i = 0; i < l->seen_count; i++)
        if (l->seen[i] == hash) return;
    if (l->seen_count == 256) return; /* 256 distinct notes: enough to name every act */
    l->seen[l->seen_count++] = hash;
    line[n++] = '\n';
    ssize_t written;
    while ((written = write(l->report, line, (size_t)n)) < 0 && errno == EINTR) {}
}

/* Reads `length` bytes at `address` of the worker (`memory_of`: every thread of it shares this
 * memory) into `buffer`: its size read, or -1. Its memory is opened the first time and kept. */
static ssize_t read_memory(struct listener *l, uint64_t address, void *buffer, size_t length) {
    if (l->memory == -1) { /* opened late: Yama lets this process read it once named its tracer */
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/mem", (int)l->memory_of);
        l->memory = open(path, O_RDONLY | O_CLOEXEC);
        if (l->memory < 0) l->memory = -2; /* tried once */
    }
    return l->memory < 0 ? -1 : pread(l->memory, buffer, length, (off_t)address);
}

/* A watched open's path and flags, read from the worker while its call waits: 1, or 0 when the
 * open is not named (relative to a descriptor, unreadable or too long). */
static int read_open(struct listener *l, const struct seccomp_notif *request, char *path, size_t size, int *flags) {
    const struct seccomp_data *call = &request->data;
    int at_fd = call->nr == SCMP_SYS(openat);
    if (at_fd && (int)call->args[0] != AT_FDCWD) return 0; /* relative to a descriptor: not named */
    *flags = call->nr == SCMP_SYS(creat) ? O_CREAT | O_WRONLY | O_TRUNC : (int)call->args[at_fd ? 2 : 1];
    ssize_t n = read_memory(l, call->args[at_fd ? 1 : 0], path, size - 1);
    if (n <= 0) return 0;
    path[n] = 0;
    /* No SECCOMP_IOCTL_NOTIF_ID_VALID: the memory descriptor is the worker's own, opened once,
     * so a process id used again cannot be read in its place. */
    return strlen(path) < (size_t)n; /* no end within what was kept: too long to name */
}

static int is_write(int flags) { return (flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC)); }

/* A thread's name written through /proc (pthread_setname_np on another thread): refused by
 * Landlock, and not worth a warning; the thread keeps the name it had. */
static int is_thread_name(const char *path) {
    const char *task = strstr(path, "/task/");
    return strncmp(path, "/proc/", 6) == 0 && task && strchr(task + 6, '/') &&
           strcmp(strchr(task + 6, '/'), "/comm") == 0;
}

/* Whether Landlock may refuse an open, as far as its path says without resolving it: a write
 * (but /dev/null and a thread's name), or a read the readable set does not name as it is. */
static int may_be_refused(const char *path, int flags) {
    if (is_write(flags)) return strcmp(path, "/dev/null") != 0 && !is_thread_name(path);
    return !(path[0] == '/' && !strstr(path, "/..") && is_readable(path));
}

/* Names an open Landlock will refuse (`may_be_refused`): a write, or a read outside the
 * readable set once the path is resolved as the worker sees it. */
static void note_open(struct listener *l, const char *path, int flags) {
    char resolved[PATH_MAX];
    if (is_write(flags)) {
        send_note(l, CK_SANDBOX_NOTE_WRITE, "", path, (int)strlen(path));
        return;
    }
    keep_resolved();
    /* Resolved as the worker sees it: its /proc/self, and its working folder for a relative path. */
    char seen[PATH_MAX + 64];
    if (strncmp(path, "/proc/self/", 11) == 0 || strncmp(path, "/proc/thread-self/", 18) == 0)
        snprintf(seen, sizeof seen, "/proc/%d/%s", (int)l->memory_of, strchr(path + 6, '/') + 1);
    else if (path[0] != '/')
        snprintf(seen, sizeof seen, "/proc/%d/cwd/%s", (int)l->memory_of, path);
    else
        snprintf(seen, sizeof seen, "%s", path);
    if (realpath(seen, resolved) && !is_readable(resolved))
        send_note(l, CK_SANDBOX_NOTE_READ, "", path, (int)strlen(path));
}

static void note_output(struct listener *l, const struct seccomp_notif *request) {
    const struct seccomp_data *call = &request->data;
    uint64_t address = call->args[1], length = call->args[2];
    if (call->nr == SCMP_SYS(writev) || call->nr == SCMP_SYS(pwritev)) { /* the first buffer of the vector */
        uint64_t vector[2];
        if (read_memory(l, address, vector, sizeof vector) != sizeof vector) return;
        address = vector[0];
        length = vector[1];
    }
    char kept[200];
    if (length > sizeof kept) length = sizeof kept;
    ssize_t n = length > 0 ? read_memory(l, address, kept, length) : 0;
    if (n < 0) n = 0;
    send_note(l, CK_SANDBOX_NOTE_OUTPUT, "", kept, (int)n);
}

#ifndef SECCOMP_IOCTL_NOTIF_ADDFD
struct seccomp_notif_addfd {
    __u64 id;
    __u32 flags;
    __u32 srcfd;
    __u32 newfd;
    __u32 newfd_flags;
};
#define SECCOMP_IOCTL_NOTIF_ADDFD SECCOMP_IOW(3, struct seccomp_notif_addfd)
#endif
#ifndef SECCOMP_ADDFD_FLAG_SEND
#define SECCOMP_ADDFD_FLAG_SEND (1UL << 1)
#endif

/* A thread's own status file, as a path names it (/proc/<tid>/stat, status, statm or comm, read
 * only) for a thread of the worker: the same file under the worker's task folder, written to
 * `real`; 0 for any other path. libdispatch's pool monitor reads /proc/<tid>/stat of each of its
 * threads every second while work waits, and ends the process when the open fails
 * ("workq: registered worker exited prematurely"); Landlock's rule on /proc/self covers
 * /proc/<pid>/task/<tid>, not /proc/<tid>, and a thread started later cannot be added to it. */
static int own_thread_file(const struct listener *l, const char *path, int flags, char *real, size_t size) {
    if (is_write(flags) || strncmp(path, "/proc/", 6) != 0) return 0;
    char *end;
    long tid = strtol(path + 6, &end, 10);
    if (end == path + 6 || tid <= 0 || tid == l->memory_of || *end != '/') return 0;
    const char *file = end + 1;
    if (strcmp(file, "stat") != 0 && strcmp(file, "status") != 0 && strcmp(file, "statm") != 0 &&
        strcmp(file, "comm") != 0)
        return 0;
    char task[64];
    snprintf(task, sizeof task, "/proc/%d/task/%ld", (int)l->memory_of, tid);
    struct stat info;
    if (stat(task, &info) != 0) return 0; /* not a thread of the worker */
    snprintf(real, size, "%s/%s", task, file);
    return 1;
}

/* Opens a thread's own status file for the worker (`own_thread_file`) and makes it the result of
 * its call (SECCOMP_ADDFD_FLAG_SEND: the descriptor and the answer at once; kernel 5.14): 1, or 0
 * when it could not, and Landlock decides the open as it would have. */
static int open_for_worker(struct listener *l, const struct seccomp_notif *request, const char *path, int flags) {
    char real[128];
    if (!own_thread_file(l, path, flags, real, sizeof real)) return 0;
    int fd = open(real, O_RDONLY | O_CLOEXEC | (flags & O_NONBLOCK));
    if (fd < 0) return 0;
    struct seccomp_notif_addfd add;
    memset(&add, 0, sizeof add);
    add.id = request->id;
    add.flags = SECCOMP_ADDFD_FLAG_SEND;
    add.srcfd = (__u32)fd;
    add.newfd_flags = (__u32)(flags & O_CLOEXEC);
    int sent = ioctl(l->fd, SECCOMP_IOCTL_NOTIF_ADDFD, &add) >= 0;
    close(fd);
    return sent;
}

/* Answers one notification: a watched open or write goes on (Landlock decides an open; a thread's
 * own status file the listener opens for it); any other call is outside the allowlist, refused
 * and named. */
static void answer(struct listener *l) {
    struct seccomp_notif request;
    struct seccomp_notif_resp response;
    memset(&request, 0, sizeof request); /* the kernel refuses a request buffer that is not zeroed */
    if (syscall(SYS_ioctl, l->fd, SECCOMP_IOCTL_NOTIF_RECV, &request) != 0) return;
    memset(&response, 0, sizeof response);
    response.id = request.id;
    int native = request.data.arch == NATIVE_ARCH;
#ifdef __x86_64__
    native = native && request.data.nr < 0x40000000; /* x32's numbers carry this bit */
#endif
    if (native && is_output(&request.data)) {
        note_output(l, &request);
        response.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
    } else if (native && is_open(&request.data)) {
        /* The open goes on (Landlock decides it). One that may be refused is judged while the
         * worker waits, so that the note names the hook and row it came from; the rest (reads the
         * readable set names as they are: most of them) go on as soon as the path is copied. */
        char path[1024];
        int flags = 0, named = read_open(l, &request, path, sizeof path, &flags);
        if (named && may_be_refused(path, flags)) {
            if (open_for_worker(l, &request, path, flags)) return; /* answered with the descriptor */
            note_open(l, path, flags);
        }
        response.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
    } else {
        const char *act = ck_sandbox_act(request.data.nr, request.data.arch, request.data.args[1]);
        send_note(l, CK_SANDBOX_NOTE_REFUSED, act, "", 0);
        /* A number newer than libseccomp knows: "not implemented", so that the C library falls back. */
        response.error = strcmp(act, "make a system call unknown to the sandbox") == 0 ? -ENOSYS : -EPERM;
    }
    syscall(SYS_ioctl, l->fd, SECCOMP_IOCTL_NOTIF_SEND, &response);
}

/* Receives the listener descriptor the worker sends over `handoff`: it, or -1. */
static int receive_listener(int handoff) {
    char data = 0;
    struct iovec io = {&data, 1};
    union {
        char buffer[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    struct msghdr message = {0};
    message.msg_iov = &io;
    message.msg_iovlen = 1;
    message.msg_control = control.buffer;
    message.msg_controllen = sizeof control.buffer;
    ssize_t n;
    while ((n = recvmsg(handoff, &message, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {}
    struct cmsghdr *header = n > 0 ? CMSG_FIRSTHDR(&message) : 0;
    if (!header || header->cmsg_type != SCM_RIGHTS) return -1;
    int fd;
    memcpy(&fd, CMSG_DATA(header), sizeof fd);
    return fd;
}

static int send_listener(int handoff, int fd) {
    char data = 1;
    struct iovec io = {&data, 1};
    union {
        char buffer[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = {0};
    message.msg_iov = &io;
    message.msg_iovlen = 1;
    message.msg_control = control.buffer;
    message.msg_controllen = sizeof control.buffer;
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &fd, sizeof fd);
    ssize_t n;
    while ((n = sendmsg(handoff, &message, MSG_NOSIGNAL)) < 0 && errno == EINTR) {}
    return n == 1 ? 0 : -1;
}

int ck_sandbox_send_namespaces(int socket) {
    int sent = -1;
    if (unshare(CLONE_NEWNET | CLONE_NEWIPC) == 0) { /* EPERM without CAP_SYS_ADMIN */
        int network = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
        int ipc = open("/proc/thread-self/ns/ipc", O_RDONLY | O_CLOEXEC);
        if (network >= 0 && ipc >= 0 && send_listener(socket, network) == 0 && send_listener(socket, ipc) == 0)
            sent = 0;
        if (network >= 0) close(network);
        if (ipc >= 0) close(ipc);
    }
    close(socket);
    return sent;
}

/* Joins the namespaces the supervisor sends over `socket` (ck_sandbox_send_namespaces), waiting
 * at most a second in all for them (the helper closes the socket whether it sent them or not, so
 * the wait ends sooner unless making them is that slow); closes `socket`. 1 when both were
 * joined, else 0: the worker then makes its own. Standard descriptors are never taken for it. */
static int join_namespaces(int socket) {
    if (socket < 3) return 0;
    int fds[2] = {-1, -1};
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    struct pollfd ready = {socket, POLLIN, 0};
    for (int i = 0; i < 2; i++) {
        int n;
        do {
            clock_gettime(CLOCK_MONOTONIC, &now);
            long spent = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
            n = spent >= 1000 ? 0 : poll(&ready, 1, (int)(1000 - spent));
        } while (n < 0 && errno == EINTR);
        if (n <= 0) break;
        fds[i] = receive_listener(socket);
        if (fds[i] < 0) break;
    }
    int joined = fds[0] >= 0 && fds[1] >= 0 && setns(fds[0], CLONE_NEWNET) == 0 && setns(fds[1], CLONE_NEWIPC) == 0;
    for (int i = 0; i < 2; i++)
        if (fds[i] >= 0) close(fds[i]);
    close(socket);
    return joined;
}

/* ---- the worker's output -------------------------------------------------------------------- */

/* At most this much of what plugins write to standard output and error reaches the terminal;
 * past it one line says how much was dropped (SECURITY.md). */
#define OUTPUT_CAP (64 * 1024)

struct output {
    int fd;
    ck_sandbox_forward_fn forward;
    char line[4096];
    int used;
    uint64_t forwarded, dropped;
};

static void flush_line(struct output *o) {
    if (o->used == 0) return;
    if (o->forwarded + (uint64_t)o->used <= OUTPUT_CAP) {
        if (o->forward) o->forward(o->line, o->used);
        o->forwarded += (uint64_t)o->used;
    } else {
        o->dropped += (uint64_t)o->used;
    }
    o->used = 0;
}

/* Reads what is there; 0 at end of file. */
static int pump_output(struct output *o) {
    char buffer[4096];
    ssize_t n = read(o->fd, buffer, sizeof buffer);
    if (n < 0) return errno == EINTR || errno == EAGAIN ? 1 : 0;
    for (ssize_t i = 0; i < n; i++) {
        o->line[o->used++] = buffer[i];
        if (buffer[i] == '\n' || o->used == (int)sizeof o->line) flush_line(o);
    }
    return n > 0;
}

static void finish_output(struct output *o) {
    flush_line(o);
    if (o->dropped > 0 && o->forward) {
        char line[160];
        int n = snprintf(line, sizeof line,
                         "cellkit: %llu more bytes a plugin wrote to standard output or error were dropped "
                         "(at most %d are shown)\n",
                         (unsigned long long)o->dropped, OUTPUT_CAP);
        o->forward(line, n);
    }
}

/* ---- the two processes ------------------------------------------------------------------ */

/* The listener: answers the worker's refused calls, forwards its output, and ends once the worker
 * has ended and its output is drained. */
static void listener_process(const struct ck_sandbox_plan *plan, int watch, int handoff, int output, int report,
                             ck_sandbox_note_fn note, ck_sandbox_forward_fn forward) {
    /* The worker's pidfd (opened by the worker before the fork) tells when it ends, and its last
     * output is drained then; without one, this ends with it and that output may be cut. */
    if (watch >= 0) prctl(PR_SET_PDEATHSIG, 0);
    struct pollfd alive = {watch, POLLIN, 0};
    if (watch >= 0 && poll(&alive, 1, 0) > 0) _exit(0); /* it ended already */
    int keep[] = {handoff, output, report, watch, 2};
    close_all_but(keep, 5);
    if (plan->watch & CK_SANDBOX_WATCH_OPENS) {
        keep_named(plan);
        unresolved = plan;
    }
    struct listener l = {-1, report, -1, getppid(), note, {0}, 0}; /* the worker, alive: it forked this */
    struct output o = {output, forward, {0}, 0, 0, 0};
    if (report >= 0) {
        fcntl(report, F_SETFL, fcntl(report, F_GETFL) | O_NONBLOCK);
        char said[32]; /* who this is, so that the supervisor reaps it without looking for it */
        int n = snprintf(said, sizeof said, "listener\t%d\n", (int)getpid());
        (void)!write(report, said, (size_t)n);
    }
    int output_open = 1, worker_alive = 1;
    while (worker_alive || output_open) {
        struct pollfd fds[4] = {{watch, POLLIN, 0}, {handoff, POLLIN, 0}, {l.fd, POLLIN, 0}, {output, POLLIN, 0}};
        if (!output_open) fds[3].fd = -1;
        if (!worker_alive) fds[0].fd = -1;
        int ready = poll(fds, 4, worker_alive ? -1 : 200);
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) break; /* the worker ended 200 ms ago and its output has stopped */
        if (fds[2].revents & POLLIN) answer(&l);
        if (fds[2].revents & (POLLHUP | POLLERR | POLLNVAL)) {
            close(l.fd);
            l.fd = -1;
        }
        if (fds[1].revents) {
            if (l.fd < 0) l.fd = receive_listener(handoff);
            /* The worker's call hands the processor straight to this process, and back (kernel 6.6;
             * older ones refuse the flag and wake it the usual way). */
            if (l.fd >= 0) ioctl(l.fd, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP);
            close(handoff);
            handoff = -1;
        }
        if (fds[3].revents && !pump_output(&o)) output_open = 0;
        if (fds[0].revents) worker_alive = 0;
    }
    finish_output(&o);
    /* Closed before the exit, which first unmaps this copy of the worker's memory, and that takes
     * a while (BENCHMARKS.md, "Measurements behind the code": sandbox.report): the supervisor waits
     * for this end of file, not for that. */
    if (report >= 0) close(report);
    _exit(0);
}

/* In the worker, once the listener runs: no terminal, standard streams set, then the locks. */
static int close_in_worker(const struct ck_sandbox_plan *plan, int handoff, int output) {
    int missing = 0;
    for (int fd = 0; fd <= 2; fd++) /* the controlling terminal given up: nothing to type into */
        if (isatty(fd)) ioctl(fd, TIOCNOTTY);
    int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null >= 0) {
        dup2(null, 0);
        close(null);
    }
    dup2(output, 1);
    dup2(output, 2);
    close(output);
    /* A pipe now: a line at a time, so that what a hook prints leaves during that hook (check
     * names the hook by it) and mixes with standard error in order. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (plan->report_fd >= 0) close(plan->report_fd);
    limit(RLIMIT_AS, plan->memory_limit);
    limit(RLIMIT_NOFILE, plan->open_files);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) _exit(1);
    if (drop_capabilities() != 0) missing |= CK_SANDBOX_NO_CAPABILITY_DROP;
    if (restrict_files(plan) < 0) missing |= CK_SANDBOX_NO_LANDLOCK;
    int listener = load_filter(plan->watch, handoff);
    if (listener < 0) {
        missing |= CK_SANDBOX_NO_SECCOMP;
    } else if (send_listener(handoff, listener) != 0) {
        /* refused calls would wait for an answer no one gives: better no worker at all */
        _exit(1);
    }
    if (listener >= 0) close(listener);
    close(handoff);
    return missing;
}

int ck_sandbox_enter(const struct ck_sandbox_plan *plan, ck_sandbox_note_fn note, ck_sandbox_forward_fn forward) {
    int missing = 0;
    int handoff[2], output[2];
    /* Opened while files can be: hooks with long declared lists call through libffi
     * (cellkit_libraries.h), which may lie outside what Landlock lets the worker read. The
     * listener, outside the sandbox, opens libseccomp when it first names a call. */
    (void)ck_library_load(CK_LIBRARY_FFI);
    int joined = join_namespaces(plan->namespaces_fd); /* first: its socket closed on every path */
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, handoff) != 0) return -1;
    if (pipe2(output, O_CLOEXEC) != 0) {
        close(handoff[0]);
        close(handoff[1]);
        return -1;
    }
    if (!joined) make_namespaces(&missing);
    int watch = (int)syscall(SYS_pidfd_open, getpid(), 0); /* close-on-exec, as pidfds are */
    pid_t listener = fork();
    if (listener < 0) {
        int saved = errno;
        for (int i = 0; i < 2; i++) close(handoff[i]), close(output[i]);
        if (watch >= 0) close(watch);
        errno = saved;
        return -1;
    }
    if (listener == 0) {
        close(handoff[1]);
        close(output[1]);
        listener_process(plan, watch, handoff[0], output[0], plan->report_fd, note, forward);
    }
    if (watch >= 0) close(watch);
    close(handoff[0]);
    close(output[0]);
    prctl(PR_SET_PTRACER, listener, 0, 0, 0);
    return missing | close_in_worker(plan, handoff[1], output[1]);
}
