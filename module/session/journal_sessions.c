/* journal_sessions.c - sessions kept in the journal as commands run, and
 * given back on start.
 *
 * After each command (eddi_engine_end_groups) the sender's session is
 * compared with a small mirror of what the journal holds, and only the
 * difference is written, as one record of the redo log (journal_log.c;
 * one SQLite transaction when the applier runs it): a moved cursor is one
 * UPDATE, a typed line one INSERT of its edit. An open file's unsaved work
 * is kept as the undo groups made since it was read or saved (each edit:
 * offset, bytes removed, bytes inserted), with the hash of the disk bytes
 * they apply to and the decoded text of that disk version (the base, for a
 * rebase when the file changed on disk meanwhile). When the groups cannot
 * be appended to (an Undo, a Reload, a group dropped past the undo limit)
 * the file's record is rewritten as one edit from the base to the text.
 *
 * On start, the sessions of processes that died are taken, their files
 * opened again, and the edits re-applied when the disk still holds the
 * base; otherwise the edits are merged onto the new disk text (three-way,
 * core/merge.h) and, when they overlap a change on disk, the unsaved text
 * is kept in the state folder and the Start reply says where: never
 * dropped in silence.
 *
 * Changesets (scripts' named changes, script/script_state.h) are rows of
 * their own keyed by session (schema 2): a changeset is rewritten whole
 * when it is new, replaced or changes status (apply, rollback), which is
 * rare next to typing, so the mirror keeps only its identity and status.
 *
 * The multi-file Undo and Redo steps (edit/txn_history.h) are rows of
 * their own too (schema 4), one per file of a step, keyed by the step's
 * serial: a serial names one version of a step, so its rows are written
 * once and deleted when the history no longer has it. The mirror keeps
 * the serials written and the history's newest serial, so that a command
 * that left the history alone (a typed line) costs one comparison.
 */
#include <sqlite3.h>
#include <sys/stat.h>
#include <time.h>
#include <xxhash.h>

#include "core/merge.h"
#include "core/path.h"
#include "edit/edit_state.h"
#include "edit/txn_history.h"
#include "script/changeset.h"
#include "script/script_state.h"
#include "session/engine.h"
#include "session/journal.h"

/* Largest base text stored for a rebase; a larger file's edits are only
 * re-applied when the disk has not changed, else reported. */
#define JOURNAL_BASE_MAX ((size_t)8 << 20)

/* ------------------------------------------------------------ the mirror */

typedef struct {
  char *path;
  uint64_t top;       /* id of the newest undo group in the journal */
  int64_t seq;        /* edit rows of this file */
  size_t cursor;
  uint64_t marks_hash;
  size_t undone;      /* undone groups journaled after the others (Redo's) */
  bool outside;       /* its unsaved text holds changes made outside eddi */
  bool present;       /* seen in this sync */
} MirrorDoc;

/* A changeset as the journal holds it: which one (the session's object) in
 * which status. */
typedef struct {
  char *name;
  const EddiChangeset *identity;
  EddiChangesetStatus status;
  bool present; /* seen in this sync */
} MirrorChangeset;

typedef struct {
  char *name;
  char *sender;
  Array(MirrorDoc) docs;
  Array(MirrorChangeset) changesets;
  char *current;
  bool raw_payloads;
  uint64_t registers_hash;
  uint64_t snapshot_clock; /* newest snapshot stamp in the journal */
  size_t snapshots_added;  /* since the last prune */
  /* Another live process journals a session of this name in the same
   * workspace: this one is kept in memory only, the other's rows stay. */
  bool elsewhere;
  uint64_t version; /* the mirror's clock when a sync last wrote its rows */
  /* The txn history's steps in the journal, by serial, and the history's
   * newest serial when they were written. */
  Array(uint64_t) txn_steps;
  uint64_t txn_serial;
} MirrorSession;

struct JournalMirror {
  Array(MirrorSession *) sessions;
  uint64_t clock; /* counts the syncs that wrote */
};

static void mirror__doc_free(MirrorDoc *doc) { eddi_free(doc->path); }

static void mirror__session_free(MirrorSession *session) {
  for (size_t i = 0; i < session->docs.len; i++) mirror__doc_free(&session->docs.items[i]);
  array_free(&session->docs);
  for (size_t i = 0; i < session->changesets.len; i++) eddi_free(session->changesets.items[i].name);
  array_free(&session->changesets);
  array_free(&session->txn_steps);
  eddi_free(session->name);
  eddi_free(session->sender);
  eddi_free(session->current);
  eddi_free(session);
}

void eddi_journal_sessions_free(EddiJournal *self) {
  struct JournalMirror **mirror = eddi_journal_mirror(self);
  if (!*mirror) return;
  for (size_t i = 0; i < (*mirror)->sessions.len; i++)
    mirror__session_free((*mirror)->sessions.items[i]);
  array_free(&(*mirror)->sessions);
  eddi_free(*mirror);
  *mirror = NULL;
}

static struct JournalMirror *mirror__of(EddiJournal *self) {
  struct JournalMirror **mirror = eddi_journal_mirror(self);
  if (!*mirror) *mirror = eddi_calloc(1, sizeof **mirror);
  return *mirror;
}

