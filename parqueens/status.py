"""``parqueens.status``, where the documentation (docs/library.md) shows it: the
module itself is :mod:`parqueens.run.status`, and this name is that same module
(attributes set here are set there)."""

import sys

from .run import status

sys.modules[__name__] = status
