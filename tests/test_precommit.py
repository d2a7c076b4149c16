"""The pre-commit hooks, end to end, with the real `pre-commit` from PyPI.

A temporary git repository gets a git pre-commit hook that runs
``pre-commit try-repo <this checkout> dllog``, so real ``git commit`` calls go through the
hook exactly as declared in ``.pre-commit-hooks.yaml`` (pre-commit installs this checkout
into its own virtualenv, from PyPI for the dependencies):

1. a commit with an unlogged checkpoint save is blocked with the DLL200 message;
2. ``try-repo … dllog-fix`` inserts the logging (and fails, as pre-commit expects when a hook
   changed files); after ``git add`` the next commit passes;
3. a commit that touches no Python file passes (the hooks are skipped).

try-repo clones the hook repository at a commit. When this checkout has no uncommitted
changes (CI's fresh clone) it is used as is, at HEAD. Otherwise the test commits a snapshot of
the working tree (tracked and untracked, not ignored files) to a temporary repository and uses
that: try-repo's own "uncommitted changes" shadow copies tracked changes only, so new,
uncommitted modules would silently be missing and the test would exercise other code than the
code under test.
"""
from __future__ import annotations

import difflib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from flake8_dllog.catalog import load_catalog
from flake8_dllog.engine import check_source

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 600  # seconds for one pre-commit call (it builds a virtualenv and pip-installs dllog)

pytestmark = [pytest.mark.slow, pytest.mark.timeout(2400)]


