#!/usr/bin/env python3
"""Rename every function of a real C or JavaScript tree, one at a time, and
check each result with the language's own tools.

    systematic_langs.py EDDI c|js|ts TREE [--limit N] [--seed S] [--run FILE]
                        [--exclude PATH]... [--setup CMD] [--cflags FLAGS] [--test CMD]
                        [--tsc CMD] [--way Unsure|Leave] [--eddi-arg ARG]...

The tree is copied into a workspace. For each function (C: a function
defined at file scope in a .c file, its name after its type or at the
start of the line after it; JavaScript: a function declaration, a
function or arrow function bound to a const at the top, a class and its
methods) whose name occurs at least twice in the tree (as a word), a fresh
copy gets `Refactor RenameSymbol path:Qualified.name name_x` through the
eddi CLI. Then:
- eddi refused: counted as refused, clustered by the first words of its
  reason;
- eddi renamed: C: every .c file must compile (-Werror for implicit
  declarations) and the objects together must leave no symbol undefined
  that the untouched tree does not (what the linker checks); JavaScript:
  every file must pass `node --check`, and the script --run, copied into
  the workspace's root (so that eddi sees its calls, as it sees every
  caller) and run there with node, must print what it prints on the
  untouched tree. A change that breaks one of these is a WRONG write when
  eddi listed no unsure reference, and a MISS (listed) when it did.
A project's own setup stays in the command line: --exclude leaves a
file or folder of TREE out of the copy (examples that need libraries the
machine lacks), --setup runs a shell command in the copy before anything
else (writing the config.h a configure step would), --cflags adds
compiler flags (-D, -I relative to the copy's root) and --test runs a
shell command in each renamed copy (the project's own tests, built
against the renamed sources) that must succeed as it does on the
untouched tree. --limit N tries N definitions drawn with --seed S;
--way Unsure or Leave ends every rename with that word. --eddi-arg passes
ARG to every eddi run (repeatable): --eddi-arg=--no-lsp renames without
the language's server; without it eddi uses the servers on PATH, and the
summary counts the writes whose reply says "Checked by SERVER" (and lists
those written unchecked when others were). Each command and eddi's reply
go to standard error as they come.
The tree is never written in place. Exit status 1 if any write was wrong.
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

C_FUNCTION = re.compile(r'^(?!typedef|struct|enum|union|return)[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\([^;{]*\)?\s*\{?\s*$')
# GNU style: the return type alone on the line before the name.
C_FUNCTION_NAME = re.compile(r'^([A-Za-z_]\w*)\s*\([^;{]*\)?\s*\{?\s*$')
C_RETURN_TYPE = re.compile(r'^(?!typedef|struct\b.*\{|enum|union|return|#)[A-Za-z_][\w \t\*()]*$')
C_KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'do', 'else'}
JS_FUNCTION = re.compile(r'^(?:export\s+(?:default\s+)?)?(?:declare\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)|'
                         r'^(?:export\s+)?(?:const|var|let)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]*)?=\s*(?:async\s*)?(?:function\b|\([^)]*\)[^=]*=>|[A-Za-z_$][\w$]*\s*=>)')
JS_CLASS = re.compile(r'^(?:export\s+(?:default\s+)?)?(?:declare\s+)?(?:abstract\s+)?(class|interface|enum|type)\s+([A-Za-z_$][\w$]*)')
MODIFIERS = r'(?:(?:public|private|protected|static|readonly|async|abstract|override|get|set)\s+)*'
JS_METHOD = re.compile(r'^\s+' + MODIFIERS + r'\*?\s*([A-Za-z_$][\w$]*)\s*(?:<[^(]*>)?\s*\(')
TS_FIELD = re.compile(r'^\s+' + MODIFIERS + r'([A-Za-z_$][\w$]*)\s*[?!]?\s*(?::|=[^=>])')
JS_THIS_FIELD = re.compile(r'\bthis\.([A-Za-z_$][\w$]*)\s*=[^=]')
JS_PROTOTYPE = re.compile(r'^([A-Za-z_$][\w$]*)\.prototype\.([A-Za-z_$][\w$]*)\s*=[^=]')
JS_KEYWORDS = {'if', 'for', 'while', 'switch', 'catch', 'function', 'constructor', 'return',
               'super', 'new', 'typeof', 'await', 'throw'}
KINDS = ('function', 'class', 'method', 'attribute', 'parameter')


def sources(root, lang):
    if lang != 'c':
        yield from js_oracle.sources(root, lang)
        return
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith('.') and d != 'node_modules')
        for name in sorted(files):
            if name.endswith('.c'):
                yield os.path.join(folder, name)


def js_definitions(rel, lines):
    """(kind, path, target, name) of a JavaScript or TypeScript file's
    definitions: functions and classes (TypeScript: interfaces, enums,
    type aliases) by qualified name, methods as Class.m, and by position
    the parameters of each, the attributes a class declares (a field, or
    this.x = ... in a method; x.prototype.m = ...) at their first place."""
    found, klass, member_indent, seen_attr = [], None, None, set()

    def position(i, col):
        return '%s:%d:%d' % (rel, i, col)

    def add_parameters(i, line, name_end):
        paren = line.find('(', name_end)
        for p in (js_oracle.parameters(line, paren) if paren >= 0 else None) or []:
            found.append(('parameter', rel, position(i, p[1]), p[0]))

    for i, line in enumerate(lines):
        m = JS_CLASS.match(line)
        if m:
            found.append(('class', rel, m.group(2), m.group(2)))
            # Members follow only where a body opens and stays open.
            opens = '{' in line and not line.rstrip().endswith(('}', '};'))
            klass, member_indent = (m.group(2) if opens else None), None
            continue
        if not line.startswith((' ', '\t')):
            if line.startswith('}'):
                klass = None
            m = JS_FUNCTION.match(line)
            if m:
                name = m.group(1) or m.group(2)
                found.append(('function', rel, name, name))
                add_parameters(i, line, m.end(1) if m.group(1) else m.end(2))
                continue
            m = JS_PROTOTYPE.match(line)
            if m and (m.group(1), m.group(2)) not in seen_attr:
                seen_attr.add((m.group(1), m.group(2)))
                found.append(('attribute', rel, position(i, m.start(2)), m.group(2)))
            continue
        if not klass:
            continue
        indent = line[:len(line) - len(line.lstrip())]
        if member_indent is None and line.strip():
            member_indent = indent
        m = JS_THIS_FIELD.search(line)
        if m and (klass, m.group(1)) not in seen_attr:
            seen_attr.add((klass, m.group(1)))
            found.append(('attribute', rel, position(i, m.start(1)), m.group(1)))
        if indent != member_indent:
            continue
        m = JS_METHOD.match(line)
        if m and m.group(1) not in JS_KEYWORDS and not line.rstrip().endswith(';'):
            if m.group(1) != 'constructor':
                found.append(('method', rel, klass + '.' + m.group(1), m.group(1)))
            add_parameters(i, line, m.end(1))
            continue
        m = TS_FIELD.match(line)
        if m and (klass, m.group(1)) not in seen_attr:
            seen_attr.add((klass, m.group(1)))
            found.append(('attribute', rel, position(i, m.start(1)), m.group(1)))
    return found


def definitions(root, lang):
    """(kind, path, target, name) of the tree's definitions."""
    found = []
    for path in sources(root, lang):
        rel = os.path.relpath(path, root)
        lines = open(path, encoding='utf-8', errors='replace').read().split('\n')
        if lang != 'c':
            found.extend(js_definitions(rel, lines))
            continue
        before = ''
        for line in lines:
            m = C_FUNCTION.match(line)
            if not m and C_RETURN_TYPE.match(before):
                m = C_FUNCTION_NAME.match(line)
            if m and not line.startswith((' ', '\t', '#')) and m.group(1) not in C_KEYWORDS:
                found.append(('function', rel, m.group(1), m.group(1)))
            before = line
    return sorted(set(found))