static MirrorSession *mirror__by(struct JournalMirror *self, const char *name,
                                 const char *sender) {
  for (size_t i = 0; i < self->sessions.len; i++) {
    MirrorSession *session = self->sessions.items[i];
    if (name && strcmp(session->name, name) == 0) return session;
    if (sender && strcmp(session->sender, sender) == 0) return session;
  }
  return NULL;
}

static void mirror__drop(struct JournalMirror *self, MirrorSession *session) {
  for (size_t i = 0; i < self->sessions.len; i++) {
    if (self->sessions.items[i] != session) continue;
    array_remove(&self->sessions, i);
    break;
  }
  mirror__session_free(session);
}

/* ------------------------------------------------------------ statements */

/* One sync's writes to one session's rows: a redo record (journal.h),
 * appended to the journal's log when the sync is done. Statements are
 * string literals; each is followed by its values in parameter order. */
typedef struct {
  EddiJournal *journal;
  const char *session;
  StrBuf record;
  bool claims; /* writes the session's row anew: set before the first statement */
  bool lost;   /* the journal could not take the record */
} JournalWrite;

static void write__statement(JournalWrite *self, const char *sql) {
  if (!self->record.len) eddi_redo_begin(&self->record, self->session, self->claims);
  eddi_redo_sql(&self->record, sql);
}

static void write__text(JournalWrite *self, const char *text) {
  eddi_redo_text(&self->record, text);
}

static void write__int(JournalWrite *self, int64_t value) { eddi_redo_int(&self->record, value); }

static void write__blob(JournalWrite *self, const char *bytes, size_t len) {
  eddi_redo_blob(&self->record, bytes ? bytes : "", len);
}

/* Hand the record to the journal; whether there was anything to write. */
static bool write__finish(JournalWrite *self) {
  bool wrote = self->record.len > 0;
  if (wrote)
    self->lost =
        !eddi_journal_append(self->journal, self->record.data, self->record.len, self->claims);
  eddi_strbuf_free(&self->record);
  return wrote;
}

/* The statements of a sync besides the deletes below. Each is followed by
 * its values in parameter order. */
static const char sql_edit_put[] =
    "INSERT OR REPLACE INTO edits(session, path, seq, grp, start, removed,"
    " inserted) VALUES(?,?,?,?,?,?,?)";
static const char sql_doc_base[] =
    "UPDATE docs SET base_hash=?, base_text=?, is_new=? WHERE session=? AND path=?";
static const char sql_doc_put[] =
    "INSERT OR REPLACE INTO docs(session, path, ord, cursor, base_hash, is_new)"
    " VALUES(?,?,?,?,?,?)";
static const char sql_session_owner_log[] = "UPDATE sessions SET owner_log=? WHERE name=?";
static const char sql_doc_undone[] =
    "UPDATE docs SET undone=?, outside=? WHERE session=? AND path=?";
static const char sql_doc_cursor[] =
    "UPDATE docs SET cursor=?, marks=? WHERE session=? AND path=?";
static const char sql_session_state[] =
    "UPDATE sessions SET current_path=?, raw_payloads=?, registers=?, updated=? WHERE name=?";
static const char sql_snapshot_put[] =
    "INSERT OR REPLACE INTO snapshots(session, stamp, path, tag, text, seen) VALUES(?,?,?,?,?,?)";
static const char sql_snapshots_prune[] =
    "DELETE FROM snapshots WHERE session=? AND stamp<?";
static const char sql_changeset_put[] =
    "INSERT OR REPLACE INTO changesets(session, name, ord, status) VALUES(?,?,?,?)";
static const char sql_changeset_file_put[] =
    "INSERT INTO changeset_files(session, changeset, ord, path, existed,"
    " before_raw, collected_exists, collected_size, collected_hash, before, after,"
    " applied_exists, applied_size, applied_hash)"
    " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
static const char sql_txn_file_put[] =
    "INSERT OR REPLACE INTO txn_files(session, step, redo, ord, path, side_exists, side_text,"
    " side_bom, side_crlf, side_mode, now_exists, now_size, now_hash)"
    " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)";
static const char sql_txn_step_drop[] = "DELETE FROM txn_files WHERE session=? AND step=?";
/* A change's intent, forgotten with the record that holds its step
 * (journal.h, eddi_journal_intent_done). */
static const char sql_intent_files_forget[] = "DELETE FROM intent_files WHERE intent=?";
static const char sql_intent_forget[] = "DELETE FROM intents WHERE id=?";
static const char sql_session_put[] =
    "INSERT INTO sessions(name, sender, description, instance, owner_pid,"
    " owner_host, raw_payloads, updated) VALUES(?,?,?,?,?,?,?,?)";

