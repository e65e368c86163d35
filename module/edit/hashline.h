/* hashline.h - the hashline edit language, its parser and applier, exposed
 * for tests and fuzzers (the engine entry points are in edit_formats.h).
 *
 * A section body is a list of operations on line numbers of a tagged
 * snapshot (1-based, never shifted by earlier operations):
 *
 *   PUT N.=M:  +rows     replace lines N..M        PUT N*:  +rows   replace the block at N
 *   PUT <N:    +rows     insert before N (<1: head) PUT >N:  +rows   insert after N (>$: tail)
 *   PUT >N*:   +rows     insert after the block at N
 *   CUT N.=M [@name]     delete and capture         CUT N* [@name]
 *   PUT <N [@name]       paste a register at a gap  PUT N.=M @name   paste over a range
 *   REM                  delete the file            MV DEST          move it afterwards
 *
 * The parser is lenient where oh-my-pi's is (each leniency with a warning,
 * see doc/edit-formats.org) and strict where a lenient reading could write
 * the wrong thing.
 */
#ifndef EDDI_EDIT_HASHLINE_H
#define EDDI_EDIT_HASHLINE_H

#include "edit/edit_state.h"

typedef enum {
  HL_LOC_RANGE,       /* N.=M */
  HL_LOC_BLOCK,       /* N* */
  HL_LOC_BEFORE,      /* <N */
  HL_LOC_AFTER,       /* >N, >$ */
  HL_LOC_AFTER_BLOCK, /* >N* */
} HlLocator;

typedef struct {
  bool cut;       /* CUT, else PUT */
  bool paste;     /* PUT without ':': paste a register */
  HlLocator loc;
  size_t first;   /* 1-based */
  size_t last;
  bool at_end;    /* >$ */
  char *reg;      /* register name; NULL: the anonymous one */
  StrBuf body;    /* rows, each ending in '\n' */
  size_t line_no; /* of the header in the input */
} HlOp;

typedef struct {
  Array(HlOp) ops;
  bool rem;
  char *move_to;
} HlSection;

/* Parse a section body (what follows a [PATH#TAG] header). line_base is the
 * input line number of its first line minus one, for messages. Warnings are
 * appended to report. */
int eddi_hashline_parse(const char *body, size_t len, size_t line_base, HlSection *out,
                        EddiEditReport *report, EddiError *err);
void eddi_hashline_section_free(HlSection *self);

/* Apply a parsed section to text (LF); registers are read and written (may
 * be NULL: no register operations). path decides Markdown blocks. */
int eddi_hashline_apply(const HlSection *section, const char *path, const char *text,
                        size_t len, EddiRegisterList *registers, StrBuf *out,
                        EddiChangedList *changed, EddiError *err);

/* The last line (0-based) of the block opening at line start of lines, by
 * brackets, indentation or Markdown headings; *first receives its first
 * line (leading decorators included). */
void eddi_hashline_block(const EddiLineList *lines, size_t start, const char *path,
                         size_t *first, size_t *last);

/* Map every line of old text onto the new text (SIZE_MAX: gone); false
 * when the texts are too different to map within the cost bound. */
bool eddi_hashline_line_map(const EddiLineList *old_lines, const EddiLineList *new_lines,
                            size_t *map);

#endif
