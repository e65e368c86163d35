/* scope.c - one file's scopes, symbols and occurrences; see scope.h.
 *
 * Three passes over one tree:
 * 1. the locals query: every capture adds a role to its node, and the
 *    captures of one match link nodes together (a scope to the definition
 *    naming it, an attribute to its receiver, a keyword argument to the
 *    call's callee, an import's parts to the import);
 * 2. a walk in text order that keeps the scope in effect (a node with
 *    @scope.outer is evaluated in the scope around the innermost one, as a
 *    function's defaults are) and whether a node is an assignment target
 *    (@definition.target, continued through @pattern nodes), written
 *    without being bound (@write, JavaScript's and C's assignments) or
 *    inside a definition without linkage (@linkage.internal), and makes
 *    the scopes, expressions and occurrences (the words of @text, a C
 *    macro's body, each an unsure one);
 * 3. symbols from the definitions (after global and nonlocal), then the
 *    links by node turned into indices, the members set through self and
 *    the base classes.
 * Node identities (TSNode.id) are used only inside this file: the result
 * holds indices. The file is longer than the usual 800 lines because the
 * three passes share one build state (ScopeBuild, keyed by node
 * identities); split, that state would need a header nothing else reads. */
#define _GNU_SOURCE /* memmem */
#include "refactor/scope.h"

/* ---------------------------------------------------------------- roles */

enum {
  ROLE_SCOPE_CLASS = 1ull << 0,
  ROLE_SCOPE_FUNCTION = 1ull << 1,
  ROLE_SCOPE_LAMBDA = 1ull << 2,
  ROLE_SCOPE_COMPREHENSION = 1ull << 3,
  ROLE_SCOPE_BLOCK = 1ull << 4,
  ROLE_SCOPE_OUTER = 1ull << 5,
  ROLE_DEF_FUNCTION = 1ull << 6,
  ROLE_DEF_CLASS = 1ull << 7,
  ROLE_DEF_PARAMETER = 1ull << 8,
  ROLE_DEF_SELF = 1ull << 9,
  ROLE_DEF_CLS = 1ull << 10,
  ROLE_DEF_PLAIN = 1ull << 11,
  ROLE_DEF_TARGET = 1ull << 12,
  ROLE_DEF_HOISTED = 1ull << 13,
  ROLE_PATTERN = 1ull << 14,
  ROLE_DECL_GLOBAL = 1ull << 15,
  ROLE_DECL_NONLOCAL = 1ull << 16,
  ROLE_REFERENCE = 1ull << 17,
  ROLE_MEMBER = 1ull << 18,
  ROLE_MEMBER_NAME = 1ull << 19,
  ROLE_MEMBER_UNKNOWN = 1ull << 20,
  ROLE_KEYWORD = 1ull << 21,
  ROLE_EXPORT = 1ull << 22,
  ROLE_STRING = 1ull << 23,
  ROLE_SKIP = 1ull << 24,
  ROLE_CALL = 1ull << 25,
  ROLE_LITERAL = 1ull << 26,
  ROLE_IMPORT_PART = 1ull << 27,
  ROLE_IMPORT_NAME = 1ull << 28,
  ROLE_IMPORT_ALIAS = 1ull << 29,
  ROLE_IMPORT_STAR = 1ull << 30,
  ROLE_SUPER = 1ull << 31,
  ROLE_RETURN = 1ull << 32,
  ROLE_YIELD = 1ull << 33,
  ROLE_ASYNC = 1ull << 34,
  ROLE_DECORATED = 1ull << 35,
  ROLE_NOTHING = 1ull << 36,
  ROLE_DEF_VARIABLE = 1ull << 37,
  ROLE_DEF_EXPORT = 1ull << 38,
  ROLE_DEF_MACRO = 1ull << 39,
  ROLE_LINKAGE_INTERNAL = 1ull << 40,
  ROLE_SELF = 1ull << 41,
  ROLE_KEYED = 1ull << 42,
  ROLE_TEXT = 1ull << 43,
  ROLE_EXPORT_DEFAULT = 1ull << 44,
  ROLE_WRITE = 1ull << 45,
  ROLE_PATTERN_DEFAULT = 1ull << 46,
  ROLE_SCOPE_BODY = 1ull << 47,
  ROLE_SYNTAX_TOLERATED = 1ull << 48,
  ROLE_ANNOTATION = 1ull << 49,
  ROLE_ANNOTATION_VALUES = 1ull << 50,
  ROLE_FORWARD = 1ull << 51,
};

#define ROLE_SCOPES                                                                        \
  (ROLE_SCOPE_CLASS | ROLE_SCOPE_FUNCTION | ROLE_SCOPE_LAMBDA | ROLE_SCOPE_COMPREHENSION | \
   ROLE_SCOPE_BLOCK)
#define ROLE_DEF_NAMED (ROLE_DEF_FUNCTION | ROLE_DEF_CLASS)
/* Definitions of a name where it stands (no target walk). */
#define ROLE_DEF_HERE (ROLE_DEF_NAMED | ROLE_DEF_PARAMETER | ROLE_DEF_VARIABLE | ROLE_DEF_MACRO)

/* The capture prefix that puts a name in a namespace of its own: a node
 * captured "@namespace.struct" is the name "struct <text>" (C's tags). */
#define SCOPE_NAMESPACE_CAPTURE "namespace."


/* Captures that only give a role; the linking ones are read by name in
 * scope__match. Unknown captures (and "_" ones, for predicates) are ignored. */
static const struct {
  const char *capture;
  uint64_t role;
} scope__roles[] = {
    {"scope.class", ROLE_SCOPE_CLASS},
    {"scope.function", ROLE_SCOPE_FUNCTION},
    {"scope.lambda", ROLE_SCOPE_LAMBDA},
    {"scope.comprehension", ROLE_SCOPE_COMPREHENSION},
    {"scope.block", ROLE_SCOPE_BLOCK},
    {"scope.outer", ROLE_SCOPE_OUTER},
    {"definition.function", ROLE_DEF_FUNCTION},
    {"definition.class", ROLE_DEF_CLASS},
    {"definition.parameter", ROLE_DEF_PARAMETER},
    {"definition.self", ROLE_DEF_SELF},
    {"definition.cls", ROLE_DEF_CLS},
    {"definition.plain", ROLE_DEF_PLAIN},
    {"definition.target", ROLE_DEF_TARGET},
    {"definition.hoisted", ROLE_DEF_HOISTED},
    {"pattern", ROLE_PATTERN},
    {"declaration.global", ROLE_DECL_GLOBAL},
    {"declaration.nonlocal", ROLE_DECL_NONLOCAL},
    {"reference", ROLE_REFERENCE},
    {"member", ROLE_MEMBER},
    {"member.name", ROLE_MEMBER_NAME},
    {"member.unknown", ROLE_MEMBER_UNKNOWN},
    {"keyword", ROLE_KEYWORD},
    {"export", ROLE_EXPORT},
    {"string", ROLE_STRING},
    {"skip", ROLE_SKIP},
    {"call", ROLE_CALL},
    {"literal", ROLE_LITERAL},
    {"super", ROLE_SUPER},
    {"return", ROLE_RETURN},
    {"yield", ROLE_YIELD},
    {"async", ROLE_ASYNC},
    {"nothing", ROLE_NOTHING},
    {"definition.variable", ROLE_DEF_VARIABLE},
    {"definition.export", ROLE_DEF_EXPORT},
    {"definition.macro", ROLE_DEF_MACRO},
    {"linkage.internal", ROLE_LINKAGE_INTERNAL},
    {"self", ROLE_SELF},
    {"keyed", ROLE_KEYED},
    {"text", ROLE_TEXT},
    {"export.default", ROLE_EXPORT_DEFAULT},
    {"write", ROLE_WRITE},
    {"pattern.default", ROLE_PATTERN_DEFAULT},
    {"scope.body", ROLE_SCOPE_BODY},
    {"syntax.tolerated", ROLE_SYNTAX_TOLERATED},
    {"annotation", ROLE_ANNOTATION},
    {"annotation.values", ROLE_ANNOTATION_VALUES},
    {"forward", ROLE_FORWARD},
};
#define SCOPE_ROLE_COUNT (sizeof scope__roles / sizeof scope__roles[0])

