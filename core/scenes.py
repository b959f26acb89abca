"""Scene and deck files: a view with all its parameters, or an ordered list of them.

A *scene* is one view (``view``), its complete parameters (``params``), a ``title`` shown
large while presenting and a speaker ``note``::

    {"format": "pe-studio-scene", "version": 1, "view": "rope",
     "title": "Position 5 vs 9", "note": "Only the offset matters.",
     "params": {"head_dim": 64, "m": 5, "n": 9, ...}}

A *deck* is an ordered list of scenes for a lecture::

    {"format": "pe-studio-deck", "version": 1, "title": "...", "scenes": [{...}, ...]}

Scenes inside a deck need only ``view`` and ``params`` (``format``/``version`` optional).
Parameters missing from ``params`` take their defaults (files from older versions keep
loading); every given value is validated through the view's
:class:`~core.params.ParamModel`. Every problem raises :class:`SceneError` with one line
naming the field (``params.seq_len: 0 is out of range 1..65536``); nothing is returned
half-validated. Pure Python: no Qt.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.atomicio import atomic_write_text
from core.params import ParamError, ParamModel
from core.views import VIEWS, get_view

SCENE_FORMAT = "pe-studio-scene"
DECK_FORMAT = "pe-studio-deck"
FORMAT_VERSION = 1

_SCENE_KEYS = ("format", "version", "view", "title", "note", "params")
_DECK_KEYS = ("format", "version", "title", "scenes")

__all__ = [
    "DECK_FORMAT",
    "FORMAT_VERSION",
    "SCENE_FORMAT",
    "Deck",
    "Scene",
    "SceneError",
    "deck_from_dict",
    "deck_to_dict",
    "load_deck",
    "load_scene",
    "params_to_json",
    "save_deck",
    "save_scene",
    "scene_from_dict",
    "scene_to_dict",
]


class SceneError(ValueError):
    """A scene or deck file is unusable. ``str()`` is one line naming the field.

    Attributes
    ----------
    field
        Dotted path of the offending field (``params.seq_len``, ``scenes[2].view``) or
        ``""`` for file-level problems (unreadable file, invalid JSON).
    """

    def __init__(self, field_name: str, message: str) -> None:
        self.field = field_name
        super().__init__(f"{field_name}: {message}" if field_name else message)


@dataclass(frozen=True)
class Scene:
    """One view with all its (validated) parameters, a title and a speaker note."""

    view_id: str
    params: dict[str, Any] = field(default_factory=dict)
    title: str = ""
    note: str = ""


@dataclass(frozen=True)
class Deck:
    """An ordered list of scenes with a title."""

    title: str = ""
    scenes: tuple[Scene, ...] = ()


# --------------------------------------------------------------------- helpers
def _json_value(value: Any) -> Any:
    """``value`` as a JSON-native object (tuples → lists)."""
    if isinstance(value, (tuple, list)):
        return [_json_value(v) for v in value]
    return value


def params_to_json(model: ParamModel, values: Mapping[str, Any]) -> dict[str, Any]:
    """Parameters in model order, formatted JSON-native (tuples as lists)."""
    return {p.name: _json_value(values[p.name]) for p in model.params if p.name in values}


def _check_header(data: Any, fmt: str, prefix: str, required: bool) -> None:
    if not isinstance(data, dict):
        raise SceneError(prefix.rstrip("."), f"expected a JSON object, got {type(data).__name__}")
    if "format" in data or required:
        if "format" not in data:
            raise SceneError(f"{prefix}format", f"missing (expected {fmt!r})")
        got = data["format"]
        if got != fmt:
            other = {SCENE_FORMAT: "a scene", DECK_FORMAT: "a deck"}.get(got)
            hint = f" (this file is {other})" if isinstance(got, str) and other else ""
            raise SceneError(f"{prefix}format", f"expected {fmt!r}, got {got!r}{hint}")
    if "version" in data or required:
        if "version" not in data:
            raise SceneError(f"{prefix}version", f"missing (expected {FORMAT_VERSION})")
        version = data["version"]
        if isinstance(version, bool) or not isinstance(version, int):
            raise SceneError(f"{prefix}version", f"expected an integer, got {version!r}")
        if version > FORMAT_VERSION:
            raise SceneError(
                f"{prefix}version",
                f"{version} is newer than this program "
                f"supports ({FORMAT_VERSION}); update Positional Encoding Studio",
            )
        if version < 1:
            raise SceneError(f"{prefix}version", f"{version} is not a valid version")


def _check_keys(data: Mapping[str, Any], allowed: tuple[str, ...], prefix: str) -> None:
    for key in data:
        if key not in allowed:
            raise SceneError(f"{prefix}{key}", f"unknown key; allowed: {', '.join(allowed)}")


def _text(data: Mapping[str, Any], key: str, prefix: str) -> str:
    value = data.get(key, "")
    if not isinstance(value, str):
        raise SceneError(f"{prefix}{key}", f"expected text, got {value!r}")
    return value


# --------------------------------------------------------------------- scenes
def scene_to_dict(scene: Scene, *, header: bool = True) -> dict[str, Any]:
    """The JSON object of ``scene`` (without ``format``/``version`` unless ``header``)."""
    model = get_view(scene.view_id).model
    out: dict[str, Any] = {"format": SCENE_FORMAT, "version": FORMAT_VERSION} if header else {}
    out.update(
        {
            "view": scene.view_id,
            "title": scene.title,
            "note": scene.note,
            "params": params_to_json(model, scene.params),
        }
    )
    return out


def scene_from_dict(data: Any, *, prefix: str = "", in_deck: bool = False) -> Scene:
    """Validate a scene object and return the :class:`Scene`.

    Parameters
    ----------
    data
        The decoded JSON object.
    prefix
        Prepended to field names in messages (``scenes[2].``).
    in_deck
        Scenes inside a deck may omit ``format`` and ``version``.

    Raises
    ------
    SceneError
        Naming the first bad field.
    """
    _check_header(data, SCENE_FORMAT, prefix, required=not in_deck)
    _check_keys(data, _SCENE_KEYS, prefix)
    if "view" not in data:
        raise SceneError(f"{prefix}view", f"missing; one of {', '.join(VIEWS)}")
    view_id = data["view"]
    if not isinstance(view_id, str) or view_id not in VIEWS:
        raise SceneError(
            f"{prefix}view", f"unknown view {view_id!r}; known views: {', '.join(VIEWS)}"
        )
    if "params" not in data:
        raise SceneError(f"{prefix}params", "missing (an object of parameter values)")
    params = data["params"]
    if not isinstance(params, dict):
        raise SceneError(f"{prefix}params", f"expected an object, got {params!r}")
    model = VIEWS[view_id].model
    try:
        values = model.validate(params, partial=True)
    except ParamError as exc:
        raise SceneError(f"{prefix}params.{exc.name}", str(exc)[len(exc.name) + 2 :]) from None
    return Scene(view_id, values, _text(data, "title", prefix), _text(data, "note", prefix))


def _read_json(path: str | os.PathLike[str]) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise SceneError("", f"not a UTF-8 text file ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise SceneError("", f"cannot read {os.fspath(path)!r}: {exc.strerror or exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SceneError(
            "", f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None


def load_scene(path: str | os.PathLike[str]) -> Scene:
    """Read and validate a scene file.

    Raises
    ------
    SceneError
        Unreadable file, invalid JSON (line and column), or a bad field.
    """
    return scene_from_dict(_read_json(path))


_NUMBER_LIST = re.compile(r"\[\s+(-?[\d.eE+-]+(?:,\s+-?[\d.eE+-]+)*)\s+\]")


def _dump(data: dict[str, Any]) -> str:
    """Indented JSON with short number lists kept on one line."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return (
        _NUMBER_LIST.sub(
            lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",")) + "]", text
        )
        + "\n"
    )


