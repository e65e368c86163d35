#!/usr/bin/env python3
"""Check the refactorings past rename with Python itself.

    ops_oracle.py EDDI PACKAGE_DIR [--test COMMAND] [--rope CASES] [--ops OP,OP]

1. With --rope, rope's cases (CASES: the cases/ folder of rope-refactor) of inline,
   change_signature, extract_method and move that have an eddi command:
   each runs on a fresh copy of its before/ tree; where eddi writes, every
   file must compile and pyflakes must report no undefined name the tree
   before did not have.
2. A real package (PACKAGE_DIR, copied under its own name): one at a time,
   on a fresh copy, every function and method is inlined, gets a new last
   parameter with a value for the calls, and has each statement of its body
   extracted into a new function. Where eddi writes, the result must
   compile, pyflakes must see no new undefined name and the test command
   must fail no more tests than on the untouched tree.

A write that breaks one of these is WRONG; a refusal is counted with its
reason's first words. Exit status 1 if any write was wrong.
"""
import argparse
import ast
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from systematic import undefined_names  # noqa: E402  (the same check as the renames')

OPERATIONS = ('inline', 'change_signature', 'extract_method', 'move')


def compiles(root):
    for folder, _, files in os.walk(root):
        for name in files:
            if name.endswith('.py'):
                path = os.path.join(folder, name)
                try:
                    compile(open(path, encoding='utf-8').read(), path, 'exec')
                except SyntaxError as e:
                    return '%s: %s' % (os.path.relpath(path, root), e)
    return None


def run_eddi(eddi, root, commands):
    args = [eddi, '--root', root]
    for c in commands:
        args += ['-c', c]
    out = subprocess.run(args, capture_output=True, text=True).stdout.strip().split('\n')
    return out[-1] if out else ''


def failures(root, command):
    """How many tests fail (0 when the command passes)."""
    if not command:
        return 0
    r = subprocess.run(command, shell=True, cwd=root, capture_output=True, text=True)
    if r.returncode == 0:
        return 0
    m = re.search(r'FAILED \((?:failures=(\d+))?(?:, )?(?:errors=(\d+))?', r.stderr)
    return sum(int(x) for x in m.groups() if x) if m else 1


class Tally:
    def __init__(self):
        self.counts = collections.Counter()
        self.reasons = collections.Counter()
        self.wrong = []

    def judge(self, op, label, reply, tree, before_names, before_failures=0, test=None):
        if not reply.startswith('Ok'):
            self.counts[op, 'refused'] += 1
            words = re.sub(r' at [^ ]+:\d+:\d+.*', '', reply)
            self.reasons[op, ' '.join(words.split()[:6])] += 1
            return
        broken = compiles(tree)
        if not broken:
            new = undefined_names(tree) - before_names
            if new:
                broken = 'new undefined names %s' % sorted(n for _, n in new)
        if not broken and test and failures(tree, test) > before_failures:
            broken = 'tests fail'
        if broken:
            self.counts[op, 'wrong'] += 1
            self.wrong.append('%s %s: %s (%s)' % (op, label, broken, reply))
        else:
            self.counts[op, 'ok'] += 1

    def report(self, title):
        print(title)
        for op in sorted({op for op, _ in self.counts}):
            print('  %-18s ok %4d  refused %4d  wrong %d' % (
                op, self.counts[op, 'ok'], self.counts[op, 'refused'], self.counts[op, 'wrong']))
        for (op, reason), n in sorted(self.reasons.items(), key=lambda x: -x[1])[:12]:
            print('    %-18s %3d refused: %s' % (op, n, reason))
        for w in self.wrong:
            print('  WRONG', w)


def rope_cases(eddi, cases):
    tally = Tally()
    for op in OPERATIONS:
        folder = os.path.join(cases, op)
        for case in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            spec = json.load(open(os.path.join(folder, case, 'case.json')))
            command = spec.get('eddi_command')
            if not command:
                continue
            with tempfile.TemporaryDirectory() as ws:
                tree = os.path.join(ws, 'w')
                shutil.copytree(os.path.join(folder, case, 'before'), tree)
                before = undefined_names(tree)
                commands = ['Start s']
                if op == 'extract_method':
                    commands.append('Open ' + spec['file'])
                tally.judge(op, case, run_eddi(eddi, tree, commands + [command]), tree, before)
    return tally


def functions(root):
    """(path, qualified name, function node) of module-level functions and
    methods of module-level classes."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(('.', '__pycache__')))
        for name in sorted(files):
            if not name.endswith('.py'):
                continue
            path = os.path.join(folder, name)
            tree = ast.parse(open(path, encoding='utf-8').read())
            rel = os.path.relpath(path, root)
            for node in tree.body:
                if isinstance(node, ast.FunctionDef):
                    found.append((rel, node.name, node))
                if isinstance(node, ast.ClassDef):
                    for item in node.body:
                        if isinstance(item, ast.FunctionDef):
                            found.append((rel, node.name + '.' + item.name, item))
    return found


def package(eddi, source, test, ops):
    tally = Tally()
    name = os.path.basename(os.path.normpath(source))
    with tempfile.TemporaryDirectory() as ws:
        pristine = os.path.join(ws, 'pristine')
        shutil.copytree(source, os.path.join(pristine, name),
                        ignore=shutil.ignore_patterns('__pycache__'))
        before = undefined_names(pristine)
        before_failures = failures(pristine, test)
        jobs = []
        for rel, qual, node in functions(pristine):
            spec = '%s:%s' % (rel, qual)
            jobs.append(('inline', spec, ['Refactor InlineFunction ' + spec]))
            args = [a.arg for a in node.args.args]
            if not node.args.vararg and not node.args.kwarg and not node.args.kwonlyargs and \
                    not node.args.defaults and not node.decorator_list:
                implied = 1 if '.' in qual and args and args[0] in ('self', 'cls') else 0
                old = ', '.join(args[implied:])
                new = ', '.join(args[implied:] + ['oracle_extra:=None'])
                jobs.append(('change_signature', spec,
                             ['Refactor Signature %s(%s) %s(%s)' % (spec, old, spec, new)]))
            for statement in node.body:
                jobs.append(('extract_method', '%s:%d' % (rel, statement.lineno - 1),
                             ['Open ' + rel, 'Refactor Extract_Method oracle_part lines %d:%d' % (
                                 statement.lineno - 1, statement.end_lineno - 1)]))
        for op, label, commands in jobs:
            if ops and op not in ops:
                continue
            tree = os.path.join(ws, 'w')
            shutil.rmtree(tree, ignore_errors=True)
            shutil.copytree(pristine, tree)
            reply = run_eddi(eddi, tree, ['Start s'] + commands)
            tally.judge(op, label, reply, tree, before, before_failures, test)
    return tally


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('eddi')
    parser.add_argument('package')
    parser.add_argument('--test')
    parser.add_argument('--rope')
    parser.add_argument('--ops', help='only these operations (inline, change_signature, '
                        'extract_method), comma-separated')
    args = parser.parse_args()
    wrong = 0
    if args.rope:
        tally = rope_cases(args.eddi, args.rope)
        tally.report('rope cases (compile, no new undefined name):')
        wrong += len(tally.wrong)
    tally = package(args.eddi, args.package, args.test,
                    set(args.ops.split(',')) if args.ops else None)
    tally.report('%s, every function (compile, pyflakes, tests):' % args.package)
    wrong += len(tally.wrong)
    return 1 if wrong else 0


if __name__ == '__main__':
    sys.exit(main())
