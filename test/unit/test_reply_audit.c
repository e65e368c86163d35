/* test_reply_audit.c - every Fail points at the fix.
 *
 * The transcripts (the .eddi files of test/transcripts/) are where replies are checked
 * exactly; this test reads them as data and holds each command's failure
 * replies to one rule: a Fail carries a hint (what to do next), or its
 * reason names what the command was given, so that the reader sees which
 * of their words was wrong. It walks the command table (eddi.h) to know
 * which words are commands, and checks that every command whose failures
 * can be provoked has at least one in the transcripts, so that a new
 * command cannot skip the audit by having no failing transcript line. */
#include "unit_support.h"

#include <ctype.h>
#include <strings.h>

#include "eddi.h"

#ifndef EDDI_TRANSCRIPTS
#error "EDDI_TRANSCRIPTS: the folder of the transcripts"
#endif

/* Longest command line or reply the audit reads; transcripts are short. */
#define AUDIT_LINE_MAX 4096
/* Most command lines one message holds in a transcript. */
#define AUDIT_COMMANDS_MAX 64
/* Most commands in the table (eddi_command_count is far below). */
#define AUDIT_TABLE_MAX 128

/* The reply every command after a failed one gets: about the earlier one. */
static const char audit_skipped[] = "Skipped: an earlier command failed";

typedef struct {
  char line[AUDIT_LINE_MAX]; /* the command line */
  size_t verb_len;
  char body[AUDIT_LINE_MAX]; /* the body of a command that takes one */
} AuditCommand;

typedef struct {
  AuditCommand items[AUDIT_COMMANDS_MAX];
  size_t count;
} AuditMessage;

static bool audit__visit(const EddiCommandLine *line, void *closure) {
  AuditMessage *message = closure;
  if (message->count == AUDIT_COMMANDS_MAX) return false;
  AuditCommand *command = &message->items[message->count++];
  snprintf(command->line, sizeof command->line, "%.*s", (int)line->len, line->line);
  command->verb_len = line->verb_len;
  snprintf(command->body, sizeof command->body, "%.*s", line->takes_body ? (int)line->body_len : 0,
           line->takes_body ? line->body : "");
  return true;
}

typedef struct {
  size_t violations;
  StrBuf report;
  bool failed[AUDIT_TABLE_MAX]; /* a Fail of command i was seen */
} Audit;

/* The command's index in the table, or -1. */
static int audit__command_index(const char *verb, size_t len) {
  for (size_t i = 0; i < eddi_command_count(); i++) {
    const char *name = eddi_command_info(i)->name;
    if (strlen(name) == len && strncasecmp(name, verb, len) == 0) return (int)i;
  }
  return -1;
}

/* Shortest word of a quoted argument or a body that counts as naming it:
 * one letter is found in any reason. */
#define AUDIT_WORD_MIN 2

/* Whether one of the words of text[0, len) (split at blanks), of at least
 * AUDIT_WORD_MIN bytes, is in what. */
static bool audit__names_a_word(const char *what, const char *text, size_t len) {
  for (size_t i = 0; i < len;) {
    while (i < len && isspace((unsigned char)text[i])) i++;
    size_t start = i;
    while (i < len && !isspace((unsigned char)text[i])) i++;
    if (i - start < AUDIT_WORD_MIN) continue;
    char word[AUDIT_LINE_MAX];
    snprintf(word, sizeof word, "%.*s", (int)(i - start), text + start);
    if (strstr(what, word)) return true;
  }
  return false;
}

/* Whether the reason (escaped as in the reply) names what the command was
 * given: an argument as written, a quoted argument's text or one of its
 * words, or a word of the body a command takes. */
static bool audit__names_input(const char *what, const AuditCommand *command) {
  const char *p = command->line + command->verb_len;
  while (*p) {
    while (*p == ' ' || *p == '\t') p++;
    if (!*p) break;
    char word[AUDIT_LINE_MAX];
    size_t n = 0;
    bool quoted = *p == '"';
    if (quoted) {
      for (p++; *p && *p != '"'; p++) {
        if (*p == '\\' && p[1]) p++; /* the string's escapes */
        word[n++] = *p;
      }
      if (*p) p++;
    } else {
      while (*p && *p != ' ' && *p != '\t') word[n++] = *p++;
    }
    word[n] = '\0';
    if (n && strstr(what, word)) return true;
    if (quoted && audit__names_a_word(what, word, n)) return true;
  }
  return audit__names_a_word(what, command->body, strlen(command->body));
}

