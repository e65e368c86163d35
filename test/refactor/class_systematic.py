#!/usr/bin/env python3
"""Run the class refactorings over a real package and check every write.

    class_systematic.py EDDI PACKAGE_DIR [--test COMMAND] [--limit N] [--seed S]

The package is copied under its own name into a temporary folder; then,
one at a time on a fresh copy, for every module-level class C of its code
(not its tests):
  - Change_Inheritance: its only base dropped to object, and (when C has
    none) object replaced by each of the two classes before it;
  - ExtractClass and Split_Class of each of its methods (not dunders) and
    of each field its __init__ sets, one member at a time, into Part;
  - Merge_Classes of C with the next class of its module;
  - Move_Method of each of its methods to the class of an attribute known
    to hold one (self.a = B(...), or a = B() in the class body);
  - Extract_Interface of its public methods into CProtocol.
With --limit, N cases of each operation are drawn with --seed
(pyharness.sample). Each write is judged by pyharness.Oracle: it compiles,
pyflakes sees no new undefined name, COMMAND (run in the copy) fails no
more than on the untouched tree. A write that breaks one of these is
WRONG, unless eddi listed unsure references it left (a MISS). Refusals are
counted by their reason. Exit status 1 if any write was wrong.
"""
import argparse
import ast
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pyharness  # noqa: E402


# The earlier classes of its module a class without bases is given as a
# base, one at a time.
EARLIER_MAX = 2


def held_classes(c, classes):
    """(attribute, class name) of C's attributes known to hold an instance
    of a workspace class CLASSES names: self.a = B(...) or a = B()."""
    out = []
    for node in ast.walk(c):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) and \
                node.value.func.id in classes and node.value.func.id != c.name:
            t = node.targets[0]
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and \
                    t.value.id == 'self':
                out.append((t.attr, node.value.func.id))
            elif isinstance(t, ast.Name) and node in c.body:
                out.append((t.id, node.value.func.id))
    return out


def class_cases(root, code_only=True):
    """The class refactorings to try, as pyharness.Case."""
    modules = []
    for rel, _, tree in pyharness.code_modules(root, code_only):
        modules.append((rel, [n for n in tree.body if isinstance(n, ast.ClassDef)]))
    where = {}
    for rel, classes in modules:
        for c in classes:
            where.setdefault(c.name, []).append(rel)
    unique = {name: rels[0] for name, rels in where.items() if len(rels) == 1}
    out = []

    def add(op, kind, command, names):
        out.append(pyharness.Case(op, kind, [command], names))
    for rel, classes in modules:
        for i, c in enumerate(classes):
            spec = '%s:%s' % (rel, c.name)
            if len(c.bases) == 1:
                add('Change_Inheritance', 'drop base', 'Refactor Change_Inheritance %s %s object'
                    % (spec, ast.unparse(c.bases[0])), (c.name,))
            elif not c.bases:
                for earlier in classes[max(0, i - EARLIER_MAX):i]:
                    add('Change_Inheritance', 'add base', 'Refactor Change_Inheritance %s %s'
                        % (spec, earlier.name), (c.name, earlier.name))
            methods = [m.name for m in c.body
                       if isinstance(m, ast.FunctionDef) and not m.name.startswith('__')]
            fields = []
            for m in c.body:
                if isinstance(m, ast.FunctionDef) and m.name == '__init__':
                    for s in m.body:
                        if isinstance(s, ast.Assign) and len(s.targets) == 1:
                            t = s.targets[0]
                            if (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                                    and t.value.id == 'self'):
                                fields.append(t.attr)
            for kind, members in (('method', methods), ('field', fields)):
                for m in members:
                    add('ExtractClass', kind, 'Refactor ExtractClass %s Part %s' % (spec, m),
                        (c.name, m))
                    add('Split_Class', kind, 'Refactor Split_Class %s Part %s' % (spec, m),
                        (c.name, m))
            for later in classes[i + 1:i + 2]:
                add('Merge_Classes', 'next class', 'Refactor Merge_Classes %s %s:%s Merged'
                    % (spec, rel, later.name), (c.name, later.name))
            for attr, held in held_classes(c, unique):
                for m in methods:
                    add('Move_Method', 'method', 'Refactor Move_Method %s.%s %s:%s.%s_moved' % (
                        spec, m, unique[held], held, m), (c.name, m, held, attr))
            if methods:
                add('Extract_Interface', 'class', 'Refactor Extract_Interface %s %sProtocol'
                    % (spec, c.name), (c.name, c.name + 'Protocol'))
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('eddi')
    parser.add_argument('package')
    parser.add_argument('--test')
    parser.add_argument('--limit', type=int, default=0)
    parser.add_argument('--seed', type=int, default=1)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix='eddi-class-systematic-')
    try:
        base = pyharness.workspace_of(args.package, work, as_package=True)
        cases = pyharness.choose(class_cases(base), args.limit, args.seed)
        tally = pyharness.run_cases(args.eddi, base, cases, args.test,
                                    project=os.path.basename(os.path.normpath(args.package)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    tally.report()
    return 1 if tally.wrong else 0


if __name__ == '__main__':
    sys.exit(main())
