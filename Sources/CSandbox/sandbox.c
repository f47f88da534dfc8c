#define _GNU_SOURCE
#include "cellkit_sandbox.h"
#include "cellkit_process.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <stdlib.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- PID namespace ---------------------------------------------------------------------- */

static int write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* Maps the caller's own user and group ids to themselves, so that ids and file owners read as
 * before inside the new user namespace. */
static void map_own_ids(uid_t uid, gid_t gid) {
    char line[64];
    write_file("/proc/self/setgroups", "deny");
    snprintf(line, sizeof line, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
    write_file("/proc/self/uid_map", line);
    snprintf(line, sizeof line, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
    write_file("/proc/self/gid_map", line);
}

/* Ends this process as `status` (a wait status) says: the same exit status or the same signal. */
static void end_as(int status) {
    if (WIFSIGNALED(status)) {
        int signal = WTERMSIG(status);
        struct rlimit none = {0, 0};
        setrlimit(RLIMIT_CORE, &none); /* the worker dumped its core, if any */
        struct sigaction action = {0};
        action.sa_handler = SIG_DFL;
        sigaction(signal, &action, 0);
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, signal);
        sigprocmask(SIG_UNBLOCK, &set, 0);
        raise(signal);
        _exit(128 + signal);
    }
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

/* Every descriptor closed but `keep` and `also` (-1: none): a process that only waits holds no
 * channel open. */
static void close_all_but(int keep, int also) {
    int low = keep < also ? keep : also, high = keep < also ? also : keep;
    if (low < 0) low = high;
    if (low > 0) ck_process_close_range(0, (unsigned)low - 1);
    if (high > low + 1) ck_process_close_range((unsigned)low + 1, (unsigned)high - 1);
    ck_process_close_range((unsigned)high + 1, ~0U);
}

static pid_t wait_for(pid_t pid, int *status) {
    pid_t got;
    while ((got = waitpid(pid, status, __WALL)) < 0 && errno == EINTR) {}
    return got;
}

/* The outer process: waits for the init and ends as the worker did (the init sends the worker's
 * wait status), or as the init did if it sent nothing. */
static void outer(pid_t init, int from_init, int alive) {
    close_all_but(from_init, alive);
    int status = 0, worker = 0;
    ssize_t n;
    while ((n = read(from_init, &worker, sizeof worker)) < 0 && errno == EINTR) {}
    if (wait_for(init, &status) < 0) status = 1 << 8;
    end_as(n == sizeof worker ? worker : status);
}

/* The namespace's init: reaps every process until the worker ends, sends its wait status, and
 * exits, which ends everything left in the namespace. */
static void init_process(pid_t worker, int to_outer) {
    close_all_but(to_outer, -1);
    for (;;) {
        int status = 0;
        pid_t got = wait_for(-1, &status);
        if (got == worker) {
            ssize_t n;
            while ((n = write(to_outer, &status, sizeof status)) < 0 && errno == EINTR) {}
            _exit(0);
        }
        if (got < 0 && errno == ECHILD) _exit(1);
    }
}

/* Dies by SIGKILL when the parent dies; ends now if it died already (`alive` reads end of file
 * once every copy of the parent's end is closed). */
static void die_with_parent(int alive) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    struct pollfd check = {alive, POLLIN, 0};
    if (poll(&check, 1, 0) > 0) _exit(1);
}

int ck_sandbox_enter_pid_namespace(void) {
    uid_t uid = geteuid();
    gid_t gid = getegid();
    int flags = CLONE_NEWPID;
    if (unshare(flags) != 0) {
        if (errno != EPERM) return -1;
        flags |= CLONE_NEWUSER; /* no CAP_SYS_ADMIN: a user namespace of our own grants it */
        if (unshare(flags) != 0) return -1;
        map_own_ids(uid, gid);
    }
    int status_pipe[2], alive_pipe[2];
    if (pipe2(status_pipe, O_CLOEXEC) != 0 || pipe2(alive_pipe, O_CLOEXEC) != 0) _exit(1);
    pid_t init = fork();
    if (init < 0) _exit(1); /* unshare has changed where children go: no way back */
    if (init > 0) {
        close(alive_pipe[0]);
        close(status_pipe[1]);
        outer(init, status_pipe[0], alive_pipe[1]); /* the alive pipe stays open until it ends */
    }
    close(alive_pipe[1]);
    close(status_pipe[0]);
    die_with_parent(alive_pipe[0]);
    pid_t worker = fork();
    if (worker < 0) _exit(1);
    if (worker > 0) init_process(worker, status_pipe[1]);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != 1) _exit(1);
    close(alive_pipe[0]);
    close(status_pipe[1]);
    return 0;
}

