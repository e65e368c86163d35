"""python3 -m eddi run and shell, as a person or a model runs them."""

import os
import pathlib
import subprocess
import sys

from conftest import SHOP

PACKAGE_ROOT = pathlib.Path(__file__).resolve().parent.parent


def run_eddi(args, server, server_env, stdin=None):
    env = dict(server_env, EDDI_SERVER=server, PYTHONPATH=str(PACKAGE_ROOT))
    return subprocess.run([sys.executable, "-m", "eddi", *args], input=stdin, env=env,
                          capture_output=True, text=True, timeout=60)


def test_run_binds_ws_and_writes_through_a_changeset(tree, tmp_path, server, server_env):
    script = tmp_path / "rename.py"
    script.write_text(
        "import sys\n"
        "print([m.name for m in ws.classes('Cart').methods()], sys.argv[1:])\n"
        "with ws.changeset('rename') as cs:\n"
        "    cs.rename('helper', sys.argv[1])\n")
    done = run_eddi(["run", str(script), str(tree), "helped"], server, server_env)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "['__init__', 'add', 'total'] ['helped']\n"
    assert "def helped(x):" in (tree / "shop.py").read_text()


def test_run_reports_a_refusal_with_the_scripts_own_lines(tree, tmp_path, server, server_env):
    script = tmp_path / "bad.py"
    script.write_text(
        "x = 1\n"
        "with ws.changeset('bad') as cs:\n"
        "    cs.rename('no_such_function', 'y')\n")
    done = run_eddi(["run", str(script), str(tree)], server, server_env)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == (
        "Traceback (most recent call last):\n"
        f'  File "{script}", line 2, in <module>\n'
        "    with ws.changeset('bad') as cs:\n"
        "eddi.errors.Refused: rename no_such_function y: "
        'Fail "Script line 3:1: No definition of no_such_function found"\n'
        'eddi said: Fail "Script line 3:1: No definition of no_such_function found"\n'
        "in the operation: rename no_such_function y\n")
    assert (tree / "shop.py").read_text() == SHOP


def test_run_reports_a_python_error_at_its_line(tree, tmp_path, server, server_env):
    script = tmp_path / "typo.py"
    script.write_text("def f():\n    return ws.clases()\n\nf()\n")
    done = run_eddi(["run", str(script), str(tree)], server, server_env)
    assert done.returncode == 1
    assert f'File "{script}", line 4, in <module>' in done.stderr
    assert f'File "{script}", line 2, in f' in done.stderr
    assert done.stderr.rstrip().endswith("'Workspace' object has no attribute 'clases'")


def test_shell_has_ws_bound(tree, server, server_env):
    done = run_eddi(["shell", str(tree)], server, server_env,
                    stdin="print(ws.functions().count())\nprint(type(ws).__name__)\n")
    assert done.returncode == 0
    # The prompts go to stdout when stdin is no terminal.
    assert done.stdout.replace(">>> ", "") == "4\nWorkspace\n"
    assert done.stderr.startswith(f"eddi 0.1.0 on {tree} (session python-")


def test_shell_completes_from_the_namespace(tree, server, server_env):
    done = run_eddi(["shell", str(tree)], server, server_env, stdin=(
        "import rlcompleter\n"
        "c = rlcompleter.Completer(globals())\n"
        "print(sorted({c.complete('ws.chan', i) for i in range(3)} - {None}))\n"))
    assert done.stdout.replace(">>> ", "") == "['ws.changeset(']\n"


def test_a_missing_server_is_said_plainly(tree, server_env, tmp_path):
    env = dict(server_env, PATH=str(tmp_path), PYTHONPATH=str(PACKAGE_ROOT))
    env.pop("EDDI_SERVER", None)
    done = subprocess.run([sys.executable, "-m", "eddi", "run", os.devnull, str(tree)], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr == ("eddi: eddi-server not found: pass server=PATH, set $EDDI_SERVER, "
                           "or put it on PATH\n")
