"""``python -m parqueens``: the same as the ``parqueens`` command."""

import sys

from .cli import main

sys.exit(main())
