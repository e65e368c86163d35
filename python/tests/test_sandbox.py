"""The sandbox (eddi/sandbox.py, eddi-sandbox): a hostile corpus of
scripts, each trying one known way out, run confined through the real
server.  Every one must be stopped with the error named here, the
workspace and a canary file beside it unchanged.

Each attempt runs inside ``attempt()``; the script prints ``BLOCKED`` and
the exception's class when it raised, ``ESCAPED`` when it did not."""

import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid

import pytest

import eddi
from eddi.sandbox import SANDBOX_FAILED, SandboxRunner, SandboxUnavailable, find_sandbox

from conftest import snapshot, write_tree

WRAPPER = """\
import os, sys
def attempt():
{body}
try:
    attempt()
except BaseException as error:
    print("BLOCKED", type(error).__name__)
else:
    print("ESCAPED")
"""

# (name, what the attempt does, the exception that must stop it).  {ws}
# is the workspace folder, {canary} a file outside it the script must not
# reach, {token} new for each run (no leftover of an earlier run is in the
# way); the script's working folder is its scratch folder.
CORPUS = [
    # --- the file system outside the scratch folder
    ("read_etc_passwd", 'open("/etc/passwd").read()', "PermissionError"),
    ("list_root_home", 'os.listdir("/root")', "PermissionError"),
    ("list_file_system_root", 'os.listdir("/")', "PermissionError"),
    ("read_canary", 'open({canary!r}).read()', "PermissionError"),
    ("write_canary", 'open({canary!r}, "w").write("x")', "PermissionError"),
    ("read_workspace_file", 'open({ws!r} + "/a.py").read()', "PermissionError"),
    ("write_workspace_file", 'open({ws!r} + "/a.py", "w").write("x")', "PermissionError"),
    ("truncate_workspace_file", 'os.truncate({ws!r} + "/a.py", 0)', "PermissionError"),
    ("chmod_workspace_file", 'os.chmod({ws!r} + "/a.py", 0o777)', "PermissionError"),
    ("remove_workspace_file", 'os.remove({ws!r} + "/a.py")', "PermissionError"),
    ("write_tmp", 'open("/tmp/eddi-sandbox-escape-{token}", "w").write("x")', "PermissionError"),
    ("mkdir_tmp", 'os.mkdir("/tmp/eddi-sandbox-escape-dir-{token}")', "PermissionError"),
    ("mkfifo_tmp", 'os.mkfifo("/tmp/eddi-sandbox-escape-fifo-{token}")', "PermissionError"),
    ("relative_walk_up", 'open("../../../../../../etc/passwd").read()', "PermissionError"),
    ("openat_from_root", 'fd = os.open("/", os.O_PATH); os.open("etc/passwd", os.O_RDONLY, dir_fd=fd)',
     "PermissionError"),
    ("symlink_to_etc", 'os.symlink("/etc/passwd", "link"); open("link").read()', "PermissionError"),
    ("symlink_to_workspace", 'os.symlink({ws!r} + "/a.py", "ws-link"); open("ws-link", "w")',
     "PermissionError"),
    ("hardlink_workspace_file", 'os.link({ws!r} + "/a.py", "hard")', "OSError"),
    ("rename_out_of_scratch", 'open("x", "w").close(); os.rename("x", "/tmp/eddi-moved-{token}")',
     "PermissionError"),
    ("read_proc_self_mem", 'open("/proc/self/mem", "rb").read(1)', "PermissionError"),
    ("write_proc_self_mem", 'open("/proc/self/mem", "wb")', "PermissionError"),
    ("read_proc_self_maps", 'open("/proc/self/maps").read()', "PermissionError"),
    ("read_init_environ", 'open("/proc/1/environ").read()', "PermissionError"),
    ("list_own_descriptors", 'os.listdir("/proc/self/fd")', "PermissionError"),
    ("read_sys", 'open("/sys/kernel/notes", "rb").read()', "PermissionError"),
    ("read_dev_zero", 'open("/dev/zero", "rb")', "PermissionError"),
    ("write_dev_shm", 'open("/dev/shm/eddi-escape-{token}", "w")', "PermissionError"),
    ("mknod_in_scratch", 'import stat; os.mknod("dev", stat.S_IFCHR | 0o600, os.makedev(1, 3))',
     "PermissionError"),
    ("list_site_packages", 'os.listdir("/usr/lib/python3/dist-packages")', "PermissionError"),
    ("append_to_stdlib", 'open(os.__file__, "a")', "PermissionError"),
    ("append_to_eddi_package", 'import eddi; open(eddi.__file__, "a")', "PermissionError"),
    ("importlib_reads_outside",
     'import importlib.machinery as m; m.SourceFileLoader("p", "/etc/passwd").get_data("/etc/passwd")',
     "PermissionError"),
    ("fileio_through_subclasses",
     'io = [c for c in object.__subclasses__() if c.__name__ == "_IOBase"][0]; '
     'f = [c for c in io.__subclasses__() if c.__name__ == "_RawIOBase"][0]; '
     'fileio = [c for c in f.__subclasses__() if c.__name__ == "FileIO"][0]; fileio("/etc/passwd")',
     "PermissionError"),
    # --- running other programs
    ("exec_shell", 'os.execv("/bin/sh", ["sh", "-c", "id"])', "PermissionError"),
    ("subprocess_true", 'import subprocess; subprocess.run(["/bin/true"])', "PermissionError"),
    ("os_system",
     'status = os.system("cat /etc/passwd")\n    if status: raise ChildProcessError(status)',
     "ChildProcessError"),
    ("dunder_walk_to_system",
     'w = [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == "_wrap_close"][0]; '
     'status = w.__init__.__globals__["system"]("id")\n    if status: raise ChildProcessError(status)',
     "ChildProcessError"),
    ("ctypes_libc", 'import ctypes; ctypes.CDLL("libc.so.6").ptrace(16, 1, 0, 0)', "ImportError"),
    ("setuid_root", "os.setuid(0)", "OSError"),
    ("setgid_root", "os.setgid(0)", "OSError"),
    # --- other processes
    ("kill_init", 'import signal; os.kill(1, signal.SIGKILL)', "PermissionError"),
    ("kill_parent", 'import signal; os.kill(os.getppid(), signal.SIGKILL)', "PermissionError"),
    ("fork_bomb",
     'import time\n    while True:\n        if os.fork() == 0:\n            time.sleep(30)\n'
     '            os._exit(0)', "BlockingIOError"),
    ("thread_bomb",
     'import threading, time\n    while True:\n'
     '        threading.Thread(target=time.sleep, args=(30,), daemon=True).start()',
     "RuntimeError"),
    # --- the network
    ("socket_inet", "import socket; socket.socket(socket.AF_INET, socket.SOCK_STREAM)",
     "PermissionError"),
    ("socket_inet6", "import socket; socket.socket(socket.AF_INET6, socket.SOCK_STREAM)",
     "PermissionError"),
    ("socket_udp", "import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM)",
     "PermissionError"),
    ("socket_unix", "import socket; socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)",
     "PermissionError"),
    ("socket_netlink", "import socket; socket.socket(socket.AF_NETLINK, socket.SOCK_RAW)",
     "PermissionError"),
    ("socket_packet", "import socket; socket.socket(socket.AF_PACKET, socket.SOCK_RAW)",
     "PermissionError"),
    ("connect_loopback", 'import socket; socket.create_connection(("127.0.0.1", 22), timeout=1)',
     "PermissionError"),
    ("resolve_a_name", 'import socket; socket.getaddrinfo("example.com", 80)', "gaierror"),
    ("terminal_injection", 'import fcntl, termios; fcntl.ioctl(0, termios.TIOCSTI, b"x")',
     "PermissionError"),
    # --- resources
    ("huge_allocation", "bytearray(4 << 30)", "MemoryError"),
    ("huge_file", 'f = open("big", "wb")\n    for _ in range(200):\n        f.write(b"x" * (1 << 20))',
     "OSError"),
    ("many_open_files", 'files = [open("f%d" % i, "w") for i in range(200)]', "OSError"),
    # --- eddi itself: the script reads and collects through ws, never writes
    ("ws_exec_replace_and_save", 'ws.exec("Open a.py\\nReplace \\"one\\" \\"two\\"\\nSave")',
     "Refused"),
    ("ws_changeset_then_apply",
     'with ws.changeset("r") as cs:\n        cs.rename("a.py:one", "two")\n'
     '    ws.exec("apply changeset " + cs.name)', "Refused"),
    ("ws_script_not_collected",
     'ws.exec(\'{{ foreach file matching "a.py" {{ replace "one" with "two" }} }}\')', "Refused"),
    ("ws_script_collected_last",
     'ws.exec(\'{{ foreach file matching "a.py" {{ replace "one" with "two" }}\\n'
     'collect changes as "x" }}\')', "Refused"),
    ("ws_collect_only_turned_off",
     'r = eddi.Replies(ws._conn.call("eddi.exec", {{"text": "Open a.py\\nReplace \\"one\\" '
     '\\"two\\"\\nSave", "collect_only": False}}))\n'
     '    if r.failed: raise eddi.Refused(r.failed)', "Refused"),
    ("ws_file_update", 'ws.update("a.py", "x = 1\\n")', "ProtocolError"),
    ("ws_apply_patch", 'ws.call("edit.apply_patch", patch="*** Begin Patch\\n*** End Patch")',
     "ProtocolError"),
    ("ws_tools_call", 'ws._conn.call("tools/call", {{"name": "Replace"}})', "ProtocolError"),
    ("ws_as_another_sender",
     'r = eddi.Replies(ws._conn.call("eddi.exec", {{"text": "Open a.py\\nReplace \\"one\\" '
     '\\"two\\"\\nSave", "sender": "python-someone-else"}}))\n'
     '    if r.failed: raise eddi.Refused(r.failed)', "Refused"),
    ("environment_is_clean",
     'allowed = {{"PYTHONDONTWRITEBYTECODE", "HOME", "TMPDIR", "LANG"}}\n'
     '    leaked = sorted(set(os.environ) - allowed)\n'
     '    if not leaked: raise LookupError("nothing inherited")', "LookupError"),
]

