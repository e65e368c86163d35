/* search_replace.c - the formats that quote old text and give its new version:
 * SEARCH/REPLACE blocks, file.update's <change> blocks, and replace mode
 * (old_string / new_string).
 *
 * All three reduce to the same step: find the quoted block with the shared
 * matcher (exact first, then whitespace and punctuation noise), refuse when
 * it is missing or fits twice, and splice in the new version, keeping the
 * file's own bytes on the lines the two versions share. Blocks of one call
 * apply in order, each to the result of the ones before it (a model writes
 * the second block knowing the first), and the call is one transaction.
 */
#define _GNU_SOURCE /* memmem */
#include "edit/edit_state.h"
#include "edit/txn_history.h"

#include <ctype.h>

/* How much of a body is looked at to tell SEARCH/REPLACE blocks from
 * <change> blocks: the first marker comes within the first few lines. */
#define SEARCH_REPLACE_SNIFF_BYTES 4096
/* How much of a stray marker line a Fail quotes: the marker and its word. */
#define SEARCH_REPLACE_MARKER_QUOTE 20
/* The longest XML entity decoded ("&#x10FFFF;" with room to spare); a '&'
 * without a ';' this close is kept as it is. */
#define XML_ENTITY_MAX 12
/* Room for "<tag" and "</tag>" of the few tags file.update knows. */
#define XML_TAG_MAX 32

/* ---------------------------------------------------------------- one block */

/* A rendered block whose last line runs into the next one: without its
 * newline, and ending in the blanks new_text ends in, not in the ones a
 * kept file line had (they were never part of the text the model saw). A
 * last line of blanks only is left as it is. */
static void search_replace__run_on(StrBuf *block, const char *new_text, size_t new_len) {
  if (block->len && block->data[block->len - 1] == '\n') block->data[--block->len] = '\0';
  size_t end = block->len;
  while (end && (block->data[end - 1] == ' ' || block->data[end - 1] == '\t')) end--;
  if (!end || block->data[end - 1] == '\n') return;
  size_t blanks = 0;
  while (blanks < new_len &&
         (new_text[new_len - 1 - blanks] == ' ' || new_text[new_len - 1 - blanks] == '\t'))
    blanks++;
  block->len = end;
  eddi_strbuf_append(block, new_text + new_len - blanks, blanks);
}

/* Replace old (its lines) by new in *text; what names the block. as_bytes
 * (replace mode) reads old and new as the byte strings their exact
 * replacement takes: an old without a final newline leaves the newline of
 * the last line it matched (new's last line ends with it, an empty new
 * leaves one blank line), and a new without one where old has one runs into
 * the line after the block. The same edit then writes the same bytes
 * whether old was found byte for byte or only by the matcher. */
/* One block to apply: old_text becomes new_text; as_bytes: old was given
 * byte for byte (an edit), not as whole lines; what names it in a Fail. */
typedef struct {
  const char *old_text;
  size_t old_len;
  const char *new_text;
  size_t new_len;
  bool as_bytes;
  const char *what;
} SearchReplaceBlock;

