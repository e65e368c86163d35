"""The suite runs the real eddi-server of the build ($EDDI_SERVER, which
ctest sets, else build/server/eddi-server beside the sources) on real
files in a temporary folder, with its journal in that folder too."""

import os
import pathlib
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import eddi  # noqa: E402  (after the path above)

SOURCE_ROOT = HERE.parent.parent


def _server():
    found = os.environ.get("EDDI_SERVER") or SOURCE_ROOT / "build" / "server" / "eddi-server"
    return pathlib.Path(found)


@pytest.fixture(scope="session")
def server():
    path = _server()
    if not path.exists():
        pytest.fail(f"no eddi-server at {path}: build first, or set EDDI_SERVER")
    return str(path)


SHOP = """\
class Cart:
    def __init__(self):
        self.items = []

    def add(self, price):
        self.items.append(price)

    def total(self, tax=0):
        s = 0
        for p in self.items:
            if p > 0 and tax:
                s += p * tax
            else:
                s += p
        return s


def helper(x):
    return x + 1
"""

USE = """\
import sys
from shop import Cart


def main():
    c = Cart()
    c.add(2)
    return c.total(1)


def other_total(o):
    return o.total()
"""

NESTED_USE = """\
def main():
    return 0
"""


def write_tree(root, files):
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode() if isinstance(text, str) else text)


def snapshot(root):
    """Every file's bytes under root (the journal's folder left out)."""
    return {str(p.relative_to(root)): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file() and ".state" not in p.parts}


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "ws"
    write_tree(root, {"shop.py": SHOP, "use.py": USE, "pkg/use.py": NESTED_USE})
    return root


@pytest.fixture
def server_env(tmp_path):
    env = dict(os.environ)
    env["XDG_STATE_HOME"] = str(tmp_path / ".state")
    return env


@pytest.fixture
def ws(tree, server, server_env):
    with eddi.open(tree, server=server, env=server_env) as workspace:
        yield workspace