/* The deletes of a session's rows, by table, of all or of one path. */
static const struct {
  const char *table;
  const char *all;
  const char *of_path;
} write__deletes[] = {
    {"edits", "DELETE FROM edits WHERE session=?", "DELETE FROM edits WHERE session=? AND path=?"},
    {"docs", "DELETE FROM docs WHERE session=?", "DELETE FROM docs WHERE session=? AND path=?"},
    {"snapshots", "DELETE FROM snapshots WHERE session=?", NULL},
    /* of_path: of one changeset, by name */
    {"changesets", "DELETE FROM changesets WHERE session=?",
     "DELETE FROM changesets WHERE session=? AND name=?"},
    {"changeset_files", "DELETE FROM changeset_files WHERE session=?",
     "DELETE FROM changeset_files WHERE session=? AND changeset=?"},
    {"txn_files", "DELETE FROM txn_files WHERE session=?", NULL},
    {"sessions", "DELETE FROM sessions WHERE name=?", NULL},
};

/* Delete session's rows of table (optionally of one path). */
static void write__delete(JournalWrite *self, const char *table, const char *session,
                          const char *path) {
  const char *sql = NULL;
  for (size_t i = 0; i < sizeof write__deletes / sizeof *write__deletes; i++)
    if (strcmp(write__deletes[i].table, table) == 0)
      sql = path ? write__deletes[i].of_path : write__deletes[i].all;
  if (!sql) return;
  write__statement(self, sql);
  write__text(self, session);
  if (path) write__text(self, path);
}

/* Whether sql (len bytes) is one of the statements above: the redo log's
 * applier runs no other (journal_log.c), for a log is a file on disk and
 * its SQL is checked, not trusted. */
bool eddi_journal_statement_known(const char *sql, size_t len) {
  static const char *const statements[] = {
      sql_edit_put,      sql_doc_base,           sql_doc_put,     sql_doc_cursor,
      sql_doc_undone,    sql_session_state,      sql_snapshot_put, sql_snapshots_prune,
      sql_changeset_put, sql_changeset_file_put, sql_session_put, sql_txn_file_put,
      sql_txn_step_drop, sql_session_owner_log, sql_intent_files_forget, sql_intent_forget};
  for (size_t i = 0; i < sizeof statements / sizeof *statements; i++)
    if (strlen(statements[i]) == len && memcmp(statements[i], sql, len) == 0) return true;
  for (size_t i = 0; i < sizeof write__deletes / sizeof *write__deletes; i++) {
    const char *known[] = {write__deletes[i].all, write__deletes[i].of_path};
    for (size_t k = 0; k < 2; k++)
      if (known[k] && strlen(known[k]) == len && memcmp(known[k], sql, len) == 0) return true;
  }
  return false;
}

static void write__forget(JournalWrite *self, const char *name) {
  static const char *const tables[] = {"edits",      "docs",            "snapshots",
                                       "changesets", "changeset_files", "txn_files",
                                       "sessions"};
  for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
    write__delete(self, tables[i], name, NULL);
}

/* ------------------------------------------------------------ blobs */

static void marks__encode(const EddiDoc *doc, StrBuf *out) {
  for (size_t i = 0; i < doc->marks.len; i++) {
    char offset[32];
    int n = snprintf(offset, sizeof offset, "%zu", doc->marks.items[i].offset);
    eddi_journal_blob_put(out, doc->marks.items[i].name, strlen(doc->marks.items[i].name));
    eddi_journal_blob_put(out, offset, (size_t)n);
  }
}

static void registers__encode(const EddiSession *session, StrBuf *out) {
  const EddiEditState *state = eddi_edit_state_find(session);
  if (!state) return;
  const EddiRegisterList *list = &state->registers;
  for (size_t i = 0; i < list->len; i++) {
    eddi_journal_blob_put(out, list->items[i].name, strlen(list->items[i].name));
    eddi_journal_blob_put(out, list->items[i].text, list->items[i].len);
  }
}

/* ------------------------------------------------------------ docs */

static uint64_t doc__top(const EddiDoc *doc) {
  return doc->undo.len ? doc->undo.items[doc->undo.len - 1].id : 0;
}

/* Index of the undo group with id, or -1 (id 0: before the first). */
static long doc__group_index(const EddiDoc *doc, uint64_t id) {
  for (size_t i = doc->undo.len; i-- > 0;)
    if (doc->undo.items[i].id == id) return (long)i;
  return -1;
}

/* The row of edit: number seq of session's record of path, in the undo
 * group group. */
static void write__edit(JournalWrite *self, const char *session, const char *path, int64_t seq,
                        uint64_t group, const DocEdit *edit) {
  write__statement(self, sql_edit_put);
  write__text(self, session);
  write__text(self, path);
  write__int(self, seq);
  write__int(self, (int64_t)group);
  write__int(self, (int64_t)edit->start);
  write__blob(self, edit->removed, edit->removed_len);
  write__blob(self, edit->inserted, edit->inserted_len);
}

/* Append the edits of undo groups [from, undo.len) of doc. */
static void doc__append_group(JournalWrite *self, const char *session, const EddiDoc *doc,
                              const DocEditGroup *group, MirrorDoc *mirror) {
  for (size_t e = 0; e < group->edits.len; e++) {
    const DocEdit *edit = &group->edits.items[e];
    write__edit(self, session, doc->path, mirror->seq++, group->id, edit);
  }
}

static void doc__append_groups(JournalWrite *self, const char *session, const EddiDoc *doc,
                               size_t from, MirrorDoc *mirror) {
  for (size_t g = from; g < doc->undo.len; g++)
    doc__append_group(self, session, doc, &doc->undo.items[g], mirror);
}

