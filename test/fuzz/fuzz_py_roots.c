/* fuzz_py_roots.c - libFuzzer target for the Python project file readers
 * (refactor/py_roots.h): the first byte picks pyproject.toml, setup.cfg,
 * setup.py or pytest.ini, in the root or in a nested project; the rest is
 * the file's text. Each read must end, with roots or a place, and free
 * what it made. */
#include <stddef.h>
#include <stdint.h>

#include "refactor/py_roots.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const paths[] = {"pyproject.toml", "setup.cfg", "setup.py", "pytest.ini",
                                      "web/pyproject.toml", "a/b/setup.cfg", "tools/setup.py",
                                      "x/tox.ini"};
  if (size == 0) return 0;
  const char *path = paths[data[0] % (sizeof paths / sizeof *paths)];
  RefPyRoots roots = {0};
  EddiError err = {0};
  ref_py_roots_read(&roots, path, (const char *)data + 1, size - 1, &err);
  ref_py_roots_free(&roots);
  return 0;
}
