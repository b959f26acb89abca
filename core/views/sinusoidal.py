"""Sinusoidal view: waves per dimension, the PE heatmap, position similarity, wavelengths."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from core.formula import approx, approx_text, number, plain_text
from core.memory import check_allocation
from core.params import Param, ParamModel, last_position
from core.sinusoidal import (
    score_terms,
    similarity_block_mean,
    similarity_grid,
    sinusoidal,
    sinusoidal_block_mean,
    sinusoidal_strided,
    sinusoidal_wavelengths,
)
from core.viewdata import (
    ComputeContext,
    ExportData,
    Panel,
    Series,
    ViewData,
    ViewSpec,
    block_envelope,
    envelope_note,
    envelope_xy,
    fmt_value,
    sample_axis,
    sampled_note,
)

MODEL = ParamModel(
    "sinusoidal",
    "Sinusoidal",
    (
        Param(
            "seq_len",
            "int",
            100,
            "Sequence length",
            "Number of positions p = 0..seq_len−1.",
            1,
            65536,
            1,
        ),
        Param(
            "d_model",
            "int",
            32,
            "Model width d",
            "Embedding size d (odd values work: the last column is a sine).",
            1,
            16384,
            1,
        ),
        Param(
            "base",
            "float",
            10000.0,
            "Base",
            "Frequency base: ω_i = base^(−2i/d). The paper "
            "uses 10000; a larger base stretches the slowest wavelengths.",
            2.0,
            1e7,
            100.0,
            log_scale=True,
        ),
        Param(
            "dims",
            "int_list",
            (0, 1, 2, 3, 4, 5),
            "Dimensions to plot",
            "Columns drawn as "
            "waves, e.g. 0,1,2,3,4,5 (even = sin, odd = cos). Columns ≥ d are skipped.",
            0,
            16383,
            1,
            max_items=16,
        ),
        Param(
            "query",
            "int",
            10,
            "Query position i",
            "Token i whose embedding + PE is drawn, and whose score against each key j "
            "is split into its four terms (clamped to seq_len−1).",
            0,
            65535,
            1,
            limit=last_position,
        ),
        Param(
            "emb_std",
            "float",
            1.0,
            "Token embedding scale σ",
            "Standard deviation of the seeded toy token embeddings x (the course's "
            "torch.randn: σ = 1). At 0 only the PE is left.",
            0.0,
            4.0,
            0.1,
        ),
    ),
)

KEY_WINDOW = 64  # keys in the four-term panel (its 5 curves stay within the view's
# antialiasing budget of points; fewer keys for a very wide d: 2^20 numbers)
DIM_WINDOW = 128  # dimensions drawn in the embedding + PE panel

EXPLANATION = (
    "Each position p gets a fixed vector of sines and cosines at geometrically spaced "
    "frequencies: fast waves in the first columns, slow ones in the last. The vector is "
    "added to the token embedding before the first layer. Because "
    "sin/cos of p+k are a rotation of sin/cos of p, PE_p·PE_q depends only on p−q for an "
    "even d: the similarity matrix is constant along its diagonals (an odd d's lone last "
    "sine column breaks this). Layout: interleaved "
    '(column 2i = sin, 2i+1 = cos), as in Vaswani et al. Bottom: what "added to the '
    'input" does to one token vector x_i + p_i, and the four terms the sum puts into '
    "every score (x_i + p_i)·(x_j + p_j): content–content, content–position, "
    "position–content and position–position (before W_q, W_k; toy token vectors). "
    "Course corrections: in PE(pos, 2i) and PE(pos, 2i+1), i is the pair index "
    "0..⌈d/2⌉−1, not the embedding dimension (the dimensions are 2i and 2i+1); and the "
    "course's positional_encoding code fails for an odd d_model above 1."
)


def _wave_series(
    n: int, d: int, base: float, dims: list[int], ctx: ComputeContext
) -> tuple[list[Series], str]:
    """The waves of ``dims``: exact curves, or per-block min/max envelopes when the
    positions do not fit in ``ctx.max_points`` (a sample of dim 0, period 2π, every
    32nd position would draw a slow wave that is not there); and a note when sampled."""
    names = [f"dim {k} ({'sin' if k % 2 == 0 else 'cos'})" for k in dims]
    if n <= ctx.max_points or not dims:
        pos = np.arange(n)
        waves = (
            sinusoidal(n, d, base, dims=np.array(dims, dtype=int), backend=ctx.backend)
            if dims
            else np.zeros((n, 0))
        )
        return [Series(nm, pos, waves[:, c]) for c, nm in enumerate(names)], ""
    starts, stride = sample_axis(n, ctx.max_points // 2)
    lo = np.empty((len(dims), starts.size))
    hi = np.empty_like(lo)
    rows = stride * max(1, 2**16 // (stride * len(dims)))  # whole blocks per chunk
    for a in range(0, n, rows):
        block = sinusoidal(
            n, d, base, positions=np.arange(a, min(a + rows, n)), dims=np.array(dims)
        )
        k0 = a // stride
        lo_c, hi_c = block_envelope(block.T, stride)
        lo[:, k0 : k0 + lo_c.shape[1]], hi[:, k0 : k0 + hi_c.shape[1]] = lo_c, hi_c
    series = []
    for c, nm in enumerate(names):
        x, y = envelope_xy(starts, lo[c], hi[c])
        series.append(Series(f"{nm}, min–max per {stride}", x, y))
    return series, envelope_note("positions", n, stride)


def _pe_block_means(
    n: int, d: int, base: float, step: int, count: int, dims: np.ndarray
) -> np.ndarray:
    """Mean of PE over positions ``[k·step, min((k+1)·step, n))`` for ``k < count``."""
    heat = sinusoidal_block_mean(count, d, base, step, dims)
    last = (count - 1) * step
    if last + step > n:  # the last block is cut short by the sequence's end
        rows = sinusoidal(n, d, base, positions=np.arange(last, n), dims=dims)
        heat = np.array(heat)
        heat[-1] = rows.mean(axis=0)
    return heat


def _similarity_note(n: int, d: int, base: float, s_pos: int) -> str:
    """Sampling, and when the similarity is (not) a function of p − q."""
    parts = [sampled_note("positions", n, s_pos)]
    if d % 2:
        w = float(base ** (-(d - 1) / d))
        what = (
            f"d = 1: the only column sin(p·{approx_text(w, 4)}) gives PE_p·PE_q = sin(p·ω)·sin(q·ω)"
            if d == 1
            else f"d = {d} is odd: the lone last column sin(p·{approx_text(w, 4)}) adds sin(p·ω)·sin(q·ω)"
        )
        parts.append(
            what + ", which is not a function of p − q: the diagonals are not constant "
            "(they are exactly when d is even)"
        )
    return "; ".join(t for t in parts if t)


def odd_d_course_note(d: int) -> str:
    """What the course's ``positional_encoding(max_len, d)`` does for an odd ``d``."""
    if d % 2 == 0 or d == 1:  # d = 1: the lone cosine broadcasts into 0 columns, no error
        return ""
    return (
        f"course code: positional_encoding(max_len, {d}) stops with a ValueError — "
        f"pe[:, 1::2] has {d // 2} columns but cos(position·div_term) has {(d + 1) // 2} "
        "(numpy cannot broadcast them); this app gives the odd last column a sine"
    )