/* What the query said about one node, and what the walk made of it. */
typedef struct {
  uint64_t roles;
  uint64_t def;    /* a scope: the name defining it */
  uint64_t object; /* an attribute: its receiver */
  uint64_t name;   /* an attribute: its name */
  uint64_t callee; /* a call or a keyword argument: the called expression */
  uint64_t value;  /* an assignment target: the value */
  uint64_t type;   /* an annotated target: the annotation */
  uint64_t elements; /* a target annotated as a collection: its element's type */
  uint64_t iterates; /* a loop's target: the collection it walks */
  uint32_t import, part;
  uint32_t expr;   /* made by the walk, or REF_NONE */
  uint32_t occ;    /* made by the walk, or REF_NONE */
  uint32_t prefix; /* @namespace.X: the interned "X " its name starts with, or REF_NONE */
} NodeInfo;

/* Where the walk is at one depth. */
typedef struct {
  uint32_t scope;
  bool assigned;     /* the node is an assignment target */
  bool pattern_open; /* ... and a pattern: its children are targets too */
  bool hoisted;      /* ... that binds in the nearest function (@definition.hoisted) */
  bool written;      /* the node is written without being bound (@write) */
  bool internal;     /* inside a node of @linkage.internal: its definitions have no linkage */
  bool tolerant;     /* inside @syntax.tolerated: a MISSING token is no error */
  bool annotation;   /* inside @annotation: a string is a type ... */
  bool values;       /* ... unless inside @annotation.values (Literal["a"]) */
} WalkFrame;

typedef struct {
  RefFile *file;
  RefNames *names;
  const char *text;
  size_t len;
  RefMap nodes; /* node id -> index into infos */
  Array(NodeInfo) infos;
  Array(uint64_t) expr_refs;  /* per expression: the node its ref is read from */
  Array(uint64_t) occ_roles;  /* per occurrence: the roles of its node */
  Array(uint64_t) occ_links;  /* per occurrence: the node its expr is read from */
  Array(uint64_t) occ_nodes;  /* per occurrence: its node */
  Array(uint64_t) scope_defs; /* per scope: the name defining it, or 0 */
  Array(uint64_t) base_pairs; /* class name node, base node, ... */
  Array(uint64_t) dynamics;   /* receiver node, name node, name offset, ... */
  Array(uint64_t) reflections; /* object node, the reading call's offset, ... */
  Array(uint64_t) returns;    /* scope, returned node, ... */
  Array(uint64_t) narrowings; /* block start, block end, name node, type node, ... (@narrow.*) */
  RefIds yields;              /* scopes that yield or await (coroutines) */
  uint64_t default_export;    /* the node of @export.default, or 0 */
} ScopeBuild;

static uint64_t scope__key(TSNode node) { return (uint64_t)(uintptr_t)node.id; }

static NodeInfo *scope__info(ScopeBuild *self, uint64_t key) {
  uint32_t at = ref_map_get(&self->nodes, key);
  if (at == REF_NONE) {
    NodeInfo fresh = {.expr = REF_NONE, .occ = REF_NONE, .import = REF_NONE, .prefix = REF_NONE};
    at = (uint32_t)self->infos.len;
    array_push(&self->infos, fresh);
    ref_map_put(&self->nodes, key, at);
  }
  return &self->infos.items[at];
}

static const NodeInfo *scope__find(const ScopeBuild *self, uint64_t key) {
  uint32_t at = key ? ref_map_get(&self->nodes, key) : REF_NONE;
  return at == REF_NONE ? NULL : &self->infos.items[at];
}

static uint32_t scope__intern(ScopeBuild *self, TSNode node) {
  uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
  return ref_names_intern(self->names, self->text + start, end - start);
}

/* ---------------------------------------------------------------- pass 1: the query */

static char *scope__slice(const void *source, size_t start, size_t end) {
  return eddi_strndup((const char *)source + start, end - start);
}

/* The node of the match's capture called name, or a null node. */
static TSNode scope__capture(const TSQuery *query, const TSQueryMatch *match, const char *name) {
  size_t n = strlen(name);
  for (uint16_t i = 0; i < match->capture_count; i++) {
    uint32_t len;
    const char *capture = ts_query_capture_name_for_id(query, match->captures[i].index, &len);
    if (len == n && memcmp(capture, name, n) == 0) return match->captures[i].node;
  }
  return (TSNode){0};
}

/* The import a match describes: its module path, the name it imports,
 * its alias; each part's node learns which import and part it is. */
static void scope__import(ScopeBuild *self, const TSQuery *query, const TSQueryMatch *match) {
  TSNode module = scope__capture(query, match, "import.module");
  TSNode from = scope__capture(query, match, "import.from");
  TSNode dots = scope__capture(query, match, "import.dots");
  TSNode name = scope__capture(query, match, "import.name");
  TSNode alias = scope__capture(query, match, "import.alias");
  TSNode star = scope__capture(query, match, "import.star");
  TSNode all = scope__capture(query, match, "import.all");
  TSNode by_path = scope__capture(query, match, "import.path");
  TSNode whole = scope__capture(query, match, "import.default");
  if (ts_node_is_null(module) && ts_node_is_null(name) && ts_node_is_null(star) &&
      ts_node_is_null(all) && ts_node_is_null(whole) &&
      (ts_node_is_null(by_path) || ts_node_is_null(alias)))
    return;
  if (!ts_node_is_null(all)) star = all;
  if (!ts_node_is_null(whole)) alias = whole;
  RefFile *file = self->file;
  RefImport import = {
      .kind = !ts_node_is_null(all)     ? REF_IMPORT_ALL
              : !ts_node_is_null(star)  ? REF_IMPORT_STAR
              : !ts_node_is_null(whole) ? REF_IMPORT_DEFAULT
              : !ts_node_is_null(name)  ? REF_IMPORT_FROM
                                        : REF_IMPORT_MODULE,
      .parts_first = (uint32_t)file->parts.len,
      .name = REF_NONE,
      .aliased = !ts_node_is_null(alias),
      .sym = REF_NONE,
      .scope = REF_NONE,
      .path = ts_node_is_null(by_path) ? REF_NONE : scope__intern(self, by_path),
  };
  uint32_t index = (uint32_t)file->imports.len;
  if (!ts_node_is_null(dots))
    for (uint32_t i = ts_node_start_byte(dots); i < ts_node_end_byte(dots); i++)
      import.level += self->text[i] == '.';
  TSNode path = ts_node_is_null(module) ? from : module;
  import.start = !ts_node_is_null(dots)      ? ts_node_start_byte(dots)
                 : !ts_node_is_null(path)    ? ts_node_start_byte(path)
                 : !ts_node_is_null(by_path) ? ts_node_start_byte(by_path)
                                             : 0;
  uint32_t parts = ts_node_is_null(path) ? 0 : ts_node_named_child_count(path);
  for (uint32_t i = 0; i < parts; i++) {
    TSNode part = ts_node_named_child(path, i);
    array_push(&file->parts, scope__intern(self, part));
    NodeInfo *info = scope__info(self, scope__key(part));
    info->roles |= ROLE_IMPORT_PART;
    info->import = index, info->part = i;
  }
  import.parts_count = parts;
  /* A dotted name of one part, or a name of no parts (an identifier). */
  uint32_t name_parts = ts_node_is_null(name) ? 0 : ts_node_named_child_count(name);
  if (!ts_node_is_null(name) && name_parts <= 1) {
    TSNode part = name_parts ? ts_node_named_child(name, 0) : name;
    import.name = scope__intern(self, part);
    NodeInfo *info = scope__info(self, scope__key(part));
    info->roles |= ROLE_IMPORT_NAME;
    info->import = index;
  }
  if (!ts_node_is_null(alias)) {
    NodeInfo *info = scope__info(self, scope__key(alias));
    info->roles |= ROLE_IMPORT_ALIAS;
    info->import = index;
  }
  if (!ts_node_is_null(star)) {
    NodeInfo *info = scope__info(self, scope__key(star));
    info->roles |= ROLE_IMPORT_STAR;
    info->import = index;
  }
  array_push(&file->imports, import);
}

