/* ignore.h - the rules of one .gitignore, .ignore or .git/info/exclude file.
 *
 * The workspace walk (walk.h) keeps one EddiIgnore per ignore file of each
 * folder it is in and asks them, deepest first, whether an entry is left
 * out. This file holds only the rules of one file and the wildcard matcher;
 * which file wins over which is the walk's business.
 *
 * The syntax is git's (gitignore(5)), matched the way ripgrep matches it:
 * - a blank line or one starting with '#' is no rule; "\#" and "\!" start a
 *   rule with a literal '#' or '!';
 * - trailing spaces are dropped unless escaped ("a\ "); a trailing '\r' too,
 *   so files written on Windows work;
 * - '!' makes the rule re-include what an earlier rule left out;
 * - a trailing '/' makes the rule match folders only;
 * - a rule with a '/' at its start or middle is anchored: it matches the
 *   path relative to the ignore file's folder; otherwise it matches the
 *   last part of the path, at any depth;
 * - '*' is any run of characters but '/', '?' one character but '/',
 *   "[a-z]", "[!a]" and "[^a]" one character of (not of) a set, inside
 *   which '\' is a plain character (as in ripgrep); elsewhere '\x' is the
 *   character x;
 * - a part that is just "**" matches any number of folders: first, as in
 *   "**" "/x", it finds x at any depth; in the middle, as in "x/" "**" "/y",
 *   zero or more folders between x and y; last, as in "x/" "**", everything
 *   inside x but not x itself. Anywhere else "**" is '*';
 * - a set never matches '/'. Here git is followed: ripgrep lets "a[!x]b"
 *   match "a/b", a side effect of how it translates globs;
 * - within one file the last rule that matches decides;
 * - a rule that is not a valid pattern (an unclosed '[', a '\' at the end)
 *   is dropped, as ripgrep drops it; one with an empty part ("a//") never
 *   matches.
 * Matching is on bytes, as ripgrep's: case-sensitive, and '?' or a set
 * takes one byte (so "caf??" matches the two-byte "é" of "café"). */
#ifndef EDDI_IGNORE_H
#define EDDI_IGNORE_H

#include "core/common.h"

typedef enum {
  EDDI_IGNORE_NONE,    /* no rule matches */
  EDDI_IGNORE_EXCLUDE, /* the last matching rule leaves the path out */
  EDDI_IGNORE_INCLUDE, /* the last matching rule is a '!' rule: the path is kept */
} EddiIgnoreMatch;

typedef struct {
  char *glob;     /* the pattern without '!', leading '/' and trailing '/'; '\' escapes kept */
  size_t len;
  bool negated;   /* a '!' rule */
  bool dir_only;  /* it ended in '/' */
  bool anchored;  /* matched against the whole relative path, else against its last part */
  bool literal;   /* no wildcard and no escape: compared as bytes */
} EddiIgnoreRule;

typedef struct {
  Array(EddiIgnoreRule) rules;
} EddiIgnore;

/* Add the rules of an ignore file's text (len bytes, need not end in a
 * newline) after those self already holds. self starts as {0}. */
void eddi_ignore_add(EddiIgnore *self, const char *text, size_t len);

/* What the rules say about path (len bytes, relative to the ignore file's
 * folder, '/'-separated, no leading or trailing '/'); is_dir: path is a
 * folder. Borrows everything. */
EddiIgnoreMatch eddi_ignore_match(const EddiIgnore *self, const char *path, size_t len,
                                  bool is_dir);

void eddi_ignore_free(EddiIgnore *self);

/* Whether the wildcard pattern glob (glob_len bytes, the syntax above,
 * without '!' or a trailing '/') matches all of path (path_len bytes). */
bool eddi_ignore_glob_match(const char *glob, size_t glob_len, const char *path,
                            size_t path_len);

#endif
