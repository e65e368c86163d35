"""Changesets: collected by the engine, previewed, written all at once,
rolled back by an exception, undone to the exact bytes."""

import asyncio

import pytest

import eddi
from conftest import SHOP, USE, snapshot, write_tree


def read(root, rel):
    return (root / rel).read_text()


def test_a_rename_is_written_across_files_at_exit(ws, tree):
    with ws.changeset("rename") as cs:
        cs.rename("Cart.total", "grand_total", leave=True)
        assert read(tree, "shop.py") == SHOP  # nothing written inside the block
    assert cs.state == "committed"
    assert read(tree, "shop.py") == SHOP.replace("def total(", "def grand_total(")
    assert read(tree, "use.py") == USE.replace("c.total(1)", "c.grand_total(1)")
    assert cs.applied == f"Ok, Applied changeset {cs.name}: 2 files"


def test_diff_previews_and_writes_nothing(ws, tree):
    before = snapshot(tree)
    cs = ws.changeset("preview").rename("helper", "helped")
    assert cs.diff() == (
        "--- a/shop.py\n+++ b/shop.py\n@@ -15,5 +15,5 @@\n"
        "         return s\n \n \n-def helper(x):\n+def helper(x):\n     return x + 1".replace(
            "+def helper", "+def helped"))
    assert cs.summary.startswith(f"Ok, Migration prepared: 1 file affected, use 'apply changeset {cs.name}'")
    assert snapshot(tree) == before


def test_an_exception_rolls_everything_back_byte_for_byte(ws, tree):
    # A file with CRLF line ends and a byte-order mark, to see bytes kept.
    write_tree(tree, {"crlf.py": b"\xef\xbb\xbfdef helper2(a):\r\n    return a\r\n"})
    before = snapshot(tree)
    with pytest.raises(ZeroDivisionError):
        with ws.changeset("doomed") as cs:
            cs.rename("Cart.total", "grand_total", leave=True)
            cs.replace_text("crlf.py", "return a", "return a + 1")
            assert "grand_total" in cs.diff()
            1 / 0
    assert cs.state == "rolled back"
    assert snapshot(tree) == before
    assert ws.history == []


def test_a_refusal_raises_with_the_engines_words_and_writes_nothing(ws, tree):
    before = snapshot(tree)
    with pytest.raises(eddi.Refused) as refused:
        with ws.changeset("bad") as cs:
            cs.rename("Cart.total", "grand_total", leave=True)
            cs.rename("Cart.missing", "anything")
    error = refused.value
    assert error.reply == 'Fail "Script line 4:1: No definition of Cart.missing found"'
    assert error.message == "Script line 4:1: No definition of Cart.missing found"
    assert error.operation == "rename Cart.missing anything"
    assert snapshot(tree) == before


def test_an_unsure_reference_is_refused_with_its_place_and_what_to_do(ws, tree):
    before = snapshot(tree)
    with pytest.raises(eddi.Refused) as refused:
        with ws.changeset("unsure") as cs:
            cs.rename("Cart.total", "grand_total")
    error = refused.value
    # o.total() in other_total may or may not be a Cart's.
    assert error.message == (
        "Script line 3:1: 1 reference to Cart.total cannot be resolved: use.py:11; nothing written")
    assert error.hint == "Add Unsure to change them too, or Leave to write without them"
    assert snapshot(tree) == before


def test_a_refusal_names_its_place_and_hint(ws, tree):
    before = snapshot(tree)
    with pytest.raises(eddi.Refused) as refused:
        with ws.changeset("clash") as cs:
            cs.rename("Cart.add", "total")
    error = refused.value
    assert error.operation == "rename Cart.add total"
    assert error.place is not None and error.place.path == "shop.py"
    assert snapshot(tree) == before


def test_undo_puts_back_the_exact_bytes(ws, tree):
    before = snapshot(tree)
    with ws.changeset("two") as cs:
        cs.rename("Cart.total", "grand_total", leave=True)
        cs.add_import("shop.py", "os")
    assert read(tree, "shop.py").startswith("import os\n\nclass Cart:")
    assert ws.history == [cs]
    assert ws.undo() == f"Ok, Rolled back changeset {cs.name}: 2 files"
    assert snapshot(tree) == before
    assert cs.state == "undone" and ws.history == []
    with pytest.raises(eddi.EddiError):
        ws.undo()


