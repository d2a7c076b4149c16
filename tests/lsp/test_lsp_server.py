"""The dllog language server as a real subprocess over stdio, driven by pytest-lsp."""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from flake8_dllog.config import config_for_path
from flake8_dllog.engine import check_source
from lsp_helpers import (
    LOOP_LINE,
    SAVE,
    SAVE_COL,
    SAVE_LINE,
    TRAIN,
    without_save,
    apply_edits,
    change_full,
    change_range,
    codes,
    edits_of,
    initialize,
    make_client,
    open_doc,
    stats,
    wait_published,
    wait_until,
)

pytestmark = pytest.mark.timeout(120)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def diag(diags, code):
    found = [d for d in diags if d.code == code]
    assert found, f"no {code} in {codes(diags)}"
    return found[0]


async def code_actions(client, uri, rng, diags=(), only=None):
    return await asyncio.wait_for(
        client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=rng,
                context=types.CodeActionContext(diagnostics=list(diags), only=only),
            )
        ),
        30,
    ) or []


def require_fixes():
    try:
        from flake8_dllog.fixes import fix_source, fixes_for_finding  # noqa: F401
    except ImportError as exc:  # the fix API (issue 3) is a hard dependency of these tests
        pytest.fail(f"flake8_dllog.fixes is not importable, quick fixes cannot be tested: {exc}")


# -- capabilities ------------------------------------------------------------------------------

async def test_initialize_advertises_features_and_registers_watchers(client: LanguageClient, tmp_path):
    result = await initialize(client, [tmp_path])
    caps = result.capabilities
    assert caps.hover_provider
    kinds = [str(k) for k in caps.code_action_provider.code_action_kinds]
    assert "quickfix" in kinds and "source.fixAll.dllog" in kinds
    sync = caps.text_document_sync
    assert sync.open_close and sync.save is not None
    assert caps.position_encoding in (None, types.PositionEncodingKind.Utf16)
    await wait_until(lambda: client.registrations, what="client/registerCapability")
    reg = client.registrations[0]
    assert reg.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    globs = sorted(w["globPattern"] if isinstance(w, dict) else w.glob_pattern for w in
                   (reg.register_options["watchers"] if isinstance(reg.register_options, dict) else reg.register_options.watchers))
    assert globs == ["**/.dllog.yaml", "**/pyproject.toml"]


async def test_no_dynamic_registration_without_client_support(client: LanguageClient, tmp_path):
    await initialize(client, [tmp_path], watchers=False)
    uri = write(tmp_path / "train.py", TRAIN).as_uri()
    open_doc(client, uri, TRAIN)
    await wait_published(client, uri)
    assert client.registrations == []


# -- diagnostics ---------------------------------------------------------------------------------

async def test_diagnostics_on_open_have_range_code_description_severity_data(client: LanguageClient, tmp_path):
    await initialize(client, [tmp_path])
    uri = write(tmp_path / "train.py", TRAIN).as_uri()
    open_doc(client, uri, TRAIN, version=7)
    published = await wait_published(client, uri)
    assert published.version == 7
    diags = published.diagnostics
    assert {"DLL100", "DLL200"} <= set(codes(diags))
    save = diag(diags, "DLL200")
    # the site: the `torch.save(...)` call itself
    assert save.range.start == types.Position(line=SAVE_LINE, character=SAVE_COL)
    assert save.range.end == types.Position(line=SAVE_LINE, character=SAVE_COL + len(SAVE))
    assert save.source == "dllog"
    assert save.severity == types.DiagnosticSeverity.Warning
    assert save.code_description.href.endswith("DLL200.md")
    assert save.data["version"] == 7 and save.data["finding"]["code"] == "DLL200"
    assert save.data["finding"]["context"]["anchor"] == "after"
    loop = diag(diags, "DLL100")
    # a loop's header, not its body
    assert loop.range.start.line == loop.range.end.line == LOOP_LINE