/* Links between the captures of one match. */
static void scope__link(ScopeBuild *self, const TSQuery *query, const TSQueryMatch *match) {
  static const char *const scopes[] = {"scope.class", "scope.function", "scope.lambda",
                                       "scope.comprehension", "scope.block"};
  TSNode def = scope__capture(query, match, "definition.function");
  if (ts_node_is_null(def)) def = scope__capture(query, match, "definition.class");
  if (!ts_node_is_null(def)) {
    for (size_t i = 0; i < sizeof scopes / sizeof *scopes; i++) {
      TSNode scope = scope__capture(query, match, scopes[i]);
      if (!ts_node_is_null(scope)) scope__info(self, scope__key(scope))->def = scope__key(def);
    }
    TSNode base = scope__capture(query, match, "class.base");
    if (!ts_node_is_null(base)) {
      array_push(&self->base_pairs, scope__key(def));
      array_push(&self->base_pairs, scope__key(base));
      scope__info(self, scope__key(base)); /* known, so the walk makes its expression */
    }
  }
  TSNode returns = scope__capture(query, match, "returns.function");
  TSNode returns_type = scope__capture(query, match, "returns.type");
  if (!ts_node_is_null(returns) && !ts_node_is_null(returns_type))
    scope__info(self, scope__key(returns))->type = scope__key(returns_type);
  returns_type = scope__capture(query, match, "returns.elements");
  if (!ts_node_is_null(returns) && !ts_node_is_null(returns_type))
    scope__info(self, scope__key(returns))->elements = scope__key(returns_type);
  TSNode decorated = scope__capture(query, match, "decorated");
  TSNode decorator = scope__capture(query, match, "decorator");
  if (!ts_node_is_null(decorated) && !ts_node_is_null(decorator)) {
    uint32_t start = ts_node_start_byte(decorator), end = ts_node_end_byte(decorator);
    bool plain = false;
    const EddiLang *lang = self->file->lang;
    for (size_t k = 0; k < EDDI_LANG_LIST_MAX && lang->plain_decorators[k] && !plain; k++)
      plain = strlen(lang->plain_decorators[k]) == end - start &&
              memcmp(lang->plain_decorators[k], self->text + start, end - start) == 0;
    if (!plain) scope__info(self, scope__key(decorated))->roles |= ROLE_DECORATED;
  }
  TSNode dynamic = scope__capture(query, match, "dynamic");
  TSNode dynamic_name = scope__capture(query, match, "dynamic.name");
  if (!ts_node_is_null(dynamic) && !ts_node_is_null(dynamic_name)) {
    array_push(&self->dynamics, scope__key(dynamic));
    array_push(&self->dynamics, scope__key(dynamic_name));
    array_push(&self->dynamics, ts_node_start_byte(dynamic_name));
    scope__info(self, scope__key(dynamic));
  }
  TSNode reflected = scope__capture(query, match, "reflected");
  TSNode reflected_by = scope__capture(query, match, "reflected.by");
  if (!ts_node_is_null(reflected) && !ts_node_is_null(reflected_by)) {
    array_push(&self->reflections, scope__key(reflected));
    array_push(&self->reflections, ts_node_start_byte(reflected_by));
    scope__info(self, scope__key(reflected));
  }
  TSNode member = scope__capture(query, match, "member");
  if (!ts_node_is_null(member)) {
    TSNode object = scope__capture(query, match, "member.object");
    TSNode name = scope__capture(query, match, "member.name");
    NodeInfo *info = scope__info(self, scope__key(member));
    if (!ts_node_is_null(object)) info->object = scope__key(object);
    if (!ts_node_is_null(name)) {
      info->name = scope__key(name);
      scope__info(self, scope__key(name))->object = scope__key(object);
    }
  }
  TSNode callee = scope__capture(query, match, "call.callee");
  TSNode call = scope__capture(query, match, "call");
  if (!ts_node_is_null(callee) && !ts_node_is_null(call))
    scope__info(self, scope__key(call))->callee = scope__key(callee);
  TSNode keyword = scope__capture(query, match, "keyword");
  callee = scope__capture(query, match, "keyword.call");
  if (!ts_node_is_null(keyword) && !ts_node_is_null(callee))
    scope__info(self, scope__key(keyword))->callee = scope__key(callee);
  TSNode target = scope__capture(query, match, "assign.target");
  TSNode value = scope__capture(query, match, "assign.value");
  if (!ts_node_is_null(target) && !ts_node_is_null(value))
    scope__info(self, scope__key(target))->value = scope__key(value);
  target = scope__capture(query, match, "annotate.target");
  value = scope__capture(query, match, "annotate.type");
  if (!ts_node_is_null(target) && !ts_node_is_null(value))
    scope__info(self, scope__key(target))->type = scope__key(value);
  value = scope__capture(query, match, "annotate.elements");
  if (!ts_node_is_null(target) && !ts_node_is_null(value))
    scope__info(self, scope__key(target))->elements = scope__key(value);
  TSNode narrowed = scope__capture(query, match, "narrow.name");
  TSNode narrow_type = scope__capture(query, match, "narrow.type");
  TSNode narrow_block = scope__capture(query, match, "narrow.scope");
  if (!ts_node_is_null(narrowed) && !ts_node_is_null(narrow_type) &&
      !ts_node_is_null(narrow_block)) {
    array_push(&self->narrowings, ts_node_start_byte(narrow_block));
    array_push(&self->narrowings, ts_node_end_byte(narrow_block));
    array_push(&self->narrowings, scope__key(narrowed));
    array_push(&self->narrowings, scope__key(narrow_type));
  }
  target = scope__capture(query, match, "iterate.target");
  value = scope__capture(query, match, "iterate.source");
  if (!ts_node_is_null(target) && !ts_node_is_null(value))
    scope__info(self, scope__key(target))->iterates = scope__key(value);
  scope__import(self, query, match);
}

/* A namespace capture whose prefix is not interned yet (scope__query). */
#define SCOPE_PREFIX_PENDING (REF_NONE - 1)

/* Per capture id of query: the role its name gives (0: none) and whether
 * it is a namespace capture (prefix SCOPE_PREFIX_PENDING, else REF_NONE),
 * so that a match's captures are not compared by name one by one. */
static void scope__capture_table(const TSQuery *query, uint64_t *roles, uint32_t *prefixes,
                                 uint32_t count) {
  size_t ns = strlen(SCOPE_NAMESPACE_CAPTURE);
  for (uint32_t id = 0; id < count; id++) {
    uint32_t len;
    const char *name = ts_query_capture_name_for_id(query, id, &len);
    roles[id] = 0;
    for (size_t k = 0; k < SCOPE_ROLE_COUNT && !roles[id]; k++)
      if (strlen(scope__roles[k].capture) == len && memcmp(scope__roles[k].capture, name, len) == 0)
        roles[id] = scope__roles[k].role;
    prefixes[id] = len > ns && memcmp(name, SCOPE_NAMESPACE_CAPTURE, ns) == 0 ? SCOPE_PREFIX_PENDING
                                                                             : REF_NONE;
  }
}

