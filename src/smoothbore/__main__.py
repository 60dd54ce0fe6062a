"""``python -m smoothbore`` runs the command line.

``python -m`` puts the working directory first on ``sys.path``, so that a file beside a
record (``evil.py``, a ``*.dist-info`` with entry points) could be imported as a module or
ruleset: it is taken off before anything more is imported (as ``python -P`` does; issue 28)."""

import os
import sys

if not sys.flags.safe_path and sys.path and sys.path[0] in ("", os.getcwd()):
    del sys.path[0]

from smoothbore.cli import main

sys.exit(main())
