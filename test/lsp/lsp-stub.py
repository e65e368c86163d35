#!/usr/bin/env python3
"""A language server that misbehaves on purpose, for eddi's LSP tests.

It speaks real LSP framing (Content-Length headers over stdin/stdout) and
behaves as its first argument says:

  well            answer initialize (utf-16 positions), and on each didOpen
                  or didChange publish one error at the first "x" of the
                  text, its column counted in UTF-16 code units, its
                  message naming the document's version
  die-once FILE   stop (exit status 3) when initialize comes, unless FILE
                  exists (it makes FILE first): the next start is "well"
  ignore-cancel   never answer initialize, nor its $/cancelRequest
  honour-cancel   never answer initialize, answer its $/cancelRequest
                  with RequestCancelled
                  textDocument/references lists every "x" of the open
                  documents (UTF-16 columns), and of the file LSP_STUB_DISK
                  names (as on disk, not open); definition answers a
                  LocationLink to the first "x" of the document; hover
                  answers "x: int" on an "x", null elsewhere
With LSP_STUB_TRACE set, it appends the method of each message it reads
to that file, one a line.

  never-ready     begin a $/progress on initialize's token and never end
                  it
  incremental     as well, but taking ranged didChanges (textDocumentSync
                  change 2), applied as the protocol says: lines end at
                  "\n", "\r\n" or "\r", characters are UTF-16 code units
  incremental-utf8
                  the same with utf-8 positions (positionEncoding), the
                  published columns counted in bytes
With LSP_STUB_TEXT set, it writes each document's text, as it holds it
after each didOpen and didChange, to that file (UTF-8, line ends kept);
with LSP_STUB_CHANGES set, it appends a line to that file for each
didChange: "ranged" when its changes have ranges, "whole" when not.
"""
import json
import os
import re
import sys

inp = sys.stdin.buffer
out = sys.stdout.buffer


def read():
    length = None
    while True:
        line = inp.readline()
        if not line:
            sys.exit(0)
        line = line.rstrip(b"\r\n")
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    return json.loads(inp.read(length))


def send(msg):
    msg["jsonrpc"] = "2.0"
    body = json.dumps(msg).encode()
    out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    out.flush()


LINE_END = re.compile(r"\r\n|\r|\n")
UNIT = {"utf-16": ("utf-16-le", 2), "utf-8": ("utf-8", 1)}
encoding = "utf-16"


def units(text):
    codec, size = UNIT[encoding]
    return len(text.encode(codec, "surrogatepass")) // size


def offset_of(text, position):
    """The index in text of an LSP position, as the protocol counts it."""
    start = 0
    for _ in range(position["line"]):
        end = LINE_END.search(text, start)
        if not end:
            return len(text)
        start = end.end()
    end = LINE_END.search(text, start)
    end = end.start() if end else len(text)
    at, seen = start, 0
    while at < end and seen + units(text[at]) <= position["character"]:
        seen += units(text[at])
        at += 1
    return at


def apply_changes(text, changes):
    for change in changes:
        if "range" not in change:
            text = change["text"]
            continue
        start = offset_of(text, change["range"]["start"])
        end = offset_of(text, change["range"]["end"])
        text = text[:start] + change["text"] + text[end:]
    return text


def keep(text):
    path = os.environ.get("LSP_STUB_TEXT")
    if path:
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)


def publish(uri, version, text):
    keep(text)
    diagnostics = []
    for number, line in enumerate(text.split("\n")):
        at = line.find("x")
        if at >= 0:
            character = units(line[:at])
            diagnostics.append({"range": {"start": {"line": number, "character": character},
                                          "end": {"line": number, "character": character + 1}},
                                "severity": 1,
                                "message": "x is not allowed in version %d\nsecond line" % version})
            break
    send({"method": "textDocument/publishDiagnostics",
          "params": {"uri": uri, "version": version, "diagnostics": diagnostics}})


