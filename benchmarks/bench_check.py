"""How much does dllog cost on top of parsing, and on top of flake8?

One run over one corpus prints two ratios (issue 2, "must show" 4):

1. ``dllog check`` single-process time / ``ast.parse``-only time        (goal <= 1.5)

   Measured in-process, over the same files, two ways: whole-corpus passes (interleaved,
   minimum of the passes) and per file (each file parsed and checked back to back in every
   round, each file's minimum summed: steadier on a machine whose speed drifts). The
   RATIO line is the per-file figure; both are printed.
   * baseline  = read bytes + decode (PEP 263 / BOM, exactly as the engine does) + ``ast.parse``;
   * engine    = what ``dllog check -j 1`` does per file: the CLI worker
     (``flake8_dllog.cli._check_worker``): config lookup, read, decode, parse, module facts,
     every default-on detector, noqa.  Also printed: ``check_file`` with a preloaded
     config (no config lookup), to separate lookup cost from analysis cost.

2. flake8 wall time with the DLL plugin / without it                      (goal <= 1.10)

   Same flake8, same arguments (``flake8 --isolated -j 1 --select E,W,F,C90,DLL <corpus>``),
   run as a subprocess, alternating with/without. "Without" runs flake8 through a tiny launcher that drops the
   flake8-dllog entry point from flake8's plugin discovery
   (``flake8.plugins.finder._find_importlib_plugins``) before flake8 starts — exactly as if
   the package were uninstalled, while everything else (interpreter, flake8, pycodestyle,
   pyflakes, files, options) stays identical. ``--select`` alone would not do: flake8 runs
   every installed plugin and only filters the results. Several repeats, minimum taken.
   ``flake8 --version`` under both launchers is checked to list / not list flake8-dllog.

The corpus (written to a temporary directory, deleted afterwards):
* generated deep-learning scripts — PyTorch/argparse training scripts, Lightning modules,
  accelerate loops, Keras custom loops, evaluation scripts and utility modules, with
  randomised names and sizes, plus copies of the bundled examples/;
* ordinary Python collected from this environment's site-packages (every k-th .py file,
  deterministic, <= 200 kB each, only files that parse), copied next to them.

If a goal is missed, the engine is profiled (cProfile) and the top functions by own time
are printed, to say where the time goes.

    python benchmarks/bench_check.py                 # default corpus (~1000 files)
    python benchmarks/bench_check.py --dl 400 --plain 1200 --repeat 5
"""
from __future__ import annotations

import argparse
import ast
import cProfile
import io
import os
import pstats
import random
import shutil
import site
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flake8_dllog import cli as dllog_cli  # noqa: E402
from flake8_dllog.config import Config  # noqa: E402
from flake8_dllog.engine import check_file, decode_source, mentions_deep_learning  # noqa: E402

GOAL_PARSE = 1.5
# What `dllog check` with no options hands its per-file worker.
CLI_OVERRIDES = {"select": None, "extend_select": [], "ignore": [], "config_file": None, "check_tests": False}
GOAL_FLAKE8 = 1.10

# -- corpus -------------------------------------------------------------------------------

