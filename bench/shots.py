"""Screenshots of the real window, with automatic layout findings (issues 13 and 14).

Renders the main window for every view at its defaults and for every scene of the
shipped lecture deck, at the window sizes, UI scales and modes asked for, writes one PNG
per shot and prints, per shot, what a lecturer would see go wrong:

``widget``
    what :func:`gui.plotting.layout_check.widget_problems` finds among the window's
    labels, spin boxes, line edits, combo boxes and buttons (docks, stage and on-stage
    parameter strip): a label lower than its font's line or than its text needs, or
    narrower than its unwrapped text; a field or button squeezed below its
    ``minimumSizeHint`` or whose text is wider than its room; any of them cut by a
    parent's edge (scrolled content excepted);
``canvas``
    what the tests gate on (:mod:`gui.plotting.layout_check`): a plot title elided or
    wider than its plot, an axis title or a legend cut or over the data, two texts of
    the plot canvas (titles, axis titles, tick labels, legends, colour-bar labels,
    table and arrow texts) that overlap;
``table``
    table rows cut off: below the visible part of the canvas and not reachable by
    scrolling (``rows hidden, scrollable`` when a scroll bar reaches them); a table
    taller than the part of the canvas shown (``taller than its place``: scrolled to,
    it is never seen whole);
``outside``
    a widget or a plot that lies (partly) outside the window or its canvas.

Each shot is named ``<view or scene>-<width>x<height>-<scale>-<mode>.png``; scenes are
``scene01`` … in deck order. Modes: ``window`` (menu, docks, status bar), ``present``
(``lecture.display.enter_presentation(fullscreen=False)``, then the window is resized),
``strip`` (presenting, with the on-stage parameter strip shown, as P shows it).

Usage::

    python bench/shots.py -o /tmp/shots                       # everything (long)
    python bench/shots.py -o /tmp/shots --views compare --scenes none \\
        --sizes 1920x1080 --scales 100,200 --modes window,present
    QT_QPA_PLATFORM=xcb DISPLAY=:12 python bench/shots.py -o /tmp/shots --scenes 5,11

``--scenes`` takes ``all`` (default), ``none`` or 1-based scene numbers; ``--views``
``all`` (default), ``none`` or view ids; ``--no-png`` only prints the findings;
``--titles`` prints every plot's title and legend entry as wrapped (its lines). The
script exits 0 unless it crashes; ``--strict`` exits 1 when any shot has a finding.
Headless (``offscreen``) unless ``QT_QPA_PLATFORM`` is set (``xcb`` under Xvfb).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PE_STUDIO_NO_SETTINGS", "1")

from PySide6 import QtCore, QtGui, QtWidgets  # noqa: E402

from gui.plotting.layout_check import layout_problems, widget_problems  # noqa: E402

DECK = ROOT / "resources" / "decks" / "lecture-positional-encoding.json"
SIZES = ("1280x720", "1600x1000", "1920x1080", "3840x2160")
SCALES = (100, 150, 200, 300)
MODES = ("window", "present")  # the default; "strip" is asked for by name
TOLERANCE = 1.0  # px a box may pass another's edge (rounding) before it counts


# ---------------------------------------------------------------------- findings
def _window_rect(widget: QtWidgets.QWidget, window: QtWidgets.QWidget) -> QtCore.QRect:
    return QtCore.QRect(widget.mapTo(window, QtCore.QPoint(0, 0)), widget.size())


def _clipped_by_scroll(widget: QtWidgets.QWidget) -> bool:
    """Whether ``widget`` sits inside a scroll area's viewport (its overflow scrolls)."""
    parent = widget.parentWidget()
    while parent is not None:
        area = parent.parentWidget()
        if isinstance(area, QtWidgets.QAbstractScrollArea) and area.viewport() is parent:
            return True
        parent = area
    return False


def _scene_to_window(
    canvas: QtWidgets.QGraphicsView, window: QtWidgets.QWidget, rect: QtCore.QRectF
) -> QtCore.QRectF:
    poly = canvas.mapFromScene(rect)
    box = poly.boundingRect()
    return QtCore.QRectF(box.translated(canvas.viewport().mapTo(window, QtCore.QPoint(0, 0))))


