"""Side by side and ghost: two states of the current view on one stage.

*Side by side* (Lecture menu, Ctrl+Alt+B) shows state A (the view's parameters, which
the panel, sweeps and deck change as usual) next to state B, which differs from A by a
*variant* (:mod:`core.composite`; Ctrl+Alt+Shift+B sets it, e.g. ``m+100, n+100`` for
RoPE: the same shift applied to both positions, so the scores stay). B follows A: one
shared parameter drives both. *Ghost* (Ctrl+Alt+G) draws the previous deck scene of the
same view faintly under the current curves (Ctrl+Alt+K keeps a ghost of the state shown
now).

The composite is drawn by a :class:`~gui.widgets.view_widget.ViewWidget` laid over the
stage. Its states are computed by two update engines of its own (latest request wins),
and a composite is shown only when B's result is the variant of A's result, so the two
halves always show one moment of the shared parameter.
"""

from __future__ import annotations

from typing import Any

from PySide6 import QtCore, QtWidgets

from core.composite import (
    DEFAULT_VARIANTS,
    Variant,
    parse_variant,
    side_by_side,
    variant_params,
    variant_text,
    with_ghost,
)
from core.params import ParamError
from core.viewdata import ComputeContext, ViewData
from core.views import get_view
from gui.lecture.deck import DeckController
from gui.widgets.view_widget import ViewWidget
from gui.window.engine import UpdateEngine
from gui.window.protocol import StudioWindow

CONTEXT = ComputeContext(max_cells=256, max_points=1024)  # half a stage per state


