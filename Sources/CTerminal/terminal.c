#define _GNU_SOURCE
#include "cellkit_terminal.h"
#include "cellkit_libraries.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

static int saved_fd = -1;
static struct termios saved;
static struct termios raw_attributes;
static char restore_bytes[256];
static size_t restore_length;
static volatile sig_atomic_t active;
static volatile sig_atomic_t pending;
static int wakeup_fd = -1;

const char *ck_term_library_failure(void) { return ck_library_load(CK_LIBRARY_TINFO); }

int ck_term_setup(const char *term, int fd) {
    int error = 0;
    return ck_tinfo_setupterm(term, fd, &error) == OK ? 0 : -1;
}

int ck_term_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC | O_NONBLOCK); }

int ck_term_string(const char *name, char *out, size_t size) {
    char *value = ck_tinfo_tigetstr(name);
    if (value == NULL || value == (char *)-1) return -1;
    size_t length = strlen(value);
    if (length + 1 > size) return -1;
    memcpy(out, value, length + 1);
    return (int)length;
}

int ck_term_number(const char *name) {
    int value = ck_tinfo_tigetnum(name);
    return value < 0 ? -1 : value;
}

int ck_term_param(const char *name, int a, int b, char *out, size_t size) {
    char *capability = ck_tinfo_tigetstr(name);
    if (capability == NULL || capability == (char *)-1) return -1;
    char *value = ck_tinfo_tiparm2(capability, a, b);
    if (value == NULL) return -1;
    size_t length = strlen(value);
    if (length + 1 > size) return -1;
    memcpy(out, value, length + 1);
    return (int)length;
}

static void write_all(int fd, const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t n = write(fd, bytes, length);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        bytes += n;
        length -= (size_t)n;
    }
}

int ck_term_enter(int fd, const char *restore, size_t length) {
    if (length >= sizeof restore_bytes) return errno = EINVAL, -1;
    if (tcgetattr(fd, &saved) != 0) return -1;
    memcpy(restore_bytes, restore, length);
    restore_length = length;
    raw_attributes = saved;
    raw_attributes.c_iflag &= ~(tcflag_t)(BRKINT | ICRNL | INPCK | ISTRIP | IXON);
    raw_attributes.c_lflag &= ~(tcflag_t)(ECHO | ICANON | IEXTEN | ISIG);
    raw_attributes.c_cflag |= CS8;
    raw_attributes.c_cc[VMIN] = 1;
    raw_attributes.c_cc[VTIME] = 0;
    saved_fd = fd;
    /* TCSADRAIN, not TCSAFLUSH: keys typed while cellkit started are read, not thrown away. */
    if (tcsetattr(fd, TCSADRAIN, &raw_attributes) != 0) return -1;
    active = 1;
    return 0;
}

int ck_term_leave(void) {
    if (!active || saved_fd < 0) return -1;
    active = 0;
    write_all(saved_fd, restore_bytes, restore_length);
    tcsetattr(saved_fd, TCSAFLUSH, &saved);
    return 0;
}

int ck_term_reenter(void) {
    if (saved_fd < 0) return -1;
    if (tcsetattr(saved_fd, TCSADRAIN, &raw_attributes) != 0) return -1;
    active = 1;
    return 0;
}

static void die_restored(int signal) {
    int saved_errno = errno;
    ck_term_leave();
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(signal, &action, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(signal);
    errno = saved_errno;
}

static void wake(int bit) {
    int saved_errno = errno;
    pending |= bit;
    if (wakeup_fd >= 0) {
        char byte = 1;
        (void)!write(wakeup_fd, &byte, 1);
    }
    errno = saved_errno;
}

static void on_signal(int signal) {
    switch (signal) {
    case SIGWINCH: wake(1); break;
    case SIGCONT: wake(2); break;
    case SIGTSTP: {
        int saved_errno = errno;
        int was_active = active;
        ck_term_leave();
        if (was_active) active = 0;
        raise(SIGSTOP);
        errno = saved_errno;
        break;
    }
    default: die_restored(signal);
    }
}

/* Installs on_signal for `signal` with `flags`. */
static void install(int signal, int flags) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = flags;
    sigaction(signal, &action, NULL);
}

/* Whether `signal` is ignored now (SIG_IGN: inherited from `nohup`, a shell's background job, or
 * a parent that ignores SIGPIPE): it cannot end the process, so it is left ignored. */
static int ignored(int signal) {
    struct sigaction current;
    return sigaction(signal, NULL, &current) == 0 && current.sa_handler == SIG_IGN;
}

void ck_term_install_handlers(int wakeup) {
    wakeup_fd = wakeup;
    /* Every catchable signal whose default action ends the process (signal(7): Term), except
     * those ignored on entry; the realtime signals end it too and are added below. */
    static const int terminating[] = {SIGINT,  SIGTERM, SIGHUP,    SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU,
                                      SIGXFSZ, SIGPIPE, SIGVTALRM, SIGPROF, SIGIO,   SIGPWR,  SIGSTKFLT};
    for (size_t i = 0; i < sizeof terminating / sizeof terminating[0]; i++) {
        if (!ignored(terminating[i])) install(terminating[i], 0);
    }
    for (int signal = SIGRTMIN; signal <= SIGRTMAX; signal++) {
        if (!ignored(signal)) install(signal, 0);
    }
    /* Crashes, whether raised by the processor or sent: always, whatever was there (the Swift
     * runtime's backtracer), since the process dies by them. A fault may recur in the handler. */
    static const int crashes[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS};
    for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++) {
        int faults = crashes[i] == SIGSEGV || crashes[i] == SIGBUS;
        install(crashes[i], faults ? SA_NODEFER | SA_RESETHAND : 0);
    }
    install(SIGWINCH, SA_RESTART);
    install(SIGCONT, SA_RESTART);
    install(SIGTSTP, 0);
}

int ck_term_take_signals(void) {
    int bits = pending;
    pending = 0;
    return bits;
}
