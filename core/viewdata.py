"""What a view shows, as plain data: the contract between ``core`` and the GUI/exporters.

A view's ``compute`` turns validated parameters into a :class:`ViewData` — a list of
:class:`Panel` objects (curves, heatmaps, arrows, bars, tables) with axis labels, notes
and an exact-value ``probe`` for hover readouts. The GUI only draws these arrays, and
the exporters only write them, so "the plot equals the core's output" by construction.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from core.params import ParamModel

PanelKind = Literal["curves", "heatmap", "arrows", "bars", "table"]
Colormap = Literal["diverging", "sequential", "categorical"]


@dataclass
class Series:
    """One curve (or bar series) of a ``curves``/``bars`` panel."""

    name: str
    x: np.ndarray
    y: np.ndarray
    style: Literal["line", "step", "scatter", "dashed"] = "line"
    color: int | None = None
    """Palette index of the colour; ``None``: the series' own index in its panel."""
    opacity: float = 1.0
    """0..1; below 1 the curve is drawn faded (a trail's older part, a ghost)."""
    straight: bool = False
    """Each run of points between NaN separators lies on the straight line through its
    ends (ALiBi's bias −m·d against the distance d): a window may draw each run from its
    ends alone. The points stay what readouts and exports read."""


@dataclass(frozen=True)
class Band:
    """A range of x of a ``curves`` panel where there is no data, and why: drawn as a
    hatched band over the plot's whole height with ``label`` in the legend (e.g. the
    learned table's positions that have no row). Not data: CSV/NPY leave it out."""

    x0: float
    x1: float
    label: str


@dataclass
class Arrow:
    """A 2-D vector from the origin, drawn in an ``arrows`` panel."""

    name: str
    x: float
    y: float


@dataclass
class Label:
    """A text placed at data coordinates ``(x, y)`` of an ``arrows`` panel (an angle's
    value beside its arc), centred there, in palette colour ``color``.

    A ``strip`` label is a line of the panel's caption instead: drawn in a strip between
    the title and the data, never over the arrows (``x`` and ``y`` are not used), in
    the order of the panel's labels. A text that names no point of the plane (the
    clock's "q at (m + s)·θ = … rad") goes there: placed in the plane below the
    circle, it covered the arrows' heads at 200 % on stage.
    """

    text: str
    x: float
    y: float
    color: int = 0
    strip: bool = False
    wedge: tuple[float, float] | None = None
    """The sector of the unit circle the text belongs in where it fits there: from the
    angle ``wedge[0]`` by ``wedge[1]`` (radians, at most π either way), e.g. the
    clock's angle between k and q; ``None``: anywhere near ``(x, y)``."""
    wedge_first: bool = False
    """The text stays in its ``wedge`` across the panel's faint lines (dashed ones and
    trails, drawn under its halo) and at down to 0.8 of its size before it goes
    outside: the clock's angle, which outside its wedge reads as k's or q's."""


@dataclass(frozen=True)
class Tile:
    """One matrix of a mosaic heatmap: small multiples drawn as a single image.

    Attributes
    ----------
    label
        Shown in the tile's top-right corner (e.g. ``"head 3: m = 0.125"``).
    short
        Shown instead when the tile is too small on screen for ``label`` (e.g. ``"3"``).
    row0, col0
        Top-left cell of the tile in the panel's image.
    y_coords, x_coords
        True positions of the tile's rows and columns (a sample of a longer axis).
    """

    label: str
    short: str
    row0: int
    col0: int
    y_coords: np.ndarray
    x_coords: np.ndarray

    def of(self, image: np.ndarray) -> np.ndarray:
        """This tile's block of the mosaic ``image``."""
        return image[
            self.row0 : self.row0 + len(self.y_coords), self.col0 : self.col0 + len(self.x_coords)
        ]


