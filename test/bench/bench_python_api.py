#!/usr/bin/env python3
"""The Python API's figures (doc/python.org, "Measured"), side by side with
a reference, as ratios.

- Iteration: every method of a generated tree of about 100,000 lines with
  its complexity, through eddi (ws.methods(), one code.query paged over
  the wire) and through the standard library's ast in pure Python (parse
  every file, walk every class's functions, count the same decision
  points). Cold: the first query of a fresh server; warm: the second.
- Changesets: a rename across files committed then undone, N rounds, the
  tree compared byte for byte with the original after each.

Usage: bench_python_api.py [--server PATH] [--lines N] [--rounds N]
"""

import argparse
import ast
import os
import pathlib
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python"))

import eddi  # noqa: E402

METHOD = """\
    def m{i}(self, a, b=0):
        total = 0
        for x in a:
            if x > b and x % 2:
                total += x
            elif x < 0 or b:
                total -= x
        while total > 100:
            total //= 2
        return total

"""


def make_tree(root, lines):
    """Files of 20 classes of 10 methods each, until about lines lines."""
    written, n = 0, 0
    per_method = METHOD.count("\n")
    while written < lines:
        parts = []
        for c in range(20):
            parts.append(f"class C{n}_{c}:\n")
            parts.extend(METHOD.format(i=i) for i in range(10))
            parts.append("\n")
        text = "".join(parts)
        path = root / f"pkg{n // 50}" / f"mod{n}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        written += text.count("\n")
        n += 1
    return written, n, per_method


DECISIONS = (ast.If, ast.For, ast.While, ast.BoolOp, ast.IfExp, ast.ExceptHandler, ast.With,
             ast.comprehension, ast.Assert)


def ast_methods(root):
    """(class.method, complexity) of every method, with ast."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for cls in ast.walk(tree):
            if not isinstance(cls, ast.ClassDef):
                continue
            for fn in cls.body:
                if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    complexity = 1 + sum(isinstance(n, DECISIONS) for n in ast.walk(fn))
                    found.append((f"{cls.name}.{fn.name}", complexity))
    return found


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def bench_iteration(server, lines):
    with tempfile.TemporaryDirectory() as folder:
        root = pathlib.Path(folder) / "tree"
        written, files, _ = make_tree(root, lines)
        env = dict(os.environ, XDG_STATE_HOME=str(pathlib.Path(folder) / "state"))
        ast_time, by_ast = timed(lambda: ast_methods(root))
        with eddi.open(root, server=server, env=env) as ws:
            cold, by_eddi = timed(lambda: [(m.qualname, m.complexity) for m in ws.methods()])
            warm, _ = timed(lambda: [(m.qualname, m.complexity) for m in ws.methods()])
        same_count = len(by_eddi) == len(by_ast)
        print(f"iteration: {written} lines, {files} files, {len(by_eddi)} methods "
              f"(ast: {len(by_ast)}{'' if same_count else ', differs'})")
        print(f"  eddi cold {cold * 1000:.0f} ms, warm {warm * 1000:.0f} ms; "
              f"ast {ast_time * 1000:.0f} ms; ratio eddi/ast cold {cold / ast_time:.2f}, "
              f"warm {warm / ast_time:.2f}")


def bench_rounds(server, rounds):
    with tempfile.TemporaryDirectory() as folder:
        root = pathlib.Path(folder) / "tree"
        root.mkdir()
        (root / "shop.py").write_text("class Cart:\n    def total(self):\n        return 1\n")
        (root / "use.py").write_text("from shop import Cart\n\n\ndef f():\n"
                                     "    return Cart().total()\n")
        before = {p.name: p.read_bytes() for p in root.iterdir()}
        env = dict(os.environ, XDG_STATE_HOME=str(pathlib.Path(folder) / "state"))
        identical = 0
        with eddi.open(root, server=server, env=env) as ws:
            start = time.perf_counter()
            for i in range(rounds):
                with ws.changeset("round") as cs:
                    cs.rename("Cart.total", f"total_{i}")
                ws.undo()
                identical += {p.name: p.read_bytes() for p in root.iterdir()} == before
            spent = time.perf_counter() - start
        print(f"changesets: {rounds} committed and undone, {identical} trees byte-identical, "
              f"{spent / rounds * 1000:.1f} ms a round (collect, apply, rollback)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", default=None)
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=100)
    args = parser.parse_args()
    bench_iteration(args.server, args.lines)
    bench_rounds(args.server, args.rounds)


if __name__ == "__main__":
    main()
