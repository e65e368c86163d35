#!/usr/bin/env python3
"""Run the class refactorings over a real package and check every write.

    class_systematic.py EDDI PACKAGE_DIR [--test COMMAND] [--limit N]

The package is copied under its own name into a temporary folder; then,
one at a time on a fresh copy, for every module-level class C:
  - Change_Inheritance: its only base dropped to object, and (when C has
    none) object replaced by each of the two classes before it;
  - ExtractClass and Split_Class of each of its methods (not dunders) and
    of each field its __init__ sets, one member at a time, into Part;
  - Merge_Classes of C with the next class of its module.
Where eddi writes, every file must compile, pyflakes must see no new
undefined name, and COMMAND (run in the copy's parent) must fail no more
than on the untouched tree. A write that breaks one of these is WRONG,
unless eddi listed unsure references it left (a MISS). Refusals are
counted by their reason's first words. Exit status 1 if any write was
wrong.
"""
import argparse
import ast
import collections
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from systematic import compiles, test_failures, undefined_names  # noqa: E402  (the renames' checks)


# The earlier classes of its module a class without bases is given as a
# base, one at a time.
EARLIER_MAX = 2


def commands(package, name):
    """The class refactorings to try, as Refactor commands."""
    out = []
    for folder, _, files in sorted(os.walk(package)):
        for f in sorted(files):
            if not f.endswith('.py'):
                continue
            path = os.path.join(folder, f)
            rel = os.path.join(name, os.path.relpath(path, package))
            try:
                tree = ast.parse(open(path, encoding='utf-8').read())
            except SyntaxError:
                continue
            classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
            for i, c in enumerate(classes):
                spec = '%s:%s' % (rel, c.name)
                if len(c.bases) == 1:
                    out.append('Refactor Change_Inheritance %s %s object'
                               % (spec, ast.unparse(c.bases[0])))
                elif not c.bases:
                    for earlier in classes[max(0, i - EARLIER_MAX):i]:
                        out.append('Refactor Change_Inheritance %s %s' % (spec, earlier.name))
                members = [m.name for m in c.body
                           if isinstance(m, ast.FunctionDef) and not m.name.startswith('__')]
                for m in c.body:
                    if isinstance(m, ast.FunctionDef) and m.name == '__init__':
                        for s in m.body:
                            if isinstance(s, ast.Assign) and len(s.targets) == 1:
                                t = s.targets[0]
                                if (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                                        and t.value.id == 'self'):
                                    members.append(t.attr)
                for m in members:
                    out.append('Refactor ExtractClass %s Part %s' % (spec, m))
                    out.append('Refactor Split_Class %s Part %s' % (spec, m))
                for later in classes[i + 1:i + 2]:
                    out.append('Refactor Merge_Classes %s %s:%s Merged' % (spec, rel, later.name))
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('eddi')
    parser.add_argument('package')
    parser.add_argument('--test')
    parser.add_argument('--limit', type=int, default=0)
    args = parser.parse_args()
    name = os.path.basename(os.path.normpath(args.package))
    work = tempfile.mkdtemp(prefix='eddi-class-systematic-')
    state = os.path.join(work, 'state')
    untouched = os.path.join(work, 'untouched')
    shutil.copytree(args.package, os.path.join(untouched, name))
    known = undefined_names(untouched)
    base_failures = test_failures(args.test, untouched) if args.test else 0
    todo = commands(args.package, name)
    if args.limit:
        todo = todo[:args.limit]
    counts = collections.Counter()
    refusals = collections.Counter()
    wrong = 0
    try:
        for command in todo:
            tree = os.path.join(work, 'tree')
            shutil.rmtree(tree, ignore_errors=True)
            shutil.copytree(untouched, tree)
            shutil.rmtree(state, ignore_errors=True)
            reply = subprocess.run([args.eddi, '--root', tree, '-c', 'Start s', '-c', command],
                                   capture_output=True, text=True,
                                   env=dict(os.environ, XDG_STATE_HOME=state)).stdout.splitlines()
            answer = reply[-1] if reply else '(no reply)'
            op = command.split()[1]
            if not answer.startswith('Ok, '):
                counts[op, 'refused'] += 1
                reason = answer.split(' at ')[0].split(':')[0:2]
                refusals[op + ': ' + ':'.join(reason)[:70]] += 1
                continue
            counts[op, 'written'] += 1
            problems = []
            broken = compiles(tree)
            if broken:
                problems.append('does not compile: ' + broken)
            new = undefined_names(tree) - known
            if new:
                problems.append('new undefined names: ' + ', '.join(sorted(new)))
            if args.test and test_failures(args.test, tree) > base_failures:
                problems.append('the tests fail')
            if problems and 'unsure left unchanged' in answer:
                counts[op, 'miss'] += 1
                print('MISS: %s\n  %s\n  %s' % (command, answer, '\n  '.join(problems)))
            elif problems:
                counts[op, 'wrong'] += 1
                wrong += 1
                print('WRONG: %s\n  %s\n  %s' % (command, answer, '\n  '.join(problems)))
        for op in ('Change_Inheritance', 'ExtractClass', 'Split_Class', 'Merge_Classes'):
            print('%-20s written %3d  refused %3d  wrong %d  listed misses %d'
                  % (op, counts[op, 'written'], counts[op, 'refused'], counts[op, 'wrong'],
                     counts[op, 'miss']))
        for reason, n in refusals.most_common():
            print('  refused %3d  %s' % (n, reason))
        return 1 if wrong else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
