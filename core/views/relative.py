"""Relative view: the course's i − j grid, Shaw et al. clipped indices, T5 buckets."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np

from core.formula import plain_text
from core.memory import check_allocation
from core.params import Param, ParamModel, last_position
from core.relative import (
    TOY_WIDTH,
    deberta_log_bucket,
    deberta_terms,
    relative_positions,
    shaw_relative_index,
    t5_relative_bucket,
    transformer_xl_terms,
)
from core.toeplitz import even_step, offsets, toeplitz_view
from core.viewdata import (
    ComputeContext,
    ExportData,
    Panel,
    Series,
    ViewData,
    ViewSpec,
    sample_axis,
    sampled_label,
    sampled_note,
)

MODEL = ParamModel(
    "relative",
    "Relative",
    (
        Param(
            "seq_len",
            "int",
            12,
            "Sequence length",
            "Query and key positions 0..seq_len−1.",
            1,
            4096,
            1,
        ),
        Param(
            "k",
            "int",
            4,
            "Shaw clip k",
            "Shaw et al.'s max_relative_position: offsets beyond "
            "±k share the outermost embedding: 2k + 1 embeddings per table, and Shaw learns "
            "two tables (keys and values): 2·(2k + 1)·d_head parameters per layer.",
            0,
            512,
            1,
        ),
        Param(
            "bidirectional",
            "bool",
            True,
            "T5 bidirectional",
            "Encoder style: separate buckets "
            "for keys before and after the query. Off (decoder): keys after the query all "
            "get bucket 0.",
        ),
        Param(
            "num_buckets",
            "int",
            32,
            "T5 buckets",
            "Number of T5 buckets (32 in T5); half are exact small distances, half logarithmic.",
            4,
            256,
            1,
        ),
        Param(
            "max_distance",
            "int",
            128,
            "T5 max distance",
            "Distances from here on share the last bucket (128 in T5).",
            2,
            4096,
            1,
        ),
        Param(
            "query",
            "int",
            8,
            "Query i (score terms)",
            "Query whose Transformer-XL and DeBERTa score terms are drawn against each key "
            "(clamped to seq_len−1).",
            0,
            4095,
            1,
            limit=last_position,
        ),
        Param(
            "position_buckets",
            "int",
            256,
            "DeBERTa buckets",
            "DeBERTa-v2/v3 position_buckets (256): offsets |i − j| ≤ position_buckets/2 keep "
            "their value, larger ones share logarithmic buckets; 2·position_buckets "
            "relative embeddings.",
            2,
            1024,
            1,
        ),
        Param(
            "max_relative_positions",
            "int",
            512,
            "DeBERTa max relative",
            "DeBERTa's max_relative_positions (512): |i − j| = max − 1 reaches the last "
            "bucket, position_buckets − 1.",
            4,
            8192,
            1,
        ),
    ),
)

EXPLANATION = (
    "Relative methods ask how far apart two tokens are instead of where each one sits. The "
    "course grid writes the offset as i − j (query minus key); Shaw et al. and T5 use the "
    "opposite sign, j − i (key minus query), so always check which one a paper means. Shaw "
    "et al. clip the offset to ±k and learn one embedding per clipped value, in two tables "
    "(one added to the keys, one to the values). T5 learns one "
    "scalar bias per bucket: small distances get a bucket each, larger ones share "
    "logarithmically wider buckets, and everything beyond max_distance lands in the last "
    "one. Bottom, the two models the course names: Transformer-XL writes the score of "
    "query i and key j as four terms, content (a), content–position (b) with R_{i−j} a "
    "sinusoid of the distance, and two learned global biases u (c) and v (d) that replace "
    "the query's own position; DeBERTa keeps content and position apart (disentangled "
    "attention) and adds content→position (c2p) and position→content (p2c) terms that "
    "read relative embeddings at a log-bucketed i − j."
)


def _t5(rel: np.ndarray, params: Mapping[str, Any]) -> np.ndarray:
    return t5_relative_bucket(
        rel, params["bidirectional"], params["num_buckets"], params["max_distance"]
    )


def _grids(
    n: int, k: int, idx: np.ndarray, params: Mapping[str, Any]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Course grid, Shaw index and T5 bucket on ``idx × idx``.

    All three depend on ``i − j`` only, so on evenly spaced ``idx`` each is evaluated
    once per offset and laid out as a Toeplitz matrix (read-only views): the same values
    as evaluating every cell, in ``O(len(idx))`` instead of ``O(len(idx)²)``.
    """
    step = even_step(idx)
    if step is None:
        grid = relative_positions(n, rows=idx, cols=idx)
        return grid, shaw_relative_index(n, k, rows=idx, cols=idx), _t5(-grid, params)
    start = np.zeros(1, dtype=np.int64)
    diff = offsets(idx.size, step)  # i − j, as positions: rows diff, column 0
    vectors = (
        relative_positions(n, rows=diff, cols=start)[:, 0],
        shaw_relative_index(n, k, rows=diff, cols=start)[:, 0],
        _t5(-diff, params),
    )
    grid, shaw, t5 = (toeplitz_view(v, idx.size) for v in vectors)
    return grid, shaw, t5


