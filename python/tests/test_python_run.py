"""eddi-server's python.run: a script's text run confined by the server
itself (server/python_run.c), its calls served by the same server through
eddi's sandboxed runner; what it collects is shown, and written only with
apply."""

import pytest

import eddi

from conftest import snapshot, write_tree

A_PY = "def one():\n    return 1\n"
B_PY = "from a import one\nprint(one())\n"
RENAME = ('print(len(list(ws.files("*.py"))))\n'
          'with ws.changeset("r") as cs:\n'
          '    cs.rename("a.py:one", "uno")\n')
COLLECTED = ("eddi: the script collected Ok, Changeset r-1 (collected): 2 files: a.py +1 -1, "
             "b.py +2 -2\n"
             "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n-def one():\n+def uno():\n     return 1\n"
             "--- a/b.py\n+++ b/b.py\n@@ -1,2 +1,2 @@\n-from a import one\n-print(one())\n"
             "+from a import uno\n+print(uno())\n")


@pytest.fixture
def two_files(tmp_path):
    root = tmp_path / "ws"
    write_tree(root, {"a.py": A_PY, "b.py": B_PY})
    return root


def _open(root, server, server_env, *server_args):
    return eddi.open(root, server=server, env=server_env, server_args=server_args)


def test_a_script_collects_and_nothing_is_written(two_files, server, server_env):
    before = snapshot(two_files)
    with _open(two_files, server, server_env) as ws:
        result = ws.call("python.run", script=RENAME)
    assert result == {"exit": 0, "stdout": "2\n", "stderr": COLLECTED +
                      "eddi: nothing was written; run again with --apply to write it\n"}
    assert snapshot(two_files) == before


def test_apply_writes_what_it_collected(two_files, server, server_env):
    with _open(two_files, server, server_env) as ws:
        result = ws.call("python.run", script=RENAME, apply=True)
        assert result == {"exit": 0, "stdout": "2\n",
                          "stderr": COLLECTED + "eddi: Ok, Applied changeset r-1: 2 files\n"}
        assert ws.read("b.py").split("\n", 1)[1] == "1:from a import uno\n2:print(uno())"
    assert (two_files / "a.py").read_text() == "def uno():\n    return 1\n"


def test_the_script_is_confined_and_its_failure_has_its_lines(two_files, server, server_env):
    with _open(two_files, server, server_env) as ws:
        result = ws.call("python.run", script='import sys\nprint(sys.argv[1:])\nopen("/etc/passwd")\n',
                         args=["x", "y z"])
    assert result == {"exit": 1, "stdout": "['x', 'y z']\n", "stderr": (
        "Traceback (most recent call last):\n"
        '  File "script.py", line 3, in <module>\n'
        '    open("/etc/passwd")\n'
        "PermissionError: [Errno 13] Permission denied: '/etc/passwd'\n")}


def test_a_script_past_its_time_is_stopped(two_files, server, server_env):
    with _open(two_files, server, server_env) as ws:
        result = ws.call("python.run", script="import time\ntime.sleep(30)\n", timeout=1)
    assert result == {"exit": 137, "stdout": "",
                      "stderr": "eddi: the script ran past 1 s and was stopped\n"}


@pytest.mark.parametrize("params,message", [
    ({}, "params.script must be a string: the script's text"),
    ({"script": 1}, "params.script must be a string: the script's text"),
    ({"script": "", "apply": "yes"}, "params.apply must be true or false"),
    ({"script": "", "timeout": 0}, "params.timeout must be whole seconds from 1 to 600"),
    ({"script": "", "timeout": 601}, "params.timeout must be whole seconds from 1 to 600"),
    ({"script": "", "args": "x"}, "params.args must be an array of strings"),
    ({"script": "", "args": [1]}, "params.args must be an array of strings"),
])
def test_bad_params_are_refused_and_nothing_runs(two_files, server, server_env, params, message):
    before = snapshot(two_files)
    with _open(two_files, server, server_env) as ws:
        with pytest.raises(eddi.ProtocolError) as refused:
            ws._conn.call("python.run", params)
    assert (refused.value.code, refused.value.message) == (-32602, message)
    assert snapshot(two_files) == before


def test_an_unknown_param_is_named(two_files, server, server_env):
    with _open(two_files, server, server_env) as ws:
        with pytest.raises(eddi.ProtocolError) as refused:
            ws._conn.call("python.run", {"script": "", "path": "x.py"})
    assert refused.value.message.startswith("Unknown argument path")


def test_a_sender_not_allowed_may_not_run_a_script(two_files, server, server_env):
    connection = eddi.Connection.spawn(two_files, server=server, env=server_env,
                                       extra=("--allow", "ann", "--allow", "sandbox"))
    try:
        with pytest.raises(eddi.Refused) as refused:
            connection.call("python.run", {"script": "print(1)\n", "sender": "mallory"})
        assert refused.value.reply == 'Fail "Sender mallory may not run python.run"'
        ran = connection.call("python.run", {"script": "print(1)\n", "sender": "ann"})
        assert ran == {"exit": 0, "stdout": "1\n", "stderr": ""}
    finally:
        connection.close()


def test_a_read_only_sender_may_not_apply(two_files, server, server_env):
    before = snapshot(two_files)
    with _open(two_files, server, server_env, "--read-only", "rita") as ws:
        with pytest.raises(eddi.Refused) as refused:
            ws._conn.call("python.run", {"script": RENAME, "apply": True, "sender": "rita"})
        assert refused.value.reply == 'Fail "Sender rita may only read, not run python.run with apply"'
        shown = ws._conn.call("python.run", {"script": RENAME, "sender": "rita"})
    assert shown["exit"] == 0 and shown["stderr"].startswith(COLLECTED)
    assert snapshot(two_files) == before
