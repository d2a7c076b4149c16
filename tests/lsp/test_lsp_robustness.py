"""Robustness of the real server process: a storm of didChange on a 3,000-line file, malformed
params, unknown methods, a code action on a stale version. The server must keep answering
and its resident memory (read from /proc/<pid>/status) must stay flat."""
from __future__ import annotations

import asyncio
import time

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from flake8_dllog.config import config_for_path
from flake8_dllog.engine import check_source
from lsp_helpers import (
    SAVE_COL,
    SAVE_LINE,
    TRAIN,
    apply_edits,
    change_full,
    change_range,
    codes,
    edits_of,
    generate_training_script,
    initialize,
    open_doc,
    raw_notify,
    raw_request,
    rss_kb,
    stats,
    wait_published,
    wait_until,
)

pytestmark = pytest.mark.timeout(400)


def hover_params(uri: str, line: int, character: int) -> types.HoverParams:
    return types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=character))


def apply_insert(text: str, line: int, col: int, new: str) -> str:
    lines = text.split("\n")
    lines[line] = lines[line][:col] + new + lines[line][col:]
    return "\n".join(lines)


def apply_delete(text: str, line: int, col: int, length: int) -> str:
    lines = text.split("\n")
    lines[line] = lines[line][:col] + lines[line][col + length:]
    return "\n".join(lines)


async def storm(client: LanguageClient, uri: str, text: str, version: int, n: int) -> tuple[str, int, list[float]]:
    """n rapid incremental didChange notifications; every 100th is followed by a hover request
    whose round trip is measured while the server is busy. Some intermediate versions do not
    parse (an unclosed bracket is typed, then closed)."""
    lines = text.split("\n")
    latencies = []
    for k in range(n):
        version += 1
        line = 10 + (k * 7) % (len(lines) - 20)
        if k % 50 == 10:
            # open a bracket (syntax error) ... closed again on the next change
            col = len(text.split("\n")[line])
            change_range(client, uri, version, (line, col), (line, col), "  # x(")
            text = apply_insert(text, line, col, "  # x(")
            # (a comment: still parses) then a real syntax error
            version += 1
            change_range(client, uri, version, (line, 0), (line, 0), "(")
            text = apply_insert(text, line, 0, "(")
            version += 1
            change_range(client, uri, version, (line, 0), (line, 1), "")
            text = apply_delete(text, line, 0, 1)
            continue
        # type a character at the end of a line, then delete it again: size stays flat
        col = len(text.split("\n")[line])
        if k % 2 == 0:
            change_range(client, uri, version, (line, col), (line, col), " ")
            text = apply_insert(text, line, col, " ")
        else:
            prev = col - 1
            if prev >= 0 and text.split("\n")[line][prev] == " ":
                change_range(client, uri, version, (line, prev), (line, col), "")
                text = apply_delete(text, line, prev, 1)
            else:
                change_range(client, uri, version, (line, col), (line, col), "")
        if k % 100 == 99:
            started = time.perf_counter()
            await asyncio.wait_for(client.text_document_hover_async(hover_params(uri, 0, 0)), 30)
            latencies.append(time.perf_counter() - started)
        elif k % 10 == 0:
            await asyncio.sleep(0)  # let the transport flush
    return text, version, latencies


