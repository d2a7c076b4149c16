"""`dllog report`: figures against a hand count, formats, examples/, a 2,000-file tree, and the
HTML page rendered by headless Chromium (screenshot saved under test-artifacts/)."""
from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time
import zlib
from collections import Counter
from pathlib import Path

import pytest

from flake8_dllog.report import PHASES, STUDY_DENSITY, format_html

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"

# -- the small tree, counted by hand ---------------------------------------------------------

TRAIN = '''"""Train a small model."""
import argparse
import logging
import os

import torch
from torch.utils.tensorboard import SummaryWriter

logger = logging.getLogger(__name__)


def evaluate(model, loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
    accuracy = correct / len(loader.dataset)
    logger.info("val accuracy %.3f", accuracy)
    return accuracy


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="runs")
    args = parser.parse_args()
    logger.info("config: %s", vars(args))
    torch.manual_seed(args.seed)
    logger.info("seed %d", args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = torch.nn.Linear(4, 2).to(device)
    logger.info("training on %s", device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    writer = SummaryWriter(args.out)
    loader = []
    for epoch in range(3):
        for step, (x, y) in enumerate(loader):
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            writer.add_scalar("train/loss", loss.item(), step)
        evaluate(model, loader)
        ckpt_path = os.path.join(args.out, f"epoch_{epoch}.pt")
        torch.save({"model": model.state_dict(), "epoch": epoch}, ckpt_path)
        logger.info("saved checkpoint to %s", ckpt_path)


if __name__ == "__main__":
    main()
'''

FINETUNE = '''import argparse
import os

import torch


def finetune(args, model, optimizer, loader):
    model.load_state_dict(torch.load(args.init_ckpt))
    model = model.cuda() if torch.cuda.is_available() else model
    for epoch in range(args.epochs):
        for x, y in loader:
            loss = model(x, y)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        ckpt_path = os.path.join(args.out_dir, f"epoch_{epoch}.pt")
        torch.save({"model": model.state_dict(), "epoch": epoch}, ckpt_path)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--init-ckpt", required=True)
    parser.add_argument("--out-dir", default="out")
    parser.add_argument("--epochs", type=int, default=1)
    args = parser.parse_args()
    net = torch.nn.Linear(4, 1)
    finetune(args, net, torch.optim.SGD(net.parameters(), lr=0.1), [])
'''

PLOTTING = '''# Plot helpers: no deep learning here.
import matplotlib.pyplot as plt


def plot(values):
    plt.plot(values)
    print("plotted", len(values), "values")
'''

TEST_FILE = '''import torch


def test_save(tmp_path):
    torch.manual_seed(0)
    torch.save({"w": 1}, tmp_path / "x.pt")
    print("ok")
'''

BROKEN = "def broken(:\n    pass\n"


def write_tree(root: Path) -> Path:
    (root / "utils").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "pyproject.toml").write_text("[tool.dllog]\n", encoding="utf-8")
    (root / "train.py").write_text(TRAIN, encoding="utf-8")
    (root / "finetune.py").write_text(FINETUNE, encoding="utf-8")
    (root / "utils" / "plotting.py").write_text(PLOTTING, encoding="utf-8")
    (root / "tests" / "test_train.py").write_text(TEST_FILE, encoding="utf-8")
    (root / "broken.py").write_text(BROKEN, encoding="utf-8")
    return root