static int search_replace__apply_block(StrBuf *text, const char *path,
                                       const SearchReplaceBlock *block, EddiError *err) {
  const char *old_text = block->old_text, *new_text = block->new_text, *what = block->what;
  size_t old_len = block->old_len, new_len = block->new_len;
  bool as_bytes = block->as_bytes;
  EddiLineList file = {0}, old_lines = {0}, new_lines = {0};
  bool final_newline;
  eddi_lines_split(text->data ? text->data : "", text->len, &file, &final_newline);
  eddi_lines_split(old_text, old_len, &old_lines, NULL);
  eddi_lines_split(new_text, new_len, &new_lines, NULL);
  if (text->len == 0) final_newline = true;
  bool old_ends_line = old_len && old_text[old_len - 1] == '\n';
  bool new_ends_line = new_len && new_text[new_len - 1] == '\n';
  if (as_bytes && !old_ends_line && (new_len == 0 || new_ends_line))
    array_push(&new_lines, ((EddiLine){"", 0}));
  bool runs_on = as_bytes && old_ends_line && new_len && !new_ends_line;
  EddiSpliceList splices = {0};
  EddiMatch match;
  int rc = 0;
  int found = as_bytes ? eddi_match_find_inline(&file, &old_lines, &match)
                       : eddi_match_find(&file, 0, file.len, &old_lines, false, &match);
  if (found == EDDI_MATCH_AMBIGUOUS) {
    rc = eddi_edit_fail_ambiguous(err, what, path, &match);
  } else if (found == EDDI_MATCH_NONE) {
    rc = eddi_edit_fail_not_found(err, what, path, &file, &old_lines);
  } else {
    EddiHunk hunk = {0};
    eddi_hunk_from_match(&hunk, &file, &match, &old_lines, &new_lines);
    StrBuf rendered = {0};
    eddi_strbuf_puts(&rendered, "");
    eddi_match_render(&file, &match, &hunk, &rendered);
    if (runs_on) search_replace__run_on(&rendered, new_text, new_len);
    eddi_splices_add(&splices, match.start, match.count, &rendered);
    array_free(&hunk);
  }
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "");
  if (rc == 0) rc = eddi_splices_apply(&splices, &file, final_newline, &out, NULL, err);
  if (rc == 0) {
    eddi_strbuf_free(text);
    *text = out;
  } else {
    eddi_strbuf_free(&out);
  }
  eddi_splices_free(&splices);
  array_free(&file);
  array_free(&old_lines);
  array_free(&new_lines);
  return rc;
}

/* The text a block starts from: an earlier block's result or the file. */
static StrBuf *search_replace__current(EddiEditFile *file) {
  if (file->action != EDIT_WRITE) eddi_edit_file_write(file, file->text.data, file->text.len);
  return &file->result;
}

static void search_replace__report(EddiEditTxn *txn, EddiEditReport *report) {
  for (size_t i = 0; i < txn->files.len; i++) {
    EddiEditFile *file = txn->files.items[i];
    if (file->action != EDIT_WRITE) continue;
    EddiChangedList changed = {0};
    eddi_edit_changed_between(file->text.data ? file->text.data : "", file->text.len,
                              file->result.data, file->result.len, &changed);
    if (!file->exists) eddi_strbuf_puts(&report->report, "A ");
    eddi_edit_report_written(report, txn->session, file->rel, file->result.data,
                             file->result.len, &changed);
    report->files++;
    array_free(&changed);
  }
}

/* Files whose new text equals the old are not written; all of them: no change. */
static bool search_replace__drop_unchanged(EddiEditTxn *txn) {
  bool any = false;
  for (size_t i = 0; i < txn->files.len; i++) {
    EddiEditFile *file = txn->files.items[i];
    if (file->action != EDIT_WRITE) continue;
    if (file->exists && file->result.len == file->text.len &&
        memcmp(file->result.data, file->text.data ? file->text.data : "", file->text.len) == 0)
      file->action = EDIT_KEEP;
    else
      any = true;
  }
  return !any;
}

static int search_replace__finish(EddiEditTxn *txn, EddiEditReport *report, EddiError *err) {
  if (search_replace__drop_unchanged(txn)) {
    report->no_change = true;
    for (size_t i = 0; i < txn->files.len; i++) {
      char tag[5];
      EddiEditFile *file = txn->files.items[i];
      eddi_hashline_tag(file->text.data ? file->text.data : "", file->text.len, tag);
      eddi_strbuf_printf(&report->report, "[%s#%s]\n", file->rel, tag);
    }
    return 0;
  }
  int rc = eddi_edit_txn_commit(txn, report, err);
  if (rc == 0) eddi_txn_history_note(txn);
  if (rc == 0) search_replace__report(txn, report);
  return rc;
}

/* A transaction for the one file path names, which must not be a folder. */
static int search_replace__open(EddiEditTxn *txn, EddiWorkspace *workspace, EddiSession *session,
                                const char *path, EddiEditFile **file, EddiError *err) {
  eddi_edit_txn_init(txn, workspace, session);
  int rc = eddi_edit_txn_file(txn, path, file, err);
  if (rc == 0 && (*file)->is_dir)
    rc = eddi_error_set(err, EDDI_EINVAL, "Is a directory: %s", (*file)->rel);
  return rc;
}

