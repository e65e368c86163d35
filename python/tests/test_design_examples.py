"""The design's Stage-2 examples (doc/scripting.org, "The design's
examples, as they run") written with the Python API, on the same files as
test/transcripts/script_design.eddi, with the same outcome.  doc/python.org
shows each next to its EddiSpeak form."""

import pathlib
import shutil

import pytest

import eddi
from conftest import snapshot

FIXTURE = pathlib.Path(__file__).parent / "fixtures" / "design"


@pytest.fixture
def design(tmp_path):
    root = tmp_path / "design"
    shutil.copytree(FIXTURE, root)
    return root


def without_audit(root):
    """users.py without its complex method, as the transcript goes on."""
    users = root / "users.py"
    users.write_text(users.read_text().split("\n    def audit")[0] + "\n")


def open_ws(root, server, server_env):
    return eddi.open(root, server=server, env=server_env)


def block_example(ws):
    with ws.changeset("user_manager") as cs:
        for method in ws.classes("UserManager").methods(complexity_gt=8):
            cs.extract_method(method, "Extracted" + method.name)
        cs.replace_calls("UserManager.new", "AccountManager.new()")
        cs.rename_class("UserManager", "LegacyUserManager")
    return cs


def test_the_block_example_is_refused_where_the_engine_refuses(design, server, server_env):
    before = snapshot(design)
    with open_ws(design, server, server_env) as ws:
        with pytest.raises(eddi.Refused) as refused:
            block_example(ws)
    error = refused.value
    assert error.operation == "extract_method users.py:UserManager.audit Extractedaudit"
    assert error.message.endswith(
        "Extract: the lines return from other than their last statement at users.py:18:36")
    assert error.place == ("users.py", 18, 36)
    assert snapshot(design) == before


def test_the_block_example_without_the_complex_method(design, server, server_env):
    without_audit(design)
    with open_ws(design, server, server_env) as ws:
        cs = block_example(ws)
    assert cs.state == "committed"
    app = (design / "app.py").read_text()
    assert "manager = AccountManager.new()" in app
    assert "other = LegacyUserManager()" in app
    assert (design / "users.py").read_text().startswith("class LegacyUserManager:")


def test_systematic_code_migration(design, server, server_env):
    with open_ws(design, server, server_env) as ws:
        with ws.changeset("auth_migration") as cs:
            for file in ws.files("src/**/*.py", contains="from old_auth import"):
                cs.replace_text(file.path, "from old_auth import", "from new_auth import")
            cs.foreach(ws.files("src/**/*.py").calls_to("old_auth.login"),
                       "replace with new_auth.authenticate")
            diff = cs.diff()
    assert "+    return new_auth.authenticate(user)" in diff
    # The import was rewritten first, so login(user) is new_auth's now: as
    # the engine's script leaves it.
    assert (design / "src/auth_client.py").read_text() == (
        "from new_auth import login\n\n\ndef enter(user):\n    return login(user)\n")
    assert (design / "src/api/session.py").read_text() == (
        "import old_auth\n\n\ndef open_session(user):\n    return new_auth.authenticate(user)\n")


def test_code_quality_cleanup(design, server, server_env):
    flagged = []
    with open_ws(design, server, server_env) as ws:
        with ws.changeset("cleanup") as cs:
            for file in ws.files("*.py"):
                for function in file.functions(line_count_gt=50):
                    flagged.append(f"{function.location} Consider splitting: {function.name}")
                for unused in file.imports(unused=True):
                    cs.remove(unused)
            for file in ws.files("*.py", imports="logging", not_contains="logger ="):
                cs.add_line(file.path, "logger = logging.getLogger(__name__)")
    assert flagged == ["tools.py:4:0 Consider splitting: report"]
    tools = (design / "tools.py").read_text()
    assert tools.startswith("import logging\nlogger = logging.getLogger(__name__)\n")
    assert "import sys" not in tools
    assert (design / "src/api/session.py").read_text().startswith("import old_auth\n")


def refactoring_workflow(ws):
    flagged = []
    target = ws.classes("UserManager").first()
    try:
        with ws.changeset("user_manager_refactor") as cs:
            for method in target.methods(complexity_gt=10):
                cs.extract_method(method, method.name + "_extracted")
            for call in target.callers(path_contains="test_"):
                flagged.append(f"Update test: {call.location}")
            cs.foreach(target.callers(not_path_contains="test_"),
                       "replace UserManager with AccountManager")
            cs.rename_class("UserManager", "LegacyUserManager")
            preview = cs.diff()
    except eddi.Refused as refusal:
        flagged.append(f"Refactoring failed, manual intervention needed: {refusal.message}")
        return flagged, None
    return flagged, preview


def test_the_refactoring_workflow_rolls_back_and_flags(design, server, server_env):
    before = snapshot(design)
    with open_ws(design, server, server_env) as ws:
        flagged, preview = refactoring_workflow(ws)
    assert preview is None
    assert flagged == ["Update test: test_users.py:4:11",
                       "Refactoring failed, manual intervention needed: Script line 3:91: Extract: "
                       "the lines return from other than their last statement at users.py:18:36"]
    assert snapshot(design) == before


def test_the_refactoring_workflow_without_the_complex_method(design, server, server_env):
    without_audit(design)
    with open_ws(design, server, server_env) as ws:
        flagged, preview = refactoring_workflow(ws)
    assert flagged == ["Update test: test_users.py:4:11"]
    # The class's callers are its constructions (UserManager.new() calls
    # new): as the engine's script does it.
    assert "+    other = AccountManager()" in preview
    assert "+    manager = LegacyUserManager.new()" in preview
    assert (design / "users.py").read_text().startswith("class LegacyUserManager:")
    assert "LegacyUserManager().find" in (design / "test_users.py").read_text()