async def test_did_change_is_debounced_and_only_latest_version_published(client: LanguageClient, tmp_path):
    await initialize(client, [tmp_path], options={"dllog": {"debounce": 300}})
    uri = write(tmp_path / "train.py", TRAIN).as_uri()
    open_doc(client, uri, TRAIN)
    await wait_published(client, uri, version=1)
    mark = len(client.published)
    text = TRAIN
    for v in range(2, 12):
        text = text + f"x{v} = {v}\n"
        change_full(client, uri, text, v)
        await asyncio.sleep(0.01)
    # the last change removes the save call; only that version's diagnostics may appear
    final = without_save(text)
    change_full(client, uri, final, 12)
    published = await wait_published(client, uri, after=mark)
    assert published.version == 12, [p.version for p in client.published[mark:]]
    assert "DLL200" not in codes(published.diagnostics)
    await asyncio.sleep(0.6)
    assert [p.version for p in client.published[mark:] if p.uri == uri] == [12]


async def test_run_on_save_lints_only_on_open_and_save(client: LanguageClient, tmp_path):
    await initialize(client, [tmp_path], options={"run": "onSave", "debounce": 0})
    path = write(tmp_path / "train.py", TRAIN)
    uri = path.as_uri()
    open_doc(client, uri, TRAIN)
    await wait_published(client, uri, version=1)
    mark = len(client.published)
    fixed = without_save(TRAIN)
    change_full(client, uri, fixed, 2)
    await asyncio.sleep(0.5)
    assert client.published[mark:] == []
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    published = await wait_published(client, uri, after=mark)
    assert published.version == 2 and "DLL200" not in codes(published.diagnostics)


async def test_did_close_clears_diagnostics(client: LanguageClient, tmp_path):
    await initialize(client, [tmp_path])
    uri = write(tmp_path / "train.py", TRAIN).as_uri()
    open_doc(client, uri, TRAIN)
    await wait_published(client, uri)
    mark = len(client.published)
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    cleared = await wait_published(client, uri, after=mark)
    assert list(cleared.diagnostics) == []


async def test_utf16_positions_with_emoji_and_cjk(client: LanguageClient, tmp_path):
    await initialize(client, [tmp_path])
    src = TRAIN.replace("        " + SAVE, '        note = "🔥🔥 日本"; ' + SAVE)
    uri = write(tmp_path / "emoji.py", src).as_uri()
    open_doc(client, uri, src)
    published = await wait_published(client, uri)
    save = diag(published.diagnostics, "DLL200")
    prefix = '        note = "🔥🔥 日本"; '
    assert len(prefix) == 24  # code points
    assert save.range.start == types.Position(line=SAVE_LINE, character=26)  # UTF-16: each emoji is 2 units
    assert save.range.end.character == 26 + len(SAVE)
    # hover at a UTF-16 position inside the site finds it
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=SAVE_LINE, character=27))
    )
    assert hover is not None and "DLL200" in hover.contents.value
    # the noqa edit lands at the UTF-16 end of the line
    actions = await code_actions(client, uri, save.range, [save], only=[types.CodeActionKind.QuickFix])
    noqa = [a for a in actions if a.title == "Disable DLL200 for this line"]
    assert noqa
    new_text = apply_edits(src, edits_of(noqa[0], uri))
    assert '        note = "🔥🔥 日本"; ' + SAVE + '  # noqa: DLL200\n' in new_text


async def test_untitled_buffer(client: LanguageClient, tmp_path):
    await initialize(client, [tmp_path])
    uri = "untitled:Untitled-1"
    open_doc(client, uri, TRAIN)
    published = await wait_published(client, uri)
    assert "DLL200" in codes(published.diagnostics)
    save = diag(published.diagnostics, "DLL200")
    actions = await code_actions(client, uri, save.range, [save])
    assert any(a.title == "Disable DLL200 for this line" for a in actions)
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=save.range.start)
    )
    assert hover is not None


