/* rename.c - the rename plan: entity, family, occurrences, conflicts and
 * the differential check; see rename.h.
 *
 * The checks run cheapest and most telling first: the new name itself,
 * then conflicts that can be named precisely from the analyses (same
 * scope, shadowing, capture, the class hierarchy), and last the
 * differential check, which catches whatever the others do not explain:
 * renaming keeps a file's tree shape, so after the edit every symbol and
 * occurrence has the same index as before and "refers to the same thing"
 * is an equality of targets. */
#include <ctype.h>
#include "refactor/rename.h"

#include <sys/stat.h>

#include "core/utf8.h"
#include "core/path.h"
#include "refactor/family.h"
#include "refactor/modules.h"
#include "refactor/new_name.h"
#include "refactor/resolve.h"
#include "refactor/target.h"

typedef struct {
  RefIndex *index;
  RefProgram program;
  RefTarget target;
  uint32_t old_name, new_name;
  const char *new_text;
  unsigned flags;
  RefTargets family;
  RefIds renamed; /* file, symbol pairs whose name changes */
  RefPlan *plan;
  EddiError *err;
  char *module_from, *module_to; /* a module rename: the module paths */
  const EddiLang *lang;          /* the renamed entity's file's */
  size_t spoiled;                /* unsure places a syntax error made */
} Rename;

static void rename__place(Rename *self, uint32_t file, uint32_t offset, StrBuf *out) {
  ref_target_place(self->index, file, offset, out);
}

/* ---------------------------------------------------------------- the new name */

/* The new name: one refactoring may write (new_name.h), no special name;
 * nor may the old one be special (the language calls it by name). */
static int rename__valid(Rename *self, const EddiLang *lang) {
  const char *name = self->new_text;
  const char *title = lang->title ? lang->title : lang->name;
  int rc = ref_new_name_check(lang, title, name, NULL, self->err);
  if (rc < 0) return rc;
  const char *old = ref_names_str(self->program.names, self->old_name);
  if (lang->special_pattern && (ref_new_name_matches(lang->special_pattern, name) ||
                                ref_new_name_matches(lang->special_pattern, old)))
    return eddi_error_set(self->err, EDDI_EINVAL, "%s is a special name in %s",
                          ref_new_name_matches(lang->special_pattern, old) ? old : name, title);
  return 0;
}

/* ---------------------------------------------------------------- occurrences */

static RefChange *rename__change(Rename *self, uint32_t file) {
  RefPlan *plan = self->plan;
  for (size_t i = plan->changes.len; i-- > 0;)
    if (plan->changes.items[i].source == file) return &plan->changes.items[i];
  RefChange change = {.source = file};
  array_push(&plan->changes, change);
  return array_back(&plan->changes);
}

static void rename__renamed(Rename *self, uint32_t file, uint32_t sym) {
  for (size_t i = 0; i + 1 < self->renamed.len; i += 2)
    if (self->renamed.items[i] == file && self->renamed.items[i + 1] == sym) return;
  array_push(&self->renamed, file);
  array_push(&self->renamed, sym);
}

static bool rename__is_renamed(const Rename *self, uint32_t file, uint32_t sym) {
  for (size_t i = 0; i + 1 < self->renamed.len; i += 2)
    if (self->renamed.items[i] == file && self->renamed.items[i + 1] == sym) return true;
  return false;
}

/* Whether an unsure occurrence could be the target at all: a function's
 * local is never an attribute nor a string; a parameter may be a keyword
 * argument, or a string (f(**{"p": 1}), a check of inspect.signature):
 * its name is part of its function's interface. */
static bool rename__could_be(const Rename *self, const RefOcc *occ) {
  if (self->target.kind != REF_TARGET_SYM) return true;
  const RefFile *file = self->program.files.items[self->target.file];
  const RefSym *sym = &file->syms.items[self->target.index];
  if (sym->kind == REF_SYM_MEMBER || sym->scope == REF_NONE) return true;
  RefScopeKind kind = file->scopes.items[sym->scope].kind;
  if (kind == REF_SCOPE_MODULE || kind == REF_SCOPE_CLASS) return true;
  return (occ->kind == REF_OCC_KEYWORD || occ->kind == REF_OCC_STRING) &&
         sym->kind == REF_SYM_PARAMETER;
}

/* Whether an import could bring the target by its name: a module, or a
 * name of a module's top level (a module part only names a module). */
static bool rename__importable(const Rename *self, const RefOcc *occ) {
  if (self->target.kind == REF_TARGET_MODULE) return true;
  if (self->target.kind != REF_TARGET_SYM || occ->kind == REF_OCC_MODULE_PART) return false;
  const RefFile *file = self->program.files.items[self->target.file];
  const RefSym *sym = &file->syms.items[self->target.index];
  return sym->kind != REF_SYM_MEMBER && sym->scope != REF_NONE &&
         file->scopes.items[sym->scope].kind == REF_SCOPE_MODULE;
}

/* A shorthand property ({ name }) is a binding and a key at once: renamed,
 * the key would change too. */
static int rename__keyed(Rename *self, uint32_t file, const RefOcc *occ) {
  StrBuf at = {0};
  rename__place(self, file, occ->start, &at);
  eddi_error_set(self->err, EDDI_EINVAL, "Rename would change the property key at %s", at.data);
  const char *name = ref_names_str(self->program.names, self->old_name);
  eddi_error_hint(self->err, "Write the key out (%s: %s) there first", name, name);
  eddi_strbuf_free(&at);
  return EDDI_EINVAL;
}

/* Whether a file of lang may refer to the renamed entity: one of its
 * language, or of one whose imports find files the same way (JavaScript
 * and TypeScript); a Python file never names a C function. */
static bool rename__reaches(const Rename *self, const EddiLang *lang) {
  return lang == self->lang ||
         (lang->modules && self->lang->modules && strcmp(lang->modules, self->lang->modules) == 0);
}

/* ---------------------------------------------------------------- syntax errors */

