#!/usr/bin/env bash
# One entry point for a fresh machine (see README):
#   ./dev.sh course [ARGS] set up .venv with the course alone and open it in JupyterLab; ARGS go to jupyter lab
#   ./dev.sh test [ARGS]   set up .venv (and Chromium) and run every test; ARGS go to pytest
#   ./dev.sh setup         only set up .venv
set -euo pipefail
cd "$(dirname "$0")"
VENV="${AMOEBOID_VENV:-.venv}"
PY="$VENV/bin/python"
ALL_EXTRAS="course,test,cluster,openspiel"
# Written for bash 3.2 too (macOS's stock bash): no empty-array expansions under set -u; the hash by Python.

setup_venv() {
  # $1: the extras to install ("course" for the course alone; the tests need them all).
  local extras="$1"
  if [ ! -x "$PY" ]; then
    echo "==> creating $VENV (python3 $(python3 -c 'import sys; print(*sys.version_info[:3], sep=".")'))"
    python3 -m venv "$VENV"
  fi
  # Reinstall only when the package's declared dependencies or pins change, or more extras are wanted.
  local stamp="$VENV/.amoeboid-installed"
  local want have=""
  want=$(cat pyproject.toml requirements/constraints.txt | "$PY" -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')
  [ ! -f "$stamp" ] || have=$(cat "$stamp")
  # the stamp is "HASH EXTRAS": a venv set up for the tests (all extras) also serves the course
  if [ "$have" != "$want $extras" ] && [ "$have" != "$want $ALL_EXTRAS" ]; then
    echo "==> installing amoeboid_edu[$extras] and its pinned dependencies into $VENV"
    # (the filter drops this machine's harmless pip notes about missing local mirrors)
    # pip byte-compiles on one core; compileall then does it on every core.
    "$PY" -m pip install --quiet --disable-pip-version-check --no-compile -c requirements/constraints.txt -e ".[$extras]" 2>&1 |
      { grep -v "is ignored: it is neither a file nor a directory" || true; }
    # (a file that does not compile is listed and skipped, as pip skips it; the packages still work, only slower)
    "$PY" -m compileall -q -j 0 "$("$PY" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')" ||
      echo "note: some installed files were not byte-compiled (python -m compileall lists them); imports are slower" >&2
    echo "$want $extras" >"$stamp"
  fi
}

ensure_chromium() {
  # The browser tests drive Debian's Chromium (never a downloaded browser build).
  if [ -x /usr/bin/chromium ]; then return; fi
  echo "==> installing Debian's chromium for the browser tests"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
}

case "${1:-}" in
  setup)
    setup_venv "$ALL_EXTRAS"
    echo "==> ready: $VENV (./dev.sh course opens the course, ./dev.sh test runs every test)"
    ;;
  course)
    shift
    setup_venv course
    # Jupyter refuses to run as root without --allow-root (added as an argument: bash 3.2 cannot expand an
    # empty array under set -u).
    [ "$(id -u)" -ne 0 ] || set -- --allow-root "$@"
    # Compile the coach's kernel into Numba's cache once, so the first review in class starts at once.
    "$PY" -m amoeboid_edu.theory._tails >/dev/null 2>&1 || true
    # Sign the committed lessons in this machine's trust database: their charts and pictures render before Run All.
    "$VENV/bin/jupyter" trust lessons/*.ipynb lessons/solutions/*.ipynb >/dev/null ||
      echo "note: could not sign the lessons; their charts show once a lesson is run" >&2
    # Open the start-here lesson itself (a file argument alone starts JupyterLab without opening it).
    exec "$VENV/bin/jupyter" lab --LabApp.default_url=/lab/tree/lessons/01-start-here.ipynb "$@"
    ;;
  test)
    shift
    setup_venv "$ALL_EXTRAS"
    ensure_chromium
    # As for the course: the coach's kernel compiled into Numba's cache before any test reviews a game in a browser.
    "$PY" -m amoeboid_edu.theory._tails >/dev/null 2>&1 || true
    exec "$PY" -m pytest "$@"
    ;;
  *)
    echo "usage: ./dev.sh course | test [pytest args] | setup" >&2
    exit 2
    ;;
esac
