#!/usr/bin/env bash
# The native Python checker INGEST_PY_CHECKER=ty runs: ty's binary from its wheel (pinned), unpacked
# into .cache/pycheckers/ty/ty. Needs python3 with pip (the package registry, nothing else). Never
# fatal: without it, INGEST_PY_CHECKER=ty falls back to pyright and every index run says so.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TY_VERSION="${TY_VERSION:-0.0.108}"
DEST="$ROOT/.cache/pycheckers/ty"
log() { printf '[pycheckers] %s\n' "$*" >&2; }

if [ -x "$DEST/ty" ] && [ "$(cat "$DEST/VERSION" 2>/dev/null)" = "$TY_VERSION" ]; then exit 0; fi
PY="$(command -v python3 || command -v python || true)"
if [ -z "$PY" ] || ! "$PY" -m pip --version >/dev/null 2>&1; then
  log "python3 with pip not found: ty not installed (INGEST_PY_CHECKER=ty will use pyright)"
  exit 0
fi
TMP="$(mktemp -d "${TMPDIR:-/tmp}/scopegraph-ty.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
log "installing ty $TY_VERSION ..."
if ! "$PY" -m pip download --quiet --disable-pip-version-check --no-deps --only-binary :all: --dest "$TMP" "ty==$TY_VERSION" >&2; then
  log "pip could not download ty $TY_VERSION: not installed (INGEST_PY_CHECKER=ty will use pyright)"
  exit 0
fi
# The wheel is a zip whose binary sits under ty-<version>.data/scripts/ (python's zipfile: no unzip needed).
if ! "$PY" - "$TMP" "$DEST" <<'PYEOF'
import glob, os, stat, sys, zipfile
tmp, dest = sys.argv[1], sys.argv[2]
wheel = glob.glob(os.path.join(tmp, "ty-*.whl"))[0]
with zipfile.ZipFile(wheel) as z:
    name = next(n for n in z.namelist() if n.endswith(".data/scripts/ty"))
    os.makedirs(dest, exist_ok=True)
    part = os.path.join(dest, "ty.part")
    with z.open(name) as src, open(part, "wb") as out:
        out.write(src.read())
    os.chmod(part, os.stat(part).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    os.replace(part, os.path.join(dest, "ty"))
PYEOF
then
  log "could not unpack ty's wheel: not installed (INGEST_PY_CHECKER=ty will use pyright)"
  exit 0
fi
if ! "$DEST/ty" --version >/dev/null 2>&1; then
  log "ty's binary does not run on this machine: removed (INGEST_PY_CHECKER=ty will use pyright)"
  rm -f "$DEST/ty"
  exit 0
fi
echo "$TY_VERSION" >"$DEST/VERSION"
log "ty $("$DEST/ty" --version | awk '{print $2}') installed in .cache/pycheckers/ty"
