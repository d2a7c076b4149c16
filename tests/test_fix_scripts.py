"""Executed proof: real training scripts, fixed by `dllog fix`, then run.

Three scripts under tests/fix_scripts/ (PyTorch + stdlib logging; PyTorch + TensorBoard;
PyTorch + MLflow with a local file store) are copied to a temporary directory, fixed by the
`dllog fix` command in a subprocess, re-checked, and run as subprocesses on CPU with tiny
synthetic data for 2 epochs. The assertions read back what the inserted statements emitted:
the log output, the TensorBoard event file, the MLflow run's files.

torch, tensorboard and mlflow are installed by .ci/install-fixes.sh; a missing one fails.
"""
from __future__ import annotations

import importlib.util
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent / "fix_scripts"
TIMEOUT = 300
pytestmark = pytest.mark.slow


def _require(*modules: str) -> None:
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        pytest.fail(f"{', '.join(missing)} not installed: run .ci/install-fixes.sh (PYTHON={sys.executable})")


def _dllog(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "flake8_dllog.cli", *args],
        cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT,
    )


def _fix_and_check(tmp_path: Path, name: str) -> tuple[Path, str]:
    script = tmp_path / name
    shutil.copy(SCRIPTS / name, script)
    original = script.read_text(encoding="utf-8")
    before = _dllog("check", name, cwd=tmp_path)
    assert before.returncode == 1, before.stdout + before.stderr
    fixed = _dllog("fix", name, cwd=tmp_path)
    assert fixed.returncode == 0, f"findings left after fix:\n{fixed.stdout}{fixed.stderr}"
    assert f"{name}: fixed" in fixed.stdout
    after = _dllog("check", name, cwd=tmp_path)
    assert after.returncode == 0, f"re-check after fix:\n{after.stdout}{after.stderr}"
    again = _dllog("fix", "--diff", name, cwd=tmp_path)
    assert again.returncode == 0 and again.stdout == "", f"second fix would change:\n{again.stdout}"
    source = script.read_text(encoding="utf-8")
    assert source != original
    return script, source


def _run(script: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    run_env = {**os.environ, "PYTHONHASHSEED": "0", **(env or {})}
    proc = subprocess.run(
        [sys.executable, str(script), *args],
        cwd=script.parent, capture_output=True, text=True, timeout=TIMEOUT, env=run_env,
    )
    assert proc.returncode == 0, f"fixed script failed:\n{proc.stdout}\n{proc.stderr}\n{script.read_text()}"
    return proc


LOSS_RE = re.compile(r"epoch (\d+) step (\d+) loss (\d+\.\d{4})")


def test_fixed_logging_script_emits_loss_path_seed_device(tmp_path):
    _require("torch")
    script, source = _fix_and_check(tmp_path, "train_logging.py")
    # The file already had `logger`: the fix uses it, adds no second logger.
    assert source.count("logging.getLogger") == 1
    out = tmp_path / "ckpts"
    proc = _run(script, "--seed", "4321", "--out", str(out))
    log = proc.stderr
    losses = LOSS_RE.findall(log)
    assert {e for e, _, _ in losses} == {"0", "1"}, log  # both epochs logged
    assert all(math.isfinite(float(v)) for _, _, v in losses)
    assert f"saved checkpoint to {out / 'model.pt'}" in log
    assert "random seed 4321" in log
    assert "using device cpu" in log
    assert "config: {'seed': 4321" in log
    # The checkpoint now carries its metadata and loads with torch's safe default.
    import torch

    ckpt = torch.load(out / "model.pt")
    assert ckpt["seed"] == 4321 and ckpt["epoch"] == 1 and set(ckpt["model"]) and ckpt["config"]["seed"] == 4321


def test_fixed_tensorboard_script_writes_loss_to_event_file(tmp_path):
    _require("torch", "tensorboard")
    script, source = _fix_and_check(tmp_path, "train_tensorboard.py")
    assert "writer.add_scalar(\"train/loss\", loss.item()" in source  # the file's own tracker
    logdir = tmp_path / "runs"
    proc = _run(script, "--logdir", str(logdir), "--out", str(tmp_path / "ck"))
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    acc = EventAccumulator(str(logdir))
    acc.Reload()
    assert "train/loss" in acc.Tags()["scalars"], acc.Tags()
    events = acc.Scalars("train/loss")
    assert [e.step for e in events] == [0, 4]  # step 0 of each epoch, 4 batches per epoch
    assert all(math.isfinite(e.value) for e in events)
    # Device, seed and checkpoint path go to the logger the fix added (with basicConfig).
    log = proc.stderr
    assert "INFO:__main__:using device cpu" in log
    assert "INFO:__main__:random seed 0" in log
    assert f"saved checkpoint to {tmp_path / 'ck' / 'last.pt'}" in log


def test_fixed_mlflow_script_records_loss_and_seed_in_run(tmp_path):
    _require("torch", "mlflow")
    script, source = _fix_and_check(tmp_path, "train_mlflow.py")
    assert "mlflow.log_metric(\"train_loss\", loss.item()" in source
    store = tmp_path / "mlruns"
    env = {"MLFLOW_TRACKING_URI": store.as_uri(), "MLFLOW_ALLOW_FILE_STORE": "true"}
    proc = _run(script, "--seed", "99", "--out", str(tmp_path / "m.pt"), env=env)
    runs = [p for p in store.glob("*/*") if (p / "meta.yaml").is_file() and (p / "metrics").is_dir()]
    assert len(runs) == 1, list(store.rglob("*"))
    run = runs[0]
    metric_lines = (run / "metrics" / "train_loss").read_text().split("\n")
    records = [line.split() for line in metric_lines if line.strip()]  # timestamp value step
    assert [int(r[2]) for r in records] == [0, 4]
    assert all(math.isfinite(float(r[1])) for r in records)
    assert (run / "params" / "seed").read_text().strip() == "99"
    log = proc.stderr
    assert "using device cpu" in log
    assert f"saved checkpoint to {tmp_path / 'm.pt'}" in log