/* How many of doc's undone groups (the last undone first) are the
 * document's own: those of a multi-file step are the step's to redo
 * (edit/txn_history.h), and the ones under them too. */
static size_t doc__own_undone(const EddiSession *session, const EddiDoc *doc) {
  size_t own = 0;
  for (size_t g = doc->redo.len; g-- > 0; own++)
    if (eddi_txn_history_holds_group(session, doc, doc->redo.items[g].id)) break;
  return own;
}

/* The groups Undo took back, as Redo would make them again (the last one
 * undone first), after the others; the docs row counts them (undone), and
 * a restore makes them all and undoes that many, so Redo has them again. */
static void doc__append_undone(JournalWrite *self, const char *session, const EddiDoc *doc,
                               size_t count, MirrorDoc *mirror) {
  for (size_t g = doc->redo.len; g-- > doc->redo.len - count;)
    doc__append_group(self, session, doc, &doc->redo.items[g], mirror);
}

/* The doc's base: the stamp hash of the disk bytes its edits apply to. */
static uint64_t doc__base_hash(const EddiDoc *doc) {
  EddiFileStamp stamp = {0};
  if (doc->backend->vtable->stamp) doc->backend->vtable->stamp(doc->backend, &stamp);
  return stamp.exists ? stamp.hash : 0;
}

/* Write doc's record afresh: its base text, and its unsaved work as the
 * groups since the save when they are all there, else as one edit. */
static void doc__rewrite(JournalWrite *self, const char *session, const EddiDoc *doc,
                         size_t undone, MirrorDoc *mirror) {
  write__delete(self, "edits", session, doc->path);
  mirror->seq = 0;
  StrBuf base = {0};
  EddiError ignored;
  eddi_strbuf_puts(&base, "");
  /* A saved file needs no base: there are no edits to rebase. */
  bool modified = eddi_doc_modified(doc);
  if (modified && doc->backend->vtable->saved_text)
    doc->backend->vtable->saved_text(doc->backend, &base, &ignored);
  write__statement(self, sql_doc_base);
  write__int(self, (int64_t)doc__base_hash(doc));
  if (modified && base.len <= JOURNAL_BASE_MAX) write__blob(self, base.data, base.len);
  else write__text(self, NULL);
  write__int(self, doc->is_new);
  write__text(self, session);
  write__text(self, doc->path);
  mirror->top = doc__top(doc);
  long saved = doc->saved_group_id == 0 ? -1 : doc__group_index(doc, doc->saved_group_id);
  bool groups_whole = !doc->is_new && doc->saved_group_id != UINT64_MAX &&
                      (saved >= 0 || (doc->saved_group_id == 0 && doc->undo.len < doc->undo_limit));
  /* Undone groups are kept only after the whole groups since the save. */
  bool with_undone = groups_whole && undone;
  if (groups_whole && (modified || with_undone)) {
    doc__append_groups(self, session, doc, (size_t)(saved + 1), mirror);
    if (with_undone) doc__append_undone(self, session, doc, undone, mirror);
  } else if (modified) {
    /* One edit from the base to the text: the common ends trimmed. */
    size_t len = eddi_text_len(&doc->text);
    char *text = eddi_text_dup(&doc->text, 0, len);
    size_t head = 0, tail = 0;
    while (head < len && head < base.len && text[head] == base.data[head]) head++;
    while (tail < len - head && tail < base.len - head &&
           text[len - 1 - tail] == base.data[base.len - 1 - tail])
      tail++;
    DocEdit whole = {.start = head,
                     .removed = base.data + head,
                     .removed_len = base.len - head - tail,
                     .inserted = text + head,
                     .inserted_len = len - head - tail};
    write__edit(self, session, doc->path, mirror->seq++, mirror->top, &whole);
    eddi_free(text);
  }
  mirror->undone = with_undone ? undone : 0;
  mirror->outside = modified && doc->outside_edits;
  write__statement(self, sql_doc_undone);
  write__int(self, (int64_t)mirror->undone);
  write__int(self, mirror->outside);
  write__text(self, session);
  write__text(self, doc->path);
  eddi_strbuf_free(&base);
}

/* Bring one doc's record up to date; undone: how many of its undone
 * groups are its own (doc__own_undone). */