@dataclass
class Panel:
    """One plot of a view.

    Attributes
    ----------
    key
        Stable identifier within the view (used by CLI ``--panel`` and tests).
    kind
        ``curves``, ``heatmap``, ``arrows``, ``bars`` or ``table``.
    image, x_coords, y_coords
        Heatmap values ``(rows, cols)`` and the true coordinates of each column/row
        (which may be a sample of a longer axis; values are exact at those coordinates).
    levels
        Fixed colour range; ``None`` means from the data (finite values).
    arrows, labels
        An ``arrows`` panel's vectors from the origin and texts at data coordinates; its
        ``series`` are drawn behind the arrows (trails, arcs, projections).
    probe
        ``probe(x, y) -> str``: exact readout at data coordinates, computed on demand.
    x_axis, y_axis
        Whether the bottom / left axis is drawn (small multiples share axes: only the
        outer row and column of a grid show them).
    x_ticks, y_ticks
        Optional categorical tick labels ``[(position, text), ...]`` (e.g. tokens).
    tiles
        For a mosaic heatmap: where each small matrix sits in ``image`` and its label.
    row, col, row_span, col_span
        Position in the view's grid layout.
    bands
        Ranges of x a ``curves`` panel marks as having no data (:class:`Band`): drawn
        hatched under the curves with a legend entry each, and kept in the view range.
    missing
        What a NaN cell of a heatmap means (e.g. ``"no row"``); when set, the GUI hatches
        those cells instead of leaving them blank.
    square
        ``True``: a heatmap whose rows and columns are the same kind of thing (query ×
        key positions, patch rows × columns), drawn with square cells. ``None``
        (default): grids of at most 16 × 16 cells are drawn square, larger ones fill
        the plot. ``False``: rows and columns are different things (Word order's words
        × output dimensions): the cells fill the plot, however few.
    cell_decimals
        Decimals a small grid prints its non-integer values with (``None``, the default:
        three significant digits, two decimals below 1). Word order's differences print
        one ("-0.4"): "-0.41" did not fit their cells on stage and none printed.
    layout_columns
        A heatmap whose number of columns follows a slider: the view's plots are laid
        out (plot columns and their widths) as if it had this many columns, each
        labelled and with its values, whatever it has now (``None``: as many as it
        has). Word order's differences have d columns (2-256): laid out for their own,
        dragging d moved the plots between 3 and 4 plot columns and back.
    values_first
        A small heatmap whose printed values are what it shows (Word order's weights and
        differences): the view lays its plots out in fewer, wider columns rather than
        print them below the stage's least value size (two thirds of the UI scale's).
    """

    key: str
    title: str
    kind: PanelKind
    x_label: str = ""
    y_label: str = ""
    series: list[Series] = field(default_factory=list)
    image: np.ndarray | None = None
    x_coords: np.ndarray | None = None
    y_coords: np.ndarray | None = None
    colormap: Colormap = "diverging"
    levels: tuple[float, float] | None = None
    value_label: str = "value"
    arrows: list[Arrow] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    header: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    log_x: bool = False
    log_y: bool = False
    note: str = ""
    probe: Callable[[float, float], str] | None = None
    colorbar: bool = True
    x_axis: bool = True
    y_axis: bool = True
    x_ticks: list[tuple[float, str]] | None = None
    y_ticks: list[tuple[float, str]] | None = None
    tiles: tuple[Tile, ...] = ()
    row: int = 0
    col: int = 0
    row_span: int = 1
    col_span: int = 1
    missing: str = ""
    square: bool | None = None
    cell_decimals: int | None = None
    layout_columns: int | None = None
    values_first: bool = False
    bands: list[Band] = field(default_factory=list)

    def data_table(self) -> tuple[list[str], np.ndarray]:
        """The panel's plotted numbers as ``(column names, 2-D array)`` for CSV/NPY.

        Curves: one ``x`` column per distinct x plus a column per series (series of
        other lengths are padded with NaN). Heatmaps: the matrix itself with the column
        coordinates as names. Arrows: rows ``(x, y)``. Tables have no numeric data.
        :attr:`bands` are not data and are left out.
        """
        if self.kind == "heatmap" and self.image is not None:
            cols = self.x_coords if self.x_coords is not None else np.arange(self.image.shape[1])
            return [f"{c:g}" for c in cols], np.asarray(self.image, dtype=np.float64)
        if self.kind in ("curves", "bars") and self.series:
            n = max(len(s.x) for s in self.series)
            names, columns = [], []
            for s in self.series:
                for label, values in ((f"{s.name} x", s.x), (s.name, s.y)):
                    col = np.full(n, np.nan)
                    col[: len(values)] = values
                    names.append(label)
                    columns.append(col)
            return names, np.column_stack(columns)
        if self.kind == "arrows" and self.arrows:
            return ["x", "y"], np.array([[a.x, a.y] for a in self.arrows], dtype=np.float64)
        return [], np.zeros((0, 0))


@dataclass
class ViewData:
    """Everything one view displays for one set of parameters."""

    view_id: str
    params: dict[str, Any]
    panels: list[Panel]
    formula: str = ""
    verdict: str = ""
    notes: list[str] = field(default_factory=list)
    #: the formula as :mod:`core.formula` markup (typeset by the GUI); ``formula`` is
    #: its plain form. Empty: the GUI shows ``formula`` as it stands.
    formula_markup: str = ""
    #: the panels (keys) a note of :attr:`notes` speaks of; a note not listed is about
    #: the whole view. A stage showing some panels shows only the notes about them.
    note_panels: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: the verdict in one short line, for the stage (presentation mode), where the
    #: whole ``verdict`` goes to the lecturer's note. Empty: the stage shows ``verdict``.
    verdict_short: str = ""
    #: the value the view used for a parameter whose own value it did not use
    #: (:attr:`~core.params.Param.unused`): Learned's table file sets the table's rows
    #: and width. Its greyed-out field shows this value, not the one it keeps.
    used: dict[str, Any] = field(default_factory=dict)

    def display_notes(self, shown: Collection[str] | None = None) -> list[str]:
        """The view's notes, then each panel's own note (prefixed with its title).

        Parameters
        ----------
        shown
            Keys of the panels on screen (a scene shows some, a reveal step fewer, a
            focused plot one): only their notes, the view notes about them and those
            about the whole view. ``None``: every note.
        """

        def about_shown(keys: Collection[str]) -> bool:
            return shown is None or not keys or any(k in shown for k in keys)

        return [n for n in self.notes if about_shown(self.note_panels.get(n, ()))] + [
            f"{p.title}: {p.note}"
            for p in self.panels
            if p.note and p.note not in self.notes and (shown is None or p.key in shown)
        ]

    def panel(self, key: str) -> Panel:
        """The panel with ``key`` (KeyError listing the keys otherwise)."""
        for p in self.panels:
            if p.key == key:
                return p
        raise KeyError(
            f"no panel '{key}' in view '{self.view_id}'; panels: "
            f"{', '.join(p.key for p in self.panels)}"
        )


