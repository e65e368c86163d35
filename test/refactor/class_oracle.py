#!/usr/bin/env python3
"""Check the class refactorings of a transcript with Python itself.

    class_oracle.py EDDI TRANSCRIPT [--run PROGRAM] [--tsc TSC]

The transcript's @file blocks make a workspace in a temporary folder. Its
`Refactor ...` commands (and its @rm lines) run there one after another
through the eddi CLI, as the transcript runs them (an Undo puts back the
files as they were before the last write, and a command works on the
file the transcript opened last); after each one that writes, every Python file
must compile (python3 -m py_compile), pyflakes must report no undefined
name it did not report before, and `python3 PROGRAM` (when given) must print what it
printed on the untouched files. A TypeScript file (.ts) must parse with
tree-sitter's TypeScript grammar without an ERROR or MISSING node: eddi
reads it with that grammar, so the check is eddi's own check of the
file's syntax, Validate File; with --tsc, the TypeScript compiler must also
type-check every .ts file strictly (tsc --strict --noEmit), as it does the
untouched files. A write that breaks any of these is
WRONG, unless eddi listed unsure uses it left alone (a MISS, printed).
Exit status 1 when a write is wrong.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pyharness import compiles  # noqa: E402  (the harnesses' check)


def files_of(transcript):
    """The (path, text) pairs of the transcript's @file blocks."""
    out, path, lines = [], None, []
    for line in open(transcript, encoding='utf-8').read().split('\n') + ['@end']:
        if path is not None and (line == '|' or line.startswith('| ')):
            lines.append(line[2:])
            continue
        if path is not None:
            out.append((path, '\n'.join(lines) + '\n'))
            path = None
        if line.startswith('@file '):
            path, lines = line.split()[1], []
    return out


def undefined(root):
    out = subprocess.run(['pyflakes3', '.'], cwd=root, capture_output=True, text=True).stdout
    return {l.split(':', 1)[0] + ':' + l.rsplit(' ', 1)[-1]
            for l in out.splitlines() if 'undefined name' in l}


def ts_errors(eddi, root):
    """ERROR or MISSING nodes in the workspace's .ts files, as eddi's
    tree-sitter parse finds them (Validate File)."""
    bad = []
    for dp, _, fn in os.walk(root):
        for f in fn:
            if not f.endswith('.ts'):
                continue
            rel = os.path.relpath(os.path.join(dp, f), root)
            reply = run(eddi, root, ['Start o', 'Open ' + rel, 'Validate File'])
            if not reply or reply[-1] != 'Ok: No syntax errors':
                bad.append(rel + ': ' + (reply[-1] if reply else '(no reply)'))
    return bad


def tsc_errors(tsc, root):
    """What tsc --strict reports over the workspace's .ts files (its first
    line), or None when it is content."""
    if not tsc:
        return None
    files = sorted(os.path.relpath(os.path.join(dp, f), root)
                   for dp, _, fn in os.walk(root) for f in fn if f.endswith('.ts'))
    if not files:
        return None
    out = subprocess.run([tsc, '--strict', '--noEmit', '--target', 'es2022', '--module',
                          'commonjs'] + files, cwd=root, capture_output=True, text=True)
    if out.returncode == 0:
        return None
    return (out.stdout.strip() or out.stderr.strip()).splitlines()[0]


def run(eddi, root, commands):
    state = tempfile.mkdtemp(prefix='eddi-oracle-state-')
    # No language servers: the check is eddi's own syntax tree.
    args = [eddi, '--root', root, '--no-lsp']
    for c in commands:
        args += ['-c', c]
    try:
        return subprocess.run(args, capture_output=True, text=True,
                              env=dict(os.environ, XDG_STATE_HOME=state)).stdout.splitlines()
    finally:
        shutil.rmtree(state, ignore_errors=True)


def snapshot(root):
    """Every file of the workspace: {path: bytes}."""
    out = {}
    for dp, _, fn in os.walk(root):
        for f in fn:
            path = os.path.join(dp, f)
            with open(path, 'rb') as fh:
                out[os.path.relpath(path, root)] = fh.read()
    return out


def restore(root, files):
    """The workspace as snapshot() saw it: what an Undo of the write after it does."""
    for rel in set(snapshot(root)) - set(files):
        os.remove(os.path.join(root, rel))
    for rel, data in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, rel)) or root, exist_ok=True)
        with open(os.path.join(root, rel), 'wb') as fh:
            fh.write(data)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('eddi')
    parser.add_argument('transcript')
    parser.add_argument('--run', help='a Python program of the workspace to run')
    parser.add_argument('--tsc', help='the TypeScript compiler to type-check .ts files with')
    args = parser.parse_args()
    lines = open(args.transcript, encoding='utf-8').read().split('\n')
    # The refactorings, the Undo that takes one back, and the files the
    # transcript removes between them.
    steps = [l[len('To Eddi: '):] if l.startswith('To Eddi: ') else l for l in lines
             if l.startswith('To Eddi: Refactor ') or l == 'To Eddi: Undo' or l.startswith('@rm ')
             or l.startswith('To Eddi: Open ')]
    root = tempfile.mkdtemp(prefix='eddi-class-oracle-')
    try:
        for path, text in files_of(args.transcript):
            os.makedirs(os.path.dirname(os.path.join(root, path)) or root, exist_ok=True)
            with open(os.path.join(root, path), 'w', encoding='utf-8') as f:
                f.write(text)
        program = ['python3', args.run] if args.run else ['true']
        expected = subprocess.run(program, cwd=root, capture_output=True, text=True)
        if expected.returncode != 0:
            print('the program fails on the untouched files:\n' + expected.stderr)
            return 1
        known = undefined(root)
        untouched = tsc_errors(args.tsc, root)
        if untouched:
            print('tsc fails on the untouched files: ' + untouched)
            return 1
        wrote = wrong = 0
        # The workspace before each write, for the Undo that follows it.
        before_writes = []
        # The file the transcript has open, for a command that works on it.
        opened = []
        for command in steps:
            if command.startswith('Open '):
                opened = [command]
                continue
            if command.startswith('@rm '):
                os.remove(os.path.join(root, command[len('@rm '):]))
                continue
            if command == 'Undo':
                if before_writes:
                    restore(root, before_writes.pop())
                continue
            before = snapshot(root)
            reply = run(args.eddi, root, ['Start s'] + opened + [command])
            answer = reply[-1] if reply else '(no reply)'
            if not answer.startswith('Ok, ') or answer.startswith('Ok, Preview'):
                continue
            before_writes.append(before)
            wrote += 1
            problems = []
            broken = compiles(root)
            if broken:
                problems.append('does not compile: ' + broken)
            new = undefined(root) - known
            if new:
                problems.append('new undefined names: ' + ', '.join(sorted(new)))
            now = subprocess.run(program, cwd=root, capture_output=True, text=True)
            if now.returncode != 0 or now.stdout != expected.stdout:
                problems.append('the program prints otherwise: ' + (now.stderr or now.stdout))
            problems += ts_errors(args.eddi, root)
            typed = tsc_errors(args.tsc, root)
            if typed:
                problems.append('tsc: ' + typed)
            if problems and 'unsure left unchanged' in answer:
                # A use eddi could not resolve, listed and left, as asked.
                print('MISS (unsure listed): ' + command + '\n  ' + '\n  '.join(problems))
            elif problems:
                wrong += 1
                print('WRONG: ' + command + '\n  ' + '\n  '.join(problems))
        print('%d writes checked, %d wrong' % (wrote, wrong))
        return 1 if wrong or not wrote else 0
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