async def test_syntax_error_mid_edit_keeps_last_diagnostics_and_logs_once(client: LanguageClient, tmp_path):
    await initialize(client, [tmp_path], options={"debounce": 0})
    uri = write(tmp_path / "train.py", TRAIN).as_uri()
    open_doc(client, uri, TRAIN)
    good = await wait_published(client, uri, version=1)
    assert "DLL200" in codes(good.diagnostics)
    mark = len(client.published)
    logs_before = len(client.log_messages)
    broken = TRAIN.replace("optimizer.step()", "optimizer.step(")
    for v in (2, 3, 4):
        change_full(client, uri, broken + "#" * v + "\n", v)
    await wait_until(
        lambda: any("could not be parsed" in m.message for m in client.log_messages[logs_before:]),
        what="a log line about the syntax error",
    )
    await asyncio.sleep(0.5)
    parse_logs = [m for m in client.log_messages[logs_before:] if "could not be parsed" in m.message]
    assert len(parse_logs) == 1, [m.message for m in parse_logs]
    assert "train.py" in parse_logs[0].message and "keeping the last diagnostics" in parse_logs[0].message
    # nothing published while broken: the client keeps the last good diagnostics
    assert [p for p in client.published[mark:] if p.uri == uri] == []
    assert codes(client.diagnostics[uri]) == codes(good.diagnostics)
    # the server still answers requests while the document is broken
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=0))
    )
    assert hover is None
    actions = await code_actions(client, uri, types.Range(start=types.Position(line=SAVE_LINE, character=SAVE_COL), end=types.Position(line=SAVE_LINE, character=SAVE_COL)))
    assert isinstance(actions, list)
    # fixing the text publishes again
    fixed = without_save(TRAIN)
    change_full(client, uri, fixed, 5)
    again = await wait_published(client, uri, version=5)
    assert "DLL200" not in codes(again.diagnostics) and "DLL001" not in codes(again.diagnostics)


async def test_syntax_error_on_open_publishes_nothing_found(client: LanguageClient, tmp_path):
    await initialize(client, [tmp_path])
    uri = write(tmp_path / "broken.py", "def f(:\n").as_uri()
    open_doc(client, uri, "def f(:\n")
    published = await wait_published(client, uri)
    assert list(published.diagnostics) == []
    await wait_until(lambda: any("could not be parsed" in m.message for m in client.log_messages), what="log line")


# -- hover -------------------------------------------------------------------------------------------

async def test_hover_shows_rule_docs(client: LanguageClient, tmp_path):
    await initialize(client, [tmp_path])
    uri = write(tmp_path / "train.py", TRAIN).as_uri()
    open_doc(client, uri, TRAIN)
    published = await wait_published(client, uri)
    save = diag(published.diagnostics, "DLL200")
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=SAVE_LINE, character=SAVE_COL + 4))
    )
    assert hover.contents.kind == types.MarkupKind.Markdown
    assert "# DLL200 unlogged-checkpoint-save" in hover.contents.value
    assert "## Use instead" in hover.contents.value
    assert hover.range == save.range
    nothing = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=2))
    )
    assert nothing is None


# -- code actions ---------------------------------------------------------------------------------------

async def test_disable_rule_comment_added_and_merged_with_existing_noqa(client: LanguageClient, tmp_path):
    await initialize(client, [tmp_path])
    src = TRAIN.replace(SAVE, SAVE + "  # noqa: E501")
    path = write(tmp_path / "train.py", src)
    uri = path.as_uri()
    open_doc(client, uri, src)
    published = await wait_published(client, uri)
    save = diag(published.diagnostics, "DLL200")
    actions = await code_actions(client, uri, save.range, [save], only=[types.CodeActionKind.QuickFix])
    noqa = [a for a in actions if a.title == "Disable DLL200 for this line"]
    assert len(noqa) == 1 and noqa[0].kind == types.CodeActionKind.QuickFix and not noqa[0].is_preferred
    new = apply_edits(src, edits_of(noqa[0], uri))
    assert SAVE + "  # noqa: E501,DLL200\n" in new
    after = check_source(new, str(path), config_for_path(path))
    assert "DLL200" not in [f.code for f in after.findings]
    # versioned edit (client declared documentChanges)
    assert noqa[0].edit.document_changes[0].text_document.version == 1