@dataclass(frozen=True)
class ComputeContext:
    """How much to compute: the display budget and the array backend.

    Attributes
    ----------
    max_cells
        Longest heatmap axis computed for display (roughly the pixels available);
        longer axes are sampled at exact positions and labelled as sampled.
    max_points
        Longest curve computed for display.
    backend
        ``None`` (numpy) or a :class:`core.backend.Backend`.
    for_display
        The data is only drawn (the window's frames): a view may hold a large heatmap in
        float32, the precision it is drawn in (the same colours), and half the bytes to
        write, hand over and read on every frame. Off (the default: exports, CSV/NPY of
        a plot, tests), panels hold float64 as computed.
    """

    max_cells: int = 512
    max_points: int = 2048
    backend: Any = None
    for_display: bool = False


@dataclass(frozen=True)
class ExportData:
    """Full-resolution data behind a view (what NPY/CSV export writes)."""

    name: str
    array: np.ndarray
    axes: tuple[str, ...]
    description: str


@dataclass(frozen=True)
class ViewSpec:
    """A view: its parameter model, explanation and pure computations.

    Attributes
    ----------
    compute
        ``compute(params, ctx) -> ViewData`` (display resolution).
    export
        ``export(params) -> ExportData`` (full resolution, memory-guarded).
    data_description
        What ``export`` contains, for ``main.py views``.
    """

    view_id: str
    title: str
    model: ParamModel
    explanation: str
    compute: Callable[[Mapping[str, Any], ComputeContext], ViewData]
    export: Callable[[Mapping[str, Any]], ExportData]
    data_description: str


def sample_axis(n: int, max_n: int) -> tuple[np.ndarray, int]:
    """Exact positions ``0, s, 2s, ...`` covering ``0..n-1`` with at most ``max_n`` entries.

    Returns
    -------
    (indices, stride)
        ``stride`` is 1 when nothing is skipped.
    """
    n, max_n = int(n), max(int(max_n), 1)
    if n <= max_n:
        return np.arange(n), 1
    stride = -(-n // max_n)  # ceil division
    return np.arange(0, n, stride), stride


def sampled_note(axis: str, n: int, stride: int) -> str:
    """Human note for a sampled axis, e.g. ``'positions sampled: every 32nd of 16384'``."""
    if stride == 1:
        return ""
    return f"{axis} sampled for display: every {_ordinal(stride)} of {n}"


def _ordinal(k: int) -> str:
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def fmt_value(v: float) -> str:
    """Readout formatting: up to 6 significant digits, ``−∞`` for masked entries."""
    if np.isneginf(v):
        return "−∞ (masked)"
    if np.isposinf(v):
        return "+∞"
    if np.isnan(v):
        return "undefined"
    return f"{v:.6g}"


def block_envelope(values: np.ndarray, stride: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-block ``(min, max)`` of ``values`` (last axis) over blocks of ``stride`` entries.

    Block ``k`` covers entries ``k·stride .. (k+1)·stride − 1`` (the last one may be
    shorter): what one sampled display point stands for.
    """
    v = np.asarray(values, dtype=np.float64)
    stride = max(int(stride), 1)
    count = -(-v.shape[-1] // stride)
    pad = count * stride - v.shape[-1]
    lo = np.pad(v, [(0, 0)] * (v.ndim - 1) + [(0, pad)], constant_values=np.inf)
    hi = np.pad(v, [(0, 0)] * (v.ndim - 1) + [(0, pad)], constant_values=-np.inf)
    shape = (*v.shape[:-1], count, stride)
    return lo.reshape(shape).min(axis=-1), hi.reshape(shape).max(axis=-1)


def envelope_xy(x: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A line through ``(x_k, lo_k), (x_k, hi_k)`` for every ``k``: drawn, it fills the
    band between ``lo`` and ``hi`` with vertical strokes (a per-pixel min/max envelope)."""
    return np.repeat(np.asarray(x, dtype=np.float64), 2), np.column_stack([lo, hi]).ravel()


def envelope_note(axis: str, n: int, stride: int) -> str:
    """Note for a curve drawn as a min/max envelope of ``stride``-wide blocks."""
    return (
        f"{axis} sampled for display: each vertical stroke spans the exact min–max over "
        f"{stride} consecutive {axis} of {n} (a plain sample would alias)"
    )


def sampled_label(name: str, stride: int) -> str:
    """A curve's legend name, marked when it is drawn from every ``stride``-th point."""
    return name if stride <= 1 else f"{name} · 1 in {stride}"
