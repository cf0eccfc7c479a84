"""``parqueens.store``, where the documentation (docs/library.md) shows it: the
module itself is :mod:`parqueens.run.store`, and this name is that same module
(attributes set here are set there)."""

import sys

from .run import store

sys.modules[__name__] = store
