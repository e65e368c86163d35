#!/usr/bin/env python3
"""Check the refactorings past rename with Python itself.

    ops_oracle.py EDDI PACKAGE_DIR [--test COMMAND] [--rope CASES] [--ops OP,OP]
                  [--limit N] [--seed S]

1. With --rope, rope's cases (CASES: the cases/ folder of rope-refactor) of inline,
   change_signature, extract_method and move that have an eddi command:
   each runs on a fresh copy of its before/ tree; where eddi writes, every
   file must compile and pyflakes must report no undefined name the tree
   before did not have.
2. A real package (PACKAGE_DIR, copied under its own name): one at a time,
   on a fresh copy, every function and method of its code (not its tests)
   is inlined; its signature changed four ways (a new last parameter with
   a value for the calls, the last parameter removed, the parameters
   reversed, the first one renamed); each statement of its body extracted
   into a new function; each of its local variables assigned once, and
   each module-level one, inlined. With --limit, N cases of each operation
   are drawn with --seed (pyharness.sample). Each write is judged by
   pyharness.Oracle: it compiles, pyflakes sees no new undefined name, the
   test command fails no more tests than on the untouched tree.

A write that breaks one of these is WRONG (a MISS when eddi listed the
unsure references it left); a refusal is counted with its reason. Exit
status 1 if any write was wrong.
"""
import argparse
import ast
import collections
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pyharness  # noqa: E402

ROPE_OPERATIONS = ('inline', 'change_signature', 'extract_method', 'move')
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def rope_cases(eddi, cases):
    tally = pyharness.Tally()
    for op in ROPE_OPERATIONS:
        folder = os.path.join(cases, op)
        for case in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            spec = json.load(open(os.path.join(folder, case, 'case.json')))
            command = spec.get('eddi_command')
            if not command:
                continue
            with tempfile.TemporaryDirectory() as ws:
                tree = os.path.join(ws, 'w')
                shutil.copytree(os.path.join(folder, case, 'before'), tree)
                oracle = pyharness.Oracle(tree)
                commands = ['Open ' + spec['file']] if op == 'extract_method' else []
                reply = pyharness.run_eddi(eddi, tree, commands + [command],
                                           os.path.join(ws, 'state'))
                problem = oracle.problem(tree) if reply.startswith('Ok') else None
                tally.record('rope', op, case, reply, problem)
    return tally


def functions(root, code_only=True):
    """(path, qualified name, function node, source) of module-level
    functions and methods of module-level classes."""
    found = []
    for rel, text, tree in pyharness.code_modules(root, code_only):
        for node in tree.body:
            if isinstance(node, FUNCTIONS):
                found.append((rel, node.name, node, text))
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, FUNCTIONS):
                        found.append((rel, node.name + '.' + item.name, item, text))
    return found


def parameter_list(node, text):
    """The parameters as the definition writes them, one string each (a
    marker * or / and *args, **kw as written), or None when a default
    cannot be spelled inside a quoted argument."""
    a = node.args
    positional = a.posonlyargs + a.args
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    out = []
    for i, (p, d) in enumerate(zip(positional, defaults)):
        out.append(p.arg if d is None else '%s=%s' % (p.arg, ast.get_source_segment(text, d)))
        if a.posonlyargs and i == len(a.posonlyargs) - 1:
            out.append('/')
    if a.vararg:
        out.append('*' + a.vararg.arg)
    elif a.kwonlyargs:
        out.append('*')
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        out.append(p.arg if d is None else '%s=%s' % (p.arg, ast.get_source_segment(text, d)))
    if a.kwarg:
        out.append('**' + a.kwarg.arg)
    if any(s is None or '"' in s or '\n' in s or '\\' in s for s in out):
        return None
    return out


