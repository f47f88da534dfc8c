/* The worker's sandbox, in three parts, each a small OS call with one contract (SECURITY.md,
 * "The sandbox"). Host-only: plugins never see this header.
 *
 *   ck_sandbox_enter_pid_namespace  the worker becomes pid 1's child in a PID namespace of its
 *                                   own: whatever it starts dies with it, whatever happens.
 *   ck_sandbox_restrict_files       Landlock: read-only access to the paths given, no writes,
 *                                   no TCP, no signals or abstract sockets outside the sandbox.
 *   ck_sandbox_filter_calls         seccomp: no new processes, no exec, no ptrace, no sockets,
 *                                   no namespaces; each refused with EPERM and noted. */
#ifndef CELLKIT_SANDBOX_H
#define CELLKIT_SANDBOX_H

/* Makes a PID namespace (and a user namespace that maps only the caller's own ids, when the
 * caller may not make one otherwise), then forks twice: a small init (pid 1) that reaps, and the
 * worker (pid 2), in which this returns 0. The calling process never returns: it waits and ends
 * as the worker ended (its exit status, or the same signal), so its parent sees the worker's end.
 * When the init ends, the kernel kills every process left in the namespace. Call it while the
 * process has a single thread, before any plugin loads. Returns -1 with errno, nothing changed,
 * when the namespace cannot be made (a kernel without them, or they are turned off). */
int ck_sandbox_enter_pid_namespace(void);

/* Whether the kernel makes a PID namespace here, found as ck_sandbox_enter_pid_namespace makes
 * one (unshare, with a user namespace of its own when CAP_SYS_ADMIN is missing) but for the
 * calling process's next children, with no child started: 1 made, 0 not. It changes for good
 * where this process's children go, so only a process that starts none afterwards calls it
 * (`cellkit --version`). 0 also when a multithreaded process asks for the user namespace. */
int ck_sandbox_pid_namespace_here(void);

/* The Landlock ABI this kernel offers (1 and up), or 0 when it has none. */
int ck_sandbox_landlock_abi(void);

/* Restricts this process and its threads, for good, to reading (and mapping for execution) the
 * files and folders in `paths` (`count` of them; a path that does not exist is left out), its
 * own /proc/self, /dev/urandom, /dev/random and /dev/zero: no writes anywhere but /dev/null, no TCP (ABI 4), no signals to processes outside the sandbox and no abstract
 * Unix sockets (ABI 6). Returns the ABI applied (1 and up), or -1 with errno. Sets
 * no_new_privs. */
int ck_sandbox_restrict_files(const char *const *paths, int count);

/* Installs the system-call filter on this process and its threads, for good: fork, vfork, clone
 * without CLONE_THREAD, execve, execveat, ptrace, process_vm_readv/writev, socket, socketpair,
 * unshare, setns and io_uring_setup fail with EPERM, and each is noted
 * (ck_process_note_refusal) by a thread this starts, which answers them; clone3 fails with
 * ENOSYS, so that the C library makes threads with clone. Returns 0, or -1 with errno (nothing
 * installed). Sets no_new_privs. */
int ck_sandbox_filter_calls(int watch_output);

/* With `watch_output` (check), writes to standard output go through, their first 200 bytes kept:
 * this moves them into `buffer` (at most `capacity`) and returns how many, or -1 when nothing
 * was written to standard output since the last call. */
int ck_sandbox_take_output(char *buffer, int capacity);

/* With `watch_output` (check), every open goes through to Landlock, and one it refuses (a write
 * anywhere, a read outside what the worker may read) is noted as "read PATH" or "write PATH"
 * (also as refusal -1, ck_process_note_refusal): this moves them into `buffer`, NUL-separated
 * (at most `capacity` bytes, the first 16), and returns the bytes used. */
int ck_sandbox_take_file_acts(char *buffer, int capacity);

/* Whether the seccomp filter can be installed here (libseccomp and the kernel's filter mode):
 * 1, or 0. */
int ck_sandbox_seccomp_available(void);

/* The name of what system call `number` does, for a message: "start a process (fork)". */
const char *ck_sandbox_act(long number);

#endif
