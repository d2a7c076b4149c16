"""A real editor: headless Debian Neovim opens a training script copied from examples/, gets
dllog diagnostics from the server, applies the quick fix with its own code-action handler
and writes the file; `dllog check` then no longer reports that finding.

Neovim comes from .ci/install-lsp.sh (apt-get install neovim); without it this test FAILS.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from flake8_dllog.config import config_for_path
from flake8_dllog.engine import check_file

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
EXAMPLES = REPO / "examples"
FIXTURE = HERE / "fixtures" / "train_checkpoint.py"
PREFERRED_CODES = ("DLL200", "DLL100", "DLL600", "DLL400")

pytestmark = pytest.mark.timeout(240)


def pick_example() -> tuple[Path, str]:
    """A file from examples/ with a fixable finding, preferring an unlogged torch.save
    (DLL200); the bundled fixture only while examples/ has none."""
    candidates: list[tuple[int, Path, str]] = []
    for path in sorted(EXAMPLES.rglob("*.py")) if EXAMPLES.is_dir() else []:
        if "tests" in path.relative_to(EXAMPLES).parts:
            continue
        result = check_file(path, config_for_path(path))
        for f in result.findings:
            if f.code in PREFERRED_CODES and f.fixable:
                candidates.append((PREFERRED_CODES.index(f.code), path, f.code))
    if candidates:
        _, path, code = min(candidates, key=lambda c: (c[0], str(c[1])))
        return path, code
    return FIXTURE, "DLL200"


def dllog_check(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "flake8_dllog.cli", "check", "--format", "text", "--exit-zero", str(path)],
        capture_output=True, text=True, timeout=120, cwd=path.parent,
    )


def test_neovim_applies_quick_fix_and_dllog_check_agrees(tmp_path):
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.fail("Neovim (nvim) is not installed: run .ci/install-lsp.sh (apt-get install neovim)")
    source, code = pick_example()
    print(f"editing a copy of {source.relative_to(REPO)}, fixing {code}")
    work = tmp_path / "work"
    work.mkdir()
    target = work / source.name
    shutil.copyfile(source, target)
    # keep the configuration the example is checked with (e.g. examples/.dllog.yaml)
    if source.is_relative_to(EXAMPLES):
        for name in (".dllog.yaml", "pyproject.toml"):
            for d in (source.parent, EXAMPLES):
                if (d / name).is_file() and not (work / name).exists():
                    shutil.copyfile(d / name, work / name)

    before = dllog_check(target)
    lines_before = [l for l in before.stdout.splitlines() if f" {code} " in l]
    assert lines_before, f"dllog check does not report {code} in the copy:\n{before.stdout}{before.stderr}"

    env = dict(os.environ, SERVER_PYTHON=sys.executable, TARGET=str(target), CODE=code,
               PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
               XDG_CONFIG_HOME=str(tmp_path / "xdg-config"), XDG_DATA_HOME=str(tmp_path / "xdg-data"),
               XDG_STATE_HOME=str(tmp_path / "xdg-state"), XDG_CACHE_HOME=str(tmp_path / "xdg-cache"))
    proc = subprocess.run(
        [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {HERE / 'nvim_e2e.lua'}"],
        capture_output=True, text=True, timeout=180, env=env, cwd=work, stdin=subprocess.DEVNULL,
    )
    output = proc.stdout + proc.stderr
    print(output)
    assert proc.returncode == 0 and "PASS" in proc.stdout, output
    assert "CHOSEN dllog (" + code + "): " in proc.stdout

    after_text = target.read_text(encoding="utf-8")
    assert after_text != source.read_text(encoding="utf-8")
    compile(after_text, str(target), "exec")
    after = dllog_check(target)
    assert after.returncode == 0, after.stderr
    remaining = [l for l in after.stdout.splitlines() if f" {code} " in l]
    assert len(remaining) == len(lines_before) - 1, f"before:\n{before.stdout}\nafter:\n{after.stdout}"