/* What the syntax errors of one file spoil, for a language whose errors
 * are local (language.conf "syntax_errors local", C): the parser's
 * recovery may misread what stands in or beside an error, and may have
 * swallowed a declaration there, which changes what the names of its
 * region mean: its function, or at the top of the file, the whole file.
 * Each error's region counts only when the renamed name is a word in or
 * beside the error, or (in a function, when the error holds a brace) a
 * local or parameter of the region has the old or the new name, or the
 * occurrence is a field's (its receiver's declaration may be the misread
 * one). Elsewhere the names resolve as they read. */
typedef struct {
  uint32_t region_start, region_end;
  bool spoiled; /* every occurrence of the old name in the region is unsure */
} RenameErrorRegion;

typedef struct {
  Array(RefSpan) words;              /* the old name in and beside the errors, in text order */
  Array(RenameErrorRegion) regions;  /* one per error */
} RenameErrors;

/* The scope a local target is bound in (its occurrences are inside it),
 * or REF_NONE for one of file scope, a member or a module. */
static uint32_t rename__local_scope(const Rename *self, uint32_t f) {
  if (self->target.kind != REF_TARGET_SYM || self->target.file != f) return REF_NONE;
  const RefFile *file = self->program.files.items[f];
  const RefSym *sym = &file->syms.items[self->target.index];
  if (sym->kind == REF_SYM_MEMBER || sym->scope == REF_NONE || sym->scope == 0) return REF_NONE;
  return sym->scope;
}

/* The errors of file f, for the rename: the words of the old name in and
 * beside them (unsure), and the regions they spoil. The new name in or
 * beside one may be a definition the parser did not see: refused. */
static int rename__errors(Rename *self, uint32_t f, RenameErrors *out) {
  const RefFile *file = self->program.files.items[f];
  const RefSource *source = &self->index->sources.items[f];
  const char *old = ref_names_str(self->program.names, self->old_name);
  const char *bare = strrchr(old, ' '); /* a tag, "struct point", is the word point */
  if (bare) old = bare + 1;
  uint32_t local = rename__local_scope(self, f);
  /* A local is never referred to from outside its own scope. */
  if (self->target.kind == REF_TARGET_SYM && self->target.file != f) {
    const RefFile *home = self->program.files.items[self->target.file];
    const RefSym *sym = &home->syms.items[self->target.index];
    if (sym->kind != REF_SYM_MEMBER && sym->scope != REF_NONE && sym->scope != 0) return 0;
  }
  for (size_t e = 0; e < file->syntax_errors.len; e++) {
    const RefSyntaxError *error = &file->syntax_errors.items[e];
    RenameErrorRegion region = {0, UINT32_MAX, false};
    /* The outermost scope around the error below the file's: a function. */
    uint32_t outer = REF_NONE;
    for (uint32_t s = error->scope; s != REF_NONE && s != 0; s = file->scopes.items[s].parent)
      outer = s;
    bool in_function = outer != REF_NONE && file->scopes.items[outer].kind == REF_SCOPE_FUNCTION;
    if (in_function)
      region.region_start = file->scopes.items[outer].start,
      region.region_end = file->scopes.items[outer].end;
    if (local != REF_NONE && (region.region_end <= file->scopes.items[local].start ||
                              region.region_start >= file->scopes.items[local].end))
      region.region_end = region.region_start; /* another function's: spoils nothing here */
    uint32_t from = error->near_start < error->start ? error->near_start : error->start;
    uint32_t to = error->near_end > error->end ? error->near_end : error->end;
    if (region.region_end > region.region_start) {
      uint32_t at = ref_text_word(source->text, source->len, from, to, self->new_text);
      if (at != UINT32_MAX) {
        StrBuf place = {0};
        rename__place(self, f, at, &place);
        eddi_error_set(self->err, EDDI_EINVAL,
                       "Rename may clash with %s at %s, beside a syntax error", self->new_text,
                       place.data);
        eddi_error_hint(self->err, "Choose another name, or fix it first (Validate lists them)");
        eddi_strbuf_free(&place);
        return EDDI_EINVAL;
      }
      for (uint32_t next = from;
           (next = ref_text_word(source->text, source->len, next, to, old)) != UINT32_MAX;
           next += (uint32_t)strlen(old)) {
        RefSpan word = {next, next + (uint32_t)strlen(old)};
        size_t i = out->words.len;
        while (i > 0 && out->words.items[i - 1].start > word.start) i--;
        if (i > 0 && out->words.items[i - 1].start == word.start) continue;
        array_push(&out->words, word);
        memmove(&out->words.items[i + 1], &out->words.items[i],
                (out->words.len - 1 - i) * sizeof word);
        out->words.items[i] = word;
        /* Inside the error (or beside it at the top), it may be a
         * declaration the parser did not see. */
        if (!in_function || (next >= error->start && next < error->end)) region.spoiled = true;
      }
      /* A local or parameter of the old or the new name in the function:
       * which one a name means follows the blocks, which an error with a
       * brace may misread. */
      for (size_t y = 0; in_function && error->blocks && !region.spoiled && y < file->syms.len;
           y++) {
        const RefSym *sym = &file->syms.items[y];
        if ((sym->name == self->old_name || sym->name == self->new_name) &&
            sym->scope != REF_NONE && sym->scope != 0 &&
            file->scopes.items[sym->scope].start >= region.region_start &&
            file->scopes.items[sym->scope].end <= region.region_end)
          region.spoiled = true;
      }
    }
    array_push(&out->regions, region);
  }
  return 0;
}

/* Whether the errors of occ's file make it unsure (rename__errors). */
static bool rename__spoiled(const RenameErrors *errors, const RefOcc *occ) {
  for (size_t w = 0; w < errors->words.len; w++)
    if (errors->words.items[w].start == occ->start) return true;
  for (size_t r = 0; r < errors->regions.len; r++) {
    const RenameErrorRegion *region = &errors->regions.items[r];
    if (occ->start < region->region_start || occ->start >= region->region_end) continue;
    if (region->spoiled || occ->kind != REF_OCC_NAME) return true;
  }
  return false;
}

static void rename__errors_free(RenameErrors *self) {
  array_free(&self->words);
  array_free(&self->regions);
}

/* ---------------------------------------------------------------- occurrences */

