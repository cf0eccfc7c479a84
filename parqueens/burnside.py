"""``parqueens.burnside``, where the documentation (docs/library.md) shows it:
the module itself is :mod:`parqueens.join.burnside`, and this name is that
same module (attributes set here are set there)."""

import sys

from .join import burnside

sys.modules[__name__] = burnside
