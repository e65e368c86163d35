/* command_table.c - the command table, Help and the read-only check.
 *
 * Each *_commands.c file of services/ holds its commands' specs (name,
 * syntax, summary, flags, handler); this file lists the groups and is the
 * only reader of them. Help, the read-only check and the public table
 * (eddi_command_info) all come from those specs, so a command is described
 * once, where it is implemented.
 */
#include "session/command_table.h"

#include <ctype.h>
#include <pthread.h>
#include <strings.h>

#include "lang/suggest.h"
#include "services/commands.h"
#include "services/script_commands.h"

static int command__run_help(CommandContext *ctx);

/* Help reads the table, so it lives beside it. */
static const CommandSpec help_commands[] = {
    {"Help", "Help [<command>]", "commands, or one command's syntax", CMD_READ_ONLY,
     command__run_help},
};
static COMMAND_GROUP(eddi_help_commands, help_commands);

/* Every command group; Help lists them in this order. Add a new area's
 * group here (one line) and define it in its own *_commands.c. */
static const CommandGroup *const command_groups[] = {
    &eddi_session_commands,
    &eddi_help_commands,
    &eddi_settings_commands,
    &eddi_file_commands,
    &eddi_navigation_commands,
    &eddi_search_commands,
    &eddi_edit_commands,
    &eddi_history_commands,
    &eddi_structure_commands,
    &eddi_edit_format_commands,
    &eddi_refactor_commands,
    &eddi_script_commands,
};

#define GROUP_COUNT (sizeof command_groups / sizeof command_groups[0])

/* Callback style iteration keeps the groups private to this file. */
#define FOR_EACH_COMMAND(spec)                                                  \
  for (size_t group_ = 0; group_ < GROUP_COUNT; group_++)                      \
    for (const CommandSpec *spec = command_groups[group_]->commands;           \
         spec < command_groups[group_]->commands + command_groups[group_]->count; spec++)

const CommandSpec *eddi_command_table_find(const char *name) {
  FOR_EACH_COMMAND(spec) {
    if (strcasecmp(spec->name, name) == 0) return spec;
  }
  return NULL;
}

/* Commands of the language that are not built yet: they answer so, rather
 * than "Unknown command". */
static const char *const planned_commands[] = {"foreach", "if", "let", "use"};

bool eddi_command_planned(const char *name) {
  for (size_t i = 0; i < sizeof planned_commands / sizeof *planned_commands; i++)
    if (strcasecmp(planned_commands[i], name) == 0) return true;
  return false;
}

/* Enough for every command name. */
#define COMMANDS_MAX 128

const char *eddi_command_suggest(const char *name) {
  const char *names[COMMANDS_MAX];
  size_t count = 0;
  FOR_EACH_COMMAND(spec) {
    /* "{" opens a script: no misspelling of a word. */
    if (count < COMMANDS_MAX && spec->name[0] != '{') names[count++] = spec->name;
  }
  return eddi_suggest(name, names, count);
}

/* ---------------------------------------------------------------- Help */

static int command__run_help(CommandContext *ctx) {
  if (ctx->argc > 1) return eddi_command_usage(ctx, "Help takes at most one command name");
  if (ctx->argc == 0) {
    bool first = true;
    FOR_EACH_COMMAND(spec) {
      eddi_reply_builder_payload(ctx->reply, "%s%s", first ? "" : ", ", spec->name);
      first = false;
    }
    return 0;
  }
  const CommandSpec *spec = eddi_command_table_find(ctx->args[0].text);
  if (!spec) {
    eddi_error_set(ctx->err, EDDI_ENOENT, "Unknown command '%s'", ctx->args[0].text);
    const char *near = eddi_command_suggest(ctx->args[0].text);
    if (near) eddi_error_hint(ctx->err, "Did you mean \"%s\"", near);
    return EDDI_ENOENT;
  }
  eddi_reply_builder_payload(ctx->reply, "%s - %s", spec->syntax, spec->summary);
  return 0;
}

/* ------------------------------------------------------------ the public table */

/* The specs as eddi.h shows them, made once: the groups' layout stays
 * private, and callers on any thread get the same entries. */
static EddiCommandInfo command__infos[COMMANDS_MAX];
static size_t command__info_count;
static pthread_once_t command__infos_once = PTHREAD_ONCE_INIT;

