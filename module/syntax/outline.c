/* outline.c - outlines of files and what changed between two; see
 * outline.h. */
#include "syntax/outline.h"

#include <xxhash.h>

/* ---------------------------------------------------------------- making */

static const unsigned outline__kinds =
    EDDI_ELEMENT_CLASS | EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD;
static const unsigned outline__containers = EDDI_ELEMENT_CLASS | EDDI_ELEMENT_IMPL;

/* Whether element i is outlined: a class, function or method that is not
 * inside a function (that is part of its function). */
static bool outline__takes(const EddiSyntax *syn, size_t i) {
  const EddiElement *e = &syn->elements.items[i];
  if (!(e->kind & outline__kinds)) return false;
  for (int p = e->parent; p >= 0; p = syn->elements.items[p].parent)
    if (!(syn->elements.items[p].kind & outline__containers)) return false;
  return true;
}

/* Append text[from, to) to out with each run of whitespace as one space. */
static void outline__squeeze(const EddiText *text, size_t from, size_t to, StrBuf *out) {
  bool space = out->len > 0 && out->data[out->len - 1] == ' ';
  for (size_t p = from; p < to; p++) {
    char c = eddi_text_byte_at(text, p);
    bool blank = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (blank && !space) eddi_strbuf_putc(out, ' ');
    else if (!blank) eddi_strbuf_putc(out, c);
    space = blank;
  }
}

/* The hash of element i's own text: from its extent's start to its end,
 * without the extents of the outlined elements it contains. */
static uint64_t outline__hash(EddiSyntax *syn, const EddiText *text, size_t i) {
  const EddiElement *e = &syn->elements.items[i];
  StrBuf own = {0};
  eddi_strbuf_puts(&own, "");
  size_t at = eddi_syntax_extent_start(syn, text, e);
  if (e->kind & outline__containers) {
    for (size_t k = i + 1; k < syn->elements.len && syn->elements.items[k].start < e->end; k++) {
      const EddiElement *member = &syn->elements.items[k];
      if (member->parent != (int)i || !outline__takes(syn, k)) continue;
      size_t member_start = eddi_syntax_extent_start(syn, text, member);
      if (member_start < at) continue;
      outline__squeeze(text, at, member_start, &own);
      at = member->end;
    }
  }
  outline__squeeze(text, at, e->end, &own);
  uint64_t hash = XXH3_64bits(own.data, own.len);
  eddi_strbuf_free(&own);
  return hash;
}

EddiOutline *eddi_outline_empty(void) { return eddi_calloc(1, sizeof(EddiOutline)); }

EddiOutline *eddi_outline_of_syntax(EddiSyntax *syn, const EddiText *text) {
  EddiOutline *self = eddi_outline_empty();
  /* Element index -> entry index, for parents (containers come first). */
  int *entry_of = eddi_malloc((syn->elements.len + 1) * sizeof *entry_of);
  for (size_t i = 0; i < syn->elements.len; i++) {
    entry_of[i] = -1;
    if (!outline__takes(syn, i)) continue;
    const EddiElement *e = &syn->elements.items[i];
    EddiOutlineEntry entry = {.kind = e->kind, .name = eddi_strdup(e->name), .parent = -1};
    StrBuf path = {0};
    if (e->parent >= 0) {
      const EddiElement *container = &syn->elements.items[e->parent];
      entry.parent = entry_of[e->parent];
      if (entry.parent >= 0) eddi_strbuf_printf(&path, "%s.", self->entries.items[entry.parent].path);
      else eddi_strbuf_printf(&path, "%s.", container->name); /* an impl: not outlined */
    } else if (e->owner) {
      eddi_strbuf_printf(&path, "%s.", e->owner); /* a Go method: its receiver's type */
    }
    eddi_strbuf_puts(&path, e->name);
    entry.path = eddi_strbuf_take(&path);
    entry.hash = outline__hash(syn, text, i);
    entry_of[i] = (int)self->entries.len;
    array_push(&self->entries, entry);
  }
  eddi_free(entry_of);
  return self;
}

EddiOutline *eddi_outline_of_text(const char *path, const char *text, size_t len,
                                  size_t max_bytes) {
  const EddiLang *lang = eddi_lang_detect(path, text, len);
  if (!lang || !lang->ts || (max_bytes && len > max_bytes)) return NULL;
  EddiText store;
  eddi_text_init(&store);
  eddi_text_set(&store, text, len);
  EddiSyntax *syn = eddi_syntax_of_text(lang, &store);
  EddiOutline *self = syn->tree ? eddi_outline_of_syntax(syn, &store) : NULL;
  eddi_syntax_free(syn);
  eddi_text_free(&store);
  return self;
}

void eddi_outline_free(EddiOutline *self) {
  if (!self) return;
  for (size_t i = 0; i < self->entries.len; i++) {
    eddi_free(self->entries.items[i].path);
    eddi_free(self->entries.items[i].name);
  }
  array_free(&self->entries);
  eddi_free(self);
}

/* ---------------------------------------------------------------- comparing */

/* Classes match classes; functions and methods match each other (a
 * function moved into a class still changes its path). */
static bool outline__same_kind(EddiElementKind a, EddiElementKind b) {
  return (a == EDDI_ELEMENT_CLASS) == (b == EDDI_ELEMENT_CLASS);
}

/* Which of the entries of other matches entries[i] (same kind and path,
 * the same how-manyth of them), or -1. */
static int outline__match(const EddiOutline *self, size_t i, const EddiOutline *other) {
  const EddiOutlineEntry *entry = &self->entries.items[i];
  size_t nth = 0;
  for (size_t k = 0; k < i; k++) {
    const EddiOutlineEntry *before = &self->entries.items[k];
    nth += outline__same_kind(before->kind, entry->kind) && strcmp(before->path, entry->path) == 0;
  }
  for (size_t k = 0; k < other->entries.len; k++) {
    const EddiOutlineEntry *candidate = &other->entries.items[k];
    if (!outline__same_kind(candidate->kind, entry->kind) || strcmp(candidate->path, entry->path))
      continue;
    if (nth-- == 0) return (int)k;
  }
  return -1;
}

/* Add the changes of one side: entries of self without a match in other
 * (added, or removed), and with modified, those matched with another hash. */
static void outline__side(const EddiOutline *self, const EddiOutline *other,
                          EddiOutlineChangeKind unmatched, bool modified,
                          EddiOutlineChanges *out) {
  /* Entry index -> change index within this side, for nesting. */
  int *change_of = eddi_malloc((self->entries.len + 1) * sizeof *change_of);
  for (size_t i = 0; i < self->entries.len; i++) {
    const EddiOutlineEntry *entry = &self->entries.items[i];
    change_of[i] = -1;
    int match = outline__match(self, i, other);
    EddiOutlineChange change = {.entry = entry, .within = -1};
    if (match < 0) change.change = unmatched;
    else if (modified && other->entries.items[match].hash != entry->hash)
      change.change = EDDI_OUTLINE_MODIFIED;
    else continue;
    if (match < 0 && entry->parent >= 0 && change_of[entry->parent] >= 0 &&
        out->items[change_of[entry->parent]].change == unmatched)
      change.within = change_of[entry->parent];
    change_of[i] = (int)out->len;
    array_push(out, change);
  }
  eddi_free(change_of);
}

void eddi_outline_compare(const EddiOutline *before, const EddiOutline *after,
                          EddiOutlineChanges *out) {
  outline__side(after, before, EDDI_OUTLINE_ADDED, true, out);
  outline__side(before, after, EDDI_OUTLINE_REMOVED, false, out);
}
