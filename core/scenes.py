"""Scene and deck files: a view with all its parameters, or an ordered list of them.

A *scene* is one view (``view``), its complete parameters (``params``), a ``title`` shown
large while presenting and a speaker ``note``::

    {"format": "pe-studio-scene", "version": 1, "view": "rope",
     "title": "Position 5 vs 9", "note": "Only the offset matters.",
     "params": {"head_dim": 64, "m": 5, "n": 9, ...}}

A *deck* is an ordered list of scenes for a lecture::

    {"format": "pe-studio-deck", "version": 1, "title": "...", "scenes": [{...}, ...]}

Scenes inside a deck need only ``view`` and ``params`` (``format``/``version`` optional).
Three optional fields stage a scene (see :class:`Scene`): ``panels`` (which panels to show,
in which order: ``["waves", "heatmap"]``), ``reveal`` (``true``: Page Down reveals the
panels one at a time before moving on) and ``highlight`` (one curve, row, head or cell
emphasised while the rest is dimmed: ``{"panel": "waves", "series": "dim 4"}``,
``{"panel": "grid", "row": 5}``, ``{"panel": "heads", "head": 3}``,
``{"panel": "grid", "cell": [5, 2]}``).
Parameters missing from ``params`` take their defaults (files from older versions keep
loading); every given value is validated through the view's
:class:`~core.params.ParamModel`, and the combination by computing the view at a tiny
size (a deck cannot hold parameters its view cannot draw). Every problem raises
:class:`SceneError` with one line naming the field (``params.seq_len: 0 is out of range
1..65536``); nothing is returned half-validated. Pure Python: no Qt.

Limits (a deck is a file lecturers share, so everything in it is bounded): only a regular
file of at most :data:`MAX_FILE_BYTES` is read (never a FIFO or a device); a UTF-8 byte
order mark is accepted; a title holds at most :data:`MAX_TITLE_CHARS` characters and a
note :data:`MAX_NOTE_CHARS`; text that cannot be written back as UTF-8 (a lone
surrogate) is refused, so every loaded deck can be saved again.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from core.atomicio import atomic_write_text
from core.fileread import FileReadError, read_regular
from core.memory import MemoryBudgetError
from core.params import MAX_NUMBER_CHARS, ParamError, ParamModel, check_encodable, short_repr
from core.viewdata import ComputeContext, Panel, ViewData
from core.views import VIEWS, compute_view, get_view

SCENE_FORMAT = "pe-studio-scene"
DECK_FORMAT = "pe-studio-deck"
FORMAT_VERSION = 1

MAX_FILE_BYTES = 4 * 2**20
MAX_NOTE_CHARS = 64 * 1024
MAX_TITLE_CHARS = 1000
MAX_SCENES = 1000

# Parameter combinations are checked by computing the view this small (cheap, and the
# same checks as the display's computation).
CHECK_CONTEXT = ComputeContext(max_cells=16, max_points=64)

_SCENE_KEYS = (
    "format",
    "version",
    "view",
    "title",
    "note",
    "params",
    "panels",
    "reveal",
    "highlight",
)
HIGHLIGHT_KINDS = ("series", "row", "head", "cell")
MAX_SERIES_CHARS = 200
_DECK_KEYS = ("format", "version", "title", "scenes")

__all__ = [
    "DECK_FORMAT",
    "FORMAT_VERSION",
    "MAX_FILE_BYTES",
    "MAX_NOTE_CHARS",
    "MAX_SCENES",
    "MAX_TITLE_CHARS",
    "SCENE_FORMAT",
    "HIGHLIGHT_KINDS",
    "Deck",
    "Highlight",
    "Scene",
    "SceneError",
    "check_scene_files",
    "deck_from_dict",
    "deck_to_dict",
    "file_params",
    "load_deck",
    "load_scene",
    "panel_keys",
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
class Highlight:
    """What a scene emphasises in one of its panels while the rest is dimmed.

    Attributes
    ----------
    panel
        Key of the panel.
    kind
        ``series`` (a curve or arrow, by its name or the name's first words: ``"dim 4"``
        matches ``"dim 4 (sin)"``), ``row`` (a heatmap row, by its position), ``head`` (a
        tile of a mosaic of heads, from 1) or ``cell`` (a heatmap cell, ``(row, col)``
        positions).
    value
        The name, row, head or ``(row, col)``.
    """

    panel: str
    kind: Literal["series", "row", "head", "cell"]
    value: str | int | tuple[int, int]

    def to_json(self) -> dict[str, Any]:
        """The JSON object of the highlight."""
        value = list(self.value) if isinstance(self.value, tuple) else self.value
        return {"panel": self.panel, self.kind: value}


@dataclass(frozen=True)
class Scene:
    """One view with all its (validated) parameters, a title and a speaker note.

    Attributes
    ----------
    panels
        Keys of the panels to show, in this order; ``()``: all, as the view lays them out.
    reveal
        Whether stepping forward reveals the shown panels one at a time first.
    highlight
        What to emphasise, or ``None``.
    """

    view_id: str
    params: dict[str, Any] = field(default_factory=dict)
    title: str = ""
    note: str = ""
    panels: tuple[str, ...] = ()
    reveal: bool = False
    highlight: Highlight | None = None


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


class _HugeNumber:
    """Stands for a JSON integer too long to convert; every validator refuses it."""

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"a {self.digits}-digit number"


def _json_int(text: str) -> int | _HugeNumber:
    return int(text) if len(text) <= MAX_NUMBER_CHARS else _HugeNumber(len(text))


def _key(key: Any) -> str:
    """A key as shown in a field path: itself if short and printable, else abbreviated."""
    return key if isinstance(key, str) and key.isprintable() and len(key) <= 60 else short_repr(key)


def _check_header(data: Any, fmt: str, prefix: str, required: bool) -> None:
    if not isinstance(data, dict):
        raise SceneError(prefix.rstrip("."), f"expected a JSON object, got {type(data).__name__}")
    if "format" in data or required:
        if "format" not in data:
            raise SceneError(f"{prefix}format", f"missing (expected {fmt!r})")
        got = data["format"]
        if not isinstance(got, str) or got != fmt:
            kinds = {SCENE_FORMAT: "a scene", DECK_FORMAT: "a deck"}
            other = kinds.get(got) if isinstance(got, str) else None
            hint = f" (this file is {other})" if other else ""
            raise SceneError(f"{prefix}format", f"expected {fmt!r}, got {short_repr(got)}{hint}")
    if "version" in data or required:
        if "version" not in data:
            raise SceneError(f"{prefix}version", f"missing (expected {FORMAT_VERSION})")
        version = data["version"]
        if isinstance(version, bool) or not isinstance(version, int):
            raise SceneError(f"{prefix}version", f"expected an integer, got {short_repr(version)}")
        if version > FORMAT_VERSION:
            raise SceneError(
                f"{prefix}version",
                f"{short_repr(version)} is newer than this program "
                f"supports ({FORMAT_VERSION}); update Positional Encoding Studio",
            )
        if version < 1:
            raise SceneError(f"{prefix}version", f"{short_repr(version)} is not a valid version")


def _check_keys(data: Mapping[str, Any], allowed: tuple[str, ...], prefix: str) -> None:
    for key in data:
        if key not in allowed:
            raise SceneError(f"{prefix}{_key(key)}", f"unknown key; allowed: {', '.join(allowed)}")


def _text(data: Mapping[str, Any], key: str, prefix: str) -> str:
    value = data.get(key, "")
    if not isinstance(value, str):
        raise SceneError(f"{prefix}{key}", f"expected text, got {short_repr(value)}")
    limit = MAX_NOTE_CHARS if key == "note" else MAX_TITLE_CHARS
    if len(value) > limit:
        raise SceneError(f"{prefix}{key}", f"{len(value)} characters, over the limit of {limit}")
    try:
        check_encodable(key, value)
    except ParamError as exc:
        raise SceneError(f"{prefix}{key}", str(exc)[len(key) + 2 :]) from None
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
    if scene.panels:
        out["panels"] = list(scene.panels)
    if scene.reveal:
        out["reveal"] = True
    if scene.highlight is not None:
        out["highlight"] = scene.highlight.to_json()
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
            f"{prefix}view",
            f"unknown view {short_repr(view_id)}; known views: {', '.join(VIEWS)}",
        )
    if "params" not in data:
        raise SceneError(f"{prefix}params", "missing (an object of parameter values)")
    params = data["params"]
    if not isinstance(params, dict):
        raise SceneError(f"{prefix}params", f"expected an object, got {short_repr(params)}")
    model = VIEWS[view_id].model
    try:
        values = model.validate(params, partial=True)
    except ParamError as exc:
        raise SceneError(f"{prefix}params.{exc.name}", str(exc)[len(exc.name) + 2 :]) from None
    computed = _check_combination(view_id, values, prefix)
    title, note = _text(data, "title", prefix), _text(data, "note", prefix)
    panels, reveal, highlight = _staging(data, view_id, computed, prefix)
    return Scene(view_id, values, title, note, panels, reveal, highlight)


# --------------------------------------------------------------------- staging
@cache
def _default_data(view_id: str) -> ViewData:
    """The view at its defaults, tiny: which panels it has and what kind each is."""
    return compute_view(view_id, VIEWS[view_id].model.validate({}, partial=True), CHECK_CONTEXT)


def panel_keys(view_id: str) -> tuple[str, ...]:
    """The keys of the panels of ``view_id``, in the view's order."""
    return tuple(p.key for p in _default_data(view_id).panels)