int ck_sandbox_pid_namespace_here(void) {
    if (unshare(CLONE_NEWPID) == 0) return 1;
    if (errno != EPERM) return 0;
    return unshare(CLONE_NEWPID | CLONE_NEWUSER) == 0;
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

/* What Landlock lets the worker read, resolved (realpath), for naming a refused open in check. */
#define READABLE_MAX 512
static char *readable[READABLE_MAX];
static int readable_count = 0;

static void keep_readable(const char *path) {
    char resolved[PATH_MAX];
    if (readable_count < READABLE_MAX && realpath(path, resolved)) readable[readable_count++] = strdup(resolved);
}

int ck_sandbox_restrict_files(const char *const *paths, int count) {
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
    for (int i = 0; i < count; i++) {
        add_rule(ruleset, paths[i], read_file, read_file | LANDLOCK_ACCESS_FS_READ_DIR);
        keep_readable(paths[i]);
    }
    const char *devices[] = {"/proc/self", "/dev/urandom", "/dev/random", "/dev/zero", "/dev/null"};
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++) keep_readable(devices[i]);
    /* The process's own /proc folder (opened through /proc/self: no other process's), and the
     * devices every program may use; /dev/null may be written. */
    add_rule(ruleset, "/proc/self", 0, LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR);
    add_rule(ruleset, "/dev/urandom", LANDLOCK_ACCESS_FS_READ_FILE, 0);
    add_rule(ruleset, "/dev/random", LANDLOCK_ACCESS_FS_READ_FILE, 0);
    add_rule(ruleset, "/dev/zero", LANDLOCK_ACCESS_FS_READ_FILE, 0);
    add_rule(ruleset, "/dev/null", LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE, 0);
    int failed = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || syscall(SYS_landlock_restrict_self, ruleset, 0) != 0;
    int saved = errno;
    close(ruleset);
    errno = saved;
    return failed ? -1 : abi;
}

/* ---- seccomp ------------------------------------------------------------------------------ */

/* Refused calls wait for this thread's answer (seccomp's user notification), which notes
 * them and makes them fail with EPERM. Not a SIGSYS handler: the C library's posix_spawn blocks
 * every signal around its clone, and a blocked SIGSYS ends the process. The thread allocates
 * nothing: a fork() waits for its answer holding the C library's malloc locks. */
static int notify_fd = -1;
static struct seccomp_notif request_storage;
static struct seccomp_notif_resp response_storage;
static struct seccomp_notif *const notify_request = &request_storage;
static struct seccomp_notif_resp *const notify_response = &response_storage;

/* Standard output watched (check): writes to descriptor 1 are let through and their first bytes
 * kept, read through /proc/self/mem (a bad address is an error there, not a crash). */
#ifndef SECCOMP_USER_NOTIF_FLAG_CONTINUE
#define SECCOMP_USER_NOTIF_FLAG_CONTINUE 1
#endif
#define OUTPUT_KEPT 200
static int own_memory = -1;
static char output[OUTPUT_KEPT];
static int output_length = 0, output_seen = 0;

static void keep_output(const struct seccomp_data *call) {
    uint64_t address = call->args[1], length = call->args[2];
    if (call->nr == SCMP_SYS(writev)) { /* the first buffer of the vector */
        uint64_t vector[2];
        if (pread(own_memory, vector, sizeof vector, (off_t)address) != sizeof vector) return;
        address = vector[0];
        length = vector[1];
    }
    int at = __atomic_load_n(&output_length, __ATOMIC_ACQUIRE);
    uint64_t room = OUTPUT_KEPT - (uint64_t)at;
    if (length > room) length = room;
    ssize_t n = length > 0 ? pread(own_memory, output + at, length, (off_t)address) : 0;
    if (n > 0) __atomic_store_n(&output_length, at + (int)n, __ATOMIC_RELEASE);
    __atomic_store_n(&output_seen, 1, __ATOMIC_RELEASE);
}

