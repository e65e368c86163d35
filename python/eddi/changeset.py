"""Changes collected, previewed, then written all at once.

A changeset is the engine's own (doc/scripting.org, Changesets): its
operations become one script that begins ``collect changes as "<name>"``.
The engine plans every operation over its texts in memory, with each
refactoring's checks, and keeps the result in the session (and its
journal) as a named changeset; nothing is written then.  ``cs.diff()``
is the engine's ``Preview changeset``.  Leaving the ``with`` block
normally runs ``apply changeset``: every file at once through the
journal's transaction, refused whole if a file changed since it was
collected.  Leaving it by an exception applies nothing, so every file is
as it was, byte for byte.  ``ws.undo()`` runs ``rollback changeset``,
which puts back the exact bytes from before the apply.

Each operation is one line of the script, so a refusal that names its
script line is traced to the operation that caused it.
"""

import re

from .errors import Refused
from .model import Call, Class, Element, Function, Import, Method, Query, Variable
from .script_text import quote, where_clause

__all__ = ["Changeset", "Check"]

_SCRIPT_LINE = re.compile(r"Script line (\d+):\d+")
# Where a statement's element selection goes, decided when collected (a
# NUL is in no statement: the engine refuses one in any message).
_SELECTION = "\0"
_SELECTED = re.compile("\0(\\d+)\0")
# The script's first lines are "{" and its collect; operation i is on line
# i + FIRST_LINE.
FIRST_LINE = 3


def _name_word(text, what):
    text = str(text)
    if not text or any(c.isspace() for c in text):
        raise ValueError(f"{what} must be one word, not {text!r}")
    return text


def _target(target):
    """A definition's name as Refactor takes it."""
    return target.target if isinstance(target, Element) else _name_word(target, "a target")


def select(element, by_place=False):
    """A script set that holds exactly this element, for the actions that
    work on the element visited: a definition by its kind, class, name and
    file (so an earlier operation that moves its lines does not lose it),
    by its place too when by_place (a name the file has twice); a call by
    the set it came from and its place."""
    place = {"name": element.name, "path": element.path}
    if by_place:
        place["location"] = element.location
    if isinstance(element, Call):
        if not element._origin:
            raise TypeError(f"{element!r} came from no query the engine can run again")
        return f"{element._origin} where {where_clause({'location': element.location})}"
    if isinstance(element, Method):
        return f"method in {quote(element.cls)} where {where_clause(place)}"
    if isinstance(element, Function):
        return f"function where {where_clause(dict(place, kind='function'))}"
    if isinstance(element, Class):
        return f"class {quote(element.name)} where {where_clause(place)}"
    if isinstance(element, Import):
        return f"import where {where_clause(place)}"
    if isinstance(element, Variable):
        return f"symbol of type variable where {where_clause(place)}"
    raise TypeError(f"{element!r} cannot be changed as an element")


def _in_file(path, body):
    """body run with the file at path visited (its text is the element).
    The glob is the path itself, so that only the file (and, for a name
    without a folder, files of that name elsewhere) is read; the condition
    keeps the one at path."""
    return (f"foreach file matching {quote(path)} where {where_clause({'path': path})} "
            f"{{ {body} }}")


_MORE = re.compile(r" and (\d+) more$")


def _fact_list(summary, label, separator):
    """The items of the fact "label: a<separator>b[ and N more]" of a
    Preview's summary, and how many more it did not list."""
    start = summary.find(f", {label}: ")
    if start < 0:
        return [], 0
    text = summary[start + len(label) + 4:]
    for other in (", Undefined: ", ", Syntax errors: "):
        end = text.find(other)
        if end >= 0:
            text = text[:end]
    more = _MORE.search(text)
    if more:
        text = text[:more.start()]
    return text.split(separator), int(more.group(1)) if more else 0


class Check:
    """What a changeset brings in that its files did not have (the engine's
    Preview, doc/scripting.org): references to names nothing defines, as
    (path, line, name), and syntax errors, as (path, line); lines 0-based.
    The first ten of each are listed, ``more_undefined`` and
    ``more_syntax_errors`` count the rest."""

    def __init__(self, summary):
        self.summary = summary
        undefined, self.more_undefined = _fact_list(summary, "Undefined", "; ")
        self.undefined = []
        for item in undefined:
            place, _, name = item.rpartition(" ")
            path, _, line = place.rpartition(":")
            self.undefined.append((path, int(line), name))
        errors, self.more_syntax_errors = _fact_list(summary, "Syntax errors", ", ")
        self.syntax_errors = [(path, int(line)) for path, _, line in
                              (item.rpartition(":") for item in errors)]

    @property
    def ok(self):
        """Nothing new is undefined, and no new syntax error."""
        return not (self.undefined or self.syntax_errors)

    def __bool__(self):
        return self.ok

    def __repr__(self):
        return f"<Check {'ok' if self.ok else 'problems'}: {self.summary}>"


