#!/usr/bin/env python3
"""References through eddi against the bare language server, one probe.

The same Python process asks for the references of one name in a real
package (Debian's python3-pygments, copied), ROUNDS times each way,
interleaved:

  bare  textDocument/references straight to pyright-langserver, which
        this script starts and speaks LSP to itself;
  eddi  `Show References L:C` through eddi-server --stdio (JSON-RPC, the
        python/eddi client), which starts its own pyright-langserver.

The first WARMUP rounds of each are left out (the servers index the
package then).
Prints each way's median and p90 in ms, their ratio, and the number of
places each found (they must agree, or the run fails).

  bench_lsp_references.py EDDI_SERVER [ROUNDS] [NAME]

pyright-langserver must be on PATH (the build tree's npm clients:
build/server/integration-tests/node_modules/.bin).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import eddi  # noqa: E402

SOURCE = "/usr/lib/python3/dist-packages/pygments"
WARMUP = 3


class Probe:
    """A minimal LSP client over a server's stdin and stdout."""

    def __init__(self, command, root):
        self.proc = subprocess.Popen(command, cwd=root, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0
        self.progress = set()

    def send(self, msg):
        msg["jsonrpc"] = "2.0"
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def read(self):
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("the server stopped")
            line = line.strip()
            if not line:
                break
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        return json.loads(self.proc.stdout.read(length))

    def handle(self, msg):
        """What the server says on its own: its requests get an answer."""
        method = msg.get("method")
        if method == "$/progress":
            kind = msg["params"]["value"].get("kind")
            (self.progress.add if kind == "begin" else self.progress.discard)(
                str(msg["params"]["token"]))
        if "id" in msg and method:
            items = msg.get("params", {}).get("items", [])
            result = [None] * len(items) if method == "workspace/configuration" else None
            self.send({"id": msg["id"], "result": result})

    def request(self, method, params):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        while True:
            msg = self.read()
            if msg.get("id") == self.next_id and "method" not in msg:
                return msg.get("result")
            self.handle(msg)

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def close(self):
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def uri(path):
    return "file://" + path


def bare_references(root, path, line, col, rounds):
    probe = Probe(["pyright-langserver", "--stdio"], root)
    probe.request("initialize", {
        "processId": os.getpid(), "rootUri": uri(root),
        "workspaceFolders": [{"uri": uri(root), "name": "bench"}],
        "capabilities": {"window": {"workDoneProgress": True},
                         "general": {"positionEncodings": ["utf-16"]}}})
    probe.notify("initialized", {})
    with open(path, encoding="utf-8") as f:
        probe.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri(path), "languageId": "python", "version": 1, "text": f.read()}})
    params = {"textDocument": {"uri": uri(path)}, "position": {"line": line, "character": col},
              "context": {"includeDeclaration": True}}
    times, found = [], 0
    for _ in range(rounds + WARMUP):
        start = time.perf_counter()
        found = len(probe.request("textDocument/references", params) or [])
        times.append((time.perf_counter() - start) * 1000)
    probe.close()
    return times[WARMUP:], found


def eddi_references(server, root, rel, line, col, rounds):
    times, found = [], 0
    with eddi.open(root, server=server, journal=False) as ws:
        ws.say(f"Open {rel}")
        for _ in range(rounds + WARMUP):
            start = time.perf_counter()
            reply = ws.say(f"Show References {line}:{col}")
            times.append((time.perf_counter() - start) * 1000)
            match = re.search(r": (\d+) references?:", reply)
            if not match:
                raise SystemExit(f"eddi answered: {reply}")
            found = int(match.group(1))
    return times[WARMUP:], found


def summary(times):
    times = sorted(times)
    return times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.9))]


def main():
    server = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    name = sys.argv[3] if len(sys.argv) > 3 else "get_bool_opt"
    if not shutil.which("pyright-langserver"):
        raise SystemExit("pyright-langserver not on PATH")
    work = tempfile.mkdtemp()
    try:
        root = os.path.join(work, "ws")
        os.mkdir(root)
        shutil.copytree(SOURCE, os.path.join(root, "pygments"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        rel = "pygments/util.py"
        path = os.path.join(root, rel)
        with open(path, encoding="utf-8") as f:
            for line, text in enumerate(f):
                if text.startswith(f"def {name}("):
                    break
            else:
                raise SystemExit(f"no def {name} in {rel}")
        col = len("def ")
        bare, eddi_times = [], []
        bare_found = eddi_found = 0
        # Interleaved halves, so that a load that comes and goes falls on both.
        for _ in range(2):
            times, bare_found = bare_references(root, path, line, col, rounds // 2)
            bare += times
            times, eddi_found = eddi_references(server, root, rel, line, col, rounds // 2)
            eddi_times += times
        b50, b90 = summary(bare)
        e50, e90 = summary(eddi_times)
        print(f"references of {name} in pygments ({len(bare)} rounds each, warm)")
        print(f"  bare pyright-langserver: median {b50:.1f} ms, p90 {b90:.1f} ms, {bare_found} places")
        print(f"  eddi Show References:    median {e50:.1f} ms, p90 {e90:.1f} ms, {eddi_found} places")
        print(f"  ratio (median): {e50 / b50:.2f}x")
        if bare_found != eddi_found:
            raise SystemExit(f"the places differ: bare {bare_found}, eddi {eddi_found}")
    finally:
        shutil.rmtree(work)


main()
