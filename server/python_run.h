/* python_run.h - the python.run method: a script nobody vouches for, run
 * confined, its calls served by this server.
 *
 * The script's text goes into a private folder, and eddi's own Python
 * runner starts as `python3 -m eddi run --sandbox --attach 3,4 [--apply]
 * script.py ROOT`: descriptors 3 and 4 are a JSON-RPC connection this
 * server serves itself (stdio_rpc over two pipes). That runner confines the
 * script with eddi-sandbox and relays its calls collect-only
 * (doc/python.org, The sandbox), so the script reads and collects and
 * never writes; with apply the runner then applies what it collected. The
 * result is the runner's exit status and output.
 *
 * A run takes a thread of its own: the script's calls come back into this
 * server, and the connection that asked must stay free meanwhile.
 */
#ifndef EDDI_SERVER_PYTHON_RUN_H
#define EDDI_SERVER_PYTHON_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "engine_host.h"

/* Output kept of each stream; the rest is counted, not kept. */
#define PYTHON_RUN_OUTPUT_MAX ((size_t)1 << 20)
/* Seconds a script may run by the clock unless the call says (at most
 * PYTHON_RUN_TIMEOUT_MAX). */
#define PYTHON_RUN_TIMEOUT_DEFAULT 60
#define PYTHON_RUN_TIMEOUT_MAX 600

typedef struct {
  const char *script; /* the script's text */
  size_t len;
  const char *const *args; /* its sys.argv[1:], NULL-terminated; may be NULL */
  bool apply;              /* apply what it collected */
  int timeout_seconds;
} PythonRunArgs;

typedef struct {
  int status; /* the runner's exit status (125: the sandbox could not start) */
  char *out, *err; /* what it printed (NUL-terminated), with a note past the limit */
} PythonRunResult;

/* Run args through host, waiting for the end. SERVER_OK with out filled
 * (free it with python_run_result_free), or an error with why. */
int python_run(EngineHost *host, const PythonRunArgs *args, PythonRunResult *out, char *why,
               size_t why_size);

void python_run_result_free(PythonRunResult *self);

#endif
