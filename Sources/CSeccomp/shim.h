/* libseccomp, from Debian's libseccomp-dev (apt-get install libseccomp-dev): the worker's
 * system-call filter (CSandbox). */
#include <seccomp.h>