TERM_REACH = 32  # keys within ±32 of the query (64 back for causal Transformer-XL)
BUCKET_POINTS = 24  # sampled relative positions per side in the DeBERTa bucket plot


def _check_deberta(params: Mapping[str, Any]) -> None:
    deberta_log_bucket(
        np.zeros(1, dtype=np.int64), params["position_buckets"], params["max_relative_positions"]
    )


def term_keys(n: int, query: int, reach: int, causal: bool) -> np.ndarray:
    """Keys of a score-term panel: those within ``reach`` of the query (only ``j ≤ i``
    when ``causal``), exact, no sampling. A seq_len drag leaves them alone once the
    sequence reaches past them."""
    lo = max(0, query - reach)
    hi = query if causal else min(n - 1, query + reach)
    return np.arange(lo, hi + 1)


def term_panels(params: Mapping[str, Any], ctx: ComputeContext) -> list[Panel]:
    """Transformer-XL's (a)–(d) and DeBERTa's c2c/c2p/p2c for one query, and DeBERTa's
    log buckets against i − j (row 1).

    They depend on the sequence length only up to the last key within
    :data:`TERM_REACH` after the query: a seq_len drag beyond it gets the same panels
    (kept, their arrays read-only), computed once instead of on every frame (about
    half of the view's compute)."""
    n = params["seq_len"]
    i = MODEL["query"].effective(params)
    # n past i + TERM_REACH + 1 changes neither the keys nor the "near the query" titles
    reach_n = min(n, i + TERM_REACH + 2)
    nb, mp = params["position_buckets"], params["max_relative_positions"]
    return list(_term_panels(i, reach_n, nb, mp))


