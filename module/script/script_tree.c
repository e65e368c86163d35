/* script_tree.c - what a parsed script may do, read from its tree before
 * it runs: whether it needs the owner thread (it runs commands, moves the
 * cursor, applies a changeset) and whether it may write (a read-only
 * sender may run only a script that does not). */
#include "script/script.h"

#include "lang/message.h"
#include "workspace/command.h"

/* A command line of a script that a read-only sender may not run. */
typedef struct {
  const EddiCommandPorts *commands;
  char *word;
  size_t size;
  bool writes;
} ScriptWriteCheck;

static bool parser__command_reads_only(const EddiCommandLine *line, void *closure) {
  ScriptWriteCheck *check = closure;
  char verb[EDDI_COMMAND_NAME_MAX];
  snprintf(verb, sizeof verb, "%.*s", (int)EDDI_MIN(line->verb_len, sizeof verb - 1), line->line);
  const CommandSpec *spec = check->commands->find(check->commands->engine, verb);
  if ((spec && (spec->flags & CMD_SCRIPT)) || (line->len && line->line[0] == '{')) {
    /* A script as a command of a script is refused when it runs; judging
     * it here would parse it again, and again for what it holds. */
    snprintf(check->word, check->size, "%s", verb);
    check->writes = true;
  } else {
    check->writes = !check->commands->line_reads_only(check->commands->engine, line, check->word,
                                                      check->size);
  }
  return !check->writes;
}

/* How far verb's command reaches past its line, by the ports' table. */
static EddiLineReach tree__reach(void *context, const char *verb) {
  const EddiCommandPorts *commands = context;
  return eddi_command_reach(commands->find(commands->engine, verb));
}

static const char *const parser__action_words[] = {
    [SA_REPLACE_WITH] = "replace", [SA_REPLACE_TEXT] = "replace", [SA_FLAG] = "flag",
    [SA_SUGGEST] = "suggest",      [SA_REMOVE] = "remove",        [SA_ADD] = "add",
    [SA_ADD_IMPORT] = "add import", [SA_ADD_LINE] = "add line",
};

/* Whether node may change a file; with collected, only what changes one
 * at once (actions and refactorings go into the script's collected
 * changeset then). */
static bool tree__writes(const ScriptNode *node, const EddiCommandPorts *commands, char *word,
                         size_t word_size, bool collected) {
  if (!node) return false;
  switch (node->kind) {
  case SN_ACTION:
    if (collected || node->action == SA_FLAG || node->action == SA_SUGGEST) break;
    snprintf(word, word_size, "%s", parser__action_words[node->action]);
    return true;
  case SN_REFACTOR:
    if (collected) break;
    snprintf(word, word_size, "Refactor %s", node->text);
    return true;
  case SN_CHANGESET:
    if (strcmp(node->text, "preview") == 0) break;
    snprintf(word, word_size, "%s changeset", node->text);
    return true;
  case SN_COMMAND: {
    ScriptWriteCheck check = {commands, word, word_size, false};
    eddi_message_each_line(node->text, strlen(node->text), tree__reach, (void *)commands,
                           parser__command_reads_only, &check);
    if (check.writes) return true;
    break;
  }
  default: break;
  }
  if (tree__writes(node->body, commands, word, word_size, collected) ||
      tree__writes(node->else_body, commands, word, word_size, collected))
    return true;
  for (size_t i = 0; i < node->children.len; i++)
    if (tree__writes(node->children.items[i], commands, word, word_size, collected)) return true;
  return false;
}

bool eddi_script_writes(const ScriptNode *node, const EddiCommandPorts *commands, char *word,
                        size_t word_size) {
  return tree__writes(node, commands, word, word_size, false);
}

bool eddi_script_collects(const Script *script) {
  const ScriptNode *root = script->root;
  if (!root || root->kind != SN_BLOCK || !root->children.len) return false;
  const ScriptNode *first = root->children.items[0];
  return first->kind == SN_COLLECT && first->value && first->value->kind == SE_STRING;
}

bool eddi_script_writes_at_once(const ScriptNode *node, const EddiCommandPorts *commands,
                                char *word, size_t word_size) {
  return tree__writes(node, commands, word, word_size, true);
}

bool eddi_script_needs_owner(const ScriptNode *node) {
  if (!node) return false;
  switch (node->kind) {
  case SN_COMMAND: case SN_STORE: case SN_GOTO: case SN_PUSH: case SN_POP: return true;
  case SN_CHANGESET: return true;
  default: break;
  }
  if (eddi_script_needs_owner(node->body) || eddi_script_needs_owner(node->else_body)) return true;
  for (size_t i = 0; i < node->children.len; i++)
    if (eddi_script_needs_owner(node->children.items[i])) return true;
  return false;
}
