"""``python -m amoeboid_edu`` is the ``amoeboid`` command."""

import sys

from .cli import main

sys.exit(main())
