"""``parqueens.backends``, where the documentation (docs/library.md) shows it: the
module itself is :mod:`parqueens.run.backends`, and this name is that same module
(attributes set here are set there)."""

import sys

from .run import backends

sys.modules[__name__] = backends
