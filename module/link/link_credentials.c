/* link_credentials.c - the credentials file of eddi's NATS clients (see
 * eddi_link.h).
 *
 * The embedded default of eddi-server starts a nats-server that refuses
 * anyone without a password, and leaves the passwords where the programs
 * of the same user look for them: files of mode 0600 in eddi's state
 * folder. The file is JSON, so that a client in any language (the npm
 * client of the tests, a script) reads it as easily as the eddi CLI and the
 * Emacs bridge, and names the server it is for: a client asked to connect
 * somewhere else never sends these passwords there.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eddi_link.h"

/* A credentials file is a few short strings; a larger one is not ours. */
#define CREDENTIALS_FILE_MAX 4096
/* "<path>.XXXXXX": the temporary name a file is written under. */
#define CREDENTIALS_TEMP_SUFFIX ".XXXXXX"

/* ------------------------------------------------------------ reading */

/* A copy of object's string member key, or NULL when absent. */
static int credentials__take(json_object *object, const char *key, char **out, char *why,
                             size_t why_size) {
  const char *value = NULL;
  char fail[EDDI_LINK_FAIL_MAX];
  *out = NULL;
  if (eddi_link_get_string(object, key, &value, fail, sizeof fail) < 0) {
    snprintf(why, why_size, "\"%s\" must be a non-empty string", key);
    return EDDI_LINK_EINVAL;
  }
  if (value && !(*out = strdup(value))) return EDDI_LINK_ENOMEM;
  return 0;
}

/* The whole file (at most CREDENTIALS_FILE_MAX bytes) into text. */
static int credentials__slurp(const char *path, char *text, size_t *len, char *why,
                              size_t why_size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    snprintf(why, why_size, "%s: %s", path, strerror(errno));
    return errno == ENOENT ? EDDI_LINK_ENOENT : EDDI_LINK_EIO;
  }
  struct stat st;
  /* Passwords others may read are not passwords: say so rather than use them. */
  if (fstat(fd, &st) == 0 && (st.st_mode & (S_IRWXG | S_IRWXO))) {
    snprintf(why, why_size, "%s: readable by others (mode %03o); chmod 600 it", path,
             (unsigned)(st.st_mode & 0777));
    close(fd);
    return EDDI_LINK_EINVAL;
  }
  ssize_t n = read(fd, text, CREDENTIALS_FILE_MAX);
  close(fd);
  if (n < 0 || n >= CREDENTIALS_FILE_MAX) {
    snprintf(why, why_size, "%s: %s", path, n < 0 ? strerror(errno) : "too large");
    return EDDI_LINK_EINVAL;
  }
  *len = (size_t)n;
  return 0;
}

int eddi_link_credentials_read(const char *path, EddiLinkCredentials *out, char *why,
                               size_t why_size) {
  memset(out, 0, sizeof *out);
  char text[CREDENTIALS_FILE_MAX];
  size_t len = 0;
  int rc = credentials__slurp(path, text, &len, why, why_size);
  if (rc < 0) return rc;
  json_object *object = NULL;
  char fail[EDDI_LINK_FAIL_MAX];
  if (eddi_link_parse_object(text, len, &object, fail, sizeof fail) < 0) {
    snprintf(why, why_size, "%s: not a JSON object", path);
    return EDDI_LINK_EINVAL;
  }
  rc = credentials__take(object, "url", &out->url, why, why_size);
  if (rc == 0) rc = credentials__take(object, "user", &out->user, why, why_size);
  if (rc == 0) rc = credentials__take(object, "password", &out->password, why, why_size);
  if (rc == 0) rc = credentials__take(object, "token", &out->token, why, why_size);
  if (rc == 0) rc = credentials__take(object, "identity", &out->identity, why, why_size);
  json_object_put(object);
  if (rc == 0 && !out->user != !out->password) {
    snprintf(why, why_size, "%s: \"user\" and \"password\" go together", path);
    rc = EDDI_LINK_EINVAL;
  }
  if (rc < 0) eddi_link_credentials_free(out);
  return rc;
}

bool eddi_link_credentials_fit(const EddiLinkCredentials *self, const char *url) {
  return !self->url || strcmp(self->url, url) == 0;
}

void eddi_link_credentials_free(EddiLinkCredentials *self) {
  char **strings[] = {&self->url, &self->user, &self->password, &self->token, &self->identity};
  for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
    free(*strings[i]);
    *strings[i] = NULL;
  }
}

void eddi_link_credentials_apply(const EddiLinkCredentials *self, EddiLinkOptions *options) {
  if (self->user) {
    options->user = self->user;
    options->password = self->password;
  }
  if (self->token) options->token = self->token;
}

/* ------------------------------------------------------------ writing */

int eddi_link_secret_file_write(const char *path, const char *text, size_t len, char *why,
                                size_t why_size) {
  size_t path_len = strlen(path);
  char *temp = malloc(path_len + sizeof CREDENTIALS_TEMP_SUFFIX);
  if (!temp) return EDDI_LINK_ENOMEM;
  memcpy(temp, path, path_len);
  memcpy(temp + path_len, CREDENTIALS_TEMP_SUFFIX, sizeof CREDENTIALS_TEMP_SUFFIX);
  /* mkstemp makes the file 0600 and new: no one else's file is reused, and
   * the rename puts it in place whole. */
  int fd = mkstemp(temp);
  int rc = fd < 0 ? EDDI_LINK_EIO : 0;
  size_t done = 0;
  while (rc == 0 && done < len) {
    ssize_t n = write(fd, text + done, len - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) rc = EDDI_LINK_EIO;
    else done += (size_t)n;
  }
  if (rc == 0 && fsync(fd) != 0) rc = EDDI_LINK_EIO;
  if (fd >= 0 && close(fd) != 0 && rc == 0) rc = EDDI_LINK_EIO;
  if (rc == 0 && rename(temp, path) != 0) rc = EDDI_LINK_EIO;
  if (rc < 0) {
    snprintf(why, why_size, "%s: %s", path, strerror(errno));
    if (fd >= 0) unlink(temp);
  }
  free(temp);
  return rc;
}

int eddi_link_credentials_write(const char *path, const EddiLinkCredentials *credentials,
                                char *why, size_t why_size) {
  json_object *object = json_object_new_object();
  if (!object) return EDDI_LINK_ENOMEM;
  const char *keys[] = {"url", "user", "password", "token", "identity"};
  const char *values[] = {credentials->url, credentials->user, credentials->password,
                          credentials->token, credentials->identity};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    if (values[i]) json_object_object_add(object, keys[i], json_object_new_string(values[i]));
  size_t len = 0;
  const char *text = json_object_to_json_string_length(
      object, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
  int rc = text ? eddi_link_secret_file_write(path, text, len, why, why_size) : EDDI_LINK_ENOMEM;
  json_object_put(object);
  return rc;
}