/* ---------------------------------------------------------------- SEARCH/REPLACE */

typedef enum { MARK_NONE, MARK_SEARCH, MARK_DIVIDER, MARK_REPLACE } SearchReplaceMarker;

/* Marker lines are 5 to 9 '<', '=' or '>' (then SEARCH / REPLACE). */
static SearchReplaceMarker search_replace__marker(EddiLine line) {
  while (line.len && isspace((unsigned char)line.bytes[line.len - 1])) line.len--;
  if (!line.len) return MARK_NONE;
  char c = line.bytes[0];
  if (c != '<' && c != '=' && c != '>') return MARK_NONE;
  size_t n = 0;
  while (n < line.len && line.bytes[n] == c) n++;
  if (n < 5 || n > 9) return MARK_NONE;
  const char *rest = line.bytes + n;
  size_t rest_len = line.len - n;
  while (rest_len && *rest == ' ') rest++, rest_len--;
  if (c == '=' && rest_len == 0) return MARK_DIVIDER;
  if (c == '<' && rest_len == 6 && memcmp(rest, "SEARCH", 6) == 0) return MARK_SEARCH;
  if (c == '>' && rest_len == 7 && memcmp(rest, "REPLACE", 7) == 0) return MARK_REPLACE;
  return MARK_NONE;
}

static bool search_replace__fence(EddiLine line) {
  while (line.len && isspace((unsigned char)*line.bytes)) line.bytes++, line.len--;
  return line.len >= 3 && memcmp(line.bytes, "```", 3) == 0;
}

bool eddi_edit_is_search_replace(const char *body, size_t len) {
  EddiLineList lines = {0};
  eddi_lines_split(body, EDDI_MIN(len, (size_t)SEARCH_REPLACE_SNIFF_BYTES), &lines, NULL);
  bool found = false;
  for (size_t i = 0, seen = 0; i < lines.len && seen < 4 && !found; i++) {
    EddiLine l = lines.items[i];
    if (!l.len) continue;
    seen++;
    found = search_replace__marker(l) == MARK_SEARCH;
  }
  array_free(&lines);
  return found;
}

/* The file a block is for: the line before it (or before its fence), with
 * Markdown decoration taken off. */
static char *search_replace__file_name(EddiLine line) {
  while (line.len && (isspace((unsigned char)*line.bytes) || *line.bytes == '`' ||
                      *line.bytes == '*' || *line.bytes == '#'))
    line.bytes++, line.len--;
  while (line.len && (isspace((unsigned char)line.bytes[line.len - 1]) ||
                      line.bytes[line.len - 1] == '`' || line.bytes[line.len - 1] == '*' ||
                      line.bytes[line.len - 1] == ':'))
    line.len--;
  return line.len ? eddi_strndup(line.bytes, line.len) : NULL;
}