async def test_disable_rule_comment_without_document_changes_uses_changes(client: LanguageClient, tmp_path):
    await initialize(client, [tmp_path], document_changes=False)
    uri = write(tmp_path / "train.py", TRAIN).as_uri()
    open_doc(client, uri, TRAIN)
    published = await wait_published(client, uri)
    save = diag(published.diagnostics, "DLL200")
    actions = await code_actions(client, uri, save.range, [save])
    noqa = [a for a in actions if a.title == "Disable DLL200 for this line"][0]
    assert noqa.edit.document_changes is None
    (edit,) = noqa.edit.changes[uri]
    assert edit.new_text == "  # noqa: DLL200"


async def test_context_only_filters_kinds(client: LanguageClient, tmp_path):
    await initialize(client, [tmp_path])
    uri = write(tmp_path / "train.py", TRAIN).as_uri()
    open_doc(client, uri, TRAIN)
    published = await wait_published(client, uri)
    save = diag(published.diagnostics, "DLL200")
    only_refactor = await code_actions(client, uri, save.range, [save], only=[types.CodeActionKind.Refactor])
    assert only_refactor == []
    quick = await code_actions(client, uri, save.range, [save], only=[types.CodeActionKind.QuickFix])
    assert quick and all(a.kind == types.CodeActionKind.QuickFix for a in quick)


async def test_quick_fix_preferred_and_alternatives_remove_the_finding(client: LanguageClient, tmp_path):
    require_fixes()
    await initialize(client, [tmp_path])
    path = write(tmp_path / "train.py", TRAIN)
    uri = path.as_uri()
    open_doc(client, uri, TRAIN)
    published = await wait_published(client, uri)
    save = diag(published.diagnostics, "DLL200")
    actions = await code_actions(client, uri, save.range, [save], only=[types.CodeActionKind.QuickFix])
    fixes = [a for a in actions if a.title.startswith("dllog (DLL200): ")]
    assert fixes, [a.title for a in actions]
    preferred = [a for a in fixes if a.is_preferred]
    assert len(preferred) == 1 and preferred[0] is fixes[0]
    assert preferred[0].diagnostics and preferred[0].diagnostics[0].code == "DLL200"
    for action in fixes:
        new = apply_edits(TRAIN, edits_of(action, uri))
        compile(new, "train.py", "exec")
        after = check_source(new, str(path), config_for_path(path))
        assert not [f for f in after.findings if f.code == "DLL200"], (action.title, new)


async def test_backend_setting_changes_preferred_fix(client: LanguageClient, tmp_path):
    require_fixes()
    await initialize(client, [tmp_path], options={"dllog": {"backend": "print"}})
    uri = write(tmp_path / "train.py", TRAIN).as_uri()
    open_doc(client, uri, TRAIN)
    published = await wait_published(client, uri)
    save = diag(published.diagnostics, "DLL200")
    actions = await code_actions(client, uri, save.range, [save], only=[types.CodeActionKind.QuickFix])
    preferred = [a for a in actions if a.is_preferred]
    assert preferred
    new = apply_edits(TRAIN, edits_of(preferred[0], uri))
    assert "print(" in new


async def test_fix_violation_and_disable_comment_settings(client: LanguageClient, tmp_path):
    await initialize(client, [tmp_path], options={"dllog": {"codeAction": {"fixViolation": {"enable": False}, "disableRuleComment": {"enable": False}}}})
    uri = write(tmp_path / "train.py", TRAIN).as_uri()
    open_doc(client, uri, TRAIN)
    published = await wait_published(client, uri)
    save = diag(published.diagnostics, "DLL200")
    assert await code_actions(client, uri, save.range, [save]) == []