/* An unsure place: listed, and renamed with Unsure. */
static bool rename__unsure(Rename *self, uint32_t f, uint32_t offset) {
  size_t line, col;
  const RefSource *s = &self->index->sources.items[f];
  eddi_utf8_line_col(s->text, s->len, offset, &line, &col);
  eddi_strbuf_printf(&self->plan->unsure, "%s%s:%zu", self->plan->unsure_count ? ", " : "",
                     s->path, line);
  self->plan->unsure_count++;
  return (self->flags & REF_RENAME_UNSURE) != 0;
}

/* A word of the old name in or beside a syntax error that is no
 * occurrence: unsure; renamed with Unsure. */
static void rename__error_word(Rename *self, uint32_t f, RefSpan word) {
  self->spoiled++;
  if (!rename__unsure(self, f, word.start)) return;
  array_push(&rename__change(self, f)->edits, word);
  self->plan->references++;
}

/* Where a string spells the renamed module by its dotted name
 * (import_module("pkg.sub"), "pkg.sub" compared with a __name__ or
 * __module__, "pkg.sub.f" for a mock): the offset of the module's own name
 * in it, or -1. Such a string may name the module, which eddi cannot tell. */
static long rename__dotted_module(const Rename *self, const char *text) {
  if (!self->module_from || !strchr(self->module_from, '/')) return -1;
  StrBuf dotted = {0};
  eddi_strbuf_puts(&dotted, self->module_from);
  for (char *c = dotted.data; *c; c++)
    if (*c == '/') *c = '.';
  long found = -1;
  for (const char *at = strstr(text, dotted.data); at && found < 0;
       at = strstr(at + 1, dotted.data)) {
    unsigned char before = at > text ? (unsigned char)at[-1] : ' ';
    unsigned char after = (unsigned char)at[dotted.len];
    bool word_before = before == '.' || before == '_' || isalnum(before) || before >= 0x80;
    bool word_after = after == '_' || isalnum(after) || after >= 0x80;
    if (!word_before && !word_after)
      found = (long)(at - text) + (long)(dotted.len - strlen(strrchr(self->module_from, '/') + 1));
  }
  eddi_strbuf_free(&dotted);
  return found;
}

/* Lists a string that spells the renamed module's dotted name as unsure;
 * with Unsure, the module's own name in it is renamed too. */
static void rename__dotted_string(Rename *self, uint32_t f, const RefOcc *occ) {
  long offset = rename__dotted_module(self, ref_names_str(self->program.names, occ->name));
  if (offset < 0) return;
  if (!rename__unsure(self, f, occ->start)) return;
  uint32_t start = occ->start + (uint32_t)offset;
  RefSpan span = {start, start + (uint32_t)strlen(ref_names_str(self->program.names,
                                                                self->old_name))};
  array_push(&rename__change(self, f)->edits, span);
  self->plan->references++;
}

/* Every occurrence of the old name that refers to the family; the unsure
 * ones listed. A file with syntax errors that holds the name may hide
 * references: refused, or for a language whose errors are local, the
 * occurrences they may misread are unsure (rename__errors). */
static int rename__collect(Rename *self) {
  RefProgram *program = &self->program;
  RefPlan *plan = self->plan;
  for (uint32_t f = 0; f < program->files.len; f++) {
    const RefFile *file = program->files.items[f];
    if (!rename__reaches(self, file->lang)) continue;
    bool local_errors = file->errors && file->lang->errors_local;
    RenameErrors errors = {0};
    if (local_errors) {
      int rc = rename__errors(self, f, &errors);
      if (rc < 0) {
        rename__errors_free(&errors);
        return rc;
      }
    }
    size_t word = 0; /* the next of errors.words, merged in text order */
    for (uint32_t i = 0; i < file->occs.len; i++) {
      const RefOcc *occ = &file->occs.items[i];
      if (occ->kind == REF_OCC_STRING && occ->name != self->old_name &&
          self->target.kind == REF_TARGET_MODULE)
        rename__dotted_string(self, f, occ);
      if (occ->name != self->old_name) continue;
      for (; word < errors.words.len && errors.words.items[word].start <= occ->start; word++)
        if (errors.words.items[word].start < occ->start)
          rename__error_word(self, f, errors.words.items[word]);
      if (file->errors && !local_errors) {
        StrBuf at = {0};
        rename__place(self, f, file->first_error, &at);
        eddi_error_set(self->err, EDDI_EINVAL, "%s has a syntax error at %s", file->path, at.data);
        eddi_error_hint(self->err, "Fix it first (Validate lists them)");
        eddi_strbuf_free(&at);
        return EDDI_EINVAL;
      }
      RefTarget target = ref_program_target(program, f, i);
      bool ours = ref_targets_has(&self->family, target);
      if (ours && (occ->flags & REF_OCC_KEYED)) {
        rename__errors_free(&errors);
        return rename__keyed(self, f, occ);
      }
      /* A shorthand { name } is also a key of some value: maybe a member. */
      bool keyed = (occ->flags & REF_OCC_KEYED) &&
                   ref_target_class(program, self->target) != REF_NONE;
      /* An import that finds no module of the workspace may still mean one
       * (a folder on sys.path eddi does not know of). */
      bool outside = !ours && target.kind == REF_TARGET_NONE && rename__importable(self, occ) &&
                     ref_program_import_outside(program, f, i);
      if (local_errors && rename__spoiled(&errors, occ))
        ours = rename__unsure(self, f, occ->start), self->spoiled++;
      else if (!ours && (target.kind == REF_TARGET_UNSURE || keyed || outside) &&
               rename__could_be(self, occ))
        ours = rename__unsure(self, f, occ->start);
      if (!ours) continue;
      RefSpan span = {occ->start, occ->end};
      array_push(&rename__change(self, f)->edits, span);
      plan->references++;
      if ((occ->flags & REF_OCC_DEF) && occ->sym != REF_NONE) rename__renamed(self, f, occ->sym);
    }
    for (; word < errors.words.len; word++) rename__error_word(self, f, errors.words.items[word]);
    rename__errors_free(&errors);
  }
  return 0;
}

/* C: a static function or variable declared in a header and defined in a
 * file that includes it is one entity of that file's translation unit,
 * and of every other that includes the header, while eddi reads the two
 * as each file's own: renamed, one would part from the other. Refused
 * with the other's place. */
