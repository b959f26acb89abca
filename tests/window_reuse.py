"""One main window per test module, reused by its tests (conftest's ``window`` is this
fixture; a module may also import ``reused_window`` and ``reused_window_holder``).

Building, showing and first drawing a main window costs about half a second of CPU per
test. After a test that changed only views, parameters, the window size, the playing
sweep or the views' animation set-ups, the panel focus, the deck (or a scene file) it
opened or the presentation mode, the fixture puts those back as a new window has them
(in the fixture, not in the tests: presentation mode left as Esc leaves it, the deck
closed with File ▸ Close deck, each view's animation made again from its defaults when
asked for) and the next test reuses the window, as long as its stage is then as large
as when the window was new. After a test that failed, or that closed it or left a
changed theme, UI scale (either mode's), colormap, help overlay, pen, pointer, sweep
clock or default animation duration, side by side or ghost, or compute backend, the
window is closed and the next test gets a new one: a failure never carries over.
(Putting the theme and scales back instead, the views the test showed re-styled, cost
as much CPU as a new window: tests/test_deck_edits.py 2.6 s more, test_lecture.py and
test_live_use.py 0.5 s less each.) ``presenting_window`` is the same for a module of
stage tests, its window kept in presentation mode between tests.
Leaving presentation mode re-styles the views the test built at the stage's scale (the
few it showed): a new window instead cost more (tests/test_stage_strip.py,
test_stage_focus.py, test_lecture.py and test_presenter.py: 82 s in one process with a
new window after each test that presented, 64 s leaving presentation mode).
Between tests the window is hidden, as a closed one would be (a shown window filters
the application's key events for the lecture keys).
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

SIZE = (1600, 1000)  # as conftest's ``window``


def _new_window(presenting: bool = False) -> Any:
    from gui.app import build_window

    win = build_window(persist=False)
    win.resize(*SIZE)
    win.show()
    assert win.wait_idle(60)
    if presenting:
        _enter_presentation(win)
        win._new_chrome = dict(win.lecture.display._saved["visible"])  # (_chrome_as_new)
    win._new_stage_size = win.stage.size()  # (compared after each reset: _stage_as_new)
    return win


def _enter_presentation(win: Any) -> None:
    """Presentation mode in the window (F5 without full screen), at the default stage
    scale, settled."""
    win.lecture.display.enter_presentation(fullscreen=False)
    assert win.wait_idle(60)


def _close_deck(win: Any) -> None:
    """Close the deck or scene file a test opened (File ▸ Close deck), in a window
    shown (otherwise it is not reused anyway)."""
    deck = win.lecture.deck
    if win.isVisible() and deck.loaded:
        assert deck.close_deck()


def _leave_presentation(win: Any) -> None:
    """Leave presentation mode as Esc does, in a window still shown (a closed one is
    not reused anyway)."""
    display = win.lecture.display
    if win.isVisible() and display.presenting:
        display.leave_presentation()
        assert win.wait_idle(60)


def _stage_as_new(win: Any) -> bool:
    """Whether the stage is as large as when the window was new (the docks a test
    opened and closed gave their room back as a new window has it) and, presenting,
    leaving presentation mode brings back the chrome a new window's does."""
    display = win.lecture.display
    chrome = display._saved.get("visible") if display.presenting else None
    return win.stage.size() == getattr(win, "_new_stage_size", None) and chrome == getattr(
        win, "_new_chrome", None
    )


def _show_again(win: Any) -> None:
    """Show the hidden window, active as a new one is (the offscreen platform activates a
    window when it is first shown only)."""
    from PySide6 import QtWidgets

    win.show()
    with warnings.catch_warnings():  # (deprecated in Qt 6, not replaced for this use)
        warnings.simplefilter("ignore", DeprecationWarning)
        QtWidgets.QApplication.setActiveWindow(win)
    assert win.wait_idle(60)


def _close(win: Any) -> None:
    """Close and delete the window now, as conftest's ``open_window`` does (the autouse
    ``_restore_theme`` puts the global theme back). Closed and only ``deleteLater``-ed,
    it was never deleted: a deferred delete waits for the event loop the call was made
    outside of, and the tests only run nested ones (``wait_idle``, ``waitUntil``). The
    closed windows piled up in a worker (10 main windows, 686 top-level widgets at
    test_float_field after six modules), each with its application-wide event filters
    and timers: test_float_field's refused-key test took 0.17 s alone, 10.7 s (5.1 s of
    CPU) and its module's end 9.4 s (4.7 s of CPU) after them in the gating suite; now
    51 top-level widgets there. (Its Python side goes with the next cycle collection:
    ``release_windows`` here, while the caller still holds it, freed nothing of it.)"""
    from gui.app import dispose_window

    dispose_window(win)


