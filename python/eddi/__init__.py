"""eddi from Python: iterate over code, change it in changesets.

    import eddi
    with eddi.open("/repo") as ws:
        for method in ws.files("**/*.py").classes("UserManager").methods(complexity_gt=8):
            print(method.location, method.complexity)
        with ws.changeset("rename") as cs:
            cs.rename("Cart.total", "grand_total")
            print(cs.diff())
        # written here, all files at once; ws.undo() takes it back

The package speaks JSON-RPC to ``eddi-server --stdio`` (the binary: the
``server`` argument, else $EDDI_SERVER, else PATH).  Everything it knows
about code comes from the engine: doc/python.org.
"""

from .changeset import Changeset, Check
from .client import AsyncConnection, Connection, find_server
from .errors import EddiError, ProtocolError, Refused, ServerExited
from .model import Call, Class, Element, File, Function, Import, Line, Method, Query, Variable
from .workspace import AsyncWorkspace, Replies, Workspace

__all__ = [
    "open", "aopen", "attach", "Workspace", "AsyncWorkspace", "Changeset", "Check", "Query", "Replies",
    "Element", "File", "Class", "Function", "Method", "Call", "Import", "Variable", "Line",
    "EddiError", "Refused", "ProtocolError", "ServerExited", "Connection", "AsyncConnection",
    "find_server",
]

__version__ = "0.1.0"


def open(root, server=None, journal=True, env=None, server_args=()):  # noqa: A001 (eddi.open)
    """A Workspace on root, served by a new eddi-server; close it (or use
    ``with``) to stop the server.  journal=False runs it with --no-journal."""
    connection = Connection.spawn(root, server=server, journal=journal, env=env,
                                  extra=server_args)
    workspace = Workspace(connection, root)
    try:
        return workspace.start()
    except BaseException:
        connection.close()
        raise


def attach(read_fd, write_fd, root=None):
    """A Workspace over a connection someone else opened (two inherited
    file descriptors speaking the server's JSON-RPC)."""
    return Workspace(Connection.over(read_fd, write_fd), root).start()


class _AsyncOpen:
    """``async with eddi.aopen(root) as ws`` and ``ws = await eddi.aopen(root)``."""

    def __init__(self, root, **options):
        self._root, self._options, self._ws = root, options, None

    async def _open(self):
        options = dict(self._options)
        extra = options.pop("server_args", ())
        connection = await AsyncConnection.spawn(self._root, extra=extra, **options)
        workspace = AsyncWorkspace(connection, self._root)
        try:
            return await workspace.start()
        except BaseException:
            await connection.close()
            raise

    def __await__(self):
        return self._open().__await__()

    async def __aenter__(self):
        self._ws = await self._open()
        return self._ws

    async def __aexit__(self, *exc):
        await self._ws.close()
        return False


def aopen(root, server=None, journal=True, env=None, server_args=()):
    """The awaitable form of open."""
    return _AsyncOpen(root, server=server, journal=journal, env=env, server_args=server_args)
