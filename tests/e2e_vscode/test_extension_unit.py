"""Runs the VS Code extension's own unit tests (settings → server mapping, node:test) and its
static checks (TypeScript strict, eslint) so CI covers them. Needs node + npm (FAILS if missing)."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

EXT = Path(__file__).resolve().parents[2] / "vscode-extension"
pytestmark = pytest.mark.timeout(900)


def _npm(cwd: Path, *args: str, timeout: float) -> str:
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.fail("node/npm not found: install Node.js >= 20 (Debian: apt-get install nodejs npm)")
    env = {**os.environ, "CI": "true", "npm_config_fund": "false", "npm_config_audit": "false",
           "npm_config_update_notifier": "false"}
    try:
        proc = subprocess.run(["npm", *args], cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"npm {' '.join(args)} did not finish within {timeout} s:\n{exc.output or ''}")
    assert proc.returncode == 0, f"npm {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout[-6000:]}"
    return proc.stdout


@pytest.fixture(scope="module")
def ext(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private copy of vscode-extension/ with its locked dependencies (npm ci)."""
    dest = tmp_path_factory.mktemp("ext-unit") / "vscode-extension"
    shutil.copytree(EXT, dest, ignore=shutil.ignore_patterns("node_modules", "dist", "out", "*.vsix"))
    _npm(dest, "ci", "--no-audit", "--no-fund", timeout=600)
    return dest


def test_settings_mapping_unit_tests(ext: Path) -> None:
    out = _npm(ext, "test", timeout=300)
    assert "# fail 0" in out, out[-4000:]
    assert "# pass" in out


def test_typescript_strict_and_eslint_clean(ext: Path) -> None:
    _npm(ext, "run", "typecheck", timeout=300)
    _npm(ext, "run", "lint", timeout=300)
