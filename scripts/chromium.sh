#!/usr/bin/env bash
# Debian's Chromium for the web console's browser e2e (test/console), installed like Redis in
# services.sh: apt-get, once. playwright-core drives it; Playwright's own browser download cannot
# run here. CHROMIUM_PATH points the test at another Chromium and skips the install.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
log() { printf '[chromium] %s\n' "$*" >&2; }

[ -x "$CHROMIUM" ] && exit 0
[ -n "${CHROMIUM_PATH:-}" ] && { log "ERROR: CHROMIUM_PATH=$CHROMIUM is not an executable"; exit 1; }
command -v apt-get >/dev/null 2>&1 || { log "ERROR: $CHROMIUM is missing and apt-get is not available: install Chromium or set CHROMIUM_PATH"; exit 1; }
mkdir -p "$ROOT/.services"
LOG="$ROOT/.services/chromium-install.log"
log "installing Debian's chromium for the browser e2e ..."
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
{ $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium; } > "$LOG" 2>&1 \
  || { tail -n 20 "$LOG" >&2; log "ERROR: apt-get could not install chromium (log: $LOG)"; exit 1; }
"$CHROMIUM" --version >&2
