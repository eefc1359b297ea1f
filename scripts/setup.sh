#!/usr/bin/env bash
# Everything a fresh clone needs before it can run or test: npm packages, the local embedding model,
# Neo4j + Redis (unless NEO4J_URI / REDIS_URL point elsewhere), and a build. Idempotent and quick
# when nothing changed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
log() { printf '[setup] %s\n' "$*" >&2; }

command -v node >/dev/null 2>&1 || { echo "[setup] ERROR: Node.js 20+ is required" >&2; exit 1; }
node -e 'const [a]=process.versions.node.split(".").map(Number); if (a < 20) { console.error("[setup] ERROR: Node.js 20+ is required, found " + process.version); process.exit(1); }'

# Neo4j and Redis start in the background while packages install and the code builds (Neo4j's JVM
# takes ~30 s to come up, mostly waiting); the build does not need them, and the set-up waits for them
# before it ends, failing if they did not start.
bash scripts/services.sh up &
services=$!
# A step failing below still lets the services' start finish, so whoever stops them finds them settled.
trap 'wait "$services" 2>/dev/null || true' EXIT

# Install when node_modules is missing or older than the lock file. `npm install` (which keeps the
# locked versions) rather than `npm ci`: the registry mirror here serves only this platform's optional
# native packages, so the lock cannot list the others and `npm ci` refuses it as out of sync.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "installing npm packages ..."
  # onnxruntime-node's install script would download CUDA files; the CPU build it ships is what we use.
  ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund --loglevel=error
fi

if [ -f scripts/models.sh ] && [ "${EMBEDDING_PROVIDER:-local}" = "local" ]; then
  bash scripts/models.sh
fi

# ty, the native Python checker INGEST_PY_CHECKER=ty asks (never fatal: pyright answers without it).
bash scripts/pycheckers.sh

log "building ..."
node scripts/build.mjs

wait "$services" || { log "ERROR: Neo4j or Redis did not start (above)"; exit 1; }
trap - EXIT
