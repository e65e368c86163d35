"""The object model and the lazy queries: what the engine answers, as
objects, exactly."""

import json
import subprocess

import pytest

import eddi
from conftest import write_tree


def names(query):
    return [e.qualname for e in query]


def test_code_query_answers_json_with_places_and_numbers(ws):
    page = ws.query("methods in Cart where complexity > 1", text=True)
    assert page == {
        "elements": [{
            "kind": "method", "name": "total", "class": "Cart", "path": "shop.py",
            "line": 7, "col": 4, "end_line": 14, "end_col": 16, "name_line": 7, "name_col": 8,
            "complexity": 4, "params": 1, "line_count": 8, "signature": "(self, tax=0)",
            "text": "def total(self, tax=0):\n        s = 0\n        for p in self.items:\n"
                    "            if p > 0 and tax:\n                s += p * tax\n"
                    "            else:\n                s += p\n        return s",
        }],
        "total": 1, "offset": 0, "next_offset": None,
    }


def test_code_query_refuses_a_query_that_does_not_parse(ws):
    with pytest.raises(eddi.Refused) as refused:
        ws.query("bogus")
    assert refused.value.message == (
        "Script line 1:1: expected a set (caller of, call to, method in, class, file matching, "
        "line in range, symbol of type, import, function, or a $variable), found 'bogus'")


def test_code_query_over_raw_stdio(tree, server):
    request = {"jsonrpc": "2.0", "id": 7, "method": "code.query",
               "params": {"query": "import where unused", "path": "use.py"}}
    done = subprocess.run([server, "--stdio", "--no-journal", "--quiet", "--root", str(tree)],
                          input=json.dumps(request) + "\n", capture_output=True, text=True,
                          timeout=30)
    assert json.loads(done.stdout) == {"jsonrpc": "2.0", "id": 7, "result": {
        "elements": [{"kind": "import", "name": "sys", "class": None, "path": "use.py",
                      "line": 0, "col": 0, "end_line": 0, "end_col": 10, "name_line": 0,
                      "name_col": 7, "complexity": 1, "params": 0, "line_count": 1,
                      "signature": None}],
        "total": 1, "offset": 0, "next_offset": None}}


def test_files_classes_methods_chain_into_one_engine_query(ws):
    query = ws.files("*.py").classes("Cart").methods(complexity_gt=1)
    assert query.engine_query == 'method in "Cart" where complexity > 1'
    assert names(query) == ["Cart.total"]
    assert names(ws.files("*.py").classes("Cart").methods()) == [
        "Cart.__init__", "Cart.add", "Cart.total"]


def test_elements_carry_what_the_engine_resolved(ws):
    total = ws.methods("total").first()
    assert isinstance(total, eddi.Method)
    assert (total.path, total.line, total.col, total.cls) == ("shop.py", 7, 4, "Cart")
    assert total.signature == "(self, tax=0)"
    assert (total.complexity, total.params, total.line_count) == (4, 1, 8)
    assert total.target == "shop.py:Cart.total"
    assert total.text.splitlines()[0] == "def total(self, tax=0):"


def test_callers_come_from_name_resolution(ws):
    calls = ws.methods("total").first().callers().list()
    # o.total() in other_total is no call of Cart.total: o is not known to be a Cart.
    assert [(c.name, c.location, c.args, c.caller) for c in calls] == [
        ("c.total", "use.py:7:11", ["1"], "main")]
    assert isinstance(calls[0], eddi.Call)


def test_functions_are_not_methods(ws):
    # In the order of the workspace walk: pkg/use.py, shop.py, use.py.
    assert names(ws.functions()) == ["main", "helper", "main", "other_total"]
    assert [f.location for f in ws.files("pkg/*.py").functions()] == ["pkg/use.py:0:0"]


def test_a_file_scopes_to_itself_alone(ws):
    use = ws.file("use.py")
    assert isinstance(use, eddi.File)
    # pkg/use.py has a main too; use.py's own are asked by path, not by name.
    assert [f.location for f in use.functions()] == ["use.py:4:0", "use.py:10:0"]
    assert [i.module for i in use.imports(unused=True)] == ["sys"]
    assert use.text.startswith("import sys\nfrom shop import Cart\n")


