#!/usr/bin/env bash
# The rxjs dev-set evaluation end to end: services up, build, index rxjs@7.8.2's src/ as repository
# `rxjs` WITHOUT its doc comments (the queries are made of them), run `scopegraph eval` in every mode,
# print the table and keep the JSON.
#
#   bash bench/search/eval-run.sh            # or: npm run eval   (EVAL_MODES=..., EVAL_K=...)
#
# Uses the API at SCOPEGRAPH_URL (default http://127.0.0.1:4000/graphql, as the CLI does) when one
# answers; otherwise, or with EVAL_FRESH_API=1 (to measure this build rather than whatever is
# running), starts an API and a worker from dist/ on a free port with a queue prefix of their own
# and stops them (and only them) at the end. Output: .cache/eval/rxjs-dev.json (report with per-query ranks) and
# .cache/eval/rxjs-graph-no-expand.json (the graph questions judged without expansion).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
MODES="${EVAL_MODES:-semantic,bm25,hybrid,semantic_rerank}"
K="${EVAL_K:-10}"
DATASET="bench/search/datasets/rxjs-dev.jsonl"
OUT=".cache/eval"
mkdir -p "$OUT"
log() { printf '[eval] %s\n' "$*" >&2; }

log "services ..."
bash scripts/services.sh up >&2
if [ "${EVAL_SKIP_BUILD:-0}" != "1" ]; then
  log "building ..."
  npm run --silent build >&2
fi

started=()
stop_started() {
  for pid in "${started[@]:-}"; do
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  done
}
trap stop_started EXIT

if [ "${EVAL_FRESH_API:-0}" != "1" ] && node bin/scopegraph health >/dev/null 2>&1; then
  log "using the running API"
else
  port="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{process.stdout.write(String(s.address().port));s.close()})')"
  export API_PORT="$port" QUEUE_PREFIX="eval$(date +%s)" SCOPEGRAPH_URL="http://127.0.0.1:$port/graphql"
  log "starting an API (port $port) and a worker from dist/ (logs in $OUT/)"
  node dist/apps/api/src/main.js >"$OUT/api.log" 2>&1 &
  started+=("$!")
  node dist/apps/worker/src/main.js >"$OUT/worker.log" 2>&1 &
  started+=("$!")
  for _ in $(seq 1 120); do
    if node bin/scopegraph health >/dev/null 2>&1 && grep -q 'ready (pid' "$OUT/worker.log"; then break; fi
    sleep 1
  done
  node bin/scopegraph health >/dev/null || { cat "$OUT/api.log" >&2; exit 1; }
fi

RXJS="$(node -e 'process.stdout.write(require("./dist/bench/search/build-dataset.js").rxjsRoot())')"
log "indexing $RXJS as rxjs (doc comments excluded) ..."
timeout 900 node bin/scopegraph index "$RXJS" --name rxjs --exclude-doc-comments >&2

# BM25 statistics (IDF) are index-wide, so what else is indexed moves the keyword scores a little.
log "indexed repositories (the full-text statistics span all of them):"
node bin/scopegraph repos >&2
log "eval: $(grep -c . "$DATASET") queries x modes $MODES ..."
node bin/scopegraph eval --dataset "$DATASET" --modes "$MODES" --k "$K" --json >"$OUT/rxjs-dev.json"
grep '"expand":{' "$DATASET" >"$OUT/rxjs-graph-questions.jsonl"
node bin/scopegraph eval --dataset "$OUT/rxjs-graph-questions.jsonl" --modes "$MODES" --k "$K" --no-expand --json >"$OUT/rxjs-graph-no-expand.json"

node -e '
const { formatEval } = require("./dist/apps/cli/src/commands/eval.command.js");
const [dev, noExpand] = process.argv.slice(1).map((f) => JSON.parse(require("fs").readFileSync(f, "utf8")));
process.stdout.write(formatEval(dev, "rxjs-dev.jsonl"));
process.stdout.write("\n" + formatEval(noExpand, "graph questions WITHOUT expansion"));
' "$OUT/rxjs-dev.json" "$OUT/rxjs-graph-no-expand.json"
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const summary = { dataset: r.dataset, k: r.k, topK: r.topK, systems: r.systems.map((s) => ({ mode: s.system, metrics: s.metrics, latencyMs: s.latencyBySubset })) };
process.stdout.write(JSON.stringify(summary) + "\n");
' "$OUT/rxjs-dev.json"
log "full report with per-query ranks: $OUT/rxjs-dev.json"