def _staging(
    data: Mapping[str, Any], view_id: str, computed: ViewData | None, prefix: str
) -> tuple[tuple[str, ...], bool, Highlight | None]:
    """The scene's optional ``panels``, ``reveal`` and ``highlight`` fields, validated
    against the view's panels (``computed``: the scene's own tiny computation, ``None``
    for a scene that reads a table file, whose names and ranges are checked when shown)."""
    keys = panel_keys(view_id)
    known = f"panels of {view_id}: {', '.join(keys)}"
    panels: tuple[str, ...] = ()
    if "panels" in data:
        raw = data["panels"]
        if not isinstance(raw, list):
            raise SceneError(f"{prefix}panels", f"expected a list of panel keys; {known}")
        if not raw:
            raise SceneError(f"{prefix}panels", f"expected at least one panel key; {known}")
        for i, key in enumerate(raw):
            where = f"{prefix}panels[{i}]"
            if not isinstance(key, str) or key not in keys:
                raise SceneError(where, f"unknown panel {short_repr(key)}; {known}")
            if key in raw[:i]:
                raise SceneError(where, f"{key!r} is listed twice")
        panels = tuple(raw)
    reveal = data.get("reveal", False)
    if not isinstance(reveal, bool):
        raise SceneError(f"{prefix}reveal", f"expected true or false, got {short_repr(reveal)}")
    highlight = None
    if "highlight" in data:
        highlight = _highlight(data["highlight"], view_id, panels or keys, computed, prefix)
    return panels, reveal, highlight


