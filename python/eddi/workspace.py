"""A workspace: one eddi-server, one session, the code as objects.

``Workspace`` blocks; ``AsyncWorkspace`` has the same methods as
coroutines (queries iterate with ``async for``, changesets are
``async with``).  Both hold one session of their own sender, started with
the raw response format so that previews come with their diffs.
"""

import itertools
import os
import secrets

from .changeset import Changeset, Check
from .errors import EddiError, Refused
from .model import File, Query
from .script_text import quote, where_clause

__all__ = ["Workspace", "AsyncWorkspace", "Replies"]


class Replies(list):
    """The engine's reply lines to one message, in order; ``ok`` per line."""

    def __init__(self, result):
        super().__init__(item["text"] for item in result["replies"])
        self.ok = [item["ok"] for item in result["replies"]]

    @property
    def failed(self):
        """The first Fail line, or None."""
        return next((text for text, ok in zip(self, self.ok) if not ok), None)


def _files_query_text(glob):
    return "file matching " + quote(glob)


def _slice(text, element):
    """The part of text from element's start to its end (line:col, columns
    in characters, as Python indexes str)."""
    lines = text.split("\n")
    if element.line == element.end_line:
        return lines[element.line][element.col:element.end_col]
    parts = [lines[element.line][element.col:]]
    parts += lines[element.line + 1 : element.end_line]
    parts.append(lines[element.end_line][: element.end_col] if element.end_line < len(lines) else "")
    return "\n".join(parts)


class _Base:
    """What both workspaces share: names, queries (lazy, no I/O), params."""

    is_async = False

    def __init__(self, connection, root=None, sender=None, session=None):
        self._conn = connection
        self.root = os.fspath(root) if root is not None else None
        self.sender = sender or f"python-{os.getpid()}-{secrets.token_hex(4)}"
        self.session = session or self.sender
        self._names = itertools.count(1)
        self.history = []  # committed changesets, the newest last
        # Changesets are collected, never applied, when a normal exit of the
        # with block commits them: the sandboxed script's side, whose
        # caller decides what to apply.
        self.collect_only = False

    @property
    def server_pid(self):
        return self._conn.pid

    def _params(self, method, params):
        params = {k: v for k, v in params.items() if v is not None}
        if method != "ping":
            params.setdefault("sender", self.sender)
        return params

    # ------------------------------------------------------------ queries (lazy)

    def files(self, glob, **conditions):
        """Files of the workspace walk (.gitignore honoured): ``*`` and ``?``
        within a folder, ``**`` across; a glob without ``/`` matches names.
        The engine reads every file the glob matches, and refuses the set
        when one is binary: give a glob of source files (``**/*.py``)."""
        return Query(self, _files_query_text(glob), None, conditions, file_glob=glob)

    def classes(self, name=None, **conditions):
        return Query(self, "class" + (" " + quote(name) if name else ""), None, conditions)

    def functions(self, name=None, **conditions):
        """Top-level and nested functions, not methods."""
        return Query(self, "function", None, dict(conditions, name=name, kind="function"))

    def methods(self, name=None, cls=None, **conditions):
        conditions = dict(conditions, name=name)
        if cls:
            return Query(self, "method in " + quote(cls), None, conditions)
        return Query(self, "method", None, conditions)

    def imports(self, **conditions):
        return Query(self, "import", None, conditions)

    def variables(self, **conditions):
        return Query(self, "symbol of type variable", None, conditions)

    def callers_of(self, target, **conditions):
        """Calls whose callee resolves to target (``Cart.total``,
        ``shop/cart.py:total``)."""
        return Query(self, "caller of " + quote(target), None, conditions)

    def calls_to(self, target, **conditions):
        """As callers_of, and for a module the workspace lacks
        (``old_auth.login``) the calls bound through its imports."""
        return Query(self, "call to " + quote(target), None, conditions)

    def subclasses_of(self, target, **conditions):
        return Query(self, "class implementing " + quote(target), None, conditions)

    def select(self, query, files=None, path=None):
        """Any set of the script language, as written there:
        ``ws.select("methods in Cart where complexity > 3")``."""
        return Query(self, query, files, None, path=path)

    def changeset(self, label="changes"):
        return Changeset(self, label)

    def _next_name(self, changeset):
        return f"{changeset.label}-{next(self._names)}"


