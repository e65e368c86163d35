#!/usr/bin/env python3
"""Run the operations past rename all over a real C, JavaScript or
TypeScript tree, one at a time, and check each result with the language's
own tools.

    ops_langs.py EDDI c|js|ts TREE [--run FILE] [--test CMD] [--tsc CMD]
                 [--limit N] [--seed S] [--operations OP,...]
                 C: [--exclude PATH]... [--setup CMD] [--cflags FLAGS]

For every line of every source file a fresh copy of the tree gets
`Refactor ExtractFunction path:L:M fx_tmp`, M the line where the brackets
opened on L close (L itself for most lines); for every `const x =` / `let
x =` (C: a local `int x =` and the like) `Refactor Inline_Variable
path:L:C`; for every function `Refactor InlineFunction path:L:C`; and for
every JavaScript or TypeScript function and method with named parameters
four `Refactor Signature` changes: the parameters reversed (reorder), one
added at the end with a default, the last removed, the last renamed; for
every TypeScript class `Refactor Extract_Interface`; for every method of
a class with a field that holds another class's instance (`this.f = new
B(` in the class, or a field `f = new B(`) `Refactor Move_Method
path:A.m B.m_moved`; for every class `Refactor Change_Inheritance path:A
B` with each class B defined above it in its file, and `path:A object`
when A has a base; `Refactor ExtractClass` and `Refactor Split_Class` of
each member of each class alone, of each field with the methods that
read it, and of each member with all it reaches through this; `Refactor Merge_Classes` of each class with the next in its
file. A
random sample of --limit of them all, the same share for each operation.
When eddi writes, the tree must still work: C: every .c file under src/
compiles (implicit declarations are errors), links and the program prints
what it printed, or for a real project (--cflags, --setup, --exclude, as
systematic_langs.py takes them) every .c file compiles, the objects leave
no more symbols undefined than before and --test passes; JavaScript and TypeScript: js_oracle.py (node --check,
the type check CMD, the project's tests CMD, FILE copied into the tree's
root prints what it printed). A write that breaks it is WRONG, or a
listed MISS when eddi listed unsure references it left. Exit status 1 if
any was wrong.
"""
import argparse
import collections
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

import js_oracle
import systematic_langs

def c_check(root):
    out = subprocess.run('cc -Wall -Werror=implicit-function-declaration -o prog src/*.c && ./prog',
                         shell=True, cwd=root, capture_output=True, text=True)
    return out.stdout if out.returncode == 0 else None


SIGNATURE_TARGET = re.compile(
    r'^\s*(?:export\s+(?:default\s+)?)?(?:async\s+)?function\s+([A-Za-z_$][\w$]*)\s*(?:<[^(]*>)?\(|'
    r'^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:function\s*)?\(')
METHOD = re.compile(r'^(\s+)(?:(?:public|private|protected|static|async|override)\s+)*'
                    r'([A-Za-z_$][\w$]*)\s*(?:<[^(]*>)?\(')
CLASS = re.compile(r'^(?:export\s+(?:default\s+)?)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)')
KEYWORDS = {'if', 'for', 'while', 'switch', 'catch', 'function', 'constructor', 'return', 'super'}


def signatures(rel, i, line, klass):
    """The Signature commands for the function or method defined on LINE
    (qualified Class.m inside KLASS), or none."""
    m = SIGNATURE_TARGET.match(line)
    name = m and (m.group(1) or m.group(2))
    if m and line[0].isspace():
        # A nested function has no name of its own: named by its place.
        name = '%d:%d' % (i, m.start(1) if m.group(1) else m.start(2))
    if not m and klass:
        m = METHOD.match(line)
        if m and m.group(2) not in KEYWORDS and line.rstrip().endswith('{'):
            name = klass + '.' + m.group(2)
        else:
            m = None
    if not m:
        return []
    params = js_oracle.parameters(line, line.index('(', m.end() - 1))
    if not params or any(p[2] for p in params):
        return []
    names = [p[0] for p in params]
    old = '%s:%s(%s)' % (rel, name, ', '.join(names))
    new = lambda ps: '%s:%s(%s)' % (rel, name, ', '.join(ps))
    out = [('Signature add', 'Refactor Signature %s %s' % (old, new(names + ['extra_z = 0']))),
           ('Signature remove', 'Refactor Signature %s %s' % (old, new(names[:-1]))),
           ('Signature rename', 'Refactor Signature %s %s' % (old, new(names[:-1] + [names[-1] + '_r'])))]
    if len(names) >= 2:
        out.append(('Signature reorder', 'Refactor Signature %s %s' % (old, new(names[::-1]))))
    return out


