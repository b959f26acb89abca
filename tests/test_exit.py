"""Ending a GUI run: windows and plots are torn down while the application is alive.

The tests run Python in a subprocess: what they guard against is a segfault.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tiers import FULL

ROOT = Path(__file__).resolve().parent.parent

# Plots whose titles grew taller than their laid-out title row (a title wrapped onto
# more lines, not yet re-laid out), deleted with their view.
_TALL_TITLES = """
import pyqtgraph as pg
from PySide6 import QtCore
from gui.qt_app import ensure_app
from gui.render.title_label import install_title_label

app = ensure_app(headless=True)
view = pg.GraphicsLayoutWidget()
plots = [view.addPlot(row=0, col=i) for i in range(4)]
for plot in plots:
    install_title_label(plot)
    plot.setTitle("short")
view.resize(400, 300)
view.show()
app.processEvents()
for plot in plots:
    plot.setTitle("<br>".join(["word"] * 6))
view.deleteLater()
QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)
print("deleted")
"""

# Appended to a script that ran the app and set ``code``: what is left of it for PySide
# to delete at the interpreter's exit, then exit with ``code``.
_COUNT_LEFT = """
from shiboken6 import Shiboken
from PySide6 import QtCore, QtWidgets

app = QtWidgets.QApplication.instance()
left = sorted(
    type(w).__name__
    for w in Shiboken.getAllValidWrappers()
    if isinstance(w, (QtCore.QObject, QtWidgets.QGraphicsItem))
    and w is not app
    and Shiboken.ownedByPython(w)
)
print("left:", len(left), sorted(set(left))[:12])
sys.exit(code)
"""

# A presentation's self-test run, then what is left.
_PRESENT_THEN_COUNT = (
    """
import sys
import time
from gui.app import run_present

code = run_present(sys.argv[1], time.perf_counter())
"""
    + _COUNT_LEFT
)

# A benchmark's run (bench/shots.py, one shot), then what is left.
_SHOTS_THEN_COUNT = (
    """
import runpy
import sys

shots = runpy.run_path(sys.argv[1], run_name="shots")
code = shots["main"](
    ["--views", "sinusoidal", "--scenes", "none", "--sizes", "1280x720", "--scales", "100",
     "--modes", "window", "--no-png", "-o", "."]
)
"""
    + _COUNT_LEFT
)


def _run(script: str, *args: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        PE_STUDIO_SELFTEST="1",
        XDG_CONFIG_HOME=str(tmp_path),  # the user's settings play no part
        PYTHONPATH=str(ROOT),
    )
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )


def test_plots_deleted_under_titles_taller_than_their_row(tmp_path):
    """A plot deleted while its title is taller than the title row: the title is re-sized
    to its own limits under the half-deleted plot and re-fits the row. It looked the plot
    up with ``parentItem()``, whose new wrapper deleted the plot a second time (segfault
    in 3 of 3 runs before)."""
    done = _run(_TALL_TITLES, tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "deleted" in done.stdout


def test_presentation_leaves_nothing_for_the_interpreters_exit(tmp_path):
    """After ``main.py present``'s event loop nothing Python-owned of the window is left
    (408 plot items, menus and the window were before, deleted by PySide at exit in no
    particular order: a segfault in ~40 % of the runs), and the process ends normally."""
    deck = ROOT / "resources" / "decks" / "quick-tour.json"
    done = _run(_PRESENT_THEN_COUNT, str(deck), tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "left: 0 []" in done.stdout, done.stdout


def test_a_window_deleted_without_closing_while_the_deck_shows_raises_nothing(qtbot):
    """A script (or the interpreter's exit) deleting a window that was never closed,
    its deck dock open: the docks report their hiding while the window is already
    gone, and the deck's side-dock lookup raised ("Internal C++ object already
    deleted", a traceback on stderr). pytest-qt fails the test on an exception in a
    Qt callback."""
    import shiboken6
    from PySide6 import QtWidgets

    from gui.app import build_window

    window = build_window()
    window.resize(1280, 720)
    window.show()
    window.lecture.deck.dock.show()
    QtWidgets.QApplication.processEvents()
    shiboken6.delete(window)
    QtWidgets.QApplication.processEvents()
    assert not shiboken6.isValid(window)


@FULL
def test_a_benchmark_leaves_nothing_for_the_interpreters_exit(tmp_path):
    """bench/shots.py (and bench/frame_latency.py's workers) closed their window and
    left it to the interpreter's exit: 68 Python-owned items, the window among them, were
    deleted by PySide in no particular order (frame_latency's stage worker: a segfault
    in 1 of 2 runs). They dispose of it (gui.app.dispose_window) and release it, as
    the app does: nothing is left."""
    done = _run(_SHOTS_THEN_COUNT, str(ROOT / "bench" / "shots.py"), tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "sinusoidal-1280x720-100-window" in done.stdout, done.stdout
    assert "left: 0 []" in done.stdout, done.stdout
