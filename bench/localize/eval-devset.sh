#!/usr/bin/env bash
# The issue-localization dev set end to end: build it (instances + base snapshots, see
# build-devset.ts), index every snapshot under its instance id, then `scopegraph eval` with BM25,
# hybrid and LOCALIZE side by side in one run (function Acc@1/5/10, file Acc@1/5, any-hit@10, per
# project and overall).
#
#   bash bench/localize/eval-devset.sh        (EVAL_MODES=bm25,hybrid,localize by default)
#
# Expects Neo4j and Redis running (.env) and dist/ built. Starts an API and a worker of its own on a
# free port with their own queue prefix, and stops them (only them) on exit.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
MODES="${EVAL_MODES:-bm25,hybrid,localize}"
DATA="${LOCALIZE_DATA:-bench/localize/datasets}"
OUT=".cache/eval"
mkdir -p "$OUT" "$DATA"
log() { printf '[localize-eval] %s\n' "$*" >&2; }

if [ ! -s "$DATA/issues-dev.jsonl" ]; then
  log "building the dev set ..."
  node dist/bench/localize/build-devset.js --out "$DATA/issues-dev.jsonl" --tsv "$DATA/snapshots.tsv"
fi

started=()
trap 'for pid in "${started[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done' EXIT
port="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{process.stdout.write(String(s.address().port));s.close()})')"
export API_PORT="$port" QUEUE_PREFIX="loc$(date +%s)" SCOPEGRAPH_URL="http://127.0.0.1:$port/graphql" API_RATE_LIMIT_PER_MIN=1000000
log "API on port $port, worker (logs in $OUT/localize-*.log)"
node dist/apps/api/src/main.js >"$OUT/localize-api.log" 2>&1 &
started+=("$!")
node dist/apps/worker/src/main.js >"$OUT/localize-worker.log" 2>&1 &
started+=("$!")
for _ in $(seq 1 120); do
  if node bin/scopegraph health >/dev/null 2>&1 && grep -q 'ready (pid' "$OUT/localize-worker.log"; then break; fi
  sleep 1
done

if [ "${SKIP_INDEX:-0}" != "1" ]; then
  while IFS=$'\t' read -r repo dir; do
    log "indexing $repo ..."
    timeout 1800 node bin/scopegraph index "$dir" --name "$repo" --json >"$OUT/index-$repo.json"
  done <"$DATA/snapshots.tsv"
fi

log "eval: $(grep -c . "$DATA/issues-dev.jsonl") issues x $MODES ..."
node bin/scopegraph eval --dataset "$DATA/issues-dev.jsonl" --modes "$MODES" --k 10 --json >"$OUT/localize-dev.json"
node bin/scopegraph eval --dataset "$DATA/issues-dev.jsonl" --modes "$MODES" --k 10 | tee "$OUT/localize-dev.txt"
