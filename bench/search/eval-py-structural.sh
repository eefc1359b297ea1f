#!/usr/bin/env bash
# Relationship questions in plain words on Python: datasets/py-structural-dev.jsonl (requests, jinja2)
# plus the second dev set's marshmallow structural questions, indexed with the Python resolver of
# INGEST_PY_RESOLVER (fast | precise) under repository names of their own (prefix EVAL_PY_PREFIX,
# default `pystruct-<resolver>-`, so the shared dev-set repositories are left as they are), then
# `scopegraph eval` (R@10 per mode) and the share of answers found.
#
#   INGEST_PY_RESOLVER=fast bash bench/search/eval-py-structural.sh      # then =precise
#
# API: see eval-stack.sh (set EVAL_FRESH_API=1: the worker must run with this resolver).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
RESOLVER="${INGEST_PY_RESOLVER:-fast}"
PREFIX="${EVAL_PY_PREFIX:-pystruct-$RESOLVER-}"
# shellcheck source=bench/search/eval-stack.sh
source bench/search/eval-stack.sh

node dist/bench/search/check-devset.js --corpora py >&2
{ node dist/bench/search/devset-corpora.js --py; node dist/bench/search/devset-corpora.js | grep '^marshmallow	'; } >"$OUT/py-structural-corpora.tsv"
DATASET="$OUT/py-structural-$RESOLVER.jsonl"
node -e '
const fs = require("fs");
const [prefix, out, ...files] = process.argv.slice(1);
const lines = files.flatMap((f) => fs.readFileSync(f, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)))
  .filter((q) => q.type === "structural" && (q.repo !== "marshmallow" || q.id.startsWith("marshmallow-str")))
  .filter((q) => ["requests", "jinja2", "marshmallow"].includes(q.repo))
  .map((q) => JSON.stringify({ ...q, repo: prefix + q.repo }));
fs.writeFileSync(out, lines.join("\n") + "\n");
' "$PREFIX" "$DATASET" bench/search/datasets/py-structural-dev.jsonl bench/search/datasets/questions-dev.jsonl
while IFS=$'\t' read -r repo root; do
  log "indexing $root as $PREFIX$repo (INGEST_PY_RESOLVER=$RESOLVER) ..."
  timeout 1800 node bin/scopegraph index "$root" --name "$PREFIX$repo" >&2
done <"$OUT/py-structural-corpora.tsv"
log "eval: $(grep -c . "$DATASET") questions x modes $MODES ..."
node bin/scopegraph eval --dataset "$DATASET" --modes "$MODES" --k "$K" --json >"$OUT/py-structural-$RESOLVER.json"
node -e '
const { formatEval } = require("./dist/apps/cli/src/commands/eval.command.js");
process.stdout.write(formatEval(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")), "py-structural (" + process.argv[2] + ")"));
' "$OUT/py-structural-$RESOLVER.json" "$RESOLVER"