@functools.lru_cache(maxsize=8)
def _term_panels(i: int, n: int, nb: int, mp: int) -> tuple[Panel, ...]:
    """:func:`term_panels` for query ``i`` of ``n`` positions (read-only arrays)."""
    xl_keys = term_keys(n, i, 2 * TERM_REACH, causal=True)
    xl = transformer_xl_terms(i, xl_keys, TOY_WIDTH)
    xk = xl_keys.astype(float)
    xl_names = ("(a) q_i·k_j content", "(b) q_i·W_R R_{i−j}", "(c) u·k_j", "(d) v·W_R R_{i−j}")
    xl_series = [Series(nm, xk, xl[t]) for t, nm in enumerate(xl_names)]
    xl_series.append(Series("sum A_{ij}", xk, xl.sum(axis=0), "dashed"))
    db_keys = term_keys(n, i, TERM_REACH, causal=False)
    db = deberta_terms(i, db_keys, nb, mp, TOY_WIDTH)
    dk = db_keys.astype(float)
    db_series = [
        Series(nm, dk, db[t])
        for t, nm in enumerate(("c2c Q_i·K_j", "c2p Q_i·K_r[δ(i, j)]", "p2c K_j·Q_r[δ(j, i)]"))
    ]
    db_series.append(Series("sum", dk, db.sum(axis=0), "dashed"))
    reach = 2 * mp
    # monotone (a line up to ±position_buckets/2, then a log curve): a sample draws it
    # faithfully, and a few points keep the view within its antialiasing budget
    r_idx, r_stride = sample_axis(reach + 1, BUCKET_POINTS)
    mid = nb // 2
    corners = [c for c in (mid, mid + 1, mp - 1, reach) if c <= reach]  # kink, last bucket
    r_idx = np.unique(np.append(r_idx, corners))
    rel = np.concatenate([-r_idx[:0:-1], r_idx]).astype(np.int64)
    bucket = deberta_log_bucket(rel, nb, mp).astype(float)

    def window(keys: np.ndarray, total: int) -> str:
        return f" (keys {keys[0]}..{keys[-1]}, near the query)" if keys.size < total else ""

    panels = (
        Panel(
            "xl_terms",
            f"Transformer-XL: score of query {i} = (a) + (b) + (c) + (d), keys j ≤ {i}",
            "curves",
            "key j" + window(xl_keys, i + 1),
            "score term (÷√d)",
            series=xl_series,
            note=f"toy head d = {TOY_WIDTH}, seeded; (c) and (d) use no query position: "
            "u and v are the same for every query",
            row=1,
            col=0,
            col_span=2,
        ),
        Panel(
            "deberta_terms",
            f"DeBERTa: score of query {i} = c2c + c2p + p2c",
            "curves",
            "key j" + window(db_keys, n),
            "score term (÷√(3d))",
            series=db_series,
            note=f"toy head d = {TOY_WIDTH}, seeded, shared key/query projections as in "
            f"DeBERTa-v3; δ = log bucket of i − j ({nb} buckets, max {mp})",
            row=1,
            col=2,
        ),
        Panel(
            "deberta_buckets",
            f"DeBERTa log bucket δ of i − j ({nb} buckets, max {mp})",
            "curves",
            "relative position i − j (query − key)",
            "bucket δ",
            series=[
                Series(sampled_label("bucket δ", r_stride), rel.astype(float), bucket, "step"),
                Series(
                    "i − j (no bucketing)",
                    np.array([-reach, reach], dtype=float),
                    np.array([-reach, reach], dtype=float),
                    "dashed",
                ),
            ],
            note=f"exact for |i − j| ≤ {mid}, logarithmic beyond; |i − j| = {mp - 1} → "
            f"±{int(deberta_log_bucket(np.array([mp - 1]), nb, mp)[0])}; the embedding row "
            f"read is clamp(δ + {nb}, 0, {2 * nb - 1}), so |δ| ≥ {nb} share the last rows"
            + (
                "; " + sampled_note("relative positions", reach + 1, r_stride)
                if r_stride > 1
                else ""
            ),
            row=1,
            col=3,
        ),
    )
    for panel in panels:
        for series in panel.series:
            for values in (series.x, series.y):
                if isinstance(values, np.ndarray):
                    values.setflags(write=False)
    return panels


def _formula(params: Mapping[str, Any]) -> str:
    nb, md, k = params["num_buckets"], params["max_distance"], params["k"]
    per_dir = nb // 2 if params["bidirectional"] else nb
    return (  # core.formula markup; two spaces separate terms
        f"course grid[i, j] = i − j;  Shaw index = clip(j − i, −{k}, {k}) + {k} ∈ 0..{2 * k}  "
        f"(tables a^K, a^V: 2·{2 * k + 1}·d_{{head}} per layer);"
        f"  T5 bucket(j − i): {nb} buckets,  {per_dir} per direction = {per_dir // 2} exact "
        f"+ {per_dir - per_dir // 2} logarithmic  up to distance {md}"
    )


