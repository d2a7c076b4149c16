#!/usr/bin/env bash
# Installs what the fix tests need into the test Python: torch (the CPU wheel; never plain
# `torch`, which pulls CUDA), TensorBoard (SummaryWriter + EventAccumulator) and MLflow's
# skinny client (its local file store is enough). Used by tests/test_fix_scripts.py, whose
# fixed training scripts really run. Idempotent; no stdin.
set -euo pipefail
PY="${PYTHON:-python3}"
export PIP_DISABLE_PIP_VERSION_CHECK=1

if ! "$PY" -c 'import torch, sys; sys.exit(torch.__version__.split("+")[0] != "2.13.0")' >/dev/null 2>&1; then
  "$PY" -m pip install --quiet "torch==2.13.0" </dev/null
fi
if ! "$PY" -c 'import tensorboard, mlflow, hypothesis, libcst' >/dev/null 2>&1; then
  "$PY" -m pip install --quiet tensorboard mlflow-skinny "hypothesis>=6" "libcst>=1.1" </dev/null
fi
"$PY" -c 'import torch, tensorboard, mlflow; print("fix tests: torch", torch.__version__, "tensorboard", tensorboard.__version__, "mlflow", mlflow.__version__)'
