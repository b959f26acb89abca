"""Learned view: a position table, similarity between its rows, a few dimensions, row norms."""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import numpy as np

from core import tablecache
from core.formula import plain_text
from core.learned import (
    cosine_similarity,
    init_learned_table,
    learned_lookup,
    learned_table_rows,
)
from core.memory import check_allocation
from core.params import Param, ParamModel
from core.table_formats import load_position_table
from core.viewdata import (
    Band,
    ComputeContext,
    ExportData,
    Panel,
    Series,
    ViewData,
    ViewSpec,
    fmt_value,
    sample_axis,
    sampled_label,
    sampled_note,
)


def _set_by_file(values: Mapping[str, Any]) -> str | None:
    """Why the table's rows, width and seed are not used: a table file sets the table."""
    return "the table file sets it" if str(values["table_file"]).strip() else None


def _no_table_file(values: Mapping[str, Any]) -> str | None:
    """Why the tensor name is not used: it names a tensor of a table file, and none is set."""
    return None if str(values["table_file"]).strip() else "no table file is set"


MODEL = ParamModel(
    "learned",
    "Learned",
    (
        Param(
            "max_positions",
            "int",
            64,
            "Table rows (max positions)",
            "Rows of the embedding "
            "table: the longest sequence the model can ever read (BERT: 512, GPT-2: 1024).",
            1,
            8192,
            1,
            unused=_set_by_file,
        ),
        Param(
            "d_model",
            "int",
            32,
            "Model width d",
            "Columns of the table (embedding size).",
            1,
            4096,
            1,
            unused=_set_by_file,
        ),
        Param(
            "seed",
            "int",
            0,
            "Random seed",
            "Seed of the N(0, 1) initialisation (like a fresh "
            "nn.Embedding); the same seed always gives the same table.",
            0,
            2**31 - 1,
            1,
            unused=_set_by_file,
        ),
        Param(
            "table_file",
            "file",
            "",
            "Table file (.npy, .safetensors, .pt)",
            "Optional 2-D (max_positions, d) "
            "table: .npy (e.g. saved by 'main.py train --save'), .safetensors or .pt (e.g. a "
            "GPT-2 or BERT checkpoint); nothing in the file is executed, pickled code is "
            "refused. When set, the file defines max_positions and d_model and the seed is "
            "ignored.",
            max_items=4096,
        ),
        Param(
            "table_key",
            "text",
            "",
            "Tensor name in the file",
            "Which tensor of a .safetensors/.pt file is the table. Empty: wpe.weight "
            "(GPT-2), else *position_embeddings.weight (BERT), else the file's only 2-D tensor.",
            max_items=256,
            unused=_no_table_file,
        ),
        Param(
            "seq_len",
            "int",
            48,
            "Sequence length",
            "Positions looked up: 0..seq_len−1. Past "
            "max_positions the table has no row: those positions are drawn as 'no row'.",
            1,
            16384,
            1,
        ),
    ),
)

EXPLANATION = (
    "A learned position embedding is just a table with one trainable row per position "
    "(an nn.Embedding, as in BERT and GPT-2); row p is added to the token embedding at "
    "position p. Here the table is freshly initialised with random numbers, so the "
    "similarity between rows shows no structure at all: any smooth, distance-like pattern "
    "only appears after training, learned from data. The table also fixes the longest "
    "usable sequence: a position beyond its last row has nothing to look up (a real model "
    "raises an index error), which the plots mark as 'no row' rather than extrapolating."
)

_FULL_TABLE_LIMIT = 2**22  # entries: below this the generated table is cached whole


@lru_cache(maxsize=2)
def _small_table(rows: int, d: int, seed: int) -> np.ndarray:
    table = init_learned_table(rows, d, seed)
    table.flags.writeable = False  # shared by every frame: nobody may write into it
    return table


@lru_cache(maxsize=1)
def _file_table(path: str, key: str, mtime_ns: int, size: int) -> np.ndarray:
    table = load_position_table(path, key)
    table.flags.writeable = False
    return table


