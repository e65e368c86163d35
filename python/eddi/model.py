"""The code as objects: files, classes, functions, methods, calls, imports.

Every element comes from the engine's own analysis (the query engine that
scripts iterate, over the syntax layer and name resolution), never from
parsing code in Python.  An element is a snapshot: its place, name, class,
signature and numbers as the engine answered them.  Asking it for more
(its methods, its callers, its text) asks the engine again, so the answer
sees the tree as it is then.

Queries are lazy and chain: ``ws.files("src/**/*.py").classes("Cart")
.methods(complexity_gt=8)`` builds one query of the engine (``method in
Cart where complexity > 8`` in the files the glob matches), sent only
when it is iterated, a page at a time.  ``.where(fn)`` adds a condition
only Python can say; it filters what the engine sends.
"""

from .script_text import quote, where_clause

__all__ = [
    "Element", "File", "Class", "Function", "Method", "Call", "Import", "Variable", "Line",
    "Query",
]

# Elements a page of code.query holds: the server's most. The server
# computes the whole set for every page, so fewer pages are faster
# (doc/python.org, "Measured").
PAGE_SIZE = 10000


# ------------------------------------------------------------------ elements


class Element:
    """One element the engine found.  Positions are 0-based ``line:col``,
    columns in characters, as everywhere in eddi."""

    kind = "element"

    def __init__(self, ws, data, origin=None):
        self._ws = ws
        self._data = data
        self._origin = origin  # the engine set it came from, for a call
        self.name = data.get("name")
        self.path = data["path"]
        self.cls = data.get("class")
        self.line = data["line"]
        self.col = data["col"]
        self.end_line = data["end_line"]
        self.end_col = data["end_col"]
        self.complexity = data.get("complexity", 0)
        self.params = data.get("params", 0)
        self.line_count = data.get("line_count", 0)
        self._text = data.get("text")

    @property
    def location(self):
        """``path:line:col`` of its start, as the engine writes places."""
        return f"{self.path}:{self.line}:{self.col}"

    @property
    def qualname(self):
        return f"{self.cls}.{self.name}" if self.cls else self.name

    @property
    def target(self):
        """The name that names this definition alone, as Refactor takes it
        (``shop/cart.py:Cart.total``)."""
        return f"{self.path}:{self.qualname}"

    @property
    def text(self):
        """Its text, asked of the engine when the query did not bring it
        (cut from its file's text, by its place)."""
        if self._text is None:
            self._text = self._ws._element_text(self)
        return self._text

    def __repr__(self):
        return f"<{type(self).__name__} {self.qualname or self.path} at {self.location}>"

    def __eq__(self, other):
        return (isinstance(other, Element) and self.kind == other.kind
                and self.path == other.path and (self.line, self.col) == (other.line, other.col))

    def __hash__(self):
        return hash((self.kind, self.path, self.line, self.col))


class _Definition(Element):
    """A function, method or class: something with a name that others use."""

    def callers(self, **conditions):
        """The calls whose callee resolves to this definition (name
        resolution across files: not a same-named method of another class)."""
        return Query(self._ws, "caller of " + quote(self.target), None, conditions)

    def rename(self, new_name, unsure=False, leave=False):
        """Rename it and every reference, across files, now (one
        transaction of its own; inside a changeset use cs.rename)."""
        return self._ws.rename(self.target, new_name, unsure=unsure, leave=leave)


class Function(_Definition):
    kind = "function"

    @property
    def signature(self):
        """The parameter list as written, ``(a, b=1)``."""
        return self._data.get("signature")


class Method(Function):
    kind = "method"


class Class(_Definition):
    kind = "class"

    def methods(self, name=None, **conditions):
        conditions = dict(conditions, name=name) if name else conditions
        return Query(self._ws, "method in " + quote(self.name), None, conditions, path=self.path)

    def subclasses(self, **conditions):
        """Classes with this one among their bases at any depth (for a
        Protocol also those that define all its methods)."""
        return Query(self._ws, "class implementing " + quote(self.target), None, conditions)


class Call(Element):
    """A call the engine resolved; ``name`` is the callee as written."""

    kind = "call"

    @property
    def args(self):
        """The arguments' texts."""
        return list(self._data.get("args", []))

    @property
    def caller(self):
        """The function or method whose body holds the call
        (``Class.method``), or None at module level."""
        return self._data.get("in")


class Import(Element):
    """A top-level import; ``name`` is the module."""

    kind = "import"

    @property
    def module(self):
        return self.name


class Variable(Element):
    kind = "variable"

    @property
    def scope(self):
        return self._data.get("in")


class Line(Element):
    kind = "line"