static void doc__sync(JournalWrite *self, const char *session, const EddiDoc *doc, size_t ord,
                      size_t undone, MirrorSession *ms) {
  MirrorDoc *mirror = NULL;
  for (size_t i = 0; i < ms->docs.len && !mirror; i++)
    if (strcmp(ms->docs.items[i].path, doc->path) == 0) mirror = &ms->docs.items[i];
  StrBuf marks = {0};
  marks__encode(doc, &marks);
  uint64_t marks_hash = XXH3_64bits(marks.data ? marks.data : "", marks.len);
  if (!mirror) {
    MirrorDoc fresh = {.path = eddi_strdup(doc->path), .top = UINT64_MAX, .cursor = SIZE_MAX};
    array_push(&ms->docs, fresh);
    mirror = array_back(&ms->docs);
    write__statement(self, sql_doc_put);
    write__text(self, session);
    write__text(self, doc->path);
    write__int(self, (int64_t)ord);
    write__int(self, (int64_t)doc->cursor);
    write__int(self, (int64_t)doc__base_hash(doc));
    write__int(self, doc->is_new);
    write__delete(self, "edits", session, doc->path);
    mirror->cursor = doc->cursor;
    mirror->top = doc__top(doc);
    if (eddi_doc_modified(doc) || undone) doc__rewrite(self, session, doc, undone, mirror);
  }
  mirror->present = true;

  uint64_t top = doc__top(doc);
  bool undone_same = mirror->undone == undone;
  if (!eddi_doc_modified(doc)) {
    if (mirror->seq > 0 || mirror->top != top || !undone_same || mirror->outside)
      doc__rewrite(self, session, doc, undone, mirror);
  } else if (top != mirror->top || !undone_same || mirror->outside != doc->outside_edits) {
    /* New groups on top of the journaled ones: appended (a typed line). */
    long at = mirror->seq > 0 ? doc__group_index(doc, mirror->top) : -1;
    if (at >= 0 && top > mirror->top && !mirror->undone && !undone &&
        mirror->outside == doc->outside_edits) {
      doc__append_groups(self, session, doc, (size_t)at + 1, mirror);
      mirror->top = top;
    } else {
      doc__rewrite(self, session, doc, undone, mirror);
    }
  }
  if (mirror->cursor != doc->cursor || mirror->marks_hash != marks_hash) {
    write__statement(self, sql_doc_cursor);
    write__int(self, (int64_t)doc->cursor);
    write__blob(self, marks.data, marks.len);
    write__text(self, session);
    write__text(self, doc->path);
    mirror->cursor = doc->cursor;
    mirror->marks_hash = marks_hash;
  }
  eddi_strbuf_free(&marks);
}

/* ------------------------------------------------------------ sessions */

static void session__sync_state(JournalWrite *self, const EddiSession *session,
                                MirrorSession *ms) {
  const char *current = session->current ? session->current->path : NULL;
  bool current_same = (current == NULL) == (ms->current == NULL) &&
                      (!current || strcmp(current, ms->current) == 0);
  StrBuf registers = {0};
  registers__encode(session, &registers);
  uint64_t registers_hash = XXH3_64bits(registers.data ? registers.data : "", registers.len);
  if (!current_same || ms->raw_payloads != session->raw_payloads ||
      ms->registers_hash != registers_hash) {
    write__statement(self, sql_session_state);
    write__text(self, current);
    write__int(self, session->raw_payloads);
    write__blob(self, registers.data, registers.len);
    write__int(self, (int64_t)time(NULL));
    write__text(self, session->name);
    eddi_free(ms->current);
    ms->current = current ? eddi_strdup(current) : NULL;
    ms->raw_payloads = session->raw_payloads;
    ms->registers_hash = registers_hash;
  }
  eddi_strbuf_free(&registers);
}

/* New snapshots since the last sync; old rows pruned now and then. */
static void session__sync_snapshots(JournalWrite *self, const EddiSession *session,
                                    MirrorSession *ms) {
  const EddiEditState *state = eddi_edit_state_find(session);
  if (!state) return;
  uint64_t newest = ms->snapshot_clock, oldest = UINT64_MAX;
  for (size_t i = 0; i < state->snapshots.len; i++) {
    const EddiSnapshot *snapshot = &state->snapshots.items[i];
    oldest = EDDI_MIN(oldest, snapshot->stamp);
    if (snapshot->stamp <= ms->snapshot_clock) continue;
    write__statement(self, sql_snapshot_put);
    write__text(self, session->name);
    write__int(self, (int64_t)snapshot->stamp);
    write__text(self, snapshot->path);
    write__text(self, snapshot->tag);
    write__blob(self, snapshot->text, snapshot->len);
    if (snapshot->seen) write__blob(self, (const char *)snapshot->seen, snapshot->seen_len);
    else write__text(self, NULL);
    newest = EDDI_MAX(newest, snapshot->stamp);
    ms->snapshots_added++;
  }
  ms->snapshot_clock = newest;
  if (ms->snapshots_added > EDDI_SNAPSHOTS_MAX && oldest != UINT64_MAX) {
    /* Snapshots the store let go of are not worth keeping. */
    write__statement(self, sql_snapshots_prune);
    write__text(self, session->name);
    write__int(self, (int64_t)oldest);
    ms->snapshots_added = 0;
  }
}

/* ------------------------------------------------------------ changesets */

static void write__stamp(JournalWrite *self, const EddiFileStamp *stamp) {
  write__int(self, stamp->exists);
  write__int(self, (int64_t)stamp->size);
  write__int(self, (int64_t)stamp->hash);
}

