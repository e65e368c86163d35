#!/usr/bin/env python3
"""Check the files an import transcript writes with the languages' own tools.

    import_oracle.py EDDI TRANSCRIPT [--node NODE] [--cc CC]

The transcript's @file blocks are written to a fresh folder and its
messages run there through the eddi CLI. Then each Python file must still
run and keep its module docstring (__doc__ as before); each JavaScript file
must still run with node and be as strict as before ('use strict' still in
force); each .c file must still compile (cc -fsyntax-only). Exit status 1
when one does not.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

PY_DOC = ('import importlib.util, sys\n'
          'spec = importlib.util.spec_from_file_location("m", sys.argv[1])\n'
          'm = importlib.util.module_from_spec(spec)\n'
          'spec.loader.exec_module(m)\n'
          'print(repr(m.__doc__))\n')
# Appended to a copy: a plain call's `this` is undefined only in strict code.
JS_STRICT = '\n;(function () { console.log(this === undefined ? "strict" : "sloppy"); })();\n'


def read_files(lines):
    """The transcript's @file blocks: {path: text}, and its messages."""
    files, messages, i = {}, [], 0
    while i < len(lines):
        line = lines[i]
        if line.startswith('@file '):
            path, body = line.split()[1], []
            i += 1
            while i < len(lines) and (lines[i] == '|' or lines[i].startswith('| ')):
                body.append(lines[i][2:])
                i += 1
            files[path] = ''.join(b + '\n' for b in body)
            continue
        if line.startswith('To Eddi: '):
            messages.append(line[len('To Eddi: '):])
        i += 1
    return files, messages


def run(command, cwd):
    out = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    return out.returncode, out.stdout.strip(), out.stderr.strip()


def observe(path, root, node, cc):
    """What the language's tool says of a file: (ok, what it printed)."""
    if path.endswith('.py'):
        code, out, err = run([sys.executable, '-c', PY_DOC, path], root)
        return code == 0, out or err
    if path.endswith(('.js', '.mjs', '.cjs')) and node:
        copy = os.path.join(os.path.dirname(path), 'oracle_' + os.path.basename(path))
        shutil.copy(os.path.join(root, path), os.path.join(root, copy))
        with open(os.path.join(root, copy), 'a', encoding='utf-8') as f:
            f.write(JS_STRICT)
        code, out, err = run([node, copy], root)
        os.remove(os.path.join(root, copy))
        return code == 0, out or err
    if path.endswith('.c') and cc:
        code, out, err = run([cc, '-fsyntax-only', path], root)
        return code == 0, err
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('eddi')
    parser.add_argument('transcript')
    parser.add_argument('--node')
    parser.add_argument('--cc')
    args = parser.parse_args()
    lines = open(args.transcript, encoding='utf-8').read().split('\n')
    files, messages = read_files(lines)
    work = tempfile.mkdtemp(prefix='eddi-import-oracle-')
    wrong = 0
    try:
        for path, text in files.items():
            os.makedirs(os.path.join(work, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(work, path), 'w', encoding='utf-8') as f:
                f.write(text)
        before = {p: observe(p, work, args.node, args.cc) for p in files}
        command = [args.eddi, '--root', work]
        for message in messages:
            command += ['-c', message]
        subprocess.run(command, capture_output=True, text=True)
        for path in files:
            was, now = before[path], observe(path, work, args.node, args.cc)
            if was is None:
                continue
            if not was[0]:
                print('%s fails before any import: %s' % (path, was[1]))
                wrong += 1
            elif now != was:
                print('WRONG %s\n  before: %s\n  after:  %s' % (path, was[1], now[1]))
                wrong += 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print('files checked: %d, wrong: %d' % (sum(1 for p in before if before[p]), wrong))
    return 1 if wrong else 0


if __name__ == '__main__':
    sys.exit(main())
