"""Headless command line: ``views``, ``export`` and ``present``.

``python main.py views`` lists every view with its parameters (generated from the
:class:`core.params.ParamModel`) and what its NPY/CSV data holds; it never imports Qt.
``python main.py export`` writes PNG, SVG, CSV or NPY through
:func:`gui.export.headless.export_view` (the window's code path) on Qt's offscreen platform.
Every failure is one line on stderr, never a traceback: exit 2 for bad input (view,
parameter, value, extension, memory budget), 1 for files that cannot be written.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

PROG = "main.py"


class UsageError(Exception):
    """Bad command-line usage; ``str()`` is the one-line message (exit 2)."""


class _Parser(argparse.ArgumentParser):
    """ArgumentParser whose errors are one line (no usage block) and never exit."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message} (see --help)")


def build_parser() -> argparse.ArgumentParser:
    """The ``main.py`` argument parser with its ``views``/``export``/``present`` commands."""
    parser = _Parser(
        prog=PROG,
        description="Positional Encoding Studio. Without arguments "
        "the window opens; the commands below work without a display.",
    )
    from core.version import version_line

    parser.add_argument("--version", action="version", version=version_line())
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", required=True, parser_class=_Parser
    )
    views = sub.add_parser(
        "views",
        help="list views, their parameters and export data",
        description="List each view's id, its parameters (name, kind, "
        "default, range) and what its NPY/CSV export contains.",
    )
    views.add_argument("view", nargs="*", help="only these view ids (default: all)")
    views.set_defaults(func=cmd_views)
    export = sub.add_parser(
        "export",
        help="write a view as PNG, SVG, CSV or NPY",
        description="Render a view (or one plot of it) to PNG/SVG, or write the data behind "
        "it to CSV/NPY; the format follows the extension of -o. Whole-view CSV/NPY hold the "
        "view's full-resolution data (see 'views'); with --panel they hold that plot's data.",
        epilog="example: main.py export alibi -o bias.npy --param seq_len=8 --param causal=false",
    )
    export.add_argument(
        "view", nargs="?", help="view id (see 'views'); omit with --scene or --deck"
    )
    export.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="PATH",
        help="output file: .png, .svg, .csv or .npy; with --animate .gif, .webp or .mp4; "
        "with --deck a folder or a .pdf",
    )
    export.add_argument(
        "--deck",
        metavar="FILE",
        help="write one image per scene of a deck file into the folder -o, "
        "named NN-<scene title>.png (or .svg with --format svg), replacing the slides of an "
        "earlier export there; -o FILE.pdf: one PDF page per scene",
    )
    export.add_argument(
        "--format",
        choices=("png", "svg"),
        help="with --deck: the slides' image format (default png)",
    )
    export.add_argument(
        "--scene",
        metavar="FILE",
        help="take view, parameters, title and note from a scene file (--param still overrides)",
    )
    export.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a parameter (repeatable), e.g. --param seq_len=128",
    )
    export.add_argument(
        "--width", type=_positive_int, metavar="PX", help="image width in pixels (default 1600)"
    )
    export.add_argument(
        "--height", type=_positive_int, metavar="PX", help="image height in pixels (default 1000)"
    )
    export.add_argument(
        "--scale",
        type=_positive_float,
        metavar="F",
        help="PNG only: render the width x height layout F times larger",
    )
    export.add_argument(
        "--transparent", action="store_true", help="PNG only: transparent background"
    )
    export.add_argument("--panel", metavar="KEY", help="only this plot (keys: see 'views')")
    export.add_argument(
        "--animate",
        metavar="PARAM=START:END",
        help="write an animation (-o .gif, .webp or .mp4) sweeping a numeric parameter; "
        "size 1920x1080 unless --width/--height",
    )
    export.add_argument(
        "--duration",
        type=_positive_float,
        metavar="S",
        help="with --animate: length in seconds (default 4)",
    )
    export.add_argument(
        "--fps",
        type=_positive_int,
        metavar="N",
        help="with --animate: frames per second, 1..60 (default 25)",
    )
    export.add_argument(
        "--ease",
        choices=("linear", "geometric"),
        help="with --animate: equal steps or equal ratios (default linear)",
    )
    export.add_argument(
        "--notes",
        action="store_true",
        help="with --deck and -o FILE.pdf: each scene's note under its slide (handout)",
    )
    export.set_defaults(func=cmd_export)
    present = sub.add_parser(
        "present",
        help="run a lecture deck full screen",
        description="Present a deck file (a list of scenes).",
    )
    present.add_argument("deck", metavar="DECK", help="deck file")
    present.set_defaults(func=cmd_present)
    from core.training.cli import add_train_command

    add_train_command(sub)  # main.py train: the training lab (torch only when it runs)
    return parser


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of pixels, got {text!r}"
        ) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
    return value