def _visible_canvas(
    canvas: QtWidgets.QGraphicsView, window: QtWidgets.QWidget
) -> tuple[QtCore.QRectF, QtCore.QRectF]:
    """The canvas viewport's rectangle in window coordinates, and the part of it that is
    on screen (a canvas inside a scroll area shows only part of itself)."""
    port = canvas.viewport()
    full = QtCore.QRectF(_window_rect(port, window))
    shown = full
    parent = canvas.parentWidget()
    while parent is not None and parent is not window:
        shown = shown.intersected(QtCore.QRectF(_window_rect(parent, window)))
        parent = parent.parentWidget()
    return full, shown


def _table_rows(plot) -> list[tuple[str, float, float]]:
    """``(first cell text, top, bottom)`` in scene coordinates of each row of a table
    panel's table (from its laid-out text document)."""
    text_item = plot.table.textItem
    document = text_item.document()
    layout = document.documentLayout()
    rows = []
    for frame in document.rootFrame().childFrames():
        if not isinstance(frame, QtGui.QTextTable):
            continue
        for r in range(frame.rows()):
            cell = frame.cellAt(r, 0)
            block = cell.firstCursorPosition().block()
            rect = layout.blockBoundingRect(block)
            top = text_item.mapToScene(QtCore.QPointF(0, rect.top())).y()
            bottom = text_item.mapToScene(QtCore.QPointF(0, rect.bottom())).y()
            rows.append((block.text(), top, bottom))
    return rows


