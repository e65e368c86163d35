"""What the Python refactoring harnesses share: the copy of a tree, one
eddi command on it, the oracle that judges a write, fair sampling of the
cases and the tally of written, refused (by reason), wrong and listed
misses.

The oracle, after every write (doc/refactoring.org, "Tests"):
- every .py file compiles (what py_compile checks, without writing a .pyc);
- pyflakes reports no undefined name that the untouched tree does not;
- the project's test command, when given, fails no more tests and passes
  no fewer than on the untouched tree (unittest's and pytest's summaries
  are read; a run that prints neither counts as its exit status).
A write that breaks one of these is WRONG when eddi listed no unsure
reference, and a MISS when it did (the references it left, or changed
too, as the command asked).
"""
import ast
import collections
import os
import random
import re
import shutil
import subprocess
import tempfile

# A run whose summary cannot be read: as many failures as no project has.
UNREADABLE_FAILURES = 10 ** 6

# Words of a refusal kept as its reason, once places and names are gone.
REASON_WORDS = 7


def copy_tree(source, dest):
    """Copy SOURCE to DEST (which must not exist), without caches."""
    shutil.copytree(source, dest, ignore=shutil.ignore_patterns(
        '__pycache__', '.pytest_cache', '*.pyc', '*.egg-info'))


def python_files(root):
    """The relative paths of the .py files under ROOT, sorted."""
    out = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(('.', '__pycache__')))
        for name in sorted(files):
            if name.endswith('.py'):
                out.append(os.path.relpath(os.path.join(folder, name), root))
    return out


def is_test_file(rel):
    """Whether REL belongs to the project's tests (the oracle), not its code."""
    parts = rel.split(os.sep)
    name = parts[-1]
    return (any(p in ('test', 'tests', 'testing') for p in parts[:-1])
            or name.startswith('test_') or name.endswith('_test.py') or name == 'conftest.py')


def parse(root, rel):
    """The module's source and syntax tree, or (None, None)."""
    try:
        text = open(os.path.join(root, rel), encoding='utf-8').read()
        return text, ast.parse(text)
    except (SyntaxError, UnicodeDecodeError, ValueError):
        return None, None


def code_modules(root, code_only=True):
    """(path, source, syntax tree) of every module under ROOT that parses,
    the tests' left out when CODE_ONLY."""
    for rel in python_files(root):
        if code_only and is_test_file(rel):
            continue
        text, tree = parse(root, rel)
        if tree is not None:
            yield rel, text, tree


def run_eddi(eddi, root, commands, state=None):
    """Run COMMANDS (after Start) through the eddi CLI on ROOT; the last
    line of its reply. STATE holds the CLI's journal (not the user's)."""
    args = [eddi, '--root', root, '-c', 'Start s']
    for c in commands:
        args += ['-c', c]
    env = dict(os.environ)
    if state:
        env['XDG_STATE_HOME'] = state
    out = subprocess.run(args, capture_output=True, text=True, env=env).stdout
    lines = out.strip().splitlines()
    return lines[-1] if lines else '(no reply)'


def compiles(root):
    """None, or the first file that does not compile and why."""
    for rel in python_files(root):
        path = os.path.join(root, rel)
        try:
            compile(open(path, 'rb').read(), path, 'exec', dont_inherit=True)
        except (SyntaxError, ValueError) as error:
            return '%s: %s' % (rel, error)
    return None


def undefined_names(root):
    """pyflakes' undefined-name messages as a Counter of (file, name)."""
    out = subprocess.run(['pyflakes3', root], capture_output=True, text=True).stdout
    names = collections.Counter()
    for line in out.splitlines():
        m = re.search(r"undefined name '([^']+)'", line)
        if m:
            names[(os.path.relpath(line.split(':')[0], root), m.group(1))] += 1
    return names