/* Write changeset (the ord-th of the session) whole. */
static void changeset__write(JournalWrite *self, const char *session,
                             const EddiChangeset *changeset, size_t ord) {
  write__delete(self, "changeset_files", session, changeset->name);
  write__statement(self, sql_changeset_put);
  write__text(self, session);
  write__text(self, changeset->name);
  write__int(self, (int64_t)ord);
  write__int(self, (int)changeset->status);
  for (size_t i = 0; i < changeset->files.len; i++) {
    const EddiChangeFile *file = &changeset->files.items[i];
    write__statement(self, sql_changeset_file_put);
    write__text(self, session);
    write__text(self, changeset->name);
    write__int(self, (int64_t)i);
    write__text(self, file->path);
    write__int(self, file->existed);
    write__blob(self, file->before_raw, file->before_raw_len);
    write__stamp(self, &file->collected);
    write__blob(self, file->before, file->before_len);
    write__blob(self, file->after, file->after_len);
    write__stamp(self, &file->applied);
  }
}

/* New, replaced and re-statused changesets written; gone ones deleted. */
static void session__sync_changesets(JournalWrite *self, const EddiSession *session,
                                     MirrorSession *ms) {
  for (size_t i = 0; i < ms->changesets.len; i++) ms->changesets.items[i].present = false;
  const EddiScriptState *script = eddi_script_state_find(session);
  for (size_t i = 0; script && i < script->changesets.len; i++) {
    const EddiChangeset *changeset = script->changesets.items[i];
    MirrorChangeset *mirror = NULL;
    for (size_t j = 0; j < ms->changesets.len && !mirror; j++)
      if (strcmp(ms->changesets.items[j].name, changeset->name) == 0)
        mirror = &ms->changesets.items[j];
    if (!mirror) {
      MirrorChangeset fresh = {.name = eddi_strdup(changeset->name)};
      array_push(&ms->changesets, fresh);
      mirror = array_back(&ms->changesets);
    }
    mirror->present = true;
    if (mirror->identity == changeset && mirror->status == changeset->status) continue;
    changeset__write(self, session->name, changeset, i);
    mirror->identity = changeset;
    mirror->status = changeset->status;
  }
  for (size_t i = ms->changesets.len; i-- > 0;) {
    MirrorChangeset *mirror = &ms->changesets.items[i];
    if (mirror->present) continue;
    write__delete(self, "changeset_files", ms->name, mirror->name);
    write__delete(self, "changesets", ms->name, mirror->name);
    eddi_free(mirror->name);
    array_remove(&ms->changesets, i);
  }
}

/* ------------------------------------------------------------ multi-file undo */

static void txn_step__drop(JournalWrite *self, const char *session, uint64_t serial) {
  write__statement(self, sql_txn_step_drop);
  write__text(self, session);
  write__int(self, (int64_t)serial);
}

/* Write step (on the undo list, or the redo list) whole: rows of its
 * serial left by a journal the mirror did not know (restored past the
 * steps kept) go first. */
static void txn_step__write(JournalWrite *self, const char *session,
                            const EddiTxnHistoryStep *step, bool undo) {
  txn_step__drop(self, session, eddi_txn_history_step_serial(step));
  for (size_t i = 0; i < eddi_txn_history_step_files(step); i++) {
    EddiTxnHistoryFileView file;
    eddi_txn_history_step_file(step, i, &file);
    write__statement(self, sql_txn_file_put);
    write__text(self, session);
    write__int(self, (int64_t)eddi_txn_history_step_serial(step));
    write__int(self, !undo);
    write__int(self, (int64_t)i);
    write__text(self, file.rel);
    write__int(self, file.exists);
    write__blob(self, file.text, file.len);
    write__int(self, file.format.bom);
    write__int(self, file.format.crlf);
    write__int(self, file.mode);
    write__stamp(self, &file.now);
  }
}

static bool txn_steps__has(const MirrorSession *ms, uint64_t serial) {
  for (size_t i = 0; i < ms->txn_steps.len; i++)
    if (ms->txn_steps.items[i] == serial) return true;
  return false;
}

/* Whether session's history has a step of serial. */
static bool txn_steps__in_history(const EddiSession *session, uint64_t serial) {
  for (int list = 0; list < 2; list++)
    for (size_t i = 0; i < eddi_txn_history_steps(session, list == 0); i++)
      if (eddi_txn_history_step_serial(eddi_txn_history_step(session, list == 0, i)) == serial)
        return true;
  return false;
}

/* The mirror's serials become the history's. */
static void txn_steps__take(MirrorSession *ms, const EddiSession *session) {
  array_clear(&ms->txn_steps);
  for (int list = 0; list < 2; list++)
    for (size_t i = 0; i < eddi_txn_history_steps(session, list == 0); i++)
      array_push(&ms->txn_steps,
                 eddi_txn_history_step_serial(eddi_txn_history_step(session, list == 0, i)));
  ms->txn_serial = eddi_txn_history_serial(session);
}

/* Steps new since the last sync written, gone ones deleted; nothing when
 * the history's newest serial is the one written. */
static void session__sync_txn_history(JournalWrite *self, const EddiSession *session,
                                      MirrorSession *ms) {
  if (eddi_txn_history_serial(session) == ms->txn_serial) return;
  for (size_t i = 0; i < ms->txn_steps.len; i++) {
    if (!txn_steps__in_history(session, ms->txn_steps.items[i]))
      txn_step__drop(self, session->name, ms->txn_steps.items[i]);
  }
  for (int list = 0; list < 2; list++)
    for (size_t i = 0; i < eddi_txn_history_steps(session, list == 0); i++) {
      const EddiTxnHistoryStep *step = eddi_txn_history_step(session, list == 0, i);
      if (!txn_steps__has(ms, eddi_txn_history_step_serial(step)))
        txn_step__write(self, session->name, step, list == 0);
    }
  txn_steps__take(ms, session);
}

