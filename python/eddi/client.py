"""JSON-RPC 2.0 to eddi-server, one JSON message a line (doc/protocol.org).

Two connections speak the same protocol: :class:`Connection`, blocking,
with a reader thread that hands each response to the call waiting for its
id (responses may come out of order), and :class:`AsyncConnection` on
asyncio's subprocess streams.  Either talks to a server it spawned
(``eddi-server --stdio --root DIR``) or, through :meth:`Connection.over`,
to any pair of pipes that speak the protocol: the seam a sandboxed script
will use, whose only channel to eddi is an inherited pipe.
"""

import asyncio
import itertools
import json
import os
import shutil
import subprocess
import threading
from collections import deque
from concurrent.futures import Future

from .errors import ProtocolError, Refused, ServerExited

__all__ = ["find_server", "server_command", "Connection", "AsyncConnection"]

# The engine's Fail, as eddi-server's edit methods answer it.
RPC_COMMAND_FAILED = -32000
# Lines of the server's stderr kept to say why it ended.
STDERR_LINES_KEPT = 20


def find_server(server=None):
    """The eddi-server to run: server if given, else $EDDI_SERVER, else the
    first on PATH."""
    found = server or os.environ.get("EDDI_SERVER") or shutil.which("eddi-server")
    if not found:
        raise EddiServerNotFound()
    return os.fspath(found)


class EddiServerNotFound(ServerExited):
    def __init__(self):
        super().__init__(
            "eddi-server not found: pass server=PATH, set $EDDI_SERVER, or put it on PATH"
        )


def server_command(root, server=None, journal=True, extra=()):
    """The argument vector that serves root over stdio."""
    argv = [find_server(server), "--stdio", "--quiet", "--root", os.fspath(root)]
    if not journal:
        argv.append("--no-journal")
    argv.extend(extra)
    return argv


def _request_line(ident, method, params):
    message = {"jsonrpc": "2.0", "id": ident, "method": method, "params": params}
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def _outcome(message):
    """The result of a response, or the exception its error stands for."""
    if "error" not in message:
        return message.get("result"), None
    error = message["error"] or {}
    code, text = error.get("code"), error.get("message", "")
    if code == RPC_COMMAND_FAILED:
        return None, Refused(text)
    return None, ProtocolError(code, text)


class Connection:
    """A blocking JSON-RPC connection; thread-safe (calls may overlap)."""

    def __init__(self, reader, writer, process=None):
        self._reader = reader
        self._writer = writer
        self._process = process
        self._ids = itertools.count(1)
        self._pending = {}
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._closed = None  # the reason, once the input ended
        self._stderr = deque(maxlen=STDERR_LINES_KEPT)
        self._thread = threading.Thread(target=self._read, name="eddi-reader", daemon=True)
        self._thread.start()
        if process is not None and process.stderr is not None:
            threading.Thread(target=self._drain_stderr, name="eddi-stderr", daemon=True).start()

    @classmethod
    def spawn(cls, root, server=None, journal=True, env=None, extra=()):
        argv = server_command(root, server, journal, extra)
        process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        return cls(process.stdout, process.stdin, process)

    @classmethod
    def over(cls, read_fd, write_fd):
        """A connection over two inherited file descriptors."""
        return cls(os.fdopen(read_fd, "rb", buffering=0), os.fdopen(write_fd, "wb", buffering=0))

    @property
    def pid(self):
        return self._process.pid if self._process else None

    def _drain_stderr(self):
        for line in self._process.stderr:
            self._stderr.append(line.decode("utf-8", "replace").rstrip("\n"))

    def _why_closed(self):
        said = "; ".join(self._stderr)
        return "eddi-server closed the connection" + (f": {said}" if said else "")

    def _read(self):
        for line in self._reader:
            line = line.strip()
            if not line:
                continue
            try:
                message = json.loads(line)
            except ValueError:
                continue
            with self._lock:
                waiter = self._pending.pop(message.get("id"), None)
            if waiter is not None:
                waiter.set_result(message)
        with self._lock:
            self._closed = self._why_closed()
            waiters, self._pending = list(self._pending.values()), {}
        for waiter in waiters:
            waiter.set_exception(ServerExited(self._closed))

    def call(self, method, params=None, timeout=None):
        """The method's result; Refused for the engine's Fail,
        ProtocolError for other errors."""
        ident = next(self._ids)
        waiter = Future()
        with self._lock:
            if self._closed:
                raise ServerExited(self._closed)
            self._pending[ident] = waiter
        try:
            with self._write_lock:
                self._writer.write(_request_line(ident, method, params or {}))
                self._writer.flush()
        except (BrokenPipeError, OSError) as error:
            with self._lock:
                self._pending.pop(ident, None)
            raise ServerExited(f"{self._why_closed()} ({error})") from None
        result, error = _outcome(waiter.result(timeout))
        if error:
            raise error
        return result

    def close(self, timeout=10):
        """End input (the server exits 0 at end of input) and wait."""
        try:
            self._writer.close()
        except OSError:
            pass
        if self._process is not None:
            try:
                self._process.wait(timeout)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._thread.join(timeout)


class AsyncConnection:
    """The same protocol on asyncio: ``await conn.call(method, params)``."""

    def __init__(self, reader, writer, process=None):
        self._reader = reader
        self._writer = writer
        self._process = process
        self._ids = itertools.count(1)
        self._pending = {}
        self._closed = None
        self._task = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def spawn(cls, root, server=None, journal=True, env=None, extra=()):
        argv = server_command(root, server, journal, extra)
        process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            env=env,
            limit=64 * 1024 * 1024,
        )
        return cls(process.stdout, process.stdin, process)

    @property
    def pid(self):
        return self._process.pid if self._process else None

    async def _read(self):
        try:
            while True:
                line = await self._reader.readline()
                if not line:
                    break
                line = line.strip()
                if not line:
                    continue
                try:
                    message = json.loads(line)
                except ValueError:
                    continue
                waiter = self._pending.pop(message.get("id"), None)
                if waiter is not None and not waiter.done():
                    waiter.set_result(message)
        finally:
            self._closed = "eddi-server closed the connection"
            for waiter in self._pending.values():
                if not waiter.done():
                    waiter.set_exception(ServerExited(self._closed))
            self._pending = {}

    async def call(self, method, params=None):
        if self._closed:
            raise ServerExited(self._closed)
        ident = next(self._ids)
        waiter = asyncio.get_running_loop().create_future()
        self._pending[ident] = waiter
        try:
            self._writer.write(_request_line(ident, method, params or {}))
            await self._writer.drain()
        except (BrokenPipeError, ConnectionResetError) as error:
            self._pending.pop(ident, None)
            raise ServerExited(f"eddi-server closed the connection ({error})") from None
        result, error = _outcome(await waiter)
        if error:
            raise error
        return result

    async def close(self, timeout=10):
        self._writer.close()
        if self._process is not None:
            try:
                await asyncio.wait_for(self._process.wait(), timeout)
            except asyncio.TimeoutError:
                self._process.kill()
                await self._process.wait()
        await self._task