def word_counts(root, lang):
    counts = collections.Counter()
    ends = ('.c', '.h') if lang == 'c' else js_oracle.ENDS[lang]
    for folder, dirs, files in os.walk(root):
        for name in files:
            if name.endswith(ends):
                text = open(os.path.join(folder, name), encoding='utf-8', errors='replace').read()
                counts.update(re.findall(r'[A-Za-z_$][A-Za-z0-9_$]*', text))
    return counts


def c_check(root, objects, cflags=()):
    """None when every .c file compiles; the symbols the objects leave
    undefined, or the first compiler error."""
    shutil.rmtree(objects, ignore_errors=True)
    os.makedirs(objects)
    for i, path in enumerate(sources(root, 'c')):
        out = subprocess.run(['cc', '-c', '-std=gnu11', '-I', root, '-I', os.path.join(root, 'include')]
                             + list(cflags) +
                             ['-Werror=implicit-function-declaration', '-o',
                              os.path.join(objects, '%d.o' % i), path],
                             capture_output=True, text=True, cwd=root)
        if out.returncode:
            lines = [l for l in out.stderr.splitlines() if 'error' in l]
            return None, (lines[0] if lines else out.stderr.strip()[:200]).replace(root, '')
    defined, undefined = set(), set()
    for name in os.listdir(objects):
        for line in subprocess.run(['nm', os.path.join(objects, name)], capture_output=True,
                                   text=True).stdout.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == 'U':
                undefined.add(parts[1])
            elif len(parts) == 3 and parts[1] in 'TDBRCVW':
                defined.add(parts[2])
    return undefined - defined, None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('eddi')
    parser.add_argument('lang', choices=['c', 'js', 'ts'])
    parser.add_argument('tree')
    parser.add_argument('--limit', type=int, default=0,
                        help='a sample of N targets, the same number of each kind where it can')
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--run', default=None, help='JavaScript: a node script run with the tree')
    parser.add_argument('--test', default=None,
                        help="the project's tests, a shell command run in each renamed copy")
    parser.add_argument('--exclude', action='append', default=[],
                        help='a path of TREE left out of the copy (repeatable)')
    parser.add_argument('--setup', default=None, help='a shell command run in the copy first')
    parser.add_argument('--cflags', default='', help='C: compiler flags, -I relative to the root')
    parser.add_argument('--way', choices=['Unsure', 'Leave'], default=None,
                        help='the last word of every rename: change the unsure references too, '
                             'or write without them')
    parser.add_argument('--tsc', default=None,
                        help='TypeScript: the type check, a shell command run in the tree')
    parser.add_argument('--kinds', default=','.join(KINDS))
    parser.add_argument('--eddi-arg', action='append', default=[],
                        help='an argument for every eddi run (repeatable), e.g. --eddi-arg=--no-lsp')
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix='eddi-systematic-')
    base = os.path.join(work, 'base')
    shutil.copytree(args.tree, base, ignore=shutil.ignore_patterns(*js_oracle.BUILD_FOLDERS, '*.o'))
    for rel in args.exclude:
        path = os.path.join(base, rel)
        if os.path.isdir(path):
            shutil.rmtree(path)
        elif os.path.exists(path):
            os.remove(path)
    if args.setup:
        out = subprocess.run(args.setup, shell=True, cwd=base, capture_output=True, text=True)
        if out.returncode:
            print('the setup fails: %s' % out.stderr.strip()[-300:])
            return 1
    cflags = shlex.split(args.cflags)
    run = os.path.basename(args.run) if args.run else None
    if run:
        shutil.copy(args.run, os.path.join(base, run))
    oracle = js_oracle.Oracle(args.lang, tsc=args.tsc, test=args.test, run=run)

    def check(root):
        if args.lang != 'c':
            return '', oracle.check(root)
        result, problem = c_check(root, os.path.join(work, 'objects'), cflags)
        if not problem and args.test:
            out = subprocess.run(args.test, shell=True, cwd=root, capture_output=True, text=True)
            if out.returncode:
                lines = (out.stderr.strip() or out.stdout.strip()).splitlines()
                problem = 'the tests fail: %s' % (lines[-1] if lines else out.returncode)
        return result, problem

    if args.lang == 'c':
        baseline, problem = check(base)
    else:
        baseline, problem = '', oracle.start(base)
    if problem:
        print('the untouched tree fails the check: %s' % problem)
        return 1
    counts = word_counts(base, args.lang)
    kinds = args.kinds.split(',')
    cases = [d for d in definitions(base, args.lang) if counts[d[3]] >= 2 and d[0] in kinds]
    if args.limit and len(cases) > args.limit:
        # Fair: the same share for each kind (what one kind leaves goes to
        # the others), chosen at random within it.
        rng = random.Random(args.seed)
        by_kind = collections.defaultdict(list)
        for case in cases:
            by_kind[case[0]].append(case)
        for group in by_kind.values():
            rng.shuffle(group)
        chosen, groups = [], sorted(by_kind.values(), key=len)
        for n, group in enumerate(groups):
            share = (args.limit - len(chosen)) // (len(groups) - n)
            chosen.extend(group[:share])
        cases = sorted(chosen)
    tally = collections.defaultdict(collections.Counter)
    wrong, missed = [], []
    reasons = collections.Counter()
    checkers = collections.Counter()
    unchecked = []
    for kind, rel, target, name in cases:
        tree = os.path.join(work, 'tree')
        shutil.rmtree(tree, ignore_errors=True)
        js_oracle.copy_tree(base, tree)
        qualified = target if re.search(r':\d+:\d+$', target) else '%s:%s' % (rel, target)
        command = 'Refactor RenameSymbol %s %s_x%s' % (qualified, name,
                                                     ' ' + args.way if args.way else '')
        reply = subprocess.run([args.eddi, '--no-journal', '--root', tree] + args.eddi_arg +
                               ['-c', 'Start s', '-c', command],
                               capture_output=True, text=True).stdout.splitlines()
        answer = reply[-1] if reply else '(no reply)'
        print('%s\n  %s' % (command, answer), file=sys.stderr, flush=True)
        tally[kind]['tried'] += 1
        if not answer.startswith('Ok'):
            tally[kind]['refused'] += 1
            reason = re.sub(r' [^ ]*\.[a-z]+:[0-9:]*| [A-Za-z_0-9.$]+_x\b', '', answer)
            reason = re.sub(r'^Fail "\d+ references? to ?\S+', 'Fail "N references to NAME', reason)
            reason = re.sub(r'(No definition of|Rename may clash with) ?\S+', r'\1 NAME', reason)
            reason = re.sub(r'^Fail "\S+ (has a syntax error|is a special name)', r'Fail "NAME \1', reason)
            reason = re.sub(r'[0-9]+ ', '', reason)
            reasons[' '.join(reason.split()[:7])] += 1
            continue
        tally[kind]['renamed'] += 1
        checked = re.search(r'\bChecked by ([\w.-]+)', answer)
        if checked:
            checkers[checked.group(1)] += 1
        else:
            unchecked.append((command, answer))
        result, problem = check(tree)
        if not problem and result != baseline:
            problem = 'undefined symbols differ: %s' % sorted(result ^ baseline)[:3]
        if problem:
            listed = 'unsure left unchanged' in answer
            tally[kind]['missed' if listed else 'wrong'] += 1
            (missed if listed else wrong).append((command, answer, problem))
    total = sum(tally.values(), collections.Counter())
    print('definitions tried: %d, renamed: %d, refused: %d, wrong writes: %d, '
          'breaking misses listed as unsure: %d'
          % (len(cases), total['renamed'], total['refused'], len(wrong), len(missed)))
    for checker, n in sorted(checkers.items()):
        print('  written and checked by %s: %d of %d' % (checker, n, total['renamed']))
    for command, answer in unchecked if checkers else ():
        print('UNCHECKED %s\n  %s' % (command, answer))
    for kind in KINDS:
        if tally[kind]['tried']:
            t = tally[kind]
            print('  %-9s tried %3d, renamed %3d, refused %3d, wrong %d, missed %d'
                  % (kind, t['tried'], t['renamed'], t['refused'], t['wrong'], t['missed']))
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