/* ------------------------------------------------------------ the session's row */

/* Whether a live process other than this one journals session name. */
static bool session__held_elsewhere(EddiJournal *journal, const char *name) {
  static const char sql[] = "SELECT owner_pid, owner_host, owner_log FROM sessions WHERE name=?";
  sqlite3_stmt *stmt = eddi_journal_statement(journal, sql);
  if (!stmt) return false;
  sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
  bool elsewhere = false;
  if (sqlite3_step(stmt) == SQLITE_ROW) {
    long pid = (long)sqlite3_column_int64(stmt, 0);
    const char *host = (const char *)sqlite3_column_text(stmt, 1);
    const char *log = (const char *)sqlite3_column_text(stmt, 2);
    const char *my_log = eddi_journal_log_name(journal);
    bool mine = pid == eddi_journal_pid(journal) && host &&
                strcmp(host, eddi_journal_host(journal)) == 0 &&
                (!log || !my_log || strcmp(log, my_log) == 0);
    /* A row of another machine's process is not ours to overwrite either
     * (owner_dead judges this host's processes only). */
    elsewhere = !mine && host && !eddi_journal_owner_dead(journal, pid, host, log);
  }
  if (!eddi_journal_statement_cached(journal, stmt)) sqlite3_finalize(stmt);
  else sqlite3_reset(stmt);
  return elsewhere;
}

static MirrorSession *session__insert(JournalWrite *self, EddiJournal *journal,
                                      const EddiSession *session) {
  MirrorSession *ms = eddi_calloc(1, sizeof *ms);
  ms->name = eddi_strdup(session->name);
  ms->sender = eddi_strdup(session->sender);
  ms->registers_hash = XXH3_64bits("", 0);
  array_push(&mirror__of(journal)->sessions, ms);
  ms->elsewhere = session__held_elsewhere(journal, session->name);
  if (ms->elsewhere) return ms;
  self->claims = true; /* applied before the reply: see journal_log.c */
  write__forget(self, session->name);
  write__statement(self, sql_session_put);
  write__text(self, session->name);
  write__text(self, session->sender);
  write__text(self, session->description);
  write__text(self, eddi_journal_instance(journal));
  write__int(self, eddi_journal_pid(journal));
  write__text(self, eddi_journal_host(journal));
  write__int(self, session->raw_payloads);
  write__int(self, (int64_t)time(NULL));
  write__statement(self, sql_session_owner_log);
  write__text(self, eddi_journal_log_name(journal));
  write__text(self, session->name);
  ms->raw_payloads = session->raw_payloads;
  return ms;
}

static void session__sync(JournalWrite *self, EddiJournal *journal, const EddiSession *session,
                          MirrorSession *ms) {
  if (!ms) ms = session__insert(self, journal, session);
  if (ms->elsewhere) return;
  for (size_t i = 0; i < ms->docs.len; i++) ms->docs.items[i].present = false;
  for (size_t i = 0; i < session->docs.len; i++)
    doc__sync(self, session->name, session->docs.items[i], i,
              doc__own_undone(session, session->docs.items[i]), ms);
  for (size_t i = ms->docs.len; i-- > 0;) {
    MirrorDoc *doc = &ms->docs.items[i];
    if (doc->present) continue;
    write__delete(self, "edits", ms->name, doc->path);
    write__delete(self, "docs", ms->name, doc->path);
    mirror__doc_free(doc);
    array_remove(&ms->docs, i);
  }
  session__sync_state(self, session, ms);
  session__sync_snapshots(self, session, ms);
  session__sync_changesets(self, session, ms);
  session__sync_txn_history(self, session, ms);
}

/* The intents of the changes this command made (kept for this record)
 * forgotten with it: the record holds their step. */
#define SYNC_SETTLED_MAX 64
static void session__sync_settled(JournalWrite *self, const char *session) {
  int64_t ids[SYNC_SETTLED_MAX];
  size_t n = eddi_journal_settled_of(self->journal, session, ids, SYNC_SETTLED_MAX);
  for (size_t i = 0; i < n && i < SYNC_SETTLED_MAX; i++) {
    write__statement(self, sql_intent_files_forget);
    write__int(self, ids[i]);
    write__statement(self, sql_intent_forget);
    write__int(self, ids[i]);
  }
}

bool eddi_journal_session_kept(EddiJournal *self, const char *name) {
  MirrorSession *ms = mirror__by(mirror__of(self), name, NULL);
  return ms && !ms->elsewhere;
}

/* Sync every session of engine but done whose rows the journal left out
 * (no mirror: dropped when a record of it was lost). */
