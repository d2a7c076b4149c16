"""How long fixing a 5,000-line training file takes, relative to one libcst parse of it.

    python benchmarks/bench_fix.py [--lines 5000] [--repeat 5]

Prints the time of the fix stage (plan every fix from the findings and the file's one
parse, apply the edits, check the result parses) divided by ``libcst.parse_module`` of the
same file: the goal is <= 1.5. Detection (the engine's ``check_source``, run again after the
fix to report what remains) is printed separately, with the end-to-end ``fix_source`` time.
Medians of ``--repeat`` runs.
"""
from __future__ import annotations

import argparse
import ast
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import libcst  # noqa: E402

from flake8_dllog.config import Config  # noqa: E402
from flake8_dllog.engine import check_source  # noqa: E402
from flake8_dllog.fixes import _INFO_CACHE, _apply_checked, fix_source, plan_fixes  # noqa: E402

HEADER = '''"""Generated training code for the fix benchmark."""
import argparse

import torch
from torch import nn

'''

BLOCK = '''
def train_{i}(model, loader, optimizer, criterion, epochs, device, ckpt_path):
    """Train variant {i}."""
    model.to(device)
    for epoch in range(epochs):
        for step, (x, y) in enumerate(loader):
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
    torch.save(model.state_dict(), ckpt_path)
    return model


def evaluate_{i}(model, loader, criterion):
    model.eval()
    total = 0.0
    with torch.no_grad():
        for x, y in loader:
            total += criterion(model(x), y).item()
    return total / len(loader)

'''

FOOTER = '''
def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    train_0(nn.Linear(2, 1), [], None, None, 1, "cpu", "m.pt")


if __name__ == "__main__":
    main()
'''


def generate(lines: int) -> str:
    parts = [HEADER]
    i = 0
    while sum(p.count("\n") for p in parts) < lines - FOOTER.count("\n"):
        parts.append(BLOCK.format(i=i))
        i += 1
    parts.append(FOOTER)
    return "".join(parts)


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        _INFO_CACHE.clear()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    ns = parser.parse_args()
    source = generate(ns.lines)
    config = Config()
    path = "train_generated.py"
    findings = check_source(source, path, config).findings
    tree = ast.parse(source)

    def fix_stage():
        # The fix stage reuses the engine's one parse of the file (the ast the findings came from).
        edits, _ = plan_fixes(source, tree, findings, config)
        assert _apply_checked(source, path, edits) is not None

    t_cst = median_time(lambda: libcst.parse_module(source), ns.repeat)
    t_fix = median_time(fix_stage, ns.repeat)
    t_detect = median_time(lambda: check_source(source, path, config), ns.repeat)
    t_total = median_time(lambda: fix_source(source, path, config), ns.repeat)
    result = fix_source(source, path, config)

    print(f"file: {source.count(chr(10))} lines, {len(findings)} findings, {len(result.fixed)} fixed, {len(result.remaining)} remaining, {len(result.edits)} edits")
    print(f"libcst.parse_module:            {t_cst * 1000:8.1f} ms")
    print(f"fix stage (plan + apply + check): {t_fix * 1000:6.1f} ms")
    print(f"detection (check_source):        {t_detect * 1000:7.1f} ms")
    print(f"fix_source end to end:           {t_total * 1000:7.1f} ms  (detect, fix, re-check)")
    ratio = t_fix / t_cst
    print(f"fix stage / libcst parse = {ratio:.2f}  (goal <= 1.5: {'met' if ratio <= 1.5 else 'NOT met'})")
    print(f"end to end / libcst parse = {t_total / t_cst:.2f}  (includes detection twice)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