class Changeset:
    """Operations to plan and write together.  Made by ``ws.changeset(label)``."""

    def __init__(self, ws, label):
        self._ws = ws
        self.label = re.sub(r"[^A-Za-z0-9_-]", "_", label or "changes")[:40]
        self._ops = []  # (what, statement)
        self._elements = []  # elements the statements select, by index
        self._decided = {}  # index -> its selection
        self.name = None  # the engine's changeset, once collected
        self._collected = None  # how many operations it was collected with
        self.summary = None  # the engine's reply to the collect
        self.state = "open"

    # ------------------------------------------------------------ operations

    def _select(self, element):
        """A stand-in for select(element), made when the changeset is
        collected: by name, or by place too when the file has another of
        its kind and name then (the workspace asks the engine)."""
        if isinstance(element, Call):
            return select(element)
        self._elements.append(element)
        return f"{_SELECTION}{len(self._elements) - 1}{_SELECTION}"

    def selection_checks(self):
        """(index, set) of the elements whose selection is not decided: the
        workspace counts each set's elements and calls decide."""
        return [(i, select(e)) for i, e in enumerate(self._elements) if i not in self._decided]

    def decide(self, index, count):
        """count: how many elements select(element) finds now."""
        element = self._elements[index]
        if count == 0:
            raise Refused(f'Fail "{element.kind} {element.qualname} is no longer in '
                          f'{element.path}", Query it again')
        self._decided[index] = select(element, by_place=count != 1)

    def _add(self, what, statement):
        if self.state != "open":
            raise RuntimeError(f"changeset {self.label} is {self.state}")
        if "\n" in statement:
            raise ValueError("a statement is one line")
        self._ops.append((what, statement))
        return self

    def rename(self, target, new_name, unsure=False, leave=False):
        """Rename a function, method, class or variable and every reference
        (name resolution across files).  unsure: also change references
        eddi is unsure of; leave: write without them."""
        op = "Rename_Class" if isinstance(target, Class) else "RenameSymbol"
        word = " Unsure" if unsure else " Leave" if leave else ""
        what = f"rename {_target(target)} {new_name}"
        return self._add(what, f"Refactor {op} {_target(target)} {_name_word(new_name, 'a name')}{word}")

    def rename_class(self, old, new_name):
        return self._add(f"rename_class {old} {new_name}",
                         f"rename_class {_target(old)} {_name_word(new_name, 'a name')}")

    def change_signature(self, target, new_params, old_params=None):
        """Give a function new parameters; every call follows.
        ``cs.change_signature(method, "(self, tax=0, rate=1)")`` or
        ``cs.change_signature("total(self, tax=0)", "total(self, tax=0, rate=1)")``."""
        if isinstance(target, Element):
            old = f"{target.qualname}{old_params or target.signature}"
            new = f"{target.qualname}{new_params}" if new_params.startswith("(") else new_params
        else:
            old, new = str(target), str(new_params)
        return self._add(f"change_signature {old} {new}",
                         f"Refactor Signature {quote(old)} {quote(new)}")

    def extract_method(self, region, name):
        """Move a region into a new method (or function) and call it there:
        region is a function or method element (its body), or
        ``(path, first_line, last_line)``, lines 0-based inclusive."""
        return self._extract("extract_method", region, name)

    def extract_function(self, region, name):
        return self._extract("ExtractFunction", region, name)

    def _extract(self, op, region, name):
        name = _name_word(name, "a name")
        if isinstance(region, Element):
            statement = f"foreach $m in {self._select(region)} {{ {op}($m, {quote(name)}) }}"
            what = f"{op} {region.target} {name}"
        else:
            path, first, last = region
            statement = f"{op}({quote(f'{path}:{int(first)}:{int(last)}')}, {quote(name)})"
            what = f"{op} {path}:{first}:{last} {name}"
        return self._add(what, statement)

    def inline_function(self, target):
        return self._add(f"inline_function {_target(target)}",
                         f"inline_function({quote(_target(target))})")

    def inline_variable(self, target):
        return self._add(f"inline_variable {_target(target)}",
                         f"inline_variable({quote(_target(target))})")

    def move_method(self, source, destination):
        return self._add(f"move_method {_target(source)} {destination}",
                         f"move_method({quote(_target(source))}, {quote(destination)})")

    def extract_interface(self, cls, interface):
        return self._add(f"extract_interface {_target(cls)} {interface}",
                         f"extract_interface({quote(_target(cls))}, {quote(interface)})")

    def extract_class(self, cls, new_class, methods):
        names = methods if isinstance(methods, str) else ",".join(
            m.name if isinstance(m, Element) else str(m) for m in methods)
        return self._add(f"extract_class {_target(cls)} {new_class} {names}",
                         f"extract_class({quote(_target(cls))}, {quote(new_class)}, {quote(names)})")

    def merge_classes(self, first, second, target):
        return self._add(f"merge_classes {first} {second} {target}",
                         f"merge_classes({quote(_target(first))}, {quote(_target(second))}, "
                         f"{quote(target)})")

    def change_inheritance(self, cls, new_parent, old_parent=None):
        args = [quote(_target(cls))] + ([quote(old_parent)] if old_parent else []) + [quote(new_parent)]
        return self._add(f"change_inheritance {_target(cls)} {new_parent}",
                         f"change_inheritance({', '.join(args)})")

    def replace_text(self, path, old, new):
        """Every occurrence of the text old in the file at path becomes new."""
        return self._add(f"replace_text {path}",
                         _in_file(path, f"replace {quote(old)} with {quote(new)}"))

    def replace_calls(self, target, template):
        """Every call of target (``old_auth.login``, also through an import of
        a module the workspace lacks) becomes template: ``$1``, ``$2`` are
        its arguments; a bare dotted name keeps them (a new callee)."""
        if "\n" in template:
            raise ValueError("a call's template is one line")
        return self._add(f"replace_calls {_target(target)}",
                         f"foreach call to {quote(_target(target))} {{ replace with {template} }}")

    def replace_with(self, element, template):
        """The element becomes template (one line; ``$0`` is its text)."""
        if "\n" in template:
            raise ValueError("a template is one line")
        return self._add(f"replace_with {element.target}",
                         f"foreach {self._select(element)} {{ replace with {template} }}")

    def remove(self, element):
        """Remove the element (its whole lines when it has them to itself)."""
        return self._add(f"remove {element.target}", f"foreach {self._select(element)} {{ remove }}")

    def add_import(self, path, module):
        """An import where imports go (``os``, or a whole statement)."""
        module = str(module)
        word = quote(module) if " " in module.strip() else _name_word(module, "a module")
        return self._add(f"add_import {path} {module}", _in_file(path, f"add import {word}"))

    def add_line(self, where, text):
        """A line after an element at its indentation (after the imports,
        when where is a path)."""
        if isinstance(where, Element):
            return self._add(f"add_line {where.target}",
                             f"foreach {self._select(where)} {{ add line {quote(text)} }}")
        return self._add(f"add_line {where}", _in_file(where, f"add line {quote(text)}"))

    def replace_in(self, element, old, new):
        """Inside the element, every text old becomes new."""
        return self._add(f"replace_in {element.target}",
                         f"foreach {self._select(element)} {{ replace {quote(old)} with {quote(new)} }}")

    def foreach(self, query, action, what=None):
        """Run a script action (doc/scripting.org, Actions) on every element
        of an engine query, the engine following each element through the
        edits before it: ``cs.foreach(cls.callers(not_path_contains="test_"),
        'replace UserManager with AccountManager')``."""
        if not isinstance(query, Query) or query.engine_query is None or query._filters:
            raise TypeError("foreach takes a query the engine runs: no .where(fn) and no steps")
        if "\n" in action:
            raise ValueError("an action is one line")
        statement = f"foreach {query.engine_query} {{ {action} }}"
        path, files = query.scope
        if path:
            statement = _in_file(path, statement)
        elif files:
            statement = f"foreach file matching {quote(files)} {{ {statement} }}"
        return self._add(what or f"foreach {query.engine_query}: {action}", statement)

    def statement(self, text, what=None):
        """Any one-line script statement, as doc/scripting.org writes them."""
        return self._add(what or text, text)

    # ------------------------------------------------------------ the script

    @property
    def operations(self):
        """What was asked, in order."""
        return [what for what, _ in self._ops]

    def script(self, name):
        """The EddiSpeak script that collects these operations as name: the
        collect comes first, which is what lets a collect-only caller (a
        sandboxed script) run it."""
        lines = ["{", f"collect changes as {quote(name)}"]
        lines += [_SELECTED.sub(lambda m: self._decided[int(m.group(1))], statement)
                  for _, statement in self._ops]
        lines.append("}")
        return "\n".join(lines)

    def refusal(self, reply):
        """Refused for a Fail of the script, naming the operation its
        script line is."""
        found = _SCRIPT_LINE.search(reply)
        operation = None
        if found:
            index = int(found.group(1)) - FIRST_LINE
            if 0 <= index < len(self._ops):
                operation = self._ops[index][0]
        return Refused(reply, operation=operation)

    def _stale(self):
        return self._collected != len(self._ops)

    # ------------------------------------------------------------ running (the workspace's)

    def diff(self):
        """The unified diff of every file it would change (nothing is
        written); awaitable on an async workspace."""
        return self._ws._changeset_diff(self)

    def check(self):
        """What it would break (nothing is written): a :class:`Check` of the
        names it leaves undefined and the syntax errors it brings in;
        awaitable on an async workspace."""
        return self._ws._changeset_check(self)

    def commit(self):
        """Write it now (what a normal exit of the with block does)."""
        return self._ws._changeset_commit(self)

    def rollback(self):
        """Drop it unwritten (what an exception in the with block does)."""
        if self.state == "open":
            self.state = "rolled back"

    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        if kind is None:
            self.commit()
        else:
            self.rollback()
        return False

    async def __aenter__(self):
        return self

    async def __aexit__(self, kind, value, traceback):
        if kind is None:
            await self.commit()
        else:
            self.rollback()
        return False

    def __repr__(self):
        return f"<Changeset {self.label} {self.state}: {len(self._ops)} operation(s)>"