int ck_sandbox_take_output(char *buffer, int capacity) {
    if (!__atomic_exchange_n(&output_seen, 0, __ATOMIC_ACQ_REL)) return -1;
    int n = __atomic_exchange_n(&output_length, 0, __ATOMIC_ACQ_REL);
    if (n > capacity) n = capacity;
    memcpy(buffer, output, (size_t)n);
    return n;
}

/* Opens (check): one Landlock refuses is noted as a file act, "read /etc/hostname". */
#define FILE_ACTS 16
static char file_acts[FILE_ACTS][320];
static int file_act_count = 0;

static int is_open(const struct seccomp_data *call) {
    return call->nr == SCMP_SYS(open) || call->nr == SCMP_SYS(openat) || call->nr == SCMP_SYS(creat);
}

static int is_readable(const char *resolved) {
    for (int i = 0; i < readable_count; i++) {
        size_t n = strlen(readable[i]);
        if (strncmp(resolved, readable[i], n) == 0 && (resolved[n] == 0 || resolved[n] == '/' || n == 1)) return 1;
    }
    return 0;
}

static void note_file_act(const char *act, const char *path) {
    int at = __atomic_fetch_add(&file_act_count, 1, __ATOMIC_ACQ_REL);
    if (at < FILE_ACTS) snprintf(file_acts[at], sizeof file_acts[at], "%s %s", act, path);
    ck_process_note_refusal(-1); /* -1: a file act, taken with ck_sandbox_take_file_acts */
}

static void check_open(const struct seccomp_data *call) {
    int at_fd = call->nr == SCMP_SYS(openat);
    if (at_fd && (int)call->args[0] != AT_FDCWD) return; /* relative to a descriptor: not named */
    uint64_t address = call->args[at_fd ? 1 : 0];
    int flags = call->nr == SCMP_SYS(creat) ? O_CREAT | O_WRONLY | O_TRUNC : (int)call->args[at_fd ? 2 : 1];
    char path[1024], resolved[PATH_MAX];
    ssize_t n = pread(own_memory, path, sizeof path - 1, (off_t)address);
    if (n <= 0) return;
    path[n] = 0;
    if (strlen(path) == (size_t)n) return; /* longer than kept: not named */
    int writes = (flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC));
    if (writes) {
        if (strcmp(path, "/dev/null") != 0) note_file_act("write", path);
        return;
    }
    if (realpath(path, resolved) && !is_readable(resolved)) note_file_act("read", path);
}

int ck_sandbox_take_file_acts(char *buffer, int capacity) {
    int count = __atomic_exchange_n(&file_act_count, 0, __ATOMIC_ACQ_REL);
    if (count > FILE_ACTS) count = FILE_ACTS;
    int used = 0;
    for (int i = 0; i < count; i++) {
        int n = snprintf(buffer + used, (size_t)(capacity - used), "%s", file_acts[i]);
        if (n < 0 || used + n + 1 >= capacity) break;
        used += n + 1; /* NUL-separated */
    }
    return used;
}

static int is_output(const struct seccomp_data *call) {
    return call->args[0] == 1 && (call->nr == SCMP_SYS(write) || call->nr == SCMP_SYS(writev) ||
                                  call->nr == SCMP_SYS(pwrite64) || call->nr == SCMP_SYS(pwritev));
}

