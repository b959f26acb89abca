"""The training lab's six plots as :class:`core.viewdata.Panel` objects (no Qt here).

The lab window (:mod:`gui.widgets.train_page`) draws these panels with the views' own
plot code, so its plots take the app's theme, UI scale, legend strips, colour bars and
hover readouts. A plot without its data yet is an *empty* panel: no series, no image,
no axes, and :attr:`Panel.note` saying what will appear there (see :func:`is_empty`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from core.learned import cosine_similarity
from core.training.model import PE_LABELS
from core.viewdata import Panel, Series

#: each method's colour: an index into the views' Okabe–Ito palette (0 blue, 1 orange,
#: 2 green, 3 pink, 5 vermillion, 7 the theme's foreground)
METHOD_COLOR = {"rope": 0, "sinusoidal": 1, "alibi": 2, "t5": 3, "learned": 5, "none": 7}

KEYS = ("loss", "accuracy", "extrapolation", "similarity", "attention", "rope")
TITLES = {
    "loss": "Training loss",
    "accuracy": "Training accuracy",
    "extrapolation": "Extrapolation: accuracy at evaluation length",
    "similarity": "Learned table: cosine similarity",
    "attention": "Attention, layer 1 head 1",
    "rope": "RoPE frequencies θ_i",
}
EMPTY_NOTES = {
    "loss": "The loss of each method appears here while it trains.",
    "accuracy": "The training accuracy appears here while each method trains.",
    "extrapolation": "Accuracy at 0.5×–4× the training length appears when a method ends.",
    "similarity": "The learned table's cosine similarity appears when the learned run ends.",
    "attention": "An attention map appears when a method ends.",
    "rope": "RoPE's frequencies appear when the RoPE run ends.",
}


def empty_panel(key: str) -> Panel:
    """Plot ``key`` before its data: its title, no axes, and a note saying what comes."""
    return Panel(key, TITLES[key], "curves", x_axis=False, y_axis=False, note=EMPTY_NOTES[key])


def is_empty(panel: Panel) -> bool:
    """Whether ``panel`` has nothing to draw yet (its :attr:`Panel.note` says what comes)."""
    return not panel.series and panel.image is None


def _series(
    pe: str,
    x: Sequence[float] | np.ndarray,
    y: Sequence[float] | np.ndarray,
    name: str | None = None,
) -> Series:
    return Series(
        PE_LABELS[pe] if name is None else name,
        np.asarray(x, dtype=float),
        np.asarray(y, dtype=float),
        color=METHOD_COLOR[pe],
    )


def training_panel(key: str, curves: Mapping[str, Mapping[str, list[float]]]) -> Panel:
    """The loss (``key`` ``"loss"``, log axis) or training accuracy (``"accuracy"``) per
    step of each method in ``curves`` (method -> ``{"steps", "loss", "acc"}`` lists)."""
    if not curves:
        return empty_panel(key)
    loss = key == "loss"
    series = [_series(pe, c["steps"], c["loss"] if loss else c["acc"]) for pe, c in curves.items()]
    return Panel(
        key,
        TITLES[key],
        "curves",
        x_label="step",
        y_label="loss (cross-entropy)" if loss else "accuracy",
        series=series,
        log_y=loss,
    )


def extrapolation_panel(results: Iterable[Mapping[str, Any]]) -> Panel:
    """Accuracy against evaluation length of each finished (not cancelled) method in
    ``results`` (:func:`core.training.runner.summary` dicts); a learned table has no
    row past its length: its curve stops there and its name says so."""
    series = []
    for res in results:
        if res["cancelled"]:
            continue
        pe = res["pe"]
        lengths = np.asarray(res["lengths"], dtype=float)
        acc = np.array([np.nan if a is None else a for a in res["accuracy"]], dtype=float)
        ok = np.isfinite(acc)
        name = PE_LABELS[pe]
        if not ok.all() and ok.any():
            name += f" (no row past {int(lengths[ok].max())})"
        series.append(_series(pe, lengths[ok], acc[ok], name))
    if not series:
        return empty_panel("extrapolation")
    return Panel(
        "extrapolation",
        TITLES["extrapolation"],
        "curves",
        x_label="evaluation length",
        y_label="accuracy",
        series=series,
    )


def _cell_probe(
    image: np.ndarray, x_name: str, y_name: str, value_name: str
) -> Any:  # (a closure over the matrix: the readout under the cursor)
    def probe(x: float, y: float) -> str:
        col, row = int(np.floor(x + 0.5)), int(np.floor(y + 0.5))
        if not (0 <= row < image.shape[0] and 0 <= col < image.shape[1]):
            return ""
        return f"{y_name} {row}, {x_name} {col}: {value_name} {image[row, col]:.3f}"

    return probe


def similarity_panel(table: np.ndarray | None) -> Panel:
    """The cosine similarity of the trained learned ``table``'s rows (positions)."""
    if table is None:
        return empty_panel("similarity")
    rows = np.asarray(table, dtype=float)
    image = cosine_similarity(rows, rows)
    return Panel(
        "similarity",
        TITLES["similarity"],
        "heatmap",
        x_label="position q",
        y_label="position p",
        image=image,
        colormap="diverging",
        levels=(-1.0, 1.0),
        value_label="cosine",
        probe=_cell_probe(image, "q", "p", "cosine"),
        square=True,
    )


def attention_panel(attention: np.ndarray | None, pe: str | None = None) -> Panel:
    """The attention weights ``(query, key)`` of layer 1, head 1 of method ``pe``'s
    evaluation sample (rows: queries, top to bottom; a causal map is lower-triangular)."""
    if attention is None or pe is None:
        return empty_panel("attention")
    image = np.asarray(attention, dtype=float)
    return Panel(
        "attention",
        f"{TITLES['attention']}: {PE_LABELS[pe]}, one sample",
        "heatmap",
        x_label="key position",
        y_label="query position",
        image=image,
        colormap="sequential",
        levels=(0.0, 1.0),
        value_label="weight",
        probe=_cell_probe(image, "key", "query", "weight"),
        square=True,
    )


def rope_panel(theta: np.ndarray | None) -> Panel:
    """RoPE's rotation frequencies ``θ_i`` (radians per position), one per pair."""
    if theta is None:
        return empty_panel("rope")
    values = np.asarray(theta, dtype=float)
    return Panel(
        "rope",
        TITLES["rope"],
        "curves",
        x_label="rotation pair i",
        y_label="θ_i (radians per position)",
        series=[_series("rope", np.arange(len(values), dtype=float), values, "θ_i")],
        log_y=True,
    )
