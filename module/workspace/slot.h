/* slot.h - a subsystem's state kept on a workspace or a session.
 *
 * The workspace and its sessions hold the state of the layers above them
 * (edit formats' snapshots, the multi-file history, scripts' variables, a
 * Replace Confirm, the grep cache, the refactoring index) without knowing
 * what it is: each subsystem names its slot by the address of its own
 * EddiSlotType, which says how the state is freed and what it does when a
 * document closes. */
#ifndef EDDI_SLOT_H
#define EDDI_SLOT_H

#include "core/document.h"

typedef struct EddiSlotType {
  const char *name; /* for debugging */
  void (*free)(void *data);
  /* doc is closing; returns true when the state goes with it (it is then
   * freed). May be NULL: nothing to do. */
  bool (*forget_doc)(void *data, const EddiDoc *doc);
} EddiSlotType;

typedef struct {
  const EddiSlotType *type;
  void *data;
} EddiSlot;

typedef Array(EddiSlot) EddiSlots;

void *eddi_slots_get(const EddiSlots *self, const EddiSlotType *type);
/* Keep data for type (NULL: none), freeing what was kept before. */
void eddi_slots_set(EddiSlots *self, const EddiSlotType *type, void *data);
/* Take type's data out without freeing it; NULL when there was none. */
void *eddi_slots_take(EddiSlots *self, const EddiSlotType *type);
/* doc is closing: tell every slot, and drop those that go with it. */
void eddi_slots_forget_doc(EddiSlots *self, const EddiDoc *doc);
/* Free every slot's data, in the order they were first set. */
void eddi_slots_free(EddiSlots *self);

#endif
