#!/usr/bin/env bash
# npm test: set up what is missing (packages, model, Neo4j, Redis, build), type-check, then run the
# unit tests and the e2e tests against the real services. Services this script started are stopped
# at the end unless SCOPEGRAPH_KEEP_SERVICES=1.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
started_at=$SECONDS

was_running="$(bash scripts/services.sh status 2>/dev/null | grep -c ': running' || true)"
stop_services() {
  if [ "${SCOPEGRAPH_KEEP_SERVICES:-0}" != "1" ] && [ "$was_running" = "0" ]; then bash scripts/services.sh down || true; fi
}
trap stop_services EXIT

bash scripts/setup.sh
echo "[test] set-up done at $((SECONDS - started_at))s"

echo "[test] type-checking ..."
npx tsc -p tsconfig.json --noEmit
npx tsc -p apps/web/tsconfig.json --noEmit
npx tsc -p apps/web/tsconfig.node.json --noEmit

echo "[test] checking module boundaries ..."
node scripts/check-boundaries.mjs
echo "[test] type-checked at $((SECONDS - started_at))s"

mkdir -p .cache/test
status=0
# The web console's e2e drives Debian's Chromium; without it that spec fails, saying so, and the rest runs.
bash scripts/chromium.sh || status=1
# Unit specs on two workers (jest's default on a 2-core machine is one).
npx jest --selectProjects unit --maxWorkers=2 --json --outputFile=.cache/test/unit.json || status=1
# e2e specs two at a time, longest first (test/support/sequencer.js). They share one Neo4j and Redis:
# each spec works in repositories, key prefixes and models named by its own run id, and a spec that
# compares two reads whose BM25 scores move with the whole full-text index compares them only while
# nothing changed in between (test/support/settled.ts).
# --forceExit: a failing e2e spec can leave a socket open; the run must still end and report it.
npx jest --selectProjects e2e --maxWorkers=2 --forceExit --json --outputFile=.cache/test/e2e.json || status=1

node -e '
const fs = require("fs");
let passed = 0, failed = 0, skipped = 0;
for (const f of [".cache/test/unit.json", ".cache/test/e2e.json"]) {
  if (!fs.existsSync(f)) { failed++; continue; }
  const r = JSON.parse(fs.readFileSync(f, "utf8"));
  passed += r.numPassedTests; failed += r.numFailedTests + (r.numRuntimeErrorTestSuites || 0); skipped += r.numPendingTests + (r.numTodoTests || 0);
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
'
echo "[test] total time $((SECONDS - started_at))s"
exit $status