async def test_fix_all_applies_every_safe_fix_in_one_edit(client: LanguageClient, tmp_path):
    require_fixes()
    await initialize(client, [tmp_path])
    path = write(tmp_path / "train.py", TRAIN)
    uri = path.as_uri()
    open_doc(client, uri, TRAIN)
    published = await wait_published(client, uri)
    before = codes(published.diagnostics)
    actions = await code_actions(
        client, uri, types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
        only=[types.CodeActionKind.SourceFixAll],
    )
    assert [a.kind for a in actions] == ["source.fixAll.dllog"]
    edits = edits_of(actions[0], uri)
    assert len(edits) == 1
    new = apply_edits(TRAIN, edits)
    compile(new, "train.py", "exec")
    after = check_source(new, str(path), config_for_path(path))
    assert len(after.findings) < len(before)
    assert "DLL200" not in [f.code for f in after.findings]
    # a quickfix-only request does not include fix-all
    quick = await code_actions(client, uri, published.diagnostics[0].range, only=[types.CodeActionKind.QuickFix])
    assert all(a.kind != "source.fixAll.dllog" for a in quick)


async def test_fix_all_is_resolved_lazily_when_client_supports_resolve(client: LanguageClient, tmp_path):
    require_fixes()
    await initialize(client, [tmp_path], resolve=True)
    uri = write(tmp_path / "train.py", TRAIN).as_uri()
    open_doc(client, uri, TRAIN)
    published = await wait_published(client, uri)
    save = diag(published.diagnostics, "DLL200")
    actions = await code_actions(client, uri, save.range, [save])
    fix_all = [a for a in actions if a.kind == "source.fixAll.dllog"]
    assert fix_all and fix_all[0].edit is None
    resolved = await client.code_action_resolve_async(fix_all[0])
    new = apply_edits(TRAIN, edits_of(resolved, uri))
    assert "DLL200" not in [f.code for f in check_source(new, "train.py", config_for_path(tmp_path)).findings]


# -- configuration -------------------------------------------------------------------------------------

async def test_project_config_and_reload_on_watched_file_change(client: LanguageClient, tmp_path):
    await initialize(client, [tmp_path])
    pyproject = write(tmp_path / "pyproject.toml", '[tool.dllog]\nignore = ["DLL200"]\n')
    uri = write(tmp_path / "train.py", TRAIN).as_uri()
    open_doc(client, uri, TRAIN)
    first = await wait_published(client, uri)
    assert "DLL200" not in codes(first.diagnostics) and "DLL100" in codes(first.diagnostics)
    # the project file changes: no restart, just the watched-files notification
    pyproject.write_text('[tool.dllog]\nignore = ["DLL100"]\nseverity = { DLL200 = "error" }\n', encoding="utf-8")
    mark = len(client.published)
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=pyproject.as_uri(), type=types.FileChangeType.Changed)])
    )
    second = await wait_published(client, uri, after=mark)
    assert "DLL100" not in codes(second.diagnostics)
    assert diag(second.diagnostics, "DLL200").severity == types.DiagnosticSeverity.Error
    # a .dllog.yaml created next to it wins at the same directory level
    dllog_yaml = write(tmp_path / ".dllog.yaml", "select: [DLL100]\n")
    mark = len(client.published)
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=dllog_yaml.as_uri(), type=types.FileChangeType.Created)])
    )
    third = await wait_published(client, uri, after=mark)
    assert codes(third.diagnostics) == ["DLL100"]


