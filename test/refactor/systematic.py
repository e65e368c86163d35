#!/usr/bin/env python3
"""Rename every function, class, method, attribute, parameter and module of
a real Python tree, one at a time, and check each result with Python itself.

    systematic.py EDDI PACKAGE_DIR [--limit N] [--seed S] [--test COMMAND] [--way Unsure|Leave]

The package is copied under its own name into a workspace (so that its
absolute imports resolve inside it). The targets are the definitions of
its code (not of its tests, which are the oracle) whose name occurs at
least twice in the package (as a word): module-level functions and
classes, methods of module-level classes, the attributes their methods
set through self, the parameters of those functions and methods, and the
modules (renamed as a dotted name: the file moves). With --limit, N of
them are drawn with --seed, every kind of target (and, within a kind,
those with an aliased import or a module-qualified use) getting its share
(pyharness.sample). A fresh copy gets `Refactor RenameSymbol
pkg/path.py:Qualified.name name_x` through the eddi CLI; each write is
judged by pyharness.Oracle (compile, pyflakes, the test command, e.g.
"python3 -m unittest discover -s pkg/tests -t ."). Without --way, a
rename that would leave unsure references is refused. The tree is never
written in place. Exit status 1 if any write was wrong.
"""
import argparse
import ast
import collections
import os
import re
import sys
import tempfile
import shutil

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pyharness  # noqa: E402

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def is_dunder(name):
    return name.startswith('__') and name.endswith('__')


def parameters(node):
    """The names of a function's parameters, without self and cls."""
    a = node.args
    names = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
    if a.vararg:
        names.append(a.vararg.arg)
    if a.kwarg:
        names.append(a.kwarg.arg)
    return [n for n in names if n not in ('self', 'cls')]


def self_attributes(cls):
    """The attributes a class's methods set through self, in order."""
    out = []
    for item in cls.body:
        if isinstance(item, FUNCTIONS):
            for node in ast.walk(item):
                targets = node.targets if isinstance(node, ast.Assign) else \
                    [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
                for t in targets:
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and \
                            t.value.id == 'self' and t.attr not in out:
                        out.append(t.attr)
    return out


def definitions(root, code_only=True):
    """(kind, path, qualified name, name) of every rename target."""
    found = []
    for rel, _, tree in pyharness.code_modules(root, code_only):
        module = rel[:-3].replace(os.sep, '.')
        if module.endswith('.__init__'):
            module = module[:-len('.__init__')]
        found.append(('module', rel, module, module.split('.')[-1]))
        for node in tree.body:
            if isinstance(node, FUNCTIONS):
                found.append(('function', rel, node.name, node.name))
                for p in parameters(node):
                    found.append(('parameter', rel, node.name + '.' + p, p))
            if isinstance(node, ast.ClassDef):
                found.append(('class', rel, node.name, node.name))
                for item in node.body:
                    if isinstance(item, FUNCTIONS) and not is_dunder(item.name):
                        found.append(('method', rel, node.name + '.' + item.name, item.name))
                    if isinstance(item, FUNCTIONS) and item.name != '__call__':
                        for p in parameters(item):
                            found.append(('parameter', rel,
                                          '%s.%s.%s' % (node.name, item.name, p), p))
                for attr in self_attributes(node):
                    if not is_dunder(attr):
                        found.append(('attribute', rel, node.name + '.' + attr, attr))
    return found


def texts(root):
    return [open(os.path.join(root, rel), encoding='utf-8', errors='replace').read()
            for rel in pyharness.python_files(root)]


def how_used(name, sources):
    """'aliased' when some import binds NAME under another name,
    'qualified' when some code reaches it as module.NAME, else ''."""
    alias = re.compile(r'\b%s\s+as\s+\w+' % re.escape(name))
    qualified = re.compile(r'\b[a-z_][a-z_0-9]*\.%s\b' % re.escape(name))
    if any(alias.search(t) for t in sources):
        return 'aliased'
    if any(qualified.search(t) and not re.search(r'\bself\.%s\b' % re.escape(name), t)
           for t in sources):
        return 'qualified'
    return ''


def rename_cases(root, way=None, code_only=True, keep=()):
    """The renames of ROOT's targets, as pyharness.Case; not of the
    modules KEEP names (the test command's path to its tests)."""
    counts = collections.Counter()
    sources = texts(root)
    for text in sources:
        counts.update(re.findall(r'[A-Za-z_][A-Za-z0-9_]*', text))
    cases = []
    for kind, rel, qualified, name in definitions(root, code_only):
        if counts[name] < 2 or (kind == 'module' and name in keep):
            continue
        new = name + '_x'
        if kind == 'module':
            command = 'Refactor RenameSymbol %s %s' % (qualified, new)
            op = 'rename module (move)'
        else:
            command = 'Refactor RenameSymbol %s:%s %s' % (rel, qualified, new)
            op = 'rename'
        if way:
            command += ' ' + way
        stratum = kind + ('/' + how_used(name, sources) if how_used(name, sources) else '')
        cases.append(pyharness.Case(op, stratum, [command], names=(name, new, qualified)))
    return cases


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
    try:
        base = pyharness.workspace_of(args.tree, work, as_package=True)
        keep = re.findall(r'\w+', args.test or '')
        cases = pyharness.choose(rename_cases(base, args.way, keep=keep), args.limit, args.seed)
        tally = pyharness.run_cases(args.eddi, base, cases, args.test,
                                    project=os.path.basename(os.path.normpath(args.tree)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    tally.report()
    return 1 if tally.wrong else 0


if __name__ == '__main__':
    sys.exit(main())
