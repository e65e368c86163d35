/* mcp_config.c - see mcp_config.h.
 *
 * Each client is a row of one table: the key its file keeps servers under,
 * whether an entry names its transport, and the file under the workspace
 * where the client reads project servers. JSON goes through json-c (read
 * strictly, so that a file with comments is refused rather than rewritten
 * without them); Codex's TOML is written by hand and merged by tables: the
 * [mcp_servers.eddi] table (and its sub-tables) is replaced or added, every
 * other line is kept as it was.
 */
#include "mcp_config.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eddi.h"
#include "eddi_link.h"

/* The server's name in every client's configuration. */
#define CONFIG_SERVER_NAME "eddi"
/* A configuration file larger than this is refused: no client's is. */
#define CONFIG_FILE_MAX (4 * 1024 * 1024)
#define CONFIG_WHY_MAX 1024

typedef enum { CONFIG_JSON, CONFIG_TOML } ConfigFormat;

typedef struct {
  const char *name;        /* --client NAME */
  const char *title;       /* in messages */
  ConfigFormat format;
  const char *servers_key; /* JSON: the object that holds servers by name */
  bool names_type;         /* the entry says "type": "stdio" */
  const char *file;        /* the project file under the workspace; NULL: none */
  const char *where;       /* where a person puts the printed entry */
} ConfigClient;

static const ConfigClient config__clients[] = {
    {"vscode", "VS Code", CONFIG_JSON, "servers", true, ".vscode/mcp.json",
     ".vscode/mcp.json in the workspace (or the user profile's mcp.json)"},
    {"jetbrains", "JetBrains AI Assistant", CONFIG_JSON, "mcpServers", false, NULL,
     "Settings | Tools | AI Assistant | Model Context Protocol (MCP): Add, As JSON"},
    {"claude", "Claude Code", CONFIG_JSON, "mcpServers", true, ".mcp.json",
     ".mcp.json at the workspace root (project scope)"},
    {"codex", "Codex", CONFIG_TOML, NULL, false, ".codex/config.toml",
     ".codex/config.toml of a trusted project, or ~/.codex/config.toml"},
    {"cursor", "Cursor", CONFIG_JSON, "mcpServers", false, ".cursor/mcp.json",
     ".cursor/mcp.json in the workspace, or ~/.cursor/mcp.json"},
    {"zed", "Zed", CONFIG_JSON, "context_servers", false, ".zed/settings.json",
     ".zed/settings.json in the workspace, or Zed's settings.json"},
};

#define CONFIG_CLIENT_COUNT (sizeof config__clients / sizeof config__clients[0])

static void config__usage(FILE *out) {
  fprintf(out, "usage: eddi-server " MCP_CONFIG_COMMAND
               " --client vscode|jetbrains|claude|codex|cursor|zed [--workspace DIR] "
               "[--write]\n"
               "  prints the client's MCP entry for this eddi-server (absolute paths);\n"
               "  --write merges it into the client's project file under DIR, keeping the "
               "other entries\n");
}

static const ConfigClient *config__client(const char *name) {
  for (size_t i = 0; i < CONFIG_CLIENT_COUNT; i++)
    if (strcmp(config__clients[i].name, name) == 0) return &config__clients[i];
  return NULL;
}

/* ------------------------------------------------------------ the entry */

/* What every client runs: this program, serving DIR over stdio. */
typedef struct {
  char command[PATH_MAX];
  char workspace[PATH_MAX];
} ConfigServer;

static json_object *config__json_entry(const ConfigClient *client, const ConfigServer *server) {
  json_object *entry = json_object_new_object();
  if (client->names_type) json_object_object_add(entry, "type", json_object_new_string("stdio"));
  json_object_object_add(entry, "command", json_object_new_string(server->command));
  json_object *args = json_object_new_array();
  json_object_array_add(args, json_object_new_string("--stdio"));
  json_object_array_add(args, json_object_new_string("--root"));
  json_object_array_add(args, json_object_new_string(server->workspace));
  json_object_object_add(entry, "args", args);
  return entry;
}

/* A TOML basic string: quoted, with \\ \" and control bytes escaped. */
static void config__toml_string(FILE *out, const char *text) {
  fputc('"', out);
  for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
    if (*c == '"' || *c == '\\')
      fprintf(out, "\\%c", *c);
    else if (*c < 0x20 || *c == 0x7f)
      fprintf(out, "\\u%04X", *c);
    else
      fputc(*c, out);
  }
  fputc('"', out);
}

/* The [mcp_servers.eddi] table, written to out. */
static void config__toml_table(FILE *out, const ConfigServer *server) {
  fputs("[mcp_servers." CONFIG_SERVER_NAME "]\ncommand = ", out);
  config__toml_string(out, server->command);
  fputs("\nargs = [\"--stdio\", \"--root\", ", out);
  config__toml_string(out, server->workspace);
  fputs("]\n", out);
}