A_PY = "def one():\n    return 1\n"


@pytest.fixture(scope="module")
def sandbox_setup(server, tmp_path_factory):
    try:
        subprocess.run([find_sandbox(server=server), "--check"], check=True, capture_output=True)
    except (SandboxUnavailable, subprocess.CalledProcessError) as why:
        pytest.fail(f"the sandbox cannot run on this machine: {why}")
    # The workspace and the canary are open to every user (folders 0777,
    # files 0666), so that only the sandbox, not the files' modes, keeps the
    # script out of them.
    base = pathlib.Path(tempfile.mkdtemp(prefix="eddi-sandbox-test-"))
    root = base / "ws"
    write_tree(root, {"a.py": A_PY})
    canary = base / "canary.txt"
    canary.write_text("mine\n")
    for path in (base, root):
        path.chmod(0o777)
    for path in (root / "a.py", canary):
        path.chmod(0o666)
    # The journal stays where no other user can change it.
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path_factory.mktemp("state")))
    try:
        with eddi.open(root, server=server, env=env) as ws:
            yield ws, root, canary, SandboxRunner(ws, server=server, cpu_seconds=3)
    finally:
        shutil.rmtree(base)


def _run(runner, source, tmp_path, decide=None):
    script = tmp_path / "script.py"
    script.write_text(source)
    out, err = tmp_path / "out", tmp_path / "err"
    with open(out, "wb") as stdout, open(err, "wb") as stderr:
        status = runner.run(str(script), stdout=stdout, stderr=stderr, decide=decide)
    return status, out.read_text(), err.read_text()


