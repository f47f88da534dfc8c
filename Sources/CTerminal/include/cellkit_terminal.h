/* The terminal calls `cellkit browse` needs that Swift cannot make well itself: the terminal's
 * description through terminfo (ncurses' setupterm, tigetstr, tigetnum, tparm: no curses
 * windows), and signal handlers that put the terminal back as it was, which must only make
 * async-signal-safe calls (write, tcsetattr). Host-only: plugins never see this header. */
#ifndef CELLKIT_TERMINAL_H
#define CELLKIT_TERMINAL_H

#include <stddef.h>

/* Why terminfo's library (libtinfo, opened on first use: cellkit_libraries.h) cannot be used, or
 * NULL when it can. */
const char *ck_term_library_failure(void);

/* setupterm(term, fd): 0 when the terminal type is described, else -1. */
int ck_term_setup(const char *term, int fd);

/* A string capability (tigetstr) copied into `out` (at most `size` bytes, NUL-terminated):
 * its length, or -1 when the terminal does not have it. */
int ck_term_string(const char *name, char *out, size_t size);

/* pipe2(fds, O_CLOEXEC | O_NONBLOCK): a wakeup pipe, both ends close-on-exec and non-blocking
 * from the start (no child spawned by another thread meanwhile inherits an end): 0, or -1 with
 * errno. Swift's Glibc module does not declare pipe2. */
int ck_term_pipe(int fds[2]);

/* A numeric capability (tigetnum), or -1 when the terminal does not have it. */
int ck_term_number(const char *name);

/* tparm(capability, a, b) for a capability with up to two numeric parameters, copied into
 * `out`: its length, or -1 when the capability is missing or the result does not fit. */
int ck_term_param(const char *name, int a, int b, char *out, size_t size);

/* Saves `fd`'s terminal attributes and switches it to raw mode (no echo, no canonical input,
 * no signals from keys other than those handled, no output processing of newlines kept):
 * 0, or -1 with errno. `restore` (up to 255 bytes) is written to `fd` before the attributes
 * are put back: leaving the alternate screen, showing the cursor. */
int ck_term_enter(int fd, const char *restore, size_t length);

/* Writes the restore bytes and puts the saved attributes back; safe to call twice, and from a
 * signal handler. 0 when there was something to restore. */
int ck_term_leave(void);

/* Switches `fd` to raw mode again after ck_term_leave (after a suspension). */
int ck_term_reenter(void);

/* Installs handlers: every catchable signal that ends the process (SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGXFSZ, SIGPIPE, SIGVTALRM, SIGPROF, SIGIO,
 * SIGPWR, SIGSTKFLT, the realtime signals; one ignored on entry stays ignored) and the crash
 * signals (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS) restore the terminal then
 * die by the same signal; SIGWINCH and SIGCONT write one byte to `wakeup` (a pipe the view polls)
 * and set the flags below; SIGTSTP restores the terminal, then stops the process. */
void ck_term_install_handlers(int wakeup);

/* The signals seen since the last call, as bits: 1 for SIGWINCH, 2 for SIGCONT (resumed). */
int ck_term_take_signals(void);

#endif