int eddi_edit_search_replace(EddiWorkspace *workspace, EddiSession *session, const char *path,
                             const char *body, size_t len, EddiEditReport *report,
                             EddiError *err) {
  EddiLineList lines = {0};
  eddi_lines_split(body, len, &lines, NULL);
  EddiEditTxn txn;
  eddi_edit_txn_init(&txn, workspace, session);
  char *current_path = path ? eddi_strdup(path) : NULL;
  size_t blocks = 0, after_last = 0; /* first line after the previous block */
  int rc = 0;
  for (size_t i = 0; i < lines.len && rc == 0; i++) {
    SearchReplaceMarker mark = search_replace__marker(lines.items[i]);
    if (mark == MARK_DIVIDER || mark == MARK_REPLACE) {
      rc =
          eddi_error_set(err, EDDI_EINVAL, "line %zu: '%.*s' outside a SEARCH/REPLACE block", i + 1,
                         (int)EDDI_MIN(lines.items[i].len, (size_t)SEARCH_REPLACE_MARKER_QUOTE),
                         lines.items[i].bytes);
      eddi_error_hint(err, "A block is <<<<<<< SEARCH, the old lines, =======, the new lines, "
                           ">>>>>>> REPLACE");
      break;
    }
    if (mark != MARK_SEARCH) continue;
    /* The file name: the nearest line above that is not a fence. */
    for (size_t k = i; k-- > after_last;) {
      if (search_replace__fence(lines.items[k]) || !lines.items[k].len) continue;
      char *name = search_replace__file_name(lines.items[k]);
      if (name) eddi_free(current_path), current_path = name;
      break;
    }
    size_t divider = 0, end = 0;
    for (size_t k = i + 1; k < lines.len && !end; k++) {
      SearchReplaceMarker m = search_replace__marker(lines.items[k]);
      if (m == MARK_DIVIDER && !divider) divider = k;
      else if (m == MARK_REPLACE && divider) end = k;
      else if (m == MARK_SEARCH) break;
    }
    blocks++;
    if (!divider || !end) {
      rc = eddi_error_set(err, EDDI_EINVAL,
                          "SEARCH/REPLACE block %zu (line %zu) is not closed by %s", blocks,
                          i + 1, divider ? ">>>>>>> REPLACE" : "======= and >>>>>>> REPLACE");
      eddi_error_hint(err, "The body looks cut short; nothing was applied. Send every block "
                           "whole");
      break;
    }
    if (!current_path) {
      rc = eddi_error_set(err, EDDI_EINVAL, "SEARCH/REPLACE block %zu (line %zu) names no file",
                          blocks, i + 1);
      eddi_error_hint(err, "Put the file's path on the line before the block, or give it: "
                           "Update <path>");
      break;
    }
    const char *old_start = lines.items[i].bytes + lines.items[i].len + 1;
    const char *old_end = lines.items[divider].bytes;
    const char *new_start = lines.items[divider].bytes + lines.items[divider].len + 1;
    const char *new_end = lines.items[end].bytes;
    EddiEditFile *file;
    rc = eddi_edit_txn_file(&txn, current_path, &file, err);
    if (rc < 0) break;
    char what[EDDI_EDIT_WHAT_MAX];
    snprintf(what, sizeof what, "SEARCH/REPLACE block %zu", blocks);
    bool exists = file->exists || file->action == EDIT_WRITE;
    if (file->is_dir) {
      rc = eddi_error_set(err, EDDI_EINVAL, "Is a directory: %s", file->rel);
    } else if (old_end == old_start) {
      /* An empty SEARCH creates a file; on an existing one it would be a guess. */
      if (exists && (file->action == EDIT_WRITE ? file->result.len : file->text.len)) {
        rc = eddi_error_set(err, EDDI_EINVAL, "%s has an empty SEARCH but %s exists", what,
                            file->rel);
        eddi_error_hint(err, "Quote the lines to replace, or the line to insert after and "
                             "that line plus the new ones");
      } else {
        eddi_edit_file_write(file, new_start, (size_t)(new_end - new_start));
      }
    } else if (!exists) {
      rc = eddi_error_set(err, EDDI_ENOENT, "File not found: %s (%s)", file->rel, what);
      eddi_error_hint(err, "To create it, leave the SEARCH part empty");
    } else {
      SearchReplaceBlock block = {old_start, (size_t)(old_end - old_start), new_start,
                                  (size_t)(new_end - new_start), false, what};
      rc = search_replace__apply_block(search_replace__current(file), file->rel, &block, err);
    }
    after_last = end + 1;
    i = end;
  }
  if (rc == 0 && !blocks) {
    rc = eddi_error_set(err, EDDI_EINVAL, "No SEARCH/REPLACE block found");
    eddi_error_hint(err, "A block is <<<<<<< SEARCH, the old lines, =======, the new lines, "
                         ">>>>>>> REPLACE");
  }
  if (rc == 0) rc = search_replace__finish(&txn, report, err);
  eddi_free(current_path);
  eddi_edit_txn_free(&txn);
  array_free(&lines);
  return rc;
}

/* ---------------------------------------------------------------- file.update */

