#!/usr/bin/env bash
# The per-language dev set end to end: fetch its pinned packages (Go module, Maven sources jar, crates,
# PyPI sdist, Debian packages; sha256-checked), check the dataset against their code, index each under
# its repository name (doc comments kept: the questions are hand-written), run `scopegraph eval` in
# semantic, bm25 and hybrid modes, and check the targets per language and question type (tables +
# one JSON line on stdout).
#
#   bash bench/search/eval-lang.sh         # or: npm run eval:lang   (EVAL_MODES=..., EVAL_K=...)
#
# API: see eval-stack.sh. Output: .cache/eval/lang-dev.json (report with per-query ranks, per
# language) and .cache/eval/lang-targets.json.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
DATASET="bench/search/datasets/lang-dev.jsonl"
EVAL_MODES="${EVAL_MODES:-semantic,bm25,hybrid}"
# shellcheck source=bench/search/eval-stack.sh
source bench/search/eval-stack.sh

log "packages (fetched once into .cache/bench, sha256-checked) ..."
node dist/bench/search/lang-corpora.js >"$OUT/lang-corpora.tsv"
node dist/bench/search/check-devset.js --corpora lang >&2
while IFS=$'\t' read -r repo root exclude; do
  args=()
  if [ -n "$exclude" ]; then IFS=',' read -ra globs <<<"$exclude"; args+=(--exclude "${globs[@]}"); fi
  log "indexing $root as $repo ..."
  timeout 3600 node bin/scopegraph index "$root" --name "$repo" "${args[@]}" </dev/null >&2
done <"$OUT/lang-corpora.tsv"

log "eval: $(grep -c . "$DATASET") queries x modes $MODES ..."
node bin/scopegraph eval --dataset "$DATASET" --modes "$MODES" --k "$K" --json >"$OUT/lang-dev.json"
node -e '
const { formatEval } = require("./dist/apps/cli/src/commands/eval.command.js");
process.stdout.write(formatEval(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")), "lang-dev.jsonl"));
' "$OUT/lang-dev.json"
node dist/bench/search/devset-targets.js --lang "$OUT/lang-dev.json" --out "$OUT/lang-targets.json"