# The hand count (see the sources above):
#
# files: train.py, finetune.py, utils/plotting.py, tests/test_train.py (a test file: logging and
#   lines counted, no sites, no findings), broken.py (does not parse: DLL001, nothing else) = 5.
# source lines (non-blank, not comment-only): train.py 43 (the docstring counts), finetune.py 22,
#   plotting.py 4 (its comment line does not count), test_train.py 5, broken.py 0 = 74.
# logging calls: train.py logger.info x5 + writer.add_scalar; plotting.py print;
#   test_train.py print = 8: logging 5, print 2 (general-purpose 7), tensorboard 1 (DL-specific).
#   density 74 / 8 = 9.25; without print 74 / 6 = 12.33.
# sites (sites / logged):
#   training: train.py's epoch/step nest (logs the loss to TensorBoard), finetune.py's nest
#     (logs nothing: DLL100) = 2 / 1.
#   evaluation: train.py evaluate() (accuracy logged) = 1 / 1.
#   model saving: train.py torch.save (logged with its path), finetune.py torch.save (DLL200) = 2 / 1.
#   model loading: finetune.py model.load_state_dict(torch.load(...)), one statement (DLL210) = 1 / 0.
#   device: train.py .to(device) (logged), finetune.py .cuda() if available (DLL400) = 2 / 1.
#   reproducibility: train.py torch.manual_seed (logged) = 1 / 1; finetune.py never seeds: DLL500.
#     (test_train.py's manual_seed is test code: not a site.)
#   configuration: two parse_args(); train.py logs vars(args), finetune.py does not (DLL600) = 2 / 1.
# findings: DLL001, DLL100, DLL200, DLL210, DLL400, DLL500, DLL600, one each = 7;
#   finetune.py 6, broken.py 1.
HAND = {
    "files": {"checked": 5, "test_files": 1, "unreadable_or_unparsable": 1, "with_findings": 2},
    "source_lines": 74,
    "calls": 8,
    "general": 7,
    "dl": 1,
    "print": 2,
    "by_library": {("logging", "general-purpose"): 5, ("print", "general-purpose"): 2, ("tensorboard", "DL-specific"): 1},
    "phases": {
        "training": (2, 1, {"DLL100": 1}),
        "evaluation": (1, 1, {}),
        "model saving": (2, 1, {"DLL200": 1}),
        "model loading": (1, 0, {"DLL210": 1}),
        "device": (2, 1, {"DLL400": 1}),
        "reproducibility": (1, 1, {"DLL500": 1}),
        "configuration": (2, 1, {"DLL600": 1}),
    },
    "by_code": {"DLL001": 1, "DLL100": 1, "DLL200": 1, "DLL210": 1, "DLL400": 1, "DLL500": 1, "DLL600": 1},
    "top_files": [("finetune.py", 6), ("broken.py", 1)],
}


def dllog(*args: str, cwd: Path, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flake8_dllog.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "proj")


def test_figures_match_the_hand_count(tree: Path):
    proc = dllog("report", "--format", "json", ".", cwd=tree)
    assert proc.returncode == 0, proc.stderr
    rep = json.loads(proc.stdout)
    assert rep["files"] == HAND["files"]
    assert rep["source_lines"] == HAND["source_lines"]
    lg = rep["logging"]
    assert (lg["calls"], lg["general_purpose"], lg["dl_specific"], lg["print"]) == (
        HAND["calls"], HAND["general"], HAND["dl"], HAND["print"])
    assert lg["density"] == pytest.approx(74 / 8, abs=0.051)
    assert lg["density_without_print"] == pytest.approx(74 / 6, abs=0.051)
    assert lg["study_density"] == STUDY_DENSITY == 194
    assert {(i["library"], i["kind"]): i["calls"] for i in lg["by_library"]} == HAND["by_library"]
    assert [p["phase"] for p in rep["phases"]] == list(PHASES)
    for p in rep["phases"]:
        sites, logged, by_code = HAND["phases"][p["phase"]]
        assert (p["phase"], p["sites"], p["logged"], p["by_code"]) == (p["phase"], sites, logged, by_code)
        assert p["unlogged"] == sites - logged and p["unchecked"] == 0
        assert p["findings"] == sum(by_code.values())
    assert rep["findings"] == {"total": 7, "by_code": HAND["by_code"]}
    assert [(t["path"], t["findings"]) for t in rep["top_files"]] == HAND["top_files"]
    assert rep["errors"] == ["broken.py: file could not be parsed: invalid syntax"]


def test_findings_agree_with_dllog_check(tree: Path):
    """The report's findings are `dllog check`'s, with the same selection options."""
    for extra in ([], ["--select", "DLL2,DLL4"], ["--extend-select", "DLL502,DLL601", "--ignore", "DLL600"]):
        check = dllog("check", "--format", "json", *extra, ".", cwd=tree)
        counts = Counter(f["code"] for f in json.loads(check.stdout))
        rep = json.loads(dllog("report", "--format", "json", *extra, ".", cwd=tree).stdout)
        assert rep["findings"]["by_code"] == dict(sorted(counts.items())), extra
        per_file = Counter(f["path"] for f in json.loads(check.stdout))
        assert {t["path"]: t["findings"] for t in rep["top_files"]} == dict(per_file)


def test_sites_are_not_judged_when_their_rule_is_off(tree: Path):
    rep = json.loads(dllog("report", "--format", "json", "--ignore", "DLL200", ".", cwd=tree).stdout)
    saving = next(p for p in rep["phases"] if p["phase"] == "model saving")
    assert (saving["sites"], saving["unchecked"], saving["logged"], saving["unlogged"]) == (2, 2, 0, 0)
    text = dllog("report", "--ignore", "DLL200", ".", cwd=tree).stdout
    assert re.search(r"model saving\s+2\s+n/a", text), text


