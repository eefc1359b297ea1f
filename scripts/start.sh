#!/usr/bin/env bash
# npm start: set up whatever is missing, then run the API and the worker in the foreground and show a
# working query. Ctrl-C stops both (Neo4j and Redis keep running: npm run services:down stops them).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash scripts/setup.sh

env_value() { local v="${!1:-}"; [ -n "$v" ] && { echo "$v"; return; }; [ -f .env ] && { grep -E "^$1=" .env || true; } | tail -n1 | cut -d= -f2-; }
HOST="$(env_value API_HOST)"; HOST="${HOST:-127.0.0.1}"
PORT="$(env_value API_PORT)"; PORT="${PORT:-4000}"
HTTP_PORT="$(env_value NEO4J_HTTP_PORT)"; HTTP_PORT="${HTTP_PORT:-7474}"
LOG_DIR="$ROOT/.services/logs"; mkdir -p "$LOG_DIR"

pids=()
cleanup() { trap - INT TERM EXIT; for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup INT TERM EXIT

# Each app's JSON lines go to its log file (capped at LOG_FILE_MAX_MB, default 10, then rotated to
# <file>.1); the terminal shows only warnings and errors, readably, so the welcome screen stays clean.
export LOG_DIR LOG_FILE_MAX_MB="$(env_value LOG_FILE_MAX_MB)"
# V8 grows the old generation by up to 4x after a full collection; an index run's parse leaves much
# garbage behind, so the worker's heap reached ~3x its live data. Growing by 1.25x instead: a 1M-scope
# index's peak is its live data, not V8's headroom (docs/ingest-scale.md, "Heap growth").
bash scripts/run-app.sh worker --heap-growing-percent=25 dist/apps/worker/src/main.js & pids+=($!)
# A larger young generation: a search allocates ~1 MB that dies young, and with V8's default 16 MB
# semi-space the API spent a tenth of its CPU in scavenges (bench/load: +5% req/s, -5% p95, +110 MB RSS).
bash scripts/run-app.sh api --max-semi-space-size=64 dist/apps/api/src/main.js & pids+=($!)

deadline=$((SECONDS + 90))
until curl -sf -o /dev/null -H 'content-type: application/json' -d '{"query":"{__typename}"}' "http://$HOST:$PORT/graphql"; do
  [ $SECONDS -ge $deadline ] && { echo "[start] ERROR: the API did not come up within 90s (log: $LOG_DIR/api.log)" >&2; exit 1; }
  for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null || { echo "[start] ERROR: a process exited during start-up (logs: $LOG_DIR)" >&2; exit 1; }; done
  sleep 0.5
done

node bin/scopegraph welcome || true

cat <<MSG

  scopegraph is running.
    GraphQL        http://$HOST:$PORT/graphql   (subscriptions: ws://$HOST:$PORT/graphql)
    Console        http://$HOST:$PORT/
    GraphiQL       http://$HOST:$PORT/graphiql
    Neo4j Browser  http://127.0.0.1:$HTTP_PORT/browser/   (user neo4j, password NEO4J_PASSWORD in .env)
  Ctrl-C stops the API and worker; npm run services:down stops Neo4j and Redis.

MSG
wait -n "${pids[@]}"
