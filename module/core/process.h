/* process.h - starting a helper program: a formatter, a language server.
 *
 * One place that knows how eddi starts a child: no shell (the words are
 * the program and its arguments, the program looked up on PATH), in its own
 * process group so that a stop reaches what it started too, and with the
 * signals a front end blocks or ignores (SIGPIPE) back to their defaults.
 */
#ifndef EDDI_PROCESS_H
#define EDDI_PROCESS_H

#include <stdbool.h>
#include <sys/types.h>

/* Start argv[0] (looked up on PATH) with argv, stdin from in, stdout to
 * out, stderr to errors (each a descriptor the child gets as its own; -1
 * for errors: /dev/null), in folder cwd (NULL: eddi's). Returns 0 and
 * *pid, or the errno why it could not start. */
int eddi_process_spawn(char *const argv[], const char *cwd, int in, int out, int errors,
                       pid_t *pid);

/* Whether program (a bare name: looked up on PATH; with a '/': as is) is
 * a file this process may run. */
bool eddi_process_found(const char *program);

/* Monotonic milliseconds, for deadlines. */
long long eddi_process_now_ms(void);

#endif
