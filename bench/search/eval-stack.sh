# Sourced by the eval scripts: services up, build, and an API + worker to talk to.
#
# Uses the API at SCOPEGRAPH_URL (default http://127.0.0.1:4000/graphql, as the CLI does) when one
# answers; otherwise, or with EVAL_FRESH_API=1 (to measure this build rather than whatever is
# running), starts an API and a worker from dist/ on a free port with a queue prefix of their own
# and stops them (and only them) when the calling script exits. Sets MODES, K and OUT (.cache/eval).
# EVAL_SKIP_BUILD=1 uses dist/ as it is; EVAL_SKIP_SERVICES=1 does not run scripts/services.sh.
MODES="${EVAL_MODES:-semantic,bm25,hybrid,semantic_rerank}"
K="${EVAL_K:-10}"
OUT=".cache/eval"
mkdir -p "$OUT"
log() { printf '[eval] %s\n' "$*" >&2; }

# EVAL_SKIP_SERVICES=1: Neo4j and Redis are someone else's (a shared machine): use them as they are.
if [ "${EVAL_SKIP_SERVICES:-0}" != "1" ]; then
  log "services ..."
  bash scripts/services.sh up >&2
fi
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
  # A measurement API of our own: an eval sends over a thousand searches a minute, far past the
  # per-key rate limit a served API keeps.
  export API_PORT="$port" QUEUE_PREFIX="eval$(date +%s)" SCOPEGRAPH_URL="http://127.0.0.1:$port/graphql" API_RATE_LIMIT_PER_MIN=1000000
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
