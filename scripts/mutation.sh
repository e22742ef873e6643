#!/usr/bin/env bash
# Mutation testing of the engine's rules and notation (mutmut 3), outside the default test run:
#   scripts/mutation.sh [MAX_CHILDREN]
# Mutates amoeboid_edu/engine/rules.py and notation.py ([tool.mutmut] in pyproject.toml), runs the fast engine tests
# against every mutant, and prints the kill rate.  Takes 10-30 minutes on two cores; run it under `nice`
# on a shared machine.  Survivors: `.venv/bin/mutmut results`, one in full: `.venv/bin/mutmut show NAME`.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
[ -x "$PY" ] || ./dev.sh setup
"$PY" -m pip install --quiet --disable-pip-version-check -c requirements/constraints.txt -e ".[test,mutation]" 2>&1 |
  { grep -v "is ignored: it is neither a file nor a directory" || true; }
rm -rf mutants
.venv/bin/mutmut run --max-children "${1:-2}" >/dev/null 2>&1 || true
.venv/bin/mutmut export-cicd-stats >/dev/null 2>&1 || true
"$PY" - <<'PY'
"""The kill rate from mutmut's own per-mutant results (mutants/*.meta)."""
import collections, json, pathlib

counts = collections.Counter()
for meta in pathlib.Path("mutants").rglob("*.py.meta"):
    for name, code in json.loads(meta.read_text())["exit_code_by_key"].items():
        status = {0: "survived", 1: "killed", 3: "killed", 33: "no tests", 34: "skipped", 36: "timeout",
                  None: "not checked", -24: "timeout", 24: "timeout", 152: "timeout"}.get(code, f"exit {code}")
        counts[status] += 1
total = sum(counts.values())
killed = counts["killed"] + counts["timeout"]
print(", ".join(f"{status}: {count}" for status, count in sorted(counts.items())))
print(f"killed {killed}/{total} = {killed / max(total, 1):.1%} (timeouts count as killed)")
PY
