"""Sinusoidal view: waves per dimension, the PE heatmap, position similarity, wavelengths."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from core.memory import check_allocation
from core.params import Param, ParamModel
from core.sinusoidal import (
    similarity_grid,
    sinusoidal,
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
    ),
)

EXPLANATION = (
    "Each position p gets a fixed vector of sines and cosines at geometrically spaced "
    "frequencies: fast waves in the first columns, slow ones in the last. The vector is "
    "added to the token embedding before the first layer. Because "
    "sin/cos of p+k are a rotation of sin/cos of p, PE_p·PE_q depends only on p−q: "
    "the similarity matrix is constant along its diagonals. Layout: interleaved "
    "(column 2i = sin, 2i+1 = cos), as in Vaswani et al."
)


def compute(params: Mapping[str, Any], ctx: ComputeContext) -> ViewData:
    """Display data of the sinusoidal view (cost bounded by ``ctx``)."""
    n, d, base = params["seq_len"], params["d_model"], params["base"]
    dims = [k for k in params["dims"] if k < d]
    pos_curve, s_curve = sample_axis(n, ctx.max_points)
    pos_img, s_pos = sample_axis(n, ctx.max_cells)
    dim_img, s_dim = sample_axis(d, ctx.max_cells)
    waves = (
        sinusoidal(
            n, d, base, positions=pos_curve, dims=np.array(dims, dtype=int), backend=ctx.backend
        )
        if dims
        else np.zeros((len(pos_curve), 0))
    )
    series = [
        Series(f"dim {k} ({'sin' if k % 2 == 0 else 'cos'})", pos_curve, waves[:, c])
        for c, k in enumerate(dims)
    ]
    heat = sinusoidal_strided(
        pos_img.size, d, base, pos_step=s_pos, dim_step=s_dim, backend=ctx.backend
    )
    sim = similarity_grid(pos_img, d, base)  # Toeplitz: one value per offset, cached
    wl = sinusoidal_wavelengths(d, base)[0::2]
    notes = [
        t for t in (sampled_note("positions", n, s_pos), sampled_note("dimensions", d, s_dim)) if t
    ]

    def probe_pe(x: float, y: float) -> str:
        p, c = int(round(y)), int(round(x))
        if not (0 <= p < n and 0 <= c < d):
            return ""
        v = sinusoidal(n, d, base, positions=[p], dims=[c])[0, 0]
        return f"position {p}, dim {c} ({'sin' if c % 2 == 0 else 'cos'}): {fmt_value(v)}"

    def probe_sim(x: float, y: float) -> str:
        p, q = int(round(y)), int(round(x))
        if not (0 <= p < n and 0 <= q < n):
            return ""
        v = similarity_grid(np.array([p, q]), d, base)[0, 1]
        return f"PE_{p}·PE_{q} (offset {p - q}): {fmt_value(v)}"

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
            note=wave_note,
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
            note="; ".join(notes),
            row=0,
            col=1,
        ),
        Panel(
            "similarity",
            "Similarity PE_p · PE_q (depends on p − q only)",
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
            note=sampled_note("positions", n, s_pos),
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
    omega1 = base ** (-2.0 / d) if d > 1 else 1.0
    formula = (
        f"PE[p, 2i] = sin(p·ω_i),  PE[p, 2i+1] = cos(p·ω_i),  ω_i = {base:g}^(−2i/{d})"
        f"   → ω_0 = 1, ω_1 = {omega1:.4g}, wavelengths {wl[0]:.3g} … {wl[-1]:.3g}"
    )
    return ViewData("sinusoidal", dict(params), panels, formula, notes=notes)


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