/* Check one reply line to one command. */
static void audit__reply(Audit *self, const char *file, size_t line_no, const AuditCommand *command,
                         const char *reply) {
  if (strncmp(reply, "Fail \"", 6) != 0) return;
  /* The reason runs to the first unescaped quote; a hint follows ", ". */
  char what[AUDIT_LINE_MAX];
  size_t n = 0;
  const char *p = reply + 6;
  for (; *p && *p != '"'; p++) {
    if (*p == '\\' && p[1]) p++; /* the reply's escapes: \" \\ (and \n \t, kept as letters) */
    what[n++] = *p;
  }
  what[n] = '\0';
  bool hint = *p == '"' && strncmp(p + 1, ", ", 2) == 0 && p[3];
  if (strcmp(what, audit_skipped) == 0) return;
  int index = audit__command_index(command->line, command->verb_len);
  if (index < 0) return; /* not a command: the engine's own replies */
  self->failed[index] = true;
  if (hint || audit__names_input(what, command)) return;
  self->violations++;
  eddi_strbuf_printf(&self->report, "  %s:%zu: %s -> %s\n", file, line_no, command->line, reply);
}

/* Read one transcript: each "To Eddi:" message (with its "| " lines) and
 * the "Eddi : " replies after it, one per command line. */
static void audit__transcript(Audit *self, const char *path, const char *name) {
  FILE *in = fopen(path, "r");
  assert_non_null(in);
  char line[AUDIT_LINE_MAX];
  StrBuf message = {0};
  AuditMessage commands = {0};
  bool in_message = false;
  size_t next_reply = 0, line_no = 0;
  while (fgets(line, sizeof line, in)) {
    line_no++;
    line[strcspn(line, "\n")] = '\0';
    if (in_message && strncmp(line, "| ", 2) == 0) {
      eddi_strbuf_printf(&message, "\n%s", line + 2);
      continue;
    }
    if (in_message && strcmp(line, "|") == 0) {
      eddi_strbuf_puts(&message, "\n");
      continue;
    }
    if (in_message) {
      commands.count = 0;
      eddi_each_command(message.data, message.len, audit__visit, &commands);
      in_message = false;
      next_reply = 0;
    }
    if (strncmp(line, "To Eddi: ", 9) == 0 || strcmp(line, "To Eddi:") == 0) {
      eddi_strbuf_clear(&message);
      eddi_strbuf_puts(&message, line[8] ? line + 9 : "");
      in_message = true;
    } else if (strncmp(line, "Eddi : ", 7) == 0 && next_reply < commands.count) {
      audit__reply(self, name, line_no, &commands.items[next_reply++], line + 7);
    }
  }
  eddi_strbuf_free(&message);
  fclose(in);
}

static void audit__all(Audit *self) {
  DIR *dir = opendir(EDDI_TRANSCRIPTS);
  assert_non_null(dir);
  struct dirent *entry;
  size_t read = 0;
  while ((entry = readdir(dir))) {
    size_t len = strlen(entry->d_name);
    if (len < 5 || strcmp(entry->d_name + len - 5, ".eddi") != 0) continue;
    char path[PATH_MAX];
    unit_path(path, EDDI_TRANSCRIPTS, entry->d_name);
    audit__transcript(self, path, entry->d_name);
    read++;
  }
  closedir(dir);
  assert_true(read > 0);
}

/* ---------------------------------------------------------------- tests */

static void test_every_fail_names_the_input_or_gives_a_hint(void **state) {
  (void)state;
  Audit audit = {0};
  assert_true(eddi_command_count() <= AUDIT_TABLE_MAX);
  audit__all(&audit);
  /* cmocka cuts long messages: the list goes to stderr whole. */
  if (audit.violations) {
    fprintf(stderr, "Fail replies that neither name the input nor say what to do:\n%s",
            audit.report.data);
    fail_msg("%zu such Fail replies", audit.violations);
  }
  eddi_strbuf_free(&audit.report);
}

/* Commands that cannot fail in a way a transcript can show. */
static const char *const audit_never_fail[] = {NULL};

static void test_every_command_has_a_failing_transcript_line(void **state) {
  (void)state;
  Audit audit = {0};
  audit__all(&audit);
  StrBuf missing = {0};
  for (size_t i = 0; i < eddi_command_count(); i++) {
    const char *name = eddi_command_info(i)->name;
    bool exempt = false;
    for (size_t k = 0; audit_never_fail[k]; k++) exempt |= strcmp(audit_never_fail[k], name) == 0;
    if (!audit.failed[i] && !exempt) eddi_strbuf_printf(&missing, " %s", name);
  }
  if (missing.len) fail_msg("No transcript shows a failure of:%s", missing.data);
  eddi_strbuf_free(&missing);
  eddi_strbuf_free(&audit.report);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_fail_names_the_input_or_gives_a_hint),
      cmocka_unit_test(test_every_command_has_a_failing_transcript_line),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