def test_text_and_output_file(tree: Path, tmp_path: Path):
    proc = dllog("report", ".", cwd=tree)
    assert proc.returncode == 0
    out = proc.stdout
    assert "5 Python files (1 test files, 1 could not be checked), 74 source lines, 7 findings" in out
    assert re.search(r"model saving\s+2\s+1 \(50%\)\s+1\s+DLL200:1", out), out
    assert "Logging density: 9.2 source lines per logging statement (study of DL projects: 194; higher is sparser)" in out
    assert "Logging calls: 8 — general-purpose 7, DL-specific 1" in out
    assert re.search(r"6\s+finetune\.py\s+\(DLL100:1 DLL200:1 DLL210:1 DLL400:1 DLL500:1 DLL600:1\)", out)
    target = tmp_path / "out" / "report.txt"
    target.parent.mkdir()
    proc = dllog("report", "-o", str(target), ".", cwd=tree)
    assert proc.returncode == 0 and proc.stdout == ""
    assert target.read_text(encoding="utf-8") == out


def test_html_is_self_contained(tree: Path, tmp_path: Path):
    target = tmp_path / "report.html"
    assert dllog("report", "--format", "html", "-o", str(target), ".", cwd=tree).returncode == 0
    page = target.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("<svg") == 3
    # No network: no scripts, stylesheets, images or fonts from anywhere.
    assert not re.search(r"<(script|link|img|iframe)\b", page, re.I)
    urls = set(re.findall(r"(?:https?:)?//[\w.-]+[^\s\"'<)]*", page))
    assert urls <= {"http://www.w3.org/2000/svg"}, urls
    for text in ("model saving", "1/2 logged", "this project: 9.2", "study of DL projects: 194", "tensorboard", "finetune.py"):
        assert text in page, text


def test_empty_and_missing_paths(tmp_path: Path):
    (tmp_path / "empty").mkdir()
    proc = dllog("report", "--format", "json", "empty", cwd=tmp_path)
    rep = json.loads(proc.stdout)
    assert proc.returncode == 0 and rep["files"]["checked"] == 0 and rep["logging"]["density"] is None
    assert "no logging statements" in dllog("report", "empty", cwd=tmp_path).stdout
    format_html(rep)  # renders with nothing in it
    proc = dllog("report", "does-not-exist", cwd=tmp_path)
    assert proc.returncode == 2 and "does-not-exist: no such file or directory" in proc.stderr


def test_progress_bar_only_on_a_tty(tmp_path: Path):
    import pty
    import select

    root = tmp_path / "many"
    root.mkdir()
    for i in range(240):
        (root / f"m{i:03d}.py").write_text("x = 1\n", encoding="utf-8")
    plain = dllog("report", "-j", "1", ".", cwd=root)
    assert plain.returncode == 0 and "files" not in plain.stderr and "#" not in plain.stderr
    # stderr on a pseudo-terminal: the bar is drawn there, stdout is unchanged.
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "flake8_dllog.cli", "report", "-j", "1", "."], cwd=root,
                            stdout=subprocess.PIPE, stderr=slave, text=True)
    os.close(slave)
    chunks = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        r, _, _ = select.select([master], [], [], 1)
        if r:
            try:
                data = os.read(master, 4096)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    out, _ = proc.communicate(timeout=120)
    os.close(master)
    tty = b"".join(chunks).decode("utf-8", "replace")
    assert "240/240 files" in tty and "#" in tty, tty
    assert out == plain.stdout


# -- examples/ and a generated 2,000-file tree, rendered by Chromium ---------------------------