def key_window(n: int, d: int, query: int) -> np.ndarray:
    """Keys of the four-term panel: every key when they fit, else a window around
    the query (exact values, no sampling: the content terms are noise that a sample
    would not show more truthfully)."""
    width = min(n, KEY_WINDOW, max(32, 2**20 // max(d, 1)))
    start = min(max(query - width // 2, 0), n - width)
    return np.arange(start, start + width)


def sum_panels(params: Mapping[str, Any]) -> tuple[list[Panel], list[str]]:
    """The token + PE panel and the four-term score panel (row 2), and their notes."""
    n, d, base = params["seq_len"], params["d_model"], params["base"]
    sigma = params["emb_std"]
    i = MODEL["query"].effective(params)
    keys = key_window(n, d, i)
    terms, xi, pi = score_terms(i, keys, d, base, sigma)
    shown = min(d, DIM_WINDOW)
    dim = np.arange(shown, dtype=float)
    tag = f", dims 0..{shown - 1} of {d}" if shown < d else ""
    x = keys.astype(float)
    names = (
        "x_i·x_j content–content",
        "x_i·p_j content–position",
        "p_i·x_j position–content",
        "p_i·p_j position–position",
    )
    series = [Series(nm, x, terms[k]) for k, nm in enumerate(names)]
    series.append(Series("sum = (x_i+p_i)·(x_j+p_j)", x, terms.sum(axis=0), "dashed"))
    at_i = int(np.searchsorted(keys, i))
    window = f"keys {keys[0]}..{keys[-1]} around the query" if keys.size < n else ""
    notes = [t for t in (odd_d_course_note(d),) if t]
    panels = [
        Panel(
            "sum",
            f'What "added to the input" does to token i = {i}: x_i + p_i{tag}',
            "curves",
            "dimension",
            "value",
            series=[
                Series(f"token x_i (σ = {sigma:g})", dim, xi[:shown], "dashed"),
                Series("PE p_i", dim, pi[:shown]),
                Series("input x_i + p_i", dim, xi[:shown] + pi[:shown]),
            ],
            note=f"first {shown} of {d} dimensions" if shown < d else "",
            row=2,
            col=0,
        ),
        Panel(
            "terms",
            f"Score of query i = {i} vs key j in four terms (at j = i: |x_i|² = "
            f"{approx_text(terms[0, at_i])}, p_i·p_i = {approx_text(terms[3, at_i])})",
            "curves",
            "key j" + (f" ({window})" if window else ""),
            "dot product",
            series=series,
            row=2,
            col=1,
        ),
    ]
    return panels, notes


def compute(params: Mapping[str, Any], ctx: ComputeContext) -> ViewData:
    """Display data of the sinusoidal view (cost bounded by ``ctx``)."""
    n, d, base = params["seq_len"], params["d_model"], params["base"]
    dims = [k for k in params["dims"] if k < d]
    pos_img, s_pos = sample_axis(n, ctx.max_cells)
    dim_img, s_dim = sample_axis(d, ctx.max_cells)
    series, wave_sampled = _wave_series(n, d, base, dims, ctx)
    if s_pos == 1:
        heat = sinusoidal_strided(
            pos_img.size, d, base, pos_step=s_pos, dim_step=s_dim, backend=ctx.backend
        )
        sim = similarity_grid(pos_img, d, base)  # Toeplitz: one value per offset, cached
    else:  # a cell stands for s_pos positions: its exact mean, not every s-th row (aliasing)
        heat = _pe_block_means(n, d, base, s_pos, pos_img.size, dim_img)
        sim = similarity_block_mean(pos_img.size, s_pos, d, base)
    wl = sinusoidal_wavelengths(d, base)[0::2]
    notes = [
        t for t in (sampled_note("positions", n, s_pos), sampled_note("dimensions", d, s_dim)) if t
    ]
    heat_notes = []
    if s_pos > 1:
        heat_notes.append(
            f"each cell is the exact mean over its {s_pos} positions (a plain sample would "
            "show stripes that are not there); hover for exact values"
        )
    if s_dim > 1 and s_dim % 2 == 0:
        heat_notes.append(f"every {s_dim}th dimension is even: only sin columns are shown")

    def cell_mean(p: int, c: int) -> str:
        """The shown cell's value when a cell stands for a block of positions."""
        if s_pos == 1:
            return ""
        k = min(int(round(p / s_pos)), pos_img.size - 1)
        lo, hi = k * s_pos, min(k * s_pos + s_pos, n) - 1
        v = _pe_block_means(n, d, base, s_pos, k + 1, np.array([c]))[k, 0]
        return f"; cell = mean over positions {lo}..{hi}: {fmt_value(v)}"

    def probe_pe(x: float, y: float) -> str:
        p, c = int(round(y)), int(round(x))
        if not (0 <= p < n and 0 <= c < d):
            return ""
        v = sinusoidal(n, d, base, positions=[p], dims=[c])[0, 0]
        return (
            f"position {p}, dim {c} ({'sin' if c % 2 == 0 else 'cos'}): {fmt_value(v)}"
            + cell_mean(p, c)
        )

    def probe_sim(x: float, y: float) -> str:
        p, q = int(round(y)), int(round(x))
        if not (0 <= p < n and 0 <= q < n):
            return ""
        v = similarity_grid(np.array([p, q]), d, base)[0, 1]
        text = f"PE_{p}·PE_{q} (offset {p - q}): {fmt_value(v)}"
        if s_pos == 1:
            return text
        a = min(int(round(p / s_pos)), pos_img.size - 1)
        b = min(int(round(q / s_pos)), pos_img.size - 1)
        mean = similarity_block_mean(max(a, b) + 1, s_pos, d, base)[a, b]
        return (
            text + f"; cell = mean over the {s_pos}×{s_pos} block at ({a * s_pos}, "
            f"{b * s_pos}): {fmt_value(mean)}"
        )

    dropped = [k for k in params["dims"] if k >= d]
    wave_note = f"dims {', '.join(map(str, dropped))} ≥ d skipped" if dropped else ""
    panels = [
        Panel(
            "waves",
            "PE value per position for selected dimensions",
            "curves",
            "position p",
            "PE[p, dim]",
            series=series,
            note="; ".join(t for t in (wave_note, wave_sampled) if t),
            row=0,
            col=0,
        ),
        Panel(
            "heatmap",
            "PE matrix (positions × dimensions)",
            "heatmap",
            "dimension",
            "position p",
            image=heat,
            x_coords=dim_img,
            y_coords=pos_img,
            colormap="diverging",
            levels=(-1.0, 1.0),
            value_label="PE",
            probe=probe_pe,
            note="; ".join(heat_notes),
            row=0,
            col=1,
        ),
        Panel(
            "similarity",
            "Similarity PE_p · PE_q "
            + ("(depends on p − q only)" if d % 2 == 0 else "(odd d: not a function of p − q)"),
            "heatmap",
            "position q",
            "position p",
            image=sim,
            x_coords=pos_img,
            y_coords=pos_img,
            colormap="diverging",
            levels=(-float(np.ceil(d / 2)), float(np.ceil(d / 2))),
            value_label="dot product",
            probe=probe_sim,
            square=True,
            note=_similarity_note(n, d, base, s_pos),
            row=1,
            col=0,
        ),
        Panel(
            "wavelength",
            "Wavelength 2π/ω_i of each sin/cos pair",
            "curves",
            "pair index i",
            "wavelength (positions)",
            series=[Series("wavelength", np.arange(wl.size), wl, "scatter")],
            log_y=True,
            row=1,
            col=1,
        ),
    ]
    pairs = -(-d // 2)  # ω_0 .. ω_{pairs−1}; ω_1 exists from d = 3 on
    omega1 = f", ω_1 = {approx(base ** (-2.0 / d), 4)}" if pairs >= 2 else ""
    formula = (  # core.formula markup; two spaces separate terms
        f"PE[p, 2i] = sin(p·ω_i),  PE[p, 2i+1] = cos(p·ω_i),  ω_i = {number(base)}^{{−2i/{d}}}"
        f"   → ω_0 = 1{omega1},  wavelengths {approx(wl[0])} … {approx(wl[-1])}"
    )
    extra, extra_notes = sum_panels(params)
    panels += extra
    notes += extra_notes
    return ViewData(
        "sinusoidal",
        dict(params),
        panels,
        plain_text(formula),
        notes=notes,
        formula_markup=formula,
    )


def export(params: Mapping[str, Any]) -> ExportData:
    """The full (seq_len, d_model) PE matrix."""
    n, d = params["seq_len"], params["d_model"]
    check_allocation("sinusoidal PE matrix", (n, d), copies=3)
    return ExportData(
        "pe",
        sinusoidal(n, d, params["base"]),
        ("position", "dimension"),
        "PE matrix (seq_len, d_model): rows positions, columns dimensions",
    )


SPEC = ViewSpec(
    "sinusoidal",
    "Sinusoidal",
    MODEL,
    EXPLANATION,
    compute,
    export,
    "(seq_len, d_model) float64 PE matrix; rows = positions, columns = dimensions",
)