static int rename__static_in_header(Rename *self) {
  if (self->target.kind != REF_TARGET_SYM) return 0;
  RefProgram *program = &self->program;
  const RefFile *home = program->files.items[self->target.file];
  const RefSym *sym = &home->syms.items[self->target.index];
  if (sym->scope != 0 || !(sym->flags & REF_SYM_INTERNAL) ||
      (sym->kind != REF_SYM_FUNCTION && sym->kind != REF_SYM_VARIABLE) ||
      ref_modules_kind(home->lang) != REF_MODULES_INCLUDES)
    return 0;
  for (uint32_t g = 0; g < program->files.len; g++) {
    const RefFile *file = program->files.items[g];
    if (file->lang != home->lang || ref_file_bound(file, 0, self->old_name) == REF_NONE) continue;
    /* What the file's includes bind to the name: an internal one comes
     * from a header, never from another file's linkage. */
    RefTarget included = ref_modules_c_lookup(program, g, self->old_name);
    if (included.kind != REF_TARGET_SYM || included.file == g) continue;
    const RefSym *other = &program->files.items[included.file]->syms.items[included.index];
    if (!(other->flags & REF_SYM_INTERNAL)) continue;
    bool mine = g == self->target.file;
    if (!mine && !ref_target_equal(included, self->target)) continue;
    StrBuf where = {0};
    if (mine) rename__place(self, included.file, other->start, &where);
    else rename__place(self, g, file->syms.items[ref_file_bound(file, 0, self->old_name)].start,
                       &where);
    eddi_error_set(self->err, EDDI_EINVAL,
                   "Not supported for C: %s is static and declared at %s too, in a header "
                   "and a file that includes it",
                   ref_names_str(program->names, self->old_name), where.data);
    eddi_error_hint(self->err, "Rename it in the header and in every file that includes it by hand");
    eddi_strbuf_free(&where);
    return EDDI_EINVAL;
  }
  return 0;
}

/* ---------------------------------------------------------------- lexical conflicts */

static uint32_t rename__depth(const RefFile *file, uint32_t scope) {
  uint32_t depth = 0;
  for (; scope != REF_NONE && scope != 0; scope = file->scopes.items[scope].parent) depth++;
  return depth;
}

static int rename__defined(Rename *self, uint32_t file, uint32_t sym, const char *fmt) {
  const RefSym *s = &self->program.files.items[file]->syms.items[sym];
  StrBuf where = {0};
  rename__place(self, file, s->start, &where);
  eddi_error_set(self->err, EDDI_EINVAL, fmt, self->new_text,
                 s->kind == REF_SYM_IMPORT ? "imported" : "defined", where.data);
  eddi_strbuf_free(&where);
  return EDDI_EINVAL;
}

/* A renamed binding whose scope already binds the new name. */
static int rename__same_scope(Rename *self) {
  for (size_t i = 0; i + 1 < self->renamed.len; i += 2) {
    const RefFile *file = self->program.files.items[self->renamed.items[i]];
    const RefSym *sym = &file->syms.items[self->renamed.items[i + 1]];
    if (sym->kind == REF_SYM_MEMBER || sym->scope == REF_NONE) continue; /* the hierarchy's */
    uint32_t other = ref_file_bound(file, sym->scope, self->new_name);
    if (other != REF_NONE)
      return rename__defined(self, self->renamed.items[i], other,
                             "Rename would clash with %s %s at %s");
    /* Linked across files (a C external): another file's of the new name. */
    RefTarget renamed = {REF_TARGET_SYM, self->renamed.items[i], self->renamed.items[i + 1]};
    RefTarget linked = ref_program_linked(&self->program, renamed, self->new_name);
    if (linked.kind == REF_TARGET_SYM)
      return rename__defined(self, linked.file, linked.index,
                             "Rename would clash with %s %s at %s");
  }
  return 0;
}

/* A renamed reference that an inner binding of the new name would catch
 * (shadowed), and a reference to another entity of the new name that a
 * renamed binding would catch (capture). */
static int rename__shadowing(Rename *self) {
  RefProgram *program = &self->program;
  for (uint32_t f = 0; f < program->files.len; f++) {
    const RefFile *file = program->files.items[f];
    for (uint32_t i = 0; i < file->occs.len; i++) {
      const RefOcc *occ = &file->occs.items[i];
      if (occ->kind != REF_OCC_NAME || (occ->flags & REF_OCC_DEF)) continue;
      if (occ->name != self->old_name && occ->name != self->new_name) continue;
      uint32_t mine = ref_file_lookup(file, occ->scope, self->old_name);
      if (mine == REF_NONE || !rename__is_renamed(self, f, mine)) continue;
      uint32_t other = ref_file_lookup(file, occ->scope, self->new_name);
      StrBuf at = {0}, where = {0};
      rename__place(self, f, occ->start, &at);
      int rc = 0;
      if (occ->name == self->old_name && other != REF_NONE &&
          rename__depth(file, file->syms.items[other].scope) >
              rename__depth(file, file->syms.items[mine].scope)) {
        rename__place(self, f, file->syms.items[other].start, &where);
        rc = eddi_error_set(self->err, EDDI_EINVAL,
                            "Rename would be shadowed at %s by %s defined at %s", at.data,
                            self->new_text, where.data);
      } else if (occ->name == self->new_name &&
                 (other == REF_NONE || rename__depth(file, file->syms.items[mine].scope) >
                                           rename__depth(file, file->syms.items[other].scope))) {
        /* Not in this file: maybe another's (a C header, an external). */
        RefTarget elsewhere = other == REF_NONE ? ref_program_target(program, f, i)
                                                : (RefTarget){REF_TARGET_NONE, 0, 0};
        if (other != REF_NONE) rename__place(self, f, file->syms.items[other].start, &where);
        else if (elsewhere.kind == REF_TARGET_SYM)
          ref_target_where(program, self->index, elsewhere, &where);
        else eddi_strbuf_puts(&where, "outside the workspace");
        bool placed = other != REF_NONE || elsewhere.kind == REF_TARGET_SYM;
        rc = eddi_error_set(self->err, EDDI_EINVAL, "Rename would shadow %s at %s (defined %s%s)",
                            self->new_text, at.data, placed ? "at " : "", where.data);
      }
      eddi_strbuf_free(&at), eddi_strbuf_free(&where);
      if (rc < 0) return rc;
    }
  }
  return 0;
}