static int scope__query(ScopeBuild *self, TSNode root, EddiError *err) {
  const TSQuery *query = self->file->lang->locals;
  uint32_t captures = ts_query_capture_count(query);
  uint64_t *roles = eddi_malloc((captures ? captures : 1) * sizeof *roles);
  uint32_t *prefixes = eddi_malloc((captures ? captures : 1) * sizeof *prefixes);
  scope__capture_table(query, roles, prefixes, captures);
  size_t ns = strlen(SCOPE_NAMESPACE_CAPTURE);
  TSQueryCursor *cursor = ts_query_cursor_new();
  ts_query_cursor_exec(cursor, query, root);
  TSQueryMatch match;
  while (ts_query_cursor_next_match(cursor, &match)) {
    if (!eddi_syntax_predicates_hold(query, &match, scope__slice, self->text)) continue;
    for (uint16_t i = 0; i < match.capture_count; i++) {
      uint32_t id = match.captures[i].index;
      if (roles[id]) scope__info(self, scope__key(match.captures[i].node))->roles |= roles[id];
      if (prefixes[id] == REF_NONE) continue;
      if (prefixes[id] == SCOPE_PREFIX_PENDING) {
        uint32_t len;
        const char *name = ts_query_capture_name_for_id(query, id, &len);
        StrBuf prefix = {0};
        eddi_strbuf_printf(&prefix, "%.*s ", (int)(len - ns), name + ns);
        prefixes[id] = ref_names_intern(self->names, prefix.data, prefix.len);
        eddi_strbuf_free(&prefix);
      }
      scope__info(self, scope__key(match.captures[i].node))->prefix = prefixes[id];
    }
    scope__link(self, query, &match);
  }
  eddi_free(roles);
  eddi_free(prefixes);
  bool exceeded = ts_query_cursor_did_exceed_match_limit(cursor);
  ts_query_cursor_delete(cursor);
  /* A partial analysis could rename some references and miss others. */
  if (exceeded)
    return eddi_error_set(err, EDDI_ETOOBIG, "%s is too complex to analyse", self->file->path);
  return 0;
}

/* ---------------------------------------------------------------- pass 2: the walk */

static uint32_t scope__add_expr(ScopeBuild *self, RefExprKind kind, uint64_t ref_node) {
  RefExpr expr = {kind, REF_NONE};
  array_push(&self->file->exprs, expr);
  array_push(&self->expr_refs, ref_node);
  return (uint32_t)self->file->exprs.len - 1;
}

/* An occurrence to record: the name at [start, end) and what the walk
 * knows of it. */
typedef struct {
  uint32_t start, end;
  uint32_t prefix; /* its namespace's name, or REF_NONE */
  RefOccKind kind;
  unsigned flags;
  uint32_t scope;
  uint64_t roles; /* its node's capture roles (ROLE_*) */
  uint64_t link;  /* the node key it links to (scope__link), or 0 */
  uint64_t node;  /* its node's key, or 0 for a word of opaque text */
} ScopeSpan;

static uint32_t scope__add_span(ScopeBuild *self, const ScopeSpan *span) {
  const char *at = self->text + span->start;
  uint32_t len = span->end - span->start;
  uint32_t name = span->prefix == REF_NONE
                      ? ref_names_intern(self->names, at, len)
                      : ref_names_intern_after(self->names, span->prefix, at, len);
  RefOcc occ = {
      .start = span->start,
      .end = span->end,
      .name = name,
      .kind = span->kind,
      .flags = span->flags,
      .scope = span->scope,
      .sym = REF_NONE,
      .expr = REF_NONE,
      .import = REF_NONE,
      .value = REF_NONE,
      .type = REF_NONE,
      .elements = REF_NONE,
      .narrow = REF_NONE,
      .next_def = REF_NONE,
  };
  array_push(&self->file->occs, occ);
  array_push(&self->occ_roles, span->roles);
  array_push(&self->occ_links, span->link);
  array_push(&self->occ_nodes, span->node);
  return (uint32_t)self->file->occs.len - 1;
}

static uint32_t scope__add_occ(ScopeBuild *self, TSNode node, RefOccKind kind, unsigned flags,
                               uint32_t scope, uint64_t roles, uint64_t link) {
  const NodeInfo *info = scope__find(self, scope__key(node));
  ScopeSpan span = {.start = ts_node_start_byte(node), .end = ts_node_end_byte(node),
                    .prefix = info ? info->prefix : REF_NONE, .kind = kind, .flags = flags,
                    .scope = scope, .roles = roles, .link = link, .node = scope__key(node)};
  return scope__add_span(self, &span);
}

static bool scope__word_byte(unsigned char c, bool first) {
  return c == '_' || c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (!first && c >= '0' && c <= '9');
}

uint32_t ref_text_word(const char *text, size_t len, uint32_t from, uint32_t to,
                       const char *word) {
  size_t n = strlen(word);
  const char *end = text + EDDI_MIN((size_t)to, len);
  for (const char *p = text + EDDI_MIN((size_t)from, len);
       n && p < end && (p = memmem(p, (size_t)(end - p), word, n)); p++) {
    size_t i = (size_t)(p - text);
    if ((i == 0 || !scope__word_byte((unsigned char)text[i - 1], false)) &&
        (i + n == len || !scope__word_byte((unsigned char)text[i + n], false)))
      return (uint32_t)i;
  }
  return UINT32_MAX;
}

/* Opaque text (@text: a macro's body): every word in it may be a name,
 * which eddi cannot tell, so each is an occurrence of its own, unsure. */
static void scope__text_words(ScopeBuild *self, TSNode node, uint32_t scope) {
  uint32_t end = ts_node_end_byte(node);
  for (uint32_t i = ts_node_start_byte(node); i < end;) {
    if (!scope__word_byte((unsigned char)self->text[i], true)) {
      /* A number's letters (0x1f, 10u) are no word. */
      bool number = self->text[i] >= '0' && self->text[i] <= '9';
      i++;
      while (number && i < end && scope__word_byte((unsigned char)self->text[i], false)) i++;
      continue;
    }
    uint32_t start = i;
    while (i < end && scope__word_byte((unsigned char)self->text[i], false)) i++;
    ScopeSpan word = {.start = start, .end = i, .prefix = REF_NONE, .kind = REF_OCC_STRING,
                      .scope = scope, .roles = ROLE_TEXT};
    scope__add_span(self, &word);
  }
}

/* A forward reference (@forward, or a string in an annotation: "Node",
 * "Optional[Node]", "mod.Node | None"): the type written as text. Each
 * name that starts a dotted chain is a reference where the string
 * stands; a name after a dot is a member of what eddi does not follow,
 * unsure. Text that is more than names, dots, brackets, commas and | is
 * opaque: each word unsure. */
static void scope__forward_words(ScopeBuild *self, TSNode node, uint32_t scope) {
  uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
  for (uint32_t i = start; i < end; i++) {
    unsigned char c = (unsigned char)self->text[i];
    if (!scope__word_byte(c, false) && !strchr(" .[],|", c)) {
      scope__text_words(self, node, scope);
      return;
    }
  }
  bool after_dot = false;
  for (uint32_t i = start; i < end;) {
    unsigned char c = (unsigned char)self->text[i];
    if (!scope__word_byte(c, true)) {
      if (c != ' ') after_dot = c == '.';
      i++;
      while (c >= '0' && c <= '9' && i < end && scope__word_byte((unsigned char)self->text[i], false))
        i++;
      continue;
    }
    uint32_t from = i;
    while (i < end && scope__word_byte((unsigned char)self->text[i], false)) i++;
    ScopeSpan word = {.start = from, .end = i, .prefix = REF_NONE,
                      .kind = after_dot ? REF_OCC_MEMBER : REF_OCC_NAME, .scope = scope,
                      .roles = after_dot ? ROLE_MEMBER_UNKNOWN : ROLE_REFERENCE};
    scope__add_span(self, &word);
    after_dot = false;
  }
}

static RefScopeKind scope__kind(uint64_t roles) {
  if (roles & ROLE_SCOPE_CLASS) return REF_SCOPE_CLASS;
  if (roles & ROLE_SCOPE_FUNCTION) return REF_SCOPE_FUNCTION;
  if (roles & ROLE_SCOPE_LAMBDA) return REF_SCOPE_LAMBDA;
  if (roles & ROLE_SCOPE_COMPREHENSION) return REF_SCOPE_COMPREHENSION;
  return REF_SCOPE_BLOCK;
}

/* The occurrence a node is, by its roles: an import's part before an
 * attribute's name before a definition before a plain reference. */