class CompositeStage(QtCore.QObject):
    """Side-by-side and ghost display of the current view.

    Signals
    -------
    shown(object)
        A composite :class:`ViewData` was drawn.
    """

    shown = QtCore.Signal(object)

    def __init__(self, window: StudioWindow) -> None:
        super().__init__(window.qt)
        self.window = window
        self.side = False
        self.ghost = False
        self.view_id = ""
        self.variants: dict[str, Variant] = {}
        self.ghost_params: dict[str, Any] | None = None
        self.widget: ViewWidget | None = None
        self._engines: dict[str, UpdateEngine] = {}
        self._results: dict[str, ViewData] = {}
        self._wanted: dict[str, dict[str, Any]] = {}
        window.view_changed.connect(self._view_changed)
        window.stage.installEventFilter(self)
        window.qt.installEventFilter(self)  # its close stops the engines' threads
        self._connected: set[str] = set()
        deck = window.find_feature(DeckController)
        if deck is not None:
            deck.scene_shown.connect(self._scene_shown)

    # ------------------------------------------------------------------ switches
    @property
    def active(self) -> bool:
        return self.side or (self.ghost and self.ghost_params is not None)

    def variant(self, view_id: str | None = None) -> Variant:
        """How B differs from A in ``view_id`` (a default for RoPE and the clock)."""
        view_id = view_id or self.window.current_view
        if view_id not in self.variants:
            text = DEFAULT_VARIANTS.get(view_id, "")
            self.variants[view_id] = parse_variant(text, get_view(view_id).model)
        return self.variants[view_id]

    def set_variant(self, text: str) -> None:
        """Set B of the current view from text (ValueError/ParamError: one line)."""
        view_id = self.window.current_view
        variant = parse_variant(text, get_view(view_id).model)
        variant_params(self.window.current_state.values, variant, get_view(view_id).model)
        self.variants[view_id] = variant
        self.refresh()

    def set_side(self, on: bool) -> None:
        """Show A and B side by side (or stop)."""
        self.side = bool(on)
        if on and not self.variant():
            self.window.show_status(
                "Side by side: B equals A until you set how it differs (Ctrl+Alt+Shift+B)", 6000
            )
        self.refresh()

    def set_ghost(self, on: bool) -> None:
        """Draw the previous scene's state faintly under the current one (or stop)."""
        self.ghost = bool(on)
        self.refresh()

    def keep_ghost(self) -> None:
        """Keep the state shown now as the ghost."""
        self.ghost_params = dict(self.window.current_state.values)
        self.ghost = True
        self.refresh()

    # ------------------------------------------------------------------ events
    def _view_changed(self, view_id: str) -> None:
        if view_id != self.view_id:
            self.ghost_params = None
            self.side = False
        self.refresh()

    def _scene_shown(self, previous: int, index: int) -> None:
        deck = self.window.feature(DeckController)
        scenes = deck.scenes
        if (
            previous != index
            and 0 <= previous < len(scenes)
            and scenes[previous].view_id == scenes[index].view_id
        ):
            self.ghost_params = dict(scenes[previous].params)
        else:
            self.ghost_params = None
        self.refresh()

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        if obj is self.window.qt and event.type() == QtCore.QEvent.Type.Close:
            self.close()
        if (
            obj is self.window.stage
            and event.type() == QtCore.QEvent.Type.Resize
            and self.widget is not None
        ):
            self.widget.setGeometry(self.window.stage.rect())
        return False

    def _state_changed(self, view_id: str) -> None:
        if view_id == self.window.current_view:
            self.refresh()

    # ------------------------------------------------------------------ drawing
    def refresh(self) -> None:
        """Recompute (or hide) the composite for the current view and its state."""
        view_id = self.window.current_view
        if not self.active or view_id not in self.window.states:
            if self.widget is not None:
                self.widget.hide()
            return
        if view_id not in self._connected:
            self.window.states[view_id].changed.connect(
                lambda _values, v=view_id: self._state_changed(v)
            )
            self._connected.add(view_id)
        spec = get_view(view_id)
        if self.widget is None or self.widget.spec.view_id != view_id:
            if self.widget is not None:
                self.widget.deleteLater()
            self.widget = ViewWidget(spec, self.window.stage)
            self.widget.setObjectName("composite-stage")
            self.widget.setAutoFillBackground(True)  # it covers the view beneath it
            self.widget.show_explanation(False)
            self._results.clear()
        self.view_id = view_id
        self.widget.setGeometry(self.window.stage.rect())
        self.widget.show()
        self.widget.raise_()
        a = self.window.current_state.values
        try:
            b = (
                variant_params(a, self.variant(view_id), spec.model)
                if self.side
                else dict(self.ghost_params or a)
            )
        except ParamError as exc:
            self.widget.show_error(f"B: {exc}")
            return
        self._wanted = {"A": a, "B": b}
        for key, params in self._wanted.items():
            self._engine(key).request(view_id, params, CONTEXT)

    def _engine(self, key: str) -> UpdateEngine:
        if key not in self._engines:
            engine = UpdateEngine(parent=self)
            engine.ready.connect(lambda v, g, d, k=key: self._ready(k, v, g, d))
            engine.failed.connect(lambda v, g, m, k=key: self._failed(k, v, g, m))
            self._engines[key] = engine
        return self._engines[key]

    def _failed(self, key: str, view_id: str, generation: int, message: str) -> None:
        if self.widget is not None and self._engines[key].is_current(view_id, generation):
            self.widget.show_error(f"{'B' if key == 'B' else 'A'}: {message}")

    def _ready(self, key: str, view_id: str, generation: int, data: ViewData) -> None:
        if not self._engines[key].is_current(view_id, generation) or view_id != self.view_id:
            return
        self._results[key] = data
        a, b = self._results.get("A"), self._results.get("B")
        # one moment of the shared parameter: both results are of the states wanted now
        if a is None or b is None or self.widget is None:
            return
        if a.params != self._wanted.get("A") or b.params != self._wanted.get("B"):
            return
        if self.side:
            text = variant_text(self.variant(view_id)) or "same"
            data = side_by_side(a, b, "A", f"B ({text})")
        else:
            data = with_ghost(a, b, "before")
        self.widget.show_data(data, live=True)
        self.shown.emit(data)

    def close(self) -> None:
        """Stop the engines' threads."""
        for engine in self._engines.values():
            engine.stop()
        self._engines.clear()


def ask_variant(stage: CompositeStage) -> None:
    """Ask for the current view's variant text and set it; problems as one status line."""
    text, ok = QtWidgets.QInputDialog.getText(
        stage.window.qt,
        "Side by side: state B",
        "How B differs from A, e.g. m+100, n+100 (offsets follow A) or base=500000:",
        text=variant_text(stage.variant()),
    )
    if ok:
        try:
            stage.set_variant(text)
        except ValueError as exc:
            stage.window.show_status(str(exc), 8000)