static void command__infos_make(void) {
  FOR_EACH_COMMAND(spec) {
    EDDI_ASSERT(command__info_count < COMMANDS_MAX);
    command__infos[command__info_count++] = (EddiCommandInfo){
        .name = spec->name,
        .syntax = spec->syntax,
        .summary = spec->summary,
        .read_only = (spec->flags & CMD_READ_ONLY) != 0,
        .script = (spec->flags & CMD_SCRIPT) != 0,
        .takes_body = (spec->flags & CMD_TAKES_BODY) != 0,
    };
  }
}

size_t eddi_command_count(void) {
  pthread_once(&command__infos_once, command__infos_make);
  return command__info_count;
}

const EddiCommandInfo *eddi_command_info(size_t index) {
  return index < eddi_command_count() ? &command__infos[index] : NULL;
}

/* ------------------------------------------------------------ read-only */

/* Longer than any command name: a longer word is no command. */
#define COMMAND_NAME_MAX 32

/* Words a read-only sender may send that are no command: `Count` (a word
 * of `List Count`) has always passed the check, and then gets the engine's
 * "Unknown command" with its suggestion rather than a refusal. */
static const char *const command__read_only_non_commands[] = {"Count"};

/* The spec of line's command word, or NULL. */
static const CommandSpec *command__line_spec(const EddiCommandLine *line) {
  if (line->verb_len >= COMMAND_NAME_MAX) return NULL;
  char verb[COMMAND_NAME_MAX];
  snprintf(verb, sizeof verb, "%.*s", (int)line->verb_len, line->line);
  return eddi_command_table_find(verb);
}

/* Whether the command word of line is read-only: its spec says so. */
static bool command__verb_reads_only(const EddiCommandLine *line) {
  const CommandSpec *spec = command__line_spec(line);
  if (spec) return (spec->flags & CMD_READ_ONLY) != 0;
  size_t count = sizeof command__read_only_non_commands / sizeof command__read_only_non_commands[0];
  for (size_t i = 0; i < count; i++)
    if (eddi_command_is(line, command__read_only_non_commands[i])) return true;
  return false;
}

/* Whether line is `Open Create ...`: the form of Open that writes a file. */
static bool command__is_open_create(const EddiCommandLine *line) {
  static const char create[] = "Create";
  const size_t create_len = sizeof create - 1;
  if (!eddi_command_is(line, "Open")) return false;
  const char *rest = line->line + line->verb_len;
  size_t left = line->len - line->verb_len;
  while (left && isspace((unsigned char)*rest)) rest++, left--;
  return left >= create_len && strncasecmp(rest, create, create_len) == 0 &&
         (left == create_len || isspace((unsigned char)rest[create_len]));
}

static bool command__line_reads_only(const EddiCommandLine *line, bool collecting, char *word,
                                     size_t word_size) {
  snprintf(word, word_size, "%.*s", (int)line->verb_len, line->line);
  const CommandSpec *spec = command__line_spec(line);
  if ((spec && (spec->flags & CMD_SCRIPT)) || (line->len && line->line[0] == '{'))
    return eddi_script_line_reads_only(eddi_command_table_ports(), line, collecting, word,
                                       word_size);
  if (!command__verb_reads_only(line)) return false;
  if (command__is_open_create(line)) {
    snprintf(word, word_size, "Open Create");
    return false;
  }
  return true;
}

bool eddi_command_line_reads_only(const EddiCommandLine *line, char *word, size_t word_size) {
  return command__line_reads_only(line, false, word, word_size);
}

bool eddi_command_line_collects_only(const EddiCommandLine *line, char *word, size_t word_size) {
  return command__line_reads_only(line, true, word, word_size);
}

/* ------------------------------------------------------------ ports */

static const CommandSpec *command__port_find(void *engine, const char *name) {
  EDDI_UNUSED(engine);
  return eddi_command_table_find(name);
}

static bool command__port_reads_only(void *engine, const EddiCommandLine *line, char *word,
                                     size_t word_size) {
  EDDI_UNUSED(engine);
  return eddi_command_line_reads_only(line, word, word_size);
}

static const EddiCommandPorts command__table_ports = {
    .find = command__port_find,
    .line_reads_only = command__port_reads_only,
};

const EddiCommandPorts *eddi_command_table_ports(void) { return &command__table_ports; }