static void scope__occurrence(ScopeBuild *self, TSNode node, NodeInfo *info, WalkFrame *frame,
                              const WalkFrame *parent) {
  uint64_t roles = info->roles | (frame->internal ? ROLE_LINKAGE_INTERNAL : 0);
  RefFile *file = self->file;
  uint32_t scope = frame->scope;
  uint32_t occ = REF_NONE;
  if (roles & ROLE_SKIP) return;
  if (roles & (ROLE_IMPORT_PART | ROLE_IMPORT_NAME | ROLE_IMPORT_ALIAS)) {
    RefImport *import = &file->imports.items[info->import];
    import->scope = scope;
    bool binds = false;
    RefOccKind kind = REF_OCC_NAME;
    if (roles & ROLE_IMPORT_PART) {
      kind = REF_OCC_MODULE_PART;
      binds = import->kind == REF_IMPORT_MODULE && !import->aliased && info->part == 0;
    } else if (roles & ROLE_IMPORT_NAME) {
      kind = REF_OCC_IMPORT_NAME;
      binds = !import->aliased;
    } else {
      binds = true;
    }
    occ = scope__add_occ(self, node, kind, binds ? REF_OCC_DEF : 0, scope, roles, 0);
    file->occs.items[occ].import = info->import;
    file->occs.items[occ].part = info->part;
  } else if (roles & ROLE_DEF_EXPORT) {
    occ = scope__add_occ(self, node, REF_OCC_NAME, REF_OCC_DEF | REF_OCC_EXPORTED, scope, roles,
                         0);
  } else if (roles & ROLE_EXPORT) {
    occ = scope__add_occ(self, node, REF_OCC_EXPORT, 0, scope, roles, 0);
  } else if (roles & ROLE_MEMBER_NAME) {
    occ = scope__add_occ(self, node, REF_OCC_MEMBER,
                         parent->assigned || parent->written ? REF_OCC_WRITE : 0, scope, roles,
                         info->object);
  } else if (roles & ROLE_KEYWORD) {
    occ = scope__add_occ(self, node, REF_OCC_KEYWORD, 0, scope, roles, info->callee);
  } else if (roles & ROLE_MEMBER_UNKNOWN) {
    occ = scope__add_occ(self, node, REF_OCC_MEMBER, 0, scope, roles, 0);
  } else if ((roles & ROLE_FORWARD) || ((roles & ROLE_STRING) && frame->annotation && !frame->values)) {
    scope__forward_words(self, node, scope);
  } else if (roles & ROLE_STRING) {
    occ = scope__add_occ(self, node, REF_OCC_STRING, 0, scope, roles, 0);
  } else if (roles & (ROLE_DECL_GLOBAL | ROLE_DECL_NONLOCAL)) {
    occ = scope__add_occ(self, node, REF_OCC_NAME, 0, scope, roles, 0);
    ref_map_put(&file->declarations, ref_key(scope, file->occs.items[occ].name),
                roles & ROLE_DECL_GLOBAL ? REF_DECL_GLOBAL : REF_DECL_NONLOCAL);
  } else if (roles & ROLE_DEF_HERE) {
    occ = scope__add_occ(self, node, REF_OCC_NAME, REF_OCC_DEF, scope, roles, 0);
  } else if (roles & ROLE_REFERENCE) {
    unsigned flags = frame->assigned ? REF_OCC_DEF : frame->written ? REF_OCC_WRITE : 0;
    occ = scope__add_occ(self, node, REF_OCC_NAME, flags, scope,
                         roles | (frame->assigned && frame->hoisted ? ROLE_DEF_HOISTED : 0), 0);
  }
  if (occ == REF_NONE) return;
  if ((roles & ROLE_KEYED) && file->occs.items[occ].kind == REF_OCC_NAME)
    file->occs.items[occ].flags |= REF_OCC_KEYED;
  info->occ = occ;
  RefOccKind kind = file->occs.items[occ].kind;
  if (kind == REF_OCC_NAME || kind == REF_OCC_MEMBER)
    if (info->expr == REF_NONE) info->expr = scope__add_expr(self, REF_EXPR_OCC, 0);
  if (info->expr != REF_NONE && self->file->exprs.items[info->expr].kind == REF_EXPR_OCC &&
      !(info->roles & ROLE_MEMBER))
    self->file->exprs.items[info->expr].ref = occ;
}

/* An ERROR or MISSING node, with the nodes its recovery may have torn: the
 * one it stands in, or at the top of the file (where that is the whole
 * file) the top-level nodes on either side. */
static void scope__syntax_error(ScopeBuild *self, TSNode node, uint32_t scope) {
  RefSyntaxError error = {ts_node_start_byte(node), ts_node_end_byte(node), 0, 0, scope, false};
  if (ts_node_is_missing(node))
    error.blocks = strchr("{}", ts_node_type(node)[0]) && ts_node_type(node)[0];
  for (uint32_t i = error.start; i < error.end && !error.blocks; i++)
    error.blocks = self->text[i] == '{' || self->text[i] == '}';
  TSNode up = ts_node_parent(node);
  if (!ts_node_is_null(up) && !ts_node_is_null(ts_node_parent(up))) {
    error.near_start = ts_node_start_byte(up), error.near_end = ts_node_end_byte(up);
  } else {
    TSNode before = ts_node_prev_named_sibling(node), after = ts_node_next_named_sibling(node);
    error.near_start = ts_node_is_null(before) ? error.start : ts_node_start_byte(before);
    error.near_end = ts_node_is_null(after) ? error.end : ts_node_end_byte(after);
  }
  array_push(&self->file->syntax_errors, error);
}

static void scope__visit(ScopeBuild *self, TSNode node, const WalkFrame *parent, WalkFrame *frame) {
  *frame = *parent;
  frame->assigned = frame->pattern_open = frame->hoisted = frame->written = false;
  frame->internal = parent->internal;
  /* A token the parser supplied inside @syntax.tolerated (the #endif of
   * C's extern "C" guard, which splits braces across #ifdefs) leaves the
   * tree around it whole; an ERROR node never does. */
  bool missing = ts_node_is_missing(node) && !parent->tolerant;
  if (missing || strcmp(ts_node_type(node), "ERROR") == 0) {
    if (!self->file->errors++) self->file->first_error = ts_node_start_byte(node);
    scope__syntax_error(self, node, parent->scope);
  }
  if (!ts_node_is_named(node)) return;
  uint32_t at = ref_map_get(&self->nodes, scope__key(node));
  if (at == REF_NONE) return;
  NodeInfo *info = &self->infos.items[at];
  RefFile *file = self->file;
  if ((info->roles & ROLE_SCOPE_OUTER) && file->scopes.items[frame->scope].parent != REF_NONE)
    frame->scope = file->scopes.items[frame->scope].parent;
  if (info->roles & ROLE_RETURN) {
    array_push(&self->returns, frame->scope);
    array_push(&self->returns, scope__key(node));
  }
  if (info->roles & ROLE_YIELD) array_push(&self->yields, frame->scope);
  /* A function's body block (@scope.body) is the function's scope itself. */
  if ((info->roles & ROLE_SCOPES) && !(info->roles & ROLE_SCOPE_BODY)) {
    RefScope scope = {scope__kind(info->roles), frame->scope, ts_node_start_byte(node),
                      ts_node_end_byte(node), REF_NONE};
    array_push(&file->scopes, scope);
    array_push(&self->scope_defs, info->def);
    frame->scope = (uint32_t)file->scopes.len - 1;
  }
  /* A default inside a pattern (@pattern.default) is read, not bound. */
  frame->assigned = (info->roles & (ROLE_DEF_TARGET | ROLE_DEF_HOISTED)) ||
                    (parent->pattern_open && !(info->roles & ROLE_PATTERN_DEFAULT));
  frame->written = !frame->assigned && ((info->roles & ROLE_WRITE) ||
                                         (parent->pattern_open && parent->written &&
                                          !(info->roles & ROLE_PATTERN_DEFAULT)));
  frame->pattern_open = (frame->assigned || frame->written) && (info->roles & ROLE_PATTERN);
  frame->hoisted = frame->assigned && ((info->roles & ROLE_DEF_HOISTED) || parent->hoisted);
  frame->internal = parent->internal || (info->roles & ROLE_LINKAGE_INTERNAL);
  frame->tolerant = parent->tolerant || (info->roles & ROLE_SYNTAX_TOLERATED);
  frame->annotation = parent->annotation || (info->roles & ROLE_ANNOTATION);
  frame->values = parent->values || (info->roles & ROLE_ANNOTATION_VALUES);
  if (info->roles & ROLE_TEXT) scope__text_words(self, node, frame->scope);
  if (info->roles & ROLE_EXPORT_DEFAULT) self->default_export = scope__key(node);
  if (info->roles & ROLE_SELF) {
    info->expr = scope__add_expr(self, REF_EXPR_SELF, 0);
    file->exprs.items[info->expr].ref = frame->scope;
  } else if (info->roles & ROLE_SUPER) {
    info->expr = scope__add_expr(self, REF_EXPR_SUPER, 0);
    file->exprs.items[info->expr].ref = frame->scope;
  } else if (info->roles & ROLE_CALL) {
    info->expr = scope__add_expr(self, REF_EXPR_CALL, info->callee);
  } else if (info->roles & ROLE_MEMBER)
    info->expr = scope__add_expr(self, REF_EXPR_OCC, info->name);
  else if (info->roles & ROLE_LITERAL) info->expr = scope__add_expr(self, REF_EXPR_LITERAL, 0);
  else if (info->roles & ROLE_NOTHING) info->expr = scope__add_expr(self, REF_EXPR_NOTHING, 0);
  if (info->roles & ROLE_IMPORT_STAR) file->imports.items[info->import].scope = frame->scope;
  scope__occurrence(self, node, info, frame, parent);
}