TRAIN_TEMPLATE = '''"""{doc}"""
import argparse
import logging
import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

logger = logging.getLogger(__name__)


class {model}(nn.Module):
    def __init__(self, in_dim={in_dim}, hidden={hidden}, classes={classes}):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.head = nn.Linear(hidden, classes)
        self.drop = nn.Dropout({dropout})

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = self.drop(F.relu(self.fc2(x)))
        return self.head(x)

{helpers}

def {train_fn}(model, loader, optimizer, device, epoch, log_every={log_every}):
    model.train()
    running = 0.0
    for step, (inputs, targets) in enumerate(loader):
        inputs, targets = inputs.to(device), targets.to(device)
        optimizer.zero_grad()
        loss = F.cross_entropy(model(inputs), targets)
        loss.backward()
        optimizer.step()
        running += loss.item()
{log_stmt}
    return running / max(len(loader), 1)


@torch.no_grad()
def {eval_fn}(model, loader, device):
    model.eval()
    correct, total, loss_sum = 0, 0, 0.0
    for inputs, targets in loader:
        inputs, targets = inputs.to(device), targets.to(device)
        logits = model(inputs)
        loss_sum += F.cross_entropy(logits, targets, reduction="sum").item()
        correct += (logits.argmax(1) == targets).sum().item()
        total += targets.numel()
    accuracy = correct / max(total, 1)
{eval_log}
    return accuracy


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default={epochs})
    parser.add_argument("--lr", type=float, default={lr})
    parser.add_argument("--seed", type=int, default={seed})
    parser.add_argument("--out", default="{out}")
    args = parser.parse_args()
{args_log}
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = {model}().to(device)
    optimizer = torch.optim.{optim}(model.parameters(), lr=args.lr)
    train_loader = DataLoader(make_dataset({n_train}), batch_size=64, shuffle=True)
    val_loader = DataLoader(make_dataset({n_val}), batch_size=256)
    for epoch in range(args.epochs):
        train_loss = {train_fn}(model, train_loader, optimizer, device, epoch)
        val_acc = {eval_fn}(model, val_loader, device)
        {epoch_log}
    torch.save({save_obj}, os.path.join(args.out, "final.pt"))


def make_dataset(n):
    x = torch.randn(n, {in_dim})
    y = torch.randint(0, {classes}, (n,))
    return torch.utils.data.TensorDataset(x, y)


if __name__ == "__main__":
    main()
'''

HELPER_TEMPLATE = '''
def {name}(values, scale={scale}):
    """Normalise a list of numbers ({name})."""
    total = sum(values) or 1.0
    out = []
    for v in values:
        if v < 0:
            out.append(0.0)
        elif v > {limit}:
            out.append(scale)
        else:
            out.append(v * scale / total)
    return out
'''

KERAS_TEMPLATE = '''import tensorflow as tf


def build(units={units}):
    return tf.keras.Sequential([tf.keras.layers.Dense(units, activation="relu"), tf.keras.layers.Dense(10)])


def fit(model, dataset, epochs={epochs}):
    optimizer = tf.keras.optimizers.Adam({lr})
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    for epoch in range(epochs):
        for x, y in dataset:
            with tf.GradientTape() as tape:
                loss = loss_fn(y, model(x, training=True))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
{log}
    model.save_weights("{out}")
{helpers}
'''


def generate_dl_files(dest: Path, count: int, rng: random.Random) -> int:
    made = 0
    for i in range(count):
        helpers = "".join(
            HELPER_TEMPLATE.format(name=f"normalise_{i}_{k}", scale=rng.randint(1, 9), limit=rng.randint(10, 99))
            for k in range(rng.randint(0, 12))
        )
        if i % 4 == 3:
            text = KERAS_TEMPLATE.format(
                units=rng.choice([64, 128, 256]),
                epochs=rng.randint(1, 20),
                lr=rng.choice([1e-3, 3e-4]),
                out=f"w{i}.h5",
                log='        tf.print("epoch", epoch, "loss", loss)' if rng.random() < 0.5 else "",
                helpers=helpers,
            )
        else:
            logged = rng.random() < 0.6
            text = TRAIN_TEMPLATE.format(
                doc=f"Generated training script {i}.",
                model=f"Net{i}",
                in_dim=rng.choice([32, 64, 784]),
                hidden=rng.choice([64, 128, 256]),
                classes=rng.choice([2, 10, 100]),
                dropout=rng.choice([0.1, 0.2, 0.5]),
                helpers=helpers,
                train_fn=f"train_epoch_{i}",
                eval_fn=f"evaluate_{i}",
                log_every=rng.choice([10, 50, 100]),
                log_stmt=(
                    "        if step % log_every == 0:\n"
                    '            logger.info("epoch %d step %d loss %.4f", epoch, step, loss.item())'
                    if logged
                    else "        pass"
                ),
                eval_log='    logger.info("val loss %.4f acc %.4f", loss_sum / max(total, 1), accuracy)' if logged else "",
                epochs=rng.randint(1, 50),
                lr=rng.choice([0.1, 0.01, 1e-3]),
                seed=rng.randint(0, 9999),
                out=f"runs/{i}",
                args_log='    logger.info("args %s", vars(args))' if rng.random() < 0.5 else "",
                optim=rng.choice(["SGD", "Adam", "AdamW"]),
                n_train=rng.randint(100, 10000),
                n_val=rng.randint(100, 1000),
                epoch_log='logger.info("epoch %d train %.4f val %.4f", epoch, train_loss, val_acc)' if logged else "pass",
                save_obj=rng.choice(["model.state_dict()", '{"model": model.state_dict(), "epoch": args.epochs}']),
            )
        (dest / f"dl_{i:04d}.py").write_text(text, encoding="utf-8")
        made += 1
    # The bundled examples, as realistic hand-written DL code.
    for j, src in enumerate(sorted((ROOT / "examples").rglob("*.py"))):
        if "tests" in src.parts:
            continue
        shutil.copyfile(src, dest / f"example_{j:02d}_{src.name}")
        made += 1
    return made