HOLDER = re.compile(r'^\s+(?:(?:public|private|protected|readonly)\s+)*(?:this\.)?([A-Za-z_$][\w$]*)'
                    r'\s*(?::[^=]*)?=\s*new\s+(?:[\w$]+\.)*([A-Z][\w$]*)\s*\(')


def moves(rel, lines, where):
    """Move_Method of each method of each class holding another's instance
    (WHERE: the file defining each class name once)."""
    out, klass, methods, held = [], None, [], set()
    for i, line in enumerate(lines + ['}']):
        m = CLASS.match(line)
        if m or line.startswith('}'):
            for b in sorted(held - {klass}):
                if b in where:
                    out.extend(('Move_Method', 'Refactor Move_Method %s:%s.%s %s:%s.%s_moved'
                                % (rel, klass, name, where[b], b, name)) for name in methods)
            klass, methods, held = (m.group(1) if m else None), [], set()
            continue
        if not klass:
            continue
        h = HOLDER.match(line)
        if h:
            held.add(h.group(2))
        m = METHOD.match(line)
        if m and m.group(2) not in KEYWORDS and line.rstrip().endswith('{') and \
                len(m.group(1)) <= 4 and m.group(2) not in methods:
            methods.append(m.group(2))
    return out


EXTENDS = re.compile(r'^(?:export\s+(?:default\s+)?)?(?:abstract\s+)?class\s+[A-Za-z_$][\w$]*'
                     r'(?:<[^>]*>)?\s+extends\s+([A-Za-z_$][\w.$]*)')


def inheritances(rel, lines):
    """Change_Inheritance of each class to each class above it, and to none."""
    out, above = [], []
    for line in lines:
        m = CLASS.match(line)
        if not m:
            continue
        klass, base = m.group(1), EXTENDS.match(line)
        base = base and base.group(1)
        if base:
            out.append(('Change_Inheritance', 'Refactor Change_Inheritance %s:%s object' % (rel, klass)))
        out.extend(('Change_Inheritance', 'Refactor Change_Inheritance %s:%s %s:%s'
                    % (rel, klass, rel, b)) for b in above if b != base)
        above.append(klass)
    return out


CONSTRUCTOR_SET = re.compile(r'^\s+this\.([A-Za-z_$][\w$]*)\s*=[^=]')
CLASS_FIELD = re.compile(r'^(\s+)(?:(?:public|private|protected|readonly|declare)\s+)*'
                         r'([A-Za-z_$][\w$]*)\s*[?!]?\s*(?::[^=;(]*)?(?:=[^=>]|;)')


def class_parts(rel, lines):
    """ExtractClass and Split_Class of each member of each class (its
    methods, the fields its constructor sets, its class fields) alone, and
    of each field together with the methods that read it through this;
    Merge_Classes of each class with the next one in its file."""
    out, classes = [], []
    klass, members, fields, bodies = None, [], [], {}
    for line in lines + ['}']:
        m = CLASS.match(line)
        if m or line.startswith('}'):
            if klass:
                classes.append(klass)
                uses = {n: [u for u in members if u != n and
                            re.search(r'this\.%s\b' % re.escape(u), bodies.get(n, ''))]
                        for n in members}
                groups = [[name] for name in members]
                groups += [[field] + [n for n in members if n not in fields and
                                      re.search(r'this\.%s\b' % re.escape(field), bodies.get(n, ''))]
                           for field in fields]
                # Each member with what it reaches through this, and so on:
                # the groups a move may take whole.
                for seed in members:
                    group, todo = [seed], [seed]
                    while todo:
                        for u in uses.get(todo.pop(), []):
                            if u not in group:
                                group.append(u), todo.append(u)
                    if 1 < len(group) < len(members):
                        groups.append(group)
                for group in [g for n, g in enumerate(groups) if g not in groups[:n]]:
                    spec = '%s:%s %s_part %s' % (rel, klass, klass, ','.join(group))
                    out.append(('ExtractClass', 'Refactor ExtractClass ' + spec))
                    out.append(('Split_Class', 'Refactor Split_Class ' + spec))
            klass, members, fields, bodies, current = (m.group(1) if m else None), [], [], {}, None
            continue
        if not klass:
            continue
        method = METHOD.match(line)
        field = CLASS_FIELD.match(line)
        if method and method.group(2) not in KEYWORDS and line.rstrip().endswith('{') and \
                len(method.group(1)) <= 4:
            current = method.group(2)
            if current not in members:
                members.append(current)
        elif field and len(field.group(1)) <= 4 and field.group(2) not in members:
            members.append(field.group(2)), fields.append(field.group(2))
        elif current:
            setter = CONSTRUCTOR_SET.match(line)
            if current == 'constructor' and setter and setter.group(1) not in members:
                members.append(setter.group(1)), fields.append(setter.group(1))
            bodies[current] = bodies.get(current, '') + line
    if 'constructor' in members:
        members.remove('constructor')
    out.extend(('Merge_Classes', 'Refactor Merge_Classes %s:%s %s:%s %s_merged'
                % (rel, a, rel, b, a)) for a, b in zip(classes, classes[1:]))
    return out