def dll200_example() -> str:
    """A DLL200 case the engine flags today: the first of DLL200's own `examples.flagged`
    (kept and tested next to the rule) on which the engine reports DLL200 and nothing else."""
    for example in load_catalog().rules["DLL200"].flagged:
        text = example if example.endswith("\n") else example + "\n"
        codes = {f.code for f in check_source(text, "train_utils.py").findings}
        if codes == {"DLL200"}:
            return text
    pytest.fail("no example of rules/DLL200.yaml is flagged with DLL200 alone by the engine")


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.update(
        PRE_COMMIT_HOME=str(home / "pre-commit-cache"),
        PRE_COMMIT_COLOR="never",
        GIT_AUTHOR_NAME="dllog test",
        GIT_AUTHOR_EMAIL="test@example.invalid",
        GIT_COMMITTER_NAME="dllog test",
        GIT_COMMITTER_EMAIL="test@example.invalid",
        GIT_CONFIG_NOSYSTEM="1",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    return env


def _run(cmd: list[str], cwd: Path, env: dict[str, str], timeout: int = 120) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def _git(cwd: Path, env: dict[str, str], *args: str, timeout: int = 120) -> subprocess.CompletedProcess:
    return _run(["git", *args], cwd, env, timeout)


def _pre_commit() -> list[str]:
    proc = subprocess.run([sys.executable, "-m", "pre_commit", "--version"], capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        pytest.fail(
            "pre-commit is not installed for this Python: run .ci/install-report.sh "
            f"(pip install pre-commit)\n{proc.stderr}"
        )
    return [sys.executable, "-m", "pre_commit"]


def hook_repository(tmp: Path, env: dict[str, str]) -> tuple[Path, str, str]:
    """(repository for try-repo, commit to use, how it was chosen)."""
    if shutil.which("git") is None:
        pytest.fail("git is not installed (apt-get install git)")
    status = _git(ROOT, env, "status", "--porcelain", "--untracked-files=all")
    head = _git(ROOT, env, "rev-parse", "HEAD")
    if status.returncode == 0 and head.returncode == 0 and not status.stdout.strip():
        return ROOT, head.stdout.strip(), "checkout at HEAD (clean)"
    # Snapshot the working tree as it is (what the other tests in this run exercise).
    files = _git(ROOT, env, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    assert files.returncode == 0, files.stderr
    snap = tmp / "dllog-snapshot"
    snap.mkdir()
    for rel in filter(None, files.stdout.split("\0")):
        src = ROOT / rel
        if not os.path.lexists(src) or src.is_dir():
            continue  # deleted in the working tree, or a submodule
        dst = snap / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst, follow_symlinks=False)
    for args in (("init", "-q"), ("add", "-A"), ("commit", "-q", "--no-verify", "-m", "snapshot of the working tree")):
        proc = _git(snap, env, *args)
        assert proc.returncode == 0, proc.stderr
    ref = _git(snap, env, "rev-parse", "HEAD").stdout.strip()
    return snap, ref, "snapshot of the uncommitted working tree"


def test_pre_commit_blocks_fixes_and_passes(tmp_path: Path):
    env = _env(tmp_path)
    pre_commit = _pre_commit()
    hookrepo, ref, how = hook_repository(tmp_path, env)
    print(f"hook repository: {hookrepo} @ {ref} ({how})")

    project = tmp_path / "project"
    project.mkdir()
    assert _git(project, env, "init", "-q").returncode == 0
    (project / "README.md").write_text("# a training project\n", encoding="utf-8")
    _git(project, env, "add", "README.md")
    assert _git(project, env, "commit", "-q", "-m", "initial").returncode == 0

    # A git pre-commit hook that runs the dllog hook through try-repo on each commit.
    hook = project / ".git" / "hooks" / "pre-commit"
    hook.write_text(
        "#!/bin/sh\n"
        f"exec {' '.join(_sh(a) for a in pre_commit)} try-repo {_sh(str(hookrepo))} dllog --ref {ref}\n",
        encoding="utf-8",
    )
    hook.chmod(0o755)

    def commits() -> int:
        return int(_git(project, env, "rev-list", "--count", "HEAD").stdout.strip())

    # 1. An unlogged checkpoint save: the commit is blocked with the DLL200 message.
    UNLOGGED_SAVE = dll200_example()
    (finding, *_) = [f for f in check_source(UNLOGGED_SAVE, "train_utils.py").findings if f.code == "DLL200"]
    expected = f"train_utils.py:{finding.line}:{finding.column + 1}: DLL200 {finding.message}"
    assert finding.message == load_catalog().rules["DLL200"].message
    (project / "train_utils.py").write_text(UNLOGGED_SAVE, encoding="utf-8")
    _git(project, env, "add", "train_utils.py")
    blocked = _git(project, env, "commit", "-m", "add checkpointing", timeout=TIMEOUT)
    out = blocked.stdout + blocked.stderr
    print(out)
    assert blocked.returncode != 0, out
    assert expected in out
    assert "- hook id: dllog" in out and "Failed" in out
    assert commits() == 1

    # 2. dllog-fix inserts the logging and fails because it changed a file, as pre-commit expects.
    fixed = _run([*pre_commit, "try-repo", str(hookrepo), "dllog-fix", "--ref", ref], project, env, TIMEOUT)
    fout = fixed.stdout + fixed.stderr
    print(fout)
    # pre-commit fails a hook that modified files, whatever its exit status.
    assert fixed.returncode == 1, fout
    assert "- hook id: dllog-fix" in fout
    assert "files were modified by this hook" in fout
    text = (project / "train_utils.py").read_text(encoding="utf-8")
    assert text != UNLOGGED_SAVE
    ops = difflib.SequenceMatcher(None, UNLOGGED_SAVE.splitlines(), text.splitlines(), autojunk=False).get_opcodes()
    assert {op[0] for op in ops} <= {"equal", "insert"}, f"the fix only inserts lines:\n{text}"
    inserted = [line for op in ops if op[0] == "insert" for line in text.splitlines()[op[3]:op[4]]]
    assert any("log" in line.lower() for line in inserted), f"the fix inserts logging:\n{text}"
    assert [f.code for f in check_source(text, "train_utils.py").findings] == [], text
    compile(text, "train_utils.py", "exec")

    _git(project, env, "add", "train_utils.py")
    passed = _git(project, env, "commit", "-m", "add checkpointing (logged)", timeout=TIMEOUT)
    pout = passed.stdout + passed.stderr
    print(pout)
    assert passed.returncode == 0, pout
    assert "dllog (deep-learning logging check)" in pout and "Passed" in pout
    assert commits() == 2

    # 3. A commit touching no Python file passes: the hook has no files to check.
    (project / "README.md").write_text("# a training project\n\nNow with checkpoints.\n", encoding="utf-8")
    _git(project, env, "add", "README.md")
    docs_only = _git(project, env, "commit", "-m", "docs", timeout=TIMEOUT)
    dout = docs_only.stdout + docs_only.stderr
    print(dout)
    assert docs_only.returncode == 0, dout
    assert "(no files to check)" in dout and "Skipped" in dout
    assert commits() == 3


def _sh(arg: str) -> str:
    return "'" + arg.replace("'", "'\\''") + "'"