async def test_thousand_rapid_changes_on_3000_line_file_memory_flat(client: LanguageClient, tmp_path):
    await initialize(client, [tmp_path], options={"dllog": {"debounce": 50}})
    text = generate_training_script(3000)
    assert text.count("\n") == 3000
    path = tmp_path / "big_train.py"
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    open_doc(client, uri, text, version=1)
    await wait_published(client, uri, version=1, timeout=120)
    info = await stats(client)
    pid, worker_pid = info["pid"], info["worker_pid"]
    assert worker_pid and worker_pid != pid, info  # analysis runs in a separate worker process

    # warm-up round (caches, allocator arenas), then the measured rounds
    text, version, _ = await storm(client, uri, text, 1, 200)
    await wait_published(client, uri, version=version, timeout=120)
    rss_start, wrss_start = rss_kb(pid), rss_kb(worker_pid)
    text, version, lat1 = await storm(client, uri, text, version, 1000)
    await wait_published(client, uri, version=version, timeout=120)
    rss_mid, wrss_mid = rss_kb(pid), rss_kb(worker_pid)
    text, version, lat2 = await storm(client, uri, text, version, 1000)
    final = await wait_published(client, uri, version=version, timeout=120)
    rss_end, wrss_end = rss_kb(pid), rss_kb(worker_pid)
    info = await stats(client)
    assert info["worker_pid"] == worker_pid  # the worker was never replaced
    print(
        f"\nserver RSS kB: start {rss_start}, after 1000 changes {rss_mid}, after 2000 changes {rss_end}; "
        f"worker RSS kB: {wrss_start}, {wrss_mid}, {wrss_end}; "
        f"analyses run {info['analyses']}, stale results dropped {info['dropped_stale']}; "
        f"hover round-trip during the storm max {max(lat1 + lat2) * 1000:.0f} ms"
    )
    # the server answered every request during the storms, promptly enough to be usable
    assert len(lat1) == len(lat2) == 10
    assert max(lat1 + lat2) < 10.0
    # debounced: far fewer analyses than changes
    assert info["analyses"] < 600
    # memory flat: growth over 2,000 further changes stays small
    assert rss_end - rss_start < 40_000, (rss_start, rss_mid, rss_end)
    assert rss_end - rss_mid < 20_000, (rss_start, rss_mid, rss_end)
    assert wrss_end - wrss_start < 40_000, (wrss_start, wrss_mid, wrss_end)
    # the last published diagnostics are those of the final text
    expected = check_source(text, str(path), config_for_path(path))
    assert codes(final.diagnostics) == sorted(f.code for f in expected.findings)
    assert [d.range.start.line for d in sorted(final.diagnostics, key=lambda d: (d.range.start.line, str(d.code)))] == [
        f.line - 1 for f in sorted(expected.findings, key=lambda f: (f.line, f.code))
    ]


async def test_malformed_params_and_unknown_methods_do_not_stop_the_server(client: LanguageClient, tmp_path):
    await initialize(client, [tmp_path])
    uri = (tmp_path / "train.py").as_uri()
    (tmp_path / "train.py").write_text(TRAIN, encoding="utf-8")
    open_doc(client, uri, TRAIN)
    await wait_published(client, uri, version=1)
    pid = (await stats(client))["pid"]
    rss_before = rss_kb(pid)

    for _ in range(50):
        # a request with malformed params gets an error response (not silence)
        with pytest.raises(Exception) as excinfo:
            await raw_request(client, "textDocument/hover", {"textDocument": 42})
        assert not isinstance(excinfo.value, asyncio.TimeoutError), "no answer to a malformed request"
        with pytest.raises(Exception) as excinfo:
            await raw_request(client, "textDocument/codeAction", {"textDocument": {"uri": uri}, "range": "everywhere"})
        assert not isinstance(excinfo.value, asyncio.TimeoutError), "no answer to a malformed request"
        # an unknown request: MethodNotFound
        with pytest.raises(Exception) as excinfo:
            await raw_request(client, "dllog/noSuchMethod", {"x": 1})
        assert not isinstance(excinfo.value, asyncio.TimeoutError)
        assert "-32601" in repr(excinfo.value) or "not found" in str(excinfo.value).lower(), repr(excinfo.value)
        # malformed and unknown notifications are ignored
        raw_notify(client, "textDocument/didChange", {"textDocument": {"uri": 5}, "contentChanges": "nope"})
        raw_notify(client, "textDocument/didChange", {"textDocument": {"uri": "file:///not/open.py", "version": 3},
                                                      "contentChanges": [{"text": "x"}]})
        raw_notify(client, "textDocument/didOpen", {"textDocument": None})
        raw_notify(client, "$/dllog/unknownNotification", {"a": [1, 2]})
        raw_notify(client, "workspace/didChangeConfiguration", {"settings": {"dllog": {"select": 17, "debounce": "soon"}}})
        raw_notify(client, "workspace/didChangeConfiguration", {"settings": {"dllog": {}}})
        # well-formed but odd: positions past the end, documents never opened
        far = types.Range(start=types.Position(line=99_999, character=5), end=types.Position(line=100_000, character=0))
        actions = await asyncio.wait_for(client.text_document_code_action_async(
            types.CodeActionParams(text_document=types.TextDocumentIdentifier(uri=uri), range=far,
                                   context=types.CodeActionContext(diagnostics=[]))), 10)
        assert isinstance(actions, (list, tuple))
        assert await asyncio.wait_for(client.text_document_hover_async(hover_params("file:///nowhere/never.py", 1, 1)), 10) is None
        assert await asyncio.wait_for(client.text_document_hover_async(hover_params(uri, 10_000, 10_000)), 10) is None
    # a NUL byte and an undecodable surrogate mid-edit
    change_full(client, uri, TRAIN + "\x00\n", 2)
    change_full(client, uri, TRAIN + 'x = "\ud800"\n', 3)
    change_full(client, uri, TRAIN, 4)
    published = await wait_published(client, uri, version=4)
    assert "DLL200" in codes(published.diagnostics)
    # still answering normally
    hover = await asyncio.wait_for(client.text_document_hover_async(hover_params(uri, SAVE_LINE, SAVE_COL + 1)), 10)
    assert hover is not None and "DLL200" in hover.contents.value
    rss_after = rss_kb(pid)
    print(f"\nRSS kB before {rss_before}, after 50 rounds of bad input {rss_after}")
    assert rss_after - rss_before < 20_000


