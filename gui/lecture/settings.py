"""Persistent settings: window layout, display choices, last view, every view's params,
and the lecturer's More… / Less choice for each view's explanation and verdict.

Stored with ``QSettings`` (organisation "PE Studio", application "Positional Encoding
Studio"). With ``PE_STUDIO_NO_SETTINGS=1`` (set by the tests) :func:`open_store` returns
a fresh in-memory :class:`MemoryStore` instead, so the user's real settings are never
read or written. Every value is stored as text and validated on restore (parameters
through the view's :class:`~core.params.ParamModel`): a corrupt or outdated entry is
skipped, never fatal. A settings file that is not a regular file (a FIFO would block
``QSettings`` forever) or is larger than :data:`MAX_SETTINGS_BYTES` is never opened:
the session then runs on a :class:`MemoryStore` and says so once.
"""

from __future__ import annotations

import base64
import json
import os
import stat
import sys
from typing import Any

from PySide6 import QtCore

from core.errors import user_message
from core.memory import human_bytes
from core.scenes import params_to_json, parse_json
from core.viewdata import ComputeContext
from core.views import VIEWS, compute_view
from gui.lecture.display import DisplayController, clamp_scale
from gui.lecture.sweep import SweepController
from gui.theme import DIVERGING_MAPS, SEQUENTIAL_MAPS, THEMES
from gui.window import store as window_store
from gui.window.protocol import StudioWindow

ORGANISATION = "PE Studio"
APPLICATION = "Positional Encoding Studio"
NO_SETTINGS_ENV = "PE_STUDIO_NO_SETTINGS"
SETTINGS_VERSION = 1
# the docks' places (QMainWindow.saveState) are kept under this key since the deck dock
# sits below the side dock: a state saved before ("window/state", the deck dock beside
# the view) is left unused, without a message
DOCK_STATE_KEY = "window/docks"
DOCK_STATE_VERSION = 2
MAX_SETTINGS_BYTES = 4 * 2**20
# the lecturer's More… / Less choice of a view's explanation or verdict, stored under
# "text/<view id>/<box>" as one of these words (no entry: the room decides)
FOLD_WORDS = {"whole": True, "short": False}
FOLD_BOXES = ("explanation", "verdict")


Store = window_store.SettingsStore  # what save_settings and restore_settings need
# A restored view's parameters are checked by computing them this small (cheap, and the
# same checks as the display's computation).
CHECK_CONTEXT = ComputeContext(max_cells=16, max_points=64)


class MemoryStore(window_store.MemoryStore):
    """A dict-backed store (tests; ``PE_STUDIO_NO_SETTINGS=1``)."""

    def __init__(self, problem: str | None = None) -> None:
        super().__init__()
        self.problem = problem  # why the real settings are not used (reported on restore)


class QtStore:
    """The user's ``QSettings``."""

    def __init__(self) -> None:
        self.settings = QtCore.QSettings(ORGANISATION, APPLICATION)

    def get(self, key: str) -> str | None:
        value = self.settings.value(key)
        return value if isinstance(value, str) else None

    def put(self, key: str, value: str) -> None:
        self.settings.setValue(key, str(value))

    def remove_group(self, prefix: str) -> None:
        self.settings.remove(prefix)

    def sync(self) -> None:
        self.settings.sync()


def settings_files() -> list[str]:
    """Files ``QSettings`` reads for this application on this platform (may not exist).

    Linux and other XDG systems: the user's and the system's ``<org>/<app>.conf`` and
    ``<org>.conf``. Windows (registry) and macOS (preferences daemon) have none to check.
    """
    if sys.platform.startswith(("win", "cygwin", "darwin")):
        return []
    home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    folders = [home, *(os.environ.get("XDG_CONFIG_DIRS") or "/etc/xdg").split(os.pathsep)]
    return [
        os.path.join(folder, *parts)
        for folder in folders
        if folder
        for parts in ((ORGANISATION, APPLICATION + ".conf"), (ORGANISATION + ".conf",))
    ]


def settings_file_problem() -> str | None:
    """Why the settings files must not be opened (one line), or ``None`` if they may."""
    for name in settings_files():
        try:
            st = os.stat(name)
        except OSError:
            continue  # missing: QSettings starts empty
        if not stat.S_ISREG(st.st_mode):
            return f"settings file {name} is not a regular file; settings are not used this session"
        if st.st_size > MAX_SETTINGS_BYTES:
            return (
                f"settings file {name} is {human_bytes(st.st_size)}, over the "
                f"{human_bytes(MAX_SETTINGS_BYTES)} limit; settings are not used this session"
            )
    return None


def open_store() -> Store:
    """``QSettings`` normally; a fresh :class:`MemoryStore` when ``PE_STUDIO_NO_SETTINGS=1``
    or when the settings file is unusable (see :func:`settings_file_problem`)."""
    if os.environ.get(NO_SETTINGS_ENV) == "1":
        return MemoryStore()
    problem = settings_file_problem()
    if problem is not None:
        return MemoryStore(problem)
    return QtStore()


def _b64(data: QtCore.QByteArray) -> str:
    return base64.b64encode(bytes(data.data())).decode("ascii")


def valid_params(window: StudioWindow, view_id: str) -> dict[str, Any] | None:
    """The parameters of ``view_id`` worth saving: the current ones, unless their
    computation failed; then those of the picture on screen (``None``: none drawn)."""
    if not window.view_error(view_id):
        return window.states[view_id].values
    data = window.views[view_id].data
    return dict(data.params) if data is not None else None


