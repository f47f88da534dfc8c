/* The least a sandboxed worker costs the kernel, for `cellkit-bench startup`: what CSandbox's
 * ck_sandbox_enter asks of it, in a small C process, with nothing of cellkit around it. The
 * process starts a worker (fork) as a child subreaper, and the worker moves into network and IPC
 * namespaces (in a user namespace of its own when it is not root, its ids mapped), starts its
 * listener (fork), drops every capability from its bounding set, restricts itself with Landlock
 * (a rule for each of 20 folders and files a worker reads), loads a seccomp filter of 20
 * instructions with a listener (the least: the worker's has about 270), and hands the listener
 * its descriptor; the worker ends, the listener sees it and ends, and this process reaps both. A
 * step the kernel refuses is skipped, as a sandbox in `on` mode skips it. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return;
    if (write(fd, text, strlen(text)) < 0) {}
    close(fd);
}

static void namespaces(void) {
    uid_t uid = geteuid();
    gid_t gid = getegid();
    if (uid == 0) {
        if (unshare(CLONE_NEWNET | CLONE_NEWIPC) == 0) return;
    }
    if (unshare(CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWIPC) != 0) return;
    char map[64];
    write_file("/proc/self/setgroups", "deny");
    snprintf(map, sizeof map, "%u %u 1", (unsigned)uid, (unsigned)uid);
    write_file("/proc/self/uid_map", map);
    snprintf(map, sizeof map, "%u %u 1", (unsigned)gid, (unsigned)gid);
    write_file("/proc/self/gid_map", map);
}

static void landlock(void) {
    static const char *paths[] = {"/usr/lib", "/lib", "/lib64", "/usr/lib64", "/usr/local/lib", "/etc/ld.so.cache",
                                  "/etc/localtime", "/usr/share/zoneinfo", "/usr/share/locale", "/usr/share/i18n",
                                  "/sys/devices/system/cpu", "/proc/sys/vm/overcommit_memory", "/proc/self",
                                  "/dev/null", "/dev/zero", "/dev/urandom", "/dev/random", "/tmp", "/opt", "/etc"};
    struct landlock_ruleset_attr attr = {.handled_access_fs = LANDLOCK_ACCESS_FS_READ_FILE |
                                                              LANDLOCK_ACCESS_FS_READ_DIR |
                                                              LANDLOCK_ACCESS_FS_WRITE_FILE |
                                                              LANDLOCK_ACCESS_FS_EXECUTE};
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (ruleset < 0) return;
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        int fd = open(paths[i], O_PATH | O_CLOEXEC);
        struct stat info;
        if (fd < 0) continue;
        if (fstat(fd, &info) != 0) {
            close(fd);
            continue;
        }
        /* A folder's rights on a file are refused (EINVAL): a file gets reading only. */
        uint64_t access = LANDLOCK_ACCESS_FS_READ_FILE | (S_ISDIR(info.st_mode) ? LANDLOCK_ACCESS_FS_READ_DIR : 0);
        struct landlock_path_beneath_attr rule = {.allowed_access = access, .parent_fd = fd};
        syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
        close(fd);
    }
    syscall(SYS_landlock_restrict_self, ruleset, 0);
    close(ruleset);
}

static int seccomp_filter(void) {
    struct sock_filter code[20];
    int n = 0;
    code[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
    while (n < 18) code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 1000 + n, 1, 0);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF);
    struct sock_fprog program = {(unsigned short)n, code};
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &program);
}

static void send_fd(int socket, int fd) {
    char data = 1, control[CMSG_SPACE(sizeof(int))];
    struct iovec io = {&data, 1};
    struct msghdr message = {.msg_iov = &io, .msg_iovlen = 1, .msg_control = control,
                             .msg_controllen = sizeof control};
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &fd, sizeof fd);
    if (sendmsg(socket, &message, 0) < 0) {}
}

/* The listener: takes the worker's filter descriptor, then waits until the worker is gone. */
static void listener(int socket) {
    char data, control[CMSG_SPACE(sizeof(int))];
    struct iovec io = {&data, 1};
    struct msghdr message = {.msg_iov = &io, .msg_iovlen = 1, .msg_control = control,
                             .msg_controllen = sizeof control};
    if (recvmsg(socket, &message, 0) <= 0) _exit(0);
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    int fd = -1;
    if (header) memcpy(&fd, CMSG_DATA(header), sizeof fd);
    struct pollfd watch[2] = {{fd, POLLIN, 0}, {socket, POLLIN, 0}}; /* poll passes over fd -1 */
    while (poll(watch, 2, -1) > 0) {
        if (watch[0].revents & (POLLHUP | POLLERR) || watch[1].revents & (POLLHUP | POLLERR | POLLIN)) break;
    }
    _exit(0);
}

static void worker(void) {
    namespaces();
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) _exit(1);
    pid_t listening = fork();
    if (listening == 0) {
        close(pair[0]);
        listener(pair[1]);
    }
    close(pair[1]);
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    for (int cap = 0; cap <= 63; cap++) {
        if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) == 1) prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
    }
    landlock();
    int fd = seccomp_filter();
    if (fd >= 0) send_fd(pair[0], fd);
    _exit(0);
}

int main(void) {
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    pid_t child = fork();
    if (child == 0) worker();
    if (child < 0) return 1;
    /* The worker, then its listener (this process's child once the worker is gone). */
    while (waitpid(-1, NULL, 0) > 0) {}
    return 0;
}
