/* The operating-system calls CellKit's supervisor and workers need that Swift cannot make
 * itself (prctl is variadic; a signal context's registers are machine-specific). Host-only:
 * plugins never see this header. */
#ifndef CELLKIT_PROCESS_H
#define CELLKIT_PROCESS_H

#include <spawn.h>
#include <stdint.h>

/* What to do after every hook: bit 0, set in a child made by fork() in a process that called
 * ck_process_watch_forks(); bit 1, run the check ck_process_check_after_hooks() installed. (The
 * sandbox's refusals are noted outside the worker, by its listener: CSandbox.) */
extern volatile int ck_process_hook_flags;

/* Whether this process is a fork() of the worker that called ck_process_watch_forks(). */
static inline int ck_process_forked(void) { return ck_process_hook_flags & 1; }

/* The flags above: one plain load, cheap enough to test after every hook. */
static inline int ck_process_after_hook(void) { return ck_process_hook_flags; }

/* From now on, `check` runs after every hook (bit 1). */
void ck_process_check_after_hooks(void (*check)(void));

/* Runs the check ck_process_check_after_hooks() installed, as the flags ask. */
void ck_process_run_hook_check(void);

/* close_range(low, high, 0), else each open descriptor in the range closed one by one:
 * 0, or -1 with errno. No allocation. */
int ck_process_close_range(unsigned low, unsigned high);

/* From now on, a child that fork() makes gets the flag above and dies by SIGKILL when its
 * parent dies. Call once; later calls do nothing. */
void ck_process_watch_forks(void);

/* prctl(PR_SET_PDEATHSIG, signal): 0, or -1 with errno. */
int ck_process_parent_death_signal(int signal);

/* prctl(PR_SET_CHILD_SUBREAPER, on): 0, or -1 with errno. */
int ck_process_child_subreaper(int on);

/* The instruction address a signal interrupted, from the handler's third argument; 0 when
 * this machine's context is not known. */
uintptr_t ck_process_fault_address(const void *ucontext);

/* The stack pointer of the interrupted code, from the handler's third argument; 0 when this
 * machine's context is not known. */
uintptr_t ck_process_stack_pointer(const void *ucontext);

/* The first and one-past-last address of the loaded object that holds `address` (its PT_LOAD
 * segments): 0 when found, -1 when no loaded object holds it. */
int ck_process_object_range(const void *address, uintptr_t *start, uintptr_t *end);

/* Adds to `actions` the closing of every descriptor from `low` up in the child (glibc 2.34's
 * posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module does not show): 0, or an
 * error number. */
int ck_process_spawn_close_from(posix_spawn_file_actions_t *actions, int low);

/* Closes every descriptor from `low` up (close_range, else one by one from /proc/self/fd): 0, or
 * -1 with errno. Safe in a child just forked from a threaded process: no allocation. */
int ck_process_close_from(int low);

#endif
