"""What goes wrong, as exceptions.

The engine never raises: it answers ``Fail "what", hint`` and changes
nothing.  The client turns that line into :class:`Refused`, keeping the
line itself (``reply``), its parts (``message``, ``hint``) and the place it
names (``place``), so a script can print what the engine said or act on
where it points.
"""

import re

__all__ = ["EddiError", "Refused", "ProtocolError", "ServerExited"]

# A place as eddi writes one: path:line:col, both 0-based.
_PLACE = re.compile(r"([\w./+-]+\.\w+):(\d+):(\d+)")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "/": "/", "$": "$"}


class EddiError(Exception):
    """The root of every error this package raises."""


class ProtocolError(EddiError):
    """The server answered a JSON-RPC error that is not the engine's Fail:
    bad parameters (-32602), an unknown method (-32601), a busy server."""

    def __init__(self, code, message):
        super().__init__(f"{message} (JSON-RPC error {code})")
        self.code = code
        self.message = message


class ServerExited(EddiError):
    """The server process ended before it answered."""


class Place(tuple):
    """(path, line, col) of a place the engine named, 0-based."""

    __slots__ = ()

    def __new__(cls, path, line, col):
        return super().__new__(cls, (path, line, col))

    path = property(lambda self: self[0])
    line = property(lambda self: self[1])
    col = property(lambda self: self[2])

    def __str__(self):
        return f"{self[0]}:{self[1]}:{self[2]}"


def split_fail(line):
    """(message, hint) of a ``Fail "what", hint`` line; (line, None) for
    any other text."""
    if not line.startswith('Fail "'):
        return line, None
    out, i = [], len('Fail "')
    while i < len(line):
        c = line[i]
        if c == "\\" and i + 1 < len(line):
            out.append(_ESCAPES.get(line[i + 1], line[i + 1]))
            i += 2
            continue
        if c == '"':
            break
        out.append(c)
        i += 1
    rest = line[i + 1 :]
    hint = rest[2:] if rest.startswith(", ") else (rest.strip() or None)
    return "".join(out), hint


class Refused(EddiError):
    """The engine refused: nothing was written.

    ``reply`` is the engine's whole line, ``message`` and ``hint`` its two
    parts, ``place`` the last ``path:line:col`` the message names (or
    None), ``operation`` the changeset operation it belongs to, when the
    refusal came from a changeset."""

    def __init__(self, reply, operation=None):
        self.reply = reply
        self.message, self.hint = split_fail(reply)
        places = _PLACE.findall(self.message)
        self.place = Place(places[-1][0], int(places[-1][1]), int(places[-1][2])) if places else None
        self.operation = operation
        text = reply if operation is None else f"{operation}: {reply}"
        super().__init__(text)