/* Depth-first in text order with a cursor (no recursion: a deep tree
 * cannot exhaust the stack). */
static void scope__walk(ScopeBuild *self, TSNode root) {
  Array(WalkFrame) frames = {0};
  WalkFrame top = {.scope = 0};
  array_push(&frames, top);
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  size_t depth = 0;
  for (;;) {
    bool moved = ts_tree_cursor_goto_first_child(&cursor);
    if (moved) {
      depth++;
    } else {
      while (!(moved = ts_tree_cursor_goto_next_sibling(&cursor))) {
        if (!ts_tree_cursor_goto_parent(&cursor)) break;
        depth--;
      }
      if (!moved) break;
    }
    array_reserve(&frames, depth + 1);
    frames.len = depth + 1;
    WalkFrame parent = frames.items[depth - 1];
    scope__visit(self, ts_tree_cursor_current_node(&cursor), &parent, &frames.items[depth]);
  }
  ts_tree_cursor_delete(&cursor);
  array_free(&frames);
}

/* ---------------------------------------------------------------- pass 3: symbols */

static uint32_t scope__expr_of(const ScopeBuild *self, uint64_t key) {
  const NodeInfo *info = scope__find(self, key);
  return info ? info->expr : REF_NONE;
}

static uint32_t scope__occ_of(const ScopeBuild *self, uint64_t key) {
  const NodeInfo *info = scope__find(self, key);
  return info ? info->occ : REF_NONE;
}

static RefSymKind scope__sym_kind(const RefOcc *occ, uint64_t roles) {
  if (occ->import != REF_NONE) return REF_SYM_IMPORT;
  if (roles & ROLE_DEF_FUNCTION) return REF_SYM_FUNCTION;
  if (roles & ROLE_DEF_CLASS) return REF_SYM_CLASS;
  if (roles & ROLE_DEF_PARAMETER) return REF_SYM_PARAMETER;
  return REF_SYM_VARIABLE;
}

static uint32_t scope__add_sym(RefFile *file, uint32_t name, RefSymKind kind, uint32_t scope,
                               uint32_t start) {
  RefSym sym = {.name = name,
                .kind = kind,
                .scope = scope,
                .own_scope = REF_NONE,
                .start = start,
                .first_def = REF_NONE,
                .klass = REF_NONE};
  array_push(&file->syms, sym);
  return (uint32_t)file->syms.len - 1;
}

/* Append occurrence occ to sym's definitions (tails: the last of each). */
static void scope__chain(RefFile *file, RefIds *tails, uint32_t sym, uint32_t occ) {
  while (tails->len < file->syms.len) array_push(tails, REF_NONE);
  RefOcc *o = &file->occs.items[occ];
  o->flags |= REF_OCC_DEF;
  o->sym = sym;
  if (tails->items[sym] == REF_NONE) file->syms.items[sym].first_def = occ;
  else file->occs.items[tails->items[sym]].next_def = occ;
  tails->items[sym] = occ;
}

/* The scope a definition binds in: global and hoisting move it. Returns
 * REF_NONE for a name declared nonlocal (its binding is outside). */
static uint32_t scope__binding_scope(const RefFile *file, const RefOcc *occ, uint64_t roles) {
  uint32_t decl = ref_map_get(&file->declarations, ref_key(occ->scope, occ->name));
  if (decl == REF_DECL_NONLOCAL) return REF_NONE;
  if (decl == REF_DECL_GLOBAL || (roles & ROLE_DEF_EXPORT)) return 0;
  uint32_t scope = occ->scope;
  if (roles & ROLE_DEF_HOISTED)
    while (file->scopes.items[scope].parent != REF_NONE &&
           (file->scopes.items[scope].kind == REF_SCOPE_COMPREHENSION ||
            file->scopes.items[scope].kind == REF_SCOPE_BLOCK))
      scope = file->scopes.items[scope].parent;
  return scope;
}

static void scope__symbols(ScopeBuild *self, RefIds *tails) {
  RefFile *file = self->file;
  for (uint32_t i = 0; i < file->occs.len; i++) {
    RefOcc *occ = &file->occs.items[i];
    if (!(occ->flags & REF_OCC_DEF)) continue;
    uint64_t roles = self->occ_roles.items[i];
    uint32_t scope = scope__binding_scope(file, occ, roles);
    if (scope == REF_NONE) {
      occ->flags = (occ->flags & ~(unsigned)REF_OCC_DEF) | REF_OCC_WRITE;
      continue;
    }
    RefSymKind kind = scope__sym_kind(occ, roles);
    uint32_t sym = ref_file_bound(file, scope, occ->name);
    if (sym == REF_NONE) {
      sym = scope__add_sym(file, occ->name, kind, scope, occ->start);
      ref_map_put(&file->bindings, ref_key(scope, occ->name), sym);
    } else if (file->syms.items[sym].kind != kind) {
      file->syms.items[sym].flags |= REF_SYM_MIXED;
    }
    if (roles & ROLE_ASYNC) file->syms.items[sym].flags |= REF_SYM_GENERATOR;
    if (roles & ROLE_DECORATED) file->syms.items[sym].flags |= REF_SYM_DECORATED;
    if (roles & ROLE_DEF_MACRO) file->syms.items[sym].flags |= REF_SYM_MACRO;
    if (roles & ROLE_LINKAGE_INTERNAL) file->syms.items[sym].flags |= REF_SYM_INTERNAL;
    if ((roles & (ROLE_DEF_SELF | ROLE_DEF_PLAIN)) == ROLE_DEF_SELF)
      file->syms.items[sym].flags |= REF_SYM_SELF;
    if ((roles & (ROLE_DEF_CLS | ROLE_DEF_PLAIN)) == ROLE_DEF_CLS) {
      file->syms.items[sym].flags &= ~(unsigned)REF_SYM_SELF;
      file->syms.items[sym].flags |= REF_SYM_CLS;
    }
    scope__chain(file, tails, sym, i);
  }
}

/* Scopes learn their owners, functions and classes their scopes. */
static void scope__owners(ScopeBuild *self) {
  RefFile *file = self->file;
  for (uint32_t s = 1; s < file->scopes.len; s++) {
    uint32_t occ = scope__occ_of(self, self->scope_defs.items[s]);
    if (occ == REF_NONE || file->occs.items[occ].sym == REF_NONE) continue;
    uint32_t sym = file->occs.items[occ].sym;
    file->scopes.items[s].owner = sym;
    RefSym *owner = &file->syms.items[sym];
    if (owner->own_scope == REF_NONE) owner->own_scope = s;
    else owner->flags |= REF_SYM_MIXED; /* defined twice: which body is unknown */
  }
}

