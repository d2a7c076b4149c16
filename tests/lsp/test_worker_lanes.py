"""The two analysis workers split the rules between them (lsp_server.worker lanes): together
they must report exactly what one full check reports, on every example and on a dense
generated script, across edits (each lane keeps its own incremental parse state)."""
from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

import pytest

from flake8_dllog.config import Config
from flake8_dllog.engine import check_source
from flake8_dllog.findings import Finding
from lsp_server import worker

from lsp_helpers import generate_training_script

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").rglob("*.py"))
CONFIG = Config(check_tests=True, extend_select=("DLL102", "DLL502", "DLL601"))


def _key(findings: list[Finding]) -> list[tuple]:
    return [(f.code, f.line, f.column, f.end_line, f.end_column, f.message, sorted(f.context.items())) for f in findings]


# Each lane is its own process with its own documents' parse state: one dict per lane here.
_LANE_DOCUMENTS = (OrderedDict(), OrderedDict())


def _both_lanes(text: str, path: str, monkeypatch) -> list[Finding]:
    parts = []
    for lane in (0, 1):
        monkeypatch.setattr(worker, "_DOCUMENTS", _LANE_DOCUMENTS[lane])
        parts.append(worker.check(text, path, CONFIG, lane))
    (first, error), (second, _) = parts
    return first if error else sorted(first + second, key=Finding.sort_key)


def test_lanes_share_out_every_code_once():
    codes = CONFIG.enabled_codes("train.py")
    lanes = [worker.lane_codes(CONFIG, "train.py", lane) for lane in (0, 1)]
    assert lanes[0] | lanes[1] == codes and not lanes[0] & lanes[1] and all(lanes)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_two_lanes_report_what_one_check_reports(path, monkeypatch):
    text = path.read_text(encoding="utf-8")
    assert _key(_both_lanes(text, str(path), monkeypatch)) == _key(check_source(text, str(path), CONFIG).findings)


def test_two_lanes_across_edits_of_a_dense_script(tmp_path, monkeypatch):
    text = generate_training_script(600)
    path = str(tmp_path / "generated_train.py")
    lines = text.split("\n")
    for i in range(6):
        at = len(lines) // 2 + i
        lines = lines[:at] + [lines[at] + f"  # edit {i}"] + lines[at + 1:] if i % 2 else lines[:at] + ["x_%d = %d" % (i, i)] + lines[at:]
        edited = "\n".join(lines)
        want = check_source(edited, path, CONFIG).findings
        assert want
        assert _key(_both_lanes(edited, path, monkeypatch)) == _key(want)