def test_where_takes_a_python_condition(ws):
    query = ws.functions().where(lambda f: f.path.startswith("pkg/"))
    assert [f.location for f in query] == ["pkg/use.py:0:0"]
    assert query.count() == 1
    assert ws.functions().count() == 4


def test_keyword_conditions_after_a_python_step(ws):
    per_class = ws.classes().where(lambda c: c.name == "Cart").methods()
    assert names(per_class.where(params_ge=1)) == ["Cart.add", "Cart.total"]
    with pytest.raises(TypeError):
        per_class.where(unused=True)


def test_queries_are_lazy(ws, monkeypatch):
    sent = []
    real = ws.call
    monkeypatch.setattr(ws, "call", lambda method, **p: sent.append(p) or real(method, **p))
    query = ws.files("*.py").classes().methods(complexity_gt=2)
    assert sent == []
    assert names(query) == ["Cart.total"]
    assert len(sent) == 1


def test_pages_are_followed(tmp_path, server, server_env, monkeypatch):
    monkeypatch.setattr(eddi.model, "PAGE_SIZE", 500)
    root = tmp_path / "big"
    write_tree(root, {"many.py": "".join(f"def f{i}():\n    return {i}\n\n" for i in range(1203))})
    with eddi.open(root, server=server, env=server_env) as ws:
        functions = ws.functions().list()
    assert len(functions) == 1203
    assert functions[0].name == "f0" and functions[-1].name == "f1202"
    assert functions[-1].line == 3 * 1202


def test_an_unknown_keyword_condition_is_a_type_error(ws):
    with pytest.raises(TypeError):
        ws.functions(colour="red")


def test_async_iteration(tree, server, server_env):
    import asyncio

    async def main():
        async with eddi.aopen(tree, server=server, env=server_env) as ws:
            methods = [m.qualname async for m in ws.classes("Cart").methods()]
            per_class = [m.qualname async for m in ws.classes().where(
                lambda c: True).methods(complexity_gt=1)]
            first = [m async for m in ws.methods("total")][0]
            text = await ws.text_of(first)
            return methods, per_class, text.splitlines()[0]

    assert asyncio.run(main()) == (["Cart.__init__", "Cart.add", "Cart.total"], ["Cart.total"],
                                   "def total(self, tax=0):")


def test_a_path_outside_the_workspace_is_refused(ws, tree):
    (tree.parent / "outside.py").write_text("def secret():\n    pass\n")
    with pytest.raises(eddi.Refused) as refused:
        ws.query("function", path="../outside.py")
    assert (refused.value.message, refused.value.hint) == (
        "Path outside workspace", "Give a path inside the workspace, from its root")
    # The script set "function" holds methods too.
    assert [f.name for f in ws.select("function", path="./shop.py")] == [
        "__init__", "add", "total", "helper"]


def test_methods_of_subclasses(tmp_path, server, server_env):
    root = tmp_path / "family"
    write_tree(root, {"family.py": (
        "class Base:\n    def run(self):\n        return 1\n\n\n"
        "class Child(Base):\n    def run(self):\n        return 2\n\n    def stop(self):\n"
        "        return 3\n")})
    with eddi.open(root, server=server, env=server_env) as ws:
        base = ws.classes("Base").first()
        assert [c.name for c in base.subclasses()] == ["Child"]
        assert names(ws.subclasses_of("Base").methods()) == ["Child.run", "Child.stop"]


def test_aopen_is_awaitable_too(tree, server, server_env):
    import asyncio

    async def main():
        ws = await eddi.aopen(tree, server=server, env=server_env)
        try:
            status = await ws.say("Status")
            count = len([c async for c in ws.callers_of("Cart.total")])
            page = await ws.query("class")
        finally:
            await ws.close()
        return status, count, page["total"]

    status, count, classes = asyncio.run(main())
    assert status.startswith("Ok: Session python-") and (count, classes) == (1, 1)