def test_report_on_examples_matches_check():
    examples = ROOT / "examples"
    if not any(examples.rglob("*.py")):
        pytest.fail("examples/ has no Python files")
    ARTIFACTS.mkdir(exist_ok=True)
    html_path = ARTIFACTS / "report-examples.html"
    json_path = ARTIFACTS / "report-examples.json"
    for fmt, path in (("json", json_path), ("html", html_path)):
        proc = dllog("report", "--format", fmt, "-o", str(path), "examples", cwd=ROOT)
        assert proc.returncode == 0, proc.stderr
    rep = json.loads(json_path.read_text(encoding="utf-8"))
    check = dllog("check", "--format", "json", "examples", cwd=ROOT)
    counts = Counter(f["code"] for f in json.loads(check.stdout))
    assert rep["findings"]["by_code"] == dict(sorted(counts.items()))
    assert rep["files"]["checked"] == len(list(examples.rglob("*.py")))
    assert rep["logging"]["calls"] > 0 and rep["logging"]["dl_specific"] > 0 and rep["logging"]["general_purpose"] > 0
    for p in rep["phases"]:
        assert p["sites"] == p["logged"] + p["unlogged"] + p["unchecked"]
        assert p["sites"] > 0, f"examples/ exercise every phase: {p['phase']}"
    png = screenshot(html_path, ARTIFACTS / "report-examples.png")
    assert_charts_rendered(png)


TEMPLATES = {"train": TRAIN, "finetune": FINETUNE, "plotting": PLOTTING}


def test_report_on_a_generated_2000_file_tree(tmp_path: Path):
    """2,000 files: 4 kinds x 500 copies. Every figure is 500 x the figure of one copy."""
    one = tmp_path / "one"
    big = tmp_path / "big"
    one.mkdir()
    (one / "pyproject.toml").write_text("[tool.dllog]\n", encoding="utf-8")
    shutil.copy(one / "pyproject.toml", tmp_path / "pyproject.toml")
    for name, text in TEMPLATES.items():
        (one / f"{name}.py").write_text(text, encoding="utf-8")
    (one / "broken.py").write_text(BROKEN, encoding="utf-8")
    for i in range(500):
        d = big / f"pkg{i // 50:02d}" / f"mod{i:03d}"
        d.mkdir(parents=True)
        for name, text in TEMPLATES.items():
            (d / f"{name}.py").write_text(text, encoding="utf-8")
        (d / "broken.py").write_text(BROKEN, encoding="utf-8")
    base = json.loads(dllog("report", "--format", "json", str(one), cwd=tmp_path).stdout)
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "flake8_dllog.cli", "report", "--format", "json", "-o",
                           str(tmp_path / "big.json"), str(big)], capture_output=True, text=True, timeout=900)
    elapsed = time.monotonic() - start
    assert proc.returncode == 0, proc.stderr
    rep = json.loads((tmp_path / "big.json").read_text(encoding="utf-8"))
    print(f"dllog report on 2,000 files: {elapsed:.1f}s")
    assert rep["files"]["checked"] == 2000
    assert rep["files"]["unreadable_or_unparsable"] == 500 and len(rep["errors"]) == 500
    assert rep["source_lines"] == 500 * base["source_lines"]
    assert rep["logging"]["calls"] == 500 * base["logging"]["calls"]
    assert rep["logging"]["density"] == base["logging"]["density"]
    assert {(i["library"], i["calls"]) for i in rep["logging"]["by_library"]} == {
        (i["library"], 500 * i["calls"]) for i in base["logging"]["by_library"]}
    for p, q in zip(rep["phases"], base["phases"]):
        assert (p["sites"], p["logged"], p["findings"]) == (500 * q["sites"], 500 * q["logged"], 500 * q["findings"])
    assert rep["findings"]["total"] == 500 * base["findings"]["total"]
    assert len(rep["top_files"]) == 10 and all(t["path"].endswith("finetune.py") for t in rep["top_files"])
    assert elapsed < 600
    ARTIFACTS.mkdir(exist_ok=True)
    html_path = ARTIFACTS / "report-2000-files.html"
    proc = dllog("report", "--format", "html", "-o", str(html_path), str(big), cwd=tmp_path, timeout=900)
    assert proc.returncode == 0, proc.stderr
    png = screenshot(html_path, ARTIFACTS / "report-2000-files.png")
    assert_charts_rendered(png)


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.fail("Chromium is not installed: run .ci/install-report.sh (apt-get install chromium)")


