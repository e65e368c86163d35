#!/usr/bin/env python3
"""Check every rename of a transcript with the language's own tools.

    oracle.py EDDI TRANSCRIPT FIXTURES --check COMMAND

The transcript names its fixture (@fixture name, under FIXTURES). Each
`Refactor ...` command of the transcript runs on a fresh copy of the
fixture through the eddi CLI; when eddi writes, COMMAND (run in the copy
through the shell: compile and run the C program, run the script with
node, type-check and run the TypeScript with tsc and node) must succeed
and print what it prints on the untouched fixture.
A write that breaks it is WRONG when eddi listed no unsure reference, and
a MISS (listed) when it did: the unsure references it left alone, as the
command asked. Exit status 1 if any write was wrong or the fixture itself
fails the check.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile


def check(command, root):
    out = subprocess.run(command, shell=True, cwd=root, capture_output=True, text=True)
    return out.returncode, out.stdout, out.stderr


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('eddi')
    parser.add_argument('transcript')
    parser.add_argument('fixtures')
    parser.add_argument('--check', required=True)
    args = parser.parse_args()
    lines = open(args.transcript, encoding='utf-8').read().split('\n')
    fixture = next(l.split()[1] for l in lines if l.startswith('@fixture '))
    commands = [l[len('To Eddi: '):] for l in lines if l.startswith('To Eddi: Refactor ')]
    work = tempfile.mkdtemp(prefix='eddi-oracle-')
    base = os.path.join(args.fixtures, fixture)
    # The check may write (a compiler's output): never in the fixture itself.
    untouched = os.path.join(work, 'untouched')
    shutil.copytree(base, untouched)
    code, expected, err = check(args.check, untouched)
    if code != 0:
        print('the fixture fails the check itself:\n' + err)
        shutil.rmtree(work, ignore_errors=True)
        return 1
    wrote = wrong = missed = 0
    try:
        for command in commands:
            tree = os.path.join(work, 'tree')
            shutil.rmtree(tree, ignore_errors=True)
            shutil.copytree(base, tree)
            reply = subprocess.run([args.eddi, '--root', tree, '-c', 'Start s', '-c', command],
                                   capture_output=True, text=True).stdout.splitlines()
            answer = reply[-1] if reply else '(no reply)'
            # Every refactoring that answers Ok wrote (Preview is no Refactor command).
            if not answer.startswith('Ok, '):
                continue
            wrote += 1
            code, output, err = check(args.check, tree)
            if code == 0 and output == expected:
                continue
            # A compiler may print its errors on stdout (tsc does).
            if err.strip():
                problem = err.strip().splitlines()[-1]
            elif code != 0 and output.strip():
                problem = output.strip().splitlines()[0]
            else:
                problem = 'output differs'
            if 'unsure left unchanged' in answer:
                missed += 1
                print('MISS %s\n  %s\n  %s' % (command, answer, problem))
            else:
                wrong += 1
                print('WRONG %s\n  %s\n  %s' % (command, answer, problem))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print('renames written: %d, wrong writes: %d, breaking misses listed as unsure: %d'
          % (wrote, wrong, missed))
    return 1 if wrong else 0


if __name__ == '__main__':
    sys.exit(main())
