/* slot.c - see slot.h. A handful of slots at most: a linear search. */
#include "workspace/slot.h"

static EddiSlot *slots__find(const EddiSlots *self, const EddiSlotType *type) {
  for (size_t i = 0; i < self->len; i++)
    if (self->items[i].type == type) return &self->items[i];
  return NULL;
}

void *eddi_slots_get(const EddiSlots *self, const EddiSlotType *type) {
  EddiSlot *slot = slots__find(self, type);
  return slot ? slot->data : NULL;
}

void eddi_slots_set(EddiSlots *self, const EddiSlotType *type, void *data) {
  EddiSlot *slot = slots__find(self, type);
  if (!slot) {
    array_push(self, ((EddiSlot){.type = type}));
    slot = &self->items[self->len - 1];
  }
  void *old = slot->data;
  slot->data = data;
  if (old && old != data) type->free(old);
}

void *eddi_slots_take(EddiSlots *self, const EddiSlotType *type) {
  EddiSlot *slot = slots__find(self, type);
  if (!slot) return NULL;
  void *data = slot->data;
  slot->data = NULL;
  return data;
}

void eddi_slots_forget_doc(EddiSlots *self, const EddiDoc *doc) {
  for (size_t i = 0; i < self->len; i++) {
    EddiSlot *slot = &self->items[i];
    if (slot->data && slot->type->forget_doc && slot->type->forget_doc(slot->data, doc)) {
      slot->type->free(slot->data);
      slot->data = NULL;
    }
  }
}

void eddi_slots_free(EddiSlots *self) {
  for (size_t i = 0; i < self->len; i++)
    if (self->items[i].data) self->items[i].type->free(self->items[i].data);
  array_free(self);
}
