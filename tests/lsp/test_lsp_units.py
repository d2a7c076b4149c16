"""Pure pieces of the language server: settings mapping, position conversion, noqa edits,
whole-text diffs, ``context.only`` matching."""
from __future__ import annotations

import pytest
from lsprotocol import types

from flake8_dllog.catalog import load_catalog
from flake8_dllog.config import Config
from lsp_server.actions import kind_allowed, noqa_edit, whole_text_edit
from lsp_server.positions import Codec, split_lines
from lsp_server.settings import ClientSettings, parse_settings


def test_settings_shapes_are_unwrapped():
    for raw in ({"select": ["DLL2"]}, {"dllog": {"select": ["DLL2"]}}, {"settings": {"select": ["DLL2"]}},
                {"settings": {"dllog": {"select": ["DLL2"]}}}):
        assert parse_settings(raw).select == ("DLL2",)
    assert parse_settings(None) == ClientSettings()


def test_settings_mapping_and_not_set_spellings():
    s = parse_settings({
        "select": [], "extendSelect": ["dll102"], "ignore": ["DLL5"], "backend": "auto",
        "severity": {"DLL2": "Warn", "DLL200": "error"}, "run": "onSave", "debounce": 40,
        "codeAction": {"fixViolation": {"enable": False}}, "codeAction.disableRuleComment.enable": False,
        "interpreter": "/usr/bin/python3", "showNotifications": "off",
    })
    assert s.problems == ()
    assert s.select is None and s.extend_select == ("DLL102",) and s.ignore == ("DLL5",) and s.backend is None
    assert s.severity == (("DLL2", "warning"), ("DLL200", "error"))
    assert (s.run, s.debounce_ms, s.fix_violation, s.disable_rule_comment) == ("onSave", 40, False, False)


def test_settings_problems_name_the_key_and_keep_the_rest():
    s = parse_settings({"select": ["NOPE"], "ignore": ["DLL100"], "run": "sometimes", "bogus": 1, "backend": "tensorflow"})
    text = "\n".join(s.problems)
    assert "'select'" in text and "'run'" in text and "'bogus'" in text and "'backend'" in text
    assert s.ignore == ("DLL100",) and s.select is None and s.run == "onType"
    assert parse_settings([1, 2]).problems


def test_settings_apply_on_top_of_project_config():
    project = Config(select=("DLL1", "DLL2"), ignore=("DLL201",), severity=(("DLL2", "hint"),), backend="loguru")
    merged = parse_settings({"ignore": ["DLL100"], "severity": {"DLL2": "error"}, "extendSelect": ["DLL102"]}).apply(project)
    assert merged.select == ("DLL1", "DLL2")
    assert merged.ignore == ("DLL201", "DLL100")
    assert merged.extend_select == ("DLL102",)
    assert merged.severity_for("DLL200") == "error"  # the client's entry wins for the same prefix
    assert merged.backend == "loguru"
    enabled = merged.enabled_codes("train.py")
    assert "DLL100" not in enabled and "DLL201" not in enabled and "DLL102" in enabled
    assert parse_settings({"backend": "print"}).apply(project).backend == "print"


@pytest.mark.parametrize("encoding,expected", [("utf-16", 6), ("utf-8", 9), ("utf-32", 5)])
def test_codec_columns(encoding, expected):
    codec = Codec('x="😋é"\n', encoding)  # the closing quote after an astral char and a BMP char
    assert codec.to_client(0, 5).character == expected
    assert codec.from_client(types.Position(line=0, character=expected)) == (0, 5)


def test_codec_cjk_crlf_clamping_and_line_splitting():
    text = "a = 1\r\nb = '日本語'\rc = 3\n"
    assert split_lines(text) == ["a = 1", "b = '日本語'", "c = 3", ""]
    codec = Codec(text)
    assert codec.to_client(1, 9).character == 9  # CJK is one UTF-16 unit each
    assert codec.to_client(99, 0) == types.Position(line=3, character=0)
    assert codec.from_client(types.Position(line=1, character=999)) == (1, 9)
    assert codec.from_client(types.Position(line=99, character=0)) == (3, 0)
    # a form feed is not a line break for LSP or for Python's tokenizer
    assert split_lines("a\x0cb\nc") == ["a\x0cb", "c"]


