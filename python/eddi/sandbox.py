"""Untrusted scripts in the kernel's sandbox.

``python3 -m eddi run --sandbox script.py DIR`` runs a script someone else
wrote (a model) in a child that ``eddi-sandbox`` confines before Python
starts (doc/python.org, "The sandbox"): new namespaces (no network), as
nobody when this process is root, Landlock (the interpreter, its standard
library and this package read-only, one scratch folder writable, nothing
else), resource limits, no-new-privileges and a seccomp filter.

The child's only channel to eddi is a pair of inherited pipes speaking the
server's JSON-RPC, relayed here: every call is made as the sender
``sandbox``, only the methods in RELAYED pass at all, and every
``eddi.exec`` goes with ``collect_only``, so that the engine itself lets
the script read, query, preview and collect changes, never write.  The
script gets ``ws`` as any script does; its ``with ws.changeset(...)``
blocks end collected.  When it is done, the caller sees each collected
changeset (its summary and diff) and decides which to apply; the rest are
dropped with the run's session.
"""

import itertools
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading

from .client import RPC_COMMAND_FAILED, find_server
from .errors import ProtocolError, Refused, ServerExited
from .script_text import quote

__all__ = ["SANDBOX_SENDER", "RELAYED", "Collected", "SandboxRunner", "SandboxUnavailable",
           "find_sandbox", "needed_paths", "interpreter", "prepare"]

SANDBOX_SENDER = "sandbox"
# The server's methods a sandboxed script may call; eddi.exec collect-only,
# so the engine refuses every command that writes.
RELAYED = frozenset({"ping", "eddi.exec", "edit.read", "edit.grep", "code.query",
                     "refactor.preview"})
# The engine's reply to a script that collected (doc/scripting.org,
# Replies): the changeset's name.
_COLLECTED = re.compile(r"^Ok, Migration prepared: [^\n]*?, use 'apply changeset ([^'\n]+)'", re.M)
# JSON-RPC's "method not found".
RPC_METHOD_NOT_FOUND = -32601
# What eddi-sandbox exits with when it could not confine (nothing ran).
SANDBOX_FAILED = 125

_PACKAGE = os.path.dirname(os.path.abspath(__file__))

# Run by the chosen interpreter, unconfined (it is ours): the files and
# folders a sandboxed Python needs to start and import this package.
_PROBE = r"""
import os, sys, sysconfig
sys.path.insert(0, sys.argv[1])
import eddi, eddi._sandboxed
paths = {os.path.realpath(sys.executable)}
for key in ("stdlib", "platstdlib"):
    paths.add(os.path.realpath(sysconfig.get_paths()[key]))
for entry in sys.path:
    if entry.endswith("lib-dynload") and os.path.isdir(entry):
        paths.add(os.path.realpath(entry))
with open("/proc/self/maps") as maps:
    for line in maps:
        parts = line.split()
        if len(parts) >= 6 and parts[5].startswith("/") and os.path.isfile(parts[5]):
            paths.add(os.path.realpath(parts[5]))
print("\n".join(sorted(paths)))
"""

# The child's first words: this package from the read-only copy, then the
# script with ws bound over the inherited pipes.
_BOOT = ("import sys; sys.path.insert(0, sys.argv[1]); from eddi._sandboxed import main; "
         "sys.exit(main(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5:]))")


class SandboxUnavailable(Exception):
    """The sandbox cannot run here: the kernel lacks what it needs, or
    eddi-sandbox or a usable interpreter is missing.  Nothing ran."""


def find_sandbox(explicit=None, server=None):
    """eddi-sandbox: explicit, else $EDDI_SANDBOX, else beside the server
    (a build tree's module/ next to its server/), else PATH."""
    for candidate in (explicit, os.environ.get("EDDI_SANDBOX")):
        if candidate:
            return candidate
    try:
        server_path = shutil.which(find_server(server))
    except ServerExited:  # no server found: nothing to look beside
        server_path = None
    if server_path:
        folder = os.path.dirname(os.path.realpath(server_path))
        for beside in (os.path.join(folder, "eddi-sandbox"),
                       os.path.join(os.path.dirname(folder), "module", "eddi-sandbox")):
            if os.access(beside, os.X_OK):
                return beside
    found = shutil.which("eddi-sandbox")
    if not found:
        raise SandboxUnavailable("eddi-sandbox not found: set $EDDI_SANDBOX or put it on PATH")
    return found


def _others_may_run(path, run=True):
    """Whether a user other than the owner may reach path and read it (and
    with run, run it)."""
    path = os.path.realpath(path)
    mode = os.stat(path).st_mode
    if not (mode & stat.S_IROTH and (mode & stat.S_IXOTH or not run)):
        return False
    folder = os.path.dirname(path)
    while True:
        if not os.stat(folder).st_mode & stat.S_IXOTH:
            return False
        if folder == os.path.dirname(folder):
            return True
        folder = os.path.dirname(folder)


