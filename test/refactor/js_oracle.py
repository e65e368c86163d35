"""The oracle of the JavaScript and TypeScript generative runs
(systematic_langs.py, ops_langs.py): what a tree is to the language's own
tools, measured on the untouched tree first, then after every write.

- JavaScript: every source file passes `node --check`.
- TypeScript: the type checker's command (--tsc, run in the tree through
  the shell, e.g. `tsc --strict --outDir out src/*.ts test/*.ts`) may
  report no more diagnostics of any code (TS2345 ...) than it reports on
  the untouched tree: a real project often fails a few under --strict,
  and a write must add none.
- The project's own tests (--test, run in the tree through the shell after
  the checks, with the compiled output for TypeScript) must pass as they
  pass on the untouched tree.
- A script (--run) copied into the tree's root must print what it printed.

A broken write is WRONG when eddi listed no unsure reference, and a listed
MISS when it did (the command left them, as it said).
"""
import collections
import os
import re
import shutil
import subprocess

ENDS = {'js': ('.js', '.mjs', '.cjs'), 'ts': ('.ts', '.tsx')}
SKIPPED_FOLDERS = {'node_modules', 'out', 'dist', 'typings', 'coverage'}
TEST_TIME_LIMIT = 120
# Where the TypeScript oracle's compiler writes (--outDir out): never part
# of a copy eddi works on, or eddi would see the compiled files as callers.
BUILD_FOLDERS = ('out', 'node_modules')


def copy_tree(source, target):
    shutil.copytree(source, target, symlinks=True, ignore=shutil.ignore_patterns(*BUILD_FOLDERS))


def sources(root, lang):
    """The tree's source files of LANG, in a stable order (no declaration
    files, nothing built or installed)."""
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith('.') and d not in SKIPPED_FOLDERS)
        for name in sorted(files):
            if name.endswith(ENDS[lang]) and not name.endswith('.d.ts'):
                yield os.path.join(folder, name)


def shell(command, root):
    try:
        return subprocess.run(command, shell=True, cwd=root, capture_output=True, text=True,
                              timeout=TEST_TIME_LIMIT)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(command, 124, '', 'timed out')


def first_error(out):
    lines = (out.stdout + '\n' + out.stderr).strip().splitlines()
    hit = next((l for l in lines if re.search(r'\d+ failing|^# fail [1-9]|not ok', l)), None) or \
        next((l for l in lines if re.search(r'Error\b|error TS', l)), None)
    return (hit or (lines[-1] if lines else 'failed')).strip()[:200]


class Oracle:
    def __init__(self, lang, tsc=None, test=None, run=None):
        self.lang, self.tsc, self.test, self.run = lang, tsc, test, run
        self.baseline = None

    def measure(self, root):
        """(state, problem): what the tools say of ROOT; problem is a
        failure that needs no baseline to be one (a syntax error)."""
        state = {'diagnostics': collections.Counter(), 'test': None, 'run': None}
        if self.lang == 'js':
            for path in sources(root, 'js'):
                out = subprocess.run(['node', '--check', path], capture_output=True, text=True)
                if out.returncode:
                    return state, 'node --check %s: %s' % (
                        os.path.relpath(path, root), out.stderr.strip().splitlines()[-1])
        if self.tsc:
            out = shell(self.tsc, root)
            state['diagnostics'] = collections.Counter(
                re.findall(r'error (TS\d+)', out.stdout + out.stderr))
            state['first diagnostic'] = {
                m.group(2): m.group(1) for m in
                re.finditer(r'^(\S+\(\d+,\d+\): error (TS\d+): .*)$', out.stdout, re.M)}
        if self.test:
            out = shell(self.test, root)
            state['test'] = 'pass' if out.returncode == 0 else first_error(out)
        if self.run:
            out = subprocess.run(['node', self.run], cwd=root, capture_output=True, text=True)
            state['run'] = out.stdout if out.returncode == 0 else first_error(out)
        return state, None

    def start(self, root):
        """Measures the untouched tree; returns a problem that makes the
        run meaningless (its tests fail), or None."""
        state, problem = self.measure(root)
        if problem:
            return problem
        if self.test and state['test'] != 'pass':
            return 'the project\'s tests fail on the untouched tree: %s' % state['test']
        self.baseline = state
        return None

    def check(self, root):
        """None when ROOT is as good as the untouched tree, else what broke."""
        state, problem = self.measure(root)
        if problem:
            return problem
        for code, n in state['diagnostics'].items():
            if n > self.baseline['diagnostics'][code]:
                return 'type check: %d more %s: %s' % (
                    n - self.baseline['diagnostics'][code], code,
                    state['first diagnostic'].get(code, ''))
        if state['test'] != self.baseline['test']:
            return 'tests: %s' % state['test']
        if state['run'] != self.baseline['run']:
            return 'script output differs: %s' % str(state['run'])[:200]
        return None


def parameters(line, open_paren):
    """[(name, column)] of the parameter list that opens at OPEN_PAREN of
    LINE, or None when it does not close on the line or a parameter is no
    plain name (destructured); `this: T` is no parameter."""
    depth, start, found = 0, open_paren + 1, []
    for i in range(open_paren, len(line)):
        c = line[i]
        if c in '([{<':
            depth += 1
        elif c in ')]}>' and not (c == '>' and line[i - 1] == '='):
            depth -= 1
            if depth == 0:
                found.append((start, i))
                break
        elif c == ',' and depth == 1:
            found.append((start, i))
            start = i + 1
    else:
        return None
    out = []
    for a, b in found:
        text = line[a:b]
        if not text.strip():
            continue
        m = re.match(r'\s*(?:(?:public|private|protected|readonly)\s+)*(\.\.\.)?([A-Za-z_$][\w$]*)', text)
        if not m:
            return None
        if m.group(2) != 'this':
            out.append((m.group(2), a + m.start(2), bool(m.group(1)), text.strip()))
    return out