def test_result(command, root):
    """(passed, failed) as the test command reports them, run in ROOT."""
    out = subprocess.run(command, shell=True, cwd=root, capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=root, PYTHONDONTWRITEBYTECODE='1'))
    text = out.stdout + out.stderr
    ran = re.search(r'^Ran (\d+) tests?', text, re.M)
    if ran:  # unittest
        m = re.search(r'^FAILED \(([^)]*)\)', text, re.M)
        failed = sum(int(n) for _, n in re.findall(r'(failures|errors)=(\d+)', m.group(1))) \
            if m else 0
        return int(ran.group(1)) - failed, failed
    summary = re.findall(r'(\d+) (passed|failed|errors?)\b', text)
    if summary:  # pytest
        counts = collections.Counter()
        for n, kind in summary:
            counts['passed' if kind == 'passed' else 'failed'] += int(n)
        return counts['passed'], counts['failed']
    return 0, 0 if out.returncode == 0 else UNREADABLE_FAILURES


class Oracle:
    """The untouched tree's figures, and the check of a written copy."""

    def __init__(self, root, test=None):
        self.test = test
        self.undefined = undefined_names(root)
        self.passed, self.failed = test_result(test, root) if test else (0, 0)

    def problem(self, root):
        """None when the copy at ROOT holds, else what broke."""
        broken = compiles(root)
        if broken:
            return 'does not compile: ' + broken
        now = undefined_names(root)
        new = sorted(k for k in now if now[k] > self.undefined.get(k, 0))
        if new:
            return 'new undefined names: %s' % ', '.join('%s %s' % k for k in new[:3])
        if self.test:
            passed, failed = test_result(self.test, root)
            if failed > self.failed or passed < self.passed:
                return 'tests: %d passed, %d failed; %d and %d before' % (
                    passed, failed, self.passed, self.failed)
        return None


def sample(cases, limit, seed, kind=lambda case: case[0]):
    """At most LIMIT of CASES, drawn with SEED so that every kind (the
    stratum KIND gives) gets its share: the kinds take turns, each drawing
    from its own shuffled list. The result keeps the cases' order."""
    if not limit or len(cases) <= limit:
        return list(cases)
    rng = random.Random(seed)
    strata = collections.OrderedDict()
    for i, case in enumerate(cases):
        strata.setdefault(kind(case), []).append(i)
    for members in strata.values():
        rng.shuffle(members)
    chosen = []
    while len(chosen) < limit:
        for members in strata.values():
            if members and len(chosen) < limit:
                chosen.append(members.pop())
    return [cases[i] for i in sorted(chosen)]


def reason_of(reply, names=()):
    """A refusal's reason without its places, numbers and the names of
    the case, so that refusals of one cause count together."""
    text = reply
    if text.startswith('Fail "'):
        text = text[len('Fail "'):]
    text = re.sub(r'\S+\.py(:[0-9:]+)?', 'F', text)
    for name in sorted(set(names), key=len, reverse=True):
        if name:
            text = re.sub(r'\b%s\b' % re.escape(name), 'X', text)
    text = re.sub(r'\b\d+\b', 'N', text)
    text = text.split('"')[0]
    return ' '.join(text.replace(',', ' ').split()[:REASON_WORDS])


def listed_unsure(reply):
    return 'unsure left unchanged' in reply or 'unsure renamed too' in reply


