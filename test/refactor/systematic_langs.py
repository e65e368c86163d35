#!/usr/bin/env python3
"""Rename every function of a real C or JavaScript tree, one at a time, and
check each result with the language's own tools.

    systematic_langs.py EDDI c|js TREE [--limit N] [--seed S] [--run FILE]
                        [--exclude PATH]... [--setup CMD] [--cflags FLAGS] [--test CMD]
                        [--way Unsure|Leave]

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
--way Unsure or Leave ends every rename with that word.
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

C_FUNCTION = re.compile(r'^(?!typedef|struct|enum|union|return)[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\([^;{]*\)?\s*\{?\s*$')
# GNU style: the return type alone on the line before the name.
C_FUNCTION_NAME = re.compile(r'^([A-Za-z_]\w*)\s*\([^;{]*\)?\s*\{?\s*$')
C_RETURN_TYPE = re.compile(r'^(?!typedef|struct\b.*\{|enum|union|return|#)[A-Za-z_][\w \t\*()]*$')
C_KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'do', 'else'}
JS_FUNCTION = re.compile(r'^(?:export\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)|'
                         r'^(?:export\s+)?const\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)')
JS_CLASS = re.compile(r'^(?:export\s+)?class\s+([A-Za-z_$][\w$]*)')
JS_METHOD = re.compile(r'^  (?:static\s+)?(?:async\s+)?([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*\{')
JS_KEYWORDS = {'if', 'for', 'while', 'switch', 'catch', 'function', 'constructor', 'return'}


def sources(root, lang):
    ends = ('.c',) if lang == 'c' else ('.js', '.mjs', '.cjs')
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith('.') and d != 'node_modules')
        for name in sorted(files):
            if name.endswith(ends):
                yield os.path.join(folder, name)


def definitions(root, lang):
    """(path, qualified name, name) of the tree's functions."""
    found = []
    for path in sources(root, lang):
        rel = os.path.relpath(path, root)
        klass = None
        before = ''
        for line in open(path, encoding='utf-8', errors='replace'):
            if lang == 'c':
                m = C_FUNCTION.match(line)
                if not m and C_RETURN_TYPE.match(before.rstrip('\n')):
                    m = C_FUNCTION_NAME.match(line)
                if m and not line.startswith((' ', '\t', '#')) and m.group(1) not in C_KEYWORDS:
                    found.append((rel, m.group(1), m.group(1)))
                before = line
                continue
            m = JS_CLASS.match(line)
            if m:
                klass = m.group(1)
                found.append((rel, klass, klass))
                continue
            if not line.startswith(' '):
                if line.startswith('}'):
                    klass = None
                m = JS_FUNCTION.match(line)
                if m:
                    name = m.group(1) or m.group(2)
                    found.append((rel, name, name))
                continue
            m = JS_METHOD.match(line)
            if klass and m and m.group(1) not in JS_KEYWORDS:
                found.append((rel, klass + '.' + m.group(1), m.group(1)))
    return sorted(set(found))


def word_counts(root, lang):
    counts = collections.Counter()
    ends = ('.c', '.h') if lang == 'c' else ('.js', '.mjs', '.cjs')
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


def js_check(root, run):
    for path in sources(root, 'js'):
        out = subprocess.run(['node', '--check', path], capture_output=True, text=True)
        if out.returncode:
            return None, out.stderr.strip().splitlines()[-1]
    if not run:
        return '', None
    out = subprocess.run(['node', run], cwd=root, capture_output=True, text=True)
    if out.returncode:
        lines = out.stderr.strip().splitlines()
        return None, next((l for l in lines if 'Error' in l), lines[-1] if lines else 'failed')
    return out.stdout, None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('eddi')
    parser.add_argument('lang', choices=['c', 'js'])
    parser.add_argument('tree')
    parser.add_argument('--limit', type=int, default=0)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--run', default=None, help='JavaScript: a node script run with the tree')
    parser.add_argument('--exclude', action='append', default=[],
                        help='a path of TREE left out of the copy (repeatable)')
    parser.add_argument('--setup', default=None, help='a shell command run in the copy first')
    parser.add_argument('--cflags', default='', help='C: compiler flags, -I relative to the root')
    parser.add_argument('--way', choices=['Unsure', 'Leave'], default=None,
                        help='the last word of every rename: change the unsure references too, '
                             'or write without them')
    parser.add_argument('--test', default=None,
                        help="a shell command run in each renamed copy: the project's tests")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix='eddi-systematic-')
    base = os.path.join(work, 'base')
    shutil.copytree(args.tree, base, ignore=shutil.ignore_patterns('node_modules', '*.o'))
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

    def check(root):
        if args.lang == 'c':
            result, problem = c_check(root, os.path.join(work, 'objects'), cflags)
        else:
            result, problem = js_check(root, run)
        if not problem and args.test:
            out = subprocess.run(args.test, shell=True, cwd=root, capture_output=True, text=True)
            if out.returncode:
                lines = (out.stderr.strip() or out.stdout.strip()).splitlines()
                problem = 'the tests fail: %s' % (lines[-1] if lines else out.returncode)
        return result, problem

    baseline, problem = check(base)
    if problem:
        print('the untouched tree fails the check: %s' % problem)
        return 1
    counts = word_counts(base, args.lang)
    cases = [d for d in definitions(base, args.lang) if counts[d[2]] >= 2]
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
        command = 'Refactor RenameSymbol %s:%s %s_x%s' % (rel, qualified, name,
                                                        ' ' + args.way if args.way else '')
        reply = subprocess.run([args.eddi, '--root', tree, '-c', 'Start s', '-c', command],
                               capture_output=True, text=True).stdout.splitlines()
        answer = reply[-1] if reply else '(no reply)'
        if not answer.startswith('Ok'):
            refused += 1
            reason = re.sub(r' [^ ]*\.[a-z]+:[0-9:]*| [A-Za-z_0-9.$]+_x\b', '', answer)
            reason = re.sub(r'^Fail "\d+ references? to ?\S+', 'Fail "N references to NAME', reason)
            reason = re.sub(r'(No definition of|Rename may clash with) ?\S+', r'\1 NAME', reason)
            reason = re.sub(r'^Fail "\S+ (has a syntax error|is a special name)', r'Fail "NAME \1', reason)
            reasons[' '.join(reason.split()[:6])] += 1
            continue
        renamed += 1
        result, problem = check(tree)
        if not problem and result != baseline:
            if args.lang == 'c':
                problem = 'undefined symbols differ: %s' % sorted(result ^ baseline)[:3]
            else:
                changed = [l for l in result.splitlines() if l not in baseline.splitlines()]
                problem = 'output differs: %s' % changed[:2]
        if problem:
            (missed if 'unsure left unchanged' in answer else wrong).append((command, answer, problem))
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
