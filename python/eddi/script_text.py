"""Writing EddiSpeak script text from Python values.

Every string the API puts into a script goes through :func:`quote`, so a
name, a path or a replacement with quotes, backslashes, dollars or
newlines reaches the engine as the text it is (doc/eddispeak.org,
Arguments: the escapes a string may hold).
"""

__all__ = ["quote", "where_clause", "CONDITION_FIELDS"]

_ESCAPE = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "$": "\\$"}

# Keyword conditions and the field of the engine's `where` they test.
CONDITION_FIELDS = {
    "name": "name",
    "complexity": "complexity",
    "params": "params.count",
    "line_count": "line_count",
    "line": "line",
    "kind": "kind",
    "cls": "owner",
    "path": "file.path",
}
_OPERATORS = {"eq": "==", "ne": "!=", "gt": ">", "lt": "<", "ge": ">=", "le": "<=",
              "contains": "contains"}


def quote(text):
    """text as an EddiSpeak string literal."""
    return '"' + "".join(_ESCAPE.get(c, c) for c in str(text)) + '"'


def _value(value):
    if isinstance(value, bool):
        raise TypeError("a condition compares a number or a text, not a boolean")
    if isinstance(value, int):
        return str(value)
    return quote(value)


def _word(name):
    """A bare word (a module, a decorator) checked to need no quoting."""
    name = str(name)
    if not name or any(c.isspace() or c in '"{}()$;' for c in name):
        raise ValueError(f"not a name: {name!r}")
    return name


def where_clause(conditions):
    """The engine's `where` condition for keyword conditions, or "".

    ``complexity_gt=8`` is ``complexity > 8``, ``params=2`` is
    ``params.count == 2``, ``name="total"`` is ``name == "total"``;
    ``unused=True``, ``contains="x"``, ``has_annotation="property"``,
    ``imports="logging"``, ``path_contains="test_"`` are the engine's own
    conditions; ``not_`` before any of them negates it
    (``not_path_contains="test_"``).  Each is asked by the engine, not in
    Python."""
    parts = []
    for key, value in conditions.items():
        if value is None:
            continue
        if key.startswith("not_"):
            inner = where_clause({key[len("not_"):]: value})
            parts.append(f"not ({inner})")
        elif key == "location":
            parts.append(f"location == {quote(value)}")
        elif key == "unused":
            parts.append("unused" if value else "not unused")
        elif key == "contains":
            parts.append(f"contains {quote(value)}")
        elif key == "has_annotation":
            parts.append(f"has_annotation {_word(value)}")
        elif key == "imports":
            parts.append(f"imports {_word(value)}")
        elif key == "path_contains":
            parts.append(f"file.path contains {quote(value)}")
        else:
            field, _, op = key.rpartition("_")
            if op not in _OPERATORS or field not in CONDITION_FIELDS:
                field, op = key, "eq"
            if field not in CONDITION_FIELDS:
                known = ", ".join(sorted(CONDITION_FIELDS))
                raise TypeError(
                    f"unknown condition {key!r}: give one of {known} (with _gt, _lt, _ge, "
                    "_le, _ne, _contains), unused, contains, has_annotation, imports, "
                    "path_contains"
                )
            parts.append(f"{CONDITION_FIELDS[field]} {_OPERATORS[op]} {_value(value)}")
    return " and ".join(parts)
