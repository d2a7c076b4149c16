"""Shared helpers for the language-server tests: a pytest-lsp client that records every
publishDiagnostics (with its version) and every client/registerCapability, plus waiting
helpers with hard timeouts."""
from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any, Callable

from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

REPO = Path(__file__).resolve().parents[2]
SERVER_COMMAND = [sys.executable, "-m", "lsp_server"]
WAIT = 20.0  # seconds; generous for a loaded 2-core CI machine


def _publish(client: LanguageClient, params: types.PublishDiagnosticsParams):
    client.diagnostics[params.uri] = params.diagnostics
    client.published.append(params)


def _register(client: LanguageClient, params: types.RegistrationParams):
    client.registrations.extend(params.registrations)
    return None


def _apply_edit(client: LanguageClient, params: types.ApplyWorkspaceEditParams):
    client.applied_edits.append(params)
    return types.ApplyWorkspaceEditResult(applied=True)


def make_client() -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    client.published = []  # type: ignore[attr-defined]
    client.registrations = []  # type: ignore[attr-defined]
    client.applied_edits = []  # type: ignore[attr-defined]
    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = _publish
    features[types.CLIENT_REGISTER_CAPABILITY] = _register
    features[types.WORKSPACE_APPLY_EDIT] = _apply_edit
    register_lsp_features(client, features)
    return client


CONFIG = ClientServerConfig(server_command=SERVER_COMMAND, client_factory=make_client, server_env=None)


def capabilities(*, document_changes: bool = True, watchers: bool = True, configuration: bool = True,
                 resolve: bool = False, encodings: list[str] | None = None) -> types.ClientCapabilities:
    return types.ClientCapabilities(
        general=types.GeneralClientCapabilities(position_encodings=encodings) if encodings else None,
        workspace=types.WorkspaceClientCapabilities(
            configuration=configuration,
            did_change_configuration=types.DidChangeConfigurationClientCapabilities(dynamic_registration=False),
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=watchers),
            workspace_edit=types.WorkspaceEditClientCapabilities(document_changes=document_changes),
            workspace_folders=True,
        ),
        text_document=types.TextDocumentClientCapabilities(
            synchronization=types.TextDocumentSyncClientCapabilities(did_save=True),
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(version_support=True, code_description_support=True, data_support=True),
            hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
            code_action=types.CodeActionClientCapabilities(
                code_action_literal_support=types.ClientCodeActionLiteralOptions(
                    code_action_kind=types.ClientCodeActionKindOptions(
                        value_set=[types.CodeActionKind.QuickFix, types.CodeActionKind.Source, types.CodeActionKind.SourceFixAll]
                    )
                ),
                is_preferred_support=True,
                data_support=True,
                resolve_support=types.ClientCodeActionResolveOptions(properties=["edit"]) if resolve else None,
            ),
        ),
    )


async def initialize(client: LanguageClient, folders: list[Path] | None = None, *, options: Any = None,
                     **caps) -> types.InitializeResult:
    folders = folders or []
    params = types.InitializeParams(
        capabilities=capabilities(**caps),
        root_uri=folders[0].as_uri() if folders else None,
        workspace_folders=[types.WorkspaceFolder(uri=f.as_uri(), name=f.name) for f in folders] or None,
        initialization_options=options,
    )
    result = await asyncio.wait_for(client.initialize_session(params), WAIT)
    return result


def open_doc(client: LanguageClient, uri: str, text: str, version: int = 1) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="python", version=version, text=text)
        )
    )


def change_full(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def change_range(client: LanguageClient, uri: str, version: int, start: tuple[int, int], end: tuple[int, int], text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=types.Position(line=start[0], character=start[1]), end=types.Position(line=end[0], character=end[1])),
                    text=text,
                )
            ],
        )
    )


