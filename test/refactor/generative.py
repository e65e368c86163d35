#!/usr/bin/env python3
"""The generative correctness run: every Python refactoring over real
projects, each write judged by the project's own tests.

    generative.py EDDI --project NAME TREE TEST [--project ...] [--limit N] [--seed S]
                  [--ops OP,OP] [--verbose]

TREE is a project's workspace: its package at the top (a src/ layout's
package copied up) and its tests; TEST the command that runs them in the
workspace ('' for none: compile and pyflakes only). For each project the
harnesses' cases are gathered: every rename target (systematic.py:
functions, methods, classes, attributes, parameters, modules), every
operation on every function (ops_oracle.py: InlineFunction, four Signature
changes, Extract_Method of each statement, Inline_Variable) and every
class operation (class_systematic.py). With --limit, N cases of each
operation are drawn with --seed, every kind of target getting its share
(pyharness.sample). Each runs on a fresh copy and each write is judged by
pyharness.Oracle. The table counts, per project and operation, the cases
tried, written, refused, wrong and the listed misses; then the refusals'
reasons and every wrong write and miss. Exit status 1 if any write was
wrong.
"""
import argparse
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import class_systematic  # noqa: E402
import ops_oracle  # noqa: E402
import pyharness  # noqa: E402
import systematic  # noqa: E402


def project_cases(base, test):
    keep = re.findall(r'\w+', test or '')
    return (systematic.rename_cases(base, keep=keep) + ops_oracle.op_cases(base)
            + class_systematic.class_cases(base))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('eddi')
    parser.add_argument('--project', nargs=3, action='append', required=True,
                        metavar=('NAME', 'TREE', 'TEST'))
    parser.add_argument('--limit', type=int, default=0)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--ops', help='only these operations, comma-separated')
    parser.add_argument('--reasons', type=int, default=3,
                        help='refusal reasons shown per operation')
    parser.add_argument('--verbose', action='store_true', help='a line per case on stderr')
    args = parser.parse_args()
    ops = set(args.ops.split(',')) if args.ops else None
    tally = pyharness.Tally()
    progress = (lambda line: print(line, file=sys.stderr, flush=True)) if args.verbose else None
    for name, tree, test in args.project:
        work = tempfile.mkdtemp(prefix='eddi-generative-')
        try:
            base = pyharness.workspace_of(tree, work)
            cases = [c for c in project_cases(base, test) if not ops or c.op in ops]
            pyharness.run_cases(args.eddi, base, pyharness.choose(cases, args.limit, args.seed),
                                test or None, project=name, tally=tally, progress=progress)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    tally.report(args.reasons)
    print('written %d, refused %d, wrong %d, listed misses %d' % (
        tally.total('written'), tally.total('refused'), tally.total('wrong'),
        tally.total('miss')))
    return 1 if tally.wrong else 0


if __name__ == '__main__':
    sys.exit(main())