class Workspace(_Base):
    """A blocking workspace; ``eddi.open(root)`` makes one."""

    def start(self):
        self.exec(f"Start {self.session}\nSet response_format raw")
        return self

    # ------------------------------------------------------------ the wire

    def call(self, method, **params):
        """A JSON-RPC method of the server, as this workspace's sender."""
        return self._conn.call(method, self._params(method, params))

    def exec(self, text, check=True):
        """EddiSpeak text; the reply lines.  check: raise Refused at a Fail."""
        replies = Replies(self.call("eddi.exec", text=text, session=self.session))
        if check and replies.failed:
            raise Refused(replies.failed)
        return replies

    def say(self, command):
        """One command; its reply line."""
        return self.exec(command)[0]

    # ------------------------------------------------------------ typed calls

    def read(self, path, offset=None, limit=None):
        """Hashline read: ``[PATH#TAG]`` then ``N:TEXT`` rows."""
        return self.call("edit.read", path=path, offset=offset, limit=limit)["text"]

    def grep(self, pattern, glob=None, offset=None, ignore_case=False):
        return self.call("edit.grep", pattern=pattern, glob=glob, offset=offset,
                         ignore_case=ignore_case or None)["text"]

    def update(self, path, content):
        """file.update: ``<change>`` or SEARCH/REPLACE blocks; a missing
        file is created with content."""
        return self.call("file.update", path=path, content=content)

    def apply_patch(self, patch):
        return self.call("edit.apply_patch", patch=patch)

    def hashline(self, patch):
        return self.call("edit.hashline", patch=patch)

    def search_replace(self, content, path=None):
        return self.call("edit.search_replace", content=content, path=path)

    def replace(self, file_path, old_string, new_string, replace_all=False):
        return self.call("edit.replace", file_path=file_path, old_string=old_string,
                         new_string=new_string, replace_all=replace_all or None)

    def rename(self, target, new_name, unsure=False, leave=False):
        """Refactor RenameSymbol now, across files, its own transaction."""
        return self.call("refactor.rename", operation="RenameSymbol", target=target,
                         new_name=new_name, unsure=unsure or None, leave=leave or None)

    def preview_rename(self, target, new_name, unsure=False, leave=False):
        """What rename would change: the reply line, then the diff."""
        return self.call("refactor.preview", operation="RenameSymbol", target=target,
                         new_name=new_name, unsure=unsure or None, leave=leave or None)["text"]

    def query(self, query, files=None, path=None, offset=0, limit=None, text=False):
        """One page of code.query, as the server sends it."""
        return self.call("code.query", query=query, files=files, path=path, offset=offset,
                         limit=limit, text=text or None)

    def file(self, path):
        """The file at path (a workspace path), or Refused."""
        found = self.query(_files_query_text(path) + " where " + where_clause({"path": path}),
                           limit=1)
        if not found["elements"]:
            raise Refused(f'Fail "File not found: {path}"')
        return File(self, found["elements"][0])

    def _file_text(self, path):
        found = self.query(_files_query_text(path) + " where " + where_clause({"path": path}),
                           limit=1, text=True)
        if not found["elements"]:
            raise Refused(f'Fail "File not found: {path}"')
        return found["elements"][0]["text"]

    def _element_text(self, element):
        return _slice(self._file_text(element.path), element)

    # ------------------------------------------------------------ changesets

    def _collect(self, changeset):
        if not changeset._ops or not changeset._stale():
            return
        for index, query in changeset.selection_checks():
            changeset.decide(index, self.query(query, limit=1)["total"])
        name = self._next_name(changeset)
        replies = self.exec(changeset.script(name), check=False)
        if replies.failed:
            raise changeset.refusal(replies.failed)
        changeset.name, changeset._collected, changeset.summary = name, len(changeset._ops), replies[0]

    def _changeset_diff(self, changeset):
        self._collect(changeset)
        if not changeset._ops:
            return ""
        preview = self.say(f"Preview changeset {quote(changeset.name)}")
        return preview.partition("\n")[2]

    def _changeset_check(self, changeset):
        self._collect(changeset)
        if not changeset._ops:
            return Check("")
        return Check(self.say(f"Preview changeset {quote(changeset.name)}").partition("\n")[0])

    def _changeset_commit(self, changeset):
        if changeset.state != "open":
            raise EddiError(f"changeset {changeset.label} is {changeset.state}")
        self._collect(changeset)
        if self.collect_only:
            changeset.state = "collected"
            return changeset
        if changeset._ops:
            replies = self.exec(f"apply changeset {quote(changeset.name)}", check=False)
            if replies.failed:
                changeset.state = "refused"
                raise Refused(replies.failed, operation="apply changeset")
            changeset.applied = replies[0]
            self.history.append(changeset)
        changeset.state = "committed"
        return changeset

    def undo(self, changeset=None):
        """Take a committed changeset back (the newest by default): the exact
        bytes from before it, refused if a file changed since."""
        if changeset is None:
            if not self.history:
                raise EddiError("Nothing to undo: no changeset of this workspace is committed")
            changeset = self.history[-1]
        reply = self.exec(f"rollback changeset {quote(changeset.name)}", check=False)
        if reply.failed:
            raise Refused(reply.failed, operation="rollback changeset")
        self.history.remove(changeset)
        changeset.state = "undone"
        return reply[0]

    # ------------------------------------------------------------ the end

    def close(self):
        """End the session and stop the server."""
        if self._conn is None:
            return
        try:
            self.exec("End", check=False)
        except EddiError:
            pass
        self._conn.close()
        self._conn = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        return f"<eddi.Workspace {self.root} session {self.session}>"