/* ---------------------------------------------------------------- the new texts */

static int rename__by_start(const void *a, const void *b) {
  const RefSpan *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}

static int rename__by_source(const void *a, const void *b) {
  const RefChange *x = a, *y = b;
  return x->source < y->source ? -1 : x->source > y->source;
}

/* The point (row, byte column) of offset in text, counted on from *at,
 * *point (the point of *at): edits come in text order, so each count
 * goes on from the last. */
static TSPoint rename__point(const char *text, uint32_t offset, uint32_t *at, TSPoint *point) {
  for (; *at < offset; (*at)++) {
    if (text[*at] == '\n') point->row++, point->column = 0;
    else point->column++;
  }
  return *point;
}

/* The source's tree, edited to the change's spans: where the parse of the
 * new text starts, so that only the renamed names are parsed again
 * (index.h). NULL when the source has no tree. */
static TSTree *rename__edited_tree(const RefSource *source, const RefChange *change,
                                   const char *after, uint32_t new_len) {
  if (!source->tree) return NULL;
  TSTree *tree = ts_tree_copy(source->tree);
  int64_t shift = 0; /* what the edits before moved the text by */
  uint32_t at = 0, last = 0;
  TSPoint point = {0, 0};
  for (size_t e = 0; e < change->edits.len; e++) {
    RefSpan span = change->edits.items[e];
    if (span.start < last) continue; /* as rename__texts: the same name once */
    last = span.end;
    uint32_t start = (uint32_t)((int64_t)span.start + shift);
    /* A name holds no line break: the edit's ends are on its start's row. */
    TSPoint from = rename__point(after, start, &at, &point);
    TSInputEdit edit = {
        .start_byte = start,
        .old_end_byte = start + (span.end - span.start),
        .new_end_byte = start + new_len,
        .start_point = from,
        .old_end_point = {from.row, from.column + (span.end - span.start)},
        .new_end_point = {from.row, from.column + new_len},
    };
    ts_tree_edit(tree, &edit);
    shift += (int64_t)new_len - (int64_t)(span.end - span.start);
  }
  return tree;
}

static int rename__texts(Rename *self) {
  size_t n = strlen(self->new_text);
  if (self->plan->changes.len)
    qsort(self->plan->changes.items, self->plan->changes.len, sizeof *self->plan->changes.items,
          rename__by_source);
  for (size_t c = 0; c < self->plan->changes.len; c++) {
    RefChange *change = &self->plan->changes.items[c];
    const RefSource *source = &self->index->sources.items[change->source];
    if (change->edits.len)
      qsort(change->edits.items, change->edits.len, sizeof *change->edits.items, rename__by_start);
    StrBuf out = {0};
    eddi_strbuf_puts(&out, "");
    size_t at = 0;
    for (size_t e = 0; e < change->edits.len; e++) {
      RefSpan span = change->edits.items[e];
      if (span.start < at) continue; /* the same name twice (two captures): once */
      eddi_strbuf_append(&out, source->text + at, span.start - at);
      eddi_strbuf_append(&out, self->new_text, n);
      at = span.end;
    }
    eddi_strbuf_append(&out, source->text + at, source->len - at);
    change->after_len = out.len;
    change->after = eddi_strbuf_take(&out);
  }
  /* The changed files analysed again, for the differential check, each
   * parsed from its old tree where the index kept one. */
  Array(RefAnalysis) items = {0};
  for (size_t c = 0; c < self->plan->changes.len; c++) {
    const RefChange *change = &self->plan->changes.items[c];
    const RefSource *source = &self->index->sources.items[change->source];
    RefAnalysis item = {change->new_path ? change->new_path : source->path,
                        source->lang,
                        change->after,
                        change->after_len,
                        NULL,
                        rename__edited_tree(source, change, change->after, (uint32_t)n),
                        true,
                        NULL};
    array_push(&items, item);
  }
  int rc = ref_index_analyze_all(self->index, items.items, items.len, self->err);
  for (size_t c = 0; c < items.len; c++) {
    if (items.items[c].base) ts_tree_delete(items.items[c].base);
    if (rc < 0) continue;
    self->plan->changes.items[c].after_file = items.items[c].out;
    self->plan->changes.items[c].after_tree = items.items[c].tree;
  }
  array_free(&items);
  return rc;
}

/* ---------------------------------------------------------------- the differential check */

/* Where a changed file's analysis first departs from the old one's shape
 * (a name bound to another symbol, a symbol of another kind): the offset
 * in a of the first occurrence that differs, 0 when only the counts tell;
 * SIZE_MAX when the shapes agree. */
static size_t rename__shape_departs(const RefFile *a, const RefFile *b) {
  size_t occs = EDDI_MIN(a->occs.len, b->occs.len);
  for (size_t i = 0; i < occs; i++) {
    const RefOcc *x = &a->occs.items[i], *y = &b->occs.items[i];
    if (x->kind != y->kind || x->flags != y->flags || x->scope != y->scope || x->sym != y->sym)
      return x->start;
    if (x->sym != REF_NONE && x->sym < b->syms.len &&
        (a->syms.items[x->sym].kind != b->syms.items[x->sym].kind ||
         a->syms.items[x->sym].flags != b->syms.items[x->sym].flags))
      return x->start;
  }
  if (a->scopes.len != b->scopes.len || a->syms.len != b->syms.len || a->occs.len != b->occs.len ||
      a->exprs.len != b->exprs.len || a->imports.len != b->imports.len)
    return 0;
  for (size_t i = 0; i < a->syms.len; i++)
    if (a->syms.items[i].kind != b->syms.items[i].kind ||
        a->syms.items[i].flags != b->syms.items[i].flags)
      return 0;
  return SIZE_MAX;
}