@pytest.mark.parametrize("name,body,stopped_by", CORPUS, ids=[case[0] for case in CORPUS])
def test_hostile_script_is_stopped(sandbox_setup, tmp_path, name, body, stopped_by):
    ws, root, canary, runner = sandbox_setup
    before = snapshot(root)
    body = body.format(ws=str(root), canary=str(canary), token=uuid.uuid4().hex)
    source = WRAPPER.format(body="    " + body)
    status, out, err = _run(runner, source, tmp_path)
    assert (status, out) == (0, f"BLOCKED {stopped_by}\n"), err
    assert snapshot(root) == before
    assert canary.read_text() == "mine\n"


def test_corpus_has_sixty_scripts():
    assert len(CORPUS) >= 60
    assert len({case[0] for case in CORPUS}) == len(CORPUS)


def test_endless_loop_is_killed_at_the_cpu_limit(sandbox_setup, tmp_path):
    ws, root, canary, runner = sandbox_setup
    status, out, err = _run(runner, "while True:\n    pass\n", tmp_path)
    assert (status, out) == (128 + signal.SIGXCPU, "")


def test_waiting_script_is_stopped_by_the_clock(sandbox_setup, tmp_path):
    """A script that forks a child and sleeps uses no CPU: the runner's
    clock stops it, and the child ends with the sandbox."""
    ws, root, canary, runner = sandbox_setup
    clock = SandboxRunner(ws, sandbox=runner.sandbox, timeout_seconds=2)
    name = f"sleeper-{uuid.uuid4().hex}.py"
    script = tmp_path / name
    script.write_text("import os, time\nif os.fork() == 0:\n    time.sleep(60)\ntime.sleep(60)\n")
    started = time.monotonic()
    with open(tmp_path / "err", "wb") as stderr:
        status = clock.run(str(script), stderr=stderr)
    assert status == 128 + signal.SIGKILL
    assert time.monotonic() - started < 10
    # The sandboxed processes name the script's copy in their arguments.
    for _ in range(50):
        left = subprocess.run(["pgrep", "-f", name], capture_output=True, text=True)
        if left.stdout == "":
            break
        time.sleep(0.1)
    assert left.stdout == ""