async def wait_until(predicate: Callable[[], bool], timeout: float = WAIT, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(0.02)


async def wait_published(client: LanguageClient, uri: str, *, version: int | None = None, after: int = 0,
                         timeout: float = WAIT) -> types.PublishDiagnosticsParams:
    """The first publishDiagnostics for ``uri`` (of ``version`` if given) received after index ``after``."""
    found: list[types.PublishDiagnosticsParams] = []

    def check() -> bool:
        for p in client.published[after:]:
            if p.uri == uri and (version is None or p.version == version):
                found.append(p)
                return True
        return False

    await wait_until(check, timeout, f"diagnostics for {uri} version {version}")
    return found[0]


async def stats(client: LanguageClient) -> dict:
    """The server's own counters (custom request ``dllog/serverStats``)."""
    result = await asyncio.wait_for(client.protocol.send_request_async("dllog/serverStats", None), WAIT)
    # pygls turns untyped JSON objects into namedtuples on the client side
    return result._asdict() if hasattr(result, "_asdict") else dict(result)


def codes(diags) -> list[str]:
    return sorted(str(d.code) for d in diags)


def edits_of(action: types.CodeAction, uri: str) -> list[types.TextEdit]:
    edit = action.edit
    assert edit is not None, f"action {action.title!r} has no edit"
    if edit.document_changes:
        out = []
        for change in edit.document_changes:
            assert isinstance(change, types.TextDocumentEdit)
            assert change.text_document.uri == uri
            out.extend(change.edits)
        return out
    return list(edit.changes[uri])


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP edits (UTF-16 positions) to text, as an editor would."""
    import re

    lines = re.split(r"(?<=\r\n)|(?<=\n)|(?<=\r)(?!\n)", text)

    def offset(pos: types.Position) -> int:
        if pos.line >= len(lines):
            return len(text)
        base = sum(len(l) for l in lines[: pos.line])
        content = lines[pos.line].rstrip("\r\n")
        units = 0
        for i, ch in enumerate(content):
            if units >= pos.character:
                return base + i
            units += 2 if ord(ch) > 0xFFFF else 1
        return base + len(content)

    spans = sorted(((offset(e.range.start), offset(e.range.end), e.new_text) for e in edits), reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


TRAIN = '''\
import argparse
import os

import torch


def train(model, loader, optimizer, args):
    for epoch in range(args.epochs):
        for x, y in loader:
            optimizer.zero_grad()
            loss = torch.nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
        ckpt_path = os.path.join(args.out_dir, f"epoch_{epoch}.pt")
        torch.save(model.state_dict(), ckpt_path)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--out-dir", default="runs")
    args = parser.parse_args()
    model = torch.nn.Linear(4, 1)
    train(model, [], torch.optim.SGD(model.parameters(), lr=0.1), args)
'''
SAVE = "torch.save(model.state_dict(), ckpt_path)"
SAVE_LINE = 14  # 0-based line of SAVE in TRAIN
SAVE_COL = 8
LOOP_LINE = 7  # 0-based line of the training loop header


def without_save(text: str) -> str:
    return text.replace("        " + SAVE + "\n", "")


BLOCK = '''\
def train_{i}(model, loader, optimizer, args):
    model.to(args.device)
    for epoch in range(args.epochs):
        for x, y in loader:
            optimizer.zero_grad()
            loss = torch.nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
        ckpt_path = os.path.join(args.out_dir, f"run{i}_epoch_{{epoch}}.pt")
        torch.save(model.state_dict(), ckpt_path)
    return model


'''
HEADER = '''\
"""Generated training script (dllog language-server robustness tests and benchmarks)."""
import argparse
import os

import torch


'''
FOOTER = '''\
if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--out-dir", default="runs")
    parser.add_argument("--device", default="cpu")
    args = parser.parse_args()
    net = torch.nn.Linear(4, 1)
    train_0(net, [], torch.optim.SGD(net.parameters(), lr=0.1), args)
'''


def generate_training_script(n_lines: int) -> str:
    """A syntactically valid training script of about ``n_lines`` lines, with an unlogged
    training loop, checkpoint save and device move per function."""
    parts = [HEADER]
    count = HEADER.count("\n") + FOOTER.count("\n")
    i = 0
    while count + BLOCK.count("\n") <= n_lines:
        block = BLOCK.format(i=i)
        parts.append(block)
        count += block.count("\n")
        i += 1
    while count < n_lines:
        parts.append("\n")
        count += 1
    parts.append(FOOTER)
    return "".join(parts)


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError(f"no VmRSS for pid {pid}")


def send_raw(client: LanguageClient, payload: Any) -> None:
    """Write one JSON-RPC message straight to the server's stdin, bypassing the client's
    typed serialisation (which would refuse malformed params)."""
    import inspect
    import json

    body = json.dumps(payload)
    res = client.protocol.writer.write(f"Content-Length: {len(body)}\r\n\r\n{body}".encode("utf-8"))
    if inspect.isawaitable(res):
        asyncio.ensure_future(res)


_raw_ids = iter(range(10**9))


async def raw_request(client: LanguageClient, method: str, params: Any, timeout: float = 10.0) -> Any:
    """Send a raw request and wait for its response (an error response raises)."""
    msg_id = f"raw-{next(_raw_ids)}"
    future = asyncio.get_running_loop().create_future()
    client.protocol._request_futures[msg_id] = future
    send_raw(client, {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
    return await asyncio.wait_for(future, timeout)


def raw_notify(client: LanguageClient, method: str, params: Any) -> None:
    send_raw(client, {"jsonrpc": "2.0", "method": method, "params": params})