def compute(params: Mapping[str, Any], ctx: ComputeContext) -> ViewData:
    """Display data of the relative view (heatmaps sampled to ``ctx.max_cells``).

    Raises
    ------
    ValueError
        ``num_buckets``/``max_distance`` leave no room for logarithmic buckets.
    """
    n, k, nb, md = params["seq_len"], params["k"], params["num_buckets"], params["max_distance"]
    _t5(np.zeros(1, dtype=np.int64), params)  # validate the bucket settings first
    _check_deberta(params)
    idx, stride = sample_axis(n, ctx.max_cells)
    grid, shaw, t5 = _grids(n, k, idx, params)
    notes = [t for t in [sampled_note("positions", n, stride)] if t]

    def cell(x: float, y: float) -> tuple[int, int] | None:
        i, j = int(round(y)), int(round(x))
        return (i, j) if 0 <= i < n and 0 <= j < n else None

    def probe_grid(x: float, y: float) -> str:
        if (c := cell(x, y)) is None:
            return ""
        v = relative_positions(n, rows=[c[0]], cols=[c[1]])[0, 0]
        return f"query i={c[0]}, key j={c[1]}: i − j = {v}"

    def probe_shaw(x: float, y: float) -> str:
        if (c := cell(x, y)) is None:
            return ""
        v = shaw_relative_index(n, k, rows=[c[0]], cols=[c[1]])[0, 0]
        return f"query i={c[0]}, key j={c[1]}: j − i = {c[1] - c[0]} → embedding index {v}"

    def probe_t5(x: float, y: float) -> str:
        if (c := cell(x, y)) is None:
            return ""
        v = _t5(np.array(c[1] - c[0]), params)
        return f"query i={c[0]}, key j={c[1]}: j − i = {c[1] - c[0]} → bucket {int(v)}"

    reach = 2 * md
    r_idx, r_stride = sample_axis(reach + 1, ctx.max_points // 2)
    rel = np.concatenate([-r_idx[:0:-1], r_idx]).astype(np.int64)  # symmetric, includes 0
    curve = [
        Series(
            sampled_label("T5 bucket", r_stride),
            rel.astype(float),
            _t5(rel, params).astype(float),
            "step",
        ),
        Series(
            sampled_label(f"Shaw index (k={k})", r_stride),
            rel.astype(float),
            (np.clip(rel, -k, k) + k).astype(float),
            "dashed",
        ),
    ]
    if r_stride > 1:
        notes.append(sampled_note("relative distances", reach + 1, r_stride))
    lim = float(max(n - 1, 1))
    panels = [
        Panel(
            "grid",
            "Course grid: i − j (query − key)",
            "heatmap",
            "key j",
            "query i",
            image=grid,
            x_coords=idx,
            y_coords=idx,
            colormap="diverging",
            levels=(-lim, lim),
            value_label="i − j",
            probe=probe_grid,
            square=True,
            row=0,
            col=0,
        ),
        Panel(
            "shaw",
            f"Shaw et al.: clip(j − i, ±{k}) + {k}",
            "heatmap",
            "key j",
            "query i",
            image=shaw,
            x_coords=idx,
            y_coords=idx,
            colormap="sequential",
            levels=(0.0, float(max(2 * k, 1))),
            value_label="embedding index",
            probe=probe_shaw,
            square=True,
            row=0,
            col=1,
        ),
        Panel(
            "t5",
            f"T5 bucket of j − i ({nb} buckets, max distance {md})",
            "heatmap",
            "key j",
            "query i",
            image=t5,
            x_coords=idx,
            y_coords=idx,
            colormap="sequential",
            levels=(0.0, float(nb - 1)),
            value_label="bucket",
            probe=probe_t5,
            square=True,
            note="" if params["bidirectional"] else "decoder: keys after the query → bucket 0",
            row=0,
            col=2,
        ),
        Panel(
            "t5_curve",
            "Bucket vs relative position j − i",
            "curves",
            "relative position j − i (key − query)",
            "bucket / index",
            series=curve,
            row=0,
            col=3,
        ),
    ]
    panels += term_panels(params, ctx)
    formula = _formula(params)
    return ViewData(
        "relative", dict(params), panels, plain_text(formula), notes=notes, formula_markup=formula
    )


def export(params: Mapping[str, Any]) -> ExportData:
    """Stacked ``(3, seq_len, seq_len)`` int64: course grid, Shaw index, T5 bucket."""
    n = params["seq_len"]
    _t5(np.zeros(1, dtype=np.int64), params)
    check_allocation("relative-position matrices", (3, n, n), copies=1)
    check_allocation("relative-position row block", (256, n), copies=12)
    out = np.empty((3, n, n), dtype=np.int64)
    cols = np.arange(n)
    for start in range(0, n, 256):  # row blocks keep T5's temporaries small
        rows = np.arange(start, min(start + 256, n))
        grid = relative_positions(n, rows=rows, cols=cols)
        out[0, rows] = grid
        out[1, rows] = shaw_relative_index(n, params["k"], rows=rows, cols=cols)
        out[2, rows] = _t5(-grid, params)
    return ExportData(
        "relative",
        out,
        ("matrix", "query i", "key j"),
        "[0] i − j (course grid), [1] Shaw clip(j − i, −k, k) + k, [2] T5 bucket of j − i",
    )


SPEC = ViewSpec(
    "relative",
    "Relative",
    MODEL,
    EXPLANATION,
    compute,
    export,
    "(3, seq_len, seq_len) int64 stacked over queries i (rows) and keys j "
    "(columns): [0] course grid i − j, [1] Shaw index clip(j − i, −k, k) + k, "
    "[2] T5 bucket of relative_position = j − i",
)
