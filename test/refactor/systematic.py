#!/usr/bin/env python3
"""Rename every function, class and method of a real Python tree, one at a
time, and check each result with Python itself.

    systematic.py EDDI PACKAGE_DIR [--limit N] [--seed S] [--test COMMAND] [--way Unsure|Leave]

The package is copied under its own name into a workspace (so that its
absolute imports resolve inside it). For each definition whose name occurs
at least twice in the package (as a word), a fresh copy gets
`Refactor RenameSymbol pkg/path.py:Qualified.name name_x` through the eddi
CLI. Then:
- eddi refused: counted as refused, clustered by the first words of its
  reason (an unsure reference it would break, a conflict);
- eddi renamed: every file must still compile (what py_compile checks) and pyflakes
  must report no undefined name that the untouched tree does not, and
  the test command (run in the workspace, e.g. "python3 -m unittest
  discover -s pkg/test -t ."), when given, must not fail more tests than
  on the untouched tree. A change that breaks one of these is a WRONG
  write when eddi listed no unsure reference, and a MISS (listed) when it
  did: the unsure references it left alone (Leave) or changed too
  (Unsure), as the command asked. Without --way, a rename that would leave
  unsure references is refused.
The tree is never written in place. Exit status 1 if any write was wrong.
"""
import argparse
import ast
import collections
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile


def definitions(root):
    """(path, qualified name, name) of module-level functions and classes
    and of the methods of module-level classes."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(('.', '__pycache__')))
        for name in sorted(files):
            if not name.endswith('.py'):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            try:
                tree = ast.parse(open(path, encoding='utf-8').read())
            except (SyntaxError, UnicodeDecodeError):
                continue
            for node in tree.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    found.append((rel, node.name, node.name))
                if isinstance(node, ast.ClassDef):
                    for item in node.body:
                        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                                not (item.name.startswith('__') and item.name.endswith('__')):
                            found.append((rel, node.name + '.' + item.name, item.name))
    return found


def word_counts(root):
    counts = collections.Counter()
    for folder, dirs, files in os.walk(root):
        for name in files:
            if name.endswith('.py'):
                text = open(os.path.join(folder, name), encoding='utf-8', errors='replace').read()
                counts.update(re.findall(r'[A-Za-z_][A-Za-z0-9_]*', text))
    return counts


def undefined_names(root):
    """pyflakes' undefined-name messages, without line numbers."""
    out = subprocess.run(['pyflakes3', root], capture_output=True, text=True).stdout
    names = collections.Counter()
    for line in out.splitlines():
        m = re.search(r"undefined name '([^']+)'", line)
        if m:
            names[(line.split(':')[0].replace(root, ''), m.group(1))] += 1
    return names


def test_failures(command, root):
    """How many tests the command reports failed or errored (unittest's
    summary), or 0 when it passes."""
    out = subprocess.run(command, shell=True, cwd=root, capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=root, PYTHONDONTWRITEBYTECODE='1'))
    text = out.stdout + out.stderr
    m = re.search(r'FAILED \(([^)]*)\)', text)
    if not m:
        return 0 if out.returncode == 0 else 10 ** 6
    return sum(int(n) for kind, n in re.findall(r'(failures|errors)=(\d+)', m.group(1)))


def compiles(root):
    for folder, dirs, files in os.walk(root):
        for name in files:
            if name.endswith('.py'):
                path = os.path.join(folder, name)
                try:
                    # What py_compile does, without writing a .pyc.
                    compile(open(path, 'rb').read(), path, 'exec', dont_inherit=True)
                except SyntaxError as error:
                    return '%s: %s' % (os.path.relpath(path, root), error)
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('eddi')
    parser.add_argument('tree')
    parser.add_argument('--limit', type=int, default=0)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--test', default=None)
    # Unsure or Leave after each command: without one, a rename that leaves
    # unsure references is refused (doc/refactoring.org, "Unsure references").
    parser.add_argument('--way', choices=['Unsure', 'Leave'], default=None)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix='eddi-systematic-')
    base = os.path.join(work, 'base')
    package = os.path.basename(os.path.normpath(args.tree))
    shutil.copytree(args.tree, os.path.join(base, package),
                    ignore=shutil.ignore_patterns('__pycache__'))
    baseline = undefined_names(base)
    baseline_failures = test_failures(args.test, base) if args.test else 0
    counts = word_counts(base)
    cases = [d for d in definitions(base) if counts[d[2]] >= 2]
    if args.limit and len(cases) > args.limit:
        random.Random(args.seed).shuffle(cases)
        cases = sorted(cases[:args.limit])
    renamed = refused = 0
    wrong, missed = [], []
    reasons = collections.Counter()
    for rel, qualified, name in cases:
        tree = os.path.join(work, 'tree')
        shutil.rmtree(tree, ignore_errors=True)
        shutil.copytree(base, tree)
        new = name + '_x'
        command = 'Refactor RenameSymbol %s:%s %s' % (rel, qualified, new)
        if args.way:
            command += ' ' + args.way
        reply = subprocess.run([args.eddi, '--root', tree, '-c', 'Start s', '-c', command],
                               capture_output=True, text=True).stdout.splitlines()
        answer = reply[-1] if reply else '(no reply)'
        if not answer.startswith('Ok'):
            refused += 1
            reason = re.sub(r' [^ ]*\.py:[0-9:]*| [A-Za-z_0-9.]+_x\b', '', answer)
            reasons[' '.join(reason.split()[:6])] += 1
            continue
        renamed += 1
        problem = compiles(tree)
        if not problem:
            now = undefined_names(tree)
            new_undefined = [k for k in now if now[k] > baseline.get(k, 0)]
            if new_undefined:
                problem = 'new undefined names: %s' % new_undefined[:3]
        if not problem and args.test:
            failures = test_failures(args.test, tree)
            if failures > baseline_failures:
                problem = 'tests: %d failing, %d before' % (failures, baseline_failures)
        if problem:
            listed = 'unsure left unchanged' in answer or 'unsure renamed too' in answer
            (missed if listed else wrong).append((command, answer, problem))
    print('definitions tried: %d, renamed: %d, refused: %d, wrong writes: %d, '
          'breaking misses listed as unsure: %d'
          % (len(cases), renamed, refused, len(wrong), len(missed)))
    for reason, n in reasons.most_common():
        print('  refused %3d  %s' % (n, reason))
    for command, answer, problem in wrong:
        print('WRONG %s\n  %s\n  %s' % (command, answer, problem))
    for command, answer, problem in missed:
        print('MISS %s\n  %s\n  %s' % (command, answer, problem))
    shutil.rmtree(work, ignore_errors=True)
    return 1 if wrong else 0


if __name__ == '__main__':
    sys.exit(main())
