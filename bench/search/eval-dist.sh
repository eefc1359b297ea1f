#!/usr/bin/env bash
# A published package indexed as published (src/ and its build output) against its src/ alone, every
# mode, on the @tanstack/query-core questions of the second dev set (bench/search/dist-check.ts):
# table, one JSON line, and .cache/eval/dist-check.json, which `npm run eval:devset` adds to its targets.
#
#   bash bench/search/eval-dist.sh      # or: npm run eval:dist   (EVAL_SKIP_BUILD=1 to skip the build)
#
# Runs in process against this worktree's services (no API needed).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
log() { printf '[eval:dist] %s\n' "$*" >&2; }
log "services ..."
bash scripts/services.sh up >&2
if [ "${EVAL_SKIP_BUILD:-0}" != "1" ]; then
  log "building ..."
  npm run --silent build >&2
fi
node dist/bench/search/dist-check.js --json .cache/eval/dist-check.json