def site_packages_dirs() -> list[Path]:
    dirs = []
    for p in [sysconfig.get_paths().get("purelib"), *site.getsitepackages()]:
        if p and Path(p).is_dir() and Path(p) not in dirs:
            dirs.append(Path(p))
    return dirs


def _count_analysed(files: list[str]) -> int:
    """How many files pass the engine's text gate (the others get no facts walk)."""
    config = Config()
    return sum(mentions_deep_learning(decode_source(Path(f).read_bytes()), config) for f in files)


def collect_plain_files(dest: Path, count: int) -> int:
    candidates: list[Path] = []
    for sp in site_packages_dirs():
        for p in sorted(sp.rglob("*.py")):
            if "flake8_dllog" in p.parts or "lsp_server" in p.parts:
                continue
            try:
                if p.stat().st_size > 200_000 or p.stat().st_size == 0:
                    continue
            except OSError:
                continue
            candidates.append(p)
    if not candidates:
        return 0
    step = max(1, len(candidates) // count)
    made = 0
    for p in candidates[::step]:
        if made >= count:
            break
        try:
            data = p.read_bytes()
            ast.parse(decode_source(data))
        except Exception:
            continue
        (dest / f"plain_{made:04d}.py").write_bytes(data)
        made += 1
    return made


# -- timing ---------------------------------------------------------------------------------


def time_interleaved(fns: list, repeat: int) -> list[float]:
    """Minimum time of each function over ``repeat`` rounds; within a round the functions
    run back to back, so a load spike on a shared machine hits all of them alike."""
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - t0)
    return best


def parse_only(files: list[str]) -> None:
    for f in files:
        with open(f, "rb") as fh:
            data = fh.read()
        ast.parse(decode_source(data), filename=f)


def engine_worker(files: list[str]) -> int:
    n = 0
    for f in files:
        findings, err = dllog_cli._check_worker((f, CLI_OVERRIDES))
        n += len(findings)
    return n


def time_per_file(files: list[str], repeat: int) -> tuple[float, float]:
    """Sums over files of the minimum time of (parse only, dllog's per-file work) for each
    file, both run back to back on the same file in each of ``repeat`` rounds, in
    alternating order. On a shared machine whose speed drifts over seconds this estimates
    the unloaded cost better than the minimum of whole-corpus passes: a slow spell only
    spoils the few files it overlaps, and both sides of each file see the same spell."""
    clock = time.perf_counter
    best_parse = [float("inf")] * len(files)
    best_check = [float("inf")] * len(files)
    for round_ in range(repeat):
        for i, f in enumerate(files):
            for side in ((0, 1) if (round_ + i) % 2 == 0 else (1, 0)):
                t0 = clock()
                if side == 0:
                    parse_only([f])
                else:
                    dllog_cli._check_worker((f, CLI_OVERRIDES))
                elapsed = clock() - t0
                if side == 0:
                    best_parse[i] = min(best_parse[i], elapsed)
                else:
                    best_check[i] = min(best_check[i], elapsed)
    return sum(best_parse), sum(best_check)