class _Table:
    """The position table, read row-wise without holding a large generated table."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.path = str(params["table_file"]).strip()
        self.seed = int(params["seed"])
        self.array: np.ndarray | None = None
        self._rows: dict[int, np.ndarray] = {}
        if self.path:
            try:
                st = os.stat(self.path)
            except OSError as exc:
                raise ValueError(f"{self.path}: cannot read ({exc.strerror or exc})") from None
            tkey = str(params.get("table_key", "")).strip()
            self.array = _file_table(self.path, tkey, st.st_mtime_ns, st.st_size)
            self.rows, self.d = self.array.shape
            self.key: tuple[Any, ...] = ("file", self.path, tkey, st.st_mtime_ns, st.st_size)
        else:
            self.rows, self.d = int(params["max_positions"]), int(params["d_model"])
            self.key = ("seeded", self.rows, self.d, self.seed)
            if self.rows * self.d <= _FULL_TABLE_LIMIT:
                self.array = _small_table(self.rows, self.d, self.seed)

    def row(self, p: int) -> np.ndarray:
        """One exact row, cached (hover readouts ask for the same rows repeatedly)."""
        if p not in self._rows:
            if len(self._rows) > 256:
                self._rows.clear()
            self._rows[p] = self.take(np.array([p]))[0]
        return self._rows[p]

    def take(self, positions: np.ndarray) -> np.ndarray:
        """Exact rows ``(len(positions), d)`` of the table (equal to the full table's rows)."""
        pos = np.asarray(positions, dtype=np.int64)
        if self.array is not None:
            return self.array[pos]
        return learned_table_rows(self.d, self.seed, pos)

    def strided(self, count: int, step: int = 1, dim_step: int = 1) -> np.ndarray:
        """Rows ``0, s, …, (count−1)·s`` and columns ``0, t, 2t, …`` (read-only view if held)."""
        if self.array is not None:
            return self.array[0 : count * step : step, ::dim_step]
        return self.take(step * np.arange(count))[:, ::dim_step]

    def sample(self, count: int, step: int, dim_step: int) -> np.ndarray:
        """:meth:`strided`, cached for a table drawn row by row (it never changes with
        ``seq_len``, and drawing its rows is the slow part of a frame); read-only."""
        if self.array is not None:
            return self.strided(count, step, dim_step)
        key = ("learned-sample", *self.key, count, step, dim_step)
        return tablecache.cached(
            key, lambda: np.ascontiguousarray(self.strided(count, step, dim_step))
        )

    def similarity(
        self, count: int, step: int = 1, rows: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Cosine matrix and row norms of rows ``0, s, …, (count−1)·s``.

        A ``seq_len`` drag only changes ``count``: for a held table both are computed once
        for a capacity (at most the table's rows) and sliced — read-only results, equal to
        :func:`core.learned.cosine_similarity` and ``norm(rows, axis=1)`` of those rows up to rounding. ``rows``:
        those rows when the caller already has them (used for a table drawn row by row).
        """
        avail = -(-self.rows // step)
        cap = min(tablecache.capacity(count), avail)
        if self.array is None or not tablecache.fits(cap * max(cap, self.d)):
            rows = self.strided(count, step) if rows is None else rows
            return cosine_similarity(rows, rows), np.linalg.norm(rows, axis=1)

        def make(size: int) -> tuple[np.ndarray, np.ndarray]:
            held = self.strided(size, step)
            return cosine_similarity(held, held), np.linalg.norm(held, axis=1)

        sim, norms = tablecache.cached(
            ("learned-cosine", *self.key, step, cap), lambda: make(cap), direct=lambda: make(count)
        )
        return sim[:count, :count], norms[:count]


def _robust_level(image: np.ndarray) -> tuple[float, int]:
    """Colour limit for a loaded table: the 99.5th percentile of |E| (one outlier must
    not flatten the map), and how many shown cells lie beyond it (they saturate)."""
    mag = np.abs(np.asarray(image, dtype=np.float64))
    mag = mag[np.isfinite(mag)]
    if mag.size == 0:
        return 1.0, 0
    level = float(np.percentile(mag, 99.5))
    if level <= 0:
        level = max(float(mag.max()), 1e-12)
    return level, int(np.count_nonzero(mag > level))


def compute(params: Mapping[str, Any], ctx: ComputeContext) -> ViewData:
    """Display data of the learned view (cost bounded by ``ctx``).

    Past ``max_positions`` the positions that have no row are drawn as such (NaN cells,
    a "no row" :class:`~core.viewdata.Band` in the curve panels, which is not data) and the verdict says why; only the export
    refuses them.

    Raises
    ------
    ValueError
        The table file cannot be loaded.
    """
    table = _Table(params)
    n, rows, d = int(params["seq_len"]), table.rows, table.d
    over = n > rows
    notes = []
    if table.path:
        notes.append(
            f"table loaded from {os.path.basename(table.path)}: it defines "
            f"max_positions = {rows} and d_model = {d} (sliders ignored)"
        )
    dims, s_d = sample_axis(d, ctx.max_cells)
    q_pos, s_q = sample_axis(n, ctx.max_cells)
    valid = q_pos < rows
    vc = int(np.count_nonzero(valid))  # q_pos is increasing: the first vc exist
    if over:  # the table panel spans every position asked for, the missing ones blank
        t_pos, s_t = q_pos, s_q
        t_image = np.full((q_pos.size, dims.size), np.nan)
        t_image[:vc] = table.sample(vc, s_q, s_d)
    else:
        t_pos, s_t = sample_axis(rows, ctx.max_cells)
        t_image = table.sample(t_pos.size, s_t, s_d)
    q_valid = table.strided(vc, s_q)
    notes += [
        t
        for t in (
            sampled_note("table rows", rows, s_t) if not over else "",
            sampled_note("dimensions", d, s_d),
            sampled_note("looked-up positions", n, s_q),
        )
        if t
    ]
    sim_valid, norms_valid = table.similarity(vc, s_q, q_valid)
    if over:
        sim = np.full((q_pos.size, q_pos.size), np.nan)
        sim[:vc, :vc] = sim_valid
        norms = np.full(q_pos.size, np.nan)
        norms[:vc] = norms_valid
        q_rows = np.full((q_pos.size, d), np.nan)
        q_rows[:vc] = q_valid
    else:
        sim, norms, q_rows = sim_valid, norms_valid, q_valid
    shown = sorted({c for c in (0, 1, d // 2, d - 1) if c < d})  # d may be 1
    level, saturated = _robust_level(t_image) if table.path else (3.0, 0)
    if table.path:
        notes.append(
            f"colour range ±{level:.3g}: the 99.5th percentile of |E| "
            f"({saturated} shown cells beyond it saturate)"
        )
    missing = f"positions {rows}..{n - 1}" if n - rows > 1 else f"position {rows}"

    def no_row(p: int) -> str:
        return f"position {p}: no row (the table has max_positions = {rows} rows, 0..{rows - 1})"

    def probe_table(x: float, y: float) -> str:
        p, c = int(round(y)), int(round(x))
        if not (0 <= p < max(rows, n) and 0 <= c < d):
            return ""
        if p >= rows:
            return no_row(p)
        return f"E[{p}, {c}] = {fmt_value(table.row(p)[c])}"

    def probe_sim(x: float, y: float) -> str:
        p, q = int(round(y)), int(round(x))
        if not (0 <= p < n and 0 <= q < n):
            return ""
        if max(p, q) >= rows:
            return no_row(max(p, q))
        v = cosine_similarity(table.row(p)[None], table.row(q)[None])[0, 0]
        return f"cos(E[{p}], E[{q}]) = {fmt_value(v)}"

    # the positions without a row: a hatched band in the curve plots, not a curve
    bands = [Band(rows - 0.5, n - 0.5, f"no row: {missing}")] if over else []
    src = "loaded table" if table.path else f"random init, seed {table.seed}"
    panels = [
        Panel(
            "table",
            f"Position table E ({rows} × {d}, {src}"
            + (f"; no row: {rows}..{n - 1})" if over else ")"),
            "heatmap",
            "dimension",
            "position (table row)",
            image=t_image,
            x_coords=dims,
            y_coords=t_pos,
            colormap="diverging",
            levels=(-level, level),
            value_label="E[p, dim]",
            probe=probe_table,
            missing="no row" if over else "",
            note=f"rows 0..{min(n, rows) - 1} are looked up"
            + (f"; {missing} have no row: hatched band" if over else ""),
            row=0,
            col=0,
        ),
        Panel(
            "similarity",
            "Cosine similarity between looked-up rows"
            + (f" (no row: {rows}..{n - 1})" if over else ""),
            "heatmap",
            "position q",
            "position p",
            image=sim,
            x_coords=q_pos,
            y_coords=q_pos,
            colormap="diverging",
            levels=(-1.0, 1.0),
            value_label="cosine",
            probe=probe_sim,
            square=True,
            missing="no row" if over else "",
            note="" if table.path else "random init: ≈0 off the diagonal, no structure yet",
            row=0,
            col=1,
        ),
        Panel(
            "dims",
            "Looked-up values of a few dimensions",
            "curves",
            "position p",
            "E[p, dim]",
            series=[
                Series(sampled_label(f"dim {c}", s_q), q_pos.astype(float), q_rows[:, c])
                for c in shown
            ],
            bands=bands,
            row=1,
            col=0,
        ),
        Panel(
            "norms",
            "Row norm ‖E[p]‖ of looked-up positions",
            "curves",
            "position p",
            "‖E[p]‖",
            series=[Series(sampled_label("‖E[p]‖", s_q), q_pos.astype(float), norms)],
            bands=bands,
            row=1,
            col=1,
        ),
    ]
    formula = (  # core.formula markup; two spaces separate terms
        f"x_p = token\\_embedding + E[p],  E ∈ ℝ^{{{rows}×{d}}},  p = 0..{n - 1} "
        f"(valid: 0..{rows - 1}"
        + (f"; {missing}: no row" if over else "")
        + ");  "
        + ("E from file" if table.path else f"E ~ N(0, 1), seed {table.seed}")
    )
    verdict = (
        f"seq_len {n} > max_positions={rows}: {missing} have no row in the table — a learned "
        "embedding cannot look them up (a real model raises an index error) and cannot "
        "extrapolate beyond the length it was trained for."
        if over
        else ""
    )
    return ViewData(
        "learned",
        dict(params),
        panels,
        plain_text(formula),
        verdict,
        notes=notes,
        formula_markup=formula,
        verdict_short=(
            f"seq_len {n} > max_positions {rows}: {missing} have no row — no extrapolation"
            if over
            else ""
        ),
        # (the file's shape, for the greyed-out "Table rows" and "Model width d")
        used={"max_positions": rows, "d_model": d} if table.path else {},
    )


def export(params: Mapping[str, Any]) -> ExportData:
    """The full ``(seq_len, d_model)`` looked-up rows E[0..seq_len−1]."""
    table = _Table(params)
    n = int(params["seq_len"])
    learned_lookup(np.zeros((table.rows, 0)), np.arange(n))
    check_allocation("learned position rows", (n, table.d), copies=2)
    return ExportData(
        "positions",
        table.take(np.arange(n)),
        ("position", "dimension"),
        "looked-up position embeddings (seq_len, d_model): row p = E[p]",
    )


SPEC = ViewSpec(
    "learned",
    "Learned",
    MODEL,
    EXPLANATION,
    compute,
    export,
    "(seq_len, d_model) float64: rows 0..seq_len−1 of the position table E "
    "(random N(0, 1) init from the seed, or the loaded .npy); row p = E[p]",
)
