#!/usr/bin/env python3
"""Run the operations past rename all over a real C or JavaScript tree, one
at a time, and check each result with the language's own tools.

    ops_langs.py EDDI c|js TREE [--run FILE] [--limit N] [--seed S]

For every line of every source file a fresh copy of the tree gets
`Refactor ExtractFunction path:L:L fx_tmp`; for every `const x =` / `let
x =` (C: a local `int x =` and the like) `Refactor Inline_Variable
path:L:C`; for every function `Refactor InlineFunction path:L:C`; and for
every JavaScript function with named parameters `Refactor Signature` that
reverses them, adds one with a default, drops the last (a random sample
of --limit of them all). When eddi writes, the tree must still work: C:
every .c file under src/ compiles (implicit declarations are errors),
links and the program prints what it printed; JavaScript: every file
passes `node --check` and FILE, copied into the tree's root, prints what
it printed. A write that breaks it is WRONG. Exit status 1 if any was.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile


def check(lang, root):
    if lang == 'js':
        for folder, _, files in os.walk(root):
            for name in files:
                if name.endswith('.js'):
                    out = subprocess.run(['node', '--check', os.path.join(folder, name)],
                                         capture_output=True)
                    if out.returncode:
                        return None
        out = subprocess.run(['node', 'ops_check.js'], cwd=root, capture_output=True, text=True)
        return out.stdout if out.returncode == 0 else None
    out = subprocess.run('cc -Wall -Werror=implicit-function-declaration -o prog src/*.c && ./prog',
                         shell=True, cwd=root, capture_output=True, text=True)
    return out.stdout if out.returncode == 0 else None


def commands(lang, base):
    ext = '.js' if lang == 'js' else '.c'
    out = []
    for folder, _, files in os.walk(base):
        for name in files:
            if not name.endswith(ext) or name == 'ops_check.js':
                continue
            rel = os.path.relpath(os.path.join(folder, name), base)
            for i, line in enumerate(open(os.path.join(folder, name), encoding='utf-8')):
                text = line.strip()
                if text and not text.startswith(('//', '/*', '*', '}')):
                    out.append('Refactor ExtractFunction %s:%d:%d fx_tmp' % (rel, i, i))
                m = re.match(r'\s*(?:const|let|int|long|double|char \*)\s+(\w+)\s*=', line)
                if m:
                    out.append('Refactor Inline_Variable %s:%d:%d' % (rel, i, line.index(m.group(1))))
                m = re.match(r'\s*(?:function|static int|static double)\s+(\w+)\s*\(', line)
                if m:
                    out.append('Refactor InlineFunction %s:%d:%d' % (rel, i, line.index(m.group(1))))
                m = re.match(r'\s*(?:function\s+(\w+)|const\s+(\w+)\s*=\s*)\s*\(([\w\s,]*)\)', line)
                if lang == 'js' and m:
                    fn = m.group(1) or m.group(2)
                    params = [p.strip() for p in m.group(3).split(',') if p.strip()]
                    old = '%s:%s(%s)' % (rel, fn, ', '.join(params))
                    if len(params) >= 2:
                        out.append('Refactor Signature %s %s:%s(%s)' % (old, rel, fn, ', '.join(reversed(params))))
                    if params:
                        out.append('Refactor Signature %s %s:%s(%s, extra_z = 0)' % (old, rel, fn, ', '.join(params)))
                        out.append('Refactor Signature %s %s:%s(%s)' % (old, rel, fn, ', '.join(params[:-1])))
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('eddi')
    parser.add_argument('lang', choices=['c', 'js'])
    parser.add_argument('tree')
    parser.add_argument('--run')
    parser.add_argument('--limit', type=int, default=300)
    parser.add_argument('--seed', type=int, default=1)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix='eddi-ops-')
    try:
        base = os.path.join(work, 'base')
        shutil.copytree(args.tree, base)
        if args.run:
            shutil.copy(args.run, os.path.join(base, 'ops_check.js'))
        expected = check(args.lang, base)
        if expected is None:
            print('the tree fails the check itself')
            return 1
        todo = commands(args.lang, base)
        random.seed(args.seed)
        random.shuffle(todo)
        todo = todo[:args.limit]
        wrote = wrong = 0
        refused = {}
        for command in todo:
            tree = os.path.join(work, 'tree')
            shutil.rmtree(tree, ignore_errors=True)
            shutil.copytree(base, tree)
            reply = subprocess.run([args.eddi, '--no-journal', '--root', tree, '-c', 'Start s',
                                    '-c', command], capture_output=True, text=True).stdout
            answer = reply.strip().split('\n')[-1]
            if not answer.startswith('Ok, '):
                cause = ' '.join(re.sub(r' at \S+$', '', answer).split()[:6])
                refused[cause] = refused.get(cause, 0) + 1
                continue
            wrote += 1
            if check(args.lang, tree) != expected:
                wrong += 1
                print('WRONG %s\n  %s' % (command, answer))
        print('commands: %d, written: %d, wrong writes: %d' % (len(todo), wrote, wrong))
        for cause, count in sorted(refused.items(), key=lambda kv: -kv[1])[:10]:
            print('  refused %d: %s' % (count, cause))
        return 1 if wrong else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