def _shows(kind: str) -> str:
    """A panel kind as a message names what it shows ("arrows", "a heatmap"; it said
    "is a arrows")."""
    return {"heatmap": "a heatmap", "table": "a table"}.get(kind, kind)


def _highlight(
    raw: Any, view_id: str, shown: tuple[str, ...], computed: ViewData | None, prefix: str
) -> Highlight:
    where = f"{prefix}highlight"
    example = '{"panel": "<key>", "series" | "row" | "head" | "cell": ...}'
    if not isinstance(raw, dict):
        raise SceneError(where, f"expected an object like {example}, got {short_repr(raw)}")
    _check_keys(raw, ("panel", *HIGHLIGHT_KINDS), f"{where}.")
    key = raw.get("panel")
    if key is None:
        raise SceneError(f"{where}.panel", f"missing; one of {', '.join(shown)}")
    if not isinstance(key, str) or key not in shown:
        raise SceneError(
            f"{where}.panel", f"{short_repr(key)} is not a shown panel; one of {', '.join(shown)}"
        )
    kinds = [k for k in HIGHLIGHT_KINDS if k in raw]
    if len(kinds) != 1:
        raise SceneError(where, f"expected exactly one of {', '.join(HIGHLIGHT_KINDS)}")
    kind = kinds[0]
    value = raw[kind]
    field_name = f"{where}.{kind}"
    panel = _default_data(view_id).panel(key)
    own = computed.panel(key) if computed is not None else None
    if kind == "series":
        if panel.kind not in ("curves", "arrows"):
            raise SceneError(field_name, f"panel {key!r} shows {_shows(panel.kind)}, not curves")
        if not isinstance(value, str) or not value.strip():
            raise SceneError(field_name, f"expected a series name, got {short_repr(value)}")
        if len(value) > MAX_SERIES_CHARS:
            raise SceneError(field_name, f"over the limit of {MAX_SERIES_CHARS} characters")
        try:
            check_encodable(kind, value)
        except ParamError as exc:
            raise SceneError(field_name, str(exc)[len(kind) + 2 :]) from None
        if own is not None:
            names = series_names(own)
            if not any(name_matches(n, value) for n in names):
                listed = ", ".join(repr(n) for n in names[:8])
                raise SceneError(
                    field_name, f"no series {short_repr(value)} in {key!r}; series: {listed}"
                )
        return Highlight(key, "series", value)
    if kind == "head" and not panel.tiles:
        raise SceneError(field_name, f"panel {key!r} is not a mosaic of heads")
    if panel.kind != "heatmap":
        raise SceneError(field_name, f"panel {key!r} shows {_shows(panel.kind)}, not a heatmap")
    if kind == "head":
        if isinstance(value, bool) or not isinstance(value, int):
            raise SceneError(field_name, f"expected a head number, got {short_repr(value)}")
        count = len(own.tiles) if own is not None else None
        if value < 1 or (count is not None and value > count):
            raise SceneError(
                field_name, f"{short_repr(value)} is not a head of 1..{count or 'the heads'}"
            )
        return Highlight(key, "head", value)
    if kind == "row":
        row = _int(value, field_name, "a row position")
        if own is not None:
            _in_range(row, own, 0, field_name, "row")
        return Highlight(key, "row", row)
    if not isinstance(value, list) or len(value) != 2:
        raise SceneError(field_name, f"expected [row, column], got {short_repr(value)}")
    row = _int(value[0], f"{field_name}[0]", "a row position")
    col = _int(value[1], f"{field_name}[1]", "a column position")
    if own is not None:
        _in_range(row, own, 0, f"{field_name}[0]", "row")
        _in_range(col, own, 1, f"{field_name}[1]", "column")
    return Highlight(key, "cell", (row, col))