def x_places(uri, text):
    places = []
    for number, line in enumerate(text.split("\n")):
        at = line.find("x")
        while at >= 0:
            character = len(line[:at].encode("utf-16-le")) // 2
            places.append({"uri": uri,
                           "range": {"start": {"line": number, "character": character},
                                     "end": {"line": number, "character": character + 1}}})
            at = line.find("x", at + 1)
    return places


def at_x(text, position):
    lines = text.split("\n")
    if position["line"] >= len(lines):
        return False
    units = lines[position["line"]].encode("utf-16-le")
    return units[2 * position["character"]:2 * position["character"] + 2] == "x".encode("utf-16-le")


def main():
    global encoding
    mode = sys.argv[1]
    if mode == "die-once":
        if not os.path.exists(sys.argv[2]):
            open(sys.argv[2], "w").close()
            mode = "die"
        else:
            mode = "well"
    trace = os.environ.get("LSP_STUB_TRACE")
    docs = {}
    while True:
        msg = read()
        method = msg.get("method")
        if trace:
            with open(trace, "a") as f:
                f.write("%s\n" % method)
        if method == "initialize":
            if mode == "die":
                sys.exit(3)
            if mode in ("ignore-cancel", "honour-cancel"):
                pending = msg["id"]
                continue
            if mode == "never-ready":
                # On the token initialize gave, before its answer (as the
                # protocol allows), so that the client has heard it by then.
                send({"method": "$/progress",
                      "params": {"token": msg["params"]["workDoneToken"],
                                 "value": {"kind": "begin", "title": "loading"}}})
            capabilities = {"textDocumentSync": 1}
            if mode.startswith("incremental"):
                capabilities["textDocumentSync"] = {"openClose": True, "change": 2}
            if mode == "incremental-utf8":
                encoding = "utf-8"
                capabilities["positionEncoding"] = "utf-8"
            send({"id": msg["id"], "result": {"capabilities": capabilities}})
        elif method == "$/cancelRequest" and mode == "honour-cancel":
            send({"id": msg["params"]["id"],
                  "error": {"code": -32800, "message": "cancelled"}})
        elif method == "textDocument/didOpen":
            doc = msg["params"]["textDocument"]
            docs[doc["uri"]] = doc["text"]
            publish(doc["uri"], doc["version"], doc["text"])
        elif method == "textDocument/didChange":
            doc = msg["params"]["textDocument"]
            changes = msg["params"]["contentChanges"]
            docs[doc["uri"]] = apply_changes(docs[doc["uri"]], changes)
            if os.environ.get("LSP_STUB_CHANGES"):
                with open(os.environ["LSP_STUB_CHANGES"], "a") as f:
                    f.write("ranged\n" if all("range" in c for c in changes) else "whole\n")
            publish(doc["uri"], doc["version"], docs[doc["uri"]])
        elif method == "textDocument/didClose":
            docs.pop(msg["params"]["textDocument"]["uri"], None)
        elif method == "textDocument/references":
            places = []
            for uri in sorted(docs):
                places += x_places(uri, docs[uri])
            disk = os.environ.get("LSP_STUB_DISK")
            if disk:
                with open(disk, encoding="utf-8") as f:
                    places += x_places("file://" + disk, f.read())
            send({"id": msg["id"], "result": places})
        elif method == "textDocument/definition":
            uri = msg["params"]["textDocument"]["uri"]
            first = x_places(uri, docs.get(uri, ""))[:1]
            send({"id": msg["id"],
                  "result": [{"targetUri": p["uri"], "targetRange": p["range"],
                              "targetSelectionRange": p["range"]} for p in first]})
        elif method == "textDocument/hover":
            params = msg["params"]
            hit = at_x(docs.get(params["textDocument"]["uri"], ""), params["position"])
            send({"id": msg["id"],
                  "result": {"contents": {"kind": "plaintext", "value": "x: int"}} if hit else None})
        elif method == "shutdown":
            send({"id": msg["id"], "result": None})
        elif method == "exit":
            sys.exit(0)


main()
