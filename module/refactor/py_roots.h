/* py_roots.h - the folders Python looks for a workspace's absolute imports
 * in, besides the workspace root.
 *
 * A project that keeps its package under src/ (src/pkg/mod.py) imports it
 * from its tests as pkg.mod: the packaging tools put src/ on sys.path when
 * the project is installed, and pytest puts its pythonpath entries there.
 * Nothing in the Python files says so; the project's configuration does.
 * These are read as text, never run: pyproject.toml (setuptools'
 * package-dir and packages.find where, poetry's packages from, hatch's
 * wheel packages and sources, pdm's package-dir, maturin's python-source,
 * pytest's ini_options pythonpath), setup.cfg (package_dir,
 * packages.find where, tool:pytest pythonpath), pytest.ini and tox.ini
 * ([pytest] pythonpath), setup.py (package_dir={"": "src"},
 * find_packages(where="src"), string literals only). The folder of each
 * such file is a project, and a root itself; so is the workspace root; a
 * project's src/ folder that holds a package is a root even when nothing
 * declares it.
 *
 * The TOML and INI readers know only as much of their formats as it takes
 * to find those keys without misreading: TOML's strings (all four kinds,
 * escapes), arrays, inline tables, tables, dotted and quoted keys, and
 * other values as bare words; INI's sections, keys and continuation
 * lines. A file they cannot read fails with its place (EDDI_EINVAL), so
 * that a refactoring is refused rather than made with roots it missed. */
#ifndef EDDI_REFACTOR_PY_ROOTS_H
#define EDDI_REFACTOR_PY_ROOTS_H

#include "core/common.h"

/* Deepest nesting of TOML arrays and inline tables read; deeper fails. */
#define REF_PY_ROOTS_DEPTH_MAX 32

typedef struct {
  Array(char *) dirs; /* workspace paths of folders, in the order found, each once; never "" */
} RefPyRoots;

void ref_py_roots_free(RefPyRoots *self);
/* Whether a file called basename may declare roots (pyproject.toml,
 * setup.cfg, setup.py, pytest.ini, tox.ini). */
bool ref_py_roots_is_config(const char *basename);
/* Add the roots the config file at workspace path path (its text[0, len),
 * borrowed) declares: its own folder (unless the workspace root), then the
 * folders it names, relative to that folder; a folder above the workspace
 * is left out. Fails with the place of what cannot be read. */
int ref_py_roots_read(RefPyRoots *self, const char *path, const char *text, size_t len,
                      EddiError *err);
/* Add the folder dir (a workspace path, "" for the root) unless present. */
void ref_py_roots_add(RefPyRoots *self, const char *dir, size_t len);
bool ref_py_roots_equal(const RefPyRoots *a, const RefPyRoots *b);

#endif