# ----------------------------------------------------------------------- views
def cmd_views(ns: argparse.Namespace) -> int:
    """Print the view listing (no Qt needed)."""
    from core.views import VIEWS, get_view

    ids = ns.view or list(VIEWS)
    for view_id in ids:
        get_view(view_id)  # unknown id -> ValueError (exit 2) before printing anything
    out: list[str] = []
    for view_id in ids:
        out += describe_view(view_id) + [""]
    sys.stdout.write("\n".join(out))
    return 0


def describe_view(view_id: str) -> list[str]:
    """Lines describing one view: parameters, plots and NPY/CSV content."""
    from core.views import get_view
    from gui.export.headless import panel_keys

    spec = get_view(view_id)
    lines = [f"{view_id}: {spec.title}", f"  data (NPY/CSV): {spec.data_description}"]
    try:
        keys = ", ".join(key for key, _ in panel_keys(spec, spec.model.defaults()))
        lines.append(f"  plots (--panel, with default parameters): {keys}")
    except Exception:  # a listing never fails because one view cannot compute
        pass
    lines.append("  parameters (--param NAME=VALUE):")
    rows = [
        (p.name, p.kind, p.format(p.default) if p.default != "" else '""', p.range_text(), p.help)
        for p in spec.model.params
    ]
    widths = [max(len(r[k]) for r in rows) for k in range(3)]
    for name, kind, default, rng, text in rows:
        lines.append(
            f"    {name:<{widths[0]}}  {kind:<{widths[1]}}  default "
            f"{default:<{widths[2]}}  range {rng}"
        )
        lines.append(f"    {'':<{widths[0]}}  {text}")
    return lines