async def test_broken_project_config_is_reported_not_fatal(client: LanguageClient, tmp_path):
    await initialize(client, [tmp_path])
    write(tmp_path / "pyproject.toml", '[tool.dllog]\nselect = ["NOPE1"]\n')
    uri = write(tmp_path / "train.py", TRAIN).as_uri()
    open_doc(client, uri, TRAIN)
    published = await wait_published(client, uri)
    assert list(published.diagnostics) == []
    await wait_until(lambda: client.messages, what="window/showMessage")
    assert "pyproject.toml" in client.messages[0].message and "select" in client.messages[0].message
    # still alive
    assert (await stats(client))["open_documents"] == 1


async def test_client_settings_from_initialization_options_and_did_change_configuration(client: LanguageClient, tmp_path):
    await initialize(
        client, [tmp_path], configuration=False,
        options={"settings": {"ignore": ["DLL100"], "severity": {"DLL": "information", "DLL200": "error"}}},
    )
    uri = write(tmp_path / "train.py", TRAIN).as_uri()
    open_doc(client, uri, TRAIN)
    first = await wait_published(client, uri)
    assert "DLL100" not in codes(first.diagnostics)
    assert diag(first.diagnostics, "DLL200").severity == types.DiagnosticSeverity.Error
    assert diag(first.diagnostics, "DLL600").severity == types.DiagnosticSeverity.Information
    mark = len(client.published)
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"dllog": {"select": ["DLL100"], "extendSelect": []}})
    )
    second = await wait_published(client, uri, after=mark)
    assert codes(second.diagnostics) == ["DLL100"]
    # an invalid value is reported (naming the key) and ignored; the server keeps going
    mark = len(client.published)
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"dllog": {"select": "not a code", "bogusKey": 1}})
    )
    third = await wait_published(client, uri, after=mark)
    assert {"DLL100", "DLL200"} <= set(codes(third.diagnostics))
    await wait_until(lambda: any("select" in m.message for m in client.messages), what="a message naming 'select'")
    assert any("bogusKey" in m.message for m in client.messages)


async def test_settings_pulled_with_workspace_configuration(client: LanguageClient, tmp_path):
    client.set_configuration({"ignore": ["DLL2"]}, section="dllog")
    await initialize(client, [tmp_path])
    uri = write(tmp_path / "train.py", TRAIN).as_uri()
    open_doc(client, uri, TRAIN)
    await wait_until(lambda: client.diagnostics.get(uri) is not None and not any(
        str(d.code).startswith("DLL2") for d in client.diagnostics[uri]), what="pulled settings applied")
    client.set_configuration({"ignore": []}, section="dllog")
    mark = len(client.published)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    again = await wait_published(client, uri, after=mark)
    assert "DLL200" in codes(again.diagnostics)


async def test_multiple_workspace_folders_each_with_its_config_and_settings(client: LanguageClient, tmp_path):
    a, b = tmp_path / "proj_a", tmp_path / "proj_b"
    write(a / "pyproject.toml", '[tool.dllog]\nignore = ["DLL200"]\n')
    write(b / ".dllog.yaml", "ignore: [DLL100]\n")
    client.set_configuration({"severity": {"DLL": "hint"}}, section="dllog", scope_uri=b.as_uri())
    await initialize(client, [a, b])
    uri_a = write(a / "train.py", TRAIN).as_uri()
    uri_b = write(b / "train.py", TRAIN).as_uri()
    open_doc(client, uri_a, TRAIN)
    open_doc(client, uri_b, TRAIN)
    await wait_until(lambda: uri_a in client.diagnostics and uri_b in client.diagnostics, what="both folders")
    await wait_until(
        lambda: client.diagnostics[uri_b] and all(d.severity == types.DiagnosticSeverity.Hint for d in client.diagnostics[uri_b]),
        what="folder-scoped settings for proj_b",
    )
    da, db = client.diagnostics[uri_a], client.diagnostics[uri_b]
    assert "DLL200" not in codes(da) and "DLL100" in codes(da)
    assert "DLL100" not in codes(db) and "DLL200" in codes(db)
    assert all(d.severity != types.DiagnosticSeverity.Hint for d in da)
    # a folder added later works too
    c = tmp_path / "proj_c"
    write(c / ".dllog.yaml", "select: [DLL200]\n")
    client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(
            event=types.WorkspaceFoldersChangeEvent(added=[types.WorkspaceFolder(uri=c.as_uri(), name="proj_c")], removed=[])
        )
    )
    uri_c = write(c / "train.py", TRAIN).as_uri()
    open_doc(client, uri_c, TRAIN)
    published = await wait_published(client, uri_c)
    assert codes(published.diagnostics) == ["DLL200"]


