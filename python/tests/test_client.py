"""The connection: spawning, finding the binary, matching responses by id,
errors of the protocol and of the engine."""

import concurrent.futures
import os

import pytest

import eddi
from eddi.client import Connection, find_server


def test_open_starts_a_session_of_its_own(ws):
    assert ws.say("Status") == f"Ok: Session {ws.session}, No file"
    assert ws.sender.startswith("python-")


def test_exec_returns_every_reply_and_raises_at_a_fail(ws):
    replies = ws.exec("Open shop.py\nGoto 4:0", check=False)
    assert list(replies) == ["Ok, At 0:0, Length 19", "Ok, At 4:0"]
    with pytest.raises(eddi.Refused) as refused:
        ws.exec("Open nothing.py")
    assert refused.value.message == "File not found: nothing.py"
    assert refused.value.reply.startswith('Fail "File not found: nothing.py"')


def test_calls_from_many_threads_get_their_own_answers(ws):
    ws.say("Open shop.py")

    def status(i):
        return ws.call("eddi.exec", text=f"Bookmark b{i} 0:0", session=ws.session)["text"]

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(status, range(40)))
    assert answers == [f"Ok, Bookmark b{i} at 0:0" for i in range(40)]


def test_an_unknown_method_is_a_protocol_error(ws):
    with pytest.raises(eddi.ProtocolError) as error:
        ws.call("no.such")
    assert error.value.code == -32601
    assert error.value.message == "Method not found: no.such"


def test_bad_params_are_a_protocol_error(ws):
    with pytest.raises(eddi.ProtocolError) as error:
        ws.call("code.query", query="function", bogus=1)
    assert error.value.code == -32602
    assert error.value.message == (
        "Unknown argument bogus; this call takes: query path files offset limit text")


def test_the_typed_calls(ws):
    assert ws.read("use.py", limit=2).splitlines()[1:] == [
        "1:import sys", "2:from shop import Cart",
        "[Showing lines 1-2 of 12. Read use.py 3 to continue]"]
    assert "use.py" in ws.grep("Cart\\(", glob="*.py")
    assert ws.preview_rename("helper", "helped").startswith("Ok, Preview: Would modify 1 file")
    result = ws.rename("helper", "helped")
    assert result["files"] == 1
    assert "def helped(x):" in (ws.root and open(os.path.join(ws.root, "shop.py")).read())


def test_the_server_is_found_by_argument_then_environment_then_path(server, monkeypatch, tmp_path):
    assert find_server("/x/eddi-server") == "/x/eddi-server"
    monkeypatch.setenv("EDDI_SERVER", server)
    assert find_server() == server
    monkeypatch.delenv("EDDI_SERVER")
    monkeypatch.setenv("PATH", os.path.dirname(server))
    assert find_server() == os.path.join(os.path.dirname(server), "eddi-server")
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(eddi.ServerExited) as error:
        find_server()
    assert str(error.value) == (
        "eddi-server not found: pass server=PATH, set $EDDI_SERVER, or put it on PATH")


def test_a_server_that_ends_fails_the_waiting_call(tree, server, server_env):
    connection = Connection.spawn(tree, server=server, env=server_env, journal=False)
    assert connection.call("ping") == {}
    os.kill(connection.pid, 9)
    with pytest.raises(eddi.ServerExited):
        connection.call("ping")
        connection.call("ping")
    connection.close()
