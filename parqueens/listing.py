"""``parqueens.listing``, where the documentation (docs/library.md) shows it: the
module itself is :mod:`parqueens.run.listing`, and this name is that same module
(attributes set here are set there)."""

import sys

from .run import listing

sys.modules[__name__] = listing
