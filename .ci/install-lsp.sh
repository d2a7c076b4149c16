#!/usr/bin/env bash
# Installs what the language-server tests need: pygls/pytest-lsp into the test Python and
# Debian's Neovim (headless editor for tests/lsp/test_nvim_e2e.py). Idempotent; runs as root.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
PY="${PYTHON:-python3}"

if ! "$PY" -c 'import pygls, lsprotocol, pytest_lsp, pytest_asyncio, pytest_timeout' >/dev/null 2>&1; then
  "$PY" -m pip install --quiet --disable-pip-version-check \
    "pygls>=2,<3" "lsprotocol>=2023.0.1" "pytest-lsp>=1" "pytest-asyncio>=0.23" "pytest-timeout>=2" </dev/null
fi

if ! command -v nvim >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; fi
  $SUDO apt-get update -qq </dev/null
  $SUDO apt-get install -y -qq --no-install-recommends neovim </dev/null
fi
nvim --version | head -n 1
