/* word_users.h - the files a language server is shown for what they use
 * of a change or a name: files of the workspace that name a word (found
 * here on disk; refactor_call.h finds them as the refactorings read them).
 *
 * A server that has not indexed the workspace sees only what it is shown:
 * to tell what a change breaks elsewhere (the second opinion), or where a
 * name is used (Show References), the files naming it are shown too, at
 * most EDDI_LSP_USERS_MAX of them, each at most EDDI_WORD_USER_BYTES_MAX.
 * The walk has no entry limit: a user past the 100,000th entry would be
 * left out unsaid, and what is held is bounded by the number of users. */
#ifndef EDDI_SERVICES_WORD_USERS_H
#define EDDI_SERVICES_WORD_USERS_H

#include "syntax/syntax.h"

#define EDDI_WORD_USER_BYTES_MAX ((size_t)1 << 20)

typedef struct {
  char *abs; /* absolute path */
  char *rel; /* workspace path */
  const EddiLang *lang;
  char *text;
  size_t len;
} EddiWordUser;

typedef Array(EddiWordUser) EddiWordUsers;

typedef struct {
  const char *root; /* the workspace folder, canonical and absolute */
  const char *const *words; /* a file names any of them as a whole word */
  size_t word_count;
  /* Whether a file of lang at rel may be one (its language has the
   * server; it is not shown already). */
  bool (*wanted)(const void *context, const char *rel, const EddiLang *lang);
  const void *context;
} EddiWordUsersQuery;

/* Any thread: append the users query finds to out, up to
 * EDDI_LSP_USERS_MAX in all, in the walk's order. */
void eddi_word_users_find(const EddiWordUsersQuery *query, EddiWordUsers *out);
void eddi_word_users_free(EddiWordUsers *self);

#endif