def test_undo_is_refused_when_a_file_changed_since(ws, tree):
    with ws.changeset("r") as cs:
        cs.rename("helper", "helped")
    (tree / "shop.py").write_text("changed behind eddi's back\n")
    with pytest.raises(eddi.Refused) as refused:
        ws.undo(cs)
    assert refused.value.operation == "rollback changeset"
    assert read(tree, "shop.py") == "changed behind eddi's back\n"


def test_apply_is_refused_when_a_file_changed_since_the_diff(ws, tree):
    cs = ws.changeset("late").rename("helper", "helped")
    cs.diff()
    (tree / "shop.py").write_text(SHOP + "\n# edited\n")
    with pytest.raises(eddi.Refused) as refused:
        cs.commit()
    assert refused.value.operation == "apply changeset"
    assert read(tree, "shop.py") == SHOP + "\n# edited\n"


def test_signature_extraction_and_text_edits_in_one_changeset(ws, tree):
    total = ws.methods("total").first()
    with ws.changeset("restructure") as cs:
        cs.change_signature(total, "(self, tax=0, rate=1)")
        cs.extract_method(("shop.py", 9, 13), "accumulate")
        cs.replace_text("use.py", "import sys\n", "")
    shop = read(tree, "shop.py")
    assert "def total(self, tax=0, rate=1):" in shop
    assert "def accumulate(" in shop
    assert read(tree, "use.py").startswith("from shop import Cart\n")
    ws.undo()
    assert read(tree, "shop.py") == SHOP and read(tree, "use.py") == USE


def test_remove_an_element_and_replace_calls(ws, tree):
    unused = ws.file("use.py").imports(unused=True).first()
    with ws.changeset("tidy") as cs:
        cs.remove(unused)
        cs.replace_calls("helper", "helper($1 + 1)")
    assert read(tree, "use.py") == USE.replace("import sys\n", "")


def test_operations_after_a_diff_are_collected_again(ws, tree):
    cs = ws.changeset("grow").rename("helper", "helped")
    first = cs.name if cs.diff() is not None else None
    cs.rename("Cart.add", "append")
    assert "append" in cs.diff()
    assert cs.name != first
    cs.commit()
    assert "def append(self, price):" in read(tree, "shop.py")
    assert "c.append(2)" in read(tree, "use.py")


def test_an_empty_changeset_writes_nothing(ws, tree):
    before = snapshot(tree)
    with ws.changeset("empty") as cs:
        assert cs.diff() == ""
    assert cs.state == "committed" and ws.history == []
    assert snapshot(tree) == before


def test_element_rename_is_its_own_transaction(ws, tree):
    ws.classes("Cart").first().rename("Basket")
    assert "class Basket:" in read(tree, "shop.py")
    assert "from shop import Basket" in read(tree, "use.py")


def test_a_hundred_commits_undone_leave_the_tree_as_it_was(ws, tree):
    before = snapshot(tree)
    for i in range(100):
        with ws.changeset(f"round{i}") as cs:
            cs.rename("Cart.total", f"total_{i}", leave=True)
            cs.replace_text("use.py", "import sys", f"import sys  # {i}")
        assert f"def total_{i}(" in read(tree, "shop.py")
        ws.undo()
        assert snapshot(tree) == before


def test_async_changeset_commit_and_undo(tree, server, server_env):
    async def main():
        async with eddi.aopen(tree, server=server, env=server_env) as ws:
            async with ws.changeset("async") as cs:
                cs.rename("helper", "helped")
                diff = await cs.diff()
            written = read(tree, "shop.py")
            await ws.undo()
            return diff, written

    diff, written = asyncio.run(main())
    assert "+def helped(x):" in diff
    assert "def helped(x):" in written
    assert read(tree, "shop.py") == SHOP