async def test_code_action_on_a_stale_version(client: LanguageClient, tmp_path):
    await initialize(client, [tmp_path], options={"debounce": 0})
    path = tmp_path / "train.py"
    path.write_text(TRAIN, encoding="utf-8")
    uri = path.as_uri()
    open_doc(client, uri, TRAIN)
    v1 = await wait_published(client, uri, version=1)
    stale = [d for d in v1.diagnostics if d.code == "DLL200"][0]
    # three lines are inserted at the top: every v1 position is now off by three lines
    change_range(client, uri, 2, (0, 0), (0, 0), "# one\n# two\n# three\n")
    text2 = "# one\n# two\n# three\n" + TRAIN
    # ask at once, with the v1 diagnostic and its v1 range
    actions = await asyncio.wait_for(client.text_document_code_action_async(
        types.CodeActionParams(text_document=types.TextDocumentIdentifier(uri=uri), range=stale.range,
                               context=types.CodeActionContext(diagnostics=[stale]))), 30)
    assert isinstance(actions, (list, tuple))
    for action in actions:
        if action.edit is None:
            continue
        for change in action.edit.document_changes or []:
            assert change.text_document.version == 2, action.title  # never an edit for v1
        new = apply_edits(text2, edits_of(action, uri))
        compile(new, "train.py", "exec")
        # nothing is attached to the stale v1 position (now `optimizer.step()` / other code)
        assert "DLL200" not in action.title or "noqa" not in new.split("\n")[SAVE_LINE]
    # asked at the current position, the right fix comes back for v2
    v2 = await wait_published(client, uri, version=2)
    current = [d for d in v2.diagnostics if d.code == "DLL200"][0]
    assert current.range.start.line == SAVE_LINE + 3
    actions = await asyncio.wait_for(client.text_document_code_action_async(
        types.CodeActionParams(text_document=types.TextDocumentIdentifier(uri=uri), range=current.range,
                               context=types.CodeActionContext(diagnostics=[current, stale]))), 30)
    noqa = [a for a in actions if a.title == "Disable DLL200 for this line"]
    assert len(noqa) == 1
    new = apply_edits(text2, edits_of(noqa[0], uri))
    assert new.split("\n")[SAVE_LINE + 3].endswith("# noqa: DLL200")
    after = check_source(new, str(path), config_for_path(path))
    assert "DLL200" not in [f.code for f in after.findings]
    # and the server is still fine
    assert (await stats(client))["open_documents"] == 1


async def test_a_killed_analysis_worker_is_replaced_and_diagnostics_resume(client: LanguageClient, tmp_path):
    """Each analysis may run in two worker processes (lsp_server.server.Jobs lanes). Killing
    one mid-session fails that analysis with one logged line; the next change starts fresh
    workers and gets the same diagnostics as before."""
    import os
    import signal

    await initialize(client, [tmp_path], options={"dllog": {"debounce": 0}})
    path = tmp_path / "train.py"
    path.write_text(TRAIN, encoding="utf-8")
    uri = path.as_uri()
    open_doc(client, uri, TRAIN, version=1)
    before = await wait_published(client, uri, version=1)
    info = await stats(client)
    pids = [p for p in (info.get("worker_pids") or [info["worker_pid"]]) if p]
    assert pids and info["pid"] not in pids, info
    os.kill(pids[-1], signal.SIGKILL)  # the second worker when there are two
    change_full(client, uri, TRAIN + "\n# edit 2\n", version=2)
    await wait_until(
        lambda: any("failed" in m.message for m in client.log_messages) or any(p.version == 2 for p in client.published),
        timeout=120,  # a dead worker is noticed by the pool's own thread, then replaced
        what="the failed analysis to be logged (or, if the kill landed after it, its diagnostics)",
    )
    change_full(client, uri, TRAIN + "\n# edit 3\n", version=3)
    after = await wait_published(client, uri, version=3, timeout=120)
    assert codes(after.diagnostics) == codes(before.diagnostics) and before.diagnostics
    info = await stats(client)
    assert info["analyses"] >= 3
