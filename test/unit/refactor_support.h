/* refactor_support.h - what the refactoring unit tests share: an index of
 * files given as text (no disk). */
#ifndef EDDI_TEST_REFACTOR_SUPPORT_H
#define EDDI_TEST_REFACTOR_SUPPORT_H

#include <stdarg.h>

#include "unit_support.h"
#include "refactor/index.h"

/* Add the files ap gives as path, text, path, text, ..., NULL (first is
 * the first path) to index; the test fails on a file it cannot analyse. */
static inline void unit_index_add_files(RefIndex *index, const char *first, va_list ap) {
  for (const char *p = first; p; p = va_arg(ap, const char *)) {
    const char *text = va_arg(ap, const char *);
    EddiError err = {0};
    if (ref_index_add(index, p, text, strlen(text), false, &err) < 0)
      fail_msg("%s: %s", p, err.what);
  }
}

#endif
