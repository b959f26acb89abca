"""The deck's undo history: opening a deck, going to a scene, adding, replacing,
removing and moving scenes.

Ctrl+Z / Ctrl+Shift+Z undo the views' parameters (:class:`gui.widgets.state.ViewState`,
one history per view); a deck edit joins that order: it is undone while it is the latest
step, that is while the current view's parameters have not changed since it (each
state's :meth:`~gui.widgets.state.ViewState.history_mark` is taken after every deck step
and compared). An edit that showed another scene (removing one shows the scene now in its
place) set that view's parameters; its undo undoes that change too, so the window is as
it was before the edit, and an older deck edit is the latest step again. Opening a deck
and going to a scene are steps too, for the same reason: the scene they showed set its
view's parameters, and undoing only that change left the deck on the scene over the
values from before it (Ctrl+Z right after opening a deck showed scene 1's title over
the plots of before the deck). Undoing the opening brings back the deck shown before
(none: the deck closes), with its own steps below.

:class:`DeckHistory` keeps the steps; :class:`gui.lecture.deck.DeckController` makes and
restores them (:class:`DeckPlace`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.scenes import Scene
from gui.widgets.state import UNDO_LIMIT, ViewState

Mark = tuple[int, dict[str, Any]]


@dataclass(frozen=True)
class DeckPlace:
    """The deck as an edit found or left it: its scenes, the index of the current one
    (-1: none), the view shown and the scene opened from a file whose heading shows
    (``None``: none; File ▸ Open scene… is an undo step too: undoing only its values
    left its heading over the values from before)."""

    scenes: tuple[Scene, ...]
    index: int
    view_id: str
    opened: Scene | None = None


@dataclass(frozen=True)
class DeckFile:
    """Which deck is open: its title, its file (``None``: none, or a new deck) and its
    scenes as opened or saved last (what "unsaved changes" compares with). A deck
    closed or never opened has no title, file or scenes."""

    title: str
    path: Path | None
    saved: tuple[Scene, ...]


@dataclass
class DeckEdit:
    """One undoable deck edit.

    Attributes
    ----------
    what
        What it did, for the status line ("removing scene 3 “Rotation”").
    before, after
        The deck before and after it.
    applied
        The views whose parameters it set (removing a scene shows the next one).
    values
        The parameters it set in each of those views (what its redo sets again).
    marks
        Every view's history mark after the edit (or after its last undo or redo).
    merge
        Edits with the same key made one after another are one step (typing a
        scene's note); ``""``: never merged.
    files
        The deck open before and after it, for an edit that opened another deck
        (``None`` for the others: they keep the deck).
    """

    what: str
    before: DeckPlace
    after: DeckPlace
    applied: tuple[str, ...]
    values: dict[str, dict[str, Any]] = field(default_factory=dict)
    marks: dict[str, Mark] = field(default_factory=dict)
    merge: str = ""
    files: tuple[DeckFile, DeckFile] | None = None


def history_marks(states: Mapping[str, ViewState]) -> dict[str, Mark]:
    """Each view's :meth:`~gui.widgets.state.ViewState.history_mark`."""
    return {view_id: state.history_mark() for view_id, state in states.items()}


class DeckHistory:
    """Undo and redo stacks of :class:`DeckEdit` (at most ``UNDO_LIMIT`` each)."""

    def __init__(self) -> None:
        self.undo_steps: list[DeckEdit] = []
        self.redo_steps: list[DeckEdit] = []

    def __bool__(self) -> bool:
        return bool(self.undo_steps or self.redo_steps)

    def clear(self) -> None:
        """Forget every step (another deck was opened, or the deck closed)."""
        self.undo_steps.clear()
        self.redo_steps.clear()

    def record(self, edit: DeckEdit) -> None:
        """``edit`` was made (its marks taken after it): the latest step; a new edit
        drops what was undone, as a parameter change drops the views' redo."""
        self.undo_steps.append(edit)
        del self.undo_steps[:-UNDO_LIMIT]
        self.redo_steps.clear()

    @staticmethod
    def latest(edit: DeckEdit, states: Mapping[str, ViewState], current: str) -> bool:
        """Whether ``edit`` is the latest step for the view ``current``: neither its
        parameters nor those of a view the edit set changed since (a view made since
        has no step of its own)."""
        for view_id in {current, *edit.applied}:
            state = states.get(view_id)
            if state is None:
                continue
            mark = edit.marks.get(view_id)
            now = state.history_mark()
            if (now[0] != 0) if mark is None else (now != mark):
                return False
        return True
