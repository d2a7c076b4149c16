"""`dllog fix` as a subprocess: diff mode, atomic writes, refusals, exit codes, encodings."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TIMEOUT = 120

TRAIN = """\
import argparse
import torch


def main():
    args = argparse.ArgumentParser().parse_args()
    for epoch in range(args.epochs):
        for step, (x, y) in enumerate(loader):
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
    torch.save(model.state_dict(), args.out)


if __name__ == "__main__":
    main()
"""

CLEAN = "def add(a, b):\n    return a + b\n"


def dllog(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "flake8_dllog.cli", *args], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT
    )


def test_diff_prints_and_writes_nothing(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(TRAIN)
    before = script.stat()
    proc = dllog("fix", "--diff", "train.py", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith("--- a/train.py\n+++ b/train.py\n")
    assert "+import logging\n" in proc.stdout and '+        logger.info("saved checkpoint to %s", args.out)\n' not in proc.stdout
    assert '+    logger.info("saved checkpoint to %s", args.out)\n' in proc.stdout
    assert script.read_text() == TRAIN and script.stat().st_mtime_ns == before.st_mtime_ns
    assert "would fix" in proc.stderr


def test_fix_writes_atomically_keeps_mode_and_reports(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(TRAIN)
    os.chmod(script, 0o750)
    proc = dllog("fix", ".", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "train.py: fixed" in proc.stdout and "DLL100" in proc.stdout
    assert (script.stat().st_mode & 0o777) == 0o750
    assert sorted(p.name for p in tmp_path.iterdir()) == ["train.py"]  # no temporary file left
    fixed = script.read_text()
    assert fixed != TRAIN
    # idempotent: nothing left, nothing rewritten
    mtime = script.stat().st_mtime_ns
    again = dllog("fix", "train.py", cwd=tmp_path)
    assert again.returncode == 0 and again.stdout == ""
    assert script.stat().st_mtime_ns == mtime
    assert dllog("check", "train.py", cwd=tmp_path).returncode == 0


def test_only_the_files_asked_for_are_written(tmp_path):
    (tmp_path / "a.py").write_text(TRAIN)
    (tmp_path / "b.py").write_text(TRAIN)
    (tmp_path / "clean.py").write_text(CLEAN)
    stamps = {p: p.stat().st_mtime_ns for p in tmp_path.iterdir()}
    proc = dllog("fix", "a.py", "clean.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "a.py").read_text() != TRAIN
    assert (tmp_path / "b.py").read_text() == TRAIN and (tmp_path / "b.py").stat().st_mtime_ns == stamps[tmp_path / "b.py"]
    assert (tmp_path / "clean.py").stat().st_mtime_ns == stamps[tmp_path / "clean.py"]


def test_refuses_unparsable_files_and_goes_on(tmp_path):
    (tmp_path / "broken.py").write_text("def f(:\n    pass\n")
    (tmp_path / "nul.py").write_bytes(b"x = 1\x00\n")
    (tmp_path / "train.py").write_text(TRAIN)
    proc = dllog("fix", ".", cwd=tmp_path)
    assert proc.returncode == 1
    assert "broken.py: refusing to fix: file could not be parsed" in proc.stderr
    assert "nul.py: refusing to fix" in proc.stderr
    assert (tmp_path / "broken.py").read_text() == "def f(:\n    pass\n"
    assert (tmp_path / "nul.py").read_bytes() == b"x = 1\x00\n"
    assert (tmp_path / "train.py").read_text() != TRAIN


def test_select_fixes_only_those_rules_and_exit_reflects_the_rest(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(TRAIN)
    proc = dllog("fix", "--select", "DLL200", "train.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = script.read_text()
    assert "saved checkpoint" in text and "loss.item()" not in text and "manual_seed" not in text
    # Without --select the remaining default rules are still there: check says so.
    assert dllog("check", "train.py", cwd=tmp_path).returncode == 1


def test_findings_left_unfixed_exit_one(tmp_path):
    # The loss is never bound to a name: no honest fix exists for the loop.
    (tmp_path / "train.py").write_text("for x, y in loader:\n    criterion(model(x), y).backward()\n    optimizer.step()\n")
    proc = dllog("fix", "--select", "DLL100", "train.py", cwd=tmp_path)
    assert proc.returncode == 1
    assert "DLL100" in proc.stdout and "(not fixed)" in proc.stdout


def test_backend_option(tmp_path):
    (tmp_path / "train.py").write_text(TRAIN)
    proc = dllog("fix", "--backend", "print", "--select", "DLL100,DLL200", "train.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    text = (tmp_path / "train.py").read_text()
    assert 'print("saved checkpoint to", args.out)' in text and "import logging" not in text


def test_encodings_line_endings_and_links_are_kept(tmp_path):
    body = TRAIN.replace("import argparse\n", "# -*- coding: latin-1 -*-\n# donn\xe9es d'entra\xeenement\nimport argparse\n", 1)
    latin = tmp_path / "latin.py"
    latin.write_bytes(body.replace("\n", "\r\n").encode("latin-1"))
    bom = tmp_path / "bom.py"
    bom.write_bytes(b"\xef\xbb\xbf" + TRAIN.replace("import argparse\n", "# \xc3\xa9t\xc3\xa9 \xe2\x9c\x93\nimport argparse\n".encode("latin-1").decode("utf-8"), 1).encode("utf-8"))
    real = tmp_path / "real"
    real.mkdir()
    target = real / "linked.py"
    target.write_text(TRAIN)
    link = tmp_path / "link.py"
    link.symlink_to(target)
    proc = dllog("fix", "latin.py", "bom.py", "link.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr

    data = latin.read_bytes()
    assert b"# donn\xe9es d'entra\xeenement\r\n" in data  # still latin-1
    assert data.count(b"\r\n") == data.count(b"\n")  # every line CRLF, inserted ones too
    assert b"logger.info(" in data

    data = bom.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf# \xc3\xa9t\xc3\xa9 \xe2\x9c\x93\n") and data.count(b"\xef\xbb\xbf") == 1

    assert link.is_symlink() and "logger.info(" in target.read_text()