class AsyncWorkspace(_Base):
    """The same workspace on asyncio; ``eddi.aopen(root)`` makes one."""

    is_async = True

    async def start(self):
        await self.exec(f"Start {self.session}\nSet response_format raw")
        return self

    async def call(self, method, **params):
        return await self._conn.call(method, self._params(method, params))

    async def exec(self, text, check=True):
        replies = Replies(await self.call("eddi.exec", text=text, session=self.session))
        if check and replies.failed:
            raise Refused(replies.failed)
        return replies

    async def say(self, command):
        return (await self.exec(command))[0]

    async def read(self, path, offset=None, limit=None):
        return (await self.call("edit.read", path=path, offset=offset, limit=limit))["text"]

    async def grep(self, pattern, glob=None, offset=None, ignore_case=False):
        return (await self.call("edit.grep", pattern=pattern, glob=glob, offset=offset,
                                ignore_case=ignore_case or None))["text"]

    async def rename(self, target, new_name, unsure=False, leave=False):
        return await self.call("refactor.rename", operation="RenameSymbol", target=target,
                               new_name=new_name, unsure=unsure or None, leave=leave or None)

    async def preview_rename(self, target, new_name, unsure=False, leave=False):
        return (await self.call("refactor.preview", operation="RenameSymbol", target=target,
                                new_name=new_name, unsure=unsure or None,
                                leave=leave or None))["text"]

    async def query(self, query, files=None, path=None, offset=0, limit=None, text=False):
        return await self.call("code.query", query=query, files=files, path=path, offset=offset,
                               limit=limit, text=text or None)

    async def text_of(self, element):
        """An element's text (``element.text`` blocks, so it is not offered here)."""
        found = await self.query(_files_query_text(element.path) + " where "
                                 + where_clause({"path": element.path}), limit=1, text=True)
        if not found["elements"]:
            raise Refused(f'Fail "File not found: {element.path}"')
        text = found["elements"][0]["text"]
        return text if element.kind == "file" else _slice(text, element)

    def _file_text(self, path):
        raise TypeError("on an async workspace: await ws.text_of(element), or query .with_text()")

    _element_text = _file_text

    async def _collect(self, changeset):
        if not changeset._ops or not changeset._stale():
            return
        for index, query in changeset.selection_checks():
            changeset.decide(index, (await self.query(query, limit=1))["total"])
        name = self._next_name(changeset)
        replies = await self.exec(changeset.script(name), check=False)
        if replies.failed:
            raise changeset.refusal(replies.failed)
        changeset.name, changeset._collected, changeset.summary = name, len(changeset._ops), replies[0]

    async def _changeset_diff(self, changeset):
        await self._collect(changeset)
        if not changeset._ops:
            return ""
        preview = await self.say(f"Preview changeset {quote(changeset.name)}")
        return preview.partition("\n")[2]

    async def _changeset_check(self, changeset):
        await self._collect(changeset)
        if not changeset._ops:
            return Check("")
        preview = await self.say(f"Preview changeset {quote(changeset.name)}")
        return Check(preview.partition("\n")[0])

    async def _changeset_commit(self, changeset):
        if changeset.state != "open":
            raise EddiError(f"changeset {changeset.label} is {changeset.state}")
        await self._collect(changeset)
        if self.collect_only:
            changeset.state = "collected"
            return changeset
        if changeset._ops:
            replies = await self.exec(f"apply changeset {quote(changeset.name)}", check=False)
            if replies.failed:
                changeset.state = "refused"
                raise Refused(replies.failed, operation="apply changeset")
            changeset.applied = replies[0]
            self.history.append(changeset)
        changeset.state = "committed"
        return changeset

    async def undo(self, changeset=None):
        if changeset is None:
            if not self.history:
                raise EddiError("Nothing to undo: no changeset of this workspace is committed")
            changeset = self.history[-1]
        reply = await self.exec(f"rollback changeset {quote(changeset.name)}", check=False)
        if reply.failed:
            raise Refused(reply.failed, operation="rollback changeset")
        self.history.remove(changeset)
        changeset.state = "undone"
        return reply[0]

    async def close(self):
        if self._conn is None:
            return
        try:
            await self.exec("End", check=False)
        except EddiError:
            pass
        await self._conn.close()
        self._conn = None

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        await self.close()
        return False

    def __repr__(self):
        return f"<eddi.AsyncWorkspace {self.root} session {self.session}>"
