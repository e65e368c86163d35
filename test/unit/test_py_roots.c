/* test_py_roots.c - the import roots read from Python project files
 * (refactor/py_roots.h): each way a folder is declared, paths relative to
 * a nested project, and malformed files failing with their place, never
 * crashing, reading past their end or leaking. */
#include "unit_support.h"

#include "refactor/py_roots.h"

/* The roots path declares (its text, NUL-terminated), joined by spaces,
 * into out; the return code of the read. */
static int roots_of(const char *path, const char *text, char *out, size_t size, EddiError *err) {
  RefPyRoots roots = {0};
  /* A copy of exactly its bytes, so that a read past the end is caught. */
  size_t len = strlen(text);
  char *copy = malloc(len ? len : 1);
  memcpy(copy, text, len);
  int rc = ref_py_roots_read(&roots, path, copy, len, err);
  free(copy);
  out[0] = '\0';
  for (size_t i = 0; i < roots.dirs.len; i++) {
    strncat(out, i ? " " : "", size - strlen(out) - 1);
    strncat(out, roots.dirs.items[i], size - strlen(out) - 1);
  }
  ref_py_roots_free(&roots);
  return rc;
}

static void assert_roots(const char *path, const char *text, const char *expected) {
  char got[1024];
  EddiError err = {0};
  int rc = roots_of(path, text, got, sizeof got, &err);
  if (rc != 0) fail_msg("%s: %s", path, err.what);
  assert_string_equal(got, expected);
}

static void assert_fails(const char *path, const char *text, const char *what) {
  char got[1024];
  EddiError err = {0};
  assert_int_equal(roots_of(path, text, got, sizeof got, &err), EDDI_EINVAL);
  assert_string_equal(err.what, what);
}

static void test_pyproject(void **state) {
  (void)state;
  long live = unit_live();
  assert_roots("pyproject.toml", "[tool.setuptools]\npackage-dir = {\"\" = \"src\"}\n", "src");
  assert_roots("pyproject.toml", "[tool.setuptools.package-dir]\n\"\" = \"lib/\"\n", "lib");
  assert_roots("pyproject.toml", "[tool.setuptools]\npackage-dir = {shop = \"code/shop\"}\n",
               "code");
  assert_roots("pyproject.toml", "[tool.setuptools.packages.find]\nwhere = [\"src\", \"./more\"]\n",
               "src more");
  assert_roots("pyproject.toml",
               "[tool.poetry]\npackages = [\n  { include = \"pkg\", from = \"src\" },\n"
               "  { include = \"top\" },  # at the top\n]\n",
               "src");
  assert_roots("pyproject.toml", "[[tool.poetry.packages]]\ninclude = \"a\"\nfrom = \"py\"\n", "py");
  assert_roots("pyproject.toml", "[tool.hatch.build.targets.wheel]\npackages = [\"src/pkg\", \"x\"]\n",
               "src");
  assert_roots("pyproject.toml", "[tool.hatch.build.targets.wheel.sources]\n\"lib\" = \"\"\n", "lib");
  assert_roots("pyproject.toml", "tool.pdm.build.package-dir = 'src'\n", "src");
  assert_roots("pyproject.toml", "[tool.maturin]\npython-source = \"python\"\n", "python");
  assert_roots("pyproject.toml", "[tool.pytest.ini_options]\npythonpath = [\"tests/helpers\"]\n",
               "tests/helpers");
  assert_roots("pyproject.toml", "[tool.pytest.ini_options]\npythonpath = \"a b\"\n", "a b");
  /* What is not a root, and TOML it must read past: strings of every
   * kind, escapes, dates, numbers, nested arrays and tables. */
  assert_roots("pyproject.toml",
               "[project]\nname = \"p\" # c\ndescription = \"\"\"x\n\"quoted\" \\\n  y\"\"\"\"\n"
               "license = '''a 'b' c'''\nurls = {home = \"h\\u00e9\\U0001F600\", \"a.b\" = 'c\\'}\n"
               "when = 1979-05-27 07:32:00Z\nn = [1, [2, 3], {a = true}, -4.5e3, 0x1F,]\n"
               "[tool.setuptools.packages.find]\nwhere = [\"src\"]\ninclude = [\"p*\"]\n",
               "src");
  assert_roots("pyproject.toml", "", "");
  unit_assert_no_leak(live);
}

static void test_nested_and_outside(void **state) {
  (void)state;
  long live = unit_live();
  assert_roots("web/pyproject.toml", "[tool.setuptools.packages.find]\nwhere = [\"src\"]\n",
               "web web/src");
  assert_roots("a/b/setup.cfg", "[options]\npackage_dir =\n    = ../lib\n", "a/b a/lib");
  /* Above the workspace, or absolute: none of it. */
  assert_roots("a/pyproject.toml", "[tool.setuptools.packages.find]\nwhere = [\"../../x\", \"/x\"]\n",
               "a");
  assert_roots("pyproject.toml", "[tool.setuptools.packages.find]\nwhere = [\".\", \"src\", \"src\"]\n",
               "src");
  unit_assert_no_leak(live);
}