def _scroll_place(widget: QtWidgets.QWidget) -> int | None:
    """The height of the viewport of the scroll area ``widget`` scrolls in, if any."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QtWidgets.QAbstractScrollArea):
            return parent.viewport().height()
        parent = parent.parentWidget()
    return None


def canvas_findings(widget, window: QtWidgets.QWidget) -> list[str]:
    """Cut-off table rows and plots outside the visible canvas of ``widget`` (a
    ``ViewWidget``), and what :func:`gui.plotting.layout_check.layout_problems` finds
    (elided titles, overlapping text boxes, ...)."""
    out: list[str] = []
    canvas = widget.canvas
    full, shown = _visible_canvas(canvas, window)
    for key, plot in widget.plots.items():
        item = plot.plot
        if not item.isVisible():
            continue
        rect = _scene_to_window(canvas, window, item.sceneBoundingRect())
        if not full.adjusted(-TOLERANCE, -TOLERANCE, TOLERANCE, TOLERANCE).contains(rect):
            out.append(f"outside: plot {key} {rect.getRect()} beyond canvas {full.getRect()}")
        elif rect.height() < 40 or rect.width() < 40:
            out.append(f"outside: plot {key} squeezed to {rect.width():.0f}x{rect.height():.0f} px")
        if getattr(plot, "table", None) is not None and plot.table.isVisible():
            vb = _scene_to_window(canvas, window, item.getViewBox().sceneBoundingRect())
            cut, hidden = [], []
            for text, top, bottom in _table_rows(plot):
                y0 = _scene_to_window(canvas, window, QtCore.QRectF(0, top, 1, bottom - top))
                if y0.bottom() > vb.bottom() + TOLERANCE:
                    cut.append(text or "?")
                elif y0.bottom() > shown.bottom() + TOLERANCE:
                    hidden.append(text or "?")
            if cut:
                out.append(f"table: {key} rows cut off: {', '.join(cut)}")
            if hidden:
                out.append(f"table: {key} rows hidden, scrollable: {', '.join(hidden)}")
            place = _scroll_place(canvas)
            if place is not None and rect.height() > place + TOLERANCE:  # never seen whole
                out.append(
                    f"table: {key} taller than its place ({rect.height():.0f} px in {place})"
                )
    # titles elided or wider than their plot, axis titles and legends cut or misplaced,
    # and any two texts of the canvas overlapping: the tests' gate, one copy
    out += [f"canvas: {problem}" for problem in layout_problems(widget)]
    return out


def _behind_a_tab(widget: QtWidgets.QWidget, window: QtWidgets.QWidget) -> bool:
    """Whether ``widget`` is a dock tabbed behind another (Qt moves it out of the window:
    the parameters behind the open deck's tab at 1280 x 720 were reported outside), or
    lies in one."""
    while widget is not None and widget is not window:
        if (
            isinstance(widget, QtWidgets.QDockWidget)
            and isinstance(window, QtWidgets.QMainWindow)
            and window.tabifiedDockWidgets(widget)
            and widget.visibleRegion().isEmpty()
        ):
            return True
        widget = widget.parentWidget()
    return False


def _parked(rect: QtCore.QRect) -> bool:
    """Whether ``rect`` is where Qt's dock layout parks a widget it hides by moving it
    (QWidgetAnimator: at (-500 - width, -500 - height), wholly off the window; a docks'
    tab bar on stage, gui.lecture.display), not a widget cut by the window's edge."""
    return rect.x() == -500 - rect.width() and rect.y() == -500 - rect.height()


def outside_findings(window: QtWidgets.QWidget) -> list[str]:
    """Visible widgets that reach outside the window (not counting scrolled content)."""
    out = []
    bounds = window.rect()
    reported: list[QtWidgets.QWidget] = []
    for child in window.findChildren(QtWidgets.QWidget):
        if not child.isVisible() or child.isWindow() or child.width() <= 0:
            continue
        if any(r.isAncestorOf(child) for r in reported) or _clipped_by_scroll(child):
            continue
        if _behind_a_tab(child, window):
            continue
        rect = _window_rect(child, window)
        if _parked(rect):
            continue
        if not bounds.contains(rect):
            reported.append(child)
            out.append(
                f"outside: widget {child.objectName() or type(child).__name__} {rect.getRect()}"
            )
    return out


def layout_info(window) -> str:
    """How the current view is laid out: plot columns, and whether it scrolls."""
    widget = window.views.get(window.current_view)
    if widget is None:
        return ""
    text = f"columns {getattr(widget, 'columns', '?')}"
    canvas = getattr(widget, "canvas", None)
    if canvas is not None:
        text += f", canvas {canvas.minimumHeight()} px"
    scroll = getattr(widget, "scroll_area", None)
    if scroll is not None and scroll.verticalScrollBar().maximum() > 0:
        bar = scroll.verticalScrollBar()
        text += f", scrolls ({bar.maximum() + bar.pageStep()} px in {bar.pageStep()})"
    return text


def title_lines(window) -> list[str]:
    """Each visible plot's title as wrapped on screen: ``key: line | line`` (``--titles``:
    compare a wrap's line breaks and line counts before and after a change)."""
    widget = window.views.get(window.current_view)
    out = []
    for key, plot in getattr(widget, "plots", {}).items():
        item = plot.plot
        if not item.isVisible() or not item.titleLabel.isVisible():
            continue
        shown = getattr(plot, "_shown_title", None) or ""
        lines = [
            QtGui.QTextDocumentFragment.fromHtml(line).toPlainText() for line in shown.split("<br>")
        ]
        lines = [line for line in lines if line.strip()]
        if lines:
            out.append(f"{key}: {len(lines)} lines: " + " | ".join(lines))
    return out


def legend_lines(window) -> list[str]:
    """Each visible legend entry as wrapped on screen: ``key[i]: line | line``
    (``--titles``, as :func:`title_lines`; a no-break space reads as a space)."""
    widget = window.views.get(window.current_view)
    out = []
    for key, plot in getattr(widget, "plots", {}).items():
        legend = getattr(plot, "legend", None)
        if legend is None or not plot.plot.isVisible() or not legend.isVisible():
            continue
        for i, (_sample, label) in enumerate(legend.items):
            lines = []
            block = label.item.document().begin()
            while block.isValid():
                layout, text = block.layout(), block.text()
                for n in range(layout.lineCount()):
                    line = layout.lineAt(n)
                    lines.append(text[line.textStart() : line.textStart() + line.textLength()])
                block = block.next()
            lines = [line.replace("\u00a0", " ").strip() for line in lines if line.strip()]
            out.append(f"{key}[{i}]: {len(lines)} lines: " + " | ".join(lines))
    return out


def findings(window) -> list[str]:
    """Every finding of the window as shown now (see the module docstring)."""
    qt = window
    out = [f"widget: {problem}" for problem in widget_problems(qt)]
    widget = window.views.get(window.current_view)
    if widget is not None:
        out += canvas_findings(widget, qt)
    out += outside_findings(qt)
    lst = getattr(window, "view_list", None)
    if lst is not None and lst.isVisible() and lst.verticalScrollBar().maximum() > 0:
        out.append("scroll: the view list needs scrolling")
    if qt.width() > 0 and (qt.width(), qt.height()) != window.property("asked_size"):
        asked = window.property("asked_size")
        if asked is not None:
            out.append(
                f"outside: window is {qt.width()}x{qt.height()}, asked {asked[0]}x{asked[1]}"
            )
    return out


# ---------------------------------------------------------------------- driving
def settle(window, app: QtWidgets.QApplication) -> None:
    """Let the window draw, lay out and re-fit everything (a few event-loop passes)."""
    window.wait_idle(60)
    deadline = time.monotonic() + 0.3
    while time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    window.wait_idle(60)
    app.processEvents()


def parse_list(text: str, all_items: tuple[str, ...] | list[str]) -> list[str]:
    if text == "all":
        return list(all_items)
    if text == "none":
        return []
    return [t.strip() for t in text.split(",") if t.strip()]


def _strip(window, app: QtWidgets.QApplication, shown: bool) -> None:
    """Show the current view's parameter strip (P in presentation mode) and keep it
    shown, or hide it (the other modes' shots)."""
    from gui.lecture.stage_strip import StageControls

    controls = window.feature(StageControls)
    if not shown:
        controls.hide_strip()
        return
    controls.show_strip()
    controls.timer.stop()  # it would hide itself without use
    settle(window, app)


def shots(args: argparse.Namespace) -> Iterator[tuple[str, list[str]]]:
    """Take every shot asked for; yields ``(file stem, findings)``."""
    from core.scenes import Scene, load_deck
    from core.views import VIEW_IDS
    from gui.app import build_window, dispose_window
    from gui.qt_app import ensure_app

    app = ensure_app()
    views = parse_list(args.views, VIEW_IDS)
    deck = load_deck(Path(args.deck))
    scenes = [
        int(s) for s in parse_list(args.scenes, [str(i + 1) for i in range(len(deck.scenes))])
    ]
    window = build_window(persist=False)
    window.show()
    lecture = window.lecture
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for mode in parse_list(args.modes, MODES):
        for size in parse_list(args.sizes, SIZES):
            w, h = (int(v) for v in size.split("x"))
            for scale in (int(s) for s in parse_list(args.scales, [str(s) for s in SCALES])):
                display = lecture.display
                if mode in ("present", "strip"):
                    display.enter_presentation(fullscreen=False)
                else:
                    display.leave_presentation()
                display.set_scale(scale / 100)
                window.resize(w, h)
                window.setProperty("asked_size", (w, h))
                if scenes:
                    lecture.deck.set_deck(deck, Path(args.deck))
                targets = [(v, None) for v in views] + [(f"scene{i:02d}", i) for i in scenes]
                for name, scene in targets:
                    if scene is None:  # the view alone, at its defaults, unstaged
                        lecture.deck.index = -1
                        lecture.focus.stage_scene(Scene(view_id=name), -1)
                        window.set_view(name)
                        window.states[name].reset()
                        window.views[name].set_heading(None)
                    else:
                        lecture.deck.go(scene - 1)
                    settle(window, app)
                    _strip(window, app, shown=mode == "strip")
                    stem = f"{name}-{w}x{h}-{scale}-{mode}"
                    if not args.no_png:
                        window.grab().save(str(out / f"{stem}.png"))
                    if getattr(args, "titles", False):
                        for line in title_lines(window):
                            print(f"  title {stem} {line}", flush=True)
                        for line in legend_lines(window):
                            print(f"  legend {stem} {line}", flush=True)
                    yield f"{stem} [{layout_info(window)}]", findings(window)
    dispose_window(window)  # the caller releases it (release_windows) once this ends


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--out", default="shots", help="output folder")
    parser.add_argument("--views", default="all", help="view ids, 'all' or 'none'")
    parser.add_argument("--scenes", default="all", help="1-based scene numbers, 'all' or 'none'")
    parser.add_argument("--deck", default=str(DECK), help="deck file (the shipped lecture)")
    parser.add_argument("--sizes", default=",".join(SIZES), help="WxH list")
    parser.add_argument("--scales", default=",".join(map(str, SCALES)), help="percent list")
    parser.add_argument("--modes", default=",".join(MODES), help="window,present (default), strip")
    parser.add_argument("--no-png", action="store_true", help="findings only")
    parser.add_argument(
        "--titles", action="store_true", help="print the plots' title and legend lines"
    )
    parser.add_argument("--strict", action="store_true", help="exit 1 on any finding")
    args = parser.parse_args(argv)
    total = 0
    for stem, found in shots(args):
        total += len(found)
        print(f"{stem}: {'ok' if not found else f'{len(found)} findings'}", flush=True)
        for line in found:
            print(f"    {line}", flush=True)
    print(f"{total} findings")
    from gui.app import release_windows

    release_windows()  # (the generator's window was deleted when it ended)
    return 1 if args.strict and total else 0


if __name__ == "__main__":
    sys.exit(main())