static int rename__changed_meaning(Rename *self, uint32_t f, uint32_t i, RefTarget before,
                                   RefTarget after) {
  const RefOcc *occ = &self->program.files.items[f]->occs.items[i];
  StrBuf at = {0}, where = {0};
  rename__place(self, f, occ->start, &at);
  if (ref_targets_has(&self->family, before)) {
    ref_target_where(&self->program, self->index, after, &where);
    if (after.kind == REF_TARGET_SYM)
      eddi_error_set(self->err, EDDI_EINVAL, "Rename would be shadowed at %s by %s defined at %s",
                     at.data, self->new_text, where.data);
    else eddi_error_set(self->err, EDDI_EINVAL, "Rename would change what %s refers to", at.data);
  } else if (ref_targets_has(&self->family, after)) {
    ref_target_where(&self->program, self->index, before, &where);
    eddi_error_set(self->err, EDDI_EINVAL, "Rename would shadow %s at %s (defined %s%s)",
                   self->new_text, at.data, where.len ? "at " : "outside the workspace",
                   where.len ? where.data : "");
  } else if (before.kind == REF_TARGET_UNSURE) {
    eddi_error_set(self->err, EDDI_EINVAL, "Rename would break the unsure reference at %s",
                   at.data);
    eddi_error_hint(self->err, "Add Unsure to rename it too");
  } else {
    eddi_error_set(self->err, EDDI_EINVAL, "Rename would change what %s refers to", at.data);
  }
  eddi_strbuf_free(&at), eddi_strbuf_free(&where);
  return EDDI_EINVAL;
}

/* A path after the rename: the moved module's path and what is below it
 * change, the rest stays. */
static void rename__moved_path(const Rename *self, const char *path, StrBuf *out) {
  const char *from = self->plan->moved_from ? self->module_from : NULL;
  size_t n = from ? strlen(from) : 0;
  if (from && strncmp(path, from, n) == 0 && (path[n] == '\0' || path[n] == '/'))
    eddi_strbuf_printf(out, "%s%s", self->module_to, path + n);
  else eddi_strbuf_puts(out, path);
}

/* Whether before (of the program before) and after (of the program after)
 * are the same entity: symbols keep their indices; modules are compared
 * by path, since a module rename moves them. */
static bool rename__same_target(const Rename *self, RefProgram *after, RefTarget before,
                                RefTarget now) {
  if (before.kind != now.kind) return false;
  if (before.kind != REF_TARGET_MODULE) return ref_target_equal(before, now);
  StrBuf path = {0};
  eddi_strbuf_puts(&path, "");
  rename__moved_path(
      self, ref_names_str(self->program.names, self->program.modules.items[before.index].path),
      &path);
  bool same =
      strcmp(path.data, ref_names_str(after->names, after->modules.items[now.index].path)) == 0;
  eddi_strbuf_free(&path);
  return same;
}

static int rename__differential(Rename *self) {
  RefProgram *before = &self->program;
  Array(RefFile *) files = {0};
  for (size_t f = 0; f < before->files.len; f++) array_push(&files, before->files.items[f]);
  Array(bool) changed = {0};
  for (size_t f = 0; f < before->files.len; f++) array_push(&changed, false);
  int rc = 0;
  for (size_t c = 0; c < self->plan->changes.len && rc == 0; c++) {
    const RefChange *change = &self->plan->changes.items[c];
    const RefFile *old = before->files.items[change->source];
    const RefFile *now = change->after_file;
    size_t departs;
    if (now->errors > old->errors) {
      StrBuf at = {0};
      rename__place(self, change->source, now->first_error, &at);
      rc =
          eddi_error_set(self->err, EDDI_EINVAL, "Rename would make a syntax error in %s", at.data);
      eddi_strbuf_free(&at);
    } else if ((departs = rename__shape_departs(old, now)) != SIZE_MAX) {
      StrBuf at = {0};
      rename__place(self, change->source, (uint32_t)departs, &at);
      rc = eddi_error_set(self->err, EDDI_EINVAL,
                          "Rename would change how %s binds its names, first at %s", old->path,
                          at.data);
      eddi_error_hint(self->err,
                      "The name there would be bound otherwise than before, as when it is bound "
                      "in two ways (two imports in a try, an import and an assignment) and only "
                      "one of them is renamed; rename that file's uses by hand");
      eddi_strbuf_free(&at);
    }
    files.items[change->source] = change->after_file;
    changed.items[change->source] = true;
  }
  RefProgram after;
  ref_program_init(&after, before->names, files.items, files.len);
  ref_program_roots(&after, before->roots, before->root_count);
  for (uint32_t f = 0; f < before->files.len && rc == 0; f++) {
    const RefFile *file = before->files.items[f];
    for (uint32_t i = 0; i < file->occs.len && rc == 0; i++) {
      const RefOcc *occ = &file->occs.items[i];
      bool named = occ->name == self->old_name || occ->name == self->new_name;
      bool attribute =
          changed.items[f] && (occ->kind == REF_OCC_MEMBER || occ->kind == REF_OCC_KEYWORD);
      if (!named && !attribute) continue;
      RefTarget was = ref_program_target(before, f, i);
      RefTarget now = ref_program_target(&after, f, i);
      if (!rename__same_target(self, &after, was, now))
        rc = rename__changed_meaning(self, f, i, was, now);
    }
  }
  ref_program_free(&after);
  array_free(&files);
  array_free(&changed);
  return rc;
}

/* ---------------------------------------------------------------- modules */

/* A source of the module (its file, or any file of its folder), for the
 * language; REF_NONE if it has none. */
static uint32_t rename__module_source(const Rename *self, const RefModule *module) {
  if (module->file != REF_NONE) return module->file;
  const char *path = ref_names_str(self->program.names, module->path);
  size_t n = strlen(path);
  for (uint32_t i = 0; i < self->index->sources.len; i++)
    if (strncmp(self->index->sources.items[i].path, path, n) == 0 &&
        self->index->sources.items[i].path[n] == '/')
      return i;
  return REF_NONE;
}

/* Renaming a module moves its file, or its folder with every file in it;
 * the new place must be free. */