def statement_end(lines, i):
    """The last line of what starts on line I: where the brackets it opens
    close again (quotes and comments skipped roughly); I itself when it
    opens none."""
    depth = 0
    for j in range(i, min(len(lines), i + 60)):
        text = re.sub(r'//.*', '', re.sub(r'(["\'`])(?:\\.|(?!\1).)*\1', '""', lines[j]))
        depth += sum(text.count(c) for c in '([{') - sum(text.count(c) for c in ')]}')
        if depth <= 0:
            return j
    return i


def commands(lang, base):
    """(operation, command) of every operation over the tree."""
    out = []
    paths = list(js_oracle.sources(base, lang)) if lang != 'c' else [
        os.path.join(folder, name) for folder, _, files in os.walk(base)
        for name in sorted(files) if name.endswith('.c')]
    defined = collections.defaultdict(set)
    for path in paths:
        for line in open(path, encoding='utf-8', errors='replace'):
            m = CLASS.match(line)
            if m:
                defined[m.group(1)].add(os.path.relpath(path, base))
    where = {name: files.pop() for name, files in defined.items() if len(files) == 1}
    for path in paths:
        if os.path.basename(path) == 'ops_check.js':
            continue
        rel = os.path.relpath(path, base)
        klass = None
        lines = open(path, encoding='utf-8', errors='replace').read().split('\n')
        if lang != 'c':
            out.extend(moves(rel, lines, where))
            out.extend(inheritances(rel, lines))
            out.extend(class_parts(rel, lines))
        for i, line in enumerate(lines):
            text = line.strip()
            if text and not text.startswith(('//', '/*', '*', '}')):
                out.append(('ExtractFunction', 'Refactor ExtractFunction %s:%d:%d fx_tmp'
                            % (rel, i, statement_end(lines, i))))
            m = re.match(r'\s*(?:const|let|int|long|double|char \*)\s+(\w+)\s*[=:]', line)
            if m:
                out.append(('Inline_Variable', 'Refactor Inline_Variable %s:%d:%d' % (rel, i, line.index(m.group(1)))))
            m = re.match(r'\s*(?:export\s+)?(?:function|static int|static double|const)\s+(\w+)\s*(?:\(|=\s*(?:\([^)]*\)[^=]*=>|function))', line)
            if m:
                out.append(('InlineFunction', 'Refactor InlineFunction %s:%d:%d' % (rel, i, line.index(m.group(1)))))
            if lang == 'c':
                continue
            m = CLASS.match(line)
            if m:
                klass = m.group(1)
                if lang == 'ts':
                    out.append(('Extract_Interface', 'Refactor Extract_Interface %s:%s I%sX'
                                % (rel, klass, klass)))
            elif line.startswith('}'):
                klass = None
            out.extend(signatures(rel, i, line, klass))
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('eddi')
    parser.add_argument('lang', choices=['c', 'js', 'ts'])
    parser.add_argument('tree')
    parser.add_argument('--run')
    parser.add_argument('--test', help='the project\'s tests, a shell command run in the tree')
    parser.add_argument('--tsc', help='TypeScript: the type check, a shell command run in the tree')
    parser.add_argument('--limit', type=int, default=300)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--operations', default=None, help='comma-separated operations to sample from')
    parser.add_argument('--exclude', action='append', default=[],
                        help='C: a path of the tree left out (relative)')
    parser.add_argument('--setup', default=None, help='C: a shell command run in the copy first')
    parser.add_argument('--cflags', default=None,
                        help='C: a real project\'s compiler flags (its files compiled one by one)')
    args = parser.parse_args()
    project = args.lang == 'c' and (args.cflags is not None or args.setup or args.test)
    work = tempfile.mkdtemp(prefix='eddi-ops-')
    try:
        base = os.path.join(work, 'base')
        shutil.copytree(args.tree, base, symlinks=True,
                        ignore=shutil.ignore_patterns(*js_oracle.BUILD_FOLDERS))
        for path in args.exclude:
            path = os.path.join(base, path)
            if os.path.isdir(path):
                shutil.rmtree(path)
            elif os.path.exists(path):
                os.remove(path)
        if args.setup and subprocess.run(args.setup, shell=True, cwd=base).returncode:
            print('the setup fails')
            return 1
        if args.run:
            shutil.copy(args.run, os.path.join(base, 'ops_check.js'))
        cflags = shlex.split(args.cflags or '')

        def project_check(root):
            """What the objects leave undefined, and why the tree fails, or None."""
            undefined, problem = systematic_langs.c_check(root, os.path.join(work, 'objects'), cflags)
            if not problem and args.test:
                out = subprocess.run(args.test, shell=True, cwd=root, capture_output=True, text=True)
                problem = 'the tests fail' if out.returncode else None
            return sorted(undefined or ()), problem
        oracle = js_oracle.Oracle(args.lang, tsc=args.tsc, test=args.test,
                                  run='ops_check.js' if args.run else None)
        if project:
            expected, problem = project_check(base)
        elif args.lang == 'c':
            expected = c_check(base)
            problem = None if expected is not None else 'the tree fails the check itself'
        else:
            problem = oracle.start(base)
        if problem:
            print(problem)
            return 1
        rng = random.Random(args.seed)
        by_op = collections.defaultdict(list)
        wanted = set(args.operations.split(',')) if args.operations else None
        for op, command in commands(args.lang, base):
            if wanted is None or op in wanted:
                by_op[op].append(command)
        todo, groups = [], sorted(by_op.items(), key=lambda kv: (len(kv[1]), kv[0]))
        for n, (op, group) in enumerate(groups):
            rng.shuffle(group)
            share = (args.limit - len(todo)) // (len(groups) - n)
            todo.extend((op, c) for c in group[:share])
        tally = collections.defaultdict(collections.Counter)
        refused = collections.defaultdict(collections.Counter)
        wrong = 0
        for op, command in todo:
            tree = os.path.join(work, 'tree')
            shutil.rmtree(tree, ignore_errors=True)
            js_oracle.copy_tree(base, tree)
            reply = subprocess.run([args.eddi, '--no-journal', '--root', tree, '-c', 'Start s',
                                    '-c', command], capture_output=True, text=True).stdout
            answer = reply.strip().split('\n')[-1]
            tally[op]['tried'] += 1
            if not answer.startswith('Ok, '):
                cause = re.sub(r'\S+\.[a-z]+:[\d:]+|\b\d+\b|"', '', answer)
                cause = re.sub(r'\s+', ' ', re.sub(r'\bof \S+|\b[A-Za-z_$][\w$]*\.[\w$.]+', '', cause))
                refused[op][' '.join(cause.split()[:9])] += 1
                continue
            tally[op]['written'] += 1
            if project:
                found, problem = project_check(tree)
                if not problem and found != expected:
                    problem = 'symbols left undefined: %s' % ' '.join(sorted(set(found) - set(expected)))
            elif args.lang == 'c':
                problem = None if c_check(tree) == expected else 'output or build differs'
            else:
                problem = oracle.check(tree)
            if problem:
                listed = 'unsure left unchanged' in answer
                tally[op]['missed' if listed else 'wrong'] += 1
                wrong += 0 if listed else 1
                print('%s %s\n  %s\n  %s' % ('MISS' if listed else 'WRONG', command, answer, problem))
        total = sum(tally.values(), collections.Counter())
        print('commands: %d, written: %d, wrong writes: %d, listed misses: %d'
              % (len(todo), total['written'], wrong, total['missed']))
        for op in sorted(tally):
            t = tally[op]
            print('  %-17s tried %3d, written %3d, refused %3d, wrong %d, missed %d'
                  % (op, t['tried'], t['written'], t['tried'] - t['written'], t['wrong'], t['missed']))
            for cause, count in refused[op].most_common(6):
                print('      refused %3d: %s' % (count, cause))
        return 1 if wrong else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
