#!/usr/bin/env bash
# One entry point for a fresh machine (see README):
#   ./dev.sh course [ARGS] set up .venv and open the course in JupyterLab; ARGS go to jupyter lab
#   ./dev.sh test [ARGS]   set up .venv (and Chromium) and run every test; ARGS go to pytest
#   ./dev.sh setup         only set up .venv
set -euo pipefail
cd "$(dirname "$0")"
VENV="${AMOEBOID_VENV:-.venv}"
PY="$VENV/bin/python"

setup_venv() {
  if [ ! -x "$PY" ]; then
    echo "==> creating $VENV (python3 $(python3 -c 'import sys; print(*sys.version_info[:3], sep=".")'))"
    python3 -m venv "$VENV"
  fi
  # Reinstall only when the package's declared dependencies or pins change.
  local stamp="$VENV/.amoeboid-installed"
  local want
  want=$(cat pyproject.toml requirements/constraints.txt | sha256sum | cut -d' ' -f1)
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "==> installing amoeboid_edu and its pinned dependencies into $VENV"
    # (the filter drops this machine's harmless pip notes about missing local mirrors)
    "$PY" -m pip install --quiet --disable-pip-version-check -c requirements/constraints.txt -e ".[course,test,cluster,openspiel]" 2>&1 |
      { grep -v "is ignored: it is neither a file nor a directory" || true; }
    echo "$want" >"$stamp"
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
    setup_venv
    ;;
  course)
    shift
    setup_venv
    root_flag=()
    [ "$(id -u)" -ne 0 ] || root_flag=(--allow-root)
    # Sign the committed lessons in this machine's trust database: their charts and pictures render before Run All.
    "$VENV/bin/jupyter" trust lessons/*.ipynb lessons/solutions/*.ipynb >/dev/null ||
      echo "note: could not sign the lessons; their charts show once a lesson is run" >&2
    # Open the start-here lesson itself (a file argument alone starts JupyterLab without opening it).
    exec "$VENV/bin/jupyter" lab "${root_flag[@]}" --LabApp.default_url=/lab/tree/lessons/01-start-here.ipynb "$@"
    ;;
  test)
    shift
    setup_venv
    ensure_chromium
    exec "$PY" -m pytest "$@"
    ;;
  *)
    echo "usage: ./dev.sh course | test [pytest args] | setup" >&2
    exit 2
    ;;
esac