static int rename__module(Rename *self) {
  const RefModule *module = &self->program.modules.items[self->target.index];
  const char *path = ref_names_str(self->program.names, module->path);
  const char *slash = strrchr(path, '/');
  StrBuf to = {0};
  if (slash) eddi_strbuf_append(&to, path, (size_t)(slash - path + 1));
  eddi_strbuf_puts(&to, self->new_text);
  self->module_from = eddi_strdup(path);
  self->module_to = eddi_strbuf_take(&to);
  RefPlan *plan = self->plan;
  bool folder = module->package;
  const char *ext = "";
  if (!folder) {
    const char *file = self->index->sources.items[module->file].path;
    const char *dot = strrchr(file, '.');
    ext = dot ? dot : "";
  }
  StrBuf from_path = {0}, to_path = {0};
  eddi_strbuf_printf(&from_path, "%s%s", self->module_from, ext);
  eddi_strbuf_printf(&to_path, "%s%s", self->module_to, ext);
  plan->moved_from = eddi_strbuf_take(&from_path);
  plan->moved_to = eddi_strbuf_take(&to_path);
  uint32_t clash = ref_program_module(&self->program, self->module_to);
  char *abs = eddi_path_join(self->index->root ? self->index->root : "", plan->moved_to);
  struct stat st;
  bool taken = lstat(abs, &st) == 0;
  eddi_free(abs);
  if (clash != REF_NONE) {
    StrBuf name = {0};
    ref_target_name(&self->program, self->index, (RefTarget){REF_TARGET_MODULE, 0, clash}, &name);
    eddi_error_set(self->err, EDDI_EINVAL, "Rename would clash with module %s", name.data);
    eddi_strbuf_free(&name);
    return EDDI_EINVAL;
  }
  if (taken)
    return eddi_error_set(self->err, EDDI_EINVAL, "Rename would clash with %s, which exists",
                          plan->moved_to);
  size_t n = strlen(self->module_from);
  for (uint32_t i = 0; i < self->index->sources.len; i++) {
    const char *p = self->index->sources.items[i].path;
    StrBuf moved = {0};
    if (folder && strncmp(p, self->module_from, n) == 0 && p[n] == '/')
      eddi_strbuf_printf(&moved, "%s%s", self->module_to, p + n);
    else if (!folder && i == module->file) eddi_strbuf_puts(&moved, plan->moved_to);
    if (moved.len) rename__change(self, i)->new_path = eddi_strbuf_take(&moved);
  }
  if (!folder) return 0;
  plan->emptied = eddi_strdup(self->module_from);
  int rc = ref_index_other_files(self->index, self->module_from, &plan->carry_from, self->err);
  for (size_t i = 0; rc == 0 && i < plan->carry_from.len; i++) {
    StrBuf moved = {0};
    eddi_strbuf_printf(&moved, "%s%s", self->module_to, plan->carry_from.items[i] + n);
    array_push(&plan->carry_to, eddi_strbuf_take(&moved));
  }
  return rc;
}

/* ---------------------------------------------------------------- the plan */

/* The plan for what spec names, or (spec NULL) for the name at offset of
 * source. */
/* *checked (may be NULL) says whether the plan passed the differential
 * check, which a plan refused for its unsure places may skip. */
static int rename__plan(RefIndex *index, const char *spec, uint32_t source, uint32_t offset,
                        const char *new_name, unsigned flags, RefPlan *out, bool *checked,
                        EddiError *err) {
  if (checked) *checked = true;
  memset(out, 0, sizeof *out);
  eddi_strbuf_puts(&out->unsure, "");
  out->unsure_changeable = true;
  Rename self = {.index = index, .new_text = new_name, .flags = flags, .plan = out, .err = err};
  Array(RefFile *) files = {0};
  for (size_t i = 0; i < index->sources.len; i++) array_push(&files, index->sources.items[i].file);
  ref_program_init(&self.program, &index->names, files.items, files.len);
  ref_index_program_roots(index, &self.program);
  array_free(&files);
  StrBuf place = {0};
  if (!spec) {
    ref_target_place(index, source, offset, &place);
    spec = place.data;
  }
  int rc = place.len ? ref_target_at(&self.program, source, offset, spec, &self.target, err)
                     : ref_target_find(&self.program, index, spec, &self.target, err);
  const EddiLang *lang = NULL;
  if (rc == 0) {
    self.old_name = ref_target_name_id(&self.program, self.target);
    bool klass = self.target.kind == REF_TARGET_SYM &&
                 self.program.files.items[self.target.file]->syms.items[self.target.index].kind ==
                     REF_SYM_CLASS;
    if ((flags & REF_RENAME_CLASS) && !klass) {
      rc = eddi_error_set(err, EDDI_EINVAL, "%s is not a class", spec);
    } else {
      uint32_t home = self.target.file;
      if (self.target.kind == REF_TARGET_MODULE)
        home = rename__module_source(&self, &self.program.modules.items[self.target.index]);
      if (home == REF_NONE) {
        rc = eddi_error_set(err, EDDI_EINVAL, "%s holds no source file", spec);
      } else {
        lang = self.lang = self.program.files.items[home]->lang;
        rc = rename__valid(&self, lang);
      }
    }
  }
  if (rc == 0) {
    self.new_name = ref_names_intern(&index->names, new_name, strlen(new_name));
    out->old_name = eddi_strdup(ref_names_str(&index->names, self.old_name));
    out->new_name = eddi_strdup(new_name);
    if (self.new_name == self.old_name)
      rc = eddi_error_set(err, EDDI_EINVAL, "%s is already called %s", spec, new_name);
  }
  if (rc == 0 && self.target.kind == REF_TARGET_MODULE) rc = rename__module(&self);
  if (rc == 0) {
    RefFamilyQuery query = {&self.program,
                            index,
                            self.old_name,
                            self.new_name,
                            new_name,
                            (flags & (REF_RENAME_UNSURE | REF_UNSURE_LEAVE)) != 0,
                            err};
    rc = ref_family(&query, self.target, &self.family);
  }
  if (rc == 0) rc = rename__static_in_header(&self);
  if (rc == 0) rc = rename__collect(&self);
  if (rc == 0 && out->unsure_count) out->unsure_of = eddi_strdup(spec);
  if (rc == 0) rc = rename__same_scope(&self);
  if (rc == 0) rc = rename__shadowing(&self);
  if (rc == 0) rc = rename__texts(&self);
  if (rc == 0) {
    rc = rename__differential(&self);
    /* Occurrences a syntax error made unsure are sure ones too: left
     * alone, they may be what changes meaning. Without Unsure or Leave the
     * answer is the list of them (ref_plan_unsure_check refuses the write
     * for them); Leave gets the differential's refusal, since such a plan
     * is not kept. Modify's rename (no *checked) writes with unsure ones
     * left: it keeps the refusal. */
    if (rc < 0 && checked && self.spoiled && !(flags & (REF_RENAME_UNSURE | REF_UNSURE_LEAVE))) {
      eddi_error_clear(err);
      rc = 0;
      *checked = false;
    } else if (rc < 0 && self.spoiled && !(flags & REF_RENAME_UNSURE)) {
      eddi_error_hint(err, "Add Unsure to rename the places beside syntax errors too");
    }
  }
  ref_program_free(&self.program);
  array_free(&self.family);
  array_free(&self.renamed);
  eddi_free(self.module_from);
  eddi_free(self.module_to);
  eddi_strbuf_free(&place);
  if (rc < 0) ref_plan_free(out);
  return rc;
}

