"""Positional Encoding Studio — entry point.

``python main.py`` opens the window; ``python main.py --help`` lists the command-line
commands (``views``, ``export``, ``present``). Before Qt starts a window, the libraries of
Qt's X11 (xcb) platform plugin are checked (:mod:`core.platform_check`): if one is missing,
one line names it and the ``apt`` command installing it, and the exit status is 2 (instead
of Qt's abort with a core dump).
"""

from __future__ import annotations

import sys
import time

_T0 = time.perf_counter()


def _opens_window(args: list[str]) -> bool:
    """Whether ``args`` start Qt on a screen (the window or ``present``; not ``--help``)."""
    if not args:
        return True
    return args[0] == "present" and not {"-h", "--help"} & set(args[1:])


def main(argv: list[str] | None = None) -> int:
    """Dispatch to the GUI or the command line; return the exit status."""
    args = sys.argv[1:] if argv is None else list(argv)
    if _opens_window(args):
        from core.platform_check import EXIT_MISSING_LIBRARIES, xcb_problem

        problem = xcb_problem()
        if problem is not None:
            print(problem, file=sys.stderr)
            return EXIT_MISSING_LIBRARIES
    if not args:
        from gui.app import run_gui

        return run_gui(_T0)
    from gui.cli import main as cli_main

    return cli_main(args, _T0)


if __name__ == "__main__":
    sys.exit(main())