/* Import symbols that only imports define, each under its own name, stand
 * for what they import. */
static void scope__imports(RefFile *file) {
  for (uint32_t s = 0; s < file->syms.len; s++) {
    RefSym *sym = &file->syms.items[s];
    if (sym->kind != REF_SYM_IMPORT || (sym->flags & REF_SYM_MIXED)) continue;
    bool transparent = true;
    for (uint32_t d = sym->first_def; d != REF_NONE; d = file->occs.items[d].next_def) {
      const RefOcc *occ = &file->occs.items[d];
      if (occ->import == REF_NONE || file->imports.items[occ->import].aliased) transparent = false;
      if (occ->import != REF_NONE) file->imports.items[occ->import].sym = s;
    }
    if (transparent) sym->flags |= REF_SYM_TRANSPARENT;
  }
  for (uint32_t i = 0; i < file->imports.len; i++) {
    RefImport *import = &file->imports.items[i];
    if (import->kind == REF_IMPORT_STAR) array_push(&file->stars, i);
  }
}

/* self.x = ... in a method defines member x of the method's class, unless
 * the class body binds x itself (then it is that symbol). */
static void scope__members(ScopeBuild *self, RefIds *tails) {
  RefFile *file = self->file;
  for (uint32_t i = 0; i < file->occs.len; i++) {
    RefOcc *occ = &file->occs.items[i];
    if (occ->kind != REF_OCC_MEMBER || !(occ->flags & REF_OCC_WRITE) || occ->expr == REF_NONE)
      continue;
    const RefExpr *receiver = &file->exprs.items[occ->expr];
    uint32_t klass = REF_NONE;
    if (receiver->kind == REF_EXPR_SELF) {
      klass = ref_file_self_class(file, receiver->ref);
    } else {
      if (receiver->kind != REF_EXPR_OCC || receiver->ref == REF_NONE) continue;
      const RefOcc *name = &file->occs.items[receiver->ref];
      if (name->kind != REF_OCC_NAME) continue;
      uint32_t holder = ref_file_lookup(file, name->scope, name->name);
      if (holder == REF_NONE || !(file->syms.items[holder].flags & (REF_SYM_SELF | REF_SYM_CLS)))
        continue;
      klass = ref_file_enclosing_class(file, file->syms.items[holder].scope);
    }
    if (klass == REF_NONE || file->syms.items[klass].own_scope == REF_NONE) continue;
    uint32_t body = file->syms.items[klass].own_scope;
    uint32_t member = ref_file_bound(file, body, occ->name);
    if (member == REF_NONE) member = ref_map_get(&file->members, ref_key(klass, occ->name));
    if (member == REF_NONE) {
      member = scope__add_sym(file, occ->name, REF_SYM_MEMBER, body, occ->start);
      file->syms.items[member].klass = klass;
      ref_map_put(&file->members, ref_key(klass, occ->name), member);
    }
    scope__chain(file, tails, member, i);
  }
}

static void scope__links(ScopeBuild *self) {
  RefFile *file = self->file;
  for (uint32_t e = 0; e < file->exprs.len; e++) {
    RefExpr *expr = &file->exprs.items[e];
    uint64_t node = self->expr_refs.items[e];
    if (!node) continue;
    expr->ref =
        expr->kind == REF_EXPR_CALL ? scope__expr_of(self, node) : scope__occ_of(self, node);
  }
  for (uint32_t i = 0; i < file->occs.len; i++) {
    RefOcc *occ = &file->occs.items[i];
    if (self->occ_links.items[i]) occ->expr = scope__expr_of(self, self->occ_links.items[i]);
    const NodeInfo *info = scope__find(self, self->occ_nodes.items[i]);
    if (!info || !(occ->flags & REF_OCC_DEF) || occ->kind != REF_OCC_NAME) continue;
    if (info->value) occ->value = scope__expr_of(self, info->value);
    if (info->type) occ->type = scope__expr_of(self, info->type);
    if (info->elements) occ->elements = scope__expr_of(self, info->elements);
    uint32_t collection = info->iterates ? scope__expr_of(self, info->iterates) : REF_NONE;
    if (collection != REF_NONE) {
      /* A loop's target holds an element of what it walks. */
      uint32_t element = scope__add_expr(self, REF_EXPR_ELEMENT, 0);
      file->exprs.items[element].ref = collection;
      file->occs.items[i].value = element;
    }
  }
}

/* Members' values: the attribute node (not the name) is the assignment's
 * target, so its links are found through the attribute. */
static void scope__member_values(ScopeBuild *self) {
  RefFile *file = self->file;
  for (uint32_t i = 0; i < self->infos.len; i++) {
    const NodeInfo *info = &self->infos.items[i];
    if (!(info->roles & ROLE_MEMBER) || !(info->value || info->type || info->elements)) continue;
    uint32_t occ = scope__occ_of(self, info->name);
    if (occ == REF_NONE || !(file->occs.items[occ].flags & REF_OCC_DEF)) continue;
    if (info->value) file->occs.items[occ].value = scope__expr_of(self, info->value);
    if (info->type) file->occs.items[occ].type = scope__expr_of(self, info->type);
    if (info->elements) file->occs.items[occ].elements = scope__expr_of(self, info->elements);
  }
}

/* Whether scope lies inside outer through blocks only: a function, a
 * lambda, a generator or a class defined there may run after x changed,
 * so it is not narrowed. */
static bool scope__same_frame(const RefFile *file, uint32_t scope, uint32_t outer) {
  for (uint32_t s = scope; s != REF_NONE; s = file->scopes.items[s].parent) {
    if (s == outer) return true;
    if (file->scopes.items[s].kind != REF_SCOPE_BLOCK) return false;
  }
  return false;
}

/* Narrowings: inside the block of `if isinstance(x, T)` a reference to x
 * holds a T, unless x is assigned anywhere in the block (flow is not
 * followed, so one assignment anywhere cancels the block's narrowing), and
 * not inside a function defined there. */
static void scope__narrowings(ScopeBuild *self) {
  RefFile *file = self->file;
  for (size_t i = 0; i + 3 < self->narrowings.len; i += 4) {
    uint64_t start = self->narrowings.items[i], end = self->narrowings.items[i + 1];
    uint32_t name_occ = scope__occ_of(self, self->narrowings.items[i + 2]);
    uint32_t type = scope__expr_of(self, self->narrowings.items[i + 3]);
    if (name_occ == REF_NONE || type == REF_NONE) continue;
    uint32_t name = file->occs.items[name_occ].name;
    bool assigned = false;
    for (uint32_t o = 0; o < file->occs.len && !assigned; o++) {
      const RefOcc *occ = &file->occs.items[o];
      assigned = occ->name == name && occ->start >= start && occ->end <= end &&
                 (occ->flags & (REF_OCC_DEF | REF_OCC_WRITE));
    }
    uint32_t outer = file->occs.items[name_occ].scope;
    for (uint32_t o = 0; o < file->occs.len && !assigned; o++) {
      RefOcc *occ = &file->occs.items[o];
      if (occ->name == name && occ->kind == REF_OCC_NAME && occ->start >= start &&
          occ->end <= end && scope__same_frame(file, occ->scope, outer))
        occ->narrow = type;
    }
  }
}

/* What return statements give, by scope; the functions that yield. */
static void scope__returns(ScopeBuild *self) {
  RefFile *file = self->file;
  for (size_t i = 0; i + 1 < self->returns.len; i += 2) {
    array_push(&file->returns, (uint32_t)self->returns.items[i]);
    array_push(&file->returns, scope__expr_of(self, self->returns.items[i + 1]));
  }
  for (size_t i = 0; i < self->yields.len; i++) {
    uint32_t s = self->yields.items[i];
    while (s != REF_NONE && file->scopes.items[s].kind != REF_SCOPE_FUNCTION &&
           file->scopes.items[s].kind != REF_SCOPE_LAMBDA)
      s = file->scopes.items[s].parent;
    if (s != REF_NONE && file->scopes.items[s].owner != REF_NONE)
      file->syms.items[file->scopes.items[s].owner].flags |= REF_SYM_GENERATOR;
  }
}