def test_a_refused_changeset_in_async(tree, server, server_env):
    async def main():
        async with eddi.aopen(tree, server=server, env=server_env) as ws:
            async with ws.changeset("bad") as cs:
                cs.rename("nothing_here", "x")

    with pytest.raises(eddi.Refused) as refused:
        asyncio.run(main())
    assert refused.value.operation == "rename nothing_here x"
    assert read(tree, "shop.py") == SHOP


def test_an_element_is_found_after_an_earlier_operation_moved_it(ws, tree):
    helper = ws.functions("helper").first()
    with ws.changeset("moved") as cs:
        cs.add_import("shop.py", "os")  # every line of shop.py moves down
        cs.remove(helper)
    shop = read(tree, "shop.py")
    assert shop.startswith("import os\n") and "def helper" not in shop


def test_twins_are_told_apart_by_place(ws, tree):
    write_tree(tree, {"prop.py": (
        "class Box:\n"
        "    @property\n"
        "    def size(self):\n"
        "        return self._size\n"
        "\n"
        "    @size.setter\n"
        "    def size(self, value):\n"
        "        self._size = value\n")})
    getter, setter = ws.file("prop.py").methods("size")
    assert (getter.line, setter.line) == (2, 6)
    with ws.changeset("twins") as cs:
        cs.replace_in(setter, "_size", "_volume")
    assert read(tree, "prop.py") == (
        "class Box:\n    @property\n    def size(self):\n        return self._size\n\n"
        "    @size.setter\n    def size(self, value):\n        self._volume = value\n")


def test_text_edits_in_a_tree_with_binary_and_plain_files(ws, tree):
    write_tree(tree, {"logo.png": b"\x89PNG\r\n\x1a\n\x00\x00binary", "notes.txt": "old name\n"})
    with ws.changeset("text") as cs:
        cs.replace_text("notes.txt", "old name", "new name")
    assert read(tree, "notes.txt") == "new name\n"
    assert [f.path for f in ws.files("*.py")] == ["pkg/use.py", "shop.py", "use.py"]
    # The engine's file set reads what it matches, and a binary file refuses it.
    with pytest.raises(eddi.Refused) as refused:
        ws.files("*").list()
    assert refused.value.message == "Binary file (NUL byte at offset 8)"


def test_check_names_what_a_changeset_breaks_and_writes_nothing(ws, tree):
    before = snapshot(tree)
    undefined = ws.changeset("undefined")
    undefined.replace_text("shop.py", "return x + 1", "return missing_name + 1")
    undefined.replace_text("use.py", "return o.total()", "return other_missing(o)")
    check = undefined.check()
    assert check.undefined == [("shop.py", 18, "missing_name"), ("use.py", 11, "other_missing")]
    assert (check.syntax_errors, check.more_undefined, check.more_syntax_errors) == ([], 0, 0)
    assert not check.ok and not check
    assert check.summary == ("Ok, Changeset undefined-1 (collected): 2 files: shop.py +1 -1, "
                             "use.py +1 -1, Undefined: shop.py:18 missing_name; use.py:11 other_missing")
    # A syntax error is what is said of its file (the names around it are
    # misread by the parser's recovery).
    broken = ws.changeset("broken")
    broken.replace_text("shop.py", "return x + 1", "return missing_name + 1")
    broken.replace_text("shop.py", "def helper(x):", "def helper(x:")
    check = broken.check()
    # The parser recovers past the unclosed parameter list on the next line.
    assert (check.undefined, check.syntax_errors) == ([], [("shop.py", 17), ("shop.py", 18)])
    assert check.summary == ("Ok, Changeset broken-2 (collected): 1 file: shop.py +2 -2, "
                             "Syntax errors: shop.py:17, shop.py:18")
    assert snapshot(tree) == before


def test_check_of_a_sound_changeset_is_ok(ws, tree):
    cs = ws.changeset("sound")
    cs.rename("helper", "helper2")
    check = cs.check()
    assert (check.ok, check.undefined, check.syntax_errors) == (True, [], [])
    assert check.summary == "Ok, Changeset sound-1 (collected): 1 file: shop.py +1 -1"
    cs.commit()
    assert "def helper2(x):" in (tree / "shop.py").read_text()