static void session__catch_up(EddiJournal *self, EddiEngine *engine, const EddiSession *done) {
  struct JournalMirror *mirror = mirror__of(self);
  for (size_t i = 0; i < engine->sessions->sessions.len; i++) {
    const EddiSession *session = engine->sessions->sessions.items[i];
    if (session == done || mirror__by(mirror, session->name, NULL)) continue;
    JournalWrite write = {.journal = self, .session = session->name};
    session__sync(&write, self, session, NULL);
    write__finish(&write);
    MirrorSession *ms = mirror__by(mirror, session->name, NULL);
    if (ms && write.lost) {
      mirror__drop(mirror, ms);
      return; /* still no room */
    }
    if (ms && !ms->elsewhere) ms->version = ++mirror->clock;
  }
}

void eddi_journal_sync_sender(EddiJournal *self, EddiEngine *engine, const char *sender) {
  struct JournalMirror *mirror = mirror__of(self);
  EddiSession *session = eddi_sessions_by_sender(engine->sessions, sender);
  int64_t one;
  if (session && eddi_journal_settled_of(self, session->name, &one, 1))
    eddi_journal_test_stop("session-sync");
  MirrorSession *ms = mirror__by(mirror, NULL, sender);
  if (ms && (!session || strcmp(ms->name, session->name) != 0)) {
    if (!ms->elsewhere) eddi_journal_forget(self, ms->name); /* ended */
    else mirror__drop(mirror, ms);
    ms = NULL;
  }
  if (!session) return;
  JournalWrite write = {.journal = self, .session = session->name};
  session__sync(&write, self, session, ms);
  ms = mirror__by(mirror, session->name, NULL);
  size_t settled = eddi_journal_settled_of(self, session->name, &one, 1);
  if (settled && ms && !ms->elsewhere) session__sync_settled(&write, session->name);
  bool wrote = write__finish(&write);
  /* Their record is in the log (or the session is another process's):
   * the backups go. A record the journal could not take keeps them, for
   * the session's next record (its rows written anew) or a recovery. */
  if (settled && (!ms || ms->elsewhere)) eddi_journal_settled_written(self, session->name, true);
  else if (settled && !write.lost) eddi_journal_settled_written(self, session->name, false);
  /* The journal lacks this record: the mirror no longer says what it
   * holds, so the next sync writes the whole session anew (a claim). */
  if (ms && write.lost) {
    mirror__drop(mirror, ms);
    return;
  }
  /* Another process that started the session at the same moment claimed
   * it first (journal_log.c refused this claim): it is theirs to journal. */
  if (ms && write.claims && !ms->elsewhere) ms->elsewhere = session__held_elsewhere(self, ms->name);
  if (ms && wrote && !ms->elsewhere) ms->version = ++mirror->clock;
  /* The journal took this record after it could not keep up (a full
   * disk): the other sessions it left out are journaled whole again now,
   * not at their sender's next command. */
  if (ms && !write.lost && eddi_journal_behind(self)) session__catch_up(self, engine, session);
}

uint64_t eddi_journal_session_version(EddiJournal *self, const char *name) {
  MirrorSession *ms = mirror__by(mirror__of(self), name, NULL);
  return ms && !ms->elsewhere ? ms->version : 0;
}

void eddi_journal_disown(EddiJournal *self, const char *name) {
  struct JournalMirror *mirror = mirror__of(self);
  eddi_journal_settled_written(self, name, true);
  MirrorSession *ms = mirror__by(mirror, name, NULL);
  if (!ms) return;
  /* Rows another process claimed (a shared state folder) are its own now. */
  bool mine = !ms->elsewhere && !session__held_elsewhere(self, name);
  mirror__drop(mirror, ms);
  if (!mine) return;
  JournalWrite write = {.journal = self, .session = name};
  write__forget(&write, name);
  write__finish(&write);
}

void eddi_journal_forget(EddiJournal *self, const char *name) {
  eddi_journal_settled_written(self, name, true);
  JournalWrite write = {.journal = self, .session = name};
  write__forget(&write, name);
  write__finish(&write);
  MirrorSession *ms = mirror__by(mirror__of(self), name, NULL);
  if (ms) mirror__drop(mirror__of(self), ms);
}

void eddi_journal_adopt(EddiJournal *self, const EddiSession *session) {
  if (!session) return;
  struct JournalMirror *mirror = mirror__of(self);
  MirrorSession *ms = mirror__by(mirror, session->name, NULL);
  if (ms) mirror__drop(mirror, ms);
  ms = eddi_calloc(1, sizeof *ms);
  ms->name = eddi_strdup(session->name);
  ms->sender = eddi_strdup(session->sender);
  ms->raw_payloads = !session->raw_payloads; /* unknown: written at the next sync */
  array_push(&mirror->sessions, ms);
  for (size_t i = 0; i < session->docs.len; i++) {
    /* Unknown groups: the next sync rewrites the file's record. */
    MirrorDoc doc = {.path = eddi_strdup(session->docs.items[i]->path), .top = UINT64_MAX,
                     .seq = 1, .cursor = SIZE_MAX};
    array_push(&ms->docs, doc);
  }
  /* The restored steps are the journal's rows (journal_restore.c). */
  txn_steps__take(ms, session);
  /* The restored snapshots have new stamps: their rows are written anew. */
  JournalWrite write = {.journal = self, .session = session->name};
  write__delete(&write, "snapshots", session->name, NULL);
  write__finish(&write);
}