def test_noqa_edit_added_merged_or_refused():
    assert noqa_edit("torch.save(m, p)", "DLL200") == (16, 16, "  # noqa: DLL200")
    assert noqa_edit("torch.save(m, p)   ", "DLL200") == (16, 19, "  # noqa: DLL200")
    line = "torch.save(m, p)  # noqa: E501"
    start, end, new = noqa_edit(line, "DLL200")
    assert line[:start] + new + line[end:] == "torch.save(m, p)  # noqa: E501,DLL200"
    assert noqa_edit("torch.save(m, p)  # noqa", "DLL200") is None  # already silenced
    assert noqa_edit("torch.save(m, p)  # noqa: DLL2", "DLL200") is None
    assert noqa_edit("x = a + \\", "DLL200") is None  # a comment cannot follow a continuation
    line = "torch.save(m, p)  # keep: the path is logged elsewhere"
    start, end, new = noqa_edit(line, "DLL200")
    assert (line[:start] + new + line[end:]).endswith("elsewhere  # noqa: DLL200")


def test_whole_text_edit_spans_only_changed_lines():
    old = "a\nb\nc\nd\n"
    new = "a\nb\nlog(b)\nc\nd\n"
    assert whole_text_edit(old, new) == (2, 0, 2, 0, "log(b)\n")
    assert whole_text_edit(old, old) is None
    l0, c0, l1, c1, text = whole_text_edit("x\r\ny\r\n", "x\r\nz\r\n")
    assert (l0, c0, l1, c1, text) == (1, 0, 2, 0, "z\r\n")


def test_kind_allowed_follows_lsp_hierarchy():
    assert kind_allowed("source.fixAll.dllog", None)
    assert kind_allowed("source.fixAll.dllog", ["source"])
    assert kind_allowed("source.fixAll.dllog", ["source.fixAll"])
    assert not kind_allowed("source.fixAll.dllog", ["quickfix"])
    assert kind_allowed("quickfix", ["quickfix"])
    assert not kind_allowed("quickfix", ["source.fixAll", "refactor"])
    assert not kind_allowed("source.fixAllX", ["source.fixAll"])


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8", "utf-32"])
def test_codec_json_positions_match_lsprotocol_positions(encoding):
    text = 'x = "😋é 中文"\r\n\ty = 1\rlast'
    codec = Codec(text, encoding)
    for line0 in range(-1, 5):
        for column in range(-1, 16):
            want = codec.to_client(line0, column)
            assert codec.position_json(line0, column) == {"line": want.line, "character": want.character}


def test_diagnostics_json_is_what_lsprotocol_would_send():
    """The publish hot path builds the JSON itself; it must be exactly what the typed
    lsprotocol objects serialise to (non-ASCII columns, optional fields left out)."""
    from flake8_dllog.engine import check_source
    from lsp_server.server import DllogLanguageServer

    text = (
        '"""Training 🚀 — 训练脚本."""\nimport torch\n\n\ndef train(model, loader, opt):\n'
        '    for x, y in loader:\n        loss = model(x, y)  # 损失\n        loss.backward()\n'
        '        opt.step()\n    torch.save(model.state_dict(), "ckpt_😋.pt" + str(1))\n'
    )
    findings = check_source(text, "train.py", Config()).findings
    assert findings and any(not line.isascii() for line in text.splitlines())
    server = DllogLanguageServer()
    built = server.diagnostics_json(findings, text, 7)
    codec, rules = Codec(text), load_catalog().rules
    typed = [
        types.Diagnostic(
            range=codec.range_to_client(f.line - 1, f.column, f.end_line - 1, f.end_column),
            message=f.message,
            severity=types.DiagnosticSeverity.Warning,
            code=f.code,
            code_description=types.CodeDescription(href=rules[f.code].docs_url),
            source="dllog",
            data={"version": 7, "fixable": f.fixable, "finding": {
                "code": f.code, "message": f.message, "line": f.line, "column": f.column,
                "end_line": f.end_line, "end_column": f.end_column, "severity": f.severity,
                "fixable": f.fixable, "context": f.context,
            }},
        )
        for f in findings
    ]
    unstructure = server.protocol._converter.unstructure
    assert built == [unstructure(d) for d in typed]
    assert server.to_diagnostics(findings, text, 7) == typed
    assert all(d["codeDescription"]["href"] and d["source"] == "dllog" for d in built)
