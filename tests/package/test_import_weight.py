"""What every chart-drawing process imports: nothing that builds a parser it never uses."""

from __future__ import annotations

import subprocess
import sys

LOADED = ("import sys, altair, jupyter_events\n"
          "print(sorted({m.split('.')[0] for m in sys.modules} & {'rfc3987_syntax', 'lark'}))")


def test_importing_altair_builds_no_rfc3987_parsers():
    """jsonschema's format-nongpl extra from 4.25 on imports rfc3987-syntax, which builds three Lark parsers (about
    2 CPU-s) at ``import jsonschema``: in every kernel, pytest worker and JupyterLab server.  So
    requirements/constraints.txt pins a jsonschema without it."""
    run = subprocess.run([sys.executable, "-c", LOADED], capture_output=True, text=True, check=True)
    assert run.stdout == "[]\n"
