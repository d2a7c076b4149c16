"""Lines end where Python's tokenizer ends them: ``\\r\\n``, ``\\r``, ``\\n`` — nowhere else.

``str.splitlines()`` also breaks at ``\\x0b``, ``\\x0c`` (a form feed, the old page break),
``\\x1c``-``\\x1e``, ``\\x85``, U+2028 and U+2029. A file holding one of those must give the
same findings (lines, columns, ends, fix context, ``# noqa``) as the same file with each of
them replaced by a space, through every face: the engine, ``dllog check``, ``flake8``, the report.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cli_helpers import dllog, flake8
from flake8_dllog.engine import check_source, split_source_lines
from flake8_dllog.report import analyze_file, source_lines
from flake8_dllog.config import Config

ODD = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"

# A form feed on its own line and one inside a comment, U+2028 inside a string literal, then
# code with findings: an unlogged training loop (DLL100) and an unlogged checkpoint save (DLL200).
TRAIN = (
    "import os\n"
    "import torch\n"
    "\x0c\n"
    "# section two \x0c page break inside a comment\n"
    "BANNER = 'a\u2028b'  # \x85 \u2029 \x0b \x1c\x1d\x1e\n"
    "\n"
    "\n"
    "def fit(model, loader, optimizer, args):\n"
    "    for epoch in range(args.epochs):\n"
    "        for x, y in loader:\n"
    "            loss = model(x, y)\n"
    "            loss.backward()\n"
    "            optimizer.step()\n"
    "        ckpt_path = os.path.join(args.out_dir, f\"epoch_{epoch}.pt\")\n"
    "        torch.save({\"model\": model.state_dict(), \"epoch\": epoch}, ckpt_path)SUFFIX\n"
    "\n"
    "\n"
    "if __name__ == \"__main__\":\n"
    "    fit(build_model(), make_loader(), make_optimizer(), parse_args())\n"
)
SAVE_LINE = 15


def plain(text: str) -> str:
    """The same file with every odd line-break character replaced by a space (same columns)."""
    return text.translate({ord(c): " " for c in ODD})


def variants(suffix: str = "") -> tuple[str, str]:
    odd = TRAIN.replace("SUFFIX", suffix)
    return odd, plain(odd)


def write(tmp_path: Path, name: str, text: str, newline: str = "\n") -> Path:
    p = tmp_path / name
    p.write_bytes(text.replace("\n", newline).encode("utf-8"))
    return p


def keys(findings) -> list[tuple]:
    return [(f.code, f.line, f.column, f.end_line, f.end_column, f.message, json.dumps(f.context, sort_keys=True, default=str)) for f in findings]


def json_findings(stdout: str) -> list[tuple]:
    return sorted(
        (Path(f["path"]).name, f["line"], f["column"], f["end_line"], f["end_column"], f["code"], f["message"])
        for f in json.loads(stdout)
    )


def text_findings(stdout: str) -> list[tuple]:
    # Split at "\n" only: a message may quote source text.
    out = []
    for line in stdout.split("\n"):
        if line.strip():
            path, lineno, col, rest = line.split(":", 3)
            out.append((Path(path).name, int(lineno), int(col), rest.strip()))
    return sorted(out)


def renamed(rows: list[tuple], name: str) -> list[tuple]:
    return sorted((name,) + tuple(r[1:]) for r in rows)


# -- the splitter ------------------------------------------------------------------------

@pytest.mark.parametrize(
    "text",
    [
        "", "\n", "a", "a\n", "a\nb", "a\n\n", "\n\n", "a\r\nb\r\n", "a\rb\r", "a\r\n\r\nb", "a\r\r\n",
        "x\x0cy\n", "\x0c\n", "a\u2028b\nc", "a\x85\rb", "\x0b\x1c\x1d\x1e\u2029\r\n", "a\r\n\x0c",
        "é\x0c\nü\u2028\r\n",
    ],
)
def test_split_source_lines_matches_the_tokenizer(text):
    expected = re.split(r"\r\n|\r|\n", text)
    if expected[-1] == "":  # like str.splitlines(): no empty line after a final newline
        expected.pop()
    assert split_source_lines(text) == expected
    if not any(c in text for c in ODD):
        assert split_source_lines(text) == text.splitlines()


# -- the engine --------------------------------------------------------------------------

@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_engine_findings_and_context_ignore_odd_characters(newline):
    odd, same = variants()
    odd, same = odd.replace("\n", newline), same.replace("\n", newline)
    ours = check_source(odd, "train.py", Config())
    expected = check_source(same, "train.py", Config())
    assert ours.error is None
    codes = {(f.code, f.line) for f in expected.findings}
    assert {("DLL100", 9), ("DLL200", SAVE_LINE)} <= codes, codes
    assert keys(ours.findings) == keys(expected.findings)
    dll200 = next(f for f in ours.findings if f.code == "DLL200")
    assert dll200.context["path"] == "ckpt_path"
    assert (dll200.column, dll200.end_column) == (8, len("        torch.save({\"model\": model.state_dict(), \"epoch\": epoch}, ckpt_path)"))


def test_engine_honours_noqa_after_odd_characters():
    for suffix in ("  # noqa: DLL200", "\x0c  # noqa: DLL200", "  # noqa:\x0cDLL200"):
        odd, same = variants(suffix)
        ours = check_source(odd, "train.py", Config())
        assert "DLL200" not in {f.code for f in ours.findings}, suffix
        assert keys(ours.findings) == keys(check_source(same, "train.py", Config()).findings)
    # The noqa of another line silences nothing here.
    odd, _ = variants()
    odd = odd.replace("BANNER = ", "# noqa: DLL200\nBANNER = ")
    assert "DLL200" in {f.code for f in check_source(odd, "train.py", Config()).findings}


# -- the faces, as subprocesses ----------------------------------------------------------

@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_dllog_and_flake8_agree_with_the_plain_file(tmp_path, newline):
    odd, same = variants()
    write(tmp_path, "odd.py", odd, newline)
    write(tmp_path, "plain.py", same, newline)

    ours = dllog("check", "--format", "json", "odd.py", "plain.py", cwd=tmp_path)
    assert ours.returncode == 1, ours.stderr
    rows = json_findings(ours.stdout)
    odd_rows = [r for r in rows if r[0] == "odd.py"]
    plain_rows = [r for r in rows if r[0] == "plain.py"]
    assert {(r[5], r[1]) for r in plain_rows} >= {("DLL100", 9), ("DLL200", SAVE_LINE)}, plain_rows
    assert renamed(odd_rows, "x") == renamed(plain_rows, "x")

    text = dllog("check", "odd.py", "plain.py", cwd=tmp_path)
    theirs = flake8("--select", "DLL", "odd.py", "plain.py", cwd=tmp_path)
    assert theirs.returncode == 1, (theirs.stdout, theirs.stderr)
    flake8_rows = text_findings(theirs.stdout)
    assert flake8_rows == text_findings(text.stdout)
    assert renamed([r for r in flake8_rows if r[0] == "odd.py"], "x") == renamed([r for r in flake8_rows if r[0] == "plain.py"], "x")


def test_noqa_after_odd_characters_in_both_faces(tmp_path):
    names = []
    for i, suffix in enumerate(("", "  # noqa: DLL200", "\x0c  # noqa: DLL200", "  # noqa:\x0cDLL200")):
        odd, _ = variants(suffix)
        names.append(write(tmp_path, f"odd{i}.py", odd).name)
    ours = dllog("check", *names, cwd=tmp_path)
    theirs = flake8("--select", "DLL", *names, cwd=tmp_path)
    for run in (ours, theirs):
        rows = text_findings(run.stdout)
        dll200 = sorted((r[0], r[1]) for r in rows if r[3].startswith("DLL200"))
        assert dll200 == [("odd0.py", SAVE_LINE)], (run.stdout, run.stderr)
        assert {r[0] for r in rows} == set(names), rows  # the other findings stay
    assert text_findings(ours.stdout) == text_findings(theirs.stdout)


# -- the report --------------------------------------------------------------------------

def test_report_analysis_ignores_odd_characters(tmp_path):
    odd, same = variants()
    a = analyze_file(str(write(tmp_path, "odd.py", odd)), Config())
    b = analyze_file(str(write(tmp_path, "plain.py", same)), Config())
    assert a["error"] is None and a["findings"], a
    a.pop("path"), b.pop("path")
    assert a == b
    assert source_lines("x = 1  # a\x0cb\n\x0c\n") == source_lines("x = 1  # a b\n \n") == 1


# -- dllog fix ---------------------------------------------------------------------------

def test_fix_source_ignores_odd_characters():
    from flake8_dllog.fixes import fix_source

    odd, same = variants()
    a, b = fix_source(odd, "train.py", Config()), fix_source(same, "train.py", Config())
    assert b.fixed and "saved checkpoint" in b.source
    assert keys(a.fixed) == keys(b.fixed)
    assert keys(a.remaining) == keys(b.remaining)
    assert plain(a.source) == b.source
