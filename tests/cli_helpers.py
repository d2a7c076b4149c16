"""Run the real `dllog` and `flake8` commands as subprocesses (bounded by timeouts).

The CLI's behaviour (exit codes, what goes to stdout/stderr, how a run survives bad
input) is only observable from outside the process, so these tests never call
``cli.main`` in-process.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
TIMEOUT = 300  # a hang guard, not a speed goal


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str

    @property
    def lines(self) -> list[str]:
        return [line for line in self.stdout.splitlines() if line.strip()]

    @property
    def json(self):
        return json.loads(self.stdout)


def dllog_cmd() -> list[str]:
    exe = BIN / "dllog"
    if exe.exists():
        return [str(exe)]
    return [sys.executable, "-m", "flake8_dllog.cli"]


def flake8_cmd() -> list[str]:
    exe = BIN / "flake8"
    if exe.exists():
        return [str(exe)]
    return [sys.executable, "-m", "flake8"]


def _env(extra: dict | None = None) -> dict:
    env = dict(os.environ)
    env.pop("PYTHONSTARTUP", None)
    env["PYTHONIOENCODING"] = "utf-8"
    if extra:
        env.update(extra)
    return env


def run(cmd: list[str], cwd: Path | str | None = None, timeout: float = TIMEOUT, env: dict | None = None, stdin=subprocess.DEVNULL) -> Run:
    proc = subprocess.run(
        cmd,
        cwd=str(cwd) if cwd else None,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=timeout,
        env=_env(env),
        stdin=stdin,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)


def dllog(*args: str, cwd: Path | str | None = None, timeout: float = TIMEOUT, env: dict | None = None) -> Run:
    return run(dllog_cmd() + list(args), cwd=cwd, timeout=timeout, env=env)


def flake8(*args: str, cwd: Path | str | None = None, timeout: float = TIMEOUT) -> Run:
    # --isolated: ignore any user/project flake8 configuration on this machine.
    return run(flake8_cmd() + ["--isolated", *args], cwd=cwd, timeout=timeout)


def assert_no_traceback(r: Run) -> None:
    assert "Traceback" not in r.stderr, r.stderr
    assert "Traceback" not in r.stdout, r.stdout


def finding_keys(text: str) -> list[tuple[str, int, int, str]]:
    """`path:line:col: CODE message` lines -> (path, line, col, CODE), sorted."""
    out = []
    for line in text.splitlines():
        if not line.strip():
            continue
        path, lineno, col, rest = line.split(":", 3)
        out.append((Path(path).as_posix(), int(lineno), int(col), rest.split()[0]))
    return sorted(out)


def have(cmd: str) -> bool:
    return shutil.which(cmd) is not None
