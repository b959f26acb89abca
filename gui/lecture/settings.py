"""Persistent settings: window layout, display choices, last view and every view's params.

Stored with ``QSettings`` (organisation "PE Studio", application "Positional Encoding
Studio"). With ``PE_STUDIO_NO_SETTINGS=1`` (set by the tests) :func:`open_store` returns
a fresh in-memory :class:`MemoryStore` instead, so the user's real settings are never
read or written. Every value is stored as text and validated on restore (parameters
through the view's :class:`~core.params.ParamModel`): a corrupt or outdated entry is
skipped, never fatal.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from typing import TYPE_CHECKING, Any, Protocol

from PySide6 import QtCore

from core.params import ParamError
from core.scenes import params_to_json
from core.views import VIEWS

if TYPE_CHECKING:
    from gui.window.main_window import MainWindow

ORGANISATION = "PE Studio"
APPLICATION = "Positional Encoding Studio"
NO_SETTINGS_ENV = "PE_STUDIO_NO_SETTINGS"
SETTINGS_VERSION = 1


class Store(Protocol):
    """What :func:`save_settings` and :func:`restore_settings` need from a store."""

    def get(self, key: str) -> str | None: ...

    def put(self, key: str, value: str) -> None: ...

    def remove_group(self, prefix: str) -> None: ...

    def sync(self) -> None: ...


class MemoryStore:
    """A dict-backed store (tests; ``PE_STUDIO_NO_SETTINGS=1``)."""

    def __init__(self) -> None:
        self.data: dict[str, str] = {}

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def put(self, key: str, value: str) -> None:
        self.data[key] = str(value)

    def remove_group(self, prefix: str) -> None:
        for key in [k for k in self.data if k.startswith(prefix + "/")]:
            del self.data[key]

    def sync(self) -> None:
        """Nothing to flush."""


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


def open_store() -> Store:
    """``QSettings`` normally; a fresh :class:`MemoryStore` when ``PE_STUDIO_NO_SETTINGS=1``."""
    if os.environ.get(NO_SETTINGS_ENV) == "1":
        return MemoryStore()
    return QtStore()


def _b64(data: QtCore.QByteArray) -> str:
    return base64.b64encode(bytes(data)).decode("ascii")


def save_settings(window: MainWindow, store: Store) -> None:
    """Write the window's layout, display choices, last view and parameters."""
    store.put("version", str(SETTINGS_VERSION))
    store.put("window/geometry", _b64(window.saveGeometry()))
    store.put("window/state", _b64(window.saveState(SETTINGS_VERSION)))
    lecture = getattr(window, "lecture", None)
    if lecture is not None:
        d = lecture.display
        for key, value in (
            ("theme", d.theme_name),
            ("ui_scale", d.ui_scale),
            ("present_scale", d.present_scale),
            ("sequential", d.sequential),
            ("diverging", d.diverging),
        ):
            store.put(f"display/{key}", str(value))
        store.put("animation/speed", str(lecture.sweep.speed))
    store.put("views/last", window.current_view)
    store.remove_group("params")
    for vid, state in window.states.items():
        values = state.values
        if values != state.model.defaults():
            store.put(f"params/{vid}", json.dumps(params_to_json(state.model, values)))
    store.sync()


def _restore_params(window: MainWindow, vid: str, text: str) -> None:
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("not an object")
    values = VIEWS[vid].model.validate(data, partial=True)  # old settings: defaults fill in
    window.view_widget(vid)
    window.states[vid].set_values(values)


def restore_settings(window: MainWindow, store: Store) -> list[str]:
    """Apply stored settings to ``window``; returns one line per entry that was ignored.

    Nothing here raises: a bad entry (corrupt, from another version, out of range) is
    skipped and reported in the returned list.
    """
    ignored: list[str] = []

    def attempt(key: str, apply: Any) -> None:
        text = store.get(key)
        if text is None:
            return
        try:
            if apply(text) is False:
                raise ValueError("rejected")
        except (ValueError, TypeError, KeyError, ParamError, binascii.Error) as exc:
            ignored.append(f"{key}: {exc}")

    attempt(
        "window/geometry",
        lambda t: window.restoreGeometry(QtCore.QByteArray(base64.b64decode(t, validate=True))),
    )
    attempt(
        "window/state",
        lambda t: window.restoreState(
            QtCore.QByteArray(base64.b64decode(t, validate=True)), SETTINGS_VERSION
        ),
    )
    lecture = getattr(window, "lecture", None)
    if lecture is not None:
        d = lecture.display
        from gui.lecture.display import clamp_scale
        from gui.theme import DIVERGING_MAPS, SEQUENTIAL_MAPS, THEMES

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
        attempt("animation/speed", lambda t: lecture.sweep.set_speed(int(t)))
        d.apply()
    for vid in VIEWS:
        attempt(f"params/{vid}", lambda t, v=vid: _restore_params(window, v, t))
    attempt("views/last", lambda t: window.set_view(t) if t in VIEWS else False)
    return ignored
