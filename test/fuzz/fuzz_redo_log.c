/* fuzz_redo_log.c - libFuzzer target for the journal's redo log reader
 * (session/journal_log.c): a dead process's log, of any bytes, is applied
 * or refused when a journal opens, never a crash or a statement that is
 * not the journal's own.
 *
 * The first byte chooses the form. Odd: the rest follows a sound header
 * frame as raw bytes (the framing itself under test). Even: the rest is
 * records separated by the two bytes FF 00, each framed soundly here, so
 * that inputs reach the record reader past the frames' hashes. The
 * journal is kept across inputs in one state folder (its logs are removed
 * once applied). */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session/journal.h"

/* The log a dead writer left; pid 1 is never this process, and the free
 * lock, not the pid, tells that its writer is gone. */
#define FUZZ_LOG_NAME "redo-1-0.1.log"

static const char *fuzz__state(void) {
  static char state[PATH_MAX];
  if (!state[0]) {
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(state, sizeof state, "%s/eddi-fuzz-redo-XXXXXX", tmp);
    if (!mkdtemp(state)) abort();
  }
  return state;
}

static void fuzz__frame_records(StrBuf *log, const uint8_t *data, size_t size) {
  size_t start = 0;
  for (size_t i = 0; i + 1 < size; i++) {
    if (data[i] != 0xff || data[i + 1] != 0x00) continue;
    eddi_redo_frame(log, (const char *)data + start, i - start);
    start = i + 2;
    i++;
  }
  if (start < size) eddi_redo_frame(log, (const char *)data + start, size - start);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  const char *state = fuzz__state();
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  StrBuf log = {0};
  eddi_redo_header_frame(&log, 1, host);
  if (data[0] & 1) eddi_strbuf_append(&log, (const char *)data + 1, size - 1);
  else fuzz__frame_records(&log, data + 1, size - 1);
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/" FUZZ_LOG_NAME, state);
  FILE *file = fopen(path, "wb");
  if (!file) abort();
  fwrite(log.data, 1, log.len, file);
  fclose(file);
  eddi_strbuf_free(&log);
  EddiJournal *journal = NULL;
  StrBuf report = {0};
  EddiError err = {0};
  if (eddi_journal_open(state, NULL, &journal, &report, &err) == 0) eddi_journal_close(journal);
  eddi_strbuf_free(&report);
  unlink(path); /* a damaged log is kept by the journal; the next input writes its own */
  return 0;
}
