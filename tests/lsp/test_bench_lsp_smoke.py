"""benchmarks/bench_lsp.py still runs end to end (tiny sizes; no timing is asserted here —
speed goals live in the benchmark's printed ratios)."""
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.timeout(300)
def test_bench_lsp_runs_and_prints_ratios():
    proc = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "bench_lsp.py"), "--lines", "400", "--runs", "3", "--fix-runs", "2",
         "--timeout", "120"],
        capture_output=True, text=True, timeout=280, cwd=REPO, stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "400-line training script" in proc.stdout
    assert proc.stdout.count("ratio: p50") == 2, proc.stdout
