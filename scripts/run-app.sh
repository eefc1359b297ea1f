#!/usr/bin/env bash
# Runs one app for npm start: its JSON log lines go to $LOG_DIR/<name>.log, capped at LOG_FILE_MAX_MB
# (default 10) and rotated to <name>.log.1; this terminal shows only warnings and errors, readably.
# Usage: LOG_DIR=<dir> scripts/run-app.sh <name> <node arguments...>
set -euo pipefail
name="$1"; shift
exec node "$@" > >(exec node "$(dirname "${BASH_SOURCE[0]}")/log-sink.mjs" "$LOG_DIR/$name.log") 2>&1
