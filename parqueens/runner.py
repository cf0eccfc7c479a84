"""``parqueens.runner``, where the documentation (docs/library.md) shows it: the
module itself is :mod:`parqueens.run.runner`, and this name is that same module
(attributes set here are set there)."""

import sys

from .run import runner

sys.modules[__name__] = runner