def interpreter():
    """The Python the sandbox runs: $EDDI_SANDBOX_PYTHON, else this one.
    As root the sandbox runs as nobody, who must reach it: an interpreter
    under a private home gives way to the system's python3."""
    chosen = os.environ.get("EDDI_SANDBOX_PYTHON") or sys.executable
    if os.geteuid() == 0 and not _others_may_run(chosen):
        system = shutil.which("python3", path="/usr/bin:/bin")
        if not system or not _others_may_run(system):
            raise SandboxUnavailable(
                f"the sandbox runs as nobody, who cannot run {chosen}: "
                "set $EDDI_SANDBOX_PYTHON to a python3 others may run")
        chosen = system
    return os.path.realpath(chosen)


def prepare(base, script=None):
    """In base (a new private folder), the sandbox's two folders: given,
    which holds a copy of this package (and of script) that the sandbox's
    user may read, and scratch, the one it may write.  (given, scratch)."""
    os.chmod(base, 0o711)
    given = os.path.join(base, "given")
    shutil.copytree(_PACKAGE, os.path.join(given, "eddi"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    if script:
        shutil.copyfile(script, os.path.join(given, os.path.basename(script)))
    for folder, _, files in os.walk(given):
        os.chmod(folder, 0o755)
        for name in files:
            os.chmod(os.path.join(folder, name), 0o644)
    scratch = os.path.join(base, "scratch")
    os.mkdir(scratch, 0o700)
    return given, scratch


def needed_paths(python, given):
    """What python needs to read to start and import this package from the
    folder given (which holds its copy): the interpreter, its standard
    library, the shared libraries it maps, and given itself."""
    probe = subprocess.run([python, "-I", "-S", "-B", "-c", _PROBE, given],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        raise SandboxUnavailable(f"{python} cannot import eddi: {probe.stderr.strip()}")
    reads = [path for path in probe.stdout.split("\n") if path] + [given]
    # The loader's cache spares it a search of the library folders, where
    # the sandbox's user may read it.
    cache = "/etc/ld.so.cache"
    if os.path.exists(cache) and (os.geteuid() != 0 or _others_may_run(cache, run=False)):
        reads.append(cache)
    return reads


def _error_of(exc):
    """The JSON-RPC error object an exception of the client stands for."""
    if isinstance(exc, Refused):
        return {"code": RPC_COMMAND_FAILED, "message": exc.reply}
    if isinstance(exc, ProtocolError):
        return {"code": exc.code, "message": exc.message}
    return {"code": -32000, "message": str(exc)}


class Collected:
    """A changeset a sandboxed script collected: its name, the engine's
    summary (``Changeset n (collected): 1 file: a.py +1 -1``) and the
    unified diff of every file; applied once the caller applied it."""

    def __init__(self, name, summary, diff):
        self.name, self.summary, self.diff = name, summary, diff
        self.applied = None  # the engine's reply to apply changeset

    def __repr__(self):
        return f"<Collected {self.name}: {self.summary}>"


class SandboxRunner:
    """Runs a script confined, relaying its calls to the workspace's server
    (``eddi.open(root)``); ``run`` tells what it collected."""

    # How long a script may run by the clock (its CPU limit does not bound
    # a script that waits: on eddi, or asleep).
    TIMEOUT_SECONDS = 60

    def __init__(self, workspace, sandbox=None, server=None, cpu_seconds=None, memory_bytes=None,
                 timeout_seconds=TIMEOUT_SECONDS):
        self.workspace = workspace
        self.timeout_seconds = timeout_seconds
        self.sandbox = find_sandbox(sandbox, server)
        self.cpu_seconds = cpu_seconds
        self.memory_bytes = memory_bytes
        self.refused_methods = []
        self.collected = []  # the last run's changesets (Collected), in order
        self._collected_names = []
        self._runs = itertools.count(1)

    def _relay(self, requests, responses):
        """Answer the child's requests, line by line, until it closes."""
        for line in requests:
            line = line.strip()
            if not line:
                continue
            try:
                request = json.loads(line)
                ident, method = request.get("id"), request.get("method")
                params = dict(request.get("params") or {})
            except (ValueError, AttributeError, TypeError):
                continue
            if method not in RELAYED:
                self.refused_methods.append(method)
                answer = {"error": {"code": RPC_METHOD_NOT_FOUND,
                                    "message": f"A sandboxed script may not call {method}: "
                                               "it may read, query and preview only"}}
            else:
                params["sender"] = SANDBOX_SENDER
                if method == "eddi.exec":
                    params["collect_only"] = True
                try:
                    answer = {"result": self.workspace._conn.call(method, params)}
                except (Refused, ProtocolError, ServerExited) as exc:
                    answer = {"error": _error_of(exc)}
                else:
                    self._note_collected(method, answer["result"])
            if ident is None:
                continue
            answer.update({"jsonrpc": "2.0", "id": ident})
            try:
                responses.write((json.dumps(answer, ensure_ascii=False) + "\n").encode())
                responses.flush()
            except OSError:
                return

    def _note_collected(self, method, result):
        """Keep the names of the changesets an eddi.exec's replies say it
        collected (a name collected again is the newer changeset)."""
        if method != "eddi.exec" or not isinstance(result, dict):
            return
        for reply in result.get("replies") or ():
            found = _COLLECTED.search(reply.get("text", "")) if isinstance(reply, dict) else None
            if found and reply.get("ok"):
                name = found.group(1)
                if name in self._collected_names:
                    self._collected_names.remove(name)
                self._collected_names.append(name)

    def _exec(self, session, text):
        """Text as the run's sender in its session (not collect-only: this
        side is the caller's); the first reply's text, Refused at a Fail."""
        result = self.workspace._conn.call("eddi.exec", {"text": text, "sender": SANDBOX_SENDER,
                                                         "session": session})
        replies = result["replies"]
        failed = next((r["text"] for r in replies if not r["ok"]), None)
        if failed:
            raise Refused(failed)
        return replies[0]["text"]

    def _previews(self, session):
        """What the run collected, each changeset previewed by the engine."""
        collected = []
        for name in self._collected_names:
            try:
                preview = self._exec(session, f"Preview changeset {quote(name)}").partition("\n")
            except Refused:  # collected in another session the script started: not this run's
                continue
            collected.append(Collected(name, preview[0], preview[2]))
        return collected

    def _end(self, session):
        """End the run's session, if the script started it."""
        try:
            self.workspace._conn.call("eddi.exec", {"text": f"End {session}",
                                                    "sender": SANDBOX_SENDER})
        except (Refused, ProtocolError):
            pass

    def run(self, path, argv=(), stdout=None, stderr=None, decide=None):
        """Run the script at path confined; its exit status (1 for a
        failure it reported, 128 + N for signal N, such as SIGXCPU past the
        CPU limit, and SIGKILL past timeout_seconds by the clock).
        SandboxUnavailable when the sandbox could not start (nothing ran).

        The changesets the script collected are in ``self.collected``
        afterwards.  decide(collected) is called with them when the script
        succeeded and collected any, and returns those to apply (each
        through the engine's transaction, in order; a refusal raises
        Refused and applies no later one); the others are dropped."""
        python = interpreter()
        session = f"sandbox-{os.getpid()}-{next(self._runs)}"
        self.collected, self._collected_names = [], []
        base = tempfile.mkdtemp(prefix="eddi-sandbox-")
        try:
            given, scratch = prepare(base, path)
            script = os.path.join(given, os.path.basename(path))
            reads = needed_paths(python, given)
            to_child_r, to_child_w = os.pipe()
            from_child_r, from_child_w = os.pipe()
            command = [self.sandbox, "--scratch", scratch,
                       "--keep", str(to_child_r), "--keep", str(from_child_w),
                       "--env", "PYTHONDONTWRITEBYTECODE=1", "--env", f"HOME={scratch}",
                       "--env", f"TMPDIR={scratch}", "--env", "LANG=C.UTF-8"]
            for read in reads:
                command += ["--read", read]
            if self.cpu_seconds:
                command += ["--cpu", str(self.cpu_seconds)]
            if self.memory_bytes:
                command += ["--memory", str(self.memory_bytes)]
            command += ["--", python, "-I", "-S", "-B", "-c", _BOOT, given,
                        str(to_child_r), str(from_child_w), script, session, path, *argv]
            child = subprocess.Popen(command, pass_fds=(to_child_r, from_child_w),
                                     stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
                                     cwd=scratch)
            os.close(to_child_r)
            os.close(from_child_w)
            with os.fdopen(from_child_r, "rb", buffering=0) as requests, \
                    os.fdopen(to_child_w, "wb", buffering=0) as responses:
                relay = threading.Thread(target=self._relay, args=(requests, responses),
                                         daemon=True)
                relay.start()
                try:
                    status = child.wait(self.timeout_seconds)
                except subprocess.TimeoutExpired:
                    # eddi-sandbox's children die with it, and the
                    # namespace with its init.
                    child.kill()
                    child.wait()
                    status = 128 + signal.SIGKILL
                    sys.stderr.write(
                        f"eddi: the script ran past {self.timeout_seconds} s and was stopped\n")
                relay.join(5)
            if status < 0:
                status = 128 - status
            if status == SANDBOX_FAILED:
                raise SandboxUnavailable(f"eddi-sandbox could not confine the script (exit {status})")
            if self._collected_names:
                self.collected = self._previews(session)
            if status == 0 and self.collected and decide:
                for chosen in decide(self.collected) or ():
                    chosen.applied = self._exec(session, f"apply changeset {quote(chosen.name)}")
            return status
        finally:
            self._end(session)
            shutil.rmtree(base, ignore_errors=True)
