"""``python -m parqueens``: the same as the ``parqueens`` command."""

from .cli import console_main

console_main()
