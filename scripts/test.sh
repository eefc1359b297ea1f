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

mkdir -p .cache/test
status=0
# tsc uses one core: the type-check and the module boundaries run beside the Chromium check and the
# unit specs, and a failure of either stops the run before the e2e specs.
echo "[test] type-checking and checking module boundaries, beside the unit specs ..."
(
  npx tsc -p tsconfig.json --noEmit &&
    npx tsc -p apps/web/tsconfig.json --noEmit &&
    npx tsc -p apps/web/tsconfig.node.json --noEmit &&
    node scripts/check-boundaries.mjs
) > .cache/test/checks.log 2>&1 &
checks=$!
# The web console's e2e drives Debian's Chromium; without it that spec fails, saying so, and the rest runs.
bash scripts/chromium.sh || status=1
# Unit specs on two workers (jest's default on a 2-core machine is one).
npx jest --selectProjects unit --maxWorkers=2 --json --outputFile=.cache/test/unit.json || status=1
if ! wait "$checks"; then
  cat .cache/test/checks.log
  echo "[test] FAILED: type-check or module boundaries (above); e2e specs not run"
  exit 1
fi
tail -1 .cache/test/checks.log
echo "[test] type-checked and unit specs done at $((SECONDS - started_at))s"
# e2e specs two at a time, longest first (test/support/sequencer.js). They share one Neo4j and Redis:
# each spec works in repositories, key prefixes and models named by its own run id, and a spec that
# compares two reads whose BM25 scores move with the whole full-text index compares them only while
# nothing changed in between (test/support/settled.ts).
# --forceExit: a failing e2e spec can leave a socket open; the run must still end and report it.
E2E_SHARED_VECTORS=1 npx jest --selectProjects e2e --maxWorkers=2 --forceExit --json --outputFile=.cache/test/e2e.json || status=1

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
