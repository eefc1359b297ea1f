#!/usr/bin/env bash
# The rxjs dev-set evaluation end to end: services up, build, index rxjs@7.8.2's src/ as repository
# `rxjs` WITHOUT its doc comments (the queries are made of them), run `scopegraph eval` in every mode,
# print the table and keep the JSON.
#
#   bash bench/search/eval-run.sh            # or: npm run eval   (EVAL_MODES=..., EVAL_K=...)
#
# API: see eval-stack.sh (the running one, or one started for the run with EVAL_FRESH_API=1).
# Output: .cache/eval/rxjs-dev.json (report with per-query ranks) and
# .cache/eval/rxjs-graph-no-expand.json (the graph questions judged without expansion).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
DATASET="bench/search/datasets/rxjs-dev.jsonl"
# shellcheck source=bench/search/eval-stack.sh
source bench/search/eval-stack.sh

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