def reusable(win: Any, presenting: bool = False) -> bool:
    """Whether ``win`` shows the theme, scale, colormaps and mode of a new window
    (presenting or not, as ``presenting`` says), with no deck, help overlay, pen or
    pointer, its sweep clock, animation duration and backend as a new window has them
    and nothing side by side."""
    from core.backend import NUMPY
    from gui.lecture.display import DEFAULT_PRESENT_SCALE
    from gui.lecture.sweep import DEFAULT_DURATION
    from gui.theme import LIGHT

    lecture = win.lecture
    display = lecture.display
    sweep = lecture.sweep
    composite = lecture.composite

    return (
        win.isVisible()  # (a window a test closed has its engine stopped)
        and display.presenting == presenting
        and display.theme_name == "light"
        and display.ui_scale == 1.0
        and display.present_scale == DEFAULT_PRESENT_SCALE
        and (display.sequential, display.diverging) == (LIGHT.sequential, LIGHT.diverging)
        and not lecture.deck.scenes
        and lecture.deck.index == -1
        and lecture.deck.path is None
        and not lecture.deck.title_edit.text()
        and not lecture.deck.note_edit.toPlainText()
        and not lecture.deck.last_error
        and not lecture.deck.history  # (no deck edit to undo)
        and sweep.clock is time.monotonic
        and "interval_ms" not in vars(sweep)  # (a test's fake display timer)
        and sweep.default_duration == DEFAULT_DURATION
        and composite.widget is None  # never side by side or ghosted
        and not composite.variants
        and not lecture.focus.staging
        and not lecture.help.isVisible()
        and not lecture.overlay.mode
        and not lecture.overlay.strokes
        and not win.isFullScreen()
        and win.backend == NUMPY
    )


def reset_window(win: Any) -> None:
    """Back to what a new window shows: no sweep or focused panel, every view at its
    defaults with no undo history and its animation made from them (when asked for, as
    in a new window), the first view, 1600 x 1000."""
    from core.views import VIEWS

    lecture = win.lecture
    lecture.sweep.stop()
    lecture.focus.unfocus()
    for state in win.states.values():
        state.reset()
        state._undo.clear()
        state._redo.clear()
    lecture.sweep.setups.clear()  # (made again from the view's values when asked for)
    win.set_view(next(iter(VIEWS)))
    lecture.sweep._fill()  # the box shows the view's default animation
    win.resize(*SIZE)
    if lecture.display.presenting:  # (leaving presentation mode hides these)
        from gui.lecture.stage_strip import StageControls

        win.feature(StageControls).hide_strip()
        win.stage_toast.say("")  # (the deck's "Closed ..." message)
        win.stage.setFocus()
    assert win.wait_idle(60)
    assert not any(win.view_error(v) for v in win.states), "a view failed at its defaults"


class _Holder:
    win: Any = None


@pytest.fixture(scope="module")
def reused_window_holder(qapp) -> Iterator[_Holder]:  # type: ignore[no-untyped-def]
    holder = _Holder()
    yield holder
    if holder.win is not None:
        _close(holder.win)


@pytest.fixture
def reused_window(request, reused_window_holder):  # type: ignore[no-untyped-def]
    """The module's shown main window (1600 x 1000, no settings written, as conftest's
    ``window``): the previous test's, reset, or a new one."""
    yield from _reused(request, reused_window_holder, presenting=False)


@pytest.fixture(scope="module")
def presenting_window_holder(qapp) -> Iterator[_Holder]:  # type: ignore[no-untyped-def]
    holder = _Holder()
    yield holder
    if holder.win is not None:
        _close(holder.win)


@pytest.fixture
def presenting_window(request, presenting_window_holder):  # type: ignore[no-untyped-def]
    """The module's shown main window in presentation mode (F5 in a 1600 x 1000 window,
    not full screen, at the default stage scale): the previous test's, reset (its
    strip hidden, the keyboard on the stage) and in presentation mode again if the test
    left it, or a new one. Leaving presentation mode re-styles the views at the normal
    scale and entering it again at the stage's (tests/test_stage_strip.py: 25.4 s of CPU
    with a window reused out of presentation mode, 14.1 s with this one)."""
    yield from _reused(request, presenting_window_holder, presenting=True)


def _reused(request: Any, holder: _Holder, presenting: bool) -> Iterator[Any]:
    """The body of :func:`reused_window` and :func:`presenting_window`."""
    if holder.win is None:
        holder.win = _new_window(presenting)
    else:
        _show_again(holder.win)
    failed = request.session.testsfailed
    yield holder.win
    win, holder.win = holder.win, None
    if request.session.testsfailed != failed:
        _close(win)  # whatever it left behind goes with it
        return
    try:
        if not presenting:
            _leave_presentation(win)
        elif win.isVisible() and not win.lecture.display.presenting:
            _enter_presentation(win)
        _close_deck(win)
    except Exception:
        _close(win)
        raise
    if not reusable(win, presenting):
        _close(win)
        return
    try:
        reset_window(win)
    except Exception:
        _close(win)
        raise
    if not _stage_as_new(win):
        _close(win)
        return
    win.hide()
    holder.win = win
