/* The worker's sandbox (SECURITY.md, "The sandbox"), closed in one call before any plugin code
 * runs, bubblewrap's way: nothing inside it can loosen it. Host-only: plugins never see this
 * header.
 *
 *   ck_sandbox_enter   new namespaces (network, IPC; a user namespace where the caller lacks
 *                      CAP_SYS_ADMIN), then in the worker: no controlling terminal,
 *                      standard input /dev/null, standard output and error a pipe, resource
 *                      limits, every capability and the bounding set dropped, no_new_privs,
 *                      Landlock, and the seccomp filter whose refused calls are answered outside.
 *
 * Two processes come of it. The calling process stays the worker, with its pid and thread ids, in
 * its new namespaces. Its child, forked before any lock closes, is the *listener*: it answers the
 * filter's notifications (the worker hands it the descriptor and closes its own before returning),
 * forwards the worker's standard output and error to its own standard error with control bytes
 * shown and a volume cap, writes one note a line to the supervisor's report descriptor, and ends
 * once the worker has ended. */
#ifndef CELLKIT_SANDBOX_H
#define CELLKIT_SANDBOX_H

#include <stdint.h>

/* What a sandboxed worker may do and where its listener reports. */
struct ck_sandbox_plan {
    /* Files and folders the worker may read (and map for execution); a path that does not exist
     * is left out. /dev/null, /dev/zero, /dev/urandom, /dev/random and /proc/self come with it. */
    const char *const *readable;
    int readable_count;
    /* CK_SANDBOX_WATCH_OPENS: every open goes to the listener too, which notes one Landlock will
     * refuse (a read outside the readable set, any write); CK_SANDBOX_WATCH_OUTPUT (check): every
     * write to standard output, its first bytes noted. */
    int watch;
    /* Where the listener writes its notes, one a line (the supervisor reads it); -1: none. Closed
     * in the worker. */
    int report_fd;
    /* RLIMIT_AS of the worker in bytes; 0: none. */
    uint64_t memory_limit;
    /* RLIMIT_NOFILE of the worker; 0: unchanged. */
    uint64_t open_files;
    /* A socket the supervisor sends a network and an IPC namespace over, made while this worker
     * started (ck_sandbox_send_namespaces): the worker joins them instead of making its own, or
     * makes its own when none come (the socket closed, or nothing within a second in all). -1
     * (or any standard descriptor): none. Closed in the worker. */
    int namespaces_fd;
};

/* What the listener watches besides refused calls (ck_sandbox_plan.watch). */
enum { CK_SANDBOX_WATCH_OPENS = 1, CK_SANDBOX_WATCH_OUTPUT = 2 };

/* The parts ck_sandbox_enter could not apply, as bits of its result. */
enum {
    CK_SANDBOX_NO_NETWORK_NAMESPACE = 2,
    CK_SANDBOX_NO_IPC_NAMESPACE = 4,
    CK_SANDBOX_NO_LANDLOCK = 8,
    CK_SANDBOX_NO_SECCOMP = 16,
    CK_SANDBOX_NO_CAPABILITY_DROP = 32,
    CK_SANDBOX_NO_LISTENER = 64,
};

/* The kinds of note the listener makes. */
enum {
    CK_SANDBOX_NOTE_REFUSED = 0, /* `act`: what a refused call would have done */
    CK_SANDBOX_NOTE_READ = 1,    /* `detail`: a path outside the readable set (watch) */
    CK_SANDBOX_NOTE_WRITE = 2,   /* `detail`: a path opened for writing (watch) */
    CK_SANDBOX_NOTE_OUTPUT = 3,  /* `detail`: the first bytes written to standard output (watch) */
};

/* Called in the listener for each note: writes the line to send the supervisor into `line` (at
 * most `capacity` bytes, no newline) and returns its length, 0 to send none. `act` names what a
 * refused call would have done ("start a process (fork)"); `detail` holds `detail_length` bytes. */
typedef int (*ck_sandbox_note_fn)(int kind, const char *act, const char *detail, int detail_length, char *line,
                                  int capacity);

/* Called in the listener for each line (or 4 KiB piece) the worker writes to standard output or
 * error: writes it, made safe for a terminal, to the listener's standard error. */
typedef void (*ck_sandbox_forward_fn)(const char *bytes, int length);

/* Closes the sandbox around the calling process, which must have a single thread and becomes the
 * worker: returns the bits of the parts that could not be applied (0: all of them), or -1 with
 * errno when nothing could be done (the process is unchanged). `note` and `forward` run in the
 * listener, a forked child that must take no lock the worker held. Sets no_new_privs. */
int ck_sandbox_enter(const struct ck_sandbox_plan *plan, ck_sandbox_note_fn note, ck_sandbox_forward_fn forward);

/* In the supervisor, on a thread of its own that ends after (it is left in them), while a forked
 * worker starts: makes a network and an IPC namespace, sends them over `socket` to the worker
 * (ck_sandbox_plan.namespaces_fd) and closes `socket` and its own copies. Making a network
 * namespace is the sandbox's dearest step; made here, on the processor the supervisor leaves idle
 * while its worker starts, the worker only joins them. It needs CAP_SYS_ADMIN, as no user namespace
 * can be made by a thread of a process that has more: 0 when sent, else -1 (nothing sent; the
 * worker makes its own). */
int ck_sandbox_send_namespaces(int socket);

/* Whether the kernel makes the worker's network namespace here, found as ck_sandbox_enter makes it
 * (with a user namespace of its own when CAP_SYS_ADMIN is missing): 1 made, 0 not. It moves the
 * calling process for good, so only a process about to exit calls it (`cellkit --version`), or a
 * child made to ask. 0 also when a multithreaded process asks for the user namespace. */
int ck_sandbox_namespaces_here(void);

/* The Landlock ABI this kernel offers (1 and up), or 0 when it has none. */
int ck_sandbox_landlock_abi(void);

/* Whether the seccomp filter can be installed here (the kernel's filter mode, and its action
 * that hands a call to a listener): 1, or 0. */
int ck_sandbox_seccomp_available(void);

/* This process's no-new-privileges flag (0 or 1) and seccomp mode (0 none, 2 a filter), as
 * prctl answers them: the state /proc/self/status shows as NoNewPrivs and Seccomp, without the
 * kernel writing out the whole file. -1 when prctl fails. */
int ck_sandbox_no_new_privs(void);
int ck_sandbox_seccomp_mode(void);

/* What a call the filter refuses would have done, for a message: "start a process (fork)".
 * `arch` is the call's audit architecture, `request` its second argument (an ioctl's request). */
const char *ck_sandbox_act(long number, uint32_t arch, uint64_t request);

/* The worker's seccomp filter run here for call `number` of audit architecture `arch` with
 * arguments `args` (six, or NULL for zeros) under `watch` (CK_SANDBOX_WATCH_*): its return value
 * (SECCOMP_RET_ALLOW, _USER_NOTIF, _ERRNO | errno), or 0xffffffff when the program could not be
 * run. For tests of the program's layout. */
uint32_t ck_sandbox_filter_verdict(long number, uint32_t arch, int watch, const uint64_t *args);

/* Whether call `number` is one the filter allows whatever its arguments under `watch`. For tests. */
int ck_sandbox_allows_outright(long number, int watch);

#endif
