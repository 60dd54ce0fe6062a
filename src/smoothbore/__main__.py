"""``python -m smoothbore`` runs the command line."""

import sys

from smoothbore.cli import main

sys.exit(main())