def screenshot(html_path: Path, png_path: Path) -> Path:
    """Open the page in headless Chromium (no network needed) and save a screenshot."""
    png_path.unlink(missing_ok=True)
    profile = png_path.parent / ".chromium-profile"
    cmd = [
        chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--hide-scrollbars", "--no-first-run", "--force-device-scale-factor=1",
        f"--user-data-dir={profile}", "--window-size=1000,2300",
        f"--screenshot={png_path}", html_path.resolve().as_uri(),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
    shutil.rmtree(profile, ignore_errors=True)
    assert png_path.is_file() and png_path.stat().st_size > 10_000, f"no screenshot: {proc.returncode}\n{proc.stderr[-2000:]}"
    return png_path


def read_png(path: Path) -> tuple[int, int, list[bytes]]:
    """Decode an 8-bit RGB/RGBA PNG (what Chromium writes) into rows of pixels."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color in (2, 6), (depth, color)
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 0xFF
            elif f == 2:
                line[i] = (line[i] + b) & 0xFF
            elif f == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 0xFF
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(bytes(line) if bpp == 3 else bytes(v for j, v in enumerate(line) if j % 4 != 3))
        prev = line
    return width, height, rows


def assert_charts_rendered(png: Path) -> None:
    """The chart colours are on screen, in bars of real size (not a blank or error page)."""
    width, height, rows = read_png(png)
    assert (width, height) == (1000, 2300)
    colours = {"logged (green)": (0x2E, 0x7D, 0x32), "not logged (red)": (0xC6, 0x28, 0x28),
               "general-purpose (blue)": (0x15, 0x65, 0xC0), "DL-specific (orange)": (0xEF, 0x6C, 0x00)}
    counts = Counter()
    for row in rows[::2]:
        for x in range(0, len(row), 6):
            px = row[x:x + 3]
            for name, rgb in colours.items():
                if all(abs(px[k] - rgb[k]) <= 6 for k in range(3)):
                    counts[name] += 1
    missing = [name for name in colours if counts[name] < 200]
    assert not missing, f"chart colours missing from the screenshot: {missing} ({dict(counts)})"


def test_bad_input_is_reported_and_the_run_goes_on(tmp_path: Path):
    (tmp_path / "nul.py").write_bytes(b"x = 1\x00\n")
    (tmp_path / "latin.py").write_bytes(b'x = "\xff\xfe"\n')
    (tmp_path / "empty.py").write_bytes(b"")
    (tmp_path / "ok.py").write_text(PLOTTING, encoding="utf-8")
    (tmp_path / "loop.py").symlink_to("loop.py")
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "self").symlink_to("../d")
    proc = dllog("report", "--format", "json", ".", cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    rep = json.loads(proc.stdout)
    assert rep["files"]["unreadable_or_unparsable"] == 3
    assert rep["source_lines"] == 4 and rep["logging"]["calls"] == 1
    assert sorted(e.split(":")[0] for e in rep["errors"]) == ["latin.py", "loop.py", "nul.py"]


@pytest.mark.parametrize("name, category, imports, expected", [
    ("logging.info", "logging_general", {"logging"}, ("logging", "general")),
    ("logger.warning", "logging_general", {"logging"}, ("logging", "general")),
    ("log.info", "logging_general", {"structlog"}, ("structlog", "general")),
    ("loguru.logger.info", "logging_general", {"loguru"}, ("loguru", "general")),
    ("absl.logging.info", "logging_general", set(), ("absl", "general")),
    ("pbar.set_postfix", "logging_general", set(), ("tqdm", "general")),
    ("print", "logging_print", set(), ("print", "general")),
    ("wandb.log", "logging_dl", {"wandb"}, ("wandb", "dl")),
    ("run.log", "logging_dl", {"wandb"}, ("wandb", "dl")),
    ("mlflow.log_metric", "logging_dl", {"mlflow"}, ("mlflow", "dl")),
    ("writer.add_scalar", "logging_dl", set(), ("tensorboard", "dl")),
    ("tensorflow.summary.scalar", "logging_dl", set(), ("tensorboard", "dl")),
    ("self.log", "logging_dl", set(), ("lightning", "dl")),
    ("tb_logger.log_hyperparams", "logging_dl", set(), ("lightning", "dl")),
    ("accelerator.log", "logging_dl", set(), ("accelerate", "dl")),
    ("experiment.log_metric", "logging_dl", set(), ("comet", "dl")),
    ("logger.report_scalar", "logging_dl", set(), ("clearml", "dl")),
    ("dllogger.log", "logging_dl", set(), ("dllogger", "dl")),
    ("run[].append", "logging_dl", set(), ("neptune", "dl")),
    ("aim_run.track", "logging_dl", set(), ("aim", "dl")),
    ("_run.log_scalar", "logging_dl", set(), ("sacred", "dl")),
    ("trainer.log_metrics", "logging_dl", set(), ("huggingface", "dl")),
])
def test_logging_calls_are_attributed_to_their_library(name, category, imports, expected):
    from flake8_dllog.report import classify_logging_call

    assert classify_logging_call(name, category, frozenset(imports)) == expected