def engine_preloaded(files: list[str], cfg: Config) -> int:
    n = 0
    for f in files:
        n += len(check_file(f, cfg).findings)
    return n


LAUNCHER = """
import sys
from flake8.plugins import finder
from flake8.main.cli import main

if sys.argv[1] == "--without-dllog":
    _orig = finder._find_importlib_plugins

    def _find_importlib_plugins():
        for plugin in _orig():
            if plugin.package != "flake8-dllog":
                yield plugin

    finder._find_importlib_plugins = _find_importlib_plugins
sys.argv = ["flake8"] + sys.argv[2:]
sys.exit(main())
"""


def flake8_once(launcher: Path, mode: str, args: list[str], cwd: Path) -> tuple[float, str]:
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, str(launcher), mode, *args], cwd=cwd, capture_output=True, text=True, timeout=1800
    )
    elapsed = time.perf_counter() - t0
    if proc.returncode not in (0, 1):
        raise SystemExit(f"flake8 failed ({mode}): {proc.stderr[-2000:]}")
    return elapsed, proc.stdout


def profile_engine(files: list[str], top: int = 25) -> None:
    prof = cProfile.Profile()
    prof.enable()
    engine_worker(files)
    prof.disable()
    buf = io.StringIO()
    stats = pstats.Stats(prof, stream=buf).strip_dirs().sort_stats("tottime")
    stats.print_stats(top)
    print("\n-- cProfile of the engine (top functions by own time) --")
    print(buf.getvalue())
    # Own time per source file of flake8_dllog, to say which module to look at.
    per_file: dict[str, float] = {}
    raw = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    for (filename, _line, name), (_cc, _nc, tt, _ct, _callers) in raw.items():
        if "flake8_dllog" in filename:
            key = filename.split("flake8_dllog" + os.sep, 1)[-1]
        elif filename == "~":
            key = "compile() = ast.parse" if "compile" in name else "other built-ins (isinstance, getattr, ...)"
        else:
            key = Path(filename).name
        per_file[key] = per_file.get(key, 0.0) + tt
    print("-- own time by file --")
    for key, tt in sorted(per_file.items(), key=lambda kv: -kv[1])[:15]:
        print(f"{tt:8.3f}s  {key}")


