"""Observable per-view parameter state with validation and undo/redo.

:class:`ViewState` is the single place where a view's current parameters live. Widgets
call :meth:`ViewState.set_param`; the state validates through the core
:class:`~core.params.ParamModel` and either emits ``changed`` (new values) or ``error``
(one line; the last good values stay).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6 import QtCore, QtWidgets

from core.formula import number
from core.params import ParamError, ParamModel

UNDO_LIMIT = 200


class ViewState(QtCore.QObject):
    """Current parameters of one view.

    Signals
    -------
    changed(dict)
        Emitted with the new (validated) parameters after every accepted change: a
        copy, the same one for every follower (which reads it, never changes it).
    error(str)
        Emitted with a one-line message when a change is rejected.
    resolved(str)
        Emitted with a parameter's label when its field shows the value drawn again
        after a text it refused (its own Ctrl+Z): that refusal's message can go; or
        with one message that has nothing left to say (a refused key's, after a
        while): it goes if it is still shown.
    drawn()
        Emitted when :attr:`used` changes (the latest drawing used other values for
        parameters it did not use: their greyed-out fields show those), or
        :attr:`pinned` does.
    """

    # (a Python object, not Qt's QVariantMap: each follower of a change, five or six,
    # got the values converted to a map and back, ~30 us an emit)
    changed = QtCore.Signal(object)
    error = QtCore.Signal(str)
    resolved = QtCore.Signal(str)
    drawn = QtCore.Signal()

    def __init__(self, model: ParamModel, parent: QtCore.QObject | None = None) -> None:
        super().__init__(parent)
        self.model = model
        # (valid from the start, as every value set later: set_param validates only
        # the parameter it changes)
        self._values = model.validate(model.defaults())
        #: what the latest drawing used in place of unused parameters
        #: (:attr:`core.viewdata.ViewData.used`: a Learned table file's rows and width)
        self.used: dict[str, Any] = {}
        #: values the fields show in place of the current ones (:meth:`pin`)
        self.pinned: dict[str, Any] = {}
        self._undo: list[dict[str, Any]] = []
        self._redo: list[dict[str, Any]] = []
        self._merge_key: str | None = None
        # each accepted change gets a new serial; undo and redo bring back the serial of
        # the state they restore (history_mark: where the history stands, which a
        # trimmed undo list's length cannot tell at its limit)
        self._serial = 0
        self._serials = 0  # (the last serial given)
        self._undo_serials: list[int] = []
        self._redo_serials: list[int] = []
        self._failed = False  # the values now could not be drawn (mark_failed)

    def set_used(self, used: Mapping[str, Any]) -> None:
        """The values the latest drawing used in place of unused parameters (emits
        :attr:`drawn` when they change)."""
        if dict(used) != self.used:
            self.used = dict(used)
            self.drawn.emit()

    def pin(self, values: Mapping[str, Any]) -> None:
        """Let the fields show ``values`` in place of the current ones (emits
        :attr:`drawn` when they change); ``{}`` shows the current values again. A sweep
        pins the value its plots are drawn with: the value set for the next frame is
        still being computed (on stage the field read base 931.8 over plots and a
        formula at 842.3)."""
        if dict(values) != self.pinned:
            self.pinned = dict(values)
            self.drawn.emit()

    def shown(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """``values`` as the fields show them: :attr:`pinned` ones in their place."""
        return {**values, **self.pinned} if self.pinned else dict(values)

    @property
    def view_id(self) -> str:
        return self.model.view_id

    @property
    def values(self) -> dict[str, Any]:
        """A copy of the current parameters."""
        return dict(self._values)

    def set_param(self, name: str, value: Any, *, merge: bool = True) -> bool:
        """Change one parameter. Consecutive changes of the same parameter (a slider
        drag) merge into one undo step when ``merge``. Returns whether it was accepted."""
        try:
            # (the values held are valid: the one changed alone is validated)
            new = self.model.changed(self._values, name, value)
        except ParamError as exc:
            self.error.emit(self.labelled(exc))
            return False
        return self._commit(new, merge_key=name if merge else None)

    def set_values(self, values: Mapping[str, Any]) -> bool:
        """Replace all parameters at once (scene load, reset); all-or-nothing."""
        try:
            new = self.model.validate(values)
        except ParamError as exc:
            self.error.emit(self.labelled(exc))
            return False
        return self._commit(new, merge_key=None)

    def labelled(self, exc: ParamError) -> str:
        """``exc``'s message naming the parameter by its label, as the panel shows it
        ("Dimensions to plot: expected an integer", not "dims: …"); the CLI keeps names."""
        text = str(exc)
        if exc.name in self.model.names and text.startswith(f"{exc.name}: "):
            return f"{self.model[exc.name].label}: {text[len(exc.name) + 2 :]}"
        return text

    def reset(self, name: str | None = None) -> bool:
        """Reset one parameter (or all) to the default."""
        if name is None:
            return self.set_values(self.model.defaults())
        return self.set_param(name, self.model[name].default, merge=False)

    def mark_failed(self) -> None:
        """The values now could not be drawn (the view's compute failed: a table file
        that cannot be read). They stay, as typed, with the error shown, but are no
        step of the history: the next change takes their place, so its undo goes back
        to the values drawn before them (Learned: a missing path, then the right one,
        then Ctrl+Z brought the missing path back, its error and the loaded table still
        drawn, instead of the random table). Emits :attr:`drawn` (the fields a file
        would set are used again: :meth:`unused_why`)."""
        self._failed = True
        self.drawn.emit()

    @property
    def failed(self) -> bool:
        """Whether the values now could not be drawn (:meth:`mark_failed`; the next
        change or undo clears it)."""
        return self._failed

    def unused_why(self, name: str, values: Mapping[str, Any] | None = None) -> str | None:
        """Why parameter ``name``'s value is not used with ``values`` (default: the
        current ones), ``None`` when it is: the model's reason
        (:meth:`core.params.Param.unused_why`) while those values draw, none while they
        failed. A table file that did not load sets nothing: Learned's "Table rows" and
        "Model width d" stayed greyed out after a missing path although no file was in
        use; every field is live to put the values right."""
        if self._failed:
            return None
        return self.model[name].unused_why(self._values if values is None else values)

    def _commit(self, new: dict[str, Any], merge_key: str | None) -> bool:
        if new == self._values:
            return True
        failed, self._failed = self._failed, False
        if failed:
            pass  # (the values that failed are replaced, not kept for undo)
        elif not (merge_key is not None and merge_key == self._merge_key and self._undo):
            self._undo.append(self._values)
            self._undo_serials.append(self._serial)
            del self._undo[:-UNDO_LIMIT], self._undo_serials[:-UNDO_LIMIT]
        self._merge_key = merge_key
        self._redo.clear()
        self._redo_serials.clear()
        self._values = new
        self._serials += 1
        self._serial = self._serials
        self.changed.emit(self.values)
        return True

    def history_mark(self) -> tuple[int, dict[str, Any]]:
        """Where this state stands in its history: ``(serial, values)``, the serial 0
        before any change. A change moves it on and its undo brings it back, so an edit
        outside the state (the deck's) is the latest step while the mark is the one
        taken after it. (It was the number of steps to undo: at the history's limit a
        change back to the same values left that mark as it was.)"""
        return self._serial, self.values

    @property
    def redo_values(self) -> dict[str, Any] | None:
        """The parameters :meth:`redo` would restore; ``None`` when nothing to redo."""
        return dict(self._redo[-1]) if self._redo else None

    def forget_history(self) -> None:
        """Nothing to undo or redo from here on (the values stay): where a session
        starts (``main.py present``: the deck's first scene)."""
        self._undo.clear()
        self._redo.clear()
        self._undo_serials.clear()
        self._redo_serials.clear()
        self._merge_key = None

    @property
    def merging(self) -> bool:
        """Whether the latest change may merge with the next (a slider drag, nudge keys:
        one frame of many; :meth:`end_merge` ends it)."""
        return self._merge_key is not None

    def waits_for_show(self, widget: QtWidgets.QWidget) -> bool:
        """Whether ``widget``, which follows this state, may show the latest change when
        it is shown again instead of now: a drag's change (:attr:`merging`) while only
        an ancestor hides it (the side panel, on stage) in a shown window. A widget
        hidden itself (a page of a stack not shown) follows at once: a program may set
        a view that is not shown and read its panel back."""
        return (
            self.merging
            and not widget.isHidden()
            and not widget.isVisible()
            and widget.window().isVisible()
        )

    def end_merge(self) -> None:
        """Close the current merge group (e.g. on slider release)."""
        self._merge_key = None

    def undo(self) -> bool:
        """Restore the previous parameters; False when there is nothing to undo."""
        if not self._undo:
            return False
        self._redo.append(self._values)
        self._redo_serials.append(self._serial)
        self._values = self._undo.pop()
        self._serial = self._undo_serials.pop()
        self._merge_key = None
        self._failed = False
        self.changed.emit(self.values)
        return True

    def value_text(self, name: str, value: Any) -> str:
        """``value`` of parameter ``name`` as its field shows it: a float at its
        decimals without trailing zeros ("10000", "0.5"), a text in quotes, a list
        comma-separated, a switch on or off."""
        param = self.model[name]
        if param.kind == "float":
            return number(value, param.decimals)  # (as the formula line writes it)
        if param.kind in ("text", "file"):
            return f"\u201c{value}\u201d"
        if param.kind == "bool":
            return "on" if value else "off"
        return param.format(value)

    def change_text(
        self,
        before: Mapping[str, Any],
        after: Mapping[str, Any],
        *,
        back: bool = False,
        short: bool = False,
    ) -> str:
        """What moving from ``before`` to ``after`` did, for a status line: "Base to
        10000" for one parameter ("Base back to 10000" when ``back``: an undo), "Base,
        Model width d and 1 more changed" for several ("… back" when ``back``), labels
        as the panel shows them; ``short``: "Base → 10000", "3 parameters". ``""`` when
        nothing changed."""
        names = [n for n in self.model.names if before.get(n) != after.get(n)]
        if not names:
            return ""
        if len(names) == 1:
            name = names[0]
            to = "\u2192" if short else "back to" if back else "to"
            return f"{self.model[name].label} {to} {self.value_text(name, after[name])}"
        if short:
            return f"{len(names)} parameters"
        labels = [self.model[n].label for n in names[:2]]
        more = f" and {len(names) - 2} more" if len(names) > 2 else ""
        return f"{', '.join(labels)}{more} {'back' if back else 'changed'}"

    def redo(self) -> bool:
        """Re-apply an undone change; False when there is nothing to redo."""
        if not self._redo:
            return False
        if not self._failed:  # (values that failed are no step: mark_failed)
            self._undo.append(self._values)
            self._undo_serials.append(self._serial)
        self._failed = False
        self._values = self._redo.pop()
        self._serial = self._redo_serials.pop()
        self._merge_key = None
        self.changed.emit(self.values)
        return True