static void *answer_refusals(void *unused) {
    (void)unused;
    for (;;) {
        /* Raw ioctls, not libseccomp's calls nor the C library's (a sanitizer intercepts those):
         * nothing here may take a lock the refused call's thread could hold. The kernel refuses
         * a request buffer that is not zeroed. */
        memset(notify_request, 0, sizeof *notify_request);
        if (syscall(SYS_ioctl, notify_fd, SECCOMP_IOCTL_NOTIF_RECV, notify_request) != 0) {
            if (errno == EINTR || errno == ENOENT) continue;
            break;
        }
        notify_response->id = notify_request->id;
        notify_response->val = 0;
        if (is_output(&notify_request->data) || is_open(&notify_request->data)) {
            if (is_open(&notify_request->data)) check_open(&notify_request->data);
            else keep_output(&notify_request->data);
            notify_response->error = 0; /* the call goes on: Landlock decides an open */
            notify_response->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
        } else {
            ck_process_note_refusal(notify_request->data.nr);
            notify_response->error = -EPERM;
            notify_response->flags = 0;
        }
        syscall(SYS_ioctl, notify_fd, SECCOMP_IOCTL_NOTIF_SEND, notify_response);
    }
    return 0;
}

static const struct {
    const char *name, *act;
} refusals[] = {
    {"fork", "start a process"},      {"vfork", "start a process"},         {"clone", "start a process"},
    {"execve", "run a program"},      {"execveat", "run a program"},        {"ptrace", "trace a process"},
    {"process_vm_readv", "read another process's memory"},
    {"process_vm_writev", "write another process's memory"},
    {"socket", "open a socket"},      {"socketpair", "open a socket"},      {"unshare", "change namespaces"},
    {"setns", "change namespaces"},   {"io_uring_setup", "set up io_uring"},
};

static char act_text[sizeof refusals / sizeof refusals[0]][80];

const char *ck_sandbox_act(long number) {
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        if (seccomp_syscall_resolve_name(refusals[i].name) != number) continue;
        if (!act_text[i][0]) snprintf(act_text[i], sizeof act_text[i], "%s (%s)", refusals[i].act, refusals[i].name);
        return act_text[i];
    }
    return "make a refused system call";
}

int ck_sandbox_seccomp_available(void) {
    return prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 && seccomp_api_get() >= 1;
}

int ck_sandbox_filter_calls(int watch_output) {
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
    if (!filter) {
        errno = ENOMEM;
        return -1;
    }
    int failed = 0;
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        int number = seccomp_syscall_resolve_name(refusals[i].name);
        if (number == __NR_SCMP_ERROR) continue;
        if (strcmp(refusals[i].name, "clone") == 0) { /* threads are clone(CLONE_THREAD): allowed */
            failed |= seccomp_rule_add(filter, SCMP_ACT_NOTIFY, number, 1,
                                       SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0)) != 0;
        } else {
            failed |= seccomp_rule_add(filter, SCMP_ACT_NOTIFY, number, 0) != 0;
        }
    }
    if (watch_output) {
        own_memory = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
        const int writes[] = {SCMP_SYS(write), SCMP_SYS(writev), SCMP_SYS(pwrite64), SCMP_SYS(pwritev)};
        for (size_t i = 0; i < sizeof writes / sizeof writes[0]; i++)
            failed |= seccomp_rule_add(filter, SCMP_ACT_NOTIFY, writes[i], 1, SCMP_A0(SCMP_CMP_EQ, 1)) != 0;
        const int opens[] = {SCMP_SYS(open), SCMP_SYS(openat), SCMP_SYS(creat)};
        for (size_t i = 0; i < sizeof opens / sizeof opens[0]; i++)
            failed |= seccomp_rule_add(filter, SCMP_ACT_NOTIFY, opens[i], 0) != 0;
    }
    /* clone3's flags sit in memory a filter cannot read: ENOSYS makes the C library use clone */
    int clone3 = seccomp_syscall_resolve_name("clone3");
    if (clone3 != __NR_SCMP_ERROR) failed |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), clone3, 0) != 0;
    if (failed) {
        seccomp_release(filter);
        errno = EINVAL;
        return -1;
    }
    /* every thread, a plugin's own started while it loaded too */
    seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1);
    int result = seccomp_load(filter);
    notify_fd = result == 0 ? seccomp_notify_fd(filter) : -1;
    seccomp_release(filter);
    if (result != 0) {
        errno = -result;
        return -1;
    }
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attributes, 64 * 1024);
    int started = notify_fd >= 0 ? pthread_create(&thread, &attributes, answer_refusals, 0) : EBADF;
    pthread_attr_destroy(&attributes);
    if (started != 0) _exit(1); /* refused calls would wait for an answer forever */
    return 0;
}