def main() -> int:
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[attr-defined]
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dl", type=int, default=300, help="generated DL scripts (default 300)")
    ap.add_argument("--plain", type=int, default=700, help="ordinary files from site-packages (default 700)")
    ap.add_argument("--repeat", type=int, default=5, help="repeats per measurement; the minimum is reported")
    ap.add_argument("--seed", type=int, default=20261121)
    ap.add_argument("--no-flake8", action="store_true", help="skip the flake8 comparison")
    ap.add_argument("--profile", action="store_true", help="always print the cProfile breakdown")
    ns = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="dllog-bench-"))
    try:
        corpus = tmp / "corpus"
        corpus.mkdir()
        n_dl = generate_dl_files(corpus, ns.dl, random.Random(ns.seed))
        n_plain = collect_plain_files(corpus, ns.plain)
        files = sorted(str(p) for p in corpus.glob("*.py"))
        total_bytes = sum(os.path.getsize(f) for f in files)
        total_lines = sum(Path(f).read_bytes().count(b"\n") for f in files)
        print(f"corpus: {len(files)} files ({n_dl} DL scripts incl. examples, {n_plain} from site-packages), "
              f"{total_lines} lines, {total_bytes / 1e6:.1f} MB in {corpus}")
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, repeats {ns.repeat} (minimum reported)")
        analysed = _count_analysed(files)
        print(f"analysed: {analysed} of {len(files)} files mention deep learning (the rest are parsed only, "
              "see engine.mentions_deep_learning)")

        # Warm up: imports, catalog, file cache.
        parse_only(files)
        n_findings = engine_worker(files)
        cfg = dllog_cli.resolve_config(Path(files[0]), {})

        t_parse, t_worker, t_engine = time_interleaved(
            [lambda: parse_only(files), lambda: engine_worker(files), lambda: engine_preloaded(files, cfg)],
            ns.repeat,
        )
        pf_parse, pf_check = time_per_file(files, ns.repeat)
        ratio = pf_check / pf_parse
        print()
        print("whole-corpus passes (minimum of the passes):")
        print(f"  read+decode+ast.parse only         : {t_parse:8.3f} s")
        print(f"  dllog check -j 1 per-file work     : {t_worker:8.3f} s   ({n_findings} findings)   ratio {t_worker / t_parse:.2f}")
        print(f"  engine with a preloaded config     : {t_engine:8.3f} s   ratio {t_engine / t_parse:.2f}")
        print("per file, back to back (sum of each file's minimum over the rounds):")
        print(f"  read+decode+ast.parse only         : {pf_parse:8.3f} s")
        print(f"  dllog check -j 1 per-file work     : {pf_check:8.3f} s")
        print(f"RATIO dllog check / ast.parse        : {ratio:8.2f}   (goal <= {GOAL_PARSE}; per file)  "
              f"{'OK' if ratio <= GOAL_PARSE else 'MISSED'}")

        # The CLI end to end, for information (process start-up and output included).
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "flake8_dllog.cli", "check", "-j", "1", "--exit-zero", str(corpus)],
                       capture_output=True, timeout=1800, cwd=tmp)
        print(f"(`dllog check -j 1` subprocess wall, once: {time.perf_counter() - t0:.3f} s)")

        flake8_ratio = None
        if not ns.no_flake8:
            launcher = tmp / "flake8_launcher.py"
            launcher.write_text(LAUNCHER, encoding="utf-8")
            with_v = subprocess.run([sys.executable, str(launcher), "--with-dllog", "--version"], capture_output=True, text=True, timeout=120).stdout
            without_v = subprocess.run([sys.executable, str(launcher), "--without-dllog", "--version"], capture_output=True, text=True, timeout=120).stdout
            if "flake8-dllog" not in with_v or "flake8-dllog" in without_v:
                raise SystemExit(f"plugin toggling does not work here:\n{with_v}\n{without_v}")
            args = ["--isolated", "-j", "1", "--select", "E,W,F,C90,DLL", "--exit-zero", "corpus"]
            flake8_once(launcher, "--with-dllog", args, tmp)  # warm-up (page cache, .pyc)
            t_without = t_with = float("inf")
            out_without = out_with = ""
            for _ in range(ns.repeat):  # alternate, so both see the same machine load
                t, out_without = flake8_once(launcher, "--without-dllog", args, tmp)
                t_without = min(t_without, t)
                t, out_with = flake8_once(launcher, "--with-dllog", args, tmp)
                t_with = min(t_with, t)
            n_dll = sum(1 for line in out_with.splitlines() if ": DLL" in line)
            flake8_ratio = t_with / t_without
            print()
            print(f"flake8 -j 1 E,W,F,C90 without plugin : {t_without:8.3f} s   ({len(out_without.splitlines())} findings)")
            print(f"flake8 -j 1 E,W,F,C90,DLL with plugin: {t_with:8.3f} s   ({len(out_with.splitlines())} findings, {n_dll} DLL)")
            print(f"RATIO flake8 with / without dllog    : {flake8_ratio:8.2f}   (goal <= {GOAL_FLAKE8})  "
                  f"{'OK' if flake8_ratio <= GOAL_FLAKE8 else 'MISSED'}")

        missed = ratio > GOAL_PARSE or (flake8_ratio is not None and flake8_ratio > GOAL_FLAKE8)
        if missed or ns.profile:
            profile_engine(files)
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