def test_script_reads_the_workspace_through_ws(sandbox_setup, tmp_path):
    ws, root, canary, runner = sandbox_setup
    status, out, err = _run(runner, 'print([f.path for f in ws.files("*.py")])\n'
                                    'print(ws.say("Open a.py"))\n'
                                    'print(ws.read("a.py").splitlines()[1])\n', tmp_path)
    assert (status, out) == (0, "['a.py']\nOk, At 0:0, Length 2\n1:def one():\n"), err


RENAME_ONE = ('with ws.changeset("r") as cs:\n'
              '    cs.rename("a.py:one", "uno")\n'
              'print(cs.state, cs.name)\n')
RENAME_ONE_DIFF = ("--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n-def one():\n+def uno():\n"
                   "     return 1")


def test_sandboxed_changeset_is_collected_not_written(sandbox_setup, tmp_path):
    ws, root, canary, runner = sandbox_setup
    before = snapshot(root)
    offered = []
    status, out, err = _run(runner, RENAME_ONE, tmp_path,
                            decide=lambda collected: offered.extend(collected))
    assert (status, out) == (0, "collected r-1\n"), err
    assert [(c.name, c.summary, c.diff) for c in runner.collected] == [
        ("r-1", "Ok, Changeset r-1 (collected): 1 file: a.py +1 -1", RENAME_ONE_DIFF)]
    assert offered == runner.collected
    assert runner.collected[0].applied is None
    assert snapshot(root) == before


def test_failed_script_applies_nothing_it_collected(sandbox_setup, tmp_path):
    ws, root, canary, runner = sandbox_setup
    before = snapshot(root)
    status, out, err = _run(runner, RENAME_ONE + "raise ValueError('after')\n", tmp_path,
                            decide=lambda collected: collected)
    assert (status, out) == (1, "collected r-1\n"), err
    assert err.endswith("ValueError: after\n")
    assert [c.applied for c in runner.collected] == [None]
    assert snapshot(root) == before