def signature_changes(qual, node, text):
    """(operation, old list, new list) of the four Signature changes."""
    params = parameter_list(node, text)
    if params is None:
        return []
    implied = 1 if '.' in qual and params and params[0] in ('self', 'cls') else 0
    old = params[implied:]
    plain = [p for p in old if p[0] not in '*/']
    # Added last, or before *args, **kwargs and the markers.
    at = next((i for i, p in enumerate(old) if p[0] in '*/'), len(old))
    changes = [('signature add', old, old[:at] + ['oracle_extra:=None'] + old[at:])]
    if plain:
        last = plain[-1]
        changes.append(('signature remove', old, [p for p in old if p != last]))
        first = plain[0]
        renamed = first.split('=')[0] + '_x' + ('=' + first.split('=', 1)[1] if '=' in first else '')
        changes.append(('signature rename', old, [renamed if p == first else p for p in old]))
    # Reversed among those without a default and among those with one, so
    # that the new list is a valid one.
    required = [p for p in plain if '=' not in p]
    defaulted = [p for p in plain if '=' in p]
    if len(required) >= 2 or len(defaulted) >= 2:
        swap = dict(zip(required, reversed(required)))
        swap.update(zip(defaulted, reversed(defaulted)))
        changes.append(('signature reorder', old, [swap.get(p, p) for p in old]))
    return changes


def assigned_once(body):
    """The names assigned exactly once, by a plain single-name assignment,
    in the statements BODY holds (not in nested functions or classes)."""
    counts = collections.Counter()
    plain = set()

    def visit(node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                  ast.Lambda)):
                counts[getattr(child, 'name', None)] += 1
                continue
            if isinstance(child, ast.Name) and isinstance(child.ctx, (ast.Store, ast.Del)):
                counts[child.id] += 1
            if isinstance(child, ast.Assign) and len(child.targets) == 1 and \
                    isinstance(child.targets[0], ast.Name):
                plain.add(child.targets[0].id)
            visit(child)
    for statement in body:
        visit(ast.Module(body=[statement], type_ignores=[]))
    return [n for n in sorted(plain) if counts[n] == 1]


def op_cases(root, code_only=True):
    """The operations' cases over ROOT's functions, as pyharness.Case."""
    cases = []
    for rel, qual, node, text in functions(root, code_only):
        spec = '%s:%s' % (rel, qual)
        kind = 'method' if '.' in qual else 'function'
        names = (qual, qual.split('.')[-1])
        cases.append(pyharness.Case('inline', kind, ['Refactor InlineFunction ' + spec], names))
        for op, old, new in signature_changes(qual, node, text):
            cases.append(pyharness.Case(op, kind, ['Refactor Signature "%s(%s)" "%s(%s)"' % (
                spec, ', '.join(old), spec, ', '.join(new))], names))
        for statement in node.body:
            cases.append(pyharness.Case('extract', kind, [
                'Open ' + rel, 'Refactor Extract_Method oracle_part lines %d:%d' % (
                    statement.lineno - 1, statement.end_lineno - 1)], names + ('oracle_part',)))
        for var in assigned_once(node.body):
            cases.append(pyharness.Case('inline variable', 'local',
                                        ['Refactor Inline_Variable %s.%s' % (spec, var)],
                                        names + (var,)))
    for rel in pyharness.python_files(root):
        if code_only and pyharness.is_test_file(rel):
            continue
        _, tree = pyharness.parse(root, rel)
        if tree is not None:
            for var in assigned_once(tree.body):
                if var != '__all__':
                    cases.append(pyharness.Case('inline variable', 'module',
                                                ['Refactor Inline_Variable %s:%s' % (rel, var)],
                                                (var,)))
    return cases


OPS = ('inline', 'signature add', 'signature remove', 'signature reorder', 'signature rename',
       'extract', 'inline variable')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('eddi')
    parser.add_argument('package')
    parser.add_argument('--test')
    parser.add_argument('--rope')
    parser.add_argument('--ops', help='only these operations (%s), comma-separated'
                        % ', '.join(OPS))
    parser.add_argument('--limit', type=int, default=0)
    parser.add_argument('--seed', type=int, default=1)
    args = parser.parse_args()
    wrong = 0
    if args.rope:
        tally = rope_cases(args.eddi, args.rope)
        tally.report()
        wrong += len(tally.wrong)
    ops = set(args.ops.split(',')) if args.ops else None
    work = tempfile.mkdtemp(prefix='eddi-ops-oracle-')
    try:
        base = pyharness.workspace_of(args.package, work, as_package=True)
        cases = [c for c in op_cases(base) if not ops or c.op in ops]
        tally = pyharness.run_cases(args.eddi, base,
                                    pyharness.choose(cases, args.limit, args.seed), args.test,
                                    project=os.path.basename(os.path.normpath(args.package)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    tally.report()
    wrong += len(tally.wrong)
    return 1 if wrong else 0


if __name__ == '__main__':
    sys.exit(main())