# ----------------------------------------------------------------------- export
def parse_params(
    model: Any, assignments: Sequence[str], base: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Apply ``NAME=VALUE`` strings to ``base`` (default: the model's defaults); validate.

    Raises
    ------
    UsageError
        An assignment without ``=`` or without a name, or a name given twice.
    core.params.ParamError
        Unknown name, unparsable or out-of-range value, failed cross-check, or a
        parameter given that the view does not use with the other values
        (:attr:`core.params.Param.unused`, the reason the window greys its field out
        with): the value would have no effect, and export refuses input that has none.
    """
    from core.params import ParamError

    values = dict(model.defaults() if base is None else base)
    given: list[str] = []
    for item in assignments:
        name, sep, text = item.partition("=")
        if not sep or not name.strip():
            raise UsageError(
                f"malformed --param {item!r}: expected NAME=VALUE, e.g. --param seq_len=128"
            )
        name = name.strip()
        if name in given:  # (the last one silently won)
            raise UsageError(f"--param {name} given more than once; give it once")
        values[name] = model[name].parse(text)
        given.append(name)
    values = model.validate(values)
    for name in given:  # (a scene's own values are not checked: the window saves them all)
        why = model[name].unused_why(values)
        if why is not None:
            raise ParamError(
                name, f"not used now ({why}), so it has no effect; leave --param {name} out"
            )
    return values


def cmd_export(ns: argparse.Namespace) -> int:
    """Export one view/plot (or a deck's slides); returns the exit code."""
    from core.views import get_view
    from gui.export.headless import export_format, export_view

    if ns.deck is not None:
        return cmd_export_deck(ns)
    if ns.format is not None:
        raise UsageError("--format applies to --deck; otherwise -o's extension sets the format")
    title = note = None
    base: dict[str, Any] | None = None
    if ns.scene is not None:
        if ns.view is not None:
            raise UsageError("give either a VIEW or --scene, not both")
        from core.scenes import check_scene_files, load_scene

        try:
            loaded = load_scene(ns.scene)
            check_scene_files(loaded)  # a table file it reads, named with the scene
        except ValueError as exc:  # (a field's message named the field, not the file)
            message = str(exc).removeprefix(f"{os.fspath(ns.scene)}: ")
            raise ValueError(f"scene '{os.fspath(ns.scene)}': {message}") from None
        view_id, base, title, note = loaded.view_id, dict(loaded.params), loaded.title, loaded.note
    elif ns.view is None:
        raise UsageError("export needs a VIEW (see 'main.py views') or --scene FILE")
    else:
        view_id = ns.view
    spec = get_view(view_id)
    if ns.animate is not None:
        return cmd_export_animation(ns, view_id, base, title, note)
    _refuse_animation_options(ns)
    if ns.notes:
        raise UsageError("--notes applies to a PDF deck (--deck DECK -o FILE.pdf)")
    fmt = export_format(ns.output)  # unsupported extension: fail before any work
    if fmt in ("csv", "npy") and ns.panel is None and (ns.width, ns.height) != (None, None):
        raise UsageError(  # (they were ignored: the whole view's data is full resolution)
            f"--width and --height do not apply to a view's {fmt.upper()} data (its full "
            "resolution); with --panel they set the resolution a plot's data is computed at"
        )
    values = parse_params(spec.model, ns.param, base)
    _use_offscreen_platform()
    export_view(
        view_id,
        values,
        ns.output,
        width=ns.width,
        height=ns.height,
        transparent=ns.transparent,
        panel=ns.panel,
        scale=ns.scale,
        title=title or None,
        note=note or None,
    )
    return 0


def cmd_export_animation(
    ns: argparse.Namespace,
    view_id: str,
    base: dict[str, Any] | None,
    title: str | None,
    note: str | None,
) -> int:
    """Export ``--animate``: a GIF, WebP or MP4 with a ``frame i/n`` line on stderr."""
    from core.views import get_view
    from gui.export.animation import animation_format, export_animation, parse_sweep

    for given, option in ((ns.panel, "--panel"), (ns.scale, "--scale")):
        if given is not None:
            raise UsageError(f"{option} does not apply to --animate")
    if ns.transparent:
        raise UsageError("--transparent does not apply to --animate")
    spec = get_view(view_id)
    animation_format(ns.output)
    sweep = parse_sweep(ns.animate, spec, ns.ease or "linear")
    values = parse_params(spec.model, ns.param, base)
    _use_offscreen_platform()
    tty = sys.stderr.isatty()

    with _ctrl_c_between_frames() as interrupted:

        def progress(done: int, total: int) -> None:
            start, end = ("\r", "\n" if done == total else "") if tty else ("", "\n")
            print(f"{start}frame {done}/{total}", end=end, file=sys.stderr)
            if interrupted and done < total:
                raise KeyboardInterrupt  # (here, not inside a Qt paint: no file is left)

        export_animation(
            view_id,
            values,
            sweep,
            ns.output,
            duration=4.0 if ns.duration is None else ns.duration,
            fps=25 if ns.fps is None else ns.fps,
            width=ns.width,
            height=ns.height,
            title=title or None,
            note=note or None,
            progress=progress,
        )
    return 0


@contextlib.contextmanager
def _ctrl_c_between_frames() -> Iterator[list[int]]:
    """While the body runs, Ctrl+C (SIGINT) is noted in the yielded list, not raised.

    A ``KeyboardInterrupt`` raised while Qt paints a frame (a Python override called
    from C++) was printed as pyqtgraph's "Ignored exception" traceback and the export
    went on to the end (exit 0), or the process died of a segmentation fault with the
    ``.part`` file left behind. The caller raises it between frames (an animation's)
    or slides (a deck's) instead. Off the main thread (no handler can be set) nothing
    changes.
    """
    interrupted: list[int] = []

    def note(signum: int, frame: Any) -> None:
        interrupted.append(signum)

    try:
        previous = signal.signal(signal.SIGINT, note)
    except ValueError:  # not the main thread
        yield interrupted
        return
    try:
        yield interrupted
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)


def _refuse_animation_options(ns: argparse.Namespace) -> None:
    """``--duration``, ``--fps`` and ``--ease`` without ``--animate``: a usage error."""
    for value, option in ((ns.duration, "--duration"), (ns.fps, "--fps"), (ns.ease, "--ease")):
        if value is not None:
            raise UsageError(f"{option} applies to --animate only")


def cmd_export_deck(ns: argparse.Namespace) -> int:
    """Export every scene of ``ns.deck`` into the folder ``ns.output``."""
    from gui.export.deck import export_deck

    for given, option in ((ns.view, "a VIEW"), (ns.scene, "--scene"), (ns.panel, "--panel")):
        if given is not None:
            raise UsageError(f"give either --deck or {option}, not both")
    if ns.param:
        raise UsageError("--param does not apply to --deck (each scene holds its parameters)")
    if ns.animate is not None:
        raise UsageError("give either --deck or --animate, not both")
    _refuse_animation_options(ns)
    pdf = ns.output.lower().endswith(".pdf")
    if pdf and (ns.format is not None or ns.scale is not None or ns.transparent):
        raise UsageError("--format, --scale and --transparent do not apply to a PDF deck")
    if ns.notes and not pdf:
        raise UsageError("--notes applies to a PDF deck (-o FILE.pdf)")
    _use_offscreen_platform()
    with _ctrl_c_between_frames() as interrupted:

        def checkpoint() -> None:
            if interrupted:  # (here, between slides, not inside a Qt paint)
                raise KeyboardInterrupt

        if pdf:
            from gui.export.deck import export_deck_pdf

            export_deck_pdf(
                ns.deck,
                ns.output,
                width=ns.width,
                height=ns.height,
                notes=ns.notes,
                checkpoint=checkpoint,
            )
            return 0
        export_deck(
            ns.deck,
            ns.output,
            fmt=ns.format or "png",
            width=ns.width,
            height=ns.height,
            scale=ns.scale,
            transparent=ns.transparent,
            checkpoint=checkpoint,
        )
    return 0


def _use_offscreen_platform() -> None:
    """Select Qt's offscreen platform unless a QApplication already exists."""
    widgets = sys.modules.get("PySide6.QtWidgets")
    if widgets is None or widgets.QApplication.instance() is None:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"


# ----------------------------------------------------------------------- present
def cmd_present(ns: argparse.Namespace) -> int:
    """Run presentation mode (:func:`gui.app.run_present`)."""
    from gui.app import run_present

    return int(run_present(ns.deck, _T0[0]))


_T0 = [0.0]


# ----------------------------------------------------------------------- entry
def _fail(message: str, code: int) -> int:
    text = " ".join(str(message).split()) or "error"
    print(f"error: {text}", file=sys.stderr)
    return code


def exit_code(exc: BaseException) -> int:
    """Exit status for an exception: 2 bad input, 1 cannot write / internal."""
    from core.memory import MemoryBudgetError

    if isinstance(exc, (UsageError, ValueError, KeyError, MemoryBudgetError)):
        return 2
    return 1


def error_message(exc: BaseException) -> str:
    """One line describing ``exc`` for the terminal."""
    if isinstance(exc, UsageError):
        return str(exc) or type(exc).__name__
    from core.errors import user_message

    return user_message(exc)


def main(args: list[str], t0: float) -> int:
    """Run a command-line command; return the process exit code (never raises).

    Parameters
    ----------
    args
        Arguments after ``main.py`` (e.g. ``["export", "rope", "-o", "r.png"]``).
    t0
        ``time.perf_counter()`` at process start (for start-up timing in ``present``).
    """
    _T0[0] = t0
    try:
        ns = build_parser().parse_args(args)
        return int(ns.func(ns))
    except SystemExit as exc:  # --help / --version
        return exc.code if isinstance(exc.code, int) else 0
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except Exception as exc:  # never a traceback: one line naming the problem
        return _fail(error_message(exc), exit_code(exc))