static const char *config__json_text(json_object *value) {
  return json_object_to_json_string_ext(
      value, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
}

/* ------------------------------------------------------------ files */

/* The file's bytes (NUL-terminated), or NULL: *missing when there is none,
 * else why. */
static char *config__read(const char *path, size_t *len, bool *missing, char *why,
                          size_t why_size) {
  *missing = false;
  FILE *in = fopen(path, "rb");
  if (!in) {
    if (errno == ENOENT) *missing = true;
    else snprintf(why, why_size, "cannot read %.300s: %.300s", path, strerror(errno));
    return NULL;
  }
  char *text = malloc(CONFIG_FILE_MAX + 1);
  size_t got = text ? fread(text, 1, CONFIG_FILE_MAX + 1, in) : 0;
  bool failed = !text || ferror(in);
  fclose(in);
  if (failed || got > CONFIG_FILE_MAX) {
    snprintf(why, why_size, failed ? "cannot read %.300s" : "%.300s is larger than %d bytes", path,
             CONFIG_FILE_MAX);
    free(text);
    return NULL;
  }
  text[got] = '\0';
  *len = got;
  return text;
}

/* Make the file's folder (one level: .vscode, .codex ...) when missing. */
static int config__make_folder(const char *path, char *why, size_t why_size) {
  char folder[PATH_MAX];
  snprintf(folder, sizeof folder, "%s", path);
  char *slash = strrchr(folder, '/');
  if (!slash || slash == folder) return 0;
  *slash = '\0';
  if (mkdir(folder, 0755) == 0 || errno == EEXIST) return 0;
  snprintf(why, why_size, "cannot make %.300s: %.300s", folder, strerror(errno));
  return -1;
}

/* Write text to path whole or not at all: a temporary file in the same
 * folder, flushed to the disk, renamed over it; an existing file keeps its
 * mode bits. */
static int config__write(const char *path, const char *text, size_t len, char *why,
                         size_t why_size) {
  if (config__make_folder(path, why, why_size) < 0) return -1;
  struct stat before;
  mode_t mode = stat(path, &before) == 0 ? before.st_mode & 07777 : 0644;
  char temporary[PATH_MAX + 16];
  snprintf(temporary, sizeof temporary, "%s.eddi-XXXXXX", path);
  int fd = mkstemp(temporary);
  if (fd < 0) {
    snprintf(why, why_size, "cannot write beside %.300s: %.300s", path, strerror(errno));
    return -1;
  }
  size_t done = 0;
  while (done < len) {
    ssize_t n = write(fd, text + done, len - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += (size_t)n;
  }
  bool ok = done == len && fchmod(fd, mode) == 0 && fsync(fd) == 0;
  ok = close(fd) == 0 && ok;
  if (!ok || rename(temporary, path) != 0) {
    snprintf(why, why_size, "cannot write %.300s: %.300s", path, strerror(errno));
    unlink(temporary);
    return -1;
  }
  return 0;
}

/* ------------------------------------------------------------ merging JSON */

/* text (the file as it is, or NULL for none) with the eddi entry set under
 * the client's key: a new string, or NULL with why. *others counts the
 * entries kept beside it. */
static char *config__merge_json(const ConfigClient *client, const ConfigServer *server,
                                const char *path, const char *text, size_t len, size_t *others,
                                char *why, size_t why_size) {
  json_object *root = NULL;
  if (text) {
    const char *trouble = NULL;
    if (eddi_link_json_parse(text, len, false, &root, &trouble) < 0) {
      snprintf(why, why_size,
               "%.300s is not strict JSON (%.300s): eddi rewrites only a file it can read whole, and "
               "would lose what it cannot (comments, trailing commas); add the printed entry "
               "by hand",
               path, trouble ? trouble : "unreadable");
      return NULL;
    }
    if (!json_object_is_type(root, json_type_object)) {
      snprintf(why, why_size, "%.300s holds JSON that is not an object: not %.300s's file; fix or move it",
               path, client->title);
      json_object_put(root);
      return NULL;
    }
  } else {
    root = json_object_new_object();
  }
  json_object *servers = NULL;
  if (!json_object_object_get_ex(root, client->servers_key, &servers)) {
    servers = json_object_new_object();
    json_object_object_add(root, client->servers_key, servers);
  } else if (!json_object_is_type(servers, json_type_object)) {
    snprintf(why, why_size, "%.300s: \"%.300s\" is not an object of servers by name; fix it first",
             path, client->servers_key);
    json_object_put(root);
    return NULL;
  }
  *others = (size_t)json_object_object_length(servers) -
            (json_object_object_get_ex(servers, CONFIG_SERVER_NAME, NULL) ? 1 : 0);
  json_object_object_add(servers, CONFIG_SERVER_NAME, config__json_entry(client, server));
  char *merged = NULL;
  const char *out = config__json_text(root);
  if (out && (merged = malloc(strlen(out) + 2))) sprintf(merged, "%s\n", out);
  json_object_put(root);
  if (!merged) snprintf(why, why_size, "out of memory");
  return merged;
}

/* ------------------------------------------------------------ merging TOML */

/* The table a header line names, spaces taken out ("mcp_servers.eddi"),
 * into name; false for a line that is not a header. */
static bool config__toml_header(const char *line, size_t len, char *name, size_t name_size) {
  size_t at = 0, out = 0;
  while (at < len && (line[at] == ' ' || line[at] == '\t')) at++;
  if (at >= len || line[at] != '[') return false;
  at++;
  if (at < len && line[at] == '[') at++; /* an array of tables */
  for (; at < len && line[at] != ']' && out + 1 < name_size; at++)
    if (line[at] != ' ' && line[at] != '\t') name[out++] = line[at];
  name[out] = '\0';
  return true;
}

/* True when a key line sets key (`key = ...`, `key.x = ...`). */
static bool config__toml_sets(const char *line, size_t len, const char *key) {
  size_t at = 0, key_len = strlen(key);
  while (at < len && (line[at] == ' ' || line[at] == '\t')) at++;
  if (len - at < key_len || strncmp(line + at, key, key_len) != 0) return false;
  char next = at + key_len < len ? line[at + key_len] : '\0';
  return next == ' ' || next == '\t' || next == '=' || next == '.';
}

/* The file with its eddi table replaced (where it was) or added (at the
 * end): a new string, or NULL with why. Refuses what a line-by-line reading
 * could get wrong. */
static char *config__merge_toml(const ConfigServer *server, const char *path, const char *text,
                                size_t len, size_t *others, char *why, size_t why_size) {
  *others = 0;
  if (text && (memchr(text, '\0', len) || !eddi_utf8_valid(text, len))) {
    snprintf(why, why_size, "%.300s is not UTF-8 text: TOML must be; fix it first", path);
    return NULL;
  }
  if (text && (strstr(text, "'''") || strstr(text, "\"\"\""))) {
    snprintf(why, why_size,
             "%.300s has multi-line strings: eddi merges TOML table by table and cannot tell a "
             "table from a string's line there; add the printed table by hand",
             path);
    return NULL;
  }
  char *merged = NULL;
  size_t merged_len = 0;
  FILE *out = open_memstream(&merged, &merged_len);
  if (!out) {
    snprintf(why, why_size, "out of memory");
    return NULL;
  }
  bool in_eddi = false, in_servers = false, written = false, refused = false;
  char table[256] = "";
  for (const char *line = text; line && *line && !refused;) {
    const char *end = strchr(line, '\n');
    size_t line_len = end ? (size_t)(end - line) : strlen(line);
    char name[256];
    if (config__toml_header(line, line_len, name, sizeof name)) {
      snprintf(table, sizeof table, "%s", name);
      bool eddi = strcmp(name, "mcp_servers." CONFIG_SERVER_NAME) == 0 ||
                  strncmp(name, "mcp_servers." CONFIG_SERVER_NAME ".",
                          sizeof "mcp_servers." CONFIG_SERVER_NAME) == 0;
      if (strncmp(name, "mcp_servers.", sizeof "mcp_servers." - 1) == 0 && !eddi &&
          strstr(name, CONFIG_SERVER_NAME) && strchr(name, '"')) {
        snprintf(why, why_size, "%.300s names eddi's table with quotes ([%.300s]): edit it by hand",
                 path, name);
        refused = true;
        break;
      }
      bool other_server = strncmp(name, "mcp_servers.", sizeof "mcp_servers." - 1) == 0 && !eddi &&
                          !strchr(name + sizeof "mcp_servers." - 1, '.');
      if (other_server) (*others)++;
      in_servers = strcmp(name, "mcp_servers") == 0;
      if (eddi && !written) config__toml_table(out, server), written = true;
      in_eddi = eddi;
    } else if ((in_servers && config__toml_sets(line, line_len, CONFIG_SERVER_NAME)) ||
               (!table[0] && config__toml_sets(line, line_len, "mcp_servers"))) {
      snprintf(why, why_size,
               "%.300s sets %.300s with dotted keys or an inline table: eddi replaces only its own "
               "[mcp_servers.eddi] table; edit it by hand",
               path, in_servers ? "mcp_servers.eddi" : "mcp_servers");
      refused = true;
      break;
    }
    if (!in_eddi) fprintf(out, "%.*s%s", (int)line_len, line, end ? "\n" : "");
    line = end ? end + 1 : line + line_len;
  }
  if (!refused && !written) {
    if (text && len && text[len - 1] != '\n') fputc('\n', out);
    if (text && len) fputc('\n', out);
    config__toml_table(out, server);
  }
  fclose(out);
  if (refused) {
    free(merged);
    return NULL;
  }
  return merged;
}

/* ------------------------------------------------------------ main */

static int config__fail(const char *why) {
  fprintf(stderr, "eddi-server " MCP_CONFIG_COMMAND ": %s\n", why);
  return EXIT_FAILURE;
}

/* This program's absolute path, and the workspace's. */
static int config__server(ConfigServer *self, const char *workspace, char *why, size_t why_size) {
  ssize_t n = readlink("/proc/self/exe", self->command, sizeof self->command - 1);
  if (n <= 0) {
    snprintf(why, why_size, "cannot find this program's path (/proc/self/exe): %.300s",
             strerror(errno));
    return -1;
  }
  self->command[n] = '\0';
  if (!realpath(workspace, self->workspace)) {
    snprintf(why, why_size, "--workspace %.300s: %.300s", workspace, strerror(errno));
    return -1;
  }
  struct stat st;
  if (stat(self->workspace, &st) != 0 || !S_ISDIR(st.st_mode)) {
    snprintf(why, why_size, "--workspace %.300s is not a folder", workspace);
    return -1;
  }
  return 0;
}

static int config__print(const ConfigClient *client, const ConfigServer *server) {
  if (client->format == CONFIG_TOML) {
    config__toml_table(stdout, server);
  } else {
    json_object *root = json_object_new_object(), *servers = json_object_new_object();
    json_object_object_add(servers, CONFIG_SERVER_NAME, config__json_entry(client, server));
    json_object_object_add(root, client->servers_key, servers);
    printf("%s\n", config__json_text(root));
    json_object_put(root);
  }
  fprintf(stderr, "eddi-server " MCP_CONFIG_COMMAND ": for %s, put this in %s%s\n",
          client->title, client->where, client->file ? " (or run again with --write)" : "");
  return EXIT_SUCCESS;
}

static int config__write_client(const ConfigClient *client, const ConfigServer *server) {
  char why[CONFIG_WHY_MAX];
  if (!client->file) {
    snprintf(why, sizeof why,
             "%.300s keeps its servers in its own settings, not in a file of the workspace: run "
             "without --write and paste the entry into %.300s",
             client->title, client->where);
    return config__fail(why);
  }
  char path[PATH_MAX];
  if ((size_t)snprintf(path, sizeof path, "%s/%s", server->workspace, client->file) >= sizeof path)
    return config__fail("the workspace's path is too long for its configuration file's");
  size_t len = 0, others = 0;
  bool missing = false;
  char *text = config__read(path, &len, &missing, why, sizeof why);
  if (!text && !missing) return config__fail(why);
  char *merged = client->format == CONFIG_TOML
                     ? config__merge_toml(server, path, text, len, &others, why, sizeof why)
                     : config__merge_json(client, server, path, text, len, &others, why,
                                          sizeof why);
  free(text);
  if (!merged) return config__fail(why);
  int rc = config__write(path, merged, strlen(merged), why, sizeof why);
  free(merged);
  if (rc < 0) return config__fail(why);
  printf("eddi-server " MCP_CONFIG_COMMAND ": wrote %s (%s eddi; %zu other server%s kept)\n", path,
         missing ? "new, with" : "merged", others, others == 1 ? "" : "s");
  return EXIT_SUCCESS;
}

int mcp_config_main(int argc, char **argv) {
  const char *client_name = NULL, *workspace = ".";
  bool write = false;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      config__usage(stdout);
      return EXIT_SUCCESS;
    }
    if (strcmp(arg, "--write") == 0) {
      write = true;
    } else if (strcmp(arg, "--client") == 0 && i + 1 < argc) {
      client_name = argv[++i];
    } else if (strcmp(arg, "--workspace") == 0 && i + 1 < argc) {
      workspace = argv[++i];
    } else {
      char why[CONFIG_WHY_MAX];
      snprintf(why, sizeof why, "unknown or incomplete argument '%.300s' (see --help)", arg);
      return config__fail(why);
    }
  }
  if (!client_name)
    return config__fail("--client is missing: vscode, jetbrains, claude, codex, cursor or zed");
  const ConfigClient *client = config__client(client_name);
  if (!client) {
    char why[CONFIG_WHY_MAX];
    snprintf(why, sizeof why,
             "unknown client '%.300s': the clients are vscode, jetbrains, claude, codex, cursor, zed",
             client_name);
    return config__fail(why);
  }
  ConfigServer server;
  char why[CONFIG_WHY_MAX];
  if (config__server(&server, workspace, why, sizeof why) < 0) return config__fail(why);
  return write ? config__write_client(client, &server) : config__print(client, &server);
}
