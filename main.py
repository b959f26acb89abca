"""Positional Encoding Studio — entry point.

``python main.py`` opens the window; ``python main.py --help`` lists the command-line
commands (``views``, ``export``, ``present``).
"""

from __future__ import annotations

import sys
import time

_T0 = time.perf_counter()


def main(argv: list[str] | None = None) -> int:
    """Dispatch to the GUI or the command line."""
    args = sys.argv[1:] if argv is None else argv
    if not args:
        from gui.app import run_gui

        return run_gui(_T0)
    from gui.cli import main as cli_main

    return cli_main(args, _T0)


if __name__ == "__main__":
    sys.exit(main())