/* Decode XML character data: entities outside CDATA, CDATA as it is. */
static int xml__decode(const char *p, size_t len, StrBuf *out, EddiError *err) {
  eddi_strbuf_puts(out, "");
  const char *end = p + len;
  while (p < end) {
    if (end - p >= 9 && memcmp(p, "<![CDATA[", 9) == 0) {
      const char *close = memmem(p + 9, (size_t)(end - p - 9), "]]>", 3);
      if (!close) return eddi_error_set(err, EDDI_EINVAL, "A CDATA section is not closed by ]]>");
      eddi_strbuf_append(out, p + 9, (size_t)(close - p - 9));
      p = close + 3;
      continue;
    }
    if (*p != '&') {
      eddi_strbuf_putc(out, *p++);
      continue;
    }
    const char *semi = memchr(p, ';', (size_t)EDDI_MIN(end - p, XML_ENTITY_MAX));
    static const struct { const char *name; char c; } named[] = {
        {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
    bool done = false;
    for (size_t k = 0; semi && k < sizeof named / sizeof *named && !done; k++) {
      size_t n = strlen(named[k].name);
      if ((size_t)(semi + 1 - p) == n && memcmp(p, named[k].name, n) == 0) {
        eddi_strbuf_putc(out, named[k].c);
        p += n;
        done = true;
      }
    }
    if (!done && semi && p[1] == '#') {
      unsigned long cp =
          p[2] == 'x' || p[2] == 'X' ? strtoul(p + 3, NULL, 16) : strtoul(p + 2, NULL, 10);
      if (cp > 0 && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF)) {
        char u[4];
        size_t n;
        if (cp < 0x80) u[0] = (char)cp, n = 1;
        else if (cp < 0x800)
          u[0] = (char)(0xC0 | cp >> 6), u[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
        else if (cp < 0x10000)
          u[0] = (char)(0xE0 | cp >> 12), u[1] = (char)(0x80 | ((cp >> 6) & 0x3F)),
          u[2] = (char)(0x80 | (cp & 0x3F)), n = 3;
        else
          u[0] = (char)(0xF0 | cp >> 18), u[1] = (char)(0x80 | ((cp >> 12) & 0x3F)),
          u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[3] = (char)(0x80 | (cp & 0x3F)), n = 4;
        eddi_strbuf_append(out, u, n);
        p = semi + 1;
        done = true;
      }
    }
    if (!done) eddi_strbuf_putc(out, *p++); /* a lone '&' is kept: models rarely escape it */
  }
  return 0;
}

/* The content of the element named tag inside [p, end): between "<tag...>"
 * and "</tag>". */
static bool xml__element(const char *p, const char *end, const char *tag, const char **inner,
                         const char **inner_end, const char **after) {
  char open[XML_TAG_MAX], close[XML_TAG_MAX];
  snprintf(open, sizeof open, "<%s", tag);
  snprintf(close, sizeof close, "</%s>", tag);
  size_t on = strlen(open);
  for (const char *s = p; (s = memmem(s, (size_t)(end - s), open, on)); s += on) {
    char next = s + on < end ? s[on] : 0;
    if (next != '>' && next != ' ' && next != '\n' && next != '\t' && next != '\r') continue;
    const char *gt = memchr(s, '>', (size_t)(end - s));
    if (!gt) return false;
    /* CDATA may hold "</tag>": skip over CDATA sections while looking for it. */
    const char *q = gt + 1;
    for (;;) {
      const char *c = memmem(q, (size_t)(end - q), close, strlen(close));
      const char *cdata = memmem(q, (size_t)(end - q), "<![CDATA[", 9);
      if (!c) return false;
      if (cdata && cdata < c) {
        const char *ce = memmem(cdata, (size_t)(end - cdata), "]]>", 3);
        if (!ce) return false;
        q = ce + 3;
        continue;
      }
      *inner = gt + 1;
      *inner_end = c;
      *after = c + strlen(close);
      return true;
    }
  }
  return false;
}

/* The block as written between the tags, without the newline after the
 * opening tag and the indentation line before the closing one. */
static void xml__trim_block(StrBuf *text) {
  size_t start = 0;
  if (text->len && text->data[0] == '\n') start = 1;
  else if (text->len > 1 && text->data[0] == '\r' && text->data[1] == '\n') start = 2;
  size_t end = text->len;
  size_t k = end;
  while (k > start && (text->data[k - 1] == ' ' || text->data[k - 1] == '\t')) k--;
  if (k > start && text->data[k - 1] == '\n') end = k;
  memmove(text->data, text->data + start, end - start);
  text->len = end - start;
  text->data[text->len] = '\0';
}

int eddi_edit_file_update(EddiWorkspace *workspace, EddiSession *session, const char *path,
                          const char *content, size_t len, EddiEditReport *report,
                          EddiError *err) {
  EddiEditTxn txn;
  EddiEditFile *file;
  int rc = search_replace__open(&txn, workspace, session, path, &file, err);
  const char *end = content + len;
  bool has_changes = memmem(content, len, "<change", 7) != NULL;
  if (rc == 0 && !has_changes) {
    if (file->exists) {
      rc = eddi_error_set(err, EDDI_EINVAL, "%s exists and the update holds no <change> block",
                          file->rel);
      eddi_error_hint(err, "Send <change><original>old lines</original><modified>new lines"
                           "</modified></change>");
    } else {
      eddi_edit_file_write(file, content, len);
      /* A message's last line often comes without its newline. */
      if (len && content[len - 1] != '\n') eddi_strbuf_putc(&file->result, '\n');
    }
  }
  size_t count = 0;
  for (const char *p = content; rc == 0 && has_changes;) {
    const char *inner, *inner_end, *after;
    if (!xml__element(p, end, "change", &inner, &inner_end, &after)) {
      if (memmem(p, (size_t)(end - p), "<change", 7)) {
        rc = eddi_error_set(err, EDDI_EINVAL, "<change> block %zu is not closed by </change>",
                            count + 1);
        eddi_error_hint(err, "The update looks cut short; nothing was applied. Send it whole");
      }
      break;
    }
    count++;
    const char *o, *o_end, *m, *m_end, *ignored;
    char what[EDDI_EDIT_WHAT_MAX];
    snprintf(what, sizeof what, "<change> %zu", count);
    if (!xml__element(inner, inner_end, "original", &o, &o_end, &ignored) ||
        !xml__element(inner, inner_end, "modified", &m, &m_end, &ignored)) {
      rc = eddi_error_set(err, EDDI_EINVAL, "%s needs an <original> and a <modified> element",
                          what);
      break;
    }
    StrBuf original = {0}, modified = {0};
    rc = xml__decode(o, (size_t)(o_end - o), &original, err);
    if (rc == 0) rc = xml__decode(m, (size_t)(m_end - m), &modified, err);
    if (rc == 0) {
      xml__trim_block(&original);
      xml__trim_block(&modified);
      bool exists = file->exists || file->action == EDIT_WRITE;
      if (original.len == 0 && !exists) {
        eddi_edit_file_write(file, modified.data, modified.len);
      } else if (original.len == 0) {
        rc = eddi_error_set(err, EDDI_EINVAL, "%s has an empty <original> but %s exists", what,
                            file->rel);
        eddi_error_hint(err, "Quote the lines to replace in <original>");
      } else if (!exists) {
        rc = eddi_error_set(err, EDDI_ENOENT, "File not found: %s (%s)", file->rel, what);
        eddi_error_hint(err, "To create it, send the content without <change> blocks");
      } else {
        SearchReplaceBlock block = {original.data, original.len, modified.data, modified.len,
                                    false, what};
        rc = search_replace__apply_block(search_replace__current(file), file->rel, &block, err);
      }
    }
    eddi_strbuf_free(&original);
    eddi_strbuf_free(&modified);
    p = after;
  }
  if (rc == 0) rc = search_replace__finish(&txn, report, err);
  eddi_edit_txn_free(&txn);
  return rc;
}

/* ---------------------------------------------------------------- replace mode */

/* Byte offsets of old in text (up to max). */
static size_t replace__occurrences(const char *text, size_t len, const char *old, size_t old_len,
                                   size_t *first, size_t *lines, size_t max) {
  size_t count = 0;
  for (const char *p = text; old_len && (p = memmem(p, (size_t)(text + len - p), old, old_len));
       p += old_len) {
    if (count == 0) *first = (size_t)(p - text);
    if (count < max) {
      size_t line = 1;
      for (const char *q = text; q < p; q++) line += *q == '\n';
      lines[count] = line;
    }
    count++;
  }
  return count;
}

int eddi_edit_replace(EddiWorkspace *workspace, EddiSession *session, const char *path,
                      const EddiReplaceEdit *edits, size_t count, EddiEditReport *report,
                      EddiError *err) {
  EddiEditTxn txn;
  EddiEditFile *file;
  int rc = search_replace__open(&txn, workspace, session, path, &file, err);
  if (rc == 0 && count == 0) rc = eddi_error_set(err, EDDI_EINVAL, "No edits given");
  for (size_t i = 0; i < count && rc == 0; i++) {
    const EddiReplaceEdit *e = &edits[i];
    char what[EDDI_EDIT_WHAT_MAX];
    snprintf(what, sizeof what, "edit %zu", i + 1);
    bool exists = file->exists || file->action == EDIT_WRITE;
    if (e->old_len == 0) {
      if (exists && (file->action == EDIT_WRITE ? file->result.len : file->text.len)) {
        rc = eddi_error_set(err, EDDI_EINVAL, "%s: old_string is empty but %s has content",
                            what, file->rel);
        eddi_error_hint(err, "Quote the text to replace in old_string");
      } else {
        eddi_edit_file_write(file, e->new_string, e->new_len);
      }
      continue;
    }
    if (!exists) {
      rc = eddi_error_set(err, EDDI_ENOENT, "File not found: %s", file->rel);
      eddi_error_hint(err, "To create it, give an empty old_string");
      break;
    }
    StrBuf *text = search_replace__current(file);
    size_t first = 0, lines[EDDI_MATCH_CANDIDATES_MAX];
    size_t found = replace__occurrences(text->data, text->len, e->old_string, e->old_len, &first,
                                        lines, EDDI_MATCH_CANDIDATES_MAX);
    if (found == 1 || (found > 1 && e->replace_all)) {
      StrBuf out = {0};
      eddi_strbuf_puts(&out, "");
      const char *p = text->data, *end = text->data + text->len;
      for (const char *hit; (hit = memmem(p, (size_t)(end - p), e->old_string, e->old_len));
           p = hit + e->old_len) {
        eddi_strbuf_append(&out, p, (size_t)(hit - p));
        eddi_strbuf_append(&out, e->new_string, e->new_len);
        if (!e->replace_all) {
          p = hit + e->old_len;
          break;
        }
      }
      eddi_strbuf_append(&out, p, (size_t)(end - p));
      eddi_strbuf_free(text);
      *text = out;
    } else if (found > 1) {
      EddiMatch m = {.candidate_count = found};
      for (size_t k = 0; k < EDDI_MIN(found, (size_t)EDDI_MATCH_CANDIDATES_MAX); k++)
        m.candidates[k] = lines[k] - 1;
      rc = eddi_edit_fail_ambiguous(err, what, file->rel, &m);
      if (found == 2)
        eddi_error_hint(err, "old_string occurs at lines %zu and %zu; quote more context, or "
                             "set replace_all",
                        lines[0], lines[1]);
      else
        eddi_error_hint(err, "old_string occurs at lines %zu and %zu (and %zu more); quote "
                             "more context, or set replace_all",
                        lines[0], lines[1], found - 2);
    } else {
      /* Not there byte for byte: the tolerant matcher on whole lines. */
      SearchReplaceBlock block = {e->old_string, e->old_len, e->new_string, e->new_len, true,
                                  what};
      rc = search_replace__apply_block(text, file->rel, &block, err);
    }
  }
  if (rc == 0) rc = search_replace__finish(&txn, report, err);
  eddi_edit_txn_free(&txn);
  return rc;
}

/* ------------------------------------------------------------ Update */

int eddi_edit_update(EddiWorkspace *workspace, EddiSession *session, const char *path,
                     const char *body, size_t len, EddiEditReport *report, EddiError *err) {
  if (eddi_edit_is_search_replace(body, len))
    return eddi_edit_search_replace(workspace, session, path, body, len, report, err);
  if (!path)
    return eddi_error_set(err, EDDI_EINVAL,
                          "Update needs the path of the file the <change> blocks are for");
  return eddi_edit_file_update(workspace, session, path, body, len, report, err);
}
