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

bash scripts/services.sh up

log "building ..."
node scripts/build.mjs