/* ---------------------------------------------------------------- the kept plan */

typedef struct {
  uint64_t generation;
  char *spec;
  char *new_name;
  unsigned flags;
  RefPlan plan;
  /* Each change's source as planned: checked again, besides the
   * generation, before the plan is used (paths owned). */
  Array(char *) paths;
  Array(size_t) lens;
} RenameKept;

static void rename__kept_free(void *kept) {
  RenameKept *self = kept;
  for (size_t i = 0; i < self->paths.len; i++) eddi_free(self->paths.items[i]);
  array_free(&self->paths);
  array_free(&self->lens);
  eddi_free(self->spec);
  eddi_free(self->new_name);
  ref_plan_free(&self->plan);
  eddi_free(self);
}

static char *rename__dup(const char *text) { return text ? eddi_strdup(text) : NULL; }

static void rename__paths_copy(const RefPaths *from, RefPaths *to) {
  for (size_t i = 0; i < from->len; i++) array_push(to, eddi_strdup(from->items[i]));
}

/* A copy of from in to, without the analyses of the new texts. */
static void rename__plan_copy(const RefPlan *from, RefPlan *to) {
  memset(to, 0, sizeof *to);
  to->old_name = rename__dup(from->old_name);
  to->new_name = rename__dup(from->new_name);
  for (size_t i = 0; i < from->changes.len; i++) {
    const RefChange *change = &from->changes.items[i];
    RefChange copy = {.source = change->source,
                      .new_path = rename__dup(change->new_path),
                      .after = eddi_strndup(change->after, change->after_len),
                      .after_len = change->after_len};
    for (size_t e = 0; e < change->edits.len; e++) array_push(&copy.edits, change->edits.items[e]);
    array_push(&to->changes, copy);
  }
  to->references = from->references;
  to->unsure_count = from->unsure_count;
  to->unsure_changeable = from->unsure_changeable;
  to->unsure_kept = from->unsure_kept;
  to->unsure_of = rename__dup(from->unsure_of);
  eddi_strbuf_puts(&to->unsure, "");
  eddi_strbuf_append(&to->unsure, from->unsure.data ? from->unsure.data : "", from->unsure.len);
  to->moved_from = rename__dup(from->moved_from);
  to->moved_to = rename__dup(from->moved_to);
  rename__paths_copy(&from->carry_from, &to->carry_from);
  rename__paths_copy(&from->carry_to, &to->carry_to);
  to->emptied = rename__dup(from->emptied);
}

static void rename__keep(RefIndex *index, const char *spec, const char *new_name, unsigned flags,
                         const RefPlan *plan) {
  if (index->kept_plan) index->kept_plan_free(index->kept_plan);
  RenameKept *kept = eddi_calloc(1, sizeof *kept);
  kept->generation = index->generation;
  kept->spec = eddi_strdup(spec);
  kept->new_name = eddi_strdup(new_name);
  kept->flags = flags;
  rename__plan_copy(plan, &kept->plan);
  for (size_t i = 0; i < plan->changes.len; i++) {
    const RefSource *source = &index->sources.items[plan->changes.items[i].source];
    array_push(&kept->paths, eddi_strdup(source->path));
    array_push(&kept->lens, source->len);
  }
  index->kept_plan = kept;
  index->kept_plan_free = rename__kept_free;
}

int ref_rename_plan_kept(RefIndex *index, const char *spec, const char *new_name, unsigned flags,
                         RefPlan *out) {
  const RenameKept *kept = index->kept_plan_free == rename__kept_free ? index->kept_plan : NULL;
  /* Leave only lifts refusals: a plan made without it holds with it. */
  bool same = kept && (kept->flags == flags || kept->flags == (flags & ~REF_UNSURE_LEAVE));
  if (!same || kept->generation != index->generation ||
      strcmp(kept->spec, spec) != 0 || strcmp(kept->new_name, new_name) != 0)
    return EDDI_ENOENT;
  for (size_t i = 0; i < kept->plan.changes.len; i++) {
    uint32_t at = kept->plan.changes.items[i].source;
    if (at >= index->sources.len || strcmp(index->sources.items[at].path, kept->paths.items[i]) ||
        index->sources.items[at].len != kept->lens.items[i])
      return EDDI_ENOENT;
  }
  rename__plan_copy(&kept->plan, out);
  return 0;
}

int ref_rename_plan(RefIndex *index, const char *spec, const char *new_name, unsigned flags,
                    RefPlan *out, EddiError *err) {
  bool checked;
  int rc = rename__plan(index, spec, 0, 0, new_name, flags, out, &checked, err);
  if (rc == 0 && checked) rename__keep(index, spec, new_name, flags, out);
  return rc;
}

int ref_rename_plan_at(RefIndex *index, uint32_t source, uint32_t offset, const char *new_name,
                       unsigned flags, RefPlan *out, EddiError *err) {
  return rename__plan(index, NULL, source, offset, new_name, flags, out, NULL, err);
}