class File(Element):
    """A file of the workspace (a glob's match)."""

    kind = "file"

    @property
    def text(self):
        if self._text is None:
            self._text = self._ws._file_text(self.path)
        return self._text

    def classes(self, name=None, **conditions):
        return Query(self._ws, "class" + (" " + quote(name) if name else ""), None, conditions, path=self.path)

    def functions(self, name=None, **conditions):
        """Top-level functions (not methods); ``.methods()`` for those."""
        conditions = dict(conditions, name=name, kind="function")
        return Query(self._ws, "function", None, conditions, path=self.path)

    def methods(self, name=None, **conditions):
        conditions = dict(conditions, name=name, kind="method")
        return Query(self._ws, "function", None, conditions, path=self.path)

    def imports(self, **conditions):
        return Query(self._ws, "import", None, conditions, path=self.path)

    def variables(self, **conditions):
        return Query(self._ws, "symbol of type variable", None, conditions, path=self.path)

    def calls_to(self, target, **conditions):
        """The calls of target in this file (``old_auth.login``)."""
        return Query(self._ws, "call to " + quote(target), None, conditions, path=self.path)

    def lines(self, first, last):
        return Query(self._ws, f"line in range {int(first)}:{int(last)}", None, {}, path=self.path)

    @property
    def qualname(self):
        return self.path

    @property
    def target(self):
        return self.path


_KINDS = {cls.kind: cls for cls in (File, Class, Function, Method, Call, Import, Variable, Line)}


def element(ws, data, origin=None):
    """The object for one element of a code.query answer; origin is the
    engine set that found it."""
    return _KINDS.get(data.get("kind"), Element)(ws, data, origin)


# ------------------------------------------------------------------ queries