async def test_incremental_changes_apply_and_lint(client: LanguageClient, tmp_path):
    await initialize(client, [tmp_path], options={"debounce": 0})
    uri = write(tmp_path / "train.py", TRAIN).as_uri()
    open_doc(client, uri, TRAIN)
    await wait_published(client, uri, version=1)
    # insert a logging call right after the save line
    change_range(client, uri, 2, (SAVE_LINE + 1, 0), (SAVE_LINE + 1, 0), '        print("saved", ckpt_path)\n')
    published = await wait_published(client, uri, version=2)
    assert "DLL200" not in codes(published.diagnostics)


# -- entry points --------------------------------------------------------------------------------------

@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "flake8_dllog.cli", "lsp"],
                                              client_factory=make_client))
async def cli_client(lsp_client: LanguageClient):
    yield
    try:
        await lsp_client.shutdown_session()
    except Exception:
        pass


async def test_dllog_lsp_command_serves_stdio(cli_client: LanguageClient, tmp_path):
    result = await initialize(cli_client, [tmp_path])
    assert result.server_info.name == "dllog"
    uri = write(tmp_path / "train.py", TRAIN).as_uri()
    open_doc(cli_client, uri, TRAIN)
    published = await wait_published(cli_client, uri)
    assert "DLL200" in codes(published.diagnostics)


def test_dllog_lsp_tcp(tmp_path):
    """`dllog lsp --tcp HOST:PORT` answers initialize on a socket."""
    import json
    import socket
    import subprocess
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "flake8_dllog.cli", "lsp", "--tcp", f"127.0.0.1:{port}"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=5)
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise AssertionError(f"server did not listen: {proc.stderr.read() if proc.poll() is not None else ''}")
                time.sleep(0.1)
        with sock:
            body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                               "params": {"processId": None, "rootUri": None, "capabilities": {}}}).encode()
            sock.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            data = b""
            sock.settimeout(30)
            while b'"serverInfo"' not in data:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        assert b'"name": "dllog"' in data or b'"name":"dllog"' in data, data[:500]
    finally:
        proc.kill()
        proc.wait(10)


async def test_non_python_documents_are_not_linted(client: LanguageClient, tmp_path):
    await initialize(client, [tmp_path])
    md = write(tmp_path / "README.md", "# notes\n\ntorch.save(model, path)\n").as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=md, language_id="markdown", version=1, text="# notes\n\ntorch.save(model, path)\n")))
    uri = write(tmp_path / "train.py", TRAIN).as_uri()
    open_doc(client, uri, TRAIN)
    await wait_published(client, uri)
    assert md not in client.diagnostics
    assert not any("could not be parsed" in m.message for m in client.log_messages)


async def test_negotiated_utf8_positions(client: LanguageClient, tmp_path):
    result = await initialize(client, [tmp_path], encodings=[types.PositionEncodingKind.Utf8])
    assert result.capabilities.position_encoding == types.PositionEncodingKind.Utf8
    src = TRAIN.replace("        " + SAVE, '        note = "🔥🔥 日本"; ' + SAVE)
    uri = write(tmp_path / "emoji.py", src).as_uri()
    open_doc(client, uri, src)
    published = await wait_published(client, uri)
    save = diag(published.diagnostics, "DLL200")
    prefix = '        note = "🔥🔥 日本"; '
    assert save.range.start == types.Position(line=SAVE_LINE, character=len(prefix.encode("utf-8")))