def save_scene(scene: Scene, path: str | os.PathLike[str]) -> None:
    """Write ``scene`` to ``path`` atomically (validated first; ``SceneError`` if bad)."""
    data = scene_to_dict(scene)
    scene_from_dict(json.loads(json.dumps(data)))  # never write a file we cannot read
    atomic_write_text(path, _dump(data))


# --------------------------------------------------------------------- decks
def deck_to_dict(deck: Deck) -> dict[str, Any]:
    """The JSON object of ``deck``."""
    return {
        "format": DECK_FORMAT,
        "version": FORMAT_VERSION,
        "title": deck.title,
        "scenes": [scene_to_dict(s, header=False) for s in deck.scenes],
    }


def deck_from_dict(data: Any) -> Deck:
    """Validate a deck object (every scene) and return the :class:`Deck`.

    Raises
    ------
    SceneError
        Naming the first bad field, e.g. ``scenes[3].params.seq_len``.
    """
    _check_header(data, DECK_FORMAT, "", required=True)
    _check_keys(data, _DECK_KEYS, "")
    if "scenes" not in data:
        raise SceneError("scenes", "missing (a list of scenes)")
    scenes = data["scenes"]
    if not isinstance(scenes, list):
        raise SceneError("scenes", f"expected a list, got {type(scenes).__name__}")
    if not scenes:
        raise SceneError("scenes", "a deck needs at least one scene")
    parsed = tuple(
        scene_from_dict(s, prefix=f"scenes[{i}].", in_deck=True) for i, s in enumerate(scenes)
    )
    return Deck(_text(data, "title", ""), parsed)


def load_deck(path: str | os.PathLike[str]) -> Deck:
    """Read and validate a deck file (see :func:`deck_from_dict`)."""
    return deck_from_dict(_read_json(path))


def save_deck(deck: Deck, path: str | os.PathLike[str]) -> None:
    """Write ``deck`` to ``path`` atomically (validated first; ``SceneError`` if bad)."""
    data = deck_to_dict(deck)
    deck_from_dict(json.loads(json.dumps(data)))
    atomic_write_text(path, _dump(data))