class Query:
    """A lazy set of elements: nothing is asked until it is iterated.

    A query is either one engine query (a set, the files it looks in, the
    engine's conditions) or a step from another query, element by element
    (the methods of each class a Python condition kept).  Python
    conditions (``.where``) filter last."""

    def __init__(self, ws, set_text=None, files=None, conditions=None, *, parent=None,
                 step=None, filters=(), with_text=False, file_glob=None, path=None):
        self._file_glob = file_glob  # the glob of a `file matching` query
        self._path = path  # the one file it looks in
        self._ws = ws
        self._set = set_text
        self._files = files
        self._conditions = {k: v for k, v in (conditions or {}).items() if v is not None}
        where_clause(self._conditions)  # a condition the engine lacks fails here, not later
        self._parent = parent
        self._step = step
        self._filters = tuple(filters)
        self._with_text = with_text

    # -------------------------------------------------- what it sends

    @property
    def engine_query(self):
        """The query the engine runs (None for a query made of steps)."""
        if self._set is None:
            return None
        where = where_clause(self._conditions)
        return self._set + (" where " + where if where else "")

    @property
    def scope(self):
        """(path, files): the one file or the glob it looks in, or Nones."""
        return self._path, self._files

    def _simple(self):
        """True when this is one engine query with no Python condition."""
        return self._set is not None and not self._filters

    def _derive(self, **changes):
        fields = dict(set_text=self._set, files=self._files, conditions=self._conditions,
                      parent=self._parent, step=self._step, filters=self._filters,
                      with_text=self._with_text, file_glob=self._file_glob, path=self._path)
        fields.update(changes)
        return Query(self._ws, **fields)

    def _then(self, step):
        return Query(self._ws, parent=self, step=step, with_text=self._with_text)

    # -------------------------------------------------- chaining

    def where(self, predicate=None, **conditions):
        """Keep the elements for which predicate(element) is true (asked in
        Python), and those the keyword conditions hold for: asked by the
        engine when this is one engine query, else compared in Python on
        the fields the engine sent."""
        query = self
        if conditions:
            if self._simple():
                query = self._derive(conditions={**self._conditions, **conditions})
            else:
                query = self._derive(filters=self._filters + (_FieldCheck(conditions),))
        if predicate is not None:
            query = query._derive(filters=query._filters + (predicate,))
        return query

    def with_text(self):
        """Bring each element's text with the page (one round trip)."""
        return self._derive(with_text=True)

    def _files_query(self):
        """The glob of a simple `file matching` query, or None."""
        if self._file_glob is not None and not self._filters and not self._conditions:
            return self._file_glob
        return None

    def classes(self, name=None, **conditions):
        glob = self._files_query()
        if glob is not None:
            return Query(self._ws, "class" + (" " + quote(name) if name else ""), glob,
                         conditions, with_text=self._with_text)
        return self._then(lambda e: e.classes(name, **conditions))

    def functions(self, name=None, **conditions):
        glob = self._files_query()
        if glob is not None:
            return Query(self._ws, "function", glob, dict(conditions, name=name, kind="function"),
                         with_text=self._with_text)
        return self._then(lambda e: e.functions(name, **conditions))

    def methods(self, name=None, **conditions):
        conditions = dict(conditions, name=name) if name else dict(conditions)
        glob = self._files_query()
        if glob is not None:
            return Query(self._ws, "function", glob, dict(conditions, kind="method"),
                         with_text=self._with_text)
        # classes("Cart").methods(): one query of the engine.
        if (self._simple() and self._set.startswith('class "')
                and set(self._conditions) <= {"name"}):
            return Query(self._ws, "method in " + self._set[len("class "):], self._files,
                         conditions, with_text=self._with_text, path=self._path)
        if self._simple() and self._set == "class" and not self._conditions:
            return Query(self._ws, "method", self._files, conditions, with_text=self._with_text,
                         path=self._path)
        return self._then(lambda e: e.methods(**conditions))

    def imports(self, **conditions):
        glob = self._files_query()
        if glob is not None:
            return Query(self._ws, "import", glob, conditions, with_text=self._with_text)
        return self._then(lambda e: e.imports(**conditions))

    def calls_to(self, target, **conditions):
        """The calls of target (as ws.calls_to) in the files of this query."""
        glob = self._files_query()
        if glob is not None:
            return Query(self._ws, "call to " + quote(target), glob, conditions,
                         with_text=self._with_text)
        return self._then(lambda e: e.calls_to(target, **conditions))

    def callers(self, **conditions):
        """The calls of every function, method or class of this query."""
        return self._then(lambda e: e.callers(**conditions))

    # -------------------------------------------------- running

    def _params(self, offset, limit):
        params = {"query": self.engine_query, "offset": offset, "limit": limit}
        if self._files:
            params["files"] = self._files
        if self._path:
            params["path"] = self._path
        if self._with_text:
            params["text"] = True
        return params

    def _keep(self, item):
        return all(f(item) for f in self._filters)

    def __iter__(self):
        if self._set is not None:
            offset = 0
            while offset is not None:
                page = self._ws.call("code.query", **self._params(offset, PAGE_SIZE))
                for data in page["elements"]:
                    item = element(self._ws, data, self._set)
                    if self._keep(item):
                        yield item
                offset = page["next_offset"]
            return
        seen = set()
        for parent in self._parent:
            for item in self._step(parent):
                if item not in seen and self._keep(item):
                    seen.add(item)
                    yield item

    async def __aiter__(self):
        if self._set is not None:
            offset = 0
            while offset is not None:
                page = await self._ws.call("code.query", **self._params(offset, PAGE_SIZE))
                for data in page["elements"]:
                    item = element(self._ws, data, self._set)
                    if self._keep(item):
                        yield item
                offset = page["next_offset"]
            return
        seen = set()
        async for parent in self._parent:
            async for item in self._step(parent):
                if item not in seen and self._keep(item):
                    seen.add(item)
                    yield item

    def list(self):
        return list(self)

    def first(self):
        """The first element, or None."""
        return next(iter(self), None)

    def count(self):
        """How many elements; for one engine query a single small request."""
        if self._simple():
            return self._ws.call("code.query", **self._params(0, 1))["total"]
        return sum(1 for _ in self)

    def __repr__(self):
        if self._set is not None:
            where = f" in {self._path or self._files}" if self._path or self._files else ""
            python = f" + {len(self._filters)} Python condition(s)" if self._filters else ""
            return f"<Query {self.engine_query!r}{where}{python}>"
        return f"<Query step over {self._parent!r}>"


class _FieldCheck:
    """Keyword conditions compared in Python, on the numbers and names the
    engine sent with each element (for a query made of steps)."""

    _FIELDS = {"name": "name", "complexity": "complexity", "params": "params",
               "line_count": "line_count", "line": "line", "kind": "kind", "cls": "cls",
               "path": "path"}
    _OPS = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "gt": lambda a, b: a > b,
            "lt": lambda a, b: a < b, "ge": lambda a, b: a >= b, "le": lambda a, b: a <= b,
            "contains": lambda a, b: a is not None and str(b) in str(a)}

    def __init__(self, conditions):
        self._checks = []
        for key, value in conditions.items():
            field, _, op = key.rpartition("_")
            if op not in self._OPS or field not in self._FIELDS:
                field, op = key, "eq"
            if field not in self._FIELDS:
                raise TypeError(f"{key!r} is asked by the engine only: give it to the step "
                                "(.methods(unused=True)), or use .where(lambda e: ...)")
            self._checks.append((self._FIELDS[field], self._OPS[op], value))

    def __call__(self, item):
        return all(op(getattr(item, field), value) for field, op, value in self._checks)
