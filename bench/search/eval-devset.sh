#!/usr/bin/env bash
# The second dev set end to end: fetch its pinned codebases (@tanstack/query-core, marshmallow,
# pythonnet; sha256-checked), check the dataset against their code, index each under its repository
# name (doc comments kept: the questions are hand-written, not taken from them), run `scopegraph
# eval` in every mode, and check the issue's targets per question type (table + one JSON line on stdout).
#
#   bash bench/search/eval-devset.sh         # or: npm run eval:devset   (EVAL_MODES=..., EVAL_K=...)
#
# API: see eval-stack.sh. Output: .cache/eval/questions-dev.json (report with per-query ranks) and
# .cache/eval/devset-targets.json. When .cache/eval/rxjs-dev.json exists (npm run eval), the targets
# also compare it with the recorded rxjs baseline (datasets/rxjs-baseline.json), and when
# .cache/eval/dist-check.json exists (npm run eval:dist), they include the published-package targets.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
DATASET="bench/search/datasets/questions-dev.jsonl"
# shellcheck source=bench/search/eval-stack.sh
source bench/search/eval-stack.sh

log "codebases (fetched once into .cache/bench, sha256-checked) ..."
node dist/bench/search/devset-corpora.js >"$OUT/devset-corpora.tsv"
node dist/bench/search/check-devset.js >&2
while IFS=$'\t' read -r repo root; do
  log "indexing $root as $repo ..."
  timeout 1800 node bin/scopegraph index "$root" --name "$repo" >&2
done <"$OUT/devset-corpora.tsv"

log "eval: $(grep -c . "$DATASET") queries x modes $MODES ..."
node bin/scopegraph eval --dataset "$DATASET" --modes "$MODES" --k "$K" --json >"$OUT/questions-dev.json"
node -e '
const { formatEval } = require("./dist/apps/cli/src/commands/eval.command.js");
process.stdout.write(formatEval(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")), "questions-dev.jsonl"));
' "$OUT/questions-dev.json"
extra=()
[ -f "$OUT/rxjs-dev.json" ] && extra+=(--rxjs "$OUT/rxjs-dev.json")
[ -f "$OUT/dist-check.json" ] && extra+=(--dist-check "$OUT/dist-check.json")
node dist/bench/search/devset-targets.js --devset "$OUT/questions-dev.json" "${extra[@]}" --out "$OUT/devset-targets.json"