static void test_ini_and_setup_py(void **state) {
  (void)state;
  long live = unit_live();
  assert_roots("setup.cfg", "[metadata]\nname = x\n\n[options]\npackage_dir =\n    =src\n"
               "packages = find:\n\n[options.packages.find]\nwhere = src\n", "src");
  assert_roots("setup.cfg", "[options]\npackage_dir = =lib\n", "lib");
  assert_roots("setup.cfg", "[options]\npackage-dir =\n  pkg = code/pkg\n", "code");
  assert_roots("setup.cfg", "[tool:pytest]\npythonpath = src\n  tests ; helpers\n", "src tests");
  assert_roots("pytest.ini", "[pytest]\n# c\npythonpath: . helpers\r\n", "helpers");
  assert_roots("tox.ini", "[tox]\nenvlist = py3\n[pytest]\npythonpath = t\n", "t");
  assert_roots("setup.py", "from setuptools import setup, find_packages\nsetup(\n"
               "    package_dir={'': 'src'},\n    packages=find_packages(where=\"src\"),\n)\n",
               "src");
  assert_roots("setup.py", "setup(**{'package_dir': {\"pkg\": \"lib/pkg\"}},\n"
               "packages=find_packages('py'))\n", "lib py");
  /* Not literals, or cut short: nothing, and no error (setup.py is code). */
  assert_roots("setup.py", "package_dir = {'': SRC}\nfind_packages(where=here)\npackage_dir={'':",
               "");
  unit_assert_no_leak(live);
}

static void test_malformed(void **state) {
  (void)state;
  long live = unit_live();
  assert_fails("pyproject.toml", "[project]\nname = \"x\n",
               "pyproject.toml has a syntax error at pyproject.toml:1:9: an unterminated string");
  assert_fails("pyproject.toml", "a = '''x",
               "pyproject.toml has a syntax error at pyproject.toml:0:8: an unterminated string");
  assert_fails("pyproject.toml", "[tool.setuptools\n",
               "pyproject.toml has a syntax error at pyproject.toml:0:16: a table name without its ]");
  assert_fails("pyproject.toml", "a b = 1\n",
               "pyproject.toml has a syntax error at pyproject.toml:0:2: a key without =");
  assert_fails("pyproject.toml", "a = \n",
               "pyproject.toml has a syntax error at pyproject.toml:0:4: a value is missing");
  assert_fails("pyproject.toml", "a = [1 2]\n",
               "pyproject.toml has a syntax error at pyproject.toml:0:7: an array's values without a "
               "comma or ]");
  assert_fails("pyproject.toml", "a = {b = 1\n",
               "pyproject.toml has a syntax error at pyproject.toml:1:0: an inline table's pairs "
               "without a comma or }");
  assert_fails("pyproject.toml", "a = \"\\q\"\n",
               "pyproject.toml has a syntax error at pyproject.toml:0:6: an unknown escape");
  assert_fails("pyproject.toml", "a = \"\\u12\"\n",
               "pyproject.toml has a syntax error at pyproject.toml:0:9: a bad \\u escape");
  assert_fails("pyproject.toml", "a = \"\\uD800\"\n",
               "pyproject.toml has a syntax error at pyproject.toml:0:11: an escape that is no "
               "character");
  assert_fails("pyproject.toml", "a = 1 2\n",
               "pyproject.toml has a syntax error at pyproject.toml:0:6: more after a value than the "
               "line can hold");
  assert_fails("pyproject.toml", "= 1\n",
               "pyproject.toml has a syntax error at pyproject.toml:0:0: a key is missing");
  assert_fails("setup.cfg", "[options\npackage_dir = =src\n",
               "setup.cfg has a syntax error at setup.cfg:0:0: a section name without its ]");
  /* Nesting deeper than REF_PY_ROOTS_DEPTH_MAX fails instead of using the stack. */
  char deep[4 * REF_PY_ROOTS_DEPTH_MAX + 16] = "a = ";
  for (int i = 0; i < 2 * REF_PY_ROOTS_DEPTH_MAX; i++) strcat(deep, "[");
  EddiError err = {0};
  char got[64];
  assert_int_equal(roots_of("pyproject.toml", deep, got, sizeof got, &err), EDDI_EINVAL);
  assert_non_null(strstr(err.what, "values nested too deep"));
  unit_assert_no_leak(live);
}

/* Every prefix of valid files, and random bytes over TOML's own
 * characters: each read ends, with roots or a place. */
static void test_prefixes_and_noise(void **state) {
  (void)state;
  long live = unit_live();
  static const char *const texts[] = {
      ("[tool.poetry]\npackages = [{ include = \"p\", from = \"src\" }]\n"
       "s = \"\"\"a\\\n b\"\"\"\nd = 2020-01-01 10:00:00\n"),
      "[options]\npackage_dir =\n    =src\n[tool:pytest]\npythonpath = a\n",
      "setup(package_dir={'': 'src'}, packages=find_packages(where='src'))\n",
  };
  static const char *const paths[] = {"pyproject.toml", "setup.cfg", "setup.py"};
  char got[1024];
  for (size_t t = 0; t < 3; t++) {
    size_t len = strlen(texts[t]);
    for (size_t n = 0; n <= len; n++) {
      char *prefix = strndup(texts[t], n);
      EddiError err = {0};
      roots_of(paths[t], prefix, got, sizeof got, &err);
      free(prefix);
    }
  }
  static const char alphabet[] = "[]{}=,.\"'\\#\n\r \tabu0123-:_/";
  UnitRandom random = {42};
  for (int round = 0; round < 2000; round++) {
    char text[96];
    size_t len = unit_random_below(&random, sizeof text);
    for (size_t i = 0; i < len; i++)
      text[i] = alphabet[unit_random_below(&random, sizeof alphabet - 1)];
    text[len] = '\0';
    EddiError err = {0};
    roots_of(round % 2 ? "pyproject.toml" : "setup.cfg", text, got, sizeof got, &err);
  }
  unit_assert_no_leak(live);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pyproject),
      cmocka_unit_test(test_nested_and_outside),
      cmocka_unit_test(test_ini_and_setup_py),
      cmocka_unit_test(test_malformed),
      cmocka_unit_test(test_prefixes_and_noise),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