def _int(value: Any, field_name: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SceneError(field_name, f"expected {what} (an integer), got {short_repr(value)}")
    return value


def _in_range(value: int, panel: Panel, axis: int, field_name: str, what: str) -> None:
    """Refuse a row (``axis`` 0) or column (1) outside the heatmap's positions. Sampled
    axes are known only up to the last sample's block: the bound is that block's end."""
    lo, hi = heatmap_extent(panel, axis)
    if not lo <= value <= hi:
        raise SceneError(
            field_name, f"{short_repr(value)} is outside the panel's {what}s {lo}..{hi}"
        )


def heatmap_extent(panel: Panel, axis: int) -> tuple[int, int]:
    """The first and last position of a heatmap's rows (``axis`` 0) or columns (1), per
    tile for a mosaic."""
    coords: Any
    if panel.tiles:
        tile = panel.tiles[0]
        coords = tile.y_coords if axis == 0 else tile.x_coords
    else:
        coords = panel.y_coords if axis == 0 else panel.x_coords
        if coords is None and panel.image is not None:
            coords = range(panel.image.shape[axis])
    values = [int(c) for c in (coords if coords is not None else [0])]
    step = values[1] - values[0] if len(values) > 1 else 1
    return values[0], values[-1] + max(step, 1) - 1


def series_names(panel: Panel) -> list[str]:
    """Names of a panel's curves (or arrows)."""
    return [s.name for s in panel.series] or [a.name for a in panel.arrows]


def name_matches(name: str, wanted: str) -> bool:
    """Whether a series ``name`` is the one ``wanted`` names: equal, or ``wanted`` is its
    first words (``"dim 4"`` matches ``"dim 4 (sin)"`` and ``"dim 4, …"``, not ``"dim 40"``)."""
    wanted = wanted.strip()
    return name == wanted or (
        name.startswith(wanted) and not name[len(wanted)].isalnum() and name[len(wanted)] != "."
    )


def file_params(view_id: str, values: Mapping[str, Any]) -> tuple[str, ...]:
    """The names of ``view_id``'s file parameters that ``values`` sets (a table file the
    view reads when it is shown), in the model's order."""
    return tuple(
        p.name
        for p in VIEWS[view_id].model.params
        if p.kind == "file" and str(values.get(p.name, "")).strip()
    )


def check_scene_files(scene: Scene, prefix: str = "") -> None:
    """Read the files ``scene`` names (a Learned table) as showing it would, and refuse
    the scene if one cannot be read or used.

    Loading a deck does not do this (:func:`_check_combination`): in the window a missing
    file is reported by the view when it is shown, and can be chosen again there. An
    export has nobody to show it to, so it checks first.

    Raises
    ------
    SceneError
        Naming the file parameter(s), the scene's title and the problem, e.g.
        ``scenes[0].params.table_file ('GPT-2'): wpe.npy: cannot read (No such file or
        directory)``.
    """
    names = file_params(scene.view_id, scene.params)
    if not names:
        return
    try:
        values = VIEWS[scene.view_id].model.validate(scene.params, partial=True)
        compute_view(scene.view_id, values, CHECK_CONTEXT)
    except (ValueError, MemoryBudgetError) as exc:
        lines = str(exc).splitlines()
        fields = ", ".join(f"{prefix}params.{name}" for name in names)
        title = f" ({scene.title!r})" if scene.title.strip() else ""
        raise SceneError(f"{fields}{title}", lines[0] if lines else type(exc).__name__) from None


def _check_combination(view_id: str, values: Mapping[str, Any], prefix: str) -> ViewData | None:
    """Refuse parameters that are valid one by one but that the view cannot draw together
    (a word order whose sentences are not permutations of each other, T5 buckets that do
    not fit ``max_distance``, ...). Scenes that read a table file are not computed here:
    a missing file is not an impossible combination, and the view reports it when shown.
    """
    if file_params(view_id, values):
        return None
    try:
        return compute_view(view_id, values, CHECK_CONTEXT)
    except (ValueError, MemoryBudgetError) as exc:
        lines = str(exc).splitlines()
        raise SceneError(f"{prefix}params", lines[0] if lines else type(exc).__name__) from None


def _read_json(path: str | os.PathLike[str], what: str) -> Any:
    """Decode a scene or deck file (regular file, size-limited, UTF-8 with optional BOM)."""
    try:
        raw = read_regular(path, MAX_FILE_BYTES, what)
    except FileReadError as exc:
        raise SceneError("", str(exc)) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SceneError("", f"not a UTF-8 text file ({exc.reason} at byte {exc.start})") from None
    return parse_json(text)


def parse_json(text: str) -> Any:
    """``json.loads`` whose every failure is a :class:`SceneError` (file-level, one line).

    Integers too long to convert become a placeholder the validators refuse with the
    field's name; nesting beyond the interpreter's recursion limit is refused here.
    """
    try:
        return json.loads(text, parse_int=_json_int)
    except json.JSONDecodeError as exc:
        raise SceneError(
            "", f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise SceneError("", "invalid JSON: nested too deeply") from None
    except ValueError as exc:
        raise SceneError("", f"invalid JSON: {exc}") from None


def load_scene(path: str | os.PathLike[str]) -> Scene:
    """Read and validate a scene file.

    Raises
    ------
    SceneError
        Unreadable file, invalid JSON (line and column), or a bad field.
    """
    return scene_from_dict(_read_json(path, "scene"))


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
    if len(scenes) > MAX_SCENES:
        raise SceneError("scenes", f"{len(scenes)} scenes, over the limit of {MAX_SCENES}")
    parsed = tuple(
        scene_from_dict(s, prefix=f"scenes[{i}].", in_deck=True) for i, s in enumerate(scenes)
    )
    return Deck(_text(data, "title", ""), parsed)


def load_deck(path: str | os.PathLike[str]) -> Deck:
    """Read and validate a deck file (see :func:`deck_from_dict`)."""
    return deck_from_dict(_read_json(path, "deck"))


def save_deck(deck: Deck, path: str | os.PathLike[str]) -> None:
    """Write ``deck`` to ``path`` atomically (validated first; ``SceneError`` if bad)."""
    data = deck_to_dict(deck)
    deck_from_dict(json.loads(json.dumps(data)))
    atomic_write_text(path, _dump(data))