/* Computed-name lookups whose name is not a literal (a literal string is an
 * occurrence of its own). */
static void scope__dynamics(ScopeBuild *self) {
  RefFile *file = self->file;
  for (size_t i = 0; i + 2 < self->dynamics.len; i += 3) {
    const NodeInfo *name = scope__find(self, self->dynamics.items[i + 1]);
    uint32_t expr = scope__expr_of(self, self->dynamics.items[i]);
    if ((name && (name->roles & ROLE_LITERAL)) || expr == REF_NONE) continue;
    array_push(&file->dynamics, expr);
    array_push(&file->dynamics, (uint32_t)self->dynamics.items[i + 2]);
  }
  for (size_t i = 0; i + 1 < self->reflections.len; i += 2) {
    uint32_t expr = scope__expr_of(self, self->reflections.items[i]);
    if (expr == REF_NONE) continue;
    array_push(&file->reflections, expr);
    array_push(&file->reflections, (uint32_t)self->reflections.items[i + 1]);
  }
}

/* What a default import of the file gets: the expression of
 * @export.default, one of unknown value when the node is no expression. */
static void scope__default_export(ScopeBuild *self) {
  RefFile *file = self->file;
  if (!self->default_export) return;
  file->default_export = scope__expr_of(self, self->default_export);
  if (file->default_export == REF_NONE) {
    RefExpr unknown = {REF_EXPR_OCC, REF_NONE};
    array_push(&file->exprs, unknown);
    file->default_export = (uint32_t)file->exprs.len - 1;
  }
}

static int scope__by_class(const void *a, const void *b) {
  const uint32_t *x = a, *y = b;
  if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
  return x[1] < y[1] ? -1 : x[1] > y[1];
}

static void scope__bases(ScopeBuild *self) {
  RefFile *file = self->file;
  Array(uint32_t) pairs = {0}; /* class symbol, base expression */
  for (size_t i = 0; i + 1 < self->base_pairs.len; i += 2) {
    uint32_t occ = scope__occ_of(self, self->base_pairs.items[i]);
    uint32_t expr = scope__expr_of(self, self->base_pairs.items[i + 1]);
    if (occ == REF_NONE || file->occs.items[occ].sym == REF_NONE) continue;
    array_push(&pairs, file->occs.items[occ].sym);
    array_push(&pairs, expr);
  }
  if (pairs.len) qsort(pairs.items, pairs.len / 2, 2 * sizeof *pairs.items, scope__by_class);
  for (size_t i = 0; i + 1 < pairs.len; i += 2) {
    RefSym *klass = &file->syms.items[pairs.items[i]];
    if (!klass->bases_count) klass->bases_first = (uint32_t)file->bases.len;
    array_push(&file->bases, pairs.items[i + 1]);
    klass->bases_count++;
  }
  array_free(&pairs);
}

/* ---------------------------------------------------------------- the file */

int ref_file_analyze(const char *path, const EddiLang *lang, const char *text, size_t len,
                     RefNames *names, RefFile **out, EddiError *err) {
  RefFileText source = {.path = path, .lang = lang, .text = text, .len = len};
  return ref_file_analyze_tree(&source, names, out, NULL, err);
}

int ref_file_analyze_tree(const RefFileText *source, RefNames *names, RefFile **out,
                          TSTree **kept, EddiError *err) {
  const char *path = source->path, *text = source->text;
  const EddiLang *lang = source->lang;
  size_t len = source->len;
  *out = NULL;
  if (kept) *kept = NULL;
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, lang->ts);
  TSTree *tree = ts_parser_parse_string(parser, source->base, text, (uint32_t)len);
  ts_parser_delete(parser);
  if (!tree) return eddi_error_set(err, EDDI_EIO, "The parser gave up on %s", path);
  RefFile *file = eddi_calloc(1, sizeof *file);
  file->path = eddi_strdup(path);
  file->lang = lang;
  file->default_export = REF_NONE;
  ScopeBuild build = {.file = file, .names = names, .text = text, .len = len};
  TSNode root = ts_tree_root_node(tree);
  RefScope module = {REF_SCOPE_MODULE, REF_NONE, 0, (uint32_t)len, 0};
  array_push(&file->scopes, module);
  array_push(&build.scope_defs, 0);
  /* Symbol 0 is the module: its body is scope 0. */
  scope__add_sym(file, ref_names_intern(names, "", 0), REF_SYM_MODULE, REF_NONE, 0);
  file->syms.items[0].own_scope = 0;
  int rc = scope__query(&build, root, err);
  if (rc == 0) {
    scope__walk(&build, root);
    RefIds tails = {0};
    scope__symbols(&build, &tails);
    scope__owners(&build);
    scope__links(&build);
    scope__imports(file);
    scope__members(&build, &tails);
    scope__member_values(&build);
    scope__bases(&build);
    scope__dynamics(&build);
    scope__returns(&build);
    scope__narrowings(&build);
    scope__default_export(&build);
    array_free(&tails);
  }
  if (kept && rc == 0) *kept = tree;
  else ts_tree_delete(tree);
  ref_map_free(&build.nodes);
  array_free(&build.infos);
  array_free(&build.expr_refs);
  array_free(&build.occ_roles);
  array_free(&build.occ_links);
  array_free(&build.occ_nodes);
  array_free(&build.scope_defs);
  array_free(&build.base_pairs);
  array_free(&build.dynamics);
  array_free(&build.reflections);
  array_free(&build.returns);
  array_free(&build.narrowings);
  array_free(&build.yields);
  if (rc < 0) {
    ref_file_free(file);
    return rc;
  }
  *out = file;
  return 0;
}

void ref_file_free(RefFile *self) {
  if (!self) return;
  eddi_free(self->path);
  array_free(&self->scopes);
  array_free(&self->syms);
  array_free(&self->occs);
  array_free(&self->exprs);
  array_free(&self->imports);
  array_free(&self->parts);
  array_free(&self->bases);
  array_free(&self->stars);
  array_free(&self->dynamics);
  array_free(&self->reflections);
  array_free(&self->returns);
  array_free(&self->syntax_errors);
  ref_map_free(&self->bindings);
  ref_map_free(&self->declarations);
  ref_map_free(&self->members);
  eddi_free(self);
}

/* ---------------------------------------------------------------- lookups */

uint32_t ref_file_lookup(const RefFile *self, uint32_t scope, uint32_t name) {
  bool first = true;
  for (uint32_t s = scope; s != REF_NONE; s = self->scopes.items[s].parent, first = false) {
    uint32_t decl = ref_map_get(&self->declarations, ref_key(s, name));
    if (decl == REF_DECL_GLOBAL) return ref_file_bound(self, 0, name);
    if (decl == REF_DECL_NONLOCAL) continue;
    if (!first && self->scopes.items[s].kind == REF_SCOPE_CLASS) continue;
    uint32_t sym = ref_file_bound(self, s, name);
    if (sym != REF_NONE) return sym;
  }
  return REF_NONE;
}

uint32_t ref_file_self_class(const RefFile *self, uint32_t scope) {
  while (scope != REF_NONE && (self->scopes.items[scope].kind == REF_SCOPE_BLOCK ||
                               self->scopes.items[scope].kind == REF_SCOPE_LAMBDA))
    scope = self->scopes.items[scope].parent;
  return ref_file_enclosing_class(self, scope);
}

uint32_t ref_file_enclosing_class(const RefFile *self, uint32_t scope) {
  if (scope == REF_NONE || self->scopes.items[scope].kind != REF_SCOPE_FUNCTION) return REF_NONE;
  uint32_t parent = self->scopes.items[scope].parent;
  if (parent == REF_NONE || self->scopes.items[parent].kind != REF_SCOPE_CLASS) return REF_NONE;
  return self->scopes.items[parent].owner;
}