def save_settings(window: StudioWindow, store: Store) -> None:
    """Write the window's layout, display choices, last view and parameters.

    Only valid state is written: a view whose parameters failed to compute is saved
    with the last parameters it drew (or not at all).
    """
    store.put("version", str(SETTINGS_VERSION))
    store.put("window/geometry", _b64(window.qt.saveGeometry()))
    store.put(DOCK_STATE_KEY, _b64(window.qt.saveState(DOCK_STATE_VERSION)))
    d = window.find_feature(DisplayController)
    if d is not None:
        for key, value in (
            ("theme", d.theme_name),
            ("ui_scale", d.ui_scale),
            ("present_scale", d.present_scale),
            ("sequential", d.sequential),
            ("diverging", d.diverging),
        ):
            store.put(f"display/{key}", str(value))
    sweep = window.find_feature(SweepController)
    if sweep is not None:
        store.put("animation/duration", str(sweep.default_duration))
    store.put("views/last", window.current_view)
    _save_folds(window, store)
    store.remove_group("params")
    for vid, state in window.states.items():
        values = valid_params(window, vid)
        if values is not None and values != state.model.defaults():
            store.put(f"params/{vid}", json.dumps(params_to_json(state.model, values)))
    store.sync()


def _fold_box(window: StudioWindow, vid: str, box: str) -> Any:
    """The :class:`~gui.widgets.explanation.ExplanationBox` or
    :class:`~gui.widgets.verdict.VerdictBox` ``box`` of view ``vid`` (built if need be)."""
    widget = window.view_widget(vid)
    return widget.explanation_box if box == "explanation" else widget.verdict_box


def _save_folds(window: StudioWindow, store: Store) -> None:
    """The lecturer's More… / Less choices of the views built this session (a view whose
    choice was stored is built when it is restored, so no choice is lost)."""
    store.remove_group("text")
    words = {chosen: word for word, chosen in FOLD_WORDS.items()}
    for vid in window.views:
        for box in FOLD_BOXES:
            choice = _fold_box(window, vid, box).choice
            if choice is not None:
                store.put(f"text/{vid}/{box}", words[choice])


def _restore_fold(window: StudioWindow, vid: str, box: str, text: str) -> None:
    if text not in FOLD_WORDS:
        raise ValueError(f"{text!r} is not one of {', '.join(FOLD_WORDS)}")
    _fold_box(window, vid, box).choose(FOLD_WORDS[text])


def _restore_params(window: StudioWindow, vid: str, text: str) -> None:
    data = parse_json(text)  # every malformed text (deep, huge numbers) is a ValueError
    if not isinstance(data, dict):
        raise ValueError("not an object")
    values = VIEWS[vid].model.validate(data, partial=True)  # old settings: defaults fill in
    compute_view(vid, values, CHECK_CONTEXT)  # raises for a state the view cannot draw
    window.view_widget(vid)
    window.states[vid].set_values(values)


def restore_settings(window: StudioWindow, store: Store) -> list[str]:
    """Apply stored settings to ``window``; returns one line per entry that was ignored.

    Nothing here raises: a bad entry (corrupt, from another version, out of range, or
    parameters the view cannot draw) is skipped, so that view keeps its defaults, and
    is reported in the returned list; the remaining entries are restored.
    """
    source = getattr(store, "source", store)  # a ReadOnlyStore reads through to its source
    problem = getattr(store, "problem", None) or getattr(source, "problem", None)
    ignored: list[str] = [problem] if problem else []

    def attempt(key: str, apply: Any) -> None:
        try:
            text = store.get(key)
            if text is None:
                return
            if apply(text) is False:
                raise ValueError("rejected")
        except Exception as exc:  # one bad entry never stops the restore
            ignored.append(f"{key}: {user_message(exc)}")

    attempt(
        "window/geometry",
        lambda t: window.qt.restoreGeometry(QtCore.QByteArray(base64.b64decode(t, validate=True))),
    )
    attempt(
        DOCK_STATE_KEY,
        lambda t: window.qt.restoreState(
            QtCore.QByteArray(base64.b64decode(t, validate=True)), DOCK_STATE_VERSION
        ),
    )
    d = window.find_feature(DisplayController)
    if d is not None:

        def choose(attr: str, allowed: Any) -> Any:
            def apply(text: str) -> None:
                if text not in allowed:
                    raise ValueError(f"{text!r} is not one of {', '.join(allowed)}")
                setattr(d, attr, text)

            return apply

        def scale(attr: str) -> Any:
            def apply(text: str) -> None:
                value = float(text)
                if not 1.0 <= value <= 3.0:
                    raise ValueError(f"{text} is outside 1.0..3.0")
                setattr(d, attr, clamp_scale(value))

            return apply

        attempt("display/theme", choose("theme_name", tuple(THEMES)))
        attempt("display/sequential", choose("sequential", SEQUENTIAL_MAPS))
        attempt("display/diverging", choose("diverging", DIVERGING_MAPS))
        attempt("display/ui_scale", scale("ui_scale"))
        attempt("display/present_scale", scale("present_scale"))
        d.apply()
    sweep = window.find_feature(SweepController)
    if sweep is not None:
        attempt("animation/duration", lambda t: sweep.set_default_duration(float(t)))
    for vid in VIEWS:
        attempt(f"params/{vid}", lambda t, v=vid: _restore_params(window, v, t))
        for box in FOLD_BOXES:
            attempt(f"text/{vid}/{box}", lambda t, v=vid, b=box: _restore_fold(window, v, b, t))
    attempt("views/last", lambda t: window.set_view(t) if t in VIEWS else False)
    return ignored
