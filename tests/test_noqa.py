"""`# noqa` in `dllog check` behaves exactly as in flake8.

Each case is compared with flake8 itself, run as a real subprocess with the DLL plugin on
the same file: flake8 decides for its face, the engine for the CLI, and they must agree
line for line. The fixed expectations below pin flake8's behaviour too, so a change in
either shows up as a readable failure.
"""
from __future__ import annotations

import pytest

from cli_helpers import dllog, finding_keys, flake8
from flake8_dllog.engine import check_source

# (comment after the loop header, silenced by flake8?)
VARIANTS = [
    ("", False),
    ("  # noqa", True),
    ("  # NoQA", True),
    ("  # noqa: DLL100", True),
    ("  # noqa:DLL100", True),
    ("  # noqa:DLL1", True),  # a prefix silences every code it starts
    ("  # noqa:DLL", True),
    ("  # NOQA: DLL100", True),
    ("  # noqa: DLL100,DLL200", True),
    ("  # noqa: E501,DLL100", True),
    ("  # noqa: DLL100 DLL200 (reviewed)", True),
    ("  # type: ignore  # noqa: DLL10", True),
    ("  # noqa: DLL200", False),  # another code
    ("  # noqa: E501", False),
    ("  # noqa: dll100", False),  # codes are case-sensitive in flake8
    ("  #noqa", False),  # flake8 needs '# noqa'
    ("  #noqa: DLL100", False),
    ("  # noqa : DLL100", True),  # not a code list: a bare noqa followed by text
    ("  # noqa:  DLL100", True),  # two spaces: the code list does not parse, bare noqa
    ("  # noqa: E501 # noqa: DLL100", False),  # only the first noqa counts
    ("  # noqa:DLL101", False),
]


def loop(name: str, comment: str) -> str:
    return (
        f"def {name}(model, loader, optimizer):\n"
        f"    for x, y in loader:{comment}\n"
        "        loss = model(x, y)\n"
        "        loss.backward()\n"
        "        optimizer.step()\n\n\n"
    )


MULTILINE = (
    # The loop header holds a string that spans lines: flake8 searches all its lines.
    "def multi_line_string(model, optimizer):\n"
    "    for x in batches(f'''{model}\n"
    "/data'''):  # noqa: DLL100\n"
    "        model(x).backward()\n"
    "        optimizer.step()\n\n\n"
    # A backslash continuation: one token range for flake8 too.
    "def continued(model, loader, optimizer):\n"
    "    for x, y in \\\n"
    "            loader:  # noqa\n"
    "        model(x, y).backward()\n"
    "        optimizer.step()\n\n\n"
    # A parenthesised continuation is *not* joined: the noqa must be on the header line.
    "def parenthesised(model, loader, optimizer):\n"
    "    for x, y in zip(\n"
    "        loader, loader):  # noqa\n"
    "        model(x, y).backward()\n"
    "        optimizer.step()\n"
)


def build_source() -> tuple[str, dict[int, bool]]:
    parts = ["import torch\n\n\n"]
    expected: dict[int, bool] = {}
    line = 4
    for i, (comment, silenced) in enumerate(VARIANTS):
        parts.append(loop(f"fit_{i}", comment))
        expected[line + 1] = silenced
        line += 7
    parts.append(MULTILINE)
    expected[line + 1] = True
    expected[line + 8] = True
    expected[line + 15] = False
    return "".join(parts), expected


def test_noqa_variants_match_flake8(tmp_path):
    source, expected = build_source()
    (tmp_path / "variants.py").write_text(source, encoding="utf-8")
    ours = dllog("check", "--select", "DLL100", "variants.py", cwd=tmp_path)
    theirs = flake8("--select", "DLL100", "variants.py", cwd=tmp_path)
    assert theirs.returncode in (0, 1), theirs.stderr
    assert finding_keys(ours.stdout) == finding_keys(theirs.stdout)
    reported = {key[1] for key in finding_keys(theirs.stdout)}
    # Every loop is a finding without noqa...
    raw = check_source(source, "variants.py", noqa=False, codes=frozenset({"DLL100"}))
    assert {f.line for f in raw.findings} == set(expected), "fixture drifted from the DLL100 detector"
    # ...and flake8 silenced exactly the ones this table says.
    assert {line for line, silenced in expected.items() if not silenced} == reported


@pytest.mark.parametrize(
    "header,silenced",
    [
        ("# flake8: noqa\n", True),
        ("# flake8: NOQA\n", True),
        ("# flake8=noqa\n", True),
        ("   # flake8: noqa\n", True),
        ("# flake8: noqa: E501\n", True),  # flake8 ignores the whole file here too
        ("x = 1  # flake8: noqa\n", False),  # on a line with code: not file-level
        ("#flake8: noqa\n", False),
        ("# flake8 noqa\n", False),
    ],
)
def test_file_level_noqa_matches_flake8(tmp_path, header, silenced):
    source = "import torch\n" + header + "\n\n" + loop("fit", "")
    (tmp_path / "t.py").write_text(source, encoding="utf-8")
    ours = dllog("check", "--select", "DLL100", "t.py", cwd=tmp_path)
    theirs = flake8("--select", "DLL100", "t.py", cwd=tmp_path)
    assert finding_keys(ours.stdout) == finding_keys(theirs.stdout)
    assert (finding_keys(ours.stdout) == []) is silenced
    assert ours.returncode == (0 if silenced else 1)


def test_dllog_file_level_noqa(tmp_path):
    # dllog's own spelling, for files flake8 should still check.
    (tmp_path / "t.py").write_text("# dllog: noqa\n" + loop("fit", ""), encoding="utf-8")
    r = dllog("check", "t.py", cwd=tmp_path)
    assert (r.returncode, r.stdout) == (0, "")


def test_noqa_applies_to_the_reported_line_only(tmp_path):
    # A noqa in the loop body does not silence the finding on the loop header.
    src = (
        "import torch\n\n\n"
        "def fit(model, loader, optimizer):\n"
        "    for x, y in loader:\n"
        "        loss = model(x, y)  # noqa\n"
        "        loss.backward()  # noqa: DLL100\n"
        "        optimizer.step()\n"
    )
    (tmp_path / "t.py").write_text(src, encoding="utf-8")
    ours = dllog("check", "--select", "DLL100", "t.py", cwd=tmp_path)
    theirs = flake8("--select", "DLL100", "t.py", cwd=tmp_path)
    assert finding_keys(ours.stdout) == finding_keys(theirs.stdout) == [("t.py", 5, 5, "DLL100")]