class Tally:
    """Per (project, operation): written, refused by reason, wrong, listed
    misses; and the wrong writes and misses themselves."""

    def __init__(self):
        self.counts = collections.Counter()
        self.reasons = collections.defaultdict(collections.Counter)
        self.wrong = []
        self.missed = []
        self.operations = []

    def record(self, project, op, command, reply, problem, names=()):
        # EDDI_HARNESS_LOG names a file that gets every command and its
        # reply, for reading the refusals one by one.
        if os.environ.get('EDDI_HARNESS_LOG'):
            with open(os.environ['EDDI_HARNESS_LOG'], 'a') as log:
                log.write('%s\t%s\n' % (command, reply))
        key = (project, op)
        if key not in self.operations:
            self.operations.append(key)
        if not reply.startswith('Ok'):
            self.counts[key, 'refused'] += 1
            self.reasons[key][reason_of(reply, names)] += 1
            return
        self.counts[key, 'written'] += 1
        if problem and listed_unsure(reply):
            self.counts[key, 'miss'] += 1
            self.missed.append((project, command, reply, problem))
        elif problem:
            self.counts[key, 'wrong'] += 1
            self.wrong.append((project, command, reply, problem))

    def total(self, what):
        return sum(n for (_, w), n in self.counts.items() if w == what)

    def report(self, reasons=3, out=print):
        """The table (org-mode), then each operation's main refusal reasons,
        then every wrong write and listed miss."""
        out('| project | operation | tried | written | refused | wrong | listed misses |')
        out('|---------+-----------+-------+---------+---------+-------+---------------|')
        last = None
        for key in self.operations:
            project, op = key
            c = [self.counts[key, w] for w in ('written', 'refused', 'wrong', 'miss')]
            out('| %s | %s | %d | %d | %d | %d | %d |' % (
                project if project != last else '', op, c[0] + c[1], *c))
            last = project
        out('Refusals by reason (the %d most frequent of each operation):' % reasons)
        for key in self.operations:
            for reason, n in self.reasons[key].most_common(reasons):
                out('  %-10s %-20s %4d  %s' % (key[0][:10], key[1], n, reason))
        for project, command, reply, problem in self.wrong:
            out('WRONG %s: %s\n  %s\n  %s' % (project, command, reply, problem))
        for project, command, reply, problem in self.missed:
            out('MISS %s: %s\n  %s\n  %s' % (project, command, reply, problem))


class Case:
    """One try: the operation's name (as the table shows it), the stratum
    it was sampled in, the eddi commands, and the names a refusal's reason
    is cleaned of."""

    def __init__(self, op, kind, commands, names=()):
        self.op, self.kind, self.commands, self.names = op, kind, commands, tuple(names)

    @property
    def label(self):
        return self.commands[-1]


def choose(cases, limit, seed):
    """LIMIT cases of each operation, sampled fairly over the kinds of
    target (sample), in the order the operations first appear."""
    by_op = collections.OrderedDict()
    for case in cases:
        by_op.setdefault(case.op, []).append(case)
    out = []
    for op, members in by_op.items():
        out += sample(members, limit, seed, kind=lambda c: c.kind)
    return out


def workspace_of(source, work, as_package=False):
    """The untouched workspace under WORK: a copy of SOURCE, or with
    AS_PACKAGE a folder holding SOURCE under its own name (so that a
    package's absolute imports resolve inside it)."""
    base = os.path.join(work, 'base')
    if as_package:
        os.makedirs(base)
        copy_tree(source, os.path.join(base, os.path.basename(os.path.normpath(source))))
    else:
        copy_tree(source, base)
    return base


def run_cases(eddi, base, cases, test=None, project=None, tally=None, progress=None):
    """Each case on a fresh copy of the workspace BASE (the package and its
    tests), judged by the Oracle. Returns the Tally."""
    tally = tally or Tally()
    project = project or os.path.basename(os.path.normpath(base))
    work = tempfile.mkdtemp(prefix='eddi-harness-')
    try:
        oracle = Oracle(base, test)
        tree, state = os.path.join(work, 'tree'), os.path.join(work, 'state')
        for i, case in enumerate(cases):
            shutil.rmtree(tree, ignore_errors=True)
            shutil.rmtree(state, ignore_errors=True)
            copy_tree(base, tree)
            reply = run_eddi(eddi, tree, case.commands, state)
            problem = oracle.problem(tree) if reply.startswith('Ok') else None
            tally.record(project, case.op, case.label, reply, problem, case.names)
            if progress:
                progress('%s %d/%d %s -> %s%s' % (project, i + 1, len(cases), case.label,
                                                   reply[:100], ' BROKEN ' + problem
                                                   if problem else ''))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return tally