def test_caller_applies_what_the_script_collected(server, server_env, tmp_path):
    root = tmp_path / "ws"
    write_tree(root, {"a.py": A_PY, "b.py": "from a import one\nprint(one())\n"})
    with eddi.open(root, server=server, env=server_env) as ws:
        runner = SandboxRunner(ws, server=server, cpu_seconds=3)
        status, out, err = _run(runner, RENAME_ONE, tmp_path, decide=lambda collected: collected)
    assert (status, out) == (0, "collected r-1\n"), err
    assert [(c.summary, c.applied) for c in runner.collected] == [
        ("Ok, Changeset r-1 (collected): 2 files: a.py +1 -1, b.py +2 -2",
         "Ok, Applied changeset r-1: 2 files")]
    assert (root / "a.py").read_text() == "def uno():\n    return 1\n"
    assert (root / "b.py").read_text() == "from a import uno\nprint(uno())\n"


def test_collect_only_must_be_a_boolean(ws):
    with pytest.raises(eddi.ProtocolError) as refused:
        ws._conn.call("eddi.exec", {"text": "Status", "collect_only": "yes"})
    assert (refused.value.code, refused.value.message) == (
        -32602, "params.collect_only must be true or false")


def test_failure_shows_the_scripts_own_lines(sandbox_setup, tmp_path):
    ws, root, canary, runner = sandbox_setup
    status, out, err = _run(runner, "x = 1\n\nraise ValueError('no')\n", tmp_path)
    script = str(tmp_path / "script.py")
    assert status == 1
    assert err == ("Traceback (most recent call last):\n"
                   f'  File "{script}", line 3, in <module>\n'
                   "ValueError: no\n")


def test_run_sandbox_from_the_command_line(server, tree, server_env, tmp_path):
    script = tmp_path / "s.py"
    script.write_text('print(ws.say("Open shop.py"))\nopen("/etc/passwd")\n')
    here = pathlib.Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-m", "eddi", "run", "--sandbox", "--server", server,
                           str(script), str(tree)], cwd=here, env=server_env,
                          capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stdout == "Ok, At 0:0, Length 19\n"
    assert done.stderr.endswith("PermissionError: [Errno 13] Permission denied: '/etc/passwd'\n")


def test_run_sandbox_shows_then_applies_with_apply(server, server_env, tmp_path):
    root = tmp_path / "ws"
    write_tree(root, {"a.py": A_PY})
    script = tmp_path / "s.py"
    script.write_text(RENAME_ONE)
    here = pathlib.Path(__file__).resolve().parent.parent
    command = [sys.executable, "-m", "eddi", "run", "--sandbox", "--server", server,
               str(script), str(root)]
    shown = subprocess.run(command, cwd=here, env=server_env, capture_output=True, text=True)
    assert (shown.returncode, shown.stdout) == (0, "collected r-1\n"), shown.stderr
    assert shown.stderr == ("eddi: the script collected Ok, Changeset r-1 (collected): 1 file: "
                            f"a.py +1 -1\n{RENAME_ONE_DIFF}\n"
                            "eddi: nothing was written; run again with --apply to write it\n")
    assert (root / "a.py").read_text() == A_PY
    applied = subprocess.run(command[:4] + ["--apply"] + command[4:], cwd=here, env=server_env,
                             capture_output=True, text=True)
    assert (applied.returncode, applied.stdout) == (0, "collected r-1\n"), applied.stderr
    assert applied.stderr.endswith("eddi: Ok, Applied changeset r-1: 1 file\n")
    assert (root / "a.py").read_text() == "def uno():\n    return 1\n"


def test_sandbox_that_cannot_confine_runs_nothing(server, tmp_path):
    """eddi-sandbox refusing a step of the confinement (here: a read path
    that is not there) exits 125 saying why, and nothing ran."""
    marker = tmp_path / "ran"
    done = subprocess.run([find_sandbox(server=server), "--read", "/nonexistent-eddi-path", "--",
                           "/usr/bin/touch", str(marker)], capture_output=True, text=True)
    assert done.returncode == SANDBOX_FAILED
    assert done.stderr == ("eddi-sandbox: The sandbox could not be set up (/nonexistent-eddi-path: "
                           "No such file or directory); nothing ran. Each --read path must exist "
                           "and the sandbox's user must be able to reach it; the kernel must allow "
                           "unprivileged user namespaces, Landlock and seccomp\n")
    assert not marker.exists()
